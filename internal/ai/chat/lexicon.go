package chat

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"forma/internal/ai/text"
)

// token is one word, number or sign of a chat message.
type token struct {
	low    string  // lower-cased text
	stem   string  // canonical stem (synonyms folded), "" for stop words and signs
	num    float64 // value when isNum
	isNum  bool
	quoted bool // inside quotes in the message
	// spelled marks a number written as a word ("three").
	spelled bool
	// sentence numbers the sentence of the message the token is in, from 0.
	sentence int
	// topic marks the words of a sentence ended by a colon, which says what the
	// rest is about ("home workers: average work-life balance?").
	topic bool
}

// tokenRe finds dates, numbers, words and the signs the parser reads.
var tokenRe = regexp.MustCompile(`\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}(?:/\d{2,4})?|\d+(?:\.\d+)?|[\p{L}][\p{L}\p{N}]*|[%$€£+<>=,?|]`)

// Contractions, in two passes: "won't" and "can't" first, then the clitics ("n't"
// and "'d" are written out; "'s", "'re", "'ve" and "'ll" are dropped, as their
// words are stop words), typographic apostrophes and the spellings of a few
// compounds.
var (
	wholeContractions = strings.NewReplacer(text.Expansions("won't", "can't")...)
	contractions      = strings.NewReplacer(append(text.Expansions("n't", "'d"),
		append([]string{"’", "'", "'s", "", "'re", "", "'ve", "", "'ll", ""}, rewrittenPhrases...)...)...)
)

// rewrittenPhrases are the compounds and phrases read as other words, in
// old, new pairs.
var rewrittenPhrases = []string{"can not", "cannot", "at least one of", "any of", "come up in", "mentioned in", "comes up in", "mentioned in", "came up in", "mentioned in", "be back", "come back", "non blank", "answered", "non-blank", "answered", "nonblank", "answered", "non empty", "answered", "week for week", "week by week", "month for month", "month by month", "day for day", "day by day",
	"how much answers", "how many answers", "how much responses", "how many responses", "how much people", "how many people", "the less ", "the least ", "in one day", "per day", "in a day", "per day", "in the day", "per day", "in a single day", "per day", "in one week", "per week", "in a week", "per week", "part-time", "parttime", "full-time", "fulltime", "e-mail", "email", "set up", "setup", "sign up", "signup", "drop off", "dropoff", "drop-off", "dropoff", "marketing channel", "channel", "# of", "number of", "bring up", "mention", "bring it up", "mention it", "brings it up", "mentions it", "brought it up", "mentioned it", "bringing it up", "mentioning it", "brings up", "mentions", "brought up", "mentioned", "bringing up", "mentioning", "least happy", "least satisfied", "most happy", "most satisfied", "yes/no", "yes or no", "y/n", "yes or no", "home workers", "remote workers", "home working", "remote working", "wfh", "work remotely", "work from home", "work remotely", "working from home", "working remotely", "good or bad", "positive or negative", "more positive than negative", "positive or negative", "more negative than positive", "positive or negative", "star review", "star rating", "stars review", "stars rating", "tickets go for", "tickets cost", "going rate", "price", "at what rate do", "what share of", "at what rate", "what share", "everyone but", "everyone except", "everybody but", "everybody except", "rate of", "share of", "or better", "or more", "or worse", "or less", "the most high", "the highest", "the most low", "the lowest", "most high", "highest", "most low", "lowest", "most big", "biggest", "most early", "earliest", "most cheap", "cheapest", "more high", "higher", "more low", "lower", "ticket goes for", "ticket costs", "we made", "we earned", "did we make", "did we earn", "more then", "more than", "less then", "less than", "fewer then", "fewer than",
	"higher then", "higher than", "lower then", "lower than", "greater then", "greater than", "rather then", "rather than", "≥", " at least ", "≤", " at most ", "≠", " not "}

