package chat

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"forma/internal/ai/query"
	"forma/internal/ai/text"
	"forma/internal/form"
)

// intent is the kind of answer a message asks for.
type intent int

// Intents: an engine metric (request.metric, unset while none is named), or a
// figure the chat computes beyond a single metric.
const (
	metricIntent   intent = iota
	completionRate        // completed ÷ started sessions
	busiestPeriod         // the period with the most responses
	highestGroup          // the group with the highest figure
	lowestGroup           // the group with the lowest figure
)

// request is what a message asks, before it is turned into engine queries.
type request struct {
	metric    query.Metric
	kind      intent
	target    *question
	conds     []cond
	span      *dateRange // submission dates
	shift     *shift     // "the week before that": the previous question's period, moved
	groupBy   *question
	compare   []string  // options of groupBy to compare; all when empty
	every     bool      // the message asks for every group ("for each ticket type")
	rank      int       // +1 when the message names a top ("most", "highest"), -1 a bottom, else 0
	answer    string    // "yes" or "no": a follow-up about those who gave that answer ("and those who wouldn't?")
	replaced  []cond    // conditions named after "instead of", which the follow-up's replace
	which     *question // the groupable question named after "which" ("and which ticket type?")
	asksWhich bool      // the message asks "which" ("and which one is highest?")
	// rankDefault marks a ranking whose figure the message did not name
	// ("which department is lowest"): a follow-up keeps the previous figure.
	rankDefault     bool
	compares        bool     // the message asks to compare ("compare them")
	same            bool     // the message asks the same question again ("same question but …")
	allTime         bool     // the message asks over every response ("over the whole survey"): a follow-up drops the period
	refersBack      bool     // the message points at the previous answer's respondents ("of them", "there", "that group")
	onlyThere       bool     // "there" is its only pointer: a place
	topWordBack     bool     // "how many mention the top one": the word the previous reply ranked first
	thatWord        bool     // "that word": the one word the previous reply named
	together        bool     // "combined", "together": one figure over the answers listed before
	sameFor         bool     // "same for tea": the previous question with another answer
	its             bool     // "its": the one answer the previous reply named
	pointsAtPeriod  bool     // "in it", "that month": the period the previous reply named
	takings         bool     // "revenue", "bring in": what amounts bring in together
	bareAnd         bool     // "and espresso?": a short follow-up that only names an answer
	possessive      bool     // "its", "their": a figure of the people pointed at
	topNamed        bool     // "top" was said: the highest, the most common or the first group
	whichOne        bool     // "which one …": one of the groups shown before
	firstOne        int      // +1 for "the top one", -1 for "the smallest one": an answer at an end of the list shown before
	edgeOf          *request // the list whose first (last) answer "the top one" named
	oneAfterExtreme bool     // "the worst one": a single answer or group
	overall         bool     // "overall" was said (not as a question's own word)
	shareOfNamed    bool     // an answer is named after "of" ("what % of germans is that"): the population of a share
	allGroups       bool     // the message asks for every group of the previous ranking ("show me all of them")
	mostly          bool     // "mostly", "mainly": the most common answer ("what do they mostly drink")
	itAnswer        bool     // "it" is the answer the previous reply named ("the people who picked it")
	ofEveryone      bool     // "of everyone": a share of all the responses
	addsMore        bool     // "add networking too": more answers to the previous comparison
	answersPrev     bool     // "how many answered that": who answered the previous question
	dangling        bool     // the message points back ("how many of those …"): a first message can't
	judged          bool     // "best" or "worst": a judgement, which may rank groups
	allNamed        bool     // "and for all london engineers": the groups named, without the previous filters
	otherSide       query.Op // "and over?": the previous number, compared the other way
	theRest         bool     // "and everyone else?": the people the previous answer left out
	theOthers       bool     // "and the others?": each other answer, or all of them together
	perPerson       bool     // "per person?": the average of the previous total
	vaguePointer    bool     // "what about them": nothing but a pointer
	everyone        bool     // the message asks over every respondent ("and overall?", "for everyone"): a follow-up drops the previous filters
	cuesOnly        bool     // the message says nothing but what it asks for ("the lowest?", "total?")
	atFigure        bool     // a count of those who gave the previous figure ("how many paid that")
	// completes is set on a question's name that completes a figure asked back for
	// its question ("avg?" – "rating"); bare on a message of three words at most.
	completes, bare bool
	// countsExtreme asks how many gave the highest (lowest) answer ("how many gave
	// the lowest rating"), not what it is.
	countsExtreme bool
	// answersTarget is set when the message says the target was answered ("how
	// many Germans answered the comments question"), not only names it.
	answersTarget bool
	// looseClass is a sentiment class named with no written answers, which a
	// follow-up gives the previous question's ("… mention support" – "and how
	// many of those are negative?").
	looseClass string
	interval   string
	limit      int
	least      bool
	total      bool // "total" was said: a sum for numeric questions
	extreme    int  // +1 highest, -1 lowest was said
	followUp   bool
	addOnly    bool // "of them": new conditions narrow the previous ones
	narrows    bool // "among", "only": a follow-up's conditions narrow the previous ones
	about      bool // the message talks about responses or respondents
	howMany    bool // "how many" was asked: a count, even with "total"
	blank      bool // "skipped", "did not answer": a count of who left the target blank
	// percentile is the percentile asked for, 0 for none.
	percentile float64
	// unknown are the content words of the message nothing of the request
	// accounts for; clash is a period that contradicts a question's own.
	unknown []string
	clash   string
	// ambiguous says why the message has more than one plausible reading, or "".
	ambiguous string
	// check is the number a yes/no question compares its figure with, or nil.
	check *figureCheck
	// lone is the only thing a follow-up names, a number or a range ("and 4?",
	// "and 3+?", "and 7 or 8?"): the new value of the previous question's numeric
	// condition, with its comparison when the follow-up gives one (Op "" keeps it).
	lone *query.Filter
	// pointsBack is set for a message that reads in full but names its group
	// as the previous answer's ("how satisfied are those home workers"): a
	// follow-up after an answered question.
	pointsBack bool
	// either is set by a follow-up asking for one answer or the other of those
	// the previous question wanted together ("and either one of them?").
	either bool
	// loneWord is the only word of a follow-up that names no answer, statistic
	// or period, even one the chat passes over ("and onboarding?", "and
	// reports?"): after a question about the written answers that contain a word,
	// the word to search instead.
	loneWord string
}

// cue is a word or phrase of a message that points at what it asks.
type cue int

// Cues, each found by its phrases in cuePhrases.
const (
	cueCompletion cue = iota
	cueTrend
	cueBusiest
	cueSentiment
	cuePercent
	cueMean
	cueMedian
	cueTotal
	cueMax
	cueMin
	cueTop
	cueLeast
	cueCount
	cueDistribution
	cueList
	cueCompare
	cueStdDev
	cueMode
	cueWords
)

// cuePhrases lists the phrases of each cue.
var cuePhrases = map[cue][]text.Phrase{
	cueCompletion: phrases("completion rate", "completion", "complete rate", "dropoff", "abandon", "abandonment", "finish rate"),
	cueTrend:      phrases("trend", "trends", "trended", "trending", "over time", "change over", "changes over", "change from", "change between", "change since", "grow", "grew", "growing", "per month", "per week", "per day", "each month", "each week", "each day", "every month", "monthly", "weekly", "daily", "by month", "by week", "by day", "month by month", "week by week", "changed", "evolved"),
	cueBusiest:    phrases("busiest", "quietest", "most responses", "fewest responses", "most submissions"),
	cueSentiment:  phrases("sentiment", "mood", "tone", "feeling", "feelings", "feel about", "feeling about", "people feel", "positive or negative", "how positive", "how negative", "people think", "think of", "think about", "opinion of", "opinions"),
	cuePercent:    phrases("percentage", "percent", "%", "share", "proportion", "fraction", "portion", "ratio", "what part of", "which part of", "part of people", "part of the people"),
	cueMean:       phrases("average", "avg", "mean", "typical", "typically"),
	cueMedian:     phrases("median", "middle", "midpoint"),
	cueTotal:      phrases("total", "sum", "altogether", "combined", "put together", "all together", "between them", "added together", "add together"),
	cueMax:        phrases("highest", "maximum", "max", "largest", "biggest", "most expensive", "latest", "best", "longest", "most recent", "newest"),
	cueMin:        phrases("lowest", "minimum", "min", "smallest", "cheapest", "earliest", "worst", "shortest", "oldest"),
	cueTop: phrases("most common", "most popular", "most frequent", "most frequently", "most chosen", "most selected", "most used", "used the most", "used most", "most often", "top", "favorite", "favourite", "leading", "main", "most people", "more frequent",
		"most ppl", "most folks", "most respondents", "most customers", "most employees", "most attendees", "most staff", "most guests"),
	cueLeast:        phrases("least common", "least popular", "least used", "less used", "less chosen", "less selected", "chosen less", "picked less", "selected less", "least chosen", "least selected", "used the least", "fewest", "rarest", "least frequent", "least often", "least"),
	cueCount:        phrases("how many", "number of", "count", "headcount"),
	cueDistribution: phrases("breakdown", "break down", "distribution", "split", "spread", "counts", "each option", "every option", "all the options", "in table", "in a table", "as table", "all options", "all the choices", "each answer", "each choice", "per star", "each star", "per score", "each score", "per value", "each value", "per point", "each point", "how did people answer", "how do people answer", "how people answer", "how people answered", "how did ppl answer", "how did folks answer", "how did respondents answer", "how did everyone answer", "results", "what did people choose", "mix"),
	cueList:         phrases("show", "list", "display", "read", "what did people say", "what are people saying", "what do people say", "what did they say", "what do they say", "what are they saying", "what did people write", "what did they write", "examples", "quotes", "recent", "latest", "newest"),
	cueStdDev:       phrases("standard deviation", "std dev", "std deviation", "stdev", "stddev", "sd", "standard dev"),
	cueMode:         phrases("mode", "modal"),
	cueWords:        phrases("words", "word", "keywords", "themes", "theme", "terms", "topics"),
	cueCompare:      phrases("compare", "comparison", "versus", "vs", "difference", "differ", "differs", "compared", "more popular", "more common", "more used", "less popular", "less common", "next to"),
}

// Word sets of the parser.
var (
	latestWords  = text.Set("latest newest")
	theMost      = phrase("the most")
	mostRecent   = phrase("most recent")
	howMany      = phrase("how many")
	numberOf     = phrase("number of")
	afterTheMost = text.Set("? , among in by for with of") // "the most" + one word + these is a top answer
	periodWords  = text.Set("day days week weeks month months")
	dayWords     = text.Set("day days daily")
	weekWords    = text.Set("week weeks weekly")
	monthWords   = text.Set("month months monthly")
	whichOr      = text.Set("which or")
	themWords    = text.Set("those them these")
	clauseWords  = text.Set("who whose that which on with in using from")
	ofAmong      = text.Set("of among from")
	ofTheir      = phrases("of their", "of its")
	aboutWords   = text.Set("responses response submissions people respondents customers users entries survey form " +
		"filled replies answers everyone anyone comments responded respond replied participants participated " +
		"employees staff attendees guests members workers took part")
	yesOrNo       = text.Set("yes no")
	sentimentCues = text.Set("positive negative neutral happy unhappy angry complaints")
	unitsOfTime   = text.Set("day days week weeks month months year years")
	listedThings  = text.Set("comments answers responses examples reviews entries quotes")
	listVerbs     = text.Set("show list give see display read")
	beforeLimit   = text.Set("top bottom first last latest recent newest which common frequent popular")
	afterLimit    = text.Set("most least latest recent newest")
)

// cues returns the cues present in the message.
func (p *parser) cues() map[cue]bool {
	out := map[cue]bool{}
	for c, phs := range cuePhrases {
		if text.Any(p.cueWords, phs) {
			out[c] = true
		}
	}
	if i := theMost.Index(p.cueWords); i >= 0 && afterTheMost[p.word(i+2)] {
		out[cueTop] = true
	}
	if out[cueMedian] && p.cueOnlyFrom(cueMedian, text.Set("middle")) && p.word(slices.Index(p.cueWords, "middle")+1) == "of" {
		delete(out, cueMedian) // "the middle of October" is a time
	}
	if (p.word(0) == "what" || p.word(0) == "which") && !out[cueMax] && !out[cueMin] && p.mostOfAGroup() {
		out[cueTop] = true // "what rating do most germans give us": the most common one
	}
	if out[cueBusiest] && !anyWord(p.cueWords, periodWords) {
		delete(out, cueBusiest)
	}
	if out[cueTop] && (out[cueMax] || out[cueMin] || out[cueCount]) && p.cueOnlyFrom(cueTop, favouriteWords) {
		delete(out, cueTop) // "lowest rating by people whose favourite session was …", "how many chose … as their favourite"
	}
	if out[cueTop] && p.cueOnlyFrom(cueTop, favouriteWords) && p.favouriteOfOption() {
		delete(out, cueTop) // "respondents whose favourite session was the Keynote" describes them
	}
	if out[cueTop] && !out[cueLeast] && p.cueOnlyFrom(cueTop, favouriteWords) && p.pluralAfterFavourite() && p.limit() == 0 {
		delete(out, cueTop) // "fave sessions": every session, with its count
		out[cueDistribution] = true
	}
	if (mostRecent.Index(p.cueWords) >= 0 || anyWord(p.cueWords, latestWords)) && !anyWord(p.cueWords, listVerbs) &&
		!anyWord(p.cueWords, listedThings) && p.limit() == 0 {
		delete(out, cueList) // "the most recent start date" is the latest answer
	}
	if p.word(0) == "how" && (slices.Contains(p.cueWords, "feel") || slices.Contains(p.cueWords, "felt")) {
		out[cueSentiment] = true // "how do the french feel in their comments"
	}
	figure := out[cueMin] || out[cueMax] || out[cueMean] || out[cueMedian] || out[cueTotal] || out[cuePercent] || out[cueStdDev]
	if !figure && len(p.words) > 1 && p.endsWith("each") {
		out[cueDistribution] = true // "sessions people enjoyed most, count for each"
	}
	if i := slices.Index(p.cueWords, "count"); out[cueCount] && i >= 0 && p.cueOnlyFrom(cueCount, text.Set("count")) &&
		(p.word(i+1) == "only" || subjectPronouns[p.word(i-1)]) {
		delete(out, cueCount) // "and if I count only VIP tickets?" keeps the figure, among them
	}
	if out[cueMean] && out[cueTop] && p.cueOnlyFrom(cueMean, text.Set("typical typically")) {
		delete(out, cueMean) // "typical number of cups a day, the most common answer"
	}
	if out[cueSentiment] && out[cueCount] && text.Any(p.cueWords, withCounts) {
		delete(out, cueCount) // "the mood in the comments, with how many positive and negative": the sentiment gives the counts
	}
	if p.word(0) == "how" && slices.Contains(p.cueWords, "change") {
		out[cueTrend] = true // "how did the number of responses change?"
	}
	if out[cueList] && anyWord(p.cueWords, figureWords) && !anyWord(p.cueWords, listedThings) && p.cueOnlyFrom(cueList, listVerbs) {
		delete(out, cueList) // "show me that for every country" asks for the figure again
	}
	return out
}

