package generate

import (
	"slices"
	"strings"

	"forma/internal/ai/text"
	"forma/internal/form"
)

// prepositions end the head of a noun phrase: in "description of the photo" the
// field is a description, not a photo; in "date de naissance", a date of birth.
var prepositions = text.Set("of for about to from with in on at by per de del du des von vom fur pour para sur au aux zum zur en")

// clauseStarts end it too: "email if we can follow up" asks for an email.
var clauseStarts = text.Set("if so because that which who whether while when where")

// matchConcept finds the concept ws (read by words) is about, in a prompt of the
// given language. A match in the head of the phrase (before its first preposition)
// beats one after it; then the longer match wins, then the later one (English puts
// the head noun last: "photo title" is a title), then the concept listed first.
func matchConcept(ws []string, lang language) (concept, bool) {
	head := len(ws)
	for i := 1; i < len(ws); i++ {
		if prepositions[ws[i]] || clauseStarts[ws[i]] {
			head = i
			break
		}
	}
	best, bestScore := -1, [3]int{}
	for ci, phs := range conceptPhrases[lang] {
		for _, ph := range phs {
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
var coreNoise = text.Set("a an the your their my our his her any please upload field quick short simple brief")

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
	openEnded = phrases("anything|any other|tell us|describe|explain|any comments|any questions|" +
		"any suggestions|any feedback|what else|any special requests|any requests|any notes|any thoughts|" +
		"any ideas|any concerns")
	// firstPerson words make a question a statement to tick ("Keep me updated?").
	firstPerson = text.Set("me my i")
)

// inferType decides the type of a field: a type the prompt names, then a scale, then
// given choices, then a yes/no question, then the concept, then the question word.
// ws are the field's words as gloss reads them.
func inferType(f fragment, ws []string, k concept, known bool, lang language) form.QuestionType {
	switch {
	case f.hint != "" && (!f.hint.HasOptions() || len(f.options) >= 2):
		return f.hint
	case f.scale != nil:
		if f.scale.isRating() {
			return form.Rating
		}
		return form.Slider
	case len(f.options) >= 2:
		return choiceType(f, ws, k, lang)
	case len(ws) > 0 && yesNoStarts[ws[0]] && !text.AnyForms(ws, openEnded):
		return form.YesNo
	case asksYesNo(f.text, ws):
		return form.YesNo
	case len(ws) > 1 && (ws[0] == "number" || ws[0] == "how" && ws[1] == "many"):
		return form.Number
	case known && k.typ.HasOptions():
		return choiceType(f, ws, k, lang)
	case f.currency != "" && (!known || k.typ == form.Text || k.typ == form.Number):
		return form.Currency
	case known:
		return k.typ
	}
	return questionWordType(f.text, ws)
}

// asksYesNo reports whether a field that does not open with a verb still asks yes or
// no: "Any allergies?" (but not "Any comments?"), and a statement to tick ("Update
// my contact details?").
func asksYesNo(wording string, ws []string) bool {
	if !strings.HasSuffix(wording, "?") || len(ws) == 0 || whWords[ws[0]] || text.AnyForms(ws, openEnded) {
		return false
	}
	return ws[0] == "any" || anyWord(ws, firstPerson)
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
func choiceType(f fragment, ws []string, k concept, lang language) form.QuestionType {
	switch {
	case yesNoOptions(f.options):
		return form.YesNo
	case f.multi || k.typ == form.MultiSelect || text.AnyForms(ws, multiCues):
		return form.MultiSelect
	case !numericOptions(f.options) && pluralHead(ws, lang):
		return form.MultiSelect
	}
	return form.Select
}

// multiCues are words that ask for several choices.
var multiCues = phrases("which of|any of|interests|interested in|availability|available|skills|hobbies|" +
	"interessen|interessiert|verfügbarkeit|verfügbar|hobbys|fähigkeiten|intérêt|intérêts|intéressé|" +
	"disponibilité|disponibilités|loisirs|compétences|intereses|interesado|disponibilidad|aficiones|habilidades")

// yesNoOptions reports whether the choices are just yes and no, in any language.
func yesNoOptions(opts []string) bool {
	return len(opts) == 2 && yesNoPairs[strings.ToLower(accentFolder.Replace(opts[0]+"/"+opts[1]))]
}

var yesNoPairs = text.Set("yes/no ja/nein oui/non si/no")

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
func pluralHead(ws []string, lang language) bool {
	switch {
	case len(ws) == 0:
		return false
	case lang == german && whWords[ws[0]]:
		return ws[0] == "which" && len(ws) > 1 && germanPlural(ws[1])
	case whWords[ws[0]]:
		return pluralAsked(ws)
	case lang == german:
		return germanPlural(ws[len(ws)-1])
	}
	return pluralNoun(ws)
}

// germanPlural reports whether a German noun looks plural: "Funktionen",
// "Workshops", "Kinder", but not "Farbe" or "Größe".
func germanPlural(w string) bool {
	return len(w) > 4 && (strings.HasSuffix(w, "en") || strings.HasSuffix(w, "er") || isPlural(w)) &&
		!strings.HasSuffix(w, "ung")
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

// gloss reads the words of a field in a foreign language as the English type rules
// need them: question words become English ones ("wann" is "when"), and a question
// that opens with its verb ("Haben Sie ...?", "Avez-vous ...?", "¿Tienes ...?")
// opens with "do", as an English yes/no question does. English words are returned
// as they are.
func gloss(ws []string, wording string, lang language) []string {
	if lang == english || len(ws) == 0 {
		return ws
	}
	out := glossWords(ws, questionGloss[lang])
	asked := strings.HasSuffix(wording, "?") || strings.HasPrefix(wording, "¿")
	if !asked || startsWithQuestionWord(out) {
		return out
	}
	switch {
	case lang == german && len(out) > 1 && germanSubjects[out[1]],
		lang == french && slices.ContainsFunc(out[:min(len(out), 4)], frenchInversion),
		lang == spanish:
		return append([]string{"do"}, out...)
	}
	return out
}

// glossWords replaces the words and phrases of ws that table has, longest first.
func glossWords(ws []string, table map[string]string) []string {
	var out []string
	for i := 0; i < len(ws); i++ {
		n, english := glossAt(ws, i, table)
		if n == 0 {
			out = append(out, ws[i])
			continue
		}
		out = append(out, strings.Fields(english)...)
		i += n - 1
	}
	return out
}

// glossAt returns the length of the longest phrase of table at ws[i], with its
// English, or 0.
func glossAt(ws []string, i int, table map[string]string) (int, string) {
	for n := min(4, len(ws)-i); n > 0; n-- {
		if english, ok := table[strings.Join(ws[i:i+n], " ")]; ok {
			return n, english
		}
	}
	return 0, ""
}

// startsWithQuestionWord reports whether one of the first three words asks an
// English question word ("depuis combien" asks how many).
func startsWithQuestionWord(ws []string) bool {
	return slices.ContainsFunc(ws[:min(len(ws), 3)], func(w string) bool { return whWords[w] || w == "do" })
}
