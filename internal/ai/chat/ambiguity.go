package chat

import (
	"fmt"
	"slices"
	"strings"

	"forma/internal/ai/query"
	"forma/internal/ai/text"
	"forma/internal/form"
)

// The chat answers only what it reads one way. A message with two plausible
// readings gets an honest refusal naming them, never a guess.

// answeredEach reports whether "how many answered A and B" names two questions
// and no answer: each, both or either could be meant, and the chat counts who
// answered one question.
func (p *parser) answeredEach() bool {
	if !anyWord(p.words, answeredFilled) {
		return false
	}
	named := 0
	for _, score := range p.cf.scores(p.ts, make([]bool, len(p.ts))) {
		if score >= 1 {
			named++
		}
	}
	return named >= 2 && len(p.conds) == 0
}

// oneSidedComparison reports whether a yes/no question compares one group with
// nobody named ("are VIPs happier?", "do berliners work more").
func (p *parser) oneSidedComparison(in *request) bool {
	if !auxiliaries[p.word(0)] || slices.Contains(p.words, "than") || in.groupBy != nil || len(in.compare) > 0 || in.check != nil {
		return false
	}
	if !slices.ContainsFunc(p.conds, func(c cond) bool { return c.q != nil && c.f.Op == query.Equals && len(c.q.options) > 0 }) {
		return false
	}
	for i, w := range p.words {
		if (comparativeWords[w] || moodComparatives[w]) && !p.used[i] {
			return true
		}
	}
	return false
}

// moodComparatives compare how groups feel.
var moodComparatives = text.Set("happier unhappier sadder busier keener")

// vagueVerdict reports whether the message asks how something did or how good
// it is ("how did the keynote do", "how good is the workshop").
func (p *parser) vagueVerdict() bool {
	last := p.word(p.lastWord())
	return p.word(0) == "how" && (p.word(1) == "did" || p.word(1) == "does") && (last == "do" || last == "go") ||
		text.Any(p.words, howGood) ||
		auxiliaries[p.word(0)] && verdictWords[last] && p.numberCount() == 0 // "is work-life balance ok"
}

// verdictWords end a yes/no question asking for a judgement.
var verdictWords = text.Set("ok okay fine good bad alright acceptable healthy")

// moodWithoutMeasure reports whether the message asks how happy people are on a
// form with no satisfaction question and more than one scale ("are people happy
// with us", "which ticket type is happiest"): the rating, recommending and the
// comments' sentiment are all readings.
func (p *parser) moodWithoutMeasure() bool {
	if !anyWord(p.words, happyWords) || slices.ContainsFunc(p.cf.qs, func(q question) bool { return slices.Contains(q.words, "satisfaction") }) {
		return false
	}
	return p.cf.countOfType(form.Rating, form.Slider, form.YesNo) > 1
}

// typicalWords name a middle figure without saying which; namedStats say which.
var (
	typicalWords = text.Set("typical typically")
	namedStats   = text.Set("average avg mean median mode")
)

// twoWayWords are words with two plausible readings, and why: they are never
// read as a typing slip either.
var twoWayWords = map[string]string{
	"media": "“media” could be a slip for the median or the word for the mean (average) in several languages; please say which",
}

// statWords name one statistic each; a message naming two asks for two figures.
var statWords = text.Set("average avg mean median mode sd stdev stddev standard")