// markIdioms marks read the words of two idioms that would otherwise name a
// question: the word before "form", "survey" or "questionnaire" ("the feedback
// form" names the form, not a question about feedback), and the "come" of
// responses that "came in" (arrived) and of words that "come up" (appear), not
// “Will you come next year?”.
func (p *parser) markIdioms() {
	for i := 1; i < len(p.ts); i++ {
		if formWords[p.words[i]] && p.ts[i-1].stem != "" && !p.ts[i-1].isNum && months[p.words[i-1]] == 0 && !periodWords[p.words[i-1]] {
			p.used[i-1] = true // not "september forms": a period
		}
		if arriveWords[p.words[i-1]] && (p.words[i] == "in" || p.words[i] == "through" || p.words[i] == "up") {
			p.used[i-1] = true
		}
		if arriveWords[p.words[i]] && (submissionWords[p.words[i-1]] || i >= 2 && copulas[p.words[i-1]] && submissionWords[p.words[i-2]]) {
			p.used[i] = true // "how many answers are coming since august": arriving
		}
		if (submissionWords[p.words[i]] || p.words[i] == "count" || p.words[i] == "forms") && p.ts[i-1].stem != "" &&
			slices.Contains(p.cf.titleStems, p.ts[i-1].stem) && !p.cf.optionStem(p.ts[i-1].stem) {
			p.used[i-1], p.formAnswers = true, true // "coffee answers", "feedback count": the form's own answers
		}
		gave := givingVerbs[p.words[i-1]] || i >= 2 && objectPronouns[p.words[i-1]] && givingVerbs[p.words[i-2]] || howMany.Index(p.words[max(0, i-2):i]) >= 0 || numberOf.Index(p.words[max(0, i-2):i]) >= 0
		if gave && p.ts[i].stem != "" && slices.Contains(p.cf.titleStems, p.ts[i].stem) && !p.cf.optionStem(p.ts[i].stem) &&
			!p.cf.namesAQuestion(p.ts[i].stem) {
			p.used[i], p.formAnswers = true, true // "gave (us) feedback", "received how many feedback" on the “Conference feedback” form: responded
		}
		if p.words[i] == "else" && (p.words[i-1] == "everyone" || p.words[i-1] == "everybody") {
			p.used[i] = true // "and everyone else?": not “Anything else you want to tell us?”
		}
		if favouriteWords[p.words[i-1]] && p.cf.namesOnlyWithout(p.ts[i].stem, p.ts[i-1].stem) {
			p.used[i-1] = true // "favourite add-in": the most common answer to “What do you add…”, not “Favourite drink”
		}
		if p.ts[i].isNum && p.ts[i].num == 2 && (p.words[i-1] == "those" || p.words[i-1] == "these" || p.words[i-1] == "both") && !p.ts[min(i+1, len(p.ts)-1)].isNum {
			p.ts[i].isNum, p.used[i] = false, true // "how do those two compare": the two named before, not the answer 2
		}
		if p.words[i] == "1" && sizeOne[p.words[i-1]] {
			p.ts[i].isNum = false // "the biggest one" (its "one" read as a number): a group
		}
		if p.words[i] == "one" && extremeNames[p.words[i-1]] {
			p.ts[i].isNum, p.used[i], p.oneAfterExtreme = false, true, true // "lowest one": the group, not the number 1
		}
		if (p.words[i-1] == "come" || p.words[i-1] == "comes") && p.words[i] == "to" && sumAsks[p.word(i-2)] {
			p.used[i-1], p.used[i] = true, true // "what's that come to": a total, not “Will you come next year?”
		}
		if p.words[i-1] == "next" && p.words[i] == "to" {
			p.used[i-1], p.used[i] = true, true // "early birds next to VIPs": set against, not “Will you come next year?”
		}
		// "the first one": the first answer of the list shown before; "as one number": a single
		// figure, not the answer 1; "the rest of the company": everyone else, not “Years at the company”
		p.markPhraseAt(i-1, firstOnePhrases, lastOnePhrases, oneNumber, restOfAll)
		if i == 1 && (p.words[0] == "overall" || p.words[0] == "generally") && p.words[1] == "," {
			p.used[0] = true // "overall, would people come again": in general, not “Overall rating”
		}
		if (p.words[i] == "least" || p.words[i] == "most") && p.words[i-1] == "at" {
			p.cueWords[i] = "" // "and at least 40?": a comparison, not the least common answer
		}
		if (p.words[i] == "favourite" || p.words[i] == "favorite") && (p.words[i-1] == "whose" || p.words[i-1] == "their" && copulas[p.word(i+1)]) {
			p.cueWords[i] = "" // "people whose favourite was the panel": who they are, not the most common answer
		}
		if reportVerbs[p.words[i-1]] && subjectPronouns[p.words[i]] {
			p.used[i-1] = true // "people who said they drink 5 cups": what they said, not a comment
		}
	}
}

// objectPronouns may stand between a giving verb and the form's title word.
var objectPronouns = text.Set("us me them")

// givingVerbs before the form's own title word say people responded, as "how
// many" does.
var givingVerbs = text.Set("gave give given left provided submitted sent received receive got get collected")

// reportVerbs before a subject pronoun report what was answered elsewhere.
var (
	reportVerbs     = text.Set("said say says told")
	subjectPronouns = text.Set("they i we he she")
)

// arriveWords before "in" say that responses arrived.
var arriveWords = text.Set("come comes came coming")

// withClassWord adds to unknown the word of the message that named
// p.looseClass, unless unknown already holds it.
func (p *parser) withClassWord(unknown []string) []string {
	for _, w := range p.words {
		if sentimentClasses[w] == p.looseClass {
			if !slices.Contains(unknown, w) {
				unknown = append(unknown, w)
			}
			break
		}
	}
	return unknown
}

// answerBareYesNo gives the only bare yes/no condition (its question named with
// no answer) the answer the message gives elsewhere.
func (p *parser) answerBareYesNo(v bool) {
	if at := onlyCond(p.conds, func(c cond) bool { return c.bare }); at >= 0 {
		p.conds[at].f.Value, p.conds[at].bare = v, false
	}
}

// markSaidAnswers marks read the verb of a yes, a no or an option that was read
// ("said yes to …", "said workshop"): it names no written answers.
func (p *parser) markSaidAnswers() {
	for i := 1; i < len(p.ts); i++ {
		said := yesOrNo[p.words[i]] || slices.ContainsFunc(p.conds, func(c cond) bool { return c.pos == i && isOptionCond(c) })
		if said && p.used[i] && sayVerbs[p.words[i-1]] {
			p.used[i-1] = true // "said yes to …", "said workshop or keynote was …"
		}
	}
}

// submissionWords before a period make it the submissions' period.
var submissionWords = text.Set("responses response submissions submitted answers entries replies")

// submissionsBefore reports whether a submission word stands before the period
// at i, across its prepositions ("responses from the last two weeks").
func (p *parser) submissionsBefore(i int) bool {
	k := i - 1
	for k >= 0 && (datePrepositions[p.words[k]] || p.words[k] == "the" || p.words[k] == "in") {
		k--
	}
	return k >= 0 && submissionWords[p.words[k]]
}

// answerAuxiliaries end a follow-up about those who said yes: "and those who will?".
var answerAuxiliaries = text.Set("will would do did does are is have has can")

// pointsAtThat reports whether the message says "is that" or "was this" at its
// end or before the population it is a share of ("what % is that of all the milk
// people"): it points at the previous answer.
func (p *parser) pointsAtThat() bool {
	for k := 1; k < len(p.words); k++ {
		if p.words[k] != "that" && p.words[k] != "this" {
			continue
		}
		if (p.words[k-1] == "is" || p.words[k-1] == "was") && (k+1 == len(p.words) || p.words[k+1] == "?" || shareOfWords[p.words[k+1]]) {
			return true
		}
		if (p.word(k+1) == "as" || p.word(k+1) == "in") && slices.ContainsFunc(p.words[k+1:min(k+5, len(p.words))], func(w string) bool { return shareWords[w] }) {
			return true // "what's that as a % of the French?"
		}
	}
	return false
}

// shareOfWords introduce the population after "what % is that".
var shareOfWords = text.Set("of among amongst from out in for")

// unitCounted reports whether "how many" counts a word of q ("how many cups"),
// not respondents.
func (p *parser) unitCounted(q *question) bool {
	i := howMany.Index(p.words)
	return i >= 0 && i+2 < len(p.ts) && p.ts[i+2].stem != "" && slices.Contains(q.stems, p.ts[i+2].stem)
}

// unitsCounted reports whether "how many" counts a plural noun of q's own text
// ("how many hours do people work"), not respondents ("how many rate us", "how
// many paid").
func (p *parser) unitsCounted(q *question) bool {
	i := howMany.Index(p.words)
	return i >= 0 && strings.HasSuffix(p.word(i+2), "s") && slices.Contains(q.words, p.word(i+2))
}

// numberCount counts the numbers of the message.
func (p *parser) numberCount() int {
	n := 0
	for _, t := range p.ts {
		if t.isNum {
			n++
		}
	}
	return n
}

// dropReplaced drops and returns the conditions named after "instead of": "and
// for Engineering instead of Marketing?" replaces the Marketing condition.
func (p *parser) dropReplaced() []cond {
	var out []cond
	for i := range p.words {
		if p.word(i) != "instead" || p.word(i+1) != "of" {
			continue
		}
		p.conds = slices.DeleteFunc(p.conds, func(c cond) bool {
			named := c.pos == i+2 || c.pos == i+3 && p.word(i+2) == "the"
			if named {
				out = append(out, c)
			}
			return named
		})
	}
	return out
}

// likelyTo reports whether the message asks how likely people are to give a
// yes/no answer ("least likely to come back"), and marks "likely" read: the
// figure is the share of yes, whatever question has "likely" in its text.
func (p *parser) likelyTo() bool {
	for i, w := range p.words {
		if !likelyWords[w] || p.word(i+1) != "to" {
			continue
		}
		for k := i + 2; k <= i+4 && k < len(p.ts); k++ {
			if yn := p.yesNoNamed(k); yn {
				p.used[i], p.used[i+1] = true, true
				return true
			}
		}
	}
	return false
}

// markPhraseAt marks read the longest phrase of lists that stands at i, and
// returns its length (0 when none does).
func (p *parser) markPhraseAt(i int, lists ...[]text.Phrase) int {
	n := 0
	for _, phs := range lists {
		n = max(n, phraseLenAt(phs, p.words, i))
	}
	for k := i; k < i+n; k++ {
		p.used[k] = true
	}
	return n
}

// likelyWords say how likely ("likelier to come back").
var likelyWords = text.Set("likely likelier likeliest")

// yesNoNamed reports whether the word at k belongs to a condition on a yes/no
// question.
func (p *parser) yesNoNamed(k int) bool {
	return slices.ContainsFunc(p.conds, func(c cond) bool { return c.q != nil && c.q.q.Type == form.YesNo && c.pos == k })
}

// anyoneExtreme returns +1 for "the most … anyone", -1 for "the least … anyone"
// (the highest or lowest answer), else 0.
func (p *parser) anyoneExtreme() int {
	for i, w := range p.words {
		if !anyoneWords[w] && !(w == "any" && (personNouns[p.word(i+1)] || groupNouns[p.word(i+1)] || p.condAfter(i))) {
			continue
		}
		for k := max(0, i-3); k < i; k++ {
			switch p.words[k] {
			case "most", "highest", "best":
				return 1
			case "least", "fewest", "lowest", "worst":
				return -1
			}
		}
	}
	return 0
}

// anyoneWords stand for a single respondent in "the most anyone paid"; so does
// "any" before the respondents ("worst score any UK customer gave").
var anyoneWords = text.Set("anyone anybody someone somebody")

// bareByGroup reads "remote work by department" as the yes/no question's
// answers by group, not as the remote workers' count by group: a bare yes/no
// word, no figure asked and nothing else named.
func (p *parser) bareByGroup(in *request) {
	if in.groupBy == nil && in.target != nil && groupable(in.target.q) && in.metric == query.Distribution {
		for i, c := range p.conds {
			if c.bare && listJoins[p.word(c.pos-1)] {
				in.groupBy = c.q // "cross-tab of department and remote work"
				p.conds = slices.Delete(p.conds, i, i+1)
				return
			}
		}
	}
	if in.groupBy == nil || in.target != nil || in.metric != "" || len(p.conds) != 1 || !p.conds[0].bare {
		return
	}
	in.target, in.metric = p.conds[0].q, query.Distribution
	p.conds = nil
}

// priceWords rank amounts of money: they point at the form's currency question.
var priceWords = text.Set("expensive cheapest cheaper pricier priciest")

// weEarned ask for what the respondents paid together ("did we make" is written
// "did we earn").
var weEarned = phrases("we earn", "we earned")

// takings name what amounts bring in together.
var takings = phrases("revenue", "income", "takings", "turnover", "bring in", "brought in", "brings in", "bring", "brought", "generated", "generate",
	"take in", "took in", "taken in", "money came in", "money come in", "money comes in")

// scoreWords name the answer on a scale when the form has one scale question.
var scoreWords = text.Set("score scores")

// scoreStatistics are the figures of a score that "score" asks for on a form with
// one scale: a statistic, a breakdown, or none said ("how do fans differ in score").
var scoreStatistics = map[query.Metric]bool{"": true, query.Mean: true, query.Median: true, query.Mode: true,
	query.Min: true, query.Max: true, query.StdDev: true, query.Percentile: true, query.Sum: true, query.Distribution: true}

// addUpWords ask for a sum whatever else the message says; addedUp do even among
// a question's own words ("if you add up everyone's cups" on “What do you add …”).
var (
	addUpWords = phrases("add up", "adds up", "added up", "sum up", "sum", "add together", "added together")
	addedUp    = phrases("add up", "adds up", "added up", "add together", "added together", "adds together")
)

// withCounts ask for the counts that come with a figure.
var withCounts = phrases("with how many", "and how many", "with the counts", "with counts", "with numbers", "with number of", "with the number of", "and the number of")

// varyWords ask how spread out answers are; with a group named ("vary by
// country") they ask for each group's figure instead.
var varyWords = text.Set("vary varies variation variability")

// spreadAsked reports whether "spread" asks how far the answers vary ("the most
// spread", "how spread out"), not for the breakdown ("the spread of answers").
func (p *parser) spreadAsked() bool {
	i := slices.Index(p.words, "spread")
	return i >= 0 && (spreadDegree[p.word(i-1)] || p.word(i+1) == "out" || text.Any(p.words, oneNumber))
}

// oneNumber asks for a single figure ("the spread of the ratings as one number").
var oneNumber = phrases("one number", "a single number", "single figure", "one figure", "single value", "one value")

// spreadDegree before "spread" ask how much.
var spreadDegree = text.Set("most least more less biggest smallest largest widest how")

// mostOfAGroup reports whether "most" stands before a group of respondents
// named by an answer ("most germans", "most latte drinkers").
func (p *parser) mostOfAGroup() bool {
	i := slices.Index(p.words, "most")
	return i >= 0 && slices.ContainsFunc(p.conds, func(c cond) bool { return isOptionCond(c) && c.pos == i+1 })
}

// favouriteWords describe an answer ("favourite session") more often than they
// ask for the most common one.
var favouriteWords = text.Set("favourite favorite")

// favouriteOfOption reports whether "favourite" qualifies a question the message
// names an option of ("whose favourite session was the Keynote").
func (p *parser) favouriteOfOption() bool {
	i := slices.IndexFunc(p.words, func(w string) bool { return favouriteWords[w] })
	if i < 0 || i+1 >= len(p.ts) {
		return false
	}
	return slices.ContainsFunc(p.conds, func(c cond) bool {
		return isOptionCond(c) && c.pos > i+1 && slices.Contains(c.q.stems, p.ts[i+1].stem)
	})
}

// pluralAfterFavourite reports whether a plural noun follows "favourite"
// ("favourite sessions").
func (p *parser) pluralAfterFavourite() bool {
	i := slices.IndexFunc(p.words, func(w string) bool { return favouriteWords[w] })
	next := p.word(i + 1)
	return i >= 0 && strings.HasSuffix(next, "s") && !strings.HasSuffix(next, "ss")
}

// cueOnlyFrom reports whether every phrase of cue c in the message is a single
// word of set: the top cue only "favourite", the list cue only a verb such as
// "show" (no "latest", "examples" or "what did people say").
func (p *parser) cueOnlyFrom(c cue, set map[string]bool) bool {
	for _, ph := range cuePhrases[c] {
		if ph.Index(p.cueWords) >= 0 && !(len(ph) == 1 && set[ph[0]]) {
			return false
		}
	}
	return true
}

// figureWords make "show me …" ask for a figure, not for a list of answers.
var figureWords = text.Set("that same figure figures number numbers stats statistics table counts")

// anyWord reports whether one of the words is in the set.
func anyWord(words []string, set map[string]bool) bool {
	for _, w := range words {
		if set[w] {
			return true
		}
	}
	return false
}

// periodPointers point at the period a reply named.
var periodPointers = phrases("in it", "that month", "that week", "that day", "in that month", "then", "during it", "that period")

// quietWords ask for the period with the fewest responses.
var quietWords = text.Set("quietest fewest")

// metricOrder is the priority of cues that decide the metric.
var metricOrder = []struct {
	cue    cue
	metric query.Metric
}{
	{cuePercent, query.Percent}, {cueStdDev, query.StdDev}, {cueMode, query.Mode}, {cueWords, query.Words}, {cueTrend, query.Trend}, {cueMean, query.Mean}, {cueMedian, query.Median},
	{cueDistribution, query.Distribution}, {cueLeast, query.Top}, {cueTop, query.Top}, {cueCount, query.Count},
	{cueSentiment, query.Sentiment}, {cueList, query.List},
}

