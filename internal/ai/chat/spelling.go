package chat

// Typing slips ("numbr", "avrage", "satisfcation", "reccomend"): a word the chat
// does not know that is one slip away, or only doubled letters apart, from
// exactly one word it reads (a word of the form's questions or options, or a
// word of what it can compute) is read as that word.
// Short words are left alone (too many words are one slip from another), and a
// word is never corrected into filler: an unknown word must stay unknown, so the
// chat refuses rather than guesses.

import (
	"iter"
	"maps"
	"regexp"
	"slices"
	"strings"

	"forma/internal/ai/text"
)

// minSlipLen is the length from which a word may be read as a slip.
const minSlipLen = 5

// addVocabulary records the words of ts, a question's text or an option, as
// words a slip may be read as, and them and their stems as known.
func (cf *formIndex) addVocabulary(ts []token) {
	for _, t := range ts {
		if t.stem != "" {
			cf.formVocabulary[t.low], cf.formKnown[t.low], cf.formKnown[stemOf(t.low)] = true, true, true
		}
	}
}

// knows reports whether w is a word the chat knows as it is on this form (the
// form's, the cues', the fillers, the stop words, or the stem of one), which is
// never corrected.
func (cf *formIndex) knows(w string) bool { return chatKnown[w] || cf.formKnown[w] }

// chatTargets and chatKnown are the part of every form's vocabulary that is the
// chat's own: the cue words, and those with the fillers, stop words, months, the
// words of the phrases it refuses or reads as periods, the words tokenize
// rewrites (demonyms, shorthands, spelled numbers, phrases) and their stems;
// chatDoubled maps the known words with doubled letters, written once, to them.
// Built once.
var chatTargets, chatKnown = chatVocabulary()
var chatDoubled = doubledWords(chatKnown, nil)

// chatVocabulary builds chatTargets and chatKnown.
func chatVocabulary() (targets, known map[string]bool) {
	targets, known = map[string]bool{}, map[string]bool{}
	read := []iter.Seq[string]{maps.Keys(cueVocabulary), maps.Keys(skipVerbs), maps.Keys(text.Set("percentile percentiles quartile quartiles")),
		maps.Keys(sentimentClasses), maps.Keys(months), maps.Keys(weekdays), maps.Keys(demonyms), maps.Keys(text.Set("something anything"))}
	for _, set := range typeCues { // "ratng", "coments" on any form
		read = append(read, maps.Keys(set))
	}
	for _, words := range read {
		for w := range words {
			targets[w], known[w] = true, true
		}
	}
	read = []iter.Seq[string]{maps.Keys(fillerWords), maps.Keys(stopWords), maps.Keys(months), phraseWords(frequencies, responseRate,
		forecastWords, netPromoter, timeOfDay, fillingTime, periodChangePhrases, laterWords, earlierWords, addUpWords, continuations),
		maps.Keys(demonyms), maps.Keys(shorthands), maps.Keys(numberWords), maps.Keys(patternWords), slices.Values(slipWordRe.FindAllString(strings.Join(rewrittenPhrases, " "), -1))}
	for _, words := range read {
		for w := range words {
			known[w] = true
		}
	}
	var stems []string // collected first: a map grown while ranged over visits its new keys or not, at random
	for w := range known {
		stems = append(stems, stemOf(w))
	}
	for _, s := range stems {
		known[s] = true
	}
	return targets, known
}

// phraseWords yields the words of the phrases of lists.
func phraseWords(lists ...[]text.Phrase) iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, list := range lists {
			for _, ph := range list {
				for _, w := range ph {
					if !yield(w) {
						return
					}
				}
			}
		}
	}
}

// respell reads the slips of msg as the words meant, before the message is
// tokenized: the phrases read whole ("5 star reviews", "working from home") are
// then read with their slips too ("5 star reviiews").
func (cf *formIndex) respell(msg string) string {
	return slipWordRe.ReplaceAllStringFunc(msg, func(w string) string {
		low := strings.ToLower(w)
		if twoWayWords[low] != "" {
			return w // "media": the median or the mean, asked back
		}
		if v := cf.formSpelling(low); v != "" {
			return v // "favorite" on a form asking for the “Favourite drink”
		}
		if cf.knows(low) || len(low) < minSlipLen && cf.joined[low] == nil {
			return w
		}
		if words := cf.joined[low]; words != nil { // "flatwhite": “Flat white”
			return strings.Join(words, " ")
		}
		if k := cf.squeezedWord(squeeze(low)); k != "" && k != low {
			return k // "persson": person, not persons; "workking": working; "emplooyee": employee
		}
		if cf.knows(stemOf(low)) {
			return w
		}
		if c, ok := cf.oneSlipFrom(low); ok {
			return c
		}
		return w
	})
}

// formSpelling returns the spelling the form's questions and options use of w,
// written the other side of the Atlantic ("favorite": favourite, "color":
// colour, "organise": organize), or "" when the form uses w as it is or not at all.
func (cf *formIndex) formSpelling(w string) string {
	if cf.formVocabulary[w] || len(w) < minSlipLen {
		return ""
	}
	for _, pair := range [][2]string{{"our", "or"}, {"or", "our"}, {"ise", "ize"}, {"ize", "ise"}, {"isation", "ization"}, {"ization", "isation"}, {"yse", "yze"}, {"yze", "yse"}} {
		for i := strings.Index(w, pair[0]); i >= 0; i = nextIndex(w, pair[0], i) {
			if v := w[:i] + pair[1] + w[i+len(pair[0]):]; cf.formVocabulary[v] {
				return v
			}
		}
	}
	return ""
}

