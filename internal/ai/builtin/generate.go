// Package builtin is Forma's offline AI provider: deterministic, standard-library
// code that needs no model weights and no network.
package builtin

import (
	"slices"
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
// the prompt is empty, not valid UTF-8, longer than MaxPromptLen characters, or does
// not describe a form.
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
	title := makeTitle(p.headers, in)
	out := form.FormInput{Title: &title, DisplayMode: form.SinglePage}
	description := makeDescription(title, in)
	out.Description = &description
	if p.multiStep {
		out.DisplayMode = form.MultiStep
	}
	for _, q := range selectQuestions(qs, in, p.only) {
		out.Questions = append(out.Questions, q.input())
	}
	return out, nil
}

// selectQuestions settles the questions of the form: required flags, the intent's
// template for a thin prompt (unless it said "only"), no repeats, at most
// MaxGeneratedQuestions.
func selectQuestions(qs []question, in *intent, only bool) []question {
	qs = markRequired(qs, in)
	if in != nil && (len(qs) == 0 || len(qs) < 3 && in.enrich && !only) {
		qs = mergeTemplate(in.template, qs)
	}
	qs = dedupe(qs)
	return qs[:min(len(qs), MaxGeneratedQuestions)]
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
	case !utf8.ValidString(prompt):
		return form.FieldInvalid("prompt", "must be valid UTF-8")
	case n > MaxPromptLen:
		return form.FieldInvalid("prompt", "must be at most %d characters (got %d)", MaxPromptLen, n)
	case letters < 3 || !hasContent(prompt):
		return form.FieldInvalid("prompt", "is too short or not understandable; %s", promptExample)
	}
	return nil
}

// markRequired decides which parsed questions must be answered: what the prompt says,
// else the first name and email (unless worded as optional), agreement to terms, and
// what the intent needs.
func markRequired(qs []question, in *intent) []question {
	seen := map[string]bool{}
	for i := range qs {
		q := &qs[i]
		if !q.explicit && q.concept != "" {
			q.required = essential(*q, seen[q.concept]) || neededBy(in, q.concept, seen[q.concept])
		}
		seen[q.concept] = true
	}
	return qs
}

// neededBy reports whether the intent needs the first question about concept
// answered (a contact form's message, a job application's resume).
func neededBy(in *intent, concept string, repeated bool) bool {
	return in != nil && !repeated && slices.Contains(in.required, concept)
}

// optionalWords mark a name or email that is not the respondent's own ("emergency
// contact name", "email if we can follow up").
var optionalWords = phrases("if|of|optional|other|alternative|secondary|emergency")

// essential reports whether q is a field every form needs answered (see
// concept.essential); repeated says an earlier question was about the same concept.
func essential(q question, repeated bool) bool {
	k := conceptByKey(q.concept)
	switch {
	case !k.essential:
		return false
	case k.typ == form.YesNo:
		return true
	}
	return !repeated && !anyPhrase(words(q.text), optionalWords)
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

// indexOfConcept returns the first question about concept not yet taken, or -1.
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
