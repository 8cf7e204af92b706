package generate

import (
	"strings"

	"forma/internal/ai/text"
	"forma/internal/form"
)

// prepositions end the head of a noun phrase: in "description of the photo" the
// field is a description, not a photo.
var prepositions = text.Set("of for about to from with in on at by per")

// clauseStarts end it too: "email if we can follow up" asks for an email.
var clauseStarts = text.Set("if so because that which who whether while when where")

// matchConcept finds the concept ws is about. A match in the head of the phrase
// (before its first preposition) beats one after it; then the longer match wins,
// then the later one (English puts the head noun last: "photo title" is a title),
// then the concept listed first.
func matchConcept(ws []string) (concept, bool) {
	head := len(ws)
	for i := 1; i < len(ws); i++ {
		if prepositions[ws[i]] || clauseStarts[ws[i]] {
			head = i
			break
		}
	}
	best, bestScore := -1, [3]int{}
	for ci, k := range concepts {
		for _, ph := range k.phrases {
			for i := len(ws) - len(ph); i >= 0; i-- {
				if !ph.AtForms(ws, i) {
					continue
				}
				score := [3]int{boolInt(i < head), len(ph), i}
				if best < 0 || greater(score, bestScore) {
					best, bestScore = ci, score
				}
				break
			}
		}
	}
	if best < 0 {
		return concept{}, false
	}
	return concepts[best], true
}

// boolInt is 1 for true.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// greater compares scores lexicographically.
func greater(a, b [3]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] > b[i]
		}
	}
	return false
}

// coreNoise are words that do not change what a field is ("your email" is the
// email).
var coreNoise = text.Set("a an the your their my our his her any please upload field")

// names reports whether ws names k plainly: nothing but k's first phrase, or any of
// its phrases when they are synonyms. Such a field asks the same as any other that
// names k plainly, and k's own question text fits it ("email" and "e-mail address"
// become "Email address"; "work email" and "mobile number" keep the prompt's words).
func (k concept) names(ws []string) bool {
	var core []string
	for _, w := range ws {
		if !coreNoise[w] {
			core = append(core, w)
		}
	}
	for i, ph := range k.phrases {
		if ph.EqualsForms(core) {
			return i == 0 || k.synonymous
		}
	}
	return false
}

// Question words by the answer they expect.
var (
	yesNoStarts = text.Set("do does did are is was were will would can could should have has had may might am " +
		"whether if")
	whWords = text.Set("what which how why when where who whom whose")
	// openEnded phrases make a yes/no-looking question a request for text ("is there
	// anything else ...?").
	openEnded = text.Phrases("anything|any other|tell us|describe|explain|any comments|any questions|" +
		"any suggestions|any feedback|what else")
)

// inferType decides the type of a field: a type the prompt names, then a scale, then
// given choices, then a yes/no question, then the concept, then the question word.
func inferType(f fragment, ws []string, k concept, known bool) form.QuestionType {
	switch {
	case f.hint != "" && (!f.hint.HasOptions() || len(f.options) >= 2):
		return f.hint
	case f.scale != nil:
		if f.scale.isRating() {
			return form.Rating
		}
		return form.Slider
	case len(f.options) >= 2:
		return choiceType(f, ws, k)
	case len(ws) > 0 && yesNoStarts[ws[0]] && !text.AnyForms(ws, openEnded):
		return form.YesNo
	case len(ws) > 1 && ws[0] == "number":
		return form.Number
	case known && k.typ.HasOptions():
		return choiceType(f, ws, k)
	case f.currency != "" && (!known || k.typ == form.Text || k.typ == form.Number):
		return form.Currency
	case known:
		return k.typ
	}
	return questionWordType(f.text, ws)
}

// questionWordType types a field no concept matched, by how it is asked.
func questionWordType(wording string, ws []string) form.QuestionType {
	if len(ws) == 0 {
		return form.Text
	}
	switch {
	case ws[0] == "when":
		return form.Date
	case ws[0] == "why" || ws[0] == "how" || asksSuggestion(ws):
		return form.Textarea
	case strings.HasSuffix(wording, "?") && !whWords[ws[0]]:
		return form.YesNo
	}
	return form.Text
}

