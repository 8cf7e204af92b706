package generate

import (
	"regexp"
	"strings"

	"forma/internal/ai/text"
)

var (
	// leadingFillerRe matches words that open a field without being part of it:
	// "and their phone", "a field for the budget", "ask if ...".
	leadingFillerRe = regexp.MustCompile(`(?i)^(and|or|also|plus|then|finally|lastly|maybe|optionally|please|` +
		`give|provide|enter|say|share|specify|just|only|` +
		`a field for|field for|(an? )?((follow-up|short|final|last|open|optional) )?question (about|asking( about)?|for|on)|` +
		`a place (to|for)|a space for|space for|a box for|` +
		`ask (them )?(for|about)|ask|asking|include|collect|capture|get|find out|know|to know|to|for|them to|them|` +
		`a|an|the|some|their|his or her|his/her|his|her|your|its|` +
		`(the )?(users?|customers?|applicants?|candidates?|respondents?|participants?|persons?|clients?|people|attendees?)('s|')?)\s+`)
	anyRe           = regexp.MustCompile(`(?i)^any\s+`)
	quotedRe        = regexp.MustCompile(`^["'](.*)["']$`)
	trailingNoiseRe = regexp.MustCompile(`(?i)[\s,.:;-]+$|\s+(and|or|with|as|a|an|the|field|question|input|please|too|as well|` +
		`from (them|applicants|users|customers|people|participants|respondents|attendees|guests|visitors))$`)
	pronounRe = regexp.MustCompile(`(?i)\b((his or her|his/her|he or she|he/she|their|they're|they've|they'd|they'll|they|them|themselves|theirs)\b|` +
		`(people|users?|customers?|participants?|applicants?|candidates?|guests?|attendees?|respondents?)('s|'))`)
	pronounSwaps = map[string]string{"his or her": "your", "his/her": "your", "he or she": "you", "he/she": "you",
		"their": "your", "they're": "you're", "they've": "you've", "they'd": "you'd", "they'll": "you'll",
		"they": "you", "them": "you", "themselves": "yourself", "theirs": "yours"}
)

// cleanText strips the words around a field that are not part of it, drops typing
// noise, and speaks to the respondent ("their phone" becomes "your phone"). In a
// foreign language it also drops the article or possessive that opens a field that
// is not a question ("die Lieferadresse", "votre e-mail").
func cleanText(s string, lang language) string {
	var kept []string
	for _, f := range strings.Fields(s) {
		if ws := text.Words(f); len(ws) == 1 && gibberish(ws[0]) {
			continue
		}
		kept = append(kept, f)
	}
	s = strings.Trim(strings.Join(kept, " "), " ,;:-")
	s = quotedRe.ReplaceAllString(s, "$1")
	for prev := ""; prev != s; {
		prev = s
		s = stripLeading(s, lang)
		s = trailingNoiseRe.ReplaceAllString(s, "")
	}
	if lang != english {
		return s
	}
	return pronounRe.ReplaceAllStringFunc(s, func(m string) string {
		if swap, ok := pronounSwaps[strings.ToLower(m)]; ok {
			return swap
		}
		return "your"
	})
}

var (
	agreeRe = regexp.MustCompile(`(?i)^(agree|accept)\b`)
	rateRe  = regexp.MustCompile(`(?i)^rate\s+`)
)

// phrasing turns a cleaned field into a question text: a question stays a question
// (made direct: "how they heard about us" asks "How did you hear about us?"), "rate
// the food" asks "How would you rate the food?", and a noun phrase stays a label.
// A foreign text keeps its words and gets a capital.
func phrasing(s string, lang language) string {
	if strings.Contains(s, " ") && s == strings.ToUpper(s) {
		s = strings.ToLower(s)
	}
	switch {
	case s == "":
		return ""
	case lang == french:
		return truncate(capitalizeSentence(s), maxQuestionText)
	case lang != english:
		return truncate(capitalizeSentence(spaceBeforeMarkRe.ReplaceAllString(s, "$1")), maxQuestionText)
	case rateRe.MatchString(s):
		s = questionMark("How would you rate " + rateRe.ReplaceAllString(s, ""))
	case agreeRe.MatchString(s):
		s = "I " + strings.ToLower(s[:1]) + s[1:]
	default:
		s = asQuestion(s)
	}
	return truncate(text.Capitalize(s), maxQuestionText)
}

// maxQuestionText keeps generated question texts readable, well under the limit of
// form.MaxQuestionLen.
const maxQuestionText = 250

// participles are the words after which "have" is an auxiliary, besides those
// ending in -ed or -en: past participles, and "ever", "already" and "never".
var participles = text.Set("been done gone had made met heard lost left read found got sent spent kept won taught " +
	"bought brought built sold told ever already never")

// contractions writes out the contracted subjects that asQuestion inverts: the
// pronoun swap of cleanText makes "they're" "you're".
var contractions = strings.NewReplacer(text.Expansions("you're", "you've", "you'd", "you'll", "it's")...)

// asQuestion makes a question of s when s is one, directly or indirectly
// ("whether you will attend" → "Will you attend?"), and leaves other text alone.
func asQuestion(s string) string {
	fs := strings.Fields(s)
	first := strings.ToLower(fs[0])
	switch {
	case first == "whether" || first == "if":
		rest := strings.Fields(contractions.Replace(strings.Join(fs[1:], " ")))
		if len(rest) > 0 && subjects[strings.ToLower(rest[0])] {
			return questionMark(invert(rest))
		}
		return questionMark(strings.Join(rest, " "))
	case whWords[first] || strings.HasSuffix(first, "'s") && whWords[strings.TrimSuffix(first, "'s")]:
		return whQuestion(fs)
	case yesNoStarts[first]:
		return questionMark(s)
	}
	return s
}