// ambiguity returns why the message has more than one plausible reading, or "".
func (p *parser) ambiguity(in *request) string {
	if p.unsure != "" {
		return p.unsure
	}
	for _, w := range p.words {
		if why := twoWayWords[w]; why != "" && !p.cf.formKnown[w] { // "social media" on a form that offers it
			return why
		}
	}
	if anyWord(p.words, typicalWords) && !anyWord(p.cueWords, namedStats) && !text.Any(p.cueWords, mostCommonPhrase) {
		return "“typical” could be the average, the median or the most common answer; please say which"
	}
	if (in.metric == query.Count || in.metric == "") && p.answeredEach() {
		return "it could ask how many answered each question or how many answered both; please say which"
	}
	if p.oneSidedComparison(in) {
		return "it compares one group with no other named; name both, e.g. compare two answers"
	}
	if p.formAnswers && in.metric == query.Percent {
		return "“feedback” could be answering the form or writing a comment; please say which"
	}
	if p.moodWithoutMeasure() {
		return "“happy” could be the rating, whether people would recommend us, or the comments' sentiment; please say which"
	}
	if p.vagueVerdict() {
		return "it asks for a verdict, and I give figures; ask for one, e.g. the average rating or how many chose it"
	}
	if slices.ContainsFunc(p.words, func(w string) bool { return likeWords[w] }) && slices.Contains(p.words, "us") && in.target == nil && (in.groupBy != nil || len(in.compare) > 0) {
		return "“likes us” could be the rating or whether people would recommend us; please say which"
	}
	if text.Any(p.words, whichWay) {
		return "it asks which way a figure is going, and I don't judge that; ask for the figure per month or per week"
	}
	if r := p.beyondFigures(); r != "" {
		return r
	}
	if in.howMany && in.metric == query.Top && slices.Contains(p.words, "both") {
		return "I can't tell which answers “both” means; name them, e.g. how many use both Gym and Training"
	}
	if (numberFigure[in.metric] || in.metric == query.Count) && in.groupBy == nil && p.topAnswersNamed() {
		return "it asks for a figure of the highest or lowest few answers, which I don't compute; ask for the figure of all answers, or for the answers above a number"
	}
	if in.metric != query.List && p.recentSubset() {
		return "it asks for a figure over the latest few responses, and I compute figures over periods; ask for the last 7 days, say"
	}
	if in.metric == query.Words && (in.least || anyWord(p.words, rarestWords)) {
		return "it asks for the least used words, and I give the most used ones"
	}
	if in.metric == query.Words && in.groupBy != nil {
		return fmt.Sprintf("I find the most used words of one group at a time, not for each answer to %s; ask for the words of one answer to it at a time",
			text.Quote(in.groupBy.q.Text))
	}
	if w := p.vagueGroup(in); w != "" {
		return fmt.Sprintf("I can't tell which question of the form “%s” means", w)
	}
	if n := p.statCount(); n > 1 || p.howManyCount() > 1 || p.secondQuestion() {
		return "it asks for more than one figure; please ask for one at a time"
	}
	if c := p.statComparison(); c != "" {
		return fmt.Sprintf("I compare answers with numbers, not with a statistic (“%s”); ask for the figure first, then for the answers above a number", c)
	}
	if i := slices.Index(p.words, "than"); i >= 0 && !p.used[i] && p.word(i-1) != "rather" {
		return fmt.Sprintf("I could not read the comparison “%s”; compare with a number, e.g. “more than 3”", p.phraseAround(i))
	}
	if p.word(0) == "who" && in.groupBy == nil && anyWord(p.words, whoRanks) {
		return "it asks who, and I don't single out respondents; ask for a figure by group instead, e.g. the average by country"
	}
	if c := p.pricedOption(in); c != nil {
		return fmt.Sprintf("the form records what each respondent paid (%s), not a price of %v; ask for the average paid by those who answered %v to %s instead",
			text.Quote(in.target.q.Text), c.f.Value, c.f.Value, text.Quote(c.q.q.Text))
	}
	if w := p.comparativeWithoutFigure(in); w != "" {
		return fmt.Sprintf("I can't tell which question “%s” is measured on; name it, e.g. the average hours", w)
	}
	if in.metric == query.Count && in.target != nil && in.target.q.Type == form.MultiSelect && p.unitsCounted(in.target) && !p.conditioned(in.target) {
		return fmt.Sprintf("I count respondents, not how many answers of %s each chose; ask how many chose one of them, or for the breakdown", text.Quote(in.target.q.Text))
	}
	if w := p.moodCounted(in); w != "" {
		return fmt.Sprintf("I can't tell which answers count as “%s”; ask with a number, e.g. how many answered 4 or more", w)
	}
	if in.metric == query.Count && in.target != nil && !p.conditioned(in.target) && !in.blank && !p.answeringNamed(in.target) {
		return fmt.Sprintf("I can only count who answered %s, and I can't tell that this is what is asked", text.Quote(in.target.q.Text))
	}
	if c, verbOf := p.optionOfOtherVerb(); c != nil {
		return fmt.Sprintf("%v is an answer to %s, and “%s” belongs to %s; the form does not record who %s %v",
			c.f.Value, text.Quote(c.q.q.Text), p.words[verbOf.at], text.Quote(verbOf.q.q.Text), p.words[verbOf.at], c.f.Value)
	}
	if p.crossWith != nil && in.target != p.crossWith {
		return fmt.Sprintf("I break a figure down by one question at a time; ask for it by %s, then by %s", text.Quote(in.groupBy.q.Text), text.Quote(p.crossWith.q.Text))
	}
	if i := p.byWhat(); i >= 0 && in.groupBy == nil {
		return fmt.Sprintf("I can't tell which question “%s” breaks the figure down by; name it, e.g. by %s", p.phraseAround(i+1), text.Quote(p.cf.qs[0].q.Text))
	}
	if c := twoAnswersOfOne(in.conds); c != nil {
		return fmt.Sprintf("it asks for two answers of %s at once, and a respondent gives one; ask for one, for “one or the other”, or for the breakdown", text.Quote(c.q.q.Text))
	}
	if w := p.unreadNegation(in); w != "" {
		return fmt.Sprintf("I read “%s” but could not tie it to an answer, so I won't give the figure without it", w)
	}
	if f := p.unmatchedFrequency(in); f != "" {
		return fmt.Sprintf("“%s” asks how often, and the form does not record how often people do something; I can count responses per day, week or month", f)
	}
	if w := p.unmatchedStat(in); w != "" {
		return fmt.Sprintf("I read “%s” but could not tie it to the figure the rest of the question asks for", w)
	}
	if (in.kind == highestGroup || in.kind == lowestGroup) && in.target != nil && in.groupBy != nil &&
		!p.namedApart(in.target, in.groupBy) && !(in.metric == query.Percent && len(in.conds) > 0) {
		return fmt.Sprintf("“%s” could rank the answers to %s by how often they were chosen or by a figure such as %s; "+
			"please name what to rank by", p.rankWord(), text.Quote(in.groupBy.q.Text), text.Quote(in.target.q.Text))
	}
	return ""
}

// byWhat returns where "by" is followed by a clause rather than a question ("by
// where they're from"), or -1.
func (p *parser) byWhat() int {
	for i, w := range p.words {
		if (w == "by" || w == "per") && i+1 < len(p.own) && !p.own[i+1] && (questionWords[p.word(i+1)] || p.word(i+1) == "where") {
			return i
		}
	}
	return -1
}

// twoAnswersOfOne returns a condition that asks for an answer of a one-answer
// question another condition already fixes differently ("1 star, 2 star … 5
// star ratings" read as all at once), or nil.
func twoAnswersOfOne(conds []cond) *cond {
	for i, a := range conds {
		for _, b := range conds[i+1:] {
			if a.q != nil && a.q == b.q && a.q.q.Type != form.MultiSelect && a.f.Op == query.Equals && b.f.Op == query.Equals && a.f.Value != b.f.Value {
				return &conds[i]
			}
		}
	}
	return nil
}

// unreadNegation returns the negation of a message none of whose conditions
// excludes anything ("how many didn't go to any track" is not how many
// answered), or "". A follow-up's "and those who wouldn't?" turns the previous
// yes around.
func (p *parser) unreadNegation(in *request) string {
	i := -1
	for k, w := range p.words {
		if negators[w] && !p.used[k] {
			i = k // "yes or no" reads its "no"
			break
		}
	}
	switch {
	case i < 0:
		return ""
	case in.check != nil:
		return p.words[i] // "is the average not above 4?"
	case slices.ContainsFunc(in.conds, negative) || in.blank || in.kind != metricIntent && in.groupBy != nil || in.answer == "no",
		in.groupBy != nil && in.groupBy.q.Type == form.YesNo: // "remote and non-remote staff" sets no against yes
		return ""
	}
	return p.words[i]
}

// negative reports whether c excludes answers: another answer, a blank, a no.
func negative(c cond) bool {
	switch c.f.Op {
	case query.NotEquals, query.IsEmpty, query.LT, query.LTE:
		return true
	}
	v, ok := c.f.Value.(bool)
	return ok && !v
}

// answeringNamed reports whether a count of the responses that answered q is
// what the message asks: it says answering ("how many answered", "filled in",
// "rated") or names q by a plural of its own words or a quote ("how many
// comments", "how many ratings").
func (p *parser) answeringNamed(q *question) bool {
	fillersOnly := true // "how many responses overall": every response, whatever “Overall rating” says
	for _, t := range p.ts {
		if t.stem != "" && slices.Contains(q.stems, t.stem) && !fillerWords[t.low] {
			fillersOnly = false
		}
	}
	if fillersOnly {
		return true
	}
	for i, t := range p.ts {
		if answeringWords[t.low] || t.quoted {
			return true
		}
		if strings.HasSuffix(t.low, "s") && t.stem != "" && slices.Contains(q.stems, t.stem) && !p.own[i] {
			return true
		}
	}
	return false
}