// tokenize splits a message into tokens; text between quotes is marked quoted.
func tokenize(msg string) []token {
	msg = wholeContractions.Replace(strings.ToLower(msg))
	msg = contractions.Replace(msg)
	msg = replaceWith(msg, "'", apostropheRe, "$1$2")
	if strings.Contains(msg, "the word") {
		msg = theWordRe.ReplaceAllStringFunc(msg, searchTheWord)
	}
	msg = replaceWith(msg, "cross", crossTabRe, "breakdown")
	msg = replaceWith(msg, "cross", crossRe, "across")
	msg = replaceWith(msg, "-", numberRangeRe, "$1$2 to $3$4")
	msg = replaceWith(msg, "–", numberRangeRe, "$1$2 to $3$4")
	msg = monthListRe.ReplaceAllStringFunc(msg, monthRun)
	msg = replaceWith(msg, " me ", giveMeRe, "top $1")
	msg = replaceWith(msg, "from", fromStartOfMonthRe, "since $1")
	msg = replaceWith(msg, " of ", atStartOfMonthRe, "beginning $1")
	msg = replaceWith(msg, " of ", startOfMonthRe, "$1")
	msg = replaceWith(msg, " of ", moreOfRe, "$1 than $2")
	msg = replaceWith(msg, "to", monthToDateRe, "since $1")
	msg = replaceWith(msg, "this", thisToDateRe, "$1")
	msg = replaceWith(msg, "since", sinceDurationRe, "in the last $1 $2")
	msg = replaceWith(msg, "today", daysToDateRe, "the last $1 $2")
	msg = replaceWith(msg, "end of", endOfMonthRe, "until $1")
	msg = replaceWith(msg, "half", firstHalfRe, "between the 1st and the 15th of $1")
	msg = periodPhrases.Replace(msg)
	msg = replaceWith(msg, "/", scoreSlashRe, "$1 $2 out of $3")
	msg = replaceWith(msg, "/", slashScoreRe, "$1 out of $2 $3")
	msg = replaceWith(msg, "/", scaleSuffixRe, "$1 out of $2")
	msg = givenBar(signWords.Replace(msg))
	if strings.Contains(msg, "w/") {
		msg = withSlashRe.ReplaceAllStringFunc(msg, func(w string) string {
			return map[string]string{"w/o": "without ", "w/": "with "}[strings.TrimSpace(w)]
		})
	}
	var out []token
	quoted := false
	last, sentence := 0, 0
	locs := tokenRe.FindAllStringIndex(msg, -1)
	for _, loc := range locs {
		gap := msg[last:loc[0]]
		quoted = quoted != oddQuotes(gap)
		if len(out) > 0 && (sentenceEndRe.MatchString(gap) || out[len(out)-1].low == "?") {
			if strings.Contains(gap, ":") {
				markTopic(out, sentence) // "home workers: average …"
			}
			sentence++
		}
		last = loc[1]
		word := msg[loc[0]:loc[1]]
		if c, ok := demonyms[word]; ok && !(languageNames[word] && len(out) > 0 && out[len(out)-1].low == "in") {
			word = c // not "written in french": a language, which stays unknown
		}
		if c, ok := shorthands[word]; ok {
			word = c
		}
		if msg[loc[0]:loc[1]] == "n" && greetingLen(out) == len(out) && !countAfterN[firstWord(msg[loc[1]:])] {
			word = "and" // "n the max?", "n vip" continue the conversation; "n by dept", "n last month" count
		}
		for _, w := range strings.Fields(word) {
			t := makeToken(w, quoted)
			t.sentence = sentence
			out = append(out, t)
		}
	}
	return spellNumbers(crossX(out))
}

// dropGreeting drops the greeting a message opens with ("hey,", "quick q:",
// "hi there!") and the thanks it ends with ("pls", "thanks"), which the rules
// reading a message's first or last word must not see, and numbers the
// sentences left from 0.
func dropGreeting(ts []token) []token {
	if len(ts) == 0 {
		return ts
	}
	end := len(ts)
	for end > 1 && (courtesyWords[ts[end-1].low] || endMarks[ts[end-1].low] || ts[end-1].low == "you" && ts[end-2].low == "thank") {
		end-- // "… most pls", "…, thanks", "… most?? pls"
	}
	if ts[end-1].low == "thank" {
		end--
	}
	if end < len(ts) && ts[end].low == "?" {
		end++ // the question mark stays, once
	}
	k := greetingLen(ts[:end])
	if k == 0 && end == len(ts) || k >= end {
		return ts
	}
	out := slices.Clone(ts[k:end])
	first := out[0].sentence
	for i := range out {
		out[i].sentence -= first
	}
	return out
}

