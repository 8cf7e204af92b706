package builtin

import (
	"regexp"
	"strconv"
	"strings"
)

// chatToken is one word, number or sign of a chat message.
type chatToken struct {
	low    string  // lower-cased text
	stem   string  // canonical stem (synonyms folded), "" for stop words and signs
	num    float64 // value when isNum
	isNum  bool
	quoted bool // inside quotes in the message
}

// chatTokenRe finds dates, numbers, words and the signs the parser reads.
var chatTokenRe = regexp.MustCompile(`\d{4}-\d{2}-\d{2}|\d+(?:\.\d+)?|[\p{L}][\p{L}\p{N}]*|[%$+<>=,?]`)

// chatContractions expands the contractions the parser cares about.
var chatContractions = strings.NewReplacer("n't", " not", "’", "'", "'s", "", "'re", "", "'ve", "", "'d", " would", "'ll", "",
	"can not", "cannot", "e-mail", "email", "set up", "setup", "sign up", "signup", "drop off", "dropoff", "drop-off", "dropoff")

// chatTokens splits a message into tokens; text between quotes is marked quoted.
func chatTokens(msg string) []chatToken {
	msg = strings.ToLower(msg)
	msg = strings.ReplaceAll(msg, "won't", "will not")
	msg = strings.ReplaceAll(msg, "can't", "can not")
	msg = chatContractions.Replace(msg)
	msg = chatApostropheRe.ReplaceAllString(msg, "$1$2")
	var out []chatToken
	quoted := false
	last := 0
	for _, loc := range chatTokenRe.FindAllStringIndex(msg, -1) {
		quoted = quoted != chatOddQuotes(msg[last:loc[0]])
		last = loc[1]
		out = append(out, chatMakeToken(msg[loc[0]:loc[1]], quoted))
	}
	return out
}

// chatOddQuotes reports whether s holds an odd number of quote marks.
func chatOddQuotes(s string) bool {
	return (strings.Count(s, `"`)+strings.Count(s, "“")+strings.Count(s, "”")+strings.Count(s, "'"))%2 == 1
}

// chatApostropheRe finds apostrophes inside words, which are not quotes.
var chatApostropheRe = regexp.MustCompile(`(\pL)'(\pL)`)

// chatMakeToken builds the token of one matched piece of text.
func chatMakeToken(s string, quoted bool) chatToken {
	t := chatToken{low: s, quoted: quoted}
	if n, err := strconv.ParseFloat(s, 64); err == nil {
		t.num, t.isNum = n, true
		return t
	}
	if !chatStop[s] && s[0] >= 'a' {
		t.stem = chatStem(s)
	}
	return t
}

// chatStop lists words that carry no meaning for matching questions.
var chatStop = chatSet("a an the of to in on at for from by with about and or but is are was were be been being " +
	"do does did done have has had i me my we us our you your they them their he she it its this that these those " +
	"there here what which who whom whose how when where why would could should will shall can may might must " +
	"any all some each every per as if than then so such very just also only too much many more most less least " +
	"people person respondent respondents customer customers user users someone anyone everyone response responses " +
	"answer answers answered survey form question questions please tell show give me get got let know see " +
	"number count total percentage percent share average mean median say said s")

// chatSet builds a set of space-separated words.
func chatSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// chatIrregular maps irregular forms to their stems.
var chatIrregular = map[string]string{
	"heard": "hear", "found": "find", "spent": "spend", "paid": "pay", "gave": "give", "given": "give",
	"chose": "choose", "chosen": "choose", "left": "leave", "bought": "buy", "began": "begin", "begun": "begin",
	"wrote": "write", "written": "write", "came": "come", "felt": "feel", "thought": "think", "took": "take",
	"better": "better", "best": "good", "worse": "bad", "worst": "bad", "easier": "easy", "easiest": "easy",
	"easily": "easy", "ease": "easy", "easy": "easy", "media": "media", "news": "news", "api": "api", "apis": "api",
}

// chatSynonymGroups lists, for a canonical word, words of the same meaning.
var chatSynonymGroups = map[string]string{
	"recommend": "recommendation recommender refer referral suggest promoter",
	"spend":     "cost pay money revenue dollar amount price",
	"hear":      "find discover learn source channel",
	"plan":      "tier subscription package",
	"feature":   "function functionality tool module capability",
	"comment":   "feedback suggestion remark complaint review improve improvement better opinion",
	"contact":   "reach call ticket",
	"support":   "help helpdesk",
	"email":     "mail address",
	"start":     "begin join signup onboard onboarding",
	"easy":      "setup difficult hard simple",
	"rate":      "star satisfaction satisfied satisfy rank grade",
	"advertise": "ad advert advertisement advertising",
	"search":    "google seo",
}

// chatSynonyms folds stems of the same meaning together, on both sides of a match.
var chatSynonyms = func() map[string]string {
	m := map[string]string{}
	for canon, words := range chatSynonymGroups {
		for _, w := range strings.Fields(words) {
			m[chatBaseStem(w)] = chatBaseStem(canon)
		}
	}
	return m
}()

// chatStem reduces a lower-case word to a canonical stem: irregular forms, plural
// and verb suffixes, then synonyms.
func chatStem(w string) string {
	w = chatBaseStem(w)
	if s, ok := chatSynonyms[w]; ok {
		return s
	}
	return w
}

// chatBaseStem reduces a word to its stem without folding synonyms.
func chatBaseStem(w string) string {
	if s, ok := chatIrregular[w]; ok {
		return s
	}
	return chatSuffixes(w)
}

// chatSuffixes strips common English suffixes.
func chatSuffixes(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"):
		w = w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") &&
		!strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:len(w)-1]
	}
	switch {
	case len(w) > 7 && strings.HasSuffix(w, "ation"):
		w = w[:len(w)-5]
	case len(w) > 5 && strings.HasSuffix(w, "ing"):
		w = chatUndouble(w[:len(w)-3])
	case len(w) > 4 && strings.HasSuffix(w, "ed"):
		w = chatUndouble(w[:len(w)-2])
	case len(w) > 4 && strings.HasSuffix(w, "ier"):
		w = w[:len(w)-3] + "y"
	}
	if strings.HasSuffix(w, "i") {
		w = w[:len(w)-1] + "y"
	}
	if len(w) >= 3 && strings.HasSuffix(w, "e") {
		w = w[:len(w)-1]
	}
	return w
}

// chatUndouble drops the doubled final consonant of a stem ("gett" → "get").
func chatUndouble(w string) string {
	n := len(w)
	if n >= 3 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiouls", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

// chatStems returns the content stems of a text, in order.
func chatStems(text string) []string {
	var out []string
	for _, t := range chatTokens(text) {
		if t.stem != "" {
			out = append(out, t.stem)
		}
	}
	return out
}

// chatWords returns the lower-case words of a token range, for phrase matching.
func chatWords(ts []chatToken) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.low
	}
	return out
}

// chatHasPhrase reports whether the words contain the phrase (space separated)
// and returns the index of its first word.
func chatHasPhrase(words []string, phrase string) (int, bool) {
	p := strings.Fields(phrase)
	for i := 0; i+len(p) <= len(words); i++ {
		match := true
		for j, w := range p {
			if words[i+j] != w {
				match = false
				break
			}
		}
		if match {
			return i, true
		}
	}
	return -1, false
}

// chatAnyPhrase returns the position of the first of the phrases found.
func chatAnyPhrase(words []string, phrases ...string) (int, bool) {
	best := -1
	for _, p := range phrases {
		if i, ok := chatHasPhrase(words, p); ok && (best < 0 || i < best) {
			best = i
		}
	}
	return best, best >= 0
}