// setMetric decides the intent and metric from the cues; max, min and sum are
// settled once the target is known.
func (in *request) setMetric(cues map[cue]bool, words []string) {
	switch {
	case cues[cueCompletion]:
		in.kind = completionRate
		return
	case cues[cueBusiest]:
		in.kind, in.interval, in.least = busiestPeriod, intervalOf(words, query.Day), anyWord(words, quietWords)
		return
	}
	for _, m := range metricOrder {
		if cues[m.cue] {
			in.metric = m.metric
			in.least = m.cue == cueLeast
			break
		}
	}
	if in.metric == query.Trend {
		in.interval = intervalOf(words, "")
	}
	in.total = cues[cueTotal] || text.Any(words, weEarned) || (in.metric == "" || in.metric == query.Count) && text.Any(words, takings)
	// "how much did we make", "how much income did vip tickets bring": the takings
	if cues[cueMax] {
		in.extreme = 1
	} else if cues[cueMin] {
		in.extreme = -1
	}
}

// intervalOf returns the period a message names, or def: the one after "per",
// "each", "every" or "by" first ("per week over the last 30 days").
func intervalOf(words []string, def string) string {
	for i, w := range words {
		if i+1 < len(words) && (w == "per" || w == "each" || w == "every" || w == "by") {
			switch next := words[i+1]; {
			case dayWords[next]:
				return query.Day
			case weekWords[next]:
				return query.Week
			case monthWords[next]:
				return query.Month
			}
		}
	}
	switch {
	case anyWord(words, dayWords):
		return query.Day
	case anyWord(words, weekWords):
		return query.Week
	case anyWord(words, monthWords):
		return query.Month
	}
	return def
}

// fits reports whether metric m can be computed over answers of q.
func fits(m query.Metric, q *form.Question) bool {
	switch m {
	case query.Mean, query.Median, query.Sum, query.Trend, query.StdDev, query.Percentile:
		return isNumeric(q)
	case query.Words:
		return isFreeText(q)
	case query.Min, query.Max:
		return isNumeric(q) || isDateLike(q)
	case query.Sentiment:
		return isFreeText(q)
	}
	return true
}

// namedOnlyByPeriod reports whether the only words of the message that name q
// are periods like "every day", which say how often, not which question ("how
// many customers come in every day", "how many responses per day" do not name
// “Cups per day”).
func (p *parser) namedOnlyByPeriod(q *question) bool {
	found := false
	for i, t := range p.ts {
		if p.used[i] || t.stem == "" || !slices.Contains(q.stems, t.stem) {
			continue
		}
		repeated := p.word(i+1) == "by" && p.word(i+2) == t.low || p.word(i-1) == "by" && p.word(i-2) == t.low // "week by week"
		if !unitsOfTime[t.low] || !everyWords[p.word(i-1)] && !repeated && !(p.word(i-1) == "per" && (p.countsResponses() || submissionWords[p.word(i-2)])) {
			return false
		}
		found = true
	}
	return found
}

// moodAsSatisfaction reads "how happy" as "how satisfied" when the message names
// no written answers: "how happy are people in sales" asks for their
// satisfaction, "how happy are the comments" for a sentiment.
func (p *parser) moodAsSatisfaction() {
	words := wordsOf(p.ts)
	if anyWord(words, writtenNouns) || anyWord(words, listedThings) {
		return
	}
	for i, t := range p.ts {
		if t.low == "happy" && !t.quoted && i > 0 && p.ts[i-1].low == "how" {
			p.ts[i] = makeToken("satisfied", false)
		}
	}
}

// onlyCues reports whether the message holds nothing but what it asks for: cue
// words, stop words and signs ("the lowest?", "total?").
func (p *parser) onlyCues() bool {
	cue := false
	for i, t := range p.ts {
		switch {
		case p.cueWords[i] != "" && statCueWords[t.low]:
			cue = true
		case t.low == "one" && p.used[i] && !t.isNum: // "lowest one"
		case t.stem != "" || t.isNum:
			return false
		}
	}
	return cue
}

// answeredNamed reports whether a word saying that something was answered names
// q or is followed by q's words ("rated", "answered the comments", "answered what
// they liked most"), or a plural names q's answers ("how many comments").
func (p *parser) answeredNamed(q *question) bool {
	names := func(t token) bool {
		return t.quoted || t.stem != "" && slices.Contains(q.stems, t.stem) || typeCues[q.q.Type][t.low]
	}
	for i, t := range p.ts {
		if strings.HasSuffix(t.low, "s") && typeCues[q.q.Type][t.low] {
			return true // "how many comments came from …" counts the comments
		}
		if !answeringWords[t.low] {
			continue
		}
		if slices.Contains(q.stems, t.stem) {
			return true // "how many Germans rated us"
		}
		for k := i + 1; k < len(p.ts) && k <= i+4; k++ {
			if p.ts[k].stem != "" || p.ts[k].quoted {
				if names(p.ts[k]) {
					return true
				}
				break // "answered joined the company": the first word after the verb is another's
			}
		}
	}
	return false
}

// figurePronouns point at the figure of the previous answer: "how many paid that".
var figurePronouns = text.Set("that it this")

// figurePronoun reports whether a pronoun points at the previous figure, not at a
// group ("how many people are in it?").
func (p *parser) figurePronoun() bool {
	for i, w := range p.words {
		if figurePronouns[w] && !(w == "it" && groupPrepositions[p.word(i-1)]) {
			return true
		}
	}
	return false
}

// groupPrepositions before "it" make it a group: "in it", "from it".
var groupPrepositions = text.Set("in from of at within")

// contrastComparative marks read the comparison of a contrast of the two answers
// of a yes/no question ("do remote workers report a better balance than people
// who don't work remotely?"): the averages of the numeric question asked about
// answer it.
func (p *parser) contrastComparative(in *request) {
	than := slices.Index(p.words, "than")
	if in.groupBy == nil || in.groupBy.q.Type != form.YesNo || than < 0 || in.target == nil || !isNumeric(in.target.q) ||
		in.metric != "" && in.metric != query.Mean {
		return
	}
	in.metric = query.Mean
	for i, w := range p.words[:than] {
		if comparativeWords[w] {
			p.used[i], p.used[than], p.cueWords[i] = true, true, ""
		}
	}
}

// yesVersusNo reads "how many said yes vs no to coming back" as both answers of
// the yes/no question named: its breakdown.
func (p *parser) yesVersusNo() {
	for i := 0; i+2 < len(p.words); i++ {
		a, mid, b := p.words[i], p.words[i+1], p.words[i+2]
		if !(a == "yes" && b == "no" || a == "no" && b == "yes") || !yesNoJoins[mid] {
			continue
		}
		at := slices.IndexFunc(p.conds, func(c cond) bool { return c.q != nil && c.q.q.Type == form.YesNo })
		if at >= 0 && slices.ContainsFunc(p.conds[at+1:], func(c cond) bool { return c.q != nil && c.q.q.Type == form.YesNo }) {
			return
		}
		if at >= 0 {
			p.others = p.conds[at].q
			p.conds = slices.Delete(p.conds, at, at+1)
		}
		p.bothAnswers = true // "how did people answer the remote question, yes vs no"
		p.used[i], p.used[i+1], p.used[i+2] = true, true, true
		return
	}
}

// yesNoJoins set yes against no.
var yesNoJoins = text.Set("vs versus or and against")

// whichEndsMost returns +1 for a message that opens with "which" or "what", or
// says "gave", and ends with "most" ("which star rating did people give most",
// "star rating ppl gave most"), -1 with "least", else 0.
func (p *parser) whichEndsMost() int {
	n := p.lastWord() + 1
	if n < 3 || p.word(0) != "which" && p.word(0) != "what" && !givenVerbs[p.word(n-2)] && !givenVerbs[p.word(n-3)] {
		return 0 // "(the) star rating ppl gave most (often)"
	}
	last := p.words[n-1]
	if (last == "often" || last == "frequently") && n > 3 {
		last = p.words[n-2] // "… give most often"
	}
	switch last {
	case "most":
		return 1
	case "least":
		return -1
	}
	return 0
}

// givenMost reports whether the message ends "gave most (often)": the most
// common answer, not a ranking of groups.
func (p *parser) givenMost() bool {
	if p.whichEndsMost() == 0 {
		return false
	}
	for k := len(p.words) - 1; k > 0 && k >= len(p.words)-4; k-- {
		if givenVerbs[p.words[k]] || p.words[k] == "give" {
			return true
		}
	}
	return false
}

// givenVerbs say an answer was given: "the rating people gave most".
var givenVerbs = text.Set("gave give given chose chosen picked pick selected said")

// onlyPluralOf reports whether the message says nothing but q's words, one of
// them plural ("overall ratings").
func (p *parser) onlyPluralOf(q *question) bool {
	plural := false
	for _, t := range p.ts {
		switch {
		case t.stem == "":
		case !slices.Contains(q.stems, t.stem) && !typeCues[q.q.Type][t.low]:
			return false
		case strings.HasSuffix(t.low, "s"):
			plural = true
		}
	}
	return plural
}

// markPeopleVerb marks read a verb right after the respondents that is a word of
// another question than the numeric one asked about: "how many cups does a
// customer *drink* per day" does not name “Favourite drink”. It reports whether
// it marked one.
func (p *parser) markPeopleVerb(in *request) bool {
	if in.target == nil || !isNumeric(in.target.q) {
		return false
	}
	marked := false
	for i := 1; i < len(p.ts); i++ {
		t := p.ts[i]
		if p.used[i] || t.stem == "" || slices.Contains(in.target.stems, t.stem) || !p.cf.namesAQuestion(t.stem) {
			continue
		}
		if prev := p.words[i-1]; personNouns[prev] || groupNouns[prev] || subjectPronouns[prev] || prev == "you" {
			p.used[i], marked = true, true
		}
	}
	return marked
}

// statesPeriod reports whether q's text states the period interval ("Cups per
// day" and "day").
func statesPeriod(q *form.Question, interval string) bool {
	return interval != "" && strings.Contains(strings.ToLower(q.Text), "per "+interval)
}

// lastWord returns the position of the message's last word, before a "?"; -1
// for an empty message.
func (p *parser) lastWord() int {
	n := len(p.words) - 1
	if n >= 0 && p.words[n] == "?" {
		n--
	}
	return n
}

// endsWith reports whether the message's last word, before a "?", is w.
func (p *parser) endsWith(w string) bool {
	n := p.lastWord()
	return n >= 0 && p.words[n] == w
}

// whereFrom returns the form's one place question ("Country", "Office") when the
// message asks "where … from" (or "based", "located", "live"), marking those words
// read; nil otherwise.
func (p *parser) whereFrom() *question {
	if p.word(0) != "where" || !anyWord(p.words, placeVerbs) {
		return nil
	}
	var found *question
	for qi := range p.cf.qs {
		q := &p.cf.qs[qi]
		if q.q.Type == form.Select && anyWord(q.words, placeNouns) {
			if found != nil {
				return nil
			}
			found = q
		}
	}
	if found != nil {
		for i, w := range p.words {
			if w == "where" || placeVerbs[w] {
				p.used[i] = true
			}
		}
	}
	return found
}

// placeNouns name a place question; placeVerbs ask where people are.
var (
	placeNouns = text.Set("country countries city cities region regions office offices location locations state nation")
	placeVerbs = text.Set("from based located")
)

// countsResponses reports whether the message asks how many responses.
func (p *parser) countsResponses() bool {
	i := howMany.Index(p.words)
	return i >= 0 && submissionWords[p.word(i+2)]
}

// chooseTarget picks the question the metric is about: the best-scoring question it
// fits, preferring questions no condition already names.
func (p *parser) chooseTarget(in *request, scores []float64) *question {
	m := in.metric
	if m == "" && in.extreme != 0 {
		m = query.Max
	}
	var best *question
	bestScore, named := 0.5, 0.0
	if m == query.Trend {
		bestScore = 1
	}
	for qi := range p.cf.qs {
		q := &p.cf.qs[qi]
		s := scores[qi]
		if p.conditioned(q) {
			s -= 1
		}
		if q == in.groupBy || p.namedOnlyByPeriod(q) {
			continue
		}
		if m != "" && !fits(m, q.q) {
			named = max(named, s)
			continue
		}
		if s >= bestScore && (best == nil || s > bestScore) {
			best, bestScore = q, s
		}
	}
	if best != nil && named > bestScore && fitsOnlySome(m) {
		return nil // "the 90th percentile of ticket type" names a question the figure does not fit
	}
	return best
}

// fitsOnlySome reports whether metric m fits only some question types: a
// message naming another question better than any it fits asks the impossible.
func fitsOnlySome(m query.Metric) bool {
	switch m {
	case query.Mean, query.Median, query.Sum, query.StdDev, query.Percentile, query.Words, query.Sentiment:
		return true
	}
	return false
}

// conditioned reports whether a condition of the message is on q.
func (p *parser) conditioned(q *question) bool {
	for _, c := range p.conds {
		if c.q == q {
			return true
		}
	}
	return false
}

// settle fixes max, min and sum once the target is known, and the default metric of
// a target asked about without one.
func (in *request) settle() {
	numeric := in.target != nil && fits(query.Max, in.target.q)
	if in.metric == query.List && in.extreme != 0 && numeric {
		in.metric = "" // "show me the max cups per day": the figure, not a list of answers
	}
	switch {
	case (in.metric == "" || in.metric == query.Count) && in.extreme != 0 && numeric:
		in.metric = extremeMetric(in.extreme > 0)
	case in.metric == "" && in.total && in.target != nil && isNumeric(in.target.q):
		in.metric = query.Sum
	case in.metric == query.Count && in.total && !in.howMany && in.target != nil && isNumeric(in.target.q):
		in.metric = query.Sum
	case in.metric == "" && in.total:
		in.metric = query.Count
	}
}

// groupWords introduce the question results are broken down by; crossWords put
// two questions side by side ("favourite drink vs country").
var (
	groupWords = text.Set("by per each across every between")
	crossWords = text.Set("vs versus against")
)

// grouping finds "by <question>", "for each <question>", "<question> vs
// <question>", and comparisons of two options of one question ("compare Free and
// Pro"), whose conditions it removes.
func (p *parser) grouping(in *request, cues map[cue]bool) {
	if p.compareOptions(in, cues) || p.contrastYesNo(in) {
		return // "sales vs support satisfaction" compares two departments
	}
	for i, w := range p.words {
		ofAny := w == "any" && p.word(i-1) == "of" && (cues[cueMax] || cues[cueMin]) // "the lowest recommend rate of any drink"
		if !(groupWords[w] || crossWords[w] || rankVerbs[w] || ofAny) || p.own[i] || p.used[i] {
			continue // a word read already ("yes vs no") breaks nothing down
		}
		if (w == "by" || w == "across") && (peopleNouns[p.word(i+1)] || groupNouns[p.word(i+1)] ||
			slices.ContainsFunc(p.conds, func(c cond) bool { return c.pos == i+1 }) && (peopleNouns[p.word(i+2)] || groupNouns[p.word(i+2)])) {
			continue // "hours worked by people who …", "comments by remote workers" name who, not a breakdown
		}
		if rankVerbs[w] && p.rankLead() > i {
			continue // "rank the top 3 departments on …": the ranking reads its groups
		}
		if (w == "each" || w == "every") && (singlePerson[p.word(i+1)] || singlePerson[p.word(i+2)]) {
			continue // "how many cups does each german respondent drink": per person, not a breakdown
		}
		if crossWords[w] && (p.yesNoNamed(i-1) || peopleNouns[p.word(i-1)] && p.yesNoNamed(i-2)) && p.unsure == "" {
			p.unsure = fmt.Sprintf("I can't tell what “%s” is set against in “%s”; compare the two answers, e.g. “%s vs not”", p.words[i-1], p.phraseAround(i), p.words[i-1])
			return
		}
		if q := p.groupableAt(i + 1); q != nil && !p.numericPhraseAt(i+1) && !p.unitAfterPer(i, q) {
			in.groupBy = q // "% of each country that would recommend us": the country, not the yes/no after it
			p.used[i], p.used[i+1] = true, true
			p.crossAnd(i + 1)
			p.crossEach(i+2, q)
			return
		}
		if q := p.bareYesNoAfter(i); q != nil {
			in.groupBy = q
			return
		}
		for k := i + 1; k <= i+3 && k < len(p.ts); k++ {
			if q := p.groupableAt(k); q != nil && !p.numericPhraseAt(k) && !(k == i+1 && p.unitAfterPer(i, q)) {
				in.groupBy = q
				p.used[i], p.used[k] = true, true
				p.crossAnd(k)
				return
			}
		}
	}
}

