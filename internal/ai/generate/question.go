package generate

import (
	"strings"

	"forma/internal/ai/text"
	"forma/internal/form"
)

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
	currency string // ISO 4217 code of a currency question
}

// input converts q into the domain's input type, with fresh copies of its parts,
// in the prompt's language (see language.fromEnglish).
func (q question) input(lang language) form.QuestionInput {
	wording := lang.fromEnglish(q.text)
	in := form.QuestionInput{Type: q.typ, Question: &wording, Required: q.required}
	switch q.typ {
	case form.Select, form.MultiSelect:
		for _, o := range q.options {
			in.Options = append(in.Options, lang.fromEnglish(o))
		}
	case form.Slider:
		s := *q.slider
		in.SliderConfig = &s
	case form.Currency:
		in.CurrencyConfig = &form.CurrencyConfig{Currency: q.currency}
	}
	return in
}

// parsedQuestions builds the questions of the items that are fields, in a prompt of
// the given language.
func parsedQuestions(items []item, currency string, lang language) []question {
	var qs []question
	for _, it := range items {
		if q, ok := buildQuestion(it, currency, lang); ok {
			qs = append(qs, q)
		}
	}
	return qs
}

// buildQuestion turns one item into a question; ok is false when the item is not a
// field (filler, noise, or a sentence about something else).
func buildQuestion(it item, currency string, lang language) (question, bool) {
	f := analyse(it.text)
	f.text = cleanText(f.text, lang)
	ws := words(f.text)
	k, known := matchConcept(ws, lang)
	read := gloss(ws, f.text, lang)
	if !isField(it, f, read, known) {
		return question{}, false
	}
	q := question{typ: inferType(f, read, k, known, lang), options: f.options, currency: f.currency}
	if f.required != nil {
		q.required, q.explicit = *f.required, true
	}
	q.text = phrasing(f.text, lang)
	if known {
		q.concept = k.key
		if k.names(ws) {
			q.key = k.key
			if k.label != "" && lang == english {
				q.text = k.label
			}
		}
	}
	if q.text == "" {
		return question{}, false
	}
	if q.key == "" {
		q.key = "text:" + strings.ToLower(q.text)
	}
	q.completeAnswers(f, k, known, currency, lang)
	return q, true
}

// completeAnswers gives q what its type needs: default choices (in the prompt's
// language), a slider range, a currency (the field's own, else the prompt's).
func (q *question) completeAnswers(f fragment, k concept, known bool, currency string, lang language) {
	switch q.typ {
	case form.Select, form.MultiSelect:
		if len(q.options) < 2 && known && k.typ.HasOptions() {
			q.options = translateOptions(k.options, lang)
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
var notFieldStarts = text.Set("it it's this that these those we i i'm i'd i'll make keep thanks thank should must " +
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