// greetingLen returns how many tokens the greeting ts opens with takes.
func greetingLen(ts []token) int {
	quick := func(k int) bool { return ts[k].low == "q" || ts[k].low == "question" }
	k := 0
	thank := func(k int) bool { return ts[k].low == "thank" && k+1 < len(ts) && ts[k+1].low == "you" }
	for k < len(ts) && (greetingWords[ts[k].low] || courtesyWords[ts[k].low] || thank(k) || ts[k].low == "," || ts[k].low == "quick" && k+1 < len(ts) && quick(k+1) ||
		k > 0 && (ts[k-1].low == "quick" && quick(k) || greetingWords[ts[k-1].low] && ts[k].low == "there" || thank(k-1))) {
		k++
	}
	return k + nextQuestionLen(ts[k:])
}

// nextQuestionLen returns how many tokens an opening that announces another
// question takes ("one more:", "another question,", "next q:"), or 0.
func nextQuestionLen(ts []token) int {
	n := 0
	switch {
	case len(ts) > 2 && (ts[0].low == "1" || ts[0].low == "one") && ts[1].low == "more":
		n = 2
	case len(ts) > 1 && (ts[0].low == "another" || ts[0].low == "next"):
		n = 1
	default:
		return 0
	}
	if ts[n].low == "question" || ts[n].low == "q" || ts[n].low == "thing" {
		n++
	}
	switch {
	case n < len(ts) && ts[n].low == ",":
		return n + 1
	case n < len(ts) && ts[n].sentence != ts[n-1].sentence: // "one more: …"
		return n
	}
	return 0
}

// endMarks are the punctuation a message may end with, besides its words.
var endMarks = text.Set(", ? ! .")

// languageNames are demonyms that also name a language.
var languageNames = text.Set("french german spanish italian english dutch portuguese")

// courtesyWords end a message without asking anything.
var courtesyWords = text.Set("pls please plz thanks thx ty cheers")

// greetingWords open a message without asking anything.
var greetingWords = text.Set("hey hi hello hiya howdy yo um uhm uh hmm hm please pls plz btw dear")

// markTopic marks the tokens of the sentence as a topic.
func markTopic(ts []token, sentence int) {
	for i := range ts {
		if ts[i].sentence == sentence {
			ts[i].topic = true
		}
	}
}

// countAfterN follow a leading "n" that is a count: "n by dept", "n last month".
var countAfterN = text.Set("by per last this past in since for of during over each")

// firstWord returns the first word of s.
func firstWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return ""
}

// replaceWith applies re to msg when msg holds needle, which every match of re
// holds: most messages hold none, and the regular expressions cost.
func replaceWith(msg, needle string, re *regexp.Regexp, repl string) string {
	if !strings.Contains(msg, needle) {
		return msg
	}
	return re.ReplaceAllString(msg, repl)
}

// crossX reads an "x" between two words as "vs" ("drink x country"); after a
// number it is "times" ("3x a day") and stays unknown.
func crossX(ts []token) []token {
	for i, t := range ts {
		if t.low == "x" && i > 0 && i+1 < len(ts) && !ts[i-1].isNum && !ts[i+1].isNum && ts[i-1].stem != "" && ts[i+1].stem != "" {
			ts[i] = makeToken("vs", t.quoted)
			ts[i].sentence = t.sentence
		}
	}
	return ts
}

// sentenceEndRe finds the end of a sentence between two tokens: a full stop,
// an exclamation mark, a colon or semicolon, or a dash between spaces.
var sentenceEndRe = regexp.MustCompile(`[.!:;]|\s[-–—]\s`)

// numberWords are the numbers people spell out ("more than three cups").
var numberWords = map[string]float64{
	"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
	"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
	"seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
	"sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
}

// pronounOne are the words after which "one" is a pronoun ("which one", "no
// one"), not a number.
var pronounOne = text.Set("which no any each every the this that another someone anyone everyone what")

// pronounAt reports whether the "one" at i stands for a thing, not a number:
// "which one", "one of", and a last "one" a word or two after a ranking word
// ("the best rated one?").
func pronounAt(ts []token, i int) bool {
	if i > 0 && pronounOne[ts[i-1].low] || i+1 < len(ts) && ts[i+1].low == "of" {
		return true
	}
	last := i+1 == len(ts) || ts[i+1].low == "?"
	for k := i - 1; last && k >= max(0, i-2); k-- {
		if rankingWords[ts[k].low] {
			return true
		}
	}
	return false
}