// whetherWords name a yes/no question as a whole: "crosstab of ticket type and
// if they come next year".
var whetherWords = text.Set("if whether they people the")

// crossWithYesNo reads "crosstab of country and would you recommend us": a
// breakdown of a yes/no question joined by "and" is its other side, not its yes.
func (p *parser) crossWithYesNo(in *request, cues map[cue]bool) {
	if !cues[cueDistribution] || in.groupBy != nil {
		return
	}
	if j := slices.Index(p.words, "and"); j > 0 && len(p.conds) == 0 {
		before, after := p.groupableBefore(j), p.groupableAt(j+1)
		if before != nil && after != nil && before != after {
			in.groupBy, p.used[j] = after, true // "crosstab of ticket type and overall rating"
			return
		}
	}
	at := onlyCond(p.conds, func(c cond) bool { return c.q != nil && c.q.q.Type == form.YesNo })
	if at < 0 || len(p.conds) != 1 {
		return
	}
	c := p.conds[at]
	k := c.pos - 1
	for k > 0 && (p.own[k] || p.used[k] && p.word(k) != "and" || whetherWords[p.word(k)] || modalWords[p.word(k)]) {
		k-- // "would you recommend us": the question's own words; "if they come next year", "will come next year"
	}
	if !crossJoins[p.word(k)] {
		return
	}
	in.groupBy = c.q
	p.conds = slices.Delete(p.conds, at, at+1)
	p.used[k] = true
}

// modalWords may stand before the words of a yes_no question in a cross-tab.
var modalWords = text.Set("will would do does did")

// crossJoins join the two sides of a cross-tab.
var crossJoins = text.Set("and with vs versus against by")

// groupableBefore returns the groupable question named by one of the two words
// before j, or nil.
func (p *parser) groupableBefore(j int) *question {
	for k := j - 1; k >= max(0, j-2); k-- {
		if q := p.cf.groupableByStem(p.ts[k].stem); q != nil {
			return q
		}
	}
	return nil
}

// unitAfterPer reports whether "per <word>" names a unit of a numeric question
// rather than the groups of q: "paid per ticket" is per ticket bought, "per
// ticket type" names the groups.
func (p *parser) unitAfterPer(i int, q *question) bool {
	if p.words[i] != "per" || i+2 < len(p.ts) && p.ts[i+2].stem != "" && slices.Contains(q.stems, p.ts[i+2].stem) ||
		i == 0 || leadFillers[p.word(i-1)] && i == 1 {
		return false // "per ticket" alone breaks the previous figure down
	}
	for _, o := range p.cf.qs {
		if isNumeric(o.q) && slices.Contains(o.stems, p.ts[i+1].stem) {
			return true
		}
	}
	return false
}

// mostOf asks where most of a group is.
var mostOf = phrases("most of")

// sumAsks come before "come to" when it asks for a total ("what does it come to").
var sumAsks = text.Set("that it does do they all")

// leadFillers may open a follow-up before what it asks ("and per ticket").
var leadFillers = text.Set("and now ok so then")

// numericPhraseAt reports whether the words at k and k+1 are two words of a
// numeric question ("every *ticket price*"): no group.
func (p *parser) numericPhraseAt(k int) bool {
	if k+1 >= len(p.ts) || p.ts[k].stem == "" || p.ts[k+1].stem == "" {
		return false
	}
	for _, q := range p.cf.qs {
		if isNumeric(q.q) && slices.Contains(q.stems, p.ts[k].stem) && slices.Contains(q.stems, p.ts[k+1].stem) {
			return true
		}
	}
	return false
}

// rankIntent is the group with the highest figure when top, else the lowest.
func rankIntent(top bool) intent {
	if top {
		return highestGroup
	}
	return lowestGroup
}

// extremeMetric is the highest answer when top, else the lowest.
func extremeMetric(top bool) query.Metric {
	if top {
		return query.Max
	}
	return query.Min
}

// rankTopWords and rankBottomWords name the top or the bottom of a ranking.
var (
	rankTopWords    = text.Set("most highest best top largest biggest longest greatest likeliest")
	rankBottomWords = text.Set("least lowest worst bottom smallest shortest fewest")
)

// rankOf returns +1 when words name the top of a ranking, -1 the bottom, else 0.
func rankOf(words []string) int {
	switch {
	case anyWord(words, rankTopWords):
		return 1
	case anyWord(words, rankBottomWords):
		return -1
	}
	return 0
}

// everyWords ask for the figure of every group.
var everyWords = text.Set("each every all")

// crossAnd reads "by department and office": a second groupable question right
// after the breakdown's, joined by "and", is crossed with it.
func (p *parser) crossAnd(k int) {
	if p.word(k+1) != "and" || k+2 >= len(p.ts) {
		return
	}
	if q := p.groupableAt(k + 2); q != nil {
		p.crossWith = q
		p.used[k+1], p.used[k+2] = true, true
		return
	}
	if slices.ContainsFunc(p.conds, func(c cond) bool { return c.pos == k+2 && c.q != nil && c.q.q.Type == form.YesNo }) && p.unsure == "" {
		p.unsure = fmt.Sprintf("I can't tell whether “%s” is a second breakdown or keeps only those who said yes; ask for one breakdown at a time", p.words[k+2])
	}
}

// crossEach reads a second "each" after the breakdown by g ("for each country,
// how many picked each drink") as the other side of a cross-tab.
func (p *parser) crossEach(from int, g *question) {
	if p.crossWith != nil {
		return
	}
	for j := from; j+1 < len(p.ts); j++ {
		if p.words[j] != "each" && p.words[j] != "every" || p.used[j] {
			continue
		}
		answered := slices.IndexFunc(p.conds, func(c cond) bool { return c.f.Op == query.IsNotEmpty && c.pos < j })
		q := p.cf.groupableByStem(p.ts[j+1].stem) // read even when "picked each drink" read it as answering the question
		if q != nil && q != g && (!p.used[j+1] || answered >= 0 && p.conds[answered].q == q) {
			if answered >= 0 && p.conds[answered].q == q {
				p.conds = slices.Delete(p.conds, answered, answered+1)
			}
			p.crossWith = q
			p.used[j], p.used[j+1] = true, true
			return
		}
	}
}

// rankVerbs put the groups named after them in order: "rank the countries by
// average rating" breaks the rating down by country.
var rankVerbs = text.Set("rank sort order")

// bareYesNoAfter takes the yes_no question named without an answer within the four
// words after i ("by would recommend", "vs will you come next year") as the
// breakdown, dropping its condition; not after a relative word ("given by
// someone who would recommend us" keeps those who would).
func (p *parser) bareYesNoAfter(i int) *question {
	for ci, c := range p.conds {
		if c.bare && c.pos > i && c.pos <= i+4 && !slices.ContainsFunc(p.words[i+1:c.pos], func(w string) bool { return relativeWords[w] }) {
			p.conds = slices.Delete(p.conds, ci, ci+1)
			return c.q
		}
	}
	return nil
}

// groupableAt returns the choice, yes_no or rating question the word at k names.
func (p *parser) groupableAt(k int) *question {
	if k < 0 || k >= len(p.ts) || p.used[k] {
		return nil
	}
	return p.cf.groupableByStem(p.ts[k].stem)
}

// groupableByStem returns the first groupable question with stem among its
// words, or nil.
func (cf *formIndex) groupableByStem(stem string) *question {
	if stem == "" {
		return nil
	}
	for qi := range cf.qs {
		if q := &cf.qs[qi]; groupable(q.q) && slices.Contains(q.stems, stem) {
			return q
		}
	}
	return nil
}

// groupable reports whether results can be broken down by q's answers.
func groupable(q *form.Question) bool {
	switch q.Type {
	case form.Select, form.MultiSelect, form.YesNo, form.Rating:
		return true
	}
	return false
}

// uniqueConds returns conds without the answers named again later, whose last
// mention is the one that says its role ("the Berlin office — what % of Berlin
// staff": the population). Their values are strings, numbers or booleans, so
// they compare.
func uniqueConds(conds []cond) []cond {
	var out []cond
	for i, c := range conds {
		later := slices.ContainsFunc(conds[i+1:], func(o cond) bool { return o.q == c.q && o.f.Op == query.Equals && o.f.Value == c.f.Value })
		if c.f.Op != query.Equals || !later {
			out = append(out, c)
		}
	}
	return out
}

// compareOptions turns two or more options of one question into a comparison when
// the message compares, or when they are options of a single-choice question; it
// reports whether it did.
func (p *parser) compareOptions(in *request, cues map[cue]bool) bool {
	byQ := map[*question][]string{}
	for _, c := range p.conds {
		if c.q != nil && c.q.q.Type != form.YesNo && c.f.Op == query.Equals && len(c.q.options) > 0 {
			byQ[c.q] = append(byQ[c.q], c.f.Value.(string))
		}
	}
	for q, labels := range byQ {
		if labels = unique(labels); len(labels) < 2 {
			p.conds = uniqueConds(p.conds) // "the Finance team — … in Finance": one answer named twice
			continue
		}
		if q.q.Type == form.MultiSelect && (!cues[cueCompare] && !p.unusedWordOf(whichOr) || slices.Contains(p.words, "both")) {
			continue
		}
		in.groupBy, in.compare = q, labels
		p.conds = slices.DeleteFunc(p.conds, func(c cond) bool { return c.q == q })
		return true
	}
	return false
}

// unusedWordOf reports whether a word of set is in the message and not read as
// part of something else (the "or" of "4 or more").
func (p *parser) unusedWordOf(set map[string]bool) bool {
	for i, w := range p.words {
		if set[w] && !p.used[i] {
			return true
		}
	}
	return false
}

// contrastYesNo reads "people who would recommend us with those who wouldn't"
// as the two answers of the yes/no question side by side, and reports whether it
// did.
func (p *parser) contrastYesNo(in *request) bool {
	for ci, c := range p.conds {
		if c.q == nil || c.q.q.Type != form.YesNo || c.f.Op != query.Equals {
			continue
		}
		if slices.ContainsFunc(p.conds[ci+1:], func(o cond) bool { return o.q == c.q && o.f.Value != c.f.Value }) {
			in.groupBy = c.q // "remote and not remote workers"
			p.conds = slices.DeleteFunc(p.conds, func(o cond) bool { return o.q == c.q })
			return true
		}
		for i := c.pos + 1; i < len(p.words); i++ {
			k := i + 1
			if p.word(k) == "the" {
				k++
			}
			if contrastJoins[p.words[i]] && contrastPeople[p.word(k)] && p.negatedEnd(k+1, c.q) {
				in.groupBy = c.q
				p.conds = slices.Delete(p.conds, ci, ci+1)
				return true
			}
		}
	}
	return false
}

// contrastJoins and contrastPeople make "… with those who …" set one group
// against another.
var (
	contrastJoins  = text.Set("with to vs versus against than and")
	contrastPeople = text.Set("those people ones them others")
)

// negatedEnd reports whether the clause from i ("who wouldn't", "that did not
// recommend us") negates and says nothing else than q's words.
func (p *parser) negatedEnd(i int, q *question) bool {
	negated := false
	for k := i; k < len(p.ts) && !clauseEnds[p.words[k]]; k++ {
		t := p.ts[k]
		switch {
		case negators[t.low]:
			negated = true
		case t.stem != "" && !slices.Contains(q.stems, t.stem) && !pronouns[t.low]:
			return false
		}
	}
	return negated
}

// clauseEnds end the clause a contrast is read in.
var clauseEnds = text.Set(", ? and but")

// whichGroup finds "which <question>" naming a groupable question: the answer of
// that question whose group has the highest or lowest figure.
func (p *parser) whichGroup() *question {
	if w := slices.IndexFunc(p.words, func(w string) bool { return w == "with" || w == "whose" }); w >= 1 && w <= 4 && rankOf(p.words[w+1:min(w+5, len(p.words))]) != 0 &&
		!slices.ContainsFunc(p.ts[:w], func(t token) bool { return t.isNum }) {
		if q := p.groupableAt(w - 1); q != nil {
			return q // "country with the lowest recommend %", "the type of ticket with the biggest part of …", "ticket type whose holders are least likely to …"
		}
	}
	for i, w := range p.words {
		if w != "which" && w != "what" {
			continue
		}
		for k := i + 1; k <= i+2 && k < len(p.ts); k++ {
			if q := p.groupableAt(k); q != nil && !p.numericPhraseAt(k) {
				return q // not "what *work*-life balance score"
			}
		}
	}
	return nil
}

// narrowWords say a follow-up narrows the previous population.
var narrowWords = text.Set("among amongst only within also too")

// otherSideOnly returns the comparison of a follow-up that names nothing but a
// direction ("and over?", "and under?"), or "".
func (p *parser) otherSideOnly(in *request) query.Op {
	if !in.followUp || len(in.conds) > 0 || in.metric != "" || in.target != nil || p.numberCount() > 0 {
		return ""
	}
	op := query.Op("")
	for _, w := range p.words {
		switch {
		case overWords[w]:
			op = query.GT
		case underWords[w]:
			op = query.LT
		case w != "and" && w != "?" && w != "what" && w != "about":
			return ""
		}
	}
	return op
}

// overWords and underWords give a comparison its direction.
var (
	overWords  = text.Set("over above more higher")
	underWords = text.Set("under below less lower fewer")
)

// yesNoComparative reads a yes/no question comparing the people of one answer of
// a yes_no question with nobody named ("are remote people happier") as the two
// answers compared.
func (p *parser) yesNoComparative(in *request) {
	if !auxiliaries[p.word(0)] || slices.Contains(p.words, "than") || in.groupBy != nil || len(p.conds) != 1 || in.target == nil || !isNumeric(in.target.q) {
		return
	}
	c := p.conds[0]
	if c.q == nil || c.q.q.Type != form.YesNo || !slices.ContainsFunc(p.words, func(w string) bool { return comparativeWords[w] }) {
		return
	}
	in.groupBy, p.conds = c.q, nil
	if in.metric == "" {
		in.metric = query.Mean
	}
}

// topFigure reads "top" before a figure of a numeric question ("spain's top cups
// per day figure") as its highest answer, not its most common one.
func (p *parser) topFigure(in *request) {
	if in.metric != query.Top || in.limit > 1 || in.groupBy != nil || in.target == nil || !fits(query.Max, in.target.q) {
		return
	}
	i := slices.Index(p.words, "top")
	for k := i + 1; i >= 0 && k <= i+5 && k < len(p.words); k++ {
		if oneFigureNouns[p.words[k]] || extremeGiven[p.words[k]] || anyoneWords[p.words[k]] { // "the top recommend score anyone gave"
			in.metric = query.Max // "top job satisfaction score given"
			return
		}
	}
}

// extremeGiven after "top" and a question say the answer given, the highest.
var extremeGiven = text.Set("given received awarded recorded reported")

// oneFigureNouns name one figure ("the top figure", "the top value").
var oneFigureNouns = text.Set("figure value number amount")

// mostPeople reads a ranking of groups by "the most people" ("which ticket type
// has the most people scoring 6 or below") as the most common group, whatever
// other question the group's words name.
func (p *parser) mostPeople(in *request) {
	if in.kind != highestGroup && in.kind != lowestGroup || in.groupBy == nil || in.target == nil || in.metric == query.Percent || p.namedApart(in.target, in.groupBy) {
		return // "which ticket type has the most people coming back, in percent" ranks by the share
	}
	if i := slices.IndexFunc(p.words, func(w string) bool { return w == "most" || w == "fewest" || w == "least" }); i < 0 || !peopleNouns[p.word(i+1)] && p.word(i+1) != "ppl" {
		return
	}
	in.target, in.groupBy, in.metric, in.least, in.kind = in.groupBy, nil, query.Top, in.kind == lowestGroup, metricIntent
}

// peopleNouns name the respondents.
// howManyPeople reports whether "how many" asks for respondents ("how many people",
// "how many gave", "how many germans"), not for an amount of q ("how many cups",
// "how many stars").
func (p *parser) howManyPeople(q *question) bool {
	for i := 0; i+2 < len(p.ts); i++ {
		if p.words[i] == "how" && p.words[i+1] == "many" {
			next := p.ts[i+2]
			return !p.own[i+2] && !slices.Contains(q.stems, next.stem) && !scaleUnits[next.low] && currencyWords[next.low] == ""
		}
	}
	return false
}

// scaleUnits count the points of a scale answer.
var scaleUnits = text.Set("star stars point points mark marks")

var peopleNouns = text.Set("people persons respondents customers users clients members ones those them folks guys " +
	"employees staff workers attendees participants guests")