// whQuestion handles a question that opens with a question word: direct ones get a
// question mark, indirect ones ("what you liked most") are inverted, and those it
// cannot invert stay as written, without a question mark.
func whQuestion(fs []string) string {
	if strings.HasSuffix(fs[0], "'s") {
		return questionMark(strings.Join(fs, " "))
	}
	fs = strings.Fields(contractions.Replace(strings.Join(fs, " ")))
	if last := strings.ToLower(fs[len(fs)-1]); len(fs) > 2 && beVerbs[last] {
		return questionMark(fs[0] + " " + last + " " + strings.Join(fs[1:len(fs)-1], " "))
	}
	for i := 1; i < len(fs) && i <= 6; i++ {
		w := strings.ToLower(fs[i])
		if yesNoStarts[w] {
			return questionMark(strings.Join(fs, " "))
		}
		if subjects[w] {
			if i+1 < len(fs) && notVerbs[strings.ToLower(fs[i+1])] {
				return questionMark(strings.Join(fs, " "))
			}
			if inv := invert(fs[i:]); inv != strings.Join(fs[i:], " ") {
				return questionMark(strings.Join(fs[:i], " ") + " " + inv)
			}
			return strings.Join(fs, " ")
		}
	}
	return questionMark(strings.Join(fs, " "))
}

// beVerbs end an indirect question whose subject comes first: "what your favourite
// topping is" asks "What is your favourite topping?".
var beVerbs = text.Set("is are was were")

// notVerbs after "you" show that "you" is the object of a direct question ("which
// session suits you best").
var notVerbs = text.Set("best most better well too also here there now today")

// subjects are the subjects of an indirect question that asQuestion can invert.
var subjects = text.Set("you we it")

// invert turns a clause that starts with its subject into question order: "you are
// over 18" → "are you over 18", "you liked it" → "did you like it", "we could improve"
// → "could we improve". A clause it cannot invert is returned as it was.
func invert(fs []string) string {
	if len(fs) < 2 {
		return strings.Join(fs, " ")
	}
	subject, verb, rest := fs[0], strings.ToLower(fs[1]), strings.Join(fs[2:], " ")
	base, isPast := text.PastTense(verb)
	switch {
	case (verb == "have" || verb == "has") && !participle(fs[2:]):
		return strings.TrimSpace("do " + subject + " " + strings.Join(fs[1:], " "))
	case yesNoStarts[verb] && verb != "if" && verb != "whether":
		return strings.TrimSpace(verb + " " + subject + " " + rest)
	case isPast:
		return strings.TrimSpace("did " + subject + " " + base + " " + rest)
	case strings.HasSuffix(verb, "ed") && !strings.HasSuffix(verb, "eed"):
		return strings.Join(fs, " ")
	}
	return strings.TrimSpace("do " + subject + " " + strings.Join(fs[1:], " "))
}

// participle reports whether fs opens with a past participle, which makes a
// preceding "have" an auxiliary ("you have attended" → "have you attended").
func participle(fs []string) bool {
	if len(fs) == 0 {
		return false
	}
	w := strings.ToLower(fs[0])
	return participles[w] || strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "en")
}

func questionMark(s string) string {
	s = strings.TrimRight(s, " ?.")
	return text.Capitalize(s) + "?"
}

// stripLeading removes the words that open a field without being part of it: the
// filler of an English field, and "any" unless it asks a question; the connective
// of a foreign one, and its article or possessive unless it asks a question.
func stripLeading(s string, lang language) string {
	question := strings.HasSuffix(s, "?")
	switch {
	case lang != english:
		s = foreignLeadingRe.ReplaceAllString(s, "")
		if !question {
			s = dropForeignArticle(s)
		}
	default:
		s = leadingFillerRe.ReplaceAllString(s, "")
		if !question {
			s = anyRe.ReplaceAllString(s, "")
		}
	}
	return s
}

// foreignLeadingRe matches the connectives that open a field of a foreign prompt
// (written in English by language.toEnglish) and a "please".
var foreignLeadingRe = regexp.MustCompile(`(?i)^(and|or|with|plus|also|including|bitte|auch|aussi|también)\s+`)

// spaceBeforeMarkRe finds a space before a question or exclamation mark, which only
// French typography keeps ("Lieferung (1-5)?" loses its scale as "Lieferung ?").
var spaceBeforeMarkRe = regexp.MustCompile(`\s+([?!])`)

// dropForeignArticle removes an article or possessive that opens s (see
// foreignArticles), when words follow it.
func dropForeignArticle(s string) string {
	first, rest, ok := strings.Cut(s, " ")
	if !ok || !foreignArticles[strings.ToLower(first)] || !hasContent(rest) {
		return s
	}
	return strings.TrimSpace(rest)
}

// capitalizeSentence upper-cases the first letter of s, after a Spanish opening
// mark ("¿tienes pareja?" → "¿Tienes pareja?").
func capitalizeSentence(s string) string {
	if rest, ok := strings.CutPrefix(s, "¿"); ok {
		return "¿" + text.Capitalize(rest)
	}
	if rest, ok := strings.CutPrefix(s, "¡"); ok {
		return "¡" + text.Capitalize(rest)
	}
	return text.Capitalize(s)
}