// rankingWords before a final "one" make it a pronoun: "the best rated one?".
var rankingWords = text.Set("best worst most least highest lowest top biggest smallest")

// spellNumbers turns spelled numbers into number tokens, joining "twenty five"
// (and "twenty-five") into 25. "one" stays a word after a determiner and before
// "of" ("which one", "one of the …").
func spellNumbers(ts []token) []token {
	out := make([]token, 0, len(ts))
	for i, t := range ts {
		n, ok := numberWords[t.low]
		if !ok || t.quoted || t.low == "one" && pronounAt(ts, i) {
			out = append(out, t)
			continue
		}
		if k := len(out) - 1; k >= 0 && out[k].isNum && out[k].spelled && n < 10 && int(out[k].num)%10 == 0 && out[k].num >= 20 && out[k].num < 100 {
			out[k].num += n
			out[k].low = strconv.Itoa(int(out[k].num))
			continue
		}
		out = append(out, token{low: strconv.Itoa(int(n)), num: n, isNum: true, spelled: true, sentence: t.sentence})
	}
	return out
}

// demonyms name a country by its people ("how many Italians"), read as the country.
var demonyms = map[string]string{
	"italians": "italy", "italian": "italy", "germans": "germany", "german": "germany", "french": "france",
	"spanish": "spain", "spaniards": "spain", "brits": "uk", "british": "uk", "americans": "usa", "american": "usa",
}

// shorthands are the abbreviations and apostrophe-less contractions people type,
// and the superlatives of mood, read as the words they stand for ("hw", "didnt",
// "dept", "happiest").
var shorthands = map[string]string{
	"hw": "how", "wat": "what", "u": "you", "ur": "your", "thru": "through", "w": "with",
	"didnt": "did not", "dont": "do not", "doesnt": "does not", "isnt": "is not", "arent": "are not",
	"wasnt": "was not", "werent": "were not", "wont": "will not", "cant": "cannot", "havent": "have not",
	"hasnt": "has not", "wouldnt": "would not", "hadnt": "had not",
	"dept": "department", "depts": "departments", "yrs": "years", "yr": "year", "hrs": "hours", "hr": "hour",
	"mins": "minutes", "nr": "number", "num": "number", "qty": "quantity", "approx": "about",
	"ppl": "people", "folks": "people", "peeps": "people", "pct": "percent", "perc": "percent", "gimme": "give me",
	"n": "count", "fav": "favourite", "favs": "favourites", "tix": "tickets", "sat": "satisfaction", "mnay": "many",
	"xtab": "breakdown", "theyll": "they", "youll": "you", "conf": "conference", "thx": "thanks", "thnx": "thanks",
	"rn": "now", "q": "question", "r": "are", "fave": "favourite", "faves": "favourites", "wk": "week", "wks": "weeks",
	"wfh": "remotely", "mny": "many", "frm": "from", "wud": "would", "abt": "about", "avrg": "average", "totl": "total",
	"mnth": "month", "mnths": "months", "wrds": "words", "abve": "above", "thier": "their",
	"negativ": "negative", "positiv": "positive", "percentil": "percentile",
	"happiest": "most satisfied", "unhappiest": "least satisfied", "happier": "more satisfied", "unhappier": "less satisfied",
}

// oddQuotes reports whether s holds an odd number of quote marks.
func oddQuotes(s string) bool {
	return (strings.Count(s, `"`)+strings.Count(s, "“")+strings.Count(s, "”")+strings.Count(s, "'"))%2 == 1
}

// scoreSlashRe finds a score written with a slash after a scoring word ("gave
// 10/10", "rated us 4/5"): not a day.
var scoreSlashRe = regexp.MustCompile(`\b(gave|give|giving|rated|rate|rating|scored|score|us|a|an)\s+(\d{1,2})/(5|10)\b`)

// endOfMonthRe finds "up to the end of September": until September.
var endOfMonthRe = regexp.MustCompile(`\b(?:up to|until|till|by) the end of (` + monthWord + `)\b`)

// countWord matches a small number, in figures or words, in the patterns below.
const countWord = `\d+|two|three|four|five|six|seven|eight|nine|ten`

// sinceDurationRe finds a duration after "since" ("since 2 weeks", as German
// and French speakers write "for the last 2 weeks").
var sinceDurationRe = regexp.MustCompile(`\bsince (` + countWord + `) (day|week|month)s?\b`)