// markBase marks the conditions of a clause like "among those who …", "of people
// who …" or "of Pro users" as narrowing the population; the others are what a
// percentage is a share of. A period in the clause after its only condition is
// what the share is of.
func (p *parser) markBase(mentions []mention, span *dateRange) {
	start, end := p.baseStart(mentions), len(p.words)
	if start < 0 {
		start, end = p.leadingClause()
	}
	if start < -1 {
		if !p.leadingShareOf() {
			p.rateBase()
		}
		return
	}
	if p.ofEveryoneWho(start) {
		for i := range p.conds {
			p.conds[i].base = false // "what share of all respondents are germans who would recommend us": of everyone
		}
		return
	}
	for k := start + 1; k < end; k++ {
		if p.words[k] == "," || sourceVerbs[p.words[k]] && p.word(k+1) == "from" {
			end = k // "…, what % …", "of 5 star ratings came from vip"
			break
		}
	}
	matches := 0
	for i := range p.conds {
		c := &p.conds[i]
		c.base = c.pos > start && c.pos < end
		if !c.base {
			matches++
		}
	}
	if matches == 0 && p.jointClause(start, end) {
		for i := range p.conds {
			p.conds[i].base = false
		}
		return
	}
	if matches == 0 && len(p.conds) == 1 && span != nil && span.pos > p.conds[0].pos && span.pos < end && submitVerbs[p.word(span.pos-1)] {
		return // "% of germans who answered in october": the period is the share
	}
	if matches == 0 && len(p.conds) >= 1 {
		last := 0
		for i := range p.conds {
			if p.conds[i].pos > p.conds[last].pos {
				last = i
			}
		}
		p.conds[last].base = false
	}
}

// ofEveryoneWho reports whether the population clause at start is everyone,
// what they are following ("of all respondents are germans who …", "of all
// employees are engineers working remotely").
func (p *parser) ofEveryoneWho(start int) bool {
	if start < 0 || p.word(start) != "of" || !everyoneWords[p.word(start+1)] {
		return false
	}
	k := start + 2
	for k < len(p.words) && (peopleNouns[p.words[k]] || submissionWords[p.words[k]] || fillerWords[p.words[k]] && !beWords[p.words[k]]) {
		k++
	}
	return beWords[p.word(k)]
}

// shareOfWritten reads "what share of the comments were written by germans" as
// a share of the people who wrote one: the written answers are the population,
// the other conditions the share.
func (p *parser) shareOfWritten() {
	i := slices.Index(p.words, "of")
	if i < 0 {
		return
	}
	k := i + 1
	if p.word(k) == "the" || p.word(k) == "all" {
		k++
	}
	if !commentNouns[p.word(k)] || len(p.conds) == 0 || slices.ContainsFunc(p.conds, func(c cond) bool { return c.base }) {
		return
	}
	q := p.cf.firstOfType(form.Textarea, form.Text)
	if q == nil || p.cf.countOfType(form.Textarea, form.Text) != 1 || slices.ContainsFunc(p.conds, func(c cond) bool { return c.q == q }) {
		return
	}
	p.conds = append(p.conds, cond{q: q, f: query.Filter{Question: q.q.ID, Op: query.IsNotEmpty}, pos: k, base: true})
}

// commentNouns name written answers, not responses ("of the comments").
var commentNouns = text.Set("comments comment reviews remarks")

// preferredBest reads the "best" or "most" after an answer a verb of liking
// names ("those who liked the panel best") as part of the choice, not a ranking.
func (p *parser) preferredBest(mentions []mention) {
	for _, m := range mentions {
		k := m.start - 1
		if p.word(k) == "the" {
			k--
		}
		if preferVerbs[p.word(k)] && (p.word(m.end) == "best" || p.word(m.end) == "most") {
			p.cueWords[m.end] = ""
		}
	}
}

// leadingShareOf reads a share asked with the group right after its first word
// and no "of" ("% french recommending", "pct spain rated 4+") as the share of that
// group, and reports whether it did.
func (p *parser) leadingShareOf() bool {
	if len(p.conds) < 2 || !percentWords[p.word(0)] && p.word(0) != "share" {
		return false
	}
	at := slices.IndexFunc(p.conds, func(c cond) bool { return c.pos == 1 })
	if at < 0 {
		return false
	}
	for i := range p.conds {
		p.conds[i].base = i == at
	}
	return true
}

// rateBase reads a rate with other conditions and no population clause
// ("cappuccino drinkers recommend rate", "germans 5 star rate") as the share of
// the condition the rate follows among the others ("engineering remote work
// percent" too).
func (p *parser) rateBase() {
	r := lastIndexFunc(p.words, func(w string) bool { return rateWords[w] || percentWords[w] })
	if !p.rate || r < 0 || len(p.conds) < 2 {
		return
	}
	rated := -1
	for i, c := range p.conds {
		if c.pos < r && c.pos >= r-3 && (rated < 0 || c.pos > p.conds[rated].pos) {
			rated = i
		}
	}
	if rated < 0 {
		return
	}
	for i := range p.conds {
		p.conds[i].base = i != rated
	}
}

// baseStart returns where a population clause starts, or -1.
func (p *parser) baseStart(mentions []mention) int {
	for i, w := range p.words {
		if onlyWords[w] && (themWords[p.word(i+1)] || peopleNouns[p.word(i+1)]) {
			return i // "…, counting only those who drink two cups or more"
		}
	}
	if i := slices.IndexFunc(p.words, func(w string) bool { return w == "among" || w == "amongst" }); i > 0 && p.condAfter(i) {
		return i // "share of people coming back among VIP ticket holders": the VIPs'
	}
	for i, w := range p.words {
		if (w == "in" || w == "from") && !copulas[p.word(i-1)] && p.condAfter(i) && p.condBefore(i) && slices.Contains(p.words[:i], "of") &&
			!p.verbBetween(i) && p.endsAfterCond(i) {
			return i // "percentage of tea drinkers in the UK": the UK's, not the tea drinkers'
		}
	}
	for i, w := range p.words {
		next, after := p.word(i+1), p.word(i+2)
		switch {
		case w == "among" || w == "amongst":
			return i
		case (w == "of" || w == "for" || w == "out") && themWords[next]:
			return i
		case (w == "of" || w == "for" || w == "among") && everyoneWords[next]:
			return i
		case (w == "of" || w == "for") && peopleNouns[next] && (clauseWords[after] || exceptWords[after] && (p.condAfter(i+2) || p.word(i+3) == "in" && p.condAfter(i+3))):
			return i // "of people who …", "of people outside Germany"
		case (w == "of" || w == "for") && next == "the" && peopleNouns[after] && clauseWords[p.word(i+3)]:
			return i
		case w == "of" && p.mentionAt(mentions, i+1, i+2):
			return i
		case w == "of" && (next == "non" || next == "not") && p.condAfter(i+1):
			return i // "share of non vip who will return"
		case w == "of" && p.peopleClauseAt(i+2, i+4):
			return i
		case (w == "of" || w == "for") && p.kindOfPeopleAt(i):
			return i // "of espresso drinkers", "recommendation rate for espresso drinkers"
		case w == "of" && p.condAfter(i) && p.condAfter(i+1):
			return i // "of remote engineers"
		case w == "of" && p.condAfter(i) && slices.ContainsFunc(p.words[i:], func(w string) bool { return sourceVerbs[w] }):
			return i // "of 5 star ratings came from vip"
		case w == "of" && (peopleNouns[next] && strings.HasSuffix(after, "ing") ||
			next == "the" && peopleNouns[after] && strings.HasSuffix(p.word(i+3), "ing")):
			return i // "of people adding sugar", "of the people rating satisfaction 2 or less"
		case (w == "in" || w == "from") && !copulas[p.word(i-1)] && !sourceVerbs[p.word(i-1)] && p.condAfter(i) && p.condBefore(i):
			return i // "what % recommend us in spain", not "of 5 star ratings came from vip"
		case (w == "in" || w == "from") && shareWords[p.word(i-1)] && p.condAfter(i):
			return i // "what percent from early bird will come again"
		}
	}
	return -1
}

// sourceVerbs before "from" make what follows the property asked ("what share
// of 5 star ratings came from vip").
var sourceVerbs = text.Set("came come comes coming")

// exceptWords set a group apart: "people outside Germany".
var exceptWords = text.Set("outside except excluding besides not")

// ofTheAnswers makes "what % of the comments are positive" a share of the written
// answers: those who answered the free-text question its condition is on.
func (p *parser) ofTheAnswers(in *request) {
	if in.metric != query.Percent {
		return
	}
	i := slices.Index(p.words, "of")
	k := i + 1
	for k < len(p.words) && k <= i+6 && !writtenNouns[p.word(k)] && (p.ts[k].stem == "" || p.own[k]) {
		k++ // "of the what-did-you-like answers"
	}
	if i < 0 || !writtenNouns[p.word(k)] {
		return
	}
	at := slices.IndexFunc(p.conds, func(c cond) bool {
		return c.q != nil && isFreeText(c.q.q) && (c.f.Op == query.SentimentOp || c.f.Op == query.Contains)
	})
	if at >= 0 {
		q := p.conds[at].q
		p.conds = append(p.conds, cond{q: q, f: query.Filter{Question: q.q.ID, Op: query.IsNotEmpty}, pos: k, base: true})
	}
}

// writtenNouns name the written answers.
var writtenNouns = text.Set("comments comment answers reviews remarks feedback")

// endsAfterCond reports whether the condition right after i ends the message.
func (p *parser) endsAfterCond(i int) bool {
	k := i + 2
	if p.word(i+1) == "the" {
		k++
	}
	return k >= len(p.words) || k == len(p.words)-1 && p.words[k] == "?"
}

// verbBetween reports whether a word that is neither read, a stop word nor a
// noun of the respondents stands between "of" and i: "of people who drink
// latte in Germany" has a clause of its own.
func (p *parser) verbBetween(i int) bool {
	of := slices.Index(p.words, "of")
	for k := of + 1; k < i; k++ {
		if !p.used[k] && p.ts[k].stem != "" && !groupNouns[p.words[k]] && !peopleNouns[p.words[k]] {
			return true
		}
	}
	return false
}

// submitVerbs say when a response was given ("who answered in October").
var submitVerbs = text.Set("answered responded replied submitted filled came wrote")

// onlyWords restrict the population to the clause after them.
var onlyWords = text.Set("only counting considering")

// copulas before "in" make it part of what is asked: "are in finance".
var copulas = text.Set("are is were was be work works working")

// condAfter reports whether a condition is read from the word after i (or after
// "the" or "our").
func (p *parser) condAfter(i int) bool {
	return slices.ContainsFunc(p.conds, func(c cond) bool {
		return c.pos == i+1 || c.pos == i+2 && (p.word(i+1) == "the" || p.word(i+1) == "our")
	})
}

// condBefore reports whether a condition is read before i.
func (p *parser) condBefore(i int) bool {
	return slices.ContainsFunc(p.conds, func(c cond) bool { return c.pos < i })
}

// groupNouns name the respondents, or a kind of them ("remote workers").
var groupNouns = text.Set("people persons respondents customers users clients members folks employees staff workers " +
	"attendees guests participants drinkers holders buyers fans lovers raters reviewers")

// peopleClauseAt reports whether a noun of respondents followed by a relative
// word starts at a position from lo to hi ("of remote *workers who* …").
func (p *parser) peopleClauseAt(lo, hi int) bool {
	for k := lo; k <= hi; k++ {
		if groupNouns[p.word(k)] && clauseWords[p.word(k+1)] {
			return true
		}
	}
	return false
}

// kindOfPeopleAt reports whether "of" at i names a kind of respondents by a
// condition ("of *remote* workers are in marketing", "of 5 or more cup
// drinkers"): a noun of respondents after a condition, with only the words of
// conditions between.
func (p *parser) kindOfPeopleAt(i int) bool {
	for k := i + 1; k <= i+6 && k < len(p.ts); k++ {
		if groupNouns[p.word(k)] && k >= i+2 {
			return slices.ContainsFunc(p.conds, func(c cond) bool { return c.pos > i && c.pos < k })
		}
		if !p.used[k] && p.ts[k].stem != "" && !p.ts[k].isNum {
			return false
		}
	}
	return false
}

// jointClause reports whether the population clause from start to end is "of
// people who A and B" with no condition before its relative word and "and"
// joining its last two conditions: a share of everyone doing both.
func (p *parser) jointClause(start, end int) bool {
	rel := -1
	for k := start + 1; k < end && rel < 0; k++ {
		if relativeWords[p.words[k]] {
			rel = k
		}
	}
	if rel < 0 || len(p.conds) < 2 {
		return false
	}
	pos := make([]int, len(p.conds))
	for i, c := range p.conds {
		if c.pos < rel {
			return false
		}
		pos[i] = c.pos
	}
	slices.Sort(pos)
	return slices.Contains(p.words[pos[len(pos)-2]:pos[len(pos)-1]], "and")
}

// everyoneWords name all respondents: "of everyone who …".
var everyoneWords = text.Set("everyone everybody all anyone")

// shareWords ask for a percentage.
var shareWords = text.Set("percentage percent % share proportion fraction")

// leadingClause returns the bounds (exclusive start, end) of a clause before a comma
// that precedes the share word ("In the Berlin office, what percentage …"), or -2.
func (p *parser) leadingClause() (start, end int) {
	share := slices.IndexFunc(p.words, func(w string) bool { return shareWords[w] })
	comma := slices.Index(p.words, ",")
	if comma < 0 && share > 0 && p.ts[share].sentence > 0 {
		comma = slices.IndexFunc(p.ts, func(t token) bool { return t.sentence > 0 }) // "regular ticket: what percent …"
	}
	if share < 0 || comma < 0 || comma > share {
		return -2, 0
	}
	return -1, comma
}

// mentionAt reports whether an option mention starts at one of the positions.
func (p *parser) mentionAt(ms []mention, at ...int) bool {
	for _, m := range ms {
		if slices.Contains(at, m.start) && (m.start == at[0] || p.word(at[0]) == "the") {
			return true
		}
	}
	return false
}

// continuations start a follow-up question.
var continuations = phrases("and", "what about", "how about", "what if", "same", "now", "also", "then", "ok", "okay", "but", "only", "just", "so")

// pronouns refer back to what the conversation was about.
var pronouns = text.Set("them those these they their that it its ones this")

// looksLikeFollowUp reports whether the message leans on the previous question.
func (p *parser) looksLikeFollowUp(in *request) bool {
	for _, c := range continuations {
		if c.At(p.words, 0) {
			return true
		}
	}
	own := 0
	for _, c := range in.conds {
		if c.q != nil {
			own++
		}
	}
	pronoun := anyWord(p.words, pronouns)
	switch {
	case in.shift != nil:
		return true // "and the week before that?"
	case p.endsWith("instead") || p.endsWith("then"):
		return true // "use the recommend score instead", "what was the average rating then"
	case p.pointsThere():
		return true // "how many people there work over 45 hours"
	case p.endsWith("there") && !copulas[p.word(p.lastWord()-1)]:
		return true // "what's the lowest rating there?", not "how many responses are there?"
	case pronoun && own == 0:
		return true
	case own == 1 && searchCond(in.conds) >= 0 && in.target == nil && in.groupBy == nil && in.span == nil && p.lastWord() < 4:
		return true // "uk comments positive or negative" – "how many mention support": theirs
	case own == 1 && in.target == nil && in.groupBy == nil && in.span == nil && p.lastWord() < 3 && (in.metric == "" || in.metric == query.Count):
		return true // "responses last 30 days" – "how many recommend": in those days
	case in.metric == query.Percent && p.word(0) == "as" && in.target == nil && in.groupBy == nil && in.span == nil:
		return true // "how many engineering people work remotely" – "as a percentage of Engineering?"
	case slices.Contains(p.words, "which") && own == 0 && in.target != nil && rankOf(p.cueWords) > 0 && (in.metric == "" || in.metric == query.Top) &&
		in.groupBy == nil && in.span == nil && p.lastWord() < 5:
		return true // "how many drink 4 or more cups a day" – "which country has the most"
	case in.whichOne && own == 0 && in.groupBy == nil && in.span == nil:
		return true // "average cups per day by country" – "which one drinks the least?"
	case own == 0 && in.groupBy == nil && p.endsWith("each") && in.span == nil:
		return true // "break down ticket types" – "average overall rating for each?"
	case own == 0 && in.mostly && in.groupBy == nil && in.span == nil && p.lastWord() < 4:
		return true // "how many comments mention integrations" – "which dept mostly"
	case own == 0 && (text.Any(p.words, everyoneElse) || text.Any(p.words, restPhrase)):
		return true // "what's the average rating of everyone else"
	case in.metric == query.Percent && p.pointsAtThat():
		return true // "what share of uk respondents is that": the previous figure, among them
	case in.target == nil && in.metric == query.Percent && own == 0 && in.groupBy == nil && in.span == nil:
		return true // "in percent?"
	case in.target == nil && in.metric == query.Percent && own == 0 && in.span == nil && p.lastWord() < 6:
		return true // "how many work from home" – "in percent, for each office"
	case in.target == nil && own == 0 && in.groupBy == nil && slices.Contains(p.words, "which") && rankOf(p.cueWords) != 0:
		return true // "which is best?"
	case in.target == nil && own == 0 && in.groupBy == nil && in.span == nil && in.cuesOnly:
		return true // "the lowest?", "total?"
	case (in.kind == highestGroup || in.kind == lowestGroup) && in.target == nil && (in.rankDefault || in.metric == query.Percent && own == 0):
		return true // "which department is lowest", "which department has the highest share?" after a figure
	case in.target == nil && own == 0 && in.groupBy == nil && len(p.ts) <= 5 && p.numberCount() == 1:
		return true // "3 or less?"
	case in.metric == "" && in.kind == metricIntent && in.target == nil:
		return len(in.conds) > 0 || in.span != nil || in.groupBy != nil
	case (in.target != nil && own == 0 || in.metric == query.Percent && own == 1) && in.metric != "" && in.groupBy == nil && in.span == nil && p.lastWord() < 2:
		return true // "how many in support" – "avg years": theirs; "how many from there" – "recommend %?"
	case in.target == nil && in.metric != "":
		return needsTarget(in.metric)
	}
	return false
}

