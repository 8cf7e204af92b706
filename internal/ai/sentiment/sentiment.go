// Package sentiment scores how positive or negative a short English text is, with
// VADER (C.J. Hutto and E. Gilbert, 2014): a lexicon of about 7,500 words, slang and
// emoticons rated by people, and rules for the words around them. It gives the
// compound score of github.com/jonreiter/govader, the Go port of Hutto's
// vaderSentiment that Forma used before, on every text of testdata (to 1e-9).
//
// Compound reads a text in six steps:
//
//  1. emoji: each emoji code point becomes its description ("😀" → "grinning face");
//  2. words: the text is split at single spaces, and each piece loses the
//     punctuation around it unless fewer than three bytes would be left (":)" stays);
//  3. valence: a word in the lexicon gets its rating, changed by "no" before it,
//     by CAPITALS when the text is not all capitals, by boosters and dampeners
//     ("very", "kind of") among the three words before it (less the farther they
//     are), by negations ("not", "n't", "never so"), by idioms ("the bomb") and by
//     "least";
//  4. "but": words before the first "but" count half, words after it half again;
//  5. sum: the valences are added, and "!" and "?" push the sum away from zero;
//  6. normalisation: x/√(x²+15), within [-1, 1].
//
// The lexicons are data files beside this one; NOTICE at the root of the
// repository credits them.
package sentiment

import (
	_ "embed"
	"math"
	"strconv"
	"strings"
	"sync"

	"forma/internal/ai/text"
)

// Rule weights, as vaderSentiment derived them from people's ratings.
const (
	boostIncrease   = 0.293 // a booster word ("very") before a rated word
	boostDecrease   = -0.293
	capsIncrease    = 0.733 // a rated word or booster in CAPITALS among lower-case words
	negationScalar  = -0.74 // a negated word
	normAlpha       = 15    // the sum at which the compound score is about ±0.5 (x/√(x²+α))
	secondWordScale = 0.95  // a booster two words before
	thirdWordScale  = 0.9   // a booster three words before
	exclamationGain = 0.292 // per "!", up to maxExclamations
	maxExclamations = 4
	questionGain    = 0.18 // per "?" when there are two or three
	maxQuestionGain = 0.96 // four "?" or more
	neverSoScale    = 1.25 // "never so good" is emphasis, not negation
	butScale        = 0.5
)

//go:embed vader_lexicon.txt
var lexiconText string

//go:embed emoji_lexicon.txt
var emojiText string

// lexicons holds the word and emoji lexicons, parsed once on first use.
type lexicons struct {
	words map[string]float64 // token → mean rating from -4 to 4
	emoji map[rune]string    // emoji → its description
}

var load = sync.OnceValue(func() *lexicons {
	l := &lexicons{words: map[string]float64{}, emoji: map[rune]string{}}
	for _, line := range strings.Split(strings.TrimSuffix(lexiconText, "\n"), "\n") {
		word, rating, _ := strings.Cut(line, "\t")
		l.words[word], _ = strconv.ParseFloat(rating, 64) // a repeated word keeps its last rating
	}
	for _, line := range strings.Split(strings.TrimSuffix(emojiText, "\n"), "\n") {
		e, description, _ := strings.Cut(line, "\t")
		l.emoji[[]rune(e)[0]] = description
	}
	return l
})

// negations turn the valence of the word after them around; so does any word with
// "n't".
var negations = text.Set("aint arent cannot cant couldnt darent didnt doesnt ain't aren't can't couldn't daren't " +
	"didn't doesn't dont hadnt hasnt havent isnt mightnt mustnt neither don't hadn't hasn't haven't isn't " +
	"mightn't mustn't neednt needn't never none nope nor not nothing nowhere oughtnt shant shouldnt uhuh " +
	"wasnt werent oughtn't shan't shouldn't uh-uh wasn't weren't without wont wouldnt won't wouldn't " +
	"rarely seldom despite")

// boosters raise or lower the intensity of the rated word after them. The
// two-word ones count through the idiom check.
var boosters = func() map[string]float64 {
	m := map[string]float64{}
	for _, w := range strings.Split("absolutely|amazingly|awfully|completely|considerable|considerably|decidedly|"+
		"deeply|effing|enormous|enormously|entirely|especially|exceptional|exceptionally|extreme|extremely|"+
		"fabulously|flipping|flippin|frackin|fracking|fricking|frickin|frigging|friggin|fully|fuckin|fucking|"+
		"fuggin|fugging|greatly|hella|highly|hugely|incredible|incredibly|intensely|major|majorly|more|most|"+
		"particularly|purely|quite|really|remarkably|so|substantially|thoroughly|total|totally|tremendous|"+
		"tremendously|uber|unbelievably|unusually|utter|utterly|very", "|") {
		m[w] = boostIncrease
	}
	for _, w := range strings.Split("almost|barely|hardly|just enough|kind of|kinda|kindof|kind-of|less|little|"+
		"marginal|marginally|occasional|occasionally|partly|scarce|scarcely|slight|slightly|somewhat|sort of|"+
		"sorta|sortof|sort-of", "|") {
		m[w] = boostDecrease
	}
	return m
}()