// answeringWords say that a question was answered.
var answeringWords = text.Set("answered answer answers answering responded replied filled completed skipped gave given provided " +
	"wrote written entered submitted rated rate rating ratings said commented comments comment chose picked selected ticked checked paid spent bought")

// moodCounted returns the mood word of a count of respondents by how they feel
// ("how many people are satisfied", "how many customers like us") when no
// number says which answers that is, or "".
func (p *parser) moodCounted(in *request) string {
	if in.metric != query.Count || in.target != nil && p.conditioned(in.target) {
		return ""
	}
	for i, w := range p.words {
		switch {
		case likeWords[w] && p.word(i+1) == "us":
			return w + " us"
		case moodWords[w] && in.target != nil:
			return w
		}
	}
	return ""
}

// moodWords say how respondents feel; likeWords with "us" do too.
var (
	moodWords = text.Set("satisfied dissatisfied unsatisfied content")
	likeWords = text.Set("like likes liked love loves loved")
)

// verbAt is a verb of the message at position at, from the text of question q.
type verbAt struct {
	q  *question
	at int
}

// optionOfOtherVerb returns an option the message names as the object of a verb
// of another choice question's text ("attended the workshop": Workshop answers
// “Which session did you enjoy most?”, "attend" is “Which tracks did you
// attend?”), with that verb; nil when there is none.
func (p *parser) optionOfOtherVerb() (*cond, verbAt) {
	for i := range p.conds {
		c := &p.conds[i]
		if !isOptionCond(*c) {
			continue
		}
		k := c.pos - 1
		for k > 0 && articles[p.words[k]] {
			k--
		}
		if k < 0 || p.ts[k].stem == "" || slices.Contains(c.q.stems, p.ts[k].stem) {
			continue
		}
		for qi := range p.cf.qs {
			other := &p.cf.qs[qi]
			if other != c.q && len(other.options) > 0 && other.q.Type != form.YesNo && slices.Contains(other.stems, p.ts[k].stem) {
				return c, verbAt{q: other, at: k}
			}
		}
	}
	return nil, verbAt{}
}

// articles stand between a verb and its object.
var articles = text.Set("the a an")

// unmatchedFrequency returns a frequency the message names ("come in every day")
// that no question's text holds, when the request is not responses per period;
// else "".
func (p *parser) unmatchedFrequency(in *request) string {
	if in.metric == query.Trend || in.kind == busiestPeriod {
		return ""
	}
	for _, ph := range frequencies {
		i := ph.Index(p.cueWords)
		if i < 0 {
			continue
		}
		f := strings.Join(p.words[i:i+len(ph)], " ")
		if in.target != nil && strings.Contains(strings.ToLower(in.target.q.Text), frequencyUnit(f)) {
			return "" // "standard deviation of hours worked weekly": the question's own unit
		}
		return f
	}
	return ""
}

// frequencyUnit returns the period of a frequency ("every day", "weekly": "day",
// "week").
func frequencyUnit(f string) string {
	if u, ok := periodAdjectives[f]; ok {
		return u
	}
	return f[strings.LastIndex(f, " ")+1:]
}

// frequencies say how often something happens.
var frequencies = phrases("every day", "each day", "every week", "each week", "every month", "each month", "daily", "weekly", "monthly")

// statCount counts the statistic words of the message ("average rating and
// average cups" names two).
func (p *parser) statCount() int {
	n := 0
	for i, w := range p.words {
		if statWords[w] && p.cueWords[i] != "" {
			n++
		}
		if w == "most" && commonWords[p.word(i+1)] && p.cueWords[i] != "" {
			n++ // "the most common rating, and the median" asks for two figures
		}
	}
	return n
}

// howManyCount counts the "how many" of the message: "how many drink tea and how
// many drink latte" asks for two figures.
func (p *parser) howManyCount() int {
	n := 0
	for i := range p.words {
		if howMany.At(p.words, i) {
			n++
		}
	}
	return n
}

// secondQuestion reports whether the message asks a second question after a
// first one: "what's the average rating and how many VIP tickets were sold?".
func (p *parser) secondQuestion() bool {
	for i, w := range p.words {
		next := i + 1
		if w == "?" && (p.word(next) == "and" || p.word(next) == "also") {
			next++
		}
		if w == "?" && next < len(p.words) && questionWords[p.word(next)] {
			return true // "how many use the gym? also which office is happiest?"
		}
		if w == "," && p.word(i+1) == "and" && auxiliaries[p.word(i+2)] {
			return true // "what's the most common drink, and do people add sugar to it"
		}
		k := i + 1
		for k < len(p.words) && k <= i+2 && secondFigureLead[p.words[k]] {
			k++ // "and the", "and their", "and what's the"
		}
		figureAfter := figureNouns[p.word(i+1)] && p.word(i+2) == "of" || k > i+1 && (figureNouns[p.word(k)] || p.word(k-1) == "the" && extremeWords[p.word(k)] && p.word(k+1) != "of")
		// "and (the) number of …", "and their avg …", "and the most popular drink"
		asked := (w == "and" || w == "also") && (questionWords[p.word(i+1)] || figureAfter) ||
			(w == "+" || w == "plus") && (questionWords[p.word(i+1)] || figureAfter || figureNouns[p.word(i+1)]) // "mean ticket price + number of early birds"
		if asked && i > 0 && slices.ContainsFunc(p.cueWords[:i], func(c string) bool { return statCueWords[c] }) {
			return true // "average satisfaction in September and the number of remote workers in October"
		}
	}
	return false
}

// figureNouns name a figure after "and the".
var figureNouns = text.Set("number count average avg mean median total percentage share sum")

// extremeWords open a figure after "and the" ("and the most popular drink").
var extremeWords = text.Set("most least highest lowest top max min maximum minimum best worst")

// secondFigureLead may stand between "and" and the figure of a second question.
var secondFigureLead = text.Set("the their its what whats is are was were")

// questionWords start a question.
var questionWords = text.Set("how what whats which who when")

// commonWords follow "most" in a question for the mode.
var commonWords = text.Set("common frequent popular")

// namedApart reports whether some word of the message names target and not
// group: "which ticket is best" names only the ticket, so "best" has no figure.
func (p *parser) namedApart(target, group *question) bool {
	for _, t := range p.ts {
		if t.stem != "" && slices.Contains(target.stems, t.stem) && !slices.Contains(group.stems, t.stem) {
			return true
		}
	}
	return false
}

// rankWord returns the ranking word of the message.
func (p *parser) rankWord() string {
	for _, w := range p.words {
		if rankWords[w] || w == "most" || w == "least" {
			return w
		}
	}
	return "best"
}

