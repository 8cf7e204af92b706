// Package builtin is Forma's offline AI provider: deterministic, standard-library
// code that needs no model weights and no network.
package builtin

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"forma/internal/form"
)

// Limits of form generation.
const (
	// MaxPromptLen is the longest prompt GenerateForm accepts, in characters.
	MaxPromptLen = 5000
	// MaxGeneratedQuestions caps the questions of a generated form.
	MaxGeneratedQuestions = 30
)

const promptExample = "describe the form you want, for example: 'a contact form with name, email and message'"

// GenerateForm turns a plain-English request ("a job application form asking for
// name, email, phone and a resume upload") into a form that form.NewForm accepts:
// a title, a one-sentence description, and up to MaxGeneratedQuestions questions
// with types, choices and required flags. A prompt that names a common kind of form
// without listing fields gets a template. The same prompt always gives the same form.
//
// It returns a *form.Error with code form.Invalid, naming the field "prompt", when
// the prompt is empty, longer than MaxPromptLen characters, or does not describe a
// form.
func GenerateForm(prompt string) (form.FormInput, error) {
	if err := checkPrompt(prompt); err != nil {
		return form.FormInput{}, err
	}
	p := parsePrompt(prompt)
	in := findIntent(words(strings.Join(p.headers, " ")))
	cur := promptCurrency(prompt)
	qs := parsedQuestions(p.items, cur)
	if len(qs) == 0 && in == nil {
		return form.FormInput{}, form.FieldInvalid("prompt", "does not say what the form should ask; %s", promptExample)
	}
	qs = markRequired(qs, in)
	if in != nil && (len(qs) == 0 || len(qs) < 3 && in.enrich && !p.only) {
		qs = mergeTemplate(in.template, qs)
	}
	qs = dedupe(qs)
	if len(qs) > MaxGeneratedQuestions {
		qs = qs[:MaxGeneratedQuestions]
	}
	title := makeTitle(p.headers, in)
	description := makeDescription(title, in)
	out := form.FormInput{Title: &title, Description: &description, DisplayMode: form.SinglePage}
	if p.multiStep {
		out.DisplayMode = form.MultiStep
	}
	for _, q := range qs {
		out.Questions = append(out.Questions, q.input(cur))
	}
	return out, nil
}