// whoseOptions returns the index of the condition naming several options of
// one question when the message asks "whose" ("keynote, workshop or panel:
// whose fans rated us best"), or -1.
func (p *parser) whoseOptions() int {
	if !slices.Contains(p.words, "whose") {
		return -1
	}
	return onlyCond(p.conds, func(c cond) bool { return c.f.Op == query.In && c.q != nil && len(labelsOf(c.f.Value)) > 1 })
}

// labelsOf returns the option labels of an In condition's value.
func labelsOf(v any) []string {
	var out []string
	if vs, ok := v.([]any); ok {
		for _, x := range vs {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

// demonstrativeCond reports whether "those" or "these" stands right before a
// condition ("those remote workers"): the group of the previous answer.
func (p *parser) demonstrativeCond() bool {
	for i, w := range p.words {
		if (w == "those" || w == "these") && slices.ContainsFunc(p.conds, func(c cond) bool { return c.pos == i+1 || c.pos == i+2 }) {
			return true
		}
	}
	return false
}

// needsTarget reports whether a metric means nothing without a question.
func needsTarget(m query.Metric) bool {
	switch m {
	case query.Mean, query.Median, query.Sum, query.Min, query.Max, query.Top, query.Distribution,
		query.StdDev, query.Percentile, query.Mode:
		return true
	}
	return false
}

// parse reads one message into a request. Sentences around the question that
// hold only words it cannot map ("Hi there. I run the cafe.") are set aside
// when the rest reads in full.
func (s *session) parse(msg string) *request {
	in, p := s.parseTokens(dropGreeting(tokenize(s.cf.respell(msg))))
	for _, kept := range [][]token{p.withoutChatter(), p.withoutPreface()} {
		if kept == nil {
			continue
		}
		if in2, _ := s.parseTokens(kept); len(in2.unknown) == 0 {
			return in2
		}
	}
	return in
}

// withoutPreface returns the tokens of the message after a leading clause that
// says what the figure is for and names nothing of the form ("For the board
// deck, …", "Before the team meeting, …"), or nil when there is none. A clause
// naming an answer, a question, a number, a month or a statistic is kept: it may
// be the question's filter.
func (p *parser) withoutPreface() []token {
	if len(p.unknownAt) == 0 || !prefaceWords[p.word(0)] {
		return nil
	}
	end := slices.Index(p.words, ",")
	if end < 2 {
		return nil
	}
	for i, t := range p.ts[:end] {
		if p.used[i] || p.own[i] || t.isNum || months[t.low] != 0 || statCueWords[t.low] && t.stem != "" ||
			t.stem != "" && (p.cf.optionStem(t.stem) || p.cf.namesAQuestion(t.stem)) {
			return nil
		}
	}
	return p.ts[end+1:]
}

// prefaceWords open a clause saying what a figure is for.
var prefaceWords = text.Set("for before after ahead")

// parseTokens reads the tokens of one message into a request.
func (s *session) parseTokens(ts []token) (*request, *parser) {
	p := &parser{cf: s.cf, ts: ts}
	p.moodAsSatisfaction()
	p.words = wordsOf(p.ts)
	p.used = make([]bool, len(p.ts))
	p.markOwn()
	p.markIdioms()
	in := &request{limit: p.limit(), percentile: p.percentile()}
	in.span = p.dates(s.now)
	if in.span == nil {
		in.shift = p.periodShift()
	}
	in.check = p.statCheck()
	p.ratedSubject()
	p.numbers()
	mentions := p.options()
	p.preferredBest(mentions)
	p.yesNo()
	compared := p.thanGroups() || p.comparedPair()
	p.noneChosen()
	p.answeredText()
	p.yesVersusNo()
	if v, ok := p.unboundYesNo(); ok && !p.hasYesNoCond() {
		p.conds = append(p.conds, cond{f: query.Filter{Op: query.Equals, Value: v}, pos: indexOf(p.words, yesOrNo)})
	} else if ok {
		p.answerBareYesNo(v) // "how many answered “Will you come next year?” with no"
	}
	p.markSaidAnswers()
	cues := p.cues()
	cues[cueCompare] = cues[cueCompare] || compared
	in.setMetric(cues, p.cueWords)
	if p.spreadAsked() {
		in.metric = query.StdDev // "which department has the most spread in job satisfaction", "how spread out"
	}
	if in.metric == query.Words && in.limit == 0 && slices.Contains(p.words, "word") && !slices.Contains(p.words, "words") {
		in.limit = 1 // "the most common word in the comments": one
	}
	if p.likely = p.likelyTo(); p.likely && (in.metric == "" || in.metric == query.Mean) {
		in.metric = query.Percent // "which ticket type is least likely to return": the share of yes
	}
	if dir := p.anyoneExtreme(); dir != 0 {
		in.metric, in.least, in.extreme = "", false, dir // "the most anyone paid", "the fewest years anyone has been here"
	}
	if (in.metric == "" || in.metric == query.Count) && (text.Any(p.cueWords, addUpWords) || text.Any(p.words, addedUp)) {
		in.metric = query.Sum // "how many years do the London staff add up to"
	}
	if in.check != nil && in.check.count && in.metric == "" {
		in.metric = query.Count
	}
	majority := p.majorityAsked(in.check)
	if majority >= 0 && len(p.conds) > 0 && (in.metric == "" || in.metric == query.Top) {
		in.metric = query.Percent
	}
	if p.rate && (in.metric == "" || in.metric == query.Mean) {
		in.metric = query.Percent
	}
	if in.percentile > 0 {
		in.metric = query.Percentile
	}
	in.howMany = howMany.Index(p.words) >= 0
	in.allTime = text.Any(p.words, allTimePhrases)
	in.allGroups = p.allOfThem()
	in.mostly = anyWord(p.words, mostlyWords) || p.word(0) == "which" && text.Any(p.words, mostOf) // "which country are most of the 4-star people from"
	in.itAnswer = p.verbOfIt()
	in.ofEveryone = p.ofEveryone()
	in.addsMore = anyWord(p.words, addingWords)
	in.answersPrev = p.answeredPrevious()
	in.judged = anyWord(p.words, judgingWords)
	in.allNamed = in.metric != query.Percent && slices.ContainsFunc(p.conds, func(c cond) bool {
		return p.word(c.pos-1) == "all" || p.word(c.pos-2) == "all" && p.word(c.pos-1) == "the"
	})
	in.refersBack = (anyWord(p.words, backPronouns) || text.Any(p.words, backPhrases) || in.itAnswer) && !in.allGroups
	in.onlyThere = slices.Contains(p.words, "there") && !anyWord(p.words, themWords) && !text.Any(p.words, backPhrases) && !anyWord(p.words, theyWords) &&
		!slices.Contains(p.words, "its")
	classes := p.sentimentWords()
	scores := s.cf.scores(p.ts, p.used)
	p.mentions(scores)
	p.dateQuestionRange(in, scores)
	p.sentimentConds(in, classes, scores)
	in.replaced = p.dropReplaced()
	p.orOptions(cues)
	p.grouping(in, cues)
	p.crossWithYesNo(in, cues)
	if in.groupBy == nil && p.others != nil {
		in.groupBy = p.others
	}
	if in.metric == "" && in.groupBy == nil && anyWord(p.cueWords, varyWords) {
		in.metric = query.StdDev // "how much do the answers for cups per day vary?"
	}
	p.argGroup(in, scores)
	in.target = p.chooseTarget(in, s.cf.scores(p.ts, p.used))
	if in.metric == query.Count && in.extreme == 0 && in.target != nil && isNumeric(in.target.q) && p.unitsCounted(in.target) && !p.conditioned(in.target) {
		in.metric = query.Mean // "how many hours do people work": the typical number, not how many answered
		if in.total {
			in.metric = query.Sum // "how many cups per day in total"
		}
	}
	if p.measuredBy != nil {
		in.target = p.measuredBy
	}
	if q := p.whereFrom(); q != nil && (in.target == nil || in.target == q) && in.groupBy == nil {
		in.target, in.metric = q, query.Distribution // "where are our latte drinkers from": their countries
	}
	if p.markPeopleVerb(in) && in.metric == query.Trend && statesPeriod(in.target.q, in.interval) {
		delete(cues, cueTrend) // "cups people drink per day": “Cups per day”'s own period, not a trend
		in.setMetric(cues, p.cueWords)
	}
	if p.bothAnswers && p.others != nil && in.target == nil {
		if in.groupBy == p.others {
			in.groupBy = nil // "how did people answer the remote question, yes vs no"
		}
		in.target = p.others // "table of remote yes/no per department": the two answers in each department
	}
	if dir := p.mostOfTarget(in); dir != 0 {
		in.metric = extremeMetric(dir > 0) // "most cups per day for cappuccino drinkers"
	}
	if p.crossWith != nil && (in.target == nil || in.target == p.crossWith) && (in.metric == "" || in.metric == query.Count) {
		in.target, in.metric = p.crossWith, query.Distribution // "headcount by department and office"
	}
	if p.likely && in.kind != metricIntent {
		in.target = nil // the share of yes by group names no question to average
	}
	p.bareByGroup(in)
	if (in.target == nil || groupable(in.target.q)) && (in.metric == "" || in.metric == query.Count) && text.Any(p.cueWords, takings) && s.cf.countOfType(form.Currency) == 1 {
		in.target, in.metric = s.cf.firstOfType(form.Currency), query.Sum // "how much did vip tickets bring in"
	}
	if in.target == nil && in.extreme != 0 && anyWord(p.cueWords, priceWords) && s.cf.countOfType(form.Currency) == 1 {
		in.target = s.cf.firstOfType(form.Currency) // "the most expensive early bird ticket"
	}
	if in.target == nil && (in.extreme != 0 || scoreStatistics[in.metric]) && anyWord(p.words, scoreWords) && s.cf.countOfType(form.Rating, form.Slider) == 1 {
		// "worst score any UK customer gave", "average score they give the cafe" on a form with one scale
		in.target = s.cf.firstOfType(form.Rating, form.Slider)
		for i, w := range p.words {
			if scoreWords[w] {
				p.used[i] = true
			}
		}
	}
	p.rankCheck(in)
	if p.bothAnswers && in.target != nil && in.target.q.Type == form.YesNo && (in.metric == "" || in.metric == query.Count) {
		in.metric = query.Distribution
	}
	byCount := in.metric == query.Count && text.Any(p.words, byNumber)
	if lead := p.rankLead(); lead >= 0 && !leadRanks[p.words[lead]] && (in.metric == "" || in.metric == query.Top || in.metric == query.Distribution || byCount) &&
		in.target != nil && groupable(in.target.q) && in.groupBy == nil && in.kind == metricIntent && (p.words[lead] == "bottom" || !fits(query.Min, in.target.q)) {
		in.metric, in.least = query.Top, true // "bottom 2 drinks": the least common; "lowest rating" is the lowest answer
	}
	if most := p.whichEndsMost(); in.metric == "" && in.target != nil && in.groupBy == nil && most != 0 {
		in.metric, in.least = query.Top, most < 0 // "which star rating did people give most"
		if !groupable(in.target.q) && !in.least {
			in.metric = query.Mode // "which recommend score was given most"
		}
	}
	if in.metric == "" && in.target != nil && groupable(in.target.q) && in.groupBy != nil && slices.Contains(p.words, "table") {
		in.metric = query.Distribution // "job satisfaction by department as a table": the counts of each answer
	}
	if in.metric == "" && in.target != nil && in.target.q.Type == form.Rating && in.groupBy == nil && len(p.conds) == 0 && p.onlyPluralOf(in.target) {
		in.metric = query.Distribution // "overall ratings": how many gave each
	}
	in.settle()
	p.mostPeople(in)
	p.topFigure(in)
	p.yesNoComparative(in)
	p.contrastComparative(in)
	if compared && in.metric == "" && in.target != nil && isNumeric(in.target.q) {
		in.metric = query.Mean
	}
	if compared && (in.metric == "" || in.metric == query.Distribution) && in.target != nil && in.target.q.Type == form.YesNo && in.groupBy != nil {
		in.metric = query.Percent // "latte vs flat white drinkers, who recommends us more": the share of yes
	}
	p.rankScale(in)
	if (in.kind == highestGroup || in.kind == lowestGroup) && in.total && in.metric == query.Mean && in.target != nil && fits(query.Sum, in.target.q) &&
		!anyWord(p.cueWords, namedStats) {
		in.metric, in.rankDefault = query.Sum, false // "which country has the highest total cups per day"
	}
	in.blank = p.blankAsked(in)
	p.markBase(mentions, in.span)
	if in.metric == query.Percent {
		p.shareOfWritten()
	}
	p.ofTheAnswers(in)
	if majority >= 0 && in.metric == query.Percent {
		p.majorityBase(majority)
	}
	in.conds = p.conds
	if len(p.conds) == 0 && in.target == nil && (anyWord(p.words, themWords) || anyWord(p.words, peopleNouns)) {
		switch last := p.word(len(p.words) - 1); {
		case anyWord(p.words, negators):
			in.answer = "no" // "and those who wouldn't?"
		case answerAuxiliaries[last] || last == "?" && answerAuxiliaries[p.word(len(p.words)-2)]:
			in.answer = "yes" // "and those who will?"
		}
	}
	in.cuesOnly = p.onlyCues()
	in.answersTarget = in.target != nil && p.answeredNamed(in.target)
	in.atFigure = in.metric == query.Count && p.figurePronoun()
	if in.metric == query.Top && !in.least && in.limit <= 1 && in.target != nil && isNumeric(in.target.q) && slices.Contains(p.words, "top") && p.howManyPeople(in.target) {
		in.metric = query.Max // "how many gave the top rating": the highest one, not the most common
	}
	in.bare = p.lastWord() < 3
	in.topWordBack, in.thatWord, in.oneAfterExtreme = p.topWordBack, p.thatWord, p.oneAfterExtreme
	if i := slices.Index(p.words, "overall"); i >= 0 && !p.own[i] {
		in.overall = true
	}
	in.together = anyWord(p.words, togetherWords)
	in.sameFor = text.Any(p.words, sameForPhrases)
	in.its = slices.Contains(p.words, "its")
	in.pointsAtPeriod = text.Any(p.words, periodPointers)
	in.takings = text.Any(p.cueWords, takings)
	in.bareAnd = (p.word(0) == "and" || p.word(0) == "what" && p.word(1) == "about") && p.lastWord() < 4 // "and espresso?", "what about marketing"
	in.possessive = anyWord(p.words, pointingPossessives)
	in.topNamed = slices.Contains(p.words, "top")
	in.whichOne = p.word(0) == "which" && oneWords[p.word(1)]
	switch {
	case text.Any(p.words, firstOnePhrases):
		in.firstOne = 1
	case text.Any(p.words, lastOnePhrases):
		in.firstOne = -1
	}
	in.shareOfNamed = slices.ContainsFunc(p.conds, func(c cond) bool { return p.afterOf(c.pos) })
	if in.mostly && p.word(0) == "which" && in.limit == 0 && in.target != nil && groupable(in.target.q) && in.groupBy == nil && (in.metric == "" || in.metric == query.Distribution) {
		in.metric, in.limit = query.Top, 1 // "which country are most of the 4-star people from": the most common one
	}
	in.countsExtreme = (in.metric == query.Max || in.metric == query.Min) && in.target != nil && p.howManyPeople(in.target)
	if in.countsExtreme && p.extremeOption() && p.unsure == "" {
		p.unsure = "“the cheapest option” could be the lowest answer given or the choice whose answers are lowest on average; please ask in full"
	}
	backPhrase := text.Any(p.words, backPhrases)
	in.addOnly = (anyWord(p.words, themWords) || backPhrase) && anyWord(p.words, ofAmong) || text.Any(p.words, ofTheir) // "how many of their answers were negative", "of that group", "of its fans"
	if in.metric == query.Percent && p.pointsAtThat() || p.thoseWho() {
		// "what % of that group is that": the previous figure's share of its own population;
		// "and among those who rated us 3 or less?": a new population, not the previous answer's
		in.addOnly = false
	}
	in.narrows = anyWord(p.words, narrowWords)
	in.everyone = len(in.conds) == 0 && in.groupBy == nil && in.target == nil && in.metric == "" && p.unusedPhrase(everyonePhrases) &&
		!text.Any(p.words, everyoneElse)
	in.followUp = in.addOnly || backPhrase || in.atFigure || in.itAnswer || in.firstOne != 0 || p.looksLikeFollowUp(in) // "how many vips gave that", "… of the people who chose it"
	in.vaguePointer = in.followUp && p.onlyWordsOf(pointerOnly)
	if p.onlyOverall() && in.followUp {
		in.everyone, in.target, in.metric = true, nil, "" // "ok and overall": everyone, not “Overall rating”
	}
	in.dangling = in.addOnly && !p.thoseWho() && p.pointsBeforeNaming()
	in.pointsBack = !in.followUp && p.demonstrativeCond()
	in.about = anyWord(p.words, aboutWords) || p.formAnswers
	in.every = anyWord(p.words, everyWords)
	in.rank = rankOf(p.cueWords)
	in.which = p.whichGroup()
	in.asksWhich = slices.Contains(p.words, "which")
	in.compares = cues[cueCompare]
	in.same = slices.Contains(p.words, "same")
	in.unknown, in.clash = p.unknownWords(in), p.clash
	if in.looseClass = p.looseClass; in.looseClass != "" {
		in.unknown = p.withClassWord(in.unknown) // unless a follow-up ties it to written answers
	}
	in.lone = p.loneNumber(in)
	in.loneWord = p.loneWord(in)
	in.otherSide = p.otherSideOnly(in)
	in.theRest = len(p.conds) == 0 && (text.Any(p.words, everyoneElse) || text.Any(p.words, restPhrase))
	in.theOthers = len(p.conds) == 0 && !in.theRest && text.Any(p.words, othersPhrases)
	in.perPerson = len(p.conds) == 0 && text.Any(p.words, perPersonPhrases)
	in.either = in.followUp && len(in.conds) == 0 && text.Any(p.words, eitherWords)
	in.ambiguous = p.ambiguity(in)
	return in, p
}

// loneNumber returns the number of a follow-up that names nothing else ("and
// 4?", "and more than 45?"), or nil, and the comparison around it when there is
// one, whose words it marks read.
func (p *parser) loneNumber(in *request) *query.Filter {
	if !in.followUp || len(in.unknown) == 0 || in.target != nil || len(in.conds) > 0 {
		return nil
	}
	for _, i := range p.unknownAt {
		if !p.ts[i].isNum {
			continue
		}
		op, lo, hi, start, end := p.comparison(i, &question{})
		for _, k := range p.unknownAt {
			if k < start || k >= end {
				return nil // "and 6 or lower?" has no other unknown word
			}
		}
		for k := start; k < end; k++ {
			p.used[k] = !p.ts[k].isNum
		}
		f := &query.Filter{Op: op, Value: lo, To: hi}
		if op == query.Equals && !exactWords[p.word(i-1)] {
			f.Op = "" // "and 4?" keeps the comparison; "what about exactly 45?" does not
		}
		return f
	}
	return nil
}

// afterOf reports whether the words before i are "of" and determiners ("of all
// the milk ppl").
func (p *parser) afterOf(i int) bool {
	k := i - 1
	for k >= 0 && ofDeterminers[p.words[k]] {
		k--
	}
	return p.word(k) == "of"
}

// ofDeterminers may stand between "of" and the answer it names.
var ofDeterminers = text.Set("all the our those these")

// pointingPossessives point at the respondents whose figure is asked ("their
// rating").
var pointingPossessives = text.Set("its their")

// firstOnePhrases point at the first answer of a list ("the top one").
var firstOnePhrases = phrases("the top one", "the first one", "the first answer", "the top answer", "the most popular one",
	"the biggest one", "the largest one", "the biggest 1", "the largest 1", "in the biggest", "in the largest")

// lastOnePhrases point at the last answer of a list ("the smallest one").
var lastOnePhrases = phrases("the smallest one", "the smallest 1", "in the smallest", "the least popular one", "the last one")

// sizeOne are the superlatives of a group's size before "one".
var sizeOne = text.Set("biggest largest smallest")

// sameForPhrases ask the previous question of another answer.
var sameForPhrases = phrases("same for", "same thing for", "same but for", "same question for")

// extremeOption reports whether an extreme names a choice ("the cheapest
// option"), not an answer.
func (p *parser) extremeOption() bool {
	for i, w := range p.words {
		if (priceWords[w] || extremeNames[w]) && optionNouns[p.word(i+1)] {
			return true
		}
	}
	return false
}

// optionNouns name a choice among the answers.
var optionNouns = text.Set("option options choice choices type types kind kinds tier tiers package packages")

// exactWords before a number ask for that number only.
var exactWords = text.Set("exactly precisely")

// eitherWords ask for one answer or the other.
var eitherWords = phrases("either", "one of them", "any of them", "one or the other", "at least one")

// loneWord returns the only word of a follow-up with no condition, statistic,
// group or period, filler words included, when the chat has no reading of its
// own for it; "" otherwise.
func (p *parser) loneWord(in *request) string {
	if !in.followUp || len(in.conds) > 0 || in.metric != "" || in.groupBy != nil || in.span != nil || in.shift != nil || in.everyone {
		return ""
	}
	word := ""
	for _, t := range p.ts {
		switch {
		case t.isNum:
			return ""
		case t.stem == "":
		case word != "" || cueVocabulary[t.low] || sentimentClasses[t.low] != "" || months[t.low] != 0 || len(t.low) < 3:
			return ""
		default:
			word = t.low
		}
	}
	return word
}

// indexOf returns the position of the first word in the set, or 0.
func indexOf(words []string, set map[string]bool) int {
	for i, w := range words {
		if set[w] {
			return i
		}
	}
	return 0
}

// sentimentConds turns one sentiment word into a condition on the free-text
// question; both "positive" and "negative" ask for the sentiment itself.
func (p *parser) sentimentConds(in *request, classes []string, scores []float64) {
	switch {
	case len(classes) == 1 && in.metric == "" && !in.howMany && anyWord(p.words, predicateWords):
		in.metric = query.Sentiment // "are the comments mostly positive?" asks for their sentiment
	case len(classes) == 1 && p.word(indexOf(p.words, sentimentCues)-1) == "how":
		in.metric = query.Sentiment // "how positive are the answers" asks for their sentiment
	case len(classes) == 1 && in.metric == query.Sentiment && p.word(indexOf(p.words, sentimentCues)-1) == "?":
		// "overall mood of the comments? positive?": a check of the sentiment asked, not a filter
	case len(classes) == 1:
		q := p.freeTextQuestion(scores)
		if q == nil || !p.refersToText(q, scores) {
			p.unmark(sentimentClasses) // "how many people are happy" names no answers: refused
			p.looseClass = classes[0]
			return
		}
		p.add(q, query.Filter{Op: query.SentimentOp, Value: classes[0]}, indexOf(p.words, sentimentCues))
	case len(classes) > 1 && in.metric == "":
		in.metric = query.Sentiment
	}
}

// predicateWords make a sentiment word say how answers are ("mostly positive").
var predicateWords = text.Set("are is were was mostly mainly generally overall")

// textNouns name written answers.
var textNouns = text.Set("comment comments feedback review reviews remark remarks answer answers reply replies response responses " +
	"text texts said say wrote written saying opinion opinions message messages note notes")

// refersToText reports whether the message names the free-text question q or
// written answers in general, so a sentiment word can be read as its class.
func (p *parser) refersToText(q *question, scores []float64) bool {
	for qi := range p.cf.qs {
		if &p.cf.qs[qi] == q && scores[qi] > 0 {
			return true
		}
	}
	return slices.ContainsFunc(p.words, func(w string) bool { return textNouns[w] })
}

// unmark frees the words of set for the coverage check.
func (p *parser) unmark(set map[string]string) {
	for i, w := range p.words {
		if _, ok := set[w]; ok {
			p.used[i] = false
		}
	}
}

// argGroup turns "which <question> has the highest <figure>" into the group with
// the highest (or lowest) figure.
func (p *parser) argGroup(in *request, scores []float64) {
	if in.groupBy == nil || !isNumeric(in.groupBy.q) {
		if m := p.numericAfterBy(); m != nil && p.topGroups() != nil {
			in.groupBy = m // "bottom 2 offices by work-life balance": a slider is no group, but it ranks
		}
	}
	if g := p.topGroups(); g != nil && in.groupBy != nil && g != in.groupBy && isNumeric(in.groupBy.q) && in.kind == metricIntent {
		// "top 3 departments by satisfaction": the departments ranked by it
		p.measuredBy, in.groupBy, in.metric = in.groupBy, g, query.Mean
		in.kind = rankIntent(p.leadHigh())
		return
	}
	if g, m, high := p.rankedByWord(); g != nil && in.groupBy == nil && in.kind == metricIntent {
		// "lowest rated country", "happiest dept": the groups ranked by the average the word names
		p.measuredBy, in.groupBy, in.metric, in.extreme = m, g, query.Mean, 0
		in.kind = rankIntent(high)
		return
	}
	if g := p.topGroups(); g != nil && !isNumeric(g.q) && (p.rate || in.metric == query.Percent) && in.kind == metricIntent && in.groupBy != nil && in.groupBy != g && in.groupBy.q.Type == form.YesNo {
		// "top 3 countries by recommendation rate": ranked by the share of yes
		yn := in.groupBy
		p.conds = append(p.conds, cond{q: yn, f: query.Filter{Question: yn.q.ID, Op: query.Equals, Value: true}, pos: len(p.words)})
		in.groupBy, in.metric, in.extreme, p.likely = g, query.Percent, 0, true
		in.kind = rankIntent(p.leadHigh())
		return
	}
	if g := p.topGroups(); g != nil && !isNumeric(g.q) && in.groupBy == nil && in.kind == metricIntent && p.yesNoMeasure() {
		// "worst ticket type for coming back next year": ranked by the share of yes
		in.groupBy, in.metric, in.extreme, p.likely = g, query.Percent, 0, true
		in.kind = rankIntent(p.leadHigh())
		return
	}
	if g := p.whichGroup(); g != nil && in.groupBy == nil && in.kind == metricIntent && in.metric == query.Percent && rankOf(p.cueWords) != 0 &&
		len(p.conds) > 0 && !slices.ContainsFunc(p.conds, func(c cond) bool { return c.q == g }) {
		// "which ticket type has the most people coming back, in percent": ranked by the share
		in.groupBy, in.extreme = g, 0
		in.kind = rankIntent(rankOf(p.cueWords) > 0)
		return
	}
	if at := p.whoseOptions(); at >= 0 && in.groupBy == nil && in.kind == metricIntent && rankOf(p.cueWords) != 0 {
		// "keynote, workshop or panel: whose fans rated the event best": those groups ranked
		c := p.conds[at]
		in.groupBy, in.compare = c.q, labelsOf(c.f.Value)
		p.conds = slices.Delete(p.conds, at, at+1)
		in.metric, in.extreme = query.Mean, 0
		in.kind = rankIntent(rankOf(p.cueWords) > 0)
		return
	}
	if g := in.groupBy; p.likely && g != nil && g.q.Type != form.YesNo && in.kind == metricIntent && rankOf(p.cueWords) != 0 {
		// "whose fans are least likely to recommend us, by favourite drink": ranked by the share of yes
		in.metric, in.extreme = query.Percent, 0
		in.kind = rankIntent(rankOf(p.cueWords) > 0)
		return
	}
	if g := p.whichGroup(); p.likely && g != nil && in.groupBy == nil && in.kind == metricIntent && rankOf(p.cueWords) != 0 {
		in.groupBy, in.metric, in.extreme = g, query.Percent, 0
		in.kind = rankIntent(rankOf(p.cueWords) > 0)
		return
	}
	if g := p.whichGroup(); g != nil && in.groupBy != nil && g != in.groupBy && isNumeric(in.groupBy.q) &&
		in.kind == metricIntent && rankOf(p.cueWords) != 0 {
		// "which ticket type is the happiest, by overall rating?": the rating is the measure
		p.measuredBy, in.groupBy = in.groupBy, nil
		in.extreme = rankOf(p.cueWords)
	}
	if in.groupBy != nil || in.kind != metricIntent || p.givenMost() {
		return // "which overall rating did attendees give most often" asks for the most common answer
	}
	g := p.whichGroup()
	if g == nil {
		return
	}
	if in.extreme != 0 && anyWord(p.cueWords, sizeOne) && (in.target == nil || in.target == g) && (in.metric == "" || in.metric == query.Max || in.metric == query.Min) {
		// "which department is biggest in Madrid": the one most people answered
		in.target, in.metric, in.limit, in.least, in.extreme = g, query.Top, 1, in.extreme < 0, 0
		return
	}
	figureRanked := in.extreme == 0 && in.metric == query.Sum && rankOf(p.cueWords) != 0 // "which session's fans brought in the most"
	if in.extreme == 0 && !figureRanked && !p.mostOfNumber(in, g, scores) {
		return
	}
	in.groupBy = g
	in.kind = rankIntent(in.extreme > 0 || figureRanked && rankOf(p.cueWords) > 0)
	if in.metric == "" || in.metric == query.Top {
		in.metric, in.rankDefault = query.Mean, true
	}

	in.extreme = 0
}

// rankCheck reads "does Italy give us the best ratings?" and "is Support the
// least satisfied department?" as the ranking of the option's question, whose
// top (or bottom) group answers them.
func (p *parser) rankCheck(in *request) {
	if in.groupBy != nil || in.kind != metricIntent || !checkVerbs[p.word(0)] {
		return
	}
	dir := rankOf(p.cueWords)
	favourite := dir == 0 && anyWord(p.words, favouriteWords) && (in.metric == "" || in.metric == query.Count)
	if favourite {
		dir = 1 // "is espresso the favourite drink?" on a “Favourite drink” question
	}
	if dir == 0 {
		return
	}
	var opt *cond
	for i := range p.conds {
		if isOptionCond(p.conds[i]) {
			if opt != nil {
				return
			}
			opt = &p.conds[i]
		}
	}
	if opt == nil {
		return
	}
	if favourite {
		in.metric = query.Top
	}
	q := opt.q
	switch {
	case in.metric == query.Top && (in.target == nil || in.target == q),
		in.target == nil && (in.metric == "" || in.metric == query.Count || in.metric == query.Max || in.metric == query.Min) && anyWord(p.cueWords, sizeWords):
		in.target, in.metric = q, query.Top // "is espresso the most popular drink?", "is london the biggest office": the most common answer
	case in.target != nil && isNumeric(in.target.q):
		if in.metric == "" || in.metric == query.Max || in.metric == query.Min || in.metric == query.Top {
			in.metric, in.rankDefault = query.Mean, true
		}
		in.groupBy = q
		in.kind = rankIntent(dir > 0)
	default:
		return
	}
	p.conds = slices.DeleteFunc(p.conds, func(c cond) bool { return c.q == q })
	in.least, in.extreme = in.metric == query.Top && dir < 0, 0
}

// sizeWords rank the answers of a question by how many gave them.
var sizeWords = text.Set("biggest largest smallest popular common")

// checkVerbs start a yes/no question.
var checkVerbs = text.Set("does do is are did was were has have")

// numericAfterBy (or "for", "on") returns the numeric question the four words after "by" name
// most, or nil (none, or a tie).
func (p *parser) numericAfterBy() *question {
	i := slices.IndexFunc(p.words, func(w string) bool { return w == "by" || w == "for" || w == "on" })
	if i < 0 || p.words[i] == "for" && p.condAfter(i) {
		return nil // "top 2 tracks for regular tickets" filters
	}
	var best *question
	bestN, tie := 0, false
	for qi := range p.cf.qs {
		q := &p.cf.qs[qi]
		n := 0
		for k := i + 1; k <= i+4 && k < len(p.ts); k++ {
			if isNumeric(q.q) && !p.used[k] && p.ts[k].stem != "" && slices.Contains(q.stems, p.ts[k].stem) { // not the "rate" of "recommendation rate"
				n++
			}
		}
		switch {
		case n > bestN:
			best, bestN, tie = q, n, false
		case n == bestN && n > 0:
			tie = true
		}
	}
	if tie {
		return nil
	}
	return best
}

// mostOfTarget returns +1 when "most" (−1 when "least" or "fewest") stands right
// before a word of the numeric target with no group to rank: the highest (lowest)
// answer.
func (p *parser) mostOfTarget(in *request) int {
	if in.target == nil || !isNumeric(in.target.q) || in.groupBy != nil || in.kind != metricIntent || in.metric != "" && in.metric != query.Top {
		return 0 // "fewest years at the company" is the lowest, not the least common answer
	}
	for i, t := range p.ts {
		if i == 0 || t.stem == "" || !slices.Contains(in.target.stems, t.stem) {
			continue
		}
		switch p.word(i - 1) {
		case "most":
			return 1
		case "least", "fewest":
			return -1
		}
	}
	k := 0
	for p.word(k) == "and" || p.word(k) == "the" {
		k++
	}
	lead := p.word(k)
	if (lead == "most" || lead == "least") && (in.metric == "" || in.metric == query.Top && !frequencyAfterMost[p.word(k+1)]) && anyWord(p.words, typeCues[in.target.q.Type]) {
		return map[string]int{"most": 1, "least": -1}[lead] // "most an early bird paid", "and the least an early bird paid?"
	}
	return 0
}

// frequencyAfterMost after "most" or "least" ask how often ("the least common price").
var frequencyAfterMost = text.Set("common popular frequent frequently often chosen picked given selected")

// topGroups returns the groupable question named right after a leading "top"
// or "bottom" (and its number): "top 3 departments by satisfaction".
func (p *parser) topGroups() *question {
	k := p.rankLead() + 1
	if k == 0 {
		return nil
	}
	if k < len(p.ts) && p.ts[k].isNum {
		k++
	}
	if k >= len(p.ts) {
		return nil
	}
	return p.groupableAt(k)
}

// beforeRankLead may come before the word opening a ranking.
var beforeRankLead = text.Set("the rank sort order show list give me")

// rankLead returns where the word opening a ranking stands ("top 3 …", "the
// worst …", "rank the top 3 …", "show me the bottom 2 …"), or -1.
func (p *parser) rankLead() int {
	k := 0
	for k < len(p.words) && beforeRankLead[p.word(k)] {
		k++
	}
	if _, ok := leadRanks[p.word(k)]; ok {
		return k
	}
	return -1
}

// rankedByWord reads "lowest rated country", "most satisfied department": a
// ranking word opening the message, a word of one numeric question and a
// groupable question. It returns the group, the numeric question and whether the
// top is asked; nil when the message does not open so.
func (p *parser) rankedByWord() (*question, *question, bool) {
	k := 0
	if p.word(0) == "the" {
		k = 1
	}
	high, ok := leadRanks[p.word(k)]
	if !ok {
		high, ok = moreRanks[p.word(k)]
	}
	if !ok || k+2 >= len(p.ts) || p.ts[k+1].stem == "" {
		return nil, nil, false
	}
	g := p.groupableAt(k + 2)
	if g == nil || isNumeric(g.q) {
		return nil, nil, false
	}
	var m *question
	for qi := range p.cf.qs {
		q := &p.cf.qs[qi]
		if isNumeric(q.q) && slices.Contains(q.stems, p.ts[k+1].stem) {
			if m != nil {
				return nil, nil, false // two numeric questions share the word
			}
			m = q
		}
	}
	if m == nil || p.own[k+2] || slices.Contains(m.stems, p.ts[k+2].stem) {
		return nil, nil, false // "most hours worked in a week": "worked" is the hours' own word
	}
	return g, m, high
}

// moreRanks open a ranking by an adjective: "most satisfied department".
var moreRanks = map[string]bool{"most": true, "least": false}

// leadRanks open a ranking of groups: true for the top, false for the bottom.
var leadRanks = map[string]bool{"top": true, "best": true, "highest": true, "bottom": false, "worst": false, "lowest": false}

// leadHigh reports whether the ranking the message opens with is a top.
func (p *parser) leadHigh() bool { return leadRanks[p.word(p.rankLead())] }

// yesNoMeasure reports whether the only condition is a yes/no answer named after
// "for" or "by" ("… for coming back next year"), or any answer after "by share
// of".
func (p *parser) yesNoMeasure() bool {
	i := slices.IndexFunc(p.words, func(w string) bool { return w == "by" || w == "for" })
	return i >= 0 && len(p.conds) == 1 && p.conds[0].q != nil && p.conds[0].pos > i &&
		(p.conds[0].q.q.Type == form.YesNo || shareWords[p.word(i+1)]) // "by share of 5 star ratings"
}

// rankWords rank groups; the figure they rank on a scale is its average.
var rankWords = text.Set("highest lowest best worst")

// rankScale reads "highest <rating> by <group>" as the group with the highest
// average: on a rating or slider scale every group's maximum is nearly always the
// top of the scale, so the plain reading says nothing. "max" and "min" keep
// their meaning.
func (p *parser) rankScale(in *request) {
	if dir := rankOf(p.cueWords); in.groupBy != nil && in.kind == metricIntent && len(in.compare) == 0 && dir != 0 &&
		(in.metric == query.Mean || in.metric == query.Median || in.metric == query.Percent) &&
		(anyWord(p.cueWords, rankWords) || p.word(0) == "where") {
		// "lowest average rating by drink", "where is remote work most common, by department?"
		in.kind = rankIntent(dir > 0)
		in.extreme = 0
		return
	}
	if in.groupBy == nil || in.kind != metricIntent || in.target == nil || len(in.compare) > 0 ||
		(in.metric != query.Max && in.metric != query.Min) || !anyWord(p.cueWords, rankWords) {
		return
	}
	if !isScale(in.target.q) {
		return
	}
	in.kind = rankIntent(in.metric == query.Max)
	in.metric, in.extreme = query.Mean, 0
}

// mostWords and leastWords ask for the group with the highest or lowest figure
// ("which department is most satisfied").
var (
	mostWords  = text.Set("most longest more")
	leastWords = text.Set("least shortest fewest fewer less")
)

// mostOfNumber sets the extreme of "which <group> … most <numeric question>": a
// "most" or "least" with a numeric question the message names.
func (p *parser) mostOfNumber(in *request, g *question, scores []float64) bool {
	dir := 0
	switch {
	case anyWord(p.cueWords, mostWords):
		dir = 1
	case anyWord(p.cueWords, leastWords):
		dir = -1
	}
	if dir == 0 || in.metric == query.Count || in.metric == query.Percent {
		return false
	}
	probe := &request{metric: query.Mean, groupBy: g}
	if p.chooseTarget(probe, scores) == nil {
		return false
	}
	in.extreme = dir
	return true
}

// limit reads "top 3", "last 5", "10 most recent" and marks them used.
func (p *parser) limit() int {
	for i, t := range p.ts {
		if !t.isNum || t.num < 1 || t.num > 100 || t.num != float64(int(t.num)) {
			continue
		}
		prev, next := p.word(i-1), p.word(i+1)
		if unitsOfTime[next] {
			continue
		}
		listed := listedThings[next] && anyWord(p.words, listVerbs)
		if listed || beforeLimit[prev] || afterLimit[next] {
			p.used[i] = true
			return int(t.num)
		}
	}
	return 0
}

// dates reads the date range of the message, unless its words are part of a
// question the message names ("spend with us last month").
func (p *parser) dates(now time.Time) *dateRange {
	start := slices.Clone(p.used)
	var skipped []int // words of a question's text read as a period ("come next year")
	defer func() {
		for _, k := range skipped {
			p.used[k] = start[k]
		}
	}()
	for range 3 {
		before := slices.Clone(p.used)
		r := findDates(p.ts, p.used, now)
		if r == nil {
			return nil
		}
		if !p.inQuestionText(before) {
			if r.unsure != "" {
				p.unsure = r.unsure
			}
			return r
		}
		for k := range p.used {
			if p.used[k] && !before[k] {
				skipped = append(skipped, k) // kept read while looking for another period
			}
		}
	}
	return nil
}

// inQuestionText reports whether the words newly marked used (relative to before)
// appear together in the text of a question that other words of the message name.
func (p *parser) inQuestionText(before []bool) bool {
	var dateWords text.Phrase
	for i := range p.used {
		if p.used[i] && !before[i] && !datePrepositions[p.words[i]] {
			dateWords = append(dateWords, p.words[i])
		}
	}
	scores := p.cf.scores(p.ts, p.used)
	for qi, q := range p.cf.qs {
		if dateWords.Index(q.words) >= 0 && scores[qi] >= 1 {
			return true
		}
	}
	return false
}

// dateQuestionRange moves the date range of the message onto a date question the
// message names ("started using our product in 2024").
func (p *parser) dateQuestionRange(in *request, scores []float64) {
	if in.span == nil || p.submissionsBefore(in.span.pos) {
		return // "responses from the last two weeks" are submissions
	}
	for qi := range p.cf.qs {
		q := &p.cf.qs[qi]
		if q.q.Type != form.Date || scores[qi] < 1 {
			continue
		}
		if m := p.monthWithoutYear(); m != "" {
			p.unsure = fmt.Sprintf("“%s” names no year, and %s can be in any year; please add the year", m, text.Quote(q.q.Text))
		}
		p.add(q, in.span.filter(), in.span.pos)
		p.cf.absorb(p.ts, p.used, q, 0, len(p.ts), 0)
		in.span = nil
		return
	}
}

// hasYesNoCond reports whether the message already named a yes_no question.
func (p *parser) hasYesNoCond() bool {
	for _, c := range p.conds {
		if c.q != nil && c.q.q.Type == form.YesNo {
			return true
		}
	}
	return false
}

// thoseWho reports whether the message's "those" or "these" opens a clause that
// says who they are ("those who rated us 3 or less", "those with 5 stars").
func (p *parser) thoseWho() bool {
	i := slices.IndexFunc(p.words, func(w string) bool { return w == "those" || w == "these" })
	return i >= 0 && clauseWords[p.word(i+1)] && p.word(i+1) != "on"
}

// pointsThere reports whether "there" points at a place named before ("people
// there"), not at something existing ("are there", "there are").
func (p *parser) pointsThere() bool {
	i := slices.Index(p.words, "there")
	return i > 0 && !beWords[p.word(i-1)] && !beWords[p.word(i+1)]
}

// beWords are the forms of "be" that make "there" say something exists.
var beWords = text.Set("are is were was be been being")

// ofEveryone reports whether the message asks for a share of all the responses
// ("what % of everyone is that", "out of all respondents").
func (p *parser) ofEveryone() bool {
	for i, w := range p.words {
		if w == "of" && everyoneWords[p.word(i+1)] && (p.word(i+2) == "" || p.word(i+2) == "?" || p.word(i+2) == "is" || peopleNouns[p.word(i+2)] || submissionWords[p.word(i+2)]) {
			return true
		}
	}
	return false
}

// pointsBeforeNaming reports whether the message's "them" or "those" comes
// before any answer it names ("how many of those would recommend us"), so it
// points outside the message ("milk or cream, how many add one of them" does not).
func (p *parser) pointsBeforeNaming() bool {
	i := slices.IndexFunc(p.words, func(w string) bool { return themWords[w] })
	if i < 0 || strings.HasSuffix(p.word(i+1), "ing") || p.word(i+1) == "not" {
		return false // "those coming back": a clause saying who they are
	}
	for _, w := range p.words[:i] {
		if !backLeads[w] {
			return false // "across everyone who …, how many of them"
		}
	}
	return true
}

// backLeads may open a question that points back ("how many of those", "what %
// of them").
var backLeads = text.Set("how many much of what which percent percentage % share pct the and among number")

// verbOfIt reports whether "it" is what people chose ("the people who picked
// it", "who use it"): the answer the previous reply named.
func (p *parser) verbOfIt() bool {
	i := slices.Index(p.words, "it")
	return i > 0 && (pickVerbs[p.word(i-1)] || itVerbs[p.word(i-1)]) && !answeredWords[p.word(i-1)]
}

// answeredPrevious reports whether the message asks who answered the previous
// question ("how many engineers answered that", "and how many answered it").
func (p *parser) answeredPrevious() bool {
	for i, w := range p.words {
		if answeredWords[w] && itWords[p.word(i+1)] {
			return true
		}
	}
	return false
}

// answeredWords say a question was answered.
var answeredWords = text.Set("answer answered answers responded replied filled")

// itVerbs before "it" choose an answer.
var itVerbs = text.Set("uses enjoyed liked attended picks chooses selects prefer prefers drink drinks add adds")

// onlyWordsOf reports whether every word of the message is in set.
func (p *parser) onlyWordsOf(set map[string]bool) bool {
	for _, w := range p.words {
		if !set[w] {
			return false
		}
	}
	return len(p.words) > 0
}

// onlyOverall reports whether a follow-up says nothing but "overall" ("ok and
// overall"): everyone, even on a form with an “Overall rating”.
func (p *parser) onlyOverall() bool {
	if !slices.Contains(p.words, "overall") {
		return false
	}
	for _, w := range p.words {
		if w != "overall" && !continuationOnly[w] {
			return false
		}
	}
	return true
}

// continuationOnly are the words around a follow-up's one word.
var continuationOnly = text.Set("ok okay and so then what about how ? hmm")

// allOfThem reports whether the message asks for all the previous answer's
// groups ("show me all of them", "each of them").
func (p *parser) allOfThem() bool {
	return text.Any(p.words, allOfThemPhrases)
}

// everyonePhrases ask for a figure over every respondent.
var everyonePhrases = phrases("overall", "for everyone", "for everybody", "for all", "all respondents", "all responses", "in general", "everyone")

// unusedPhrase reports whether one of list stands in the message on words no
// question took ("overall" of “Overall rating” is the question's).
func (p *parser) unusedPhrase(list []text.Phrase) bool {
	for _, ph := range list {
		for i := range p.words {
			if ph.At(p.words, i) && !slices.Contains(p.used[i:i+len(ph)], true) && !slices.Contains(p.own[i:i+len(ph)], true) {
				return true
			}
		}
	}
	return false
}

// backPronouns and backPhrases point at the respondents of the previous answer.
var (
	backPronouns = text.Set("them those they their there these its")
	backPhrases  = phrases("that group", "that one", "the same people", "this group", "that team", "this team")
)

// allTimePhrases ask for a figure over every response, whenever submitted.
var allTimePhrases = phrases("whole survey", "entire survey", "all time", "all-time", "whole period", "entire period",
	"whole time", "since the start", "since the beginning", "from the start", "without the date", "any time", "no date limit")

// lastIndexFunc returns the index of the last word of words f holds for, or -1.
func lastIndexFunc(words []string, f func(string) bool) int {
	for i := len(words) - 1; i >= 0; i-- {
		if f(words[i]) {
			return i
		}
	}
	return -1
}

// Word sets and phrases of the follow-up readings above, built once.
var (
	mostlyWords  = text.Set("mostly mainly")
	addingWords  = text.Set("add too also plus")
	judgingWords = text.Set("best worst")
	theyWords    = text.Set("they their")
	byNumber     = phrases("by number", "by count", "by the number", "by how many")
	everyoneElse = phrases("everyone else", "everybody else")
	restPhrase   = phrases("the rest")
	restOfAll    = phrases("rest of the company", "rest of the team", "rest of the staff", "rest of the customers", "rest of the attendees",
		"rest of the people", "rest of us")
	othersPhrases    = phrases("the others", "all the others", "all others", "other ones")
	perPersonPhrases = phrases("per person", "per head", "per employee", "per respondent", "per attendee")
	allOfThemPhrases = phrases("all of them", "each of them", "every one of them", "them all", "all of those", "all of these")
	pointerOnly      = text.Set("what about how them those they and ? hmm ok")
)