// daysToDateRe finds a number of days or weeks up to today ("the 7 days up to
// today"): the last ones.
var daysToDateRe = regexp.MustCompile(`\b(?:the )?(` + countWord + `) (days?|weeks?) (?:up to|until|till|to|ending|through) (?:today|now)\b`)

// thisToDateRe finds "this week up to today" and the like: this week.
var thisToDateRe = regexp.MustCompile(`\b(this (?:week|month|year|quarter)) (?:up to|until|till|to) (?:today|now|date)\b`)

// giveMeRe finds a number asked for at the end of a message ("… in the
// comments? give me five"): how many to list.
var giveMeRe = regexp.MustCompile(`\b(?:give|show|list) me (\d+|three|four|five|six|seven|eight|nine|ten)[\s.!?,]*(?:(?:pls|please|plz|thanks|thank you|thx|ty)[\s.!?]*)?$`)

// monthListRe finds three or more months listed ("sep, oct, nov and dec").
var monthListRe = regexp.MustCompile(`\b(?:` + monthName + `)(?:,? (?:` + monthName + `)){1,}(?:,? and (?:` + monthName + `))\b`)

// monthWord matches a word that begins like a month ("sept", "october"), in
// the patterns below.
const monthWord = `(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*`

// monthName matches a month's name or its abbreviation.
const monthName = `jan|january|feb|february|mar|march|apr|april|may|jun|june|jul|july|aug|august|sep|sept|september|oct|october|nov|november|dec|december`

// monthRun reads a list of consecutive months as the period from the first to
// the last ("sep, oct, nov and dec": from sep to dec); in any other list the
// "and" becomes "plus", a word the chat does not read, so that it refuses
// rather than counts the first month alone.
func monthRun(list string) string {
	names := strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' })
	names = slices.DeleteFunc(names, func(w string) bool { return w == "and" })
	for i := 1; i < len(names); i++ {
		if months[names[i]] != months[names[i-1]]%12+1 {
			return strings.Replace(list, " and ", " plus ", 1)
		}
	}
	return "from " + names[0] + " to " + names[len(names)-1]
}

// fromStartOfMonthRe finds "from the beginning of September": since then.
var fromStartOfMonthRe = regexp.MustCompile(`\bfrom (?:the )?(?:start|beginning) of (` + monthWord + `)\b`)

// atStartOfMonthRe finds "at the start of September", a time the chat does not
// read: kept as "beginning September", whose first word stays unknown.
var atStartOfMonthRe = regexp.MustCompile(`\b(?:at|in|during|around) (?:the )?(?:start|beginning) of (` + monthWord + `)\b`)

// moreOfRe finds "more of 50" as people whose language says so write "more
// than 50".
var moreOfRe = regexp.MustCompile(`\b(more|less|fewer) of (\d)`)

// monthToDateRe finds a month up to today ("in october up to today",
// "october to date"): since its first day.
var monthToDateRe = regexp.MustCompile(`\b(?:in |during )?(` + monthWord + `) (?:up to|until|till|through|to) (?:today|now|date)\b`)

// firstHalfRe finds "the first half of November": its 1st to 15th.
var firstHalfRe = regexp.MustCompile(`\b(?:the )?first half of (` + monthWord + `)\b`)

// periodPhrases writes periods people name in words the dates read: a fortnight
// is 14 days, "the month before last" and "two months ago" the calendar month
// before last month.
var periodPhrases = strings.NewReplacer("last fortnight", "last 14 days", "past fortnight", "past 14 days",
	"the month before last", "previous2 month", "two months ago", "previous2 month", "2 months ago", "previous2 month")

// slashScoreRe finds a score written with a slash before a scoring word, next
// or one word on ("10/10 recommendation scores", "5/5 overall ratings"): not a day.
var slashScoreRe = regexp.MustCompile(`\b(\d{1,2})/(5|10)\s+((?:\pL+\s+)?(?:scores?|ratings?|recommendations?|stars?|on|for))\b`)

// theWordRe finds "the word X", a word searched in the written answers.
var theWordRe = regexp.MustCompile(`\bthe word ["“']?(\pL+)["”']?`)