// idioms replace the valence of the rated word they end or start.
var idioms = map[string]float64{"the shit": 3, "the bomb": 3, "bad ass": 1.5, "badass": 1.5,
	"yeah right": -2, "kiss of death": -1.5, "to die for": 3}

// Compound is the VADER compound score of text: from -1 (most negative) through 0
// (neutral, or nothing rated) to 1 (most positive).
func Compound(text string) float64 {
	lex := load()
	text = strings.TrimSpace(lex.describeEmoji(text))
	words := strings.Split(text, " ")
	lower := make([]string, len(words))
	for i, w := range words {
		words[i] = stripPunctuation(w)
		lower[i] = strings.ToLower(words[i])
	}
	s := sentence{lex: lex, words: words, lower: lower, capsStand: capsStandOut(words)}
	valences := make([]float64, len(words))
	for i := range words {
		_, booster := boosters[lower[i]]
		if booster || lower[i] == "kind" && i+1 < len(words) && lower[i+1] == "of" {
			continue
		}
		valences[i] = s.valence(i)
	}
	weighButs(lower, valences)
	sum := 0.0
	for _, v := range valences {
		sum += v
	}
	emphasis := punctuationEmphasis(text)
	switch {
	case sum > 0:
		sum += emphasis
	case sum < 0:
		sum -= emphasis
	}
	return max(-1, min(1, sum/math.Sqrt(sum*sum+normAlpha)))
}

// describeEmoji writes each emoji code point of s as its description, after a
// space unless one precedes it. Invalid UTF-8 becomes U+FFFD.
func (l *lexicons) describeEmoji(s string) string {
	var b strings.Builder
	b.Grow(len(s) * 2)
	afterSpace := true
	for _, r := range s {
		if d, ok := l.emoji[r]; ok {
			if !afterSpace {
				b.WriteByte(' ')
			}
			b.WriteString(d)
			afterSpace = false
			continue
		}
		b.WriteRune(r)
		afterSpace = r == ' '
	}
	return b.String()
}

// punctuation is what stripPunctuation removes: Python's string.punctuation, as
// govader spells it (with a backslash more).
const punctuation = `"!#$%&\'()*+,-./:;<=>?@[\\]^_` + "`{|}~"

// stripPunctuation removes the punctuation around a word, unless fewer than three
// bytes would be left (emoticons such as ":)" keep theirs).
func stripPunctuation(w string) string {
	if s := strings.Trim(w, punctuation); len(s) >= 3 {
		return s
	}
	return w
}

// allCaps reports whether w has an ASCII capital and no ASCII lower-case letter.
func allCaps(w string) bool {
	upper := false
	for i := 0; i < len(w); i++ {
		switch c := w[i]; {
		case 'a' <= c && c <= 'z':
			return false
		case 'A' <= c && c <= 'Z':
			upper = true
		}
	}
	return upper
}

// capsStandOut reports whether some but not all words are in capitals, so that
// capitals emphasise.
func capsStandOut(words []string) bool {
	caps := 0
	for _, w := range words {
		if allCaps(w) {
			caps++
		}
	}
	return caps > 0 && caps < len(words)
}

// sentence is one text being scored.
type sentence struct {
	lex       *lexicons
	words     []string // as written, punctuation stripped
	lower     []string
	capsStand bool
}

// rated reports whether w is in the lexicon as written.
func (s *sentence) rated(w string) bool {
	_, ok := s.lex.words[w]
	return ok
}

// valence is the valence of word i in its context; 0 when it is not rated.
func (s *sentence) valence(i int) float64 {
	lower := s.lower
	rating, ok := s.lex.words[lower[i]]
	if !ok {
		return 0
	}
	v := rating
	if lower[i] == "no" && i+1 < len(lower) && s.rated(lower[i+1]) {
		v = 0 // "no" as a determiner ("no problem") is not itself negative
	}
	if i > 0 && lower[i-1] == "no" || i > 1 && lower[i-2] == "no" ||
		i > 2 && lower[i-3] == "no" && (lower[i-1] == "or" || lower[i-1] == "nor") {
		v = rating * negationScalar
	}
	if allCaps(s.words[i]) && s.capsStand {
		if v > 0 {
			v += capsIncrease
		} else {
			v -= capsIncrease
		}
	}
	for start := 0; start < 3; start++ {
		j := i - (start + 1)
		if j < 0 || s.rated(s.words[j]) {
			continue
		}
		boost := s.boost(j, v)
		switch {
		case start == 1 && boost != 0:
			boost *= secondWordScale
		case start == 2 && boost != 0:
			boost *= thirdWordScale
		}
		v = s.negate(v+boost, start, i)
		if start == 2 {
			v = s.idiom(v, i)
		}
	}
	return s.least(v, i)
}