// cannotChoose refuses a message with two readings, naming them.
func (s *session) cannotChoose(in *request) string {
	var b strings.Builder
	b.WriteString("I can't answer that exactly: " + in.ambiguous + ".")
	s.suggest(&b)
	return b.String()
}

// monthWithoutYear returns a month the message names when it names no year, or "".
func (p *parser) monthWithoutYear() string {
	month := ""
	for _, w := range p.words {
		if yearOf(w) > 0 || w == "year" {
			return ""
		}
		if months[w] != 0 && month == "" {
			month = w
		}
	}
	return month
}

// comparedWords compare answers with something; statistics are not such a thing.
var comparedWords = text.Set("than above below over under")

// statComparison returns the statistic an answer is compared with ("more hours
// than average"), or "": the chat compares answers with numbers only.
func (p *parser) statComparison() string {
	for i, w := range p.words {
		if !comparedWords[w] {
			continue
		}
		next := p.word(i + 1)
		if next == "the" || next == "an" {
			next = p.word(i + 2)
		}
		if statWords[next] || next == "typical" || next == "normal" {
			return w + " " + next
		}
	}
	return ""
}

// metricWords are the statistic words a reply must match: a message saying
// "median" is not answered with an average.
var metricWords = map[string][]query.Metric{
	"average": {query.Mean}, "avg": {query.Mean}, "mean": {query.Mean},
	"median": {query.Median},
	"mode":   {query.Mode, query.Top},
	"sd":     {query.StdDev}, "stdev": {query.StdDev}, "stddev": {query.StdDev}, "standard": {query.StdDev},
}

// unmatchedStat returns a statistic word of the message the request's metric
// does not compute, or "".
func (p *parser) unmatchedStat(in *request) string {
	for i, w := range p.words {
		ms, ok := metricWords[w]
		if !ok || p.cueWords[i] == "" {
			continue
		}
		if !slices.Contains(ms, in.metric) && !(w == "median" && in.metric == query.Percentile) && !meanTrend(in, ms) {
			return w
		}
	}
	return ""
}

// meanTrend reports whether a statistic word asking for the mean is answered by
// the trend of a numeric question, which is its mean per period ("how has the
// average rating changed").
func meanTrend(in *request, ms []query.Metric) bool {
	return ms[0] == query.Mean && in.metric == query.Trend && in.target != nil && isNumeric(in.target.q)
}

// beyondFigures returns why the message asks for something no figure of the
// answers is — a cause, a response rate, a time of day, one respondent — or "".
func (p *parser) beyondFigures() string {
	switch {
	case slices.Contains(p.words, "why"):
		return "it asks why, and I only compute figures from the answers; they don't say what caused them"
	case text.Any(p.words, responseRate):
		return "a response rate needs the number of people invited, which the form does not know; I can give the completion rate (completed ÷ started sessions) if you ask for it"
	case p.inLanguage():
		return "it asks about the language people answered in, and the form does not record it"
	case p.quantityOfAnswer():
		return "it asks for an amount of one answer (“lattes”, “hours of training”), and the form records the amounts of a question, not of each answer"
	case p.outOfPeople() != "":
		return fmt.Sprintf("“%s” reads as a share of people or as a percentile; ask for the share who gave an answer, or for a percentile such as the 90th", p.outOfPeople())
	case text.Any(p.cueWords, takings) && p.cf.countOfType(form.Currency) == 0:
		return "it asks for money taken in, and the form records no amounts of money"
	case text.Any(p.words, notAsked):
		return "the form does not ask that (complaints, full price, tickets sold, part time)"
	case text.Any(p.words, eventDays) && !anyWord(p.words, submissionWords):
		return "the form does not record which day of the event people came; I can group responses by the day they were submitted"
	case p.otherSurvey():
		return "it compares with another survey, and I only have this form's responses"
	case anyWord(p.words, spellingWords):
		return "it asks about spelling, and I don't check the answers' spelling"
	case text.Any(p.words, monthOfYear) && p.cf.firstOfType(form.Date) != nil:
		return "it asks for the month of the year of a date answer, and I don't group a date question's answers by month"
	case p.orAcrossQuestions():
		return "it asks for one answer or another to two different questions, which I don't combine; ask for each"
	case text.Any(p.words, changedAnswer):
		return "it asks how people's answers changed, and each response holds one answer per question"
	case text.Any(p.words, hypothetical) || text.Any(p.words, wishes):
		return "it asks what someone would answer, and I don't predict answers; I can give the figures of the people who answered"
	case text.Any(p.words, togetherPhrases):
		return "it asks which answers were chosen together, and I don't count combinations; ask how many chose both of two answers"
	case p.singleAnswerAsked():
		return "it asks for one respondent's answer, and I don't single out answers; I can give the sentiment of all of them"
	case p.wentToOption():
		return "the form asks which session people enjoyed most, not who went to it"
	case slices.Contains(p.words, "ratio") && !p.rate || p.forEveryOne():
		return "it asks for a ratio, which I don't compute; ask for the count of each answer, or for a percentage"
	case p.perHead():
		return "it asks for a figure per person or per attendance, which I don't compute; ask for the average or the total"
	case anyWord(p.words, growWords):
		return "it asks how much a figure grew, which I don't compute; ask for the figure per month or per week"
	case p.differenceAsked() || p.rangeAsked():
		return "it asks for a difference between two figures, which I don't compute; ask for each figure"
	case text.Any(p.words, answerLength):
		return "it asks how long the written answers are, and I don't measure that; I can give the most used words"
	case p.shareOfAmount():
		return "it asks for a share of a total amount, and I give shares of responses; ask for the total by group instead"
	case p.personalIncome():
		return "it asks what people earn, and the form does not ask that"
	case p.leftSince():
		return "it asks who has left since, and the form only records the answers people gave"
	case p.earlierEdition():
		return "it asks about an earlier edition, and I only have this form's responses"
	case p.twoPeriodsCompared():
		return "it compares two periods, and I give one figure per question; ask for each period, or for a trend by month"
	case text.Any(p.words, forecastWords) || p.willChange():
		return "it asks about responses to come, and I only have the responses up to today; I don't forecast"
	case p.otherCurrency() != "":
		return fmt.Sprintf("the form records amounts in %s, and I don't convert them to %s", p.cf.currencies, p.otherCurrency())
	case text.Any(p.words, netPromoter):
		return "I don't compute Net Promoter categories (promoters, passives, detractors) or the score; ask for the share who answered 9 or more instead"
	case text.Any(p.words, howOften) && anyWord(p.words, visitVerbs):
		return "it asks how often people come, and the form does not record visits"
	case text.Any(p.words, fillingTime):
		return "the form does not record how long people took to fill it in"
	case text.Any(p.words, timeOfDay):
		return "I group responses by day, week or month, not by time of day or day of the week"
	case p.ageAsked():
		return "it reads like an age, and the form does not ask people's age"
	case p.nonRespondents():
		return "it asks about people who did not respond, and I only have the responses"
	case p.singledOut() || p.oneWriter() || p.whoIsThat():
		return "it asks about one respondent, and I don't single out respondents; ask for a figure over a group instead, such as the highest or the average answer of the people who chose one option"
	}
	return ""
}