// searchTheWord reads "the word X" as "mention X", a search for X, unless X
// asks about the word ("the word most used", "the word that comes up most").
func searchTheWord(m string) string {
	if w := theWordRe.FindStringSubmatch(m)[1]; !aboutTheWord[w] {
		return "mention " + w
	}
	return m
}

// aboutTheWord are the words after "the word" that ask which word it is.
var aboutTheWord = text.Set("most more least that which with is was used people you they")

// scaleSuffixRe finds a scale written after a word ("balance/10"): out of 10.
var scaleSuffixRe = regexp.MustCompile(`\b([a-z]+)/(5|10)\b`)

// startOfMonthRe finds "the start of November": November, from its first day
// (not a word about the Start date question).
var startOfMonthRe = regexp.MustCompile(`\b(?:the )?(?:start|beginning) of (` + monthWord + `)\b`)

// numberRangeRe finds a range of small numbers written with a dash ("9-10"),
// not a day (2025-10-01).
var numberRangeRe = regexp.MustCompile(`(^|[^\d-])(\d{1,3})\s*[-–]\s*(\d{1,3})([^\d-]|$)`)

// signWords writes out the signs people type for words.
var signWords = strings.NewReplacer("&", " and ", "×", " x ", "★", " stars ", "⭐", " stars ", "→", " ", "->", " ")

// shareBeforeBar finds a share asked before a "|".
var shareBeforeBar = regexp.MustCompile(`(%|\bpercent|\bpct\b|\bshare\b|\bproportion\b|\bfraction\b)[^|]*\|`)

// givenBar reads "|" after a share as "among" ("% recommend | UK", the share
// among the UK's); any other "|" stays a sign the chat does not know.
func givenBar(msg string) string {
	if strings.Contains(msg, "|") && shareBeforeBar.MatchString(msg) {
		return strings.ReplaceAll(msg, "|", " among ")
	}
	return msg
}

// crossTabRe finds "cross tab", "cross-tab", "cross table" and their plurals:
// a breakdown.
var crossTabRe = regexp.MustCompile(`\bcross[- ]?tab(le|ulate|ulation)?s?\b`)

// crossRe finds "cross" left alone, a verb: "cross country with drink" is
// country across drink.
var crossRe = regexp.MustCompile(`\bcross\b`)

// patternWords are the words the patterns of tokenize read ("cross tab", "the
// start of", "gave it 4/5"): never read as slips of other words.
var patternWords = text.Set("cross crosstab crosstabs crosstable crosstables crosstabulate crosstabulation " +
	"tabs table tables tabulate tabulation until till start beginning half gave give giving rated rate rating scored score")

// withSlashRe finds the shorthands "w/" (with) and "w/o" (without) as words.
var withSlashRe = regexp.MustCompile(`\bw/o?\b|\bw/`)

// apostropheRe finds apostrophes inside words, which are not quotes.
var apostropheRe = regexp.MustCompile(`(\pL)'(\pL)`)

// makeToken builds the token of one matched piece of text.
func makeToken(s string, quoted bool) token {
	t := token{low: s, quoted: quoted}
	if n, err := strconv.ParseFloat(s, 64); err == nil {
		t.num, t.isNum = n, true
		return t
	}
	if !stopWords[s] && s[0] >= 'a' {
		t.stem = stemOf(s)
	}
	if strings.Contains(s, "/") || s == "|" {
		t.stem = s // a day written 3/10: read by the dates, else unknown; a "|" not read as "among"
	}
	return t
}

// stopWords lists words that carry no meaning for matching questions.
var stopWords = text.Set("a an the of to in on at for from by with about and or but is are was were be been being " +
	"do does did done have has had i me my we us our you your they them their he she it its this that these those " +
	"there here what which who whom whose how when where why would could should will shall can may might must " +
	"any all some each every per as if than then so such very just also only too much many more most less least " +
	"people person respondent respondents customer customers user users someone anyone everyone response responses " +
	"answer answers answered survey form question questions please tell show give me get got let know see " +
	"number count total percentage percent share average mean median say said s")

// foldedVerbs maps the irregular verb forms whose stem is their base form ("gave"
// → "give"), so that a message and a question in different tenses match. It lists
// the forms the chat's questions use: folding another changes which questions a
// message names, so add one with a case of the quality suite.
var foldedVerbs = func() map[string]string {
	m := map[string]string{}
	for _, w := range strings.Fields("heard found spent paid gave given chose chosen left bought began begun " +
		"wrote written came felt thought took") {
		base, ok := text.IrregularBase(w)
		if !ok {
			panic("chat: " + w + " is not an irregular verb form")
		}
		m[w] = base
	}
	return m
}()