// nextIndex returns the index of sub in s after the one at i, or -1.
func nextIndex(s, sub string, i int) int {
	if k := strings.Index(s[i+1:], sub); k >= 0 {
		return i + 1 + k
	}
	return -1
}

// slipWordRe finds the words of a message a slip may be read in: letters only.
var slipWordRe = regexp.MustCompile(`\p{L}+`)

// joinedOptions maps each option of several words, written as one
// ("flatwhite", "earlybird"), to its words; the first option wins a clash.
func (cf *formIndex) joinedOptions() map[string][]string {
	joined := map[string][]string{}
	for _, q := range cf.qs {
		for _, o := range q.options {
			words := strings.Fields(strings.ToLower(o.label))
			if w := strings.Join(words, ""); len(words) > 1 && joined[w] == nil {
				joined[w] = words
			}
		}
	}
	return joined
}

// oneSlipFrom returns the only target word one slip away from w: spelled as
// typed but for the slip ("montthly": monthly, not month) when a target is, else
// with the same stem ("drinnks": drinks, after the form's "drink"). A word as
// close to a filler word of another stem is left alone ("ratrs": rates or raters).
func (cf *formIndex) oneSlipFrom(w string) (string, bool) {
	found, direct := "", false
	for c := range cf.slipTargets() {
		isDirect := oneSlip(w, c) || sameSqueezed(w, c)
		if len(c) < minSlipLen || !isDirect && !sameSqueezed(stemOf(w), stemOf(c)) {
			continue
		}
		if found != "" && stemOf(found) != stemOf(c) {
			return "", false
		}
		if found == "" || isDirect && !direct || isDirect == direct && c < found {
			found, direct = c, isDirect
		}
	}
	if found == "" || slipOfFiller(w, found) {
		return "", false
	}
	if !direct {
		found = pluralAsTyped(w, found)
	}
	return found, true
}

// squeezedWord returns the known word that squeezes to sq: the only one with
// doubled letters that does ("employe": employee, though the stem "employe" is
// known too), else sq itself when it is known ("caffe": cafe), else "".
func (cf *formIndex) squeezedWord(sq string) string {
	doubled := slices.Concat(chatDoubled[sq], cf.formDoubled[sq])
	switch {
	case len(doubled) == 1:
		return doubled[0]
	case len(doubled) == 0 && cf.knows(sq):
		return sq
	}
	return ""
}

// doubledWords maps the words of words with doubled letters, except those of
// except, written once to the words.
func doubledWords(words, except map[string]bool) map[string][]string {
	out := map[string][]string{}
	for w := range words {
		if sq := squeeze(w); sq != w && !except[w] {
			out[sq] = append(out[sq], w)
		}
	}
	return out
}

// slipTargets yields the words a typing slip may be read as on this form: the
// chat's own, then the form's (a word may come twice).
func (cf *formIndex) slipTargets() iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, words := range []map[string]bool{chatTargets, cf.formVocabulary} {
			for w := range words {
				if !yield(w) {
					return
				}
			}
		}
	}
}

// pluralAsTyped returns the plural of word when w is that plural with a slip
// ("drinnks": drinks, "counttries": countries), else word.
func pluralAsTyped(w, word string) string {
	plurals := []string{word + "s"}
	if strings.HasSuffix(word, "y") {
		plurals = append(plurals, strings.TrimSuffix(word, "y")+"ies")
	}
	for _, pl := range plurals {
		if squeeze(w) == squeeze(pl) || oneSlip(w, pl) {
			return pl
		}
	}
	return word
}

// slipOfFiller reports whether w is one slip from a filler word of another stem
// than found.
func slipOfFiller(w, found string) bool {
	for f := range fillerWords {
		if len(f) >= minSlipLen && stemOf(f) != stemOf(found) && (oneSlip(w, f) || sameSqueezed(w, f)) {
			return true
		}
	}
	return false
}

// oneSlip reports whether a and b differ by one inserted, deleted or replaced
// letter, or two neighbouring letters swapped.
func oneSlip(a, b string) bool {
	if a == b {
		return false
	}
	ra, rb := []rune(a), []rune(b)
	if len(ra) < len(rb) {
		ra, rb = rb, ra
	}
	switch len(ra) - len(rb) {
	case 0:
		return sameButOneOrSwap(ra, rb)
	case 1:
		for i := range ra {
			if string(ra[:i])+string(ra[i+1:]) == string(rb) {
				return true
			}
		}
	}
	return false
}

// sameButOneOrSwap reports whether equal-length a and b differ in one letter, or
// by two neighbouring letters swapped.
func sameButOneOrSwap(a, b []rune) bool {
	var diff []int
	for i := range a {
		if a[i] != b[i] {
			diff = append(diff, i)
		}
	}
	switch len(diff) {
	case 1:
		return true
	case 2:
		i, j := diff[0], diff[1]
		return j == i+1 && a[i] == b[j] && a[j] == b[i]
	}
	return false
}

// sameSqueezed reports whether a and b differ only in doubled letters
// ("reccomend" and "recommend", "recomending" and "recommending").
func sameSqueezed(a, b string) bool {
	return a != b && squeeze(a) == squeeze(b)
}

// squeeze writes each run of one letter once.
func squeeze(s string) string {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		if len(out) == 0 || out[len(out)-1] != r {
			out = append(out, r)
		}
	}
	return string(out)
}