// topAnswersNamed reports whether the message names the few highest or lowest
// answers ("the top 3 ratings", "the 5 lowest prices").
func (p *parser) topAnswersNamed() bool {
	for i, t := range p.ts {
		if t.isNum && (leadRanks[p.word(i-1)] || p.word(i-1) == "top" || p.word(i-1) == "bottom") ||
			t.isNum && rankWords[p.word(i+1)] ||
			t.isNum && peopleNouns[p.word(i+1)] && text.Any(p.words[i:], theExtremes) {
			return true // "the top 3 ratings", "the 10 people working the most"
		}
	}
	return false
}

// recentSubset reports whether the message names a number of latest (or
// earliest) responses ("the 10 most recent responses", "the last 20 answers").
func (p *parser) recentSubset() bool {
	for i, t := range p.ts {
		if !t.isNum {
			continue
		}
		before, after := p.word(i-1), p.word(i+1)
		if (before == "last" || before == "latest" || before == "first") && submissionWords[after] ||
			recentWords[after] || after == "most" && recentWords[p.word(i+2)] {
			return true
		}
	}
	return false
}

// recentWords after a number name the latest or earliest responses.
var recentWords = text.Set("recent latest newest oldest earliest")

// perHead reports whether the message asks for a figure per head ("euros per
// track attendance", "per capita").
func (p *parser) perHead() bool {
	for i, w := range p.words {
		if w == "per" && (headWords[p.word(i+1)] || headWords[p.word(i+2)]) {
			return true
		}
	}
	return false
}

// headWords after "per" count people or visits, not answers.
var headWords = text.Set("capita head attendance attendances visit visits")

// inLanguage reports whether the message names a language after "in" ("filled in
// the survey in german"): tokenize leaves those demonyms as they are.
func (p *parser) inLanguage() bool {
	for i, w := range p.words {
		if languageNames[w] && p.word(i-1) == "in" {
			return true
		}
	}
	return false
}

// quantityOfAnswer reports whether the message asks for an amount of one answer
// of a choice question ("how many lattes does the average person drink", "how
// many hours of training"): the unit of a numeric question, of an option.
func (p *parser) quantityOfAnswer() bool {
	at := howMany.Index(p.words)
	if at < 0 {
		return false
	}
	k := at + 2
	for _, c := range p.conds {
		if c.q == nil || len(c.q.options) == 0 || c.q.q.Type == form.YesNo {
			continue
		}
		if c.pos == k && strings.HasSuffix(p.word(k), "s") && text.Any(p.words, onePersonPhrases) {
			return true // "how many lattes does the average person drink"
		}
		if c.pos == k+2 && p.word(k+1) == "of" && p.ts[k].stem != "" && p.cf.amountStem(p.ts[k].stem) {
			return true // "how many hours of training"
		}
	}
	return false
}

// notAsked name things people ask about that the forms do not record.
var notAsked = phrases("complained", "complain", "complaining", "full price", "discount", "discounted", "tickets did we sell",
	"tickets we sold", "tickets sold", "part time", "parttime", "full time", "fulltime")

// eventDays name a day of what the form is about, not of the responses.
var eventDays = phrases("day of the conference", "day of the event", "conference day", "event day", "which day of")

// otherSurvey reports whether the message compares with a survey other than this
// one ("compare with the coffee survey ratings" on the conference form).
func (p *parser) otherSurvey() bool {
	if !anyWord(p.words, comparingWords) {
		return false
	}
	for i, w := range p.words {
		if (w == "survey" || w == "surveys") && i > 0 && p.ts[i-1].stem != "" && !slices.Contains(p.cf.titleStems, p.ts[i-1].stem) &&
			!determiners[p.words[i-1]] && !p.cf.namesAQuestion(p.ts[i-1].stem) {
			return true
		}
	}
	return false
}

// spellingWords ask about how answers are spelled.
var spellingWords = text.Set("typo typos misspelled misspelling misspellings spelling grammar")

// orAcrossQuestions reports whether "or" joins answers of two different
// questions ("how many either gave us 5 stars or would recommend us").
func (p *parser) orAcrossQuestions() bool {
	for i, w := range p.words {
		if w != "or" {
			continue
		}
		before := slices.IndexFunc(p.conds, func(c cond) bool { return c.q != nil && c.pos < i && c.pos >= i-6 })
		after := slices.IndexFunc(p.conds, func(c cond) bool { return c.q != nil && c.pos > i && c.pos <= i+6 })
		if before >= 0 && after >= 0 && p.conds[before].q != p.conds[after].q && slices.Contains(p.words[:i], "either") {
			return true
		}
	}
	return false
}

// hypothetical asks what someone would answer.
var hypothetical = phrases("would have", "would someone", "would somebody", "would a customer", "would an employee", "would an attendee", "would a person",
	"would a new", "would the next")

// changedAnswer asks how a respondent's answer changed.
var changedAnswer = phrases("changed their", "change their", "switched their", "switch their", "changed his", "changed her")

// wishes ask what people would like that the form does not ask.
var wishes = phrases("like us to", "want us to", "wish we", "would like to see", "would people like", "should we add")

// togetherPhrases ask which answers go together.
var togetherPhrases = phrases("attended together", "chosen together", "picked together", "selected together", "used together", "together most often",
	"most often together", "combination", "combinations", "pair of", "pairs of")

// oneAnswerPhrases ask for one written answer.
var oneAnswerPhrases = phrases("most positive one", "most negative one", "most positive answer", "most negative answer",
	"most positive comment", "most negative comment", "happiest comment", "angriest comment")

// singleAnswerAsked reports whether the message asks for the one most positive
// (or negative) written answer ("which answer is the most positive one").
func (p *parser) singleAnswerAsked() bool {
	return text.Any(p.words, oneAnswerPhrases)
}

// wentToOption reports whether the message asks who went to an answer of a
// question that records a preference ("how many went to the workshop" on
// “Which session did you enjoy most?”).
func (p *parser) wentToOption() bool {
	for i, w := range p.words {
		if !wentWords[w] {
			continue
		}
		for _, c := range p.conds {
			if c.q != nil && c.pos > i && c.pos <= i+3 && slices.Contains(c.q.words, "enjoy") {
				return true
			}
		}
	}
	return false
}