// stemExceptions are words the suffix rules would get wrong: comparatives, the
// family of "easy", and words that only look inflected.
var stemExceptions = map[string]string{
	"better": "better", "best": "good", "worse": "bad", "worst": "bad", "easier": "easy", "easiest": "easy",
	"easily": "easy", "ease": "easy", "easy": "easy", "likelihood": "likely", "likely": "likely", "media": "media", "news": "news", "api": "api", "apis": "api",
}

// synonymGroups lists, for a canonical word, words of the same meaning.
var synonymGroups = map[string]string{
	"recommend": "recommendation recommender refer referral suggest",
	"spend":     "cost pay money revenue dollar amount price",
	"hear":      "find discover learn source channel",
	"plan":      "tier subscription package",
	"feature":   "function functionality tool module capability",
	"comment":   "feedback suggestion remark complaint review improve improvement better opinion",
	"contact":   "reach call ticket",
	"support":   "help helpdesk",
	"email":     "mail address",
	"start":     "begin join signup onboard onboarding hire hired",
	"company":   "firm employer organisation organization",
	"easy":      "setup difficult hard simple",
	"rate":      "star satisfaction satisfied satisfy grade",
	"advertise": "ad advert advertisement advertising",
	"search":    "google seo",
	"year":      "tenure",
	"come":      "return",
	"add":       "put",
	"type":      "kind",
}

// synonyms folds stems of the same meaning together, on both sides of a match.
var synonyms = func() map[string]string {
	m := map[string]string{}
	for canon, words := range synonymGroups {
		for _, w := range strings.Fields(words) {
			m[baseStem(w)] = baseStem(canon)
		}
	}
	return m
}()

// stemOf reduces a lower-case word to a canonical stem: irregular forms, plural
// and verb suffixes, then synonyms.
func stemOf(w string) string {
	w = baseStem(w)
	if s, ok := synonyms[w]; ok {
		return s
	}
	return w
}

// baseStem reduces a word to its stem without folding synonyms.
func baseStem(w string) string {
	if s, ok := stemExceptions[w]; ok {
		return s
	}
	if s, ok := foldedVerbs[w]; ok {
		return s
	}
	return stripSuffixes(w)
}

// stripSuffixes strips common English suffixes.
func stripSuffixes(w string) string {
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
		w = undouble(w[:len(w)-3])
	case len(w) > 4 && strings.HasSuffix(w, "ed"):
		w = undouble(w[:len(w)-2])
	case len(w) > 4 && strings.HasSuffix(w, "ier"):
		w = w[:len(w)-3] + "y"
	case len(w) > 6 && strings.HasSuffix(w, "ly") && !strings.HasSuffix(w, "ily") && !strings.HasSuffix(w, "ally"):
		w = w[:len(w)-2]
	}
	if strings.HasSuffix(w, "i") {
		w = w[:len(w)-1] + "y"
	}
	if len(w) >= 3 && strings.HasSuffix(w, "e") {
		w = w[:len(w)-1]
	}
	return w
}

// undouble drops the doubled final consonant of a stem ("gett" → "get"), not
// that of a short word ("add").
func undouble(w string) string {
	n := len(w)
	if n >= 4 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiouls", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

// stemsOf returns the content stems of s, in order.
func stemsOf(s string) []string { return tokenStems(tokenize(s)) }

// tokenStems returns the content stems of ts, in order.
func tokenStems(ts []token) []string {
	var out []string
	for _, t := range ts {
		if t.stem != "" {
			out = append(out, t.stem)
		}
	}
	return out
}

// wordsOf returns the lower-case words of a token range, for phrase matching.
func wordsOf(ts []token) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.low
	}
	return out
}

// phrase splits a phrase into the words tokenize gives, to match against a
// message's words.
func phrase(s string) text.Phrase { return text.Phrase(wordsOf(tokenize(s))) }

// phrases splits each of list with phrase.
func phrases(list ...string) []text.Phrase {
	out := make([]text.Phrase, len(list))
	for i, s := range list {
		out[i] = phrase(s)
	}
	return out
}
