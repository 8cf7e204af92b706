// Package generate is Forma's offline form generator: it turns a request in plain
// English, German, French or Spanish ("a job application form asking for name,
// email, phone and a resume upload") into a form in the request's language, with
// deterministic standard-library code and no model.
//
// Form reads a prompt in six steps:
//
//  0. read the language (language.go): tell it by its clues, correct the
//     misspelt field words of an English prompt (typos.go), and write a foreign
//     prompt's connectives as English ones; words are compared with accents
//     folded, French elisions and German compounds taken apart (vocabulary.go),
//     with the foreign phrases of foreign.go;
//  1. parse (parse.go): normalise the typography, then split the prompt into
//     header sentences, which describe the form, and items, one per field, from
//     lists, bullets and prose (items.go puts back what the splitting separated:
//     choices, qualifiers, rating groups, quoted text);
//  2. take apart (fragment.go): read each item's choices, scale, type hints,
//     currency and "required"/"optional", and clean its words (label.go);
//  3. recognise (concepts.go, infer.go): match the field to a known kind of field
//     (email, phone, rating…) and infer its type, reading a foreign field's
//     question words in English (gloss);
//  4. word (label.go, options.go, question.go): phrase the question (a foreign
//     field keeps its words), give choice questions their options and sliders
//     their range;
//  5. settle (this file, templates.go, describe.go, translations.go): decide what
//     is required, enrich a thin prompt with the template of the kind of form it
//     names (contact, job application, RSVP…, translated for a foreign prompt),
//     drop repeats, cap the questions, and write the title and description.
package generate

import (
	"slices"
	"strings"
	"unicode"

	"forma/internal/ai"
	"forma/internal/ai/text"
	"forma/internal/form"
)

// Form turns a request in plain English, German, French or Spanish ("a job
// application form asking for name, email, phone and a resume upload") into a form
// that form.NewForm accepts, in the request's language: a title, a one-sentence
// description, and up to ai.MaxGeneratedQuestions questions with types, choices and
// required flags. A prompt that names a common kind of form without listing fields
// gets a template; one that names another kind gets name, email and comments. The
// same prompt always gives the same form.
//
// It returns a *form.Error with code form.Invalid, naming the field "prompt", when
// the prompt is empty, not valid UTF-8, longer than ai.MaxPromptLen characters, or
// does not describe a form.
func Form(prompt string) (form.FormInput, error) {
	if err := checkPrompt(prompt); err != nil {
		return form.FormInput{}, err
	}
	lang := languageOf(prompt)
	if lang == english {
		prompt = fixTypos(prompt)
	}
	p := parsePrompt(prompt, lang)
	in := findIntent(words(strings.Join(p.headers, " ")), lang)
	qs := parsedQuestions(p.items, promptCurrency(prompt), lang)
	if len(qs) == 0 && in == nil {
		if !namesForm(p.headers, lang) {
			return form.FormInput{}, form.FieldInvalid("prompt", "does not say what the form should ask; %s", ai.PromptExample)
		}
		in = genericIntent
	}
	title := lang.fromEnglish(makeTitle(p.headers, in, lang))
	description := makeDescription(title, in, lang)
	out := form.FormInput{Title: &title, Description: &description, DisplayMode: form.SinglePage}
	if p.multiStep {
		out.DisplayMode = form.MultiStep
	}
	for _, q := range selectQuestions(qs, in, p.only, lang) {
		out.Questions = append(out.Questions, q.input(lang))
	}
	return out, nil
}

// namesForm reports whether a header names a form of some kind ("a pizza form"):
// a form noun and a word of content besides it.
func namesForm(headers []string, lang language) bool {
	for _, h := range headers {
		ws := words(h)
		if hasFormNoun(ws, lang) && slices.ContainsFunc(ws, func(w string) bool { return !isFormNoun(w, lang) && hasContent(w) }) {
			return true
		}
	}
	return false
}

// selectQuestions settles the questions of the form: required flags, the intent's
// template (in the prompt's language) for a thin prompt (unless it said "only"),
// no repeats, at most ai.MaxGeneratedQuestions.
func selectQuestions(qs []question, in *intent, only bool, lang language) []question {
	qs = markRequired(qs, in)
	if in != nil && (len(qs) == 0 || len(qs) < 3 && in.enrich && !only) {
		qs = mergeTemplate(localize(in.template, lang), qs)
	}
	qs = dedupe(qs)
	return qs[:min(len(qs), ai.MaxGeneratedQuestions)]
}

// checkPrompt rejects prompts that cannot describe a form: those ai.CheckPrompt
// rejects, and those with fewer than three letters or nothing but filler and noise.
func checkPrompt(prompt string) error {
	if err := ai.CheckPrompt(prompt); err != nil {
		return err
	}
	letters := 0
	for _, r := range prompt {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	if letters < 3 || !hasContent(prompt) {
		return form.FieldInvalid("prompt", "is too short or not understandable; %s", ai.PromptExample)
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
var optionalWords = text.Phrases("if|of|optional|other|alternative|secondary|emergency")

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
	return !repeated && !text.AnyForms(words(q.text), optionalWords)
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
		byText := "text:" + strings.ToLower(q.text)
		if seen[q.key] || seen[byText] {
			continue
		}
		seen[q.key], seen[byText] = true, true
		out = append(out, q)
	}
	return out
}