// wentWords say someone went somewhere.
var wentWords = text.Set("went go goes visited visit visits came come")

// whoIsThat reports whether the message asks who gave the previous figure ("who
// paid that", "who's that", "who is this person").
func (p *parser) whoIsThat() bool {
	last := p.lastWord()
	return p.word(0) == "who" && (itWords[p.word(last)] || singlePerson[p.word(last)] && (itWords[p.word(last-1)] || p.word(last-1) == "this"))
}

// oneWriter reports whether the message asks what one respondent wrote ("what
// did the spanish tea drinker write").
func (p *parser) oneWriter() bool {
	if !anyWord(p.words, writeWords) {
		return false
	}
	for i, w := range p.words {
		if onePerson[w] && slices.Contains(p.words[max(0, i-3):i], "the") {
			return true
		}
		if w == "who" && p.word(i-2) == "the" && !strings.HasSuffix(p.word(i-1), "s") {
			return true // "what did the VIP who gave 1 star write"
		}
	}
	return false
}

// growWords ask how much a figure grew.
var growWords = text.Set("grow grew grown growth growing")

// forEveryOne reports whether the message asks how many of one kind there are
// for every one of another ("for every person who wouldn't recommend us, how
// many would"): a ratio. "For each country" is a breakdown.
func (p *parser) forEveryOne() bool {
	for i, w := range p.words {
		if (w == "every" || w == "each") && p.word(i-1) == "for" && singlePerson[p.word(i+1)] {
			return true
		}
	}
	return false
}

// singlePerson name one respondent.
var singlePerson = text.Set("person one respondent customer employee attendee guest user")

// rangeAsked reports whether the message asks for the difference between the
// highest and the lowest answer ("the difference between the longest and
// shortest working week", "the spread between the best and worst rating").
func (p *parser) rangeAsked() bool {
	i := slices.IndexFunc(p.words, func(w string) bool { return w == "difference" || w == "spread" || w == "gap" })
	if i < 0 {
		return false
	}
	for _, w := range p.words[i:] {
		if extremeNames[w] {
			return true
		}
	}
	return false
}

// extremeNames name the highest or lowest answer.
var extremeNames = text.Set("longest shortest highest lowest best worst max min maximum minimum biggest smallest largest")

// differenceAsked reports whether the message asks how many more (or fewer) of
// one thing than of another ("how many more people attended engineering than
// design", "how many percent more latte drinkers than tea drinkers"), not how many gave more than a number ("how many more than 3"), or
// asks for the difference itself ("what's the difference between the average
// rating in germany and in france", "how big is the gap between …"), not whether
// there is one.
func (p *parser) differenceAsked() bool {
	for i, w := range p.words {
		if (w == "difference" || w == "gap") && p.word(i-1) == "the" && anyWord(p.words[max(0, i-4):i], sizeAsks) {
			return true
		}
	}
	for i := 0; i+2 < len(p.words); i++ {
		if (p.words[i] == "many" || p.words[i] == "much" || p.words[i] == "percent" || p.words[i] == "%") && (p.words[i+1] == "more" || p.words[i+1] == "fewer" || p.words[i+1] == "less") &&
			p.words[i+2] != "than" && slices.Contains(p.words[i+2:], "than") {
			return true
		}
	}
	return false
}

// sizeAsks ask how large something is.
var sizeAsks = text.Set("what big large much wide")

// answerLength asks how long the written answers are.
var answerLength = phrases("how many words", "number of words", "word count", "longest comment", "longest answer", "longest response",
	"shortest comment", "shortest answer", "shortest response", "how long are the comments", "how long are the answers")

// shareOfAmount reports whether the message asks for a share of a total amount
// ("what percent of total ticket revenue came from vip", "what fraction of all
// the cups per day comes from germans"), not a share of the responses.
func (p *parser) shareOfAmount() bool {
	for i, w := range p.words {
		if !partWords[w] || p.word(i+1) != "of" {
			continue
		}
		k := i + 2
		for amountLeads[p.word(k)] {
			k++
		}
		if k == i+2 || k >= len(p.ts) {
			continue // "% of germans": a share of the responses
		}
		if takingsAt(p.words, k) || p.ts[k].stem != "" && p.cf.amountStem(p.ts[k].stem) {
			return true
		}
	}
	return false
}

// takingsAt reports whether a word of takings stands at k or right after.
func takingsAt(words []string, k int) bool {
	return k < len(words) && (text.Any(words[k:min(k+3, len(words))], takings))
}

// partWords ask for a part of a whole; amountLeads stand between "of" and the
// amount ("of all the", "of the total").
var (
	partWords   = text.Set("percent percentage % share fraction proportion part portion")
	amountLeads = text.Set("all the total")
)

// amountStem reports whether stem is a word of a number or currency question,
// whose answers add up to an amount.
func (cf *formIndex) amountStem(stem string) bool {
	for _, q := range cf.qs {
		if (q.q.Type == form.Number || q.q.Type == form.Currency) && slices.Contains(q.stems, stem) {
			return true
		}
	}
	return false
}

// personalIncome reports whether the message asks what the respondents earn
// ("avg attendee income"), not what the form's amounts bring in.
func (p *parser) personalIncome() bool {
	for i, w := range p.words {
		if !incomeWords[w] {
			continue
		}
		for k := max(0, i-2); k < i+3 && k < len(p.words); k++ {
			if k != i && personWords[p.words[k]] {
				return true
			}
		}
	}
	return false
}

// incomeWords name what a person earns; personWords the people who would.
var (
	incomeWords = text.Set("income incomes earn earns earning earnings wage wages")
	personWords = text.Set("attendee attendees employee employees customer customers staff people person respondent respondents worker workers they their guests guest")
)

// leftSince reports whether the message asks who left (the company, the
// service) rather than who left an answer ("how many of them have left since?").
func (p *parser) leftSince() bool {
	for i, w := range p.words {
		next := p.word(i + 1)
		if w == "left" && peopleNouns[p.word(i-1)] && leftWhen[next] {
			return true // "how many people left during the keynote"
		}
		if w != "left" || !perfectAux[p.word(i-1)] && p.word(i-1) != "who" {
			continue
		}
		if next == "us" && p.word(i+2) != "" && p.word(i+2) != "?" && !leftObjects[p.word(i+2)] {
			continue // "who left us a comment"
		}
		if next == "the" || next == "our" {
			next = p.word(i + 2)
		}
		if next == "" || next == "?" || leftObjects[next] {
			return true
		}
	}
	return false
}