// modals ask what someone should or could do.
var modals = text.Set("should could would can")

// asksSuggestion reports whether a "what" question asks what someone should or
// would do ("what should we change", "what would you change"), which wants free
// text.
func asksSuggestion(ws []string) bool {
	if ws[0] != "what" {
		return false
	}
	for i := 1; i+1 < len(ws) && i <= 3; i++ {
		if modals[ws[i]] && (subjects[ws[i+1]] || ws[i+1] == "i") {
			return true
		}
	}
	return false
}

// choiceType decides between yes_no, select and multi_select for a field with
// choices.
func choiceType(f fragment, ws []string, k concept) form.QuestionType {
	switch {
	case yesNoOptions(f.options):
		return form.YesNo
	case f.multi || k.typ == form.MultiSelect || text.AnyForms(ws, multiCues):
		return form.MultiSelect
	case !numericOptions(f.options) && pluralHead(ws):
		return form.MultiSelect
	}
	return form.Select
}

// multiCues are words that ask for several choices.
var multiCues = text.Phrases("which of|any of|interests|interested in|availability|available|skills|hobbies")

// yesNoOptions reports whether the choices are just yes and no.
func yesNoOptions(opts []string) bool {
	return len(opts) == 2 && strings.EqualFold(opts[0], "yes") && strings.EqualFold(opts[1], "no")
}

// numericOptions reports whether the choices are numbers or ranges ("1-10", "200+"),
// which are chosen one at a time.
func numericOptions(opts []string) bool {
	for _, o := range opts {
		if strings.Trim(o, "0123456789-+,. <>$€£") != "" && !strings.HasPrefix(strings.ToLower(o), "more than") {
			return false
		}
	}
	return true
}

// notPlural are words ending in s that are not plurals.
var notPlural = text.Set("us yes news series status address business gas plus bus campus canvas class glass " +
	"process access less this his is was has does its whose always sometimes perhaps")

// pluralHead reports whether the field names its subject in the plural ("fitness
// goals", "which days ..."), so that several choices fit.
func pluralHead(ws []string) bool {
	switch {
	case len(ws) == 0:
		return false
	case whWords[ws[0]]:
		return pluralAsked(ws)
	}
	return pluralNoun(ws)
}

// pluralAsked reports whether a question asks about a plural: "which days ...".
func pluralAsked(ws []string) bool {
	for i := 1; i < min(len(ws), 4); i++ {
		if yesNoStarts[ws[i]] || ws[i] == "you" {
			return false
		}
		if isPlural(ws[i]) && !verbBeforeObject(ws, i) {
			return true
		}
	}
	return false
}

// pluralNoun reports whether the head noun of a noun phrase is plural: the last word
// before a preposition, clause or pronoun, skipping participles ("services needed").
func pluralNoun(ws []string) bool {
	end := len(ws)
	for i, w := range ws {
		if i > 0 && (prepositions[w] || clauseStarts[w] || subjects[w] || objects[w]) {
			end = i
			break
		}
	}
	for end > 1 && strings.HasSuffix(ws[end-1], "ed") {
		end--
	}
	return isPlural(ws[end-1])
}

// objects are pronouns that follow a verb.
var objects = text.Set("you them us me him her it")

// verbBeforeObject reports whether ws[i] is a verb with an object: in "which session
// suits you best", "suits" is a verb, while in "which workshops you want" the
// pronoun starts a clause of its own.
func verbBeforeObject(ws []string, i int) bool {
	return i+1 < len(ws) && objects[ws[i+1]] && (i+2 == len(ws) || notVerbs[ws[i+2]])
}

// isPlural reports whether w looks like a plural noun.
func isPlural(w string) bool {
	return len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") &&
		!strings.HasSuffix(w, "'s") && !notPlural[w]
}