// checkPrompt rejects prompts that cannot describe a form.
func checkPrompt(prompt string) error {
	n := utf8.RuneCountInString(prompt)
	letters := 0
	for _, r := range prompt {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	switch {
	case strings.TrimSpace(prompt) == "":
		return form.FieldInvalid("prompt", "is empty; %s", promptExample)
	case n > MaxPromptLen:
		return form.FieldInvalid("prompt", "must be at most %d characters (got %d)", MaxPromptLen, n)
	case letters < 3 || !hasContent(prompt):
		return form.FieldInvalid("prompt", "is too short or not understandable; %s", promptExample)
	}
	return nil
}

// question is a generated question before it becomes a form.QuestionInput.
type question struct {
	key      string // identity for de-duplication: the concept when the text is just the concept
	concept  string // the concept it is about, "" if none
	typ      form.QuestionType
	text     string
	required bool
	explicit bool // the prompt said required or optional
	options  []string
	slider   *form.SliderConfig
	currency string // "" means the prompt's currency
}

// input converts q into the domain's input type, with fresh copies of its parts.
func (q question) input(currency string) form.QuestionInput {
	text := q.text
	in := form.QuestionInput{Type: q.typ, Question: &text, Required: q.required}
	switch q.typ {
	case form.Select, form.MultiSelect:
		in.Options = append([]string(nil), q.options...)
	case form.Slider:
		s := *q.slider
		in.SliderConfig = &s
	case form.Currency:
		if q.currency != "" {
			currency = q.currency
		}
		in.CurrencyConfig = &form.CurrencyConfig{Currency: currency}
	}
	return in
}

// parsedQuestions builds the questions of the items that are fields.
func parsedQuestions(items []item, currency string) []question {
	var qs []question
	for _, it := range items {
		if q, ok := buildQuestion(it, currency); ok {
			qs = append(qs, q)
		}
	}
	return qs
}

// buildQuestion turns one item into a question; ok is false when the item is not a
// field (filler, noise, or a sentence about something else).
func buildQuestion(it item, currency string) (question, bool) {
	f := analyse(it.text)
	f.text = cleanText(f.text)
	ws := words(f.text)
	k, known := matchConcept(ws)
	if !isField(it, f, ws, known) {
		return question{}, false
	}
	q := question{typ: inferType(f, ws, k, known), options: f.options, currency: f.currency}
	if f.required != nil {
		q.required, q.explicit = *f.required, true
	}
	q.text = phrasing(f.text)
	if known {
		q.concept = k.key
		plain, labelFits := k.naming(ws)
		if plain {
			q.key = k.key
		}
		if labelFits {
			q.text = k.label
		}
	}
	if q.text == "" {
		return question{}, false
	}
	if q.key == "" {
		q.key = "text:" + strings.ToLower(q.text)
	}
	q.completeAnswers(f, k, known, currency)
	return q, true
}

// completeAnswers gives q what its type needs: default choices, a slider range, a
// currency.
func (q *question) completeAnswers(f fragment, k concept, known bool, currency string) {
	switch q.typ {
	case form.Select, form.MultiSelect:
		if len(q.options) < 2 && known && k.typ.HasOptions() {
			q.options = k.options
		}
		if len(q.options) < 2 {
			q.typ, q.options = form.Text, nil
		}
	case form.Slider:
		q.slider = sliderFor(f.scale, k, known)
	case form.Currency:
		if q.currency == "" {
			q.currency = currency
		}
	default:
		q.options = nil
	}
	if q.typ != form.Select && q.typ != form.MultiSelect {
		q.options = nil
	}
}

// sliderFor returns the range of a slider: the prompt's scale, else the concept's,
// else 0 to 10.
func sliderFor(sc *scale, k concept, known bool) *form.SliderConfig {
	switch {
	case sc != nil:
		return &form.SliderConfig{Min: float64(sc.lo), Max: float64(sc.hi), Step: 1}
	case known && k.slider != nil:
		s := *k.slider
		return &s
	}
	return &form.SliderConfig{Min: 0, Max: 10, Step: 1}
}

// notFieldStarts open sentences about the form rather than fields of it.
var notFieldStarts = set("it it's this that these those we i i'm i'd i'll make keep thanks thank should must " +
	"don't sure ok okay hi hello nothing no")

// isField reports whether an item asks for something: it names a known kind of
// field, gives choices or a scale, is a question, or stands in a list.
func isField(it item, f fragment, ws []string, known bool) bool {
	if !hasContent(f.text) || notFieldStarts[ws[0]] && !known {
		return false
	}
	switch {
	case known, len(f.options) >= 2, f.scale != nil, f.hint != "":
		return true
	case yesNoStarts[ws[0]] || whWords[ws[0]] || strings.HasSuffix(f.text, "?"):
		return true
	}
	return it.origin != prose && len(ws) <= 12
}

// markRequired decides which parsed questions must be answered: what the prompt says,
// else the first name and email (unless worded as optional), agreement to terms, and
// what the intent needs.
func markRequired(qs []question, in *intent) []question {
	seen := map[string]bool{}
	for i := range qs {
		q := &qs[i]
		if !q.explicit && q.concept != "" {
			q.required = essential(*q, seen[q.concept]) || in != nil && !seen[q.concept] && contains(in.required, q.concept)
		}
		seen[q.concept] = true
	}
	return qs
}

var optionalWords = phrases("if|of|optional|other|alternative|secondary|emergency")

func essential(q question, repeated bool) bool {
	k := conceptByKey(q.concept)
	switch {
	case !k.essential:
		return false
	case k.key == "terms":
		return true
	}
	return !repeated && !anyPhrase(words(q.text), optionalWords)
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// mergeTemplate fills a thin prompt out with its intent's template: a parsed question
// takes the place of the template's question about the same concept; the others go
// before the template's closing free-text question.
func mergeTemplate(tpl, parsed []question) []question {
	out := append([]question(nil), tpl...)
	taken := map[int]bool{}
	var extra []question
	for _, p := range parsed {
		i := indexOfConcept(out, p.concept, taken)
		if i < 0 {
			extra = append(extra, p)
			continue
		}
		if !p.explicit {
			p.required = p.required || out[i].required
		}
		out[i], taken[i] = p, true
	}
	at := len(out)
	if at > 0 && out[at-1].typ == form.Textarea {
		at--
	}
	return append(out[:at], append(extra, out[at:]...)...)
}

func indexOfConcept(qs []question, concept string, taken map[int]bool) int {
	for i, q := range qs {
		if concept != "" && q.concept == concept && !taken[i] {
			return i
		}
	}
	return -1
}

// dedupe drops questions that repeat an earlier one: the same concept, or the same
// text.
func dedupe(qs []question) []question {
	var out []question
	seen := map[string]bool{}
	for _, q := range qs {
		text := "text:" + strings.ToLower(q.text)
		if seen[q.key] || seen[text] {
			continue
		}
		seen[q.key], seen[text] = true, true
		out = append(out, q)
	}
	return out
}