// leftObjects after "have left" say what was left: not an answer.
var leftObjects = text.Set("since already yet us company job firm team")

// leftWhen after "people left" say when they went away.
var leftWhen = text.Set("during early halfway before")

// earlierEdition reports whether the message names an earlier edition of what
// the form asks about ("last year's conference", "the edition of last year"),
// not the responses submitted last year.
func (p *parser) earlierEdition() bool {
	for i := 1; i < len(p.words); i++ {
		if !earlierEditionWords[p.words[i-1]] || p.words[i] != "year" && p.words[i] != "years" {
			continue
		}
		if editionNouns[p.word(i+1)] || subjectNouns[p.word(i+1)] || i >= 3 && p.words[i-2] == "of" && editionNouns[p.words[i-3]] {
			return true
		}
	}
	return false
}

// earlierEditionWords before "year" name the year before this one.
var earlierEditionWords = text.Set("last previous prior")

// editionNouns name one run of what a form asks about.
var editionNouns = text.Set("edition editions survey one version round")

// vagueGroup returns the group word of "which team", "which 2 teams", "by
// team", "across our locations" when the message names no group the chat
// reads, or "".
func (p *parser) vagueGroup(in *request) string {
	for i, w := range p.words {
		k := i + 1
		for k < len(p.ts) && (p.ts[k].isNum || vagueGroupDeterminers[p.words[k]]) {
			k++ // "which 2 teams", "across our locations"
		}
		if !groupFillers[p.word(k)] || p.word(k+1) == "of" {
			continue
		}
		if w == "which" && !p.whichNames(p.word(k)) || groupWords[w] && len(in.compare) == 0 && !namedBy(in.groupBy, p.word(k)) && !namedBy(p.crossWith, p.word(k)) {
			return p.word(k) // "which team works the longest hours": not “Do you work remotely?”, which “works” names
		}
	}
	return ""
}

// outOfPeople returns "N out of M people" when the message has it, or "".
func (p *parser) outOfPeople() string {
	for i := 0; i+4 < len(p.ts); i++ {
		if p.ts[i].isNum && p.words[i+1] == "out" && p.words[i+2] == "of" && p.ts[i+3].isNum && (peopleNouns[p.words[i+4]] || singlePerson[p.words[i+4]]) {
			return strings.Join(p.words[i:i+5], " ")
		}
	}
	return ""
}

// namedBy reports whether q is a question and w one of its words.
func namedBy(q *question, w string) bool {
	return q != nil && slices.Contains(q.words, w)
}

// whichNames reports whether the question "which" asks about is named by w.
func (p *parser) whichNames(w string) bool {
	return namedBy(p.whichGroup(), w)
}

// vagueGroupDeterminers may stand between "which" or "by" and a group word.
var vagueGroupDeterminers = text.Set("the our all different each every")

var (
	// responseRate names a share of the people invited.
	responseRate = phrases("response rate", "responses rate", "participation rate", "respond rate", "return rate")
	// forecastWords ask about responses to come.
	forecastWords = phrases("will we", "we will get", "we will have", "we will receive", "will sell", "will buy", "will be sold", "will there be", "will it be",
		"are we going to", "going to get", "do we expect", "do you think we", "you think we", "should we expect", "can we expect", "forecast", "predict", "projected",
		"prediction", "predicted", "projection", "guess", "extrapolate")
	// netPromoter names the Net Promoter Score and its categories.
	netPromoter = phrases("nps", "net promoter", "promoter", "promoters", "detractor", "detractors", "passives")
	// visitVerbs after "how often" ask how often people visit.
	visitVerbs = text.Set("come comes visit visits drop stop attend attends")
	// fillingTime asks how long filling in the form took.
	fillingTime = phrases("time spent", "spent time", "time people spent", "time people spend", "how much time", "time to complete", "time to fill", "time it took", "time they took",
		"completion time", "time taken", "duration", "took to fill", "take to fill", "took to complete", "take to complete")
	// timeOfDay names periods the chat does not group by.
	timeOfDay = phrases("time of day", "time of the day", "what time", "which time", "what hour", "which hour",
		"hour of the day", "hours of the day", "weekend", "weekends", "weekday", "weekdays", "day of the week", "days of the week", "day of week", "days of week",
		"working hours", "business hours", "office hours", "during work")
)

// pricedOption returns the condition of "how much did the panel session cost":
// an answer of a question unrelated to the currency question named right before
// "cost", as if it had a price of its own; nil otherwise ("how much did VIP
// tickets cost" asks about the ticket the respondents paid for).
func (p *parser) pricedOption(in *request) *cond {
	i := slices.IndexFunc(p.words, func(w string) bool { return w == "cost" || w == "costs" })
	if i < 0 || in.target == nil || in.target.q.Type != form.Currency {
		return nil
	}
	for k := range p.conds {
		c := &p.conds[k]
		if isOptionCond(*c) && c.pos < i && c.pos >= i-3 && !sharesStem(c.q, in.target) {
			return c
		}
	}
	return nil
}

// sharesStem reports whether the texts of a and b have a content word in common.
func sharesStem(a, b *question) bool {
	return slices.ContainsFunc(a.stems, func(s string) bool { return slices.Contains(b.stems, s) })
}

// twoPeriodsCompared reports whether the message names two months and compares
// them ("compare the average rating in september with october", "did ratings go
// up from august to september?").
func (p *parser) twoPeriodsCompared() bool {
	n := 0
	for _, w := range p.words {
		if months[w] != 0 && w != "may" {
			n++
		}
	}
	return n >= 2 && (anyWord(p.words, periodCompareWords) && !p.monthRange() || text.Any(p.words, periodChangePhrases))
}

// monthRange reports whether the message's months make one range ("from august
// to october", "between august and october").
func (p *parser) monthRange() bool {
	for i, w := range p.words {
		if months[w] != 0 && (p.word(i-1) == "from" || p.word(i-1) == "between") && (rangeJoins[p.word(i+1)] || p.word(i+1) == "and") {
			return true
		}
	}
	return false
}

var (
	// periodCompareWords set one period against another.
	periodCompareWords = text.Set("compare compared comparison vs versus than difference differ")
	// periodChangePhrases ask whether a figure moved up or down between periods
	// ("how did it change from April to May" is a trend over them).
	periodChangePhrases = phrases("percent change", "percentage change", "% change", "growth", "grew", "go up", "went up", "go down", "went down", "increase", "increased", "decrease",
		"decreased", "improve", "improved", "drop", "dropped", "rise", "rose", "fall", "fell")
)