// boost is what the booster at j adds to a word of valence v.
func (s *sentence) boost(j int, v float64) float64 {
	b, ok := boosters[s.lower[j]]
	if !ok {
		return 0
	}
	if v < 0 {
		b *= -1
	}
	if allCaps(s.words[j]) && s.capsStand {
		if v > 0 {
			b += capsIncrease
		} else {
			b -= capsIncrease
		}
	}
	return b
}

// negated reports whether w negates what follows it.
func negated(w string) bool { return negations[w] || strings.Contains(w, "n't") }

// negate applies a negation start+1 words before word i to its valence v; "never
// so" and "never this" emphasise instead, "without doubt" affirms.
func (s *sentence) negate(v float64, start, i int) float64 {
	lower := s.lower
	switch start {
	case 0:
		if negated(lower[i-1]) {
			return v * negationScalar
		}
	case 1:
		switch {
		case lower[i-2] == "never" && (lower[i-1] == "so" || lower[i-1] == "this"):
			return v * neverSoScale
		case lower[i-2] == "without" && lower[i-1] == "doubt":
			return v
		case negated(lower[i-2]):
			return v * negationScalar
		}
	case 2:
		switch {
		case lower[i-3] == "never" && (lower[i-2] == "so" || lower[i-2] == "this" || lower[i-1] == "so" || lower[i-1] == "this"):
			return v * neverSoScale
		case lower[i-3] == "without" && (lower[i-2] == "doubt" || lower[i-1] == "doubt"):
			return v
		case negated(lower[i-3]):
			return v * negationScalar
		}
	}
	return v
}

// idiom gives word i the valence of an idiom it ends or starts, and adds two-word
// boosters ("kind of") among the three words before it.
func (s *sentence) idiom(v float64, i int) float64 {
	w := s.lower
	threeTwoOne := w[i-3] + " " + w[i-2] + " " + w[i-1]
	threeTwo := w[i-3] + " " + w[i-2]
	twoOne := w[i-2] + " " + w[i-1]
	for _, seq := range []string{w[i-1] + " " + w[i], w[i-2] + " " + w[i-1] + " " + w[i], twoOne, threeTwoOne, threeTwo} {
		if iv, ok := idioms[seq]; ok {
			v = iv
			break
		}
	}
	if i+1 < len(w) {
		if iv, ok := idioms[w[i]+" "+w[i+1]]; ok {
			v = iv
		}
	}
	if i+2 < len(w) {
		if iv, ok := idioms[w[i]+" "+w[i+1]+" "+w[i+2]]; ok {
			v = iv
		}
	}
	for _, seq := range []string{threeTwoOne, threeTwo, twoOne} {
		if b, ok := boosters[seq]; ok {
			v += b
		}
	}
	return v
}

// least negates a word after "least", except in "at least" and "very least".
func (s *sentence) least(v float64, i int) float64 {
	w := s.words
	switch {
	case i > 1 && !s.rated(w[i-1]) && w[i-1] == "least":
		if w[i-2] != "at" && w[i-2] != "very" {
			return v * negationScalar
		}
	case i > 0 && !s.rated(w[i-1]) && w[i-1] == "least":
		return v * negationScalar
	}
	return v
}

// weighButs halves the valences before the first "but" and raises those after it
// by half.
func weighButs(lower []string, valences []float64) {
	for b, w := range lower {
		if w != "but" {
			continue
		}
		for i := range valences {
			switch {
			case i < b:
				valences[i] *= 1 - butScale
			case i > b:
				valences[i] *= 1 + butScale
			}
		}
		return
	}
}

// punctuationEmphasis is how far "!" (up to four) and "?" (two or more) push the
// sum of valences away from zero.
func punctuationEmphasis(text string) float64 {
	ep := float64(min(strings.Count(text, "!"), maxExclamations)) * exclamationGain
	qm := 0.0
	switch n := strings.Count(text, "?"); {
	case n > 3:
		qm = maxQuestionGain
	case n > 1:
		qm = float64(n) * questionGain
	}
	return ep + qm
}