// groupFillers name groups in general; after "which" they must name a question.
var groupFillers = text.Set("team teams group groups category categories kind type location locations site sites place places area areas region regions branch branches segment segments")

// ageAsked reports whether the message puts a number after "people over",
// "staff under", "customers aged": an age ("ppl over 40").
func (p *parser) ageAsked() bool {
	for i, t := range p.ts {
		if !t.isNum || i < 2 {
			continue
		}
		if ageComparisons[p.word(i-1)] && (peopleNouns[p.word(i-2)] || groupNouns[p.word(i-2)]) && !p.numericUnit(i+1) {
			return true
		}
	}
	return slices.Contains(p.words, "aged")
}

// numericUnit reports whether the word at i is a word of a numeric question's
// text and not "years old": "people over 10 years at the company" counts years
// of “Years at the company”.
func (p *parser) numericUnit(i int) bool {
	if i >= len(p.ts) || p.ts[i].stem == "" || p.word(i+1) == "old" {
		return false
	}
	for _, q := range p.cf.qs {
		if isNumeric(q.q) && slices.Contains(q.stems, p.ts[i].stem) {
			return true
		}
	}
	return false
}

// ageComparisons put an age after a people noun.
var ageComparisons = text.Set("over under above below older younger aged")

// comparativeWithoutFigure returns the comparative of a comparison of groups that
// names no figure ("do support ppl work longer than engineers"), or "": only "more"
// and "fewer" compare how many.
func (p *parser) comparativeWithoutFigure(in *request) string {
	if len(in.compare) == 0 || in.target != nil && isNumeric(in.target.q) {
		return ""
	}
	for _, w := range p.words {
		if measureComparatives[w] {
			return w
		}
	}
	return ""
}

// measureComparatives compare a figure, not a number of people.
var measureComparatives = text.Set("longer shorter higher lower happier better worse older younger bigger smaller")

// willChange reports whether the message asks what a figure will be or do:
// "will the recommend rate go up", "what will next year's rating be".
func (p *parser) willChange() bool {
	i := slices.Index(p.words, "will")
	if i < 0 {
		return false
	}
	for _, w := range p.words[i+1:] {
		if futureChange[w] {
			return true
		}
	}
	return false
}

// futureChange are the verbs of a figure's future after "will".
var futureChange = text.Set("be become go rise drop fall increase decrease improve grow change leave quit stay join churn")

// currencyWords name a currency by its code.
var currencyWords = map[string]string{"usd": "USD", "dollar": "USD", "dollars": "USD", "$": "USD",
	"eur": "EUR", "euro": "EUR", "euros": "EUR", "€": "EUR", "gbp": "GBP", "pound": "GBP", "pounds": "GBP", "£": "GBP"}

// otherCurrency returns a currency the message names that no currency question
// of the form records ("avg ticket price in usd" on a form in EUR), or "".
func (p *parser) otherCurrency() string {
	if p.cf.currencies == "" {
		return ""
	}
	for _, w := range p.words {
		if code, ok := currencyWords[w]; ok && !strings.Contains(p.cf.currencies, code) {
			return code
		}
	}
	return ""
}

// nonRespondents reports whether the message asks about people who did not fill
// in the form ("how many ticket buyers didn't fill in the survey").
func (p *parser) nonRespondents() bool {
	for i, w := range p.words {
		negated := i >= 1 && negators[p.words[i-1]] || i >= 2 && negators[p.words[i-2]]
		if fillVerbs[w] && negated && slices.ContainsFunc(p.words[i+1:min(i+5, len(p.words))], func(w string) bool { return formWords[w] }) {
			return true
		}
	}
	return false
}

// singledOut reports whether the message asks about the respondents at the top
// or bottom of a ranking: "the employee with the most hours".
func (p *parser) singledOut() bool {
	if p.word(0) == "which" && (onePerson[p.word(1)] && anyWord(p.words, whoRanks) || personNouns[p.word(1)] && !onePerson[p.word(1)] && !oneWords[p.word(1)]) {
		return true // "which customer drinks the most cups", "which employees in finance gave satisfaction 1"
	}
	for i, w := range p.words {
		if w == "with" && p.word(i+1) == "the" && whoRanks[p.word(i+2)] && personNouns[p.word(i-1)] {
			return true
		}
		if onePerson[w] && clauseWords[p.word(i+1)] && !manyPersons[p.word(i-1)] && !manyPersons[p.word(i-2)] {
			return true // "the person from Finance who started in March 2020", "the finance person with 11 years", "hrs of person who answered #17"
		}
		if onePerson[w] && (p.word(i+1) == "number" || p.word(i+1) == "#" || p.word(i+1) == "no") && i+2 < len(p.ts) && p.ts[i+2].isNum {
			return true // "respondent number 12"
		}
		if onePerson[w] && (latestWords[p.word(i-1)] || p.word(i-1) == "recent" || p.word(i-1) == "last" || p.word(i-1) == "first") {
			return true // "what did the most recent person write"
		}
	}
	return false
}

// oneWords stand for an answer or a group after "which" ("which one is lowest").
var oneWords = text.Set("one ones")

// manyPersons before a singular noun of a respondent make it any of them
// ("every person who", "how many person with").
var manyPersons = text.Set("every each any a an per many no some")

// onePerson name a single respondent.
var onePerson = text.Set("person employee respondent customer attendee participant guest user member worker drinker")

// personNouns name one respondent or several.
var personNouns = text.Set("person employee respondent customer attendee participant guest user member one " +
	"persons employees respondents customers attendees participants guests users members ones people")

// whoRanks make "who …" ask for the respondents at the top or bottom of a ranking.
var whoRanks = text.Set("highest lowest best worst most least longest shortest oldest newest youngest earliest latest fewest biggest smallest")

// phraseAround returns the words from one before i to two after it.
func (p *parser) phraseAround(i int) string {
	return strings.Join(p.words[max(0, i-1):min(len(p.words), i+3)], " ")
}

// Word sets and phrases of the checks above, built once.
var (
	answeredFilled   = text.Set("answered filled")
	howGood          = phrases("how well", "how good", "how bad")
	happyWords       = text.Set("happy happier happiest unhappy")
	mostCommonPhrase = phrases("most common")
	whichWay         = phrases("up or down", "down or up", "better or worse", "worse or better")
	rarestWords      = text.Set("rarest rare least fewest")
	monthOfYear      = phrases("month of the year", "which month", "what month")
	theExtremes      = phrases("the most", "the least", "the highest", "the lowest")
	onePersonPhrases = phrases("average person", "per person", "each person", "a person")
	comparingWords   = text.Set("compare compared comparison vs versus with than")
	writeWords       = text.Set("write wrote say said")
	howOften         = phrases("how often")
)
