package builtin

import (
	"slices"
	"strings"
	"time"

	"forma/internal/ai/query"
	"forma/internal/form"
)

// Figures the chat computes beyond a single engine metric.
const (
	chatCompletion = "completion" // completed ÷ started sessions
	chatBusiest    = "busiest"    // the period with the most responses
	chatArgMax     = "argmax"     // the group with the highest figure
	chatArgMin     = "argmin"     // the group with the lowest figure
)

// chatIntent is what a message asks, before it is turned into engine queries.
type chatIntent struct {
	metric   query.Metric
	special  string
	target   *chatQuestion
	conds    []chatCond
	span     *chatRange // submission dates
	groupBy  *chatQuestion
	compare  []string // options of groupBy to compare; all when empty
	interval string
	limit    int
	least    bool
	total    bool // "total" was said: a sum for numeric questions
	extreme  int  // +1 highest, -1 lowest was said
	followUp bool
	addOnly  bool // "of them": new conditions narrow the previous ones
	about    bool // the message talks about responses or respondents
	howMany  bool // "how many" was asked: a count, even with "total"
}

// chatPhrases lists the phrases of each metric cue.
var chatPhrases = map[string][]string{
	"completion":   {"completion rate", "completion", "complete rate", "dropoff", "abandon", "abandonment", "response rate", "finish rate"},
	"trend":        {"trend", "trends", "trended", "trending", "over time", "change", "grow", "grew", "growing", "per month", "per week", "per day", "each month", "each week", "each day", "every month", "monthly", "weekly", "daily", "by month", "by week", "by day", "month by month", "week by week", "changed", "change over", "evolved"},
	"busiest":      {"busiest", "quietest", "most responses", "fewest responses", "most submissions"},
	"sentiment":    {"sentiment", "mood", "tone", "feel about", "feeling about", "people feel", "positive or negative", "how positive", "how negative", "people think", "think of", "think about", "opinion of", "opinions"},
	"percent":      {"percentage", "percent", "%", "share", "proportion", "fraction", "portion", "ratio"},
	"mean":         {"average", "avg", "mean", "typical", "typically"},
	"median":       {"median"},
	"total":        {"total", "sum", "altogether", "combined"},
	"max":          {"highest", "maximum", "max", "largest", "biggest", "most expensive", "latest", "best"},
	"min":          {"lowest", "minimum", "min", "smallest", "cheapest", "earliest", "worst"},
	"top":          {"most common", "most popular", "most frequent", "most frequently", "most chosen", "most selected", "most used", "used the most", "used most", "most often", "top", "favorite", "favourite", "leading", "main", "most people"},
	"least":        {"least common", "least popular", "least used", "least chosen", "least selected", "used the least", "fewest", "rarest", "least frequent", "least often", "least"},
	"count":        {"how many", "number of", "count"},
	"distribution": {"breakdown", "break down", "distribution", "split", "spread", "how did people answer", "how do people answer", "results", "what did people choose", "mix"},
	"list":         {"show", "list", "display", "read", "what did people say", "what are people saying", "what do people say", "examples", "quotes", "recent", "latest", "newest"},
	"compare":      {"compare", "comparison", "versus", "vs", "difference", "differ", "compared", "more popular", "more common", "more used", "less popular", "less common"},
}

// cues returns the metric cues present in the message.
func (p *chatParser) cues() map[string]bool {
	out := map[string]bool{}
	for cue, phrases := range chatPhrases {
		if _, ok := chatAnyPhrase(p.words, phrases...); ok {
			out[cue] = true
		}
	}
	if i, ok := chatHasPhrase(p.words, "the most"); ok && chatSet(" ? , among in by for with of")[p.word(i+2)] {
		out["top"] = true
	}
	if out["busiest"] && !chatAnyWord(p.words, "day", "days", "week", "weeks", "month", "months") {
		delete(out, "busiest")
	}
	return out
}

// chatAnyWord reports whether one of the words occurs.
func chatAnyWord(words []string, any ...string) bool {
	for _, w := range words {
		if slices.Contains(any, w) {
			return true
		}
	}
	return false
}

// chatMetricOrder is the priority of cues that decide the metric.
var chatMetricOrder = []struct {
	cue    string
	metric query.Metric
}{
	{"percent", query.Percent}, {"trend", query.Trend}, {"mean", query.Mean}, {"median", query.Median},
	{"least", query.Top}, {"top", query.Top}, {"count", query.Count}, {"sentiment", query.Sentiment},
	{"distribution", query.Distribution}, {"list", query.List},
}

// metric decides the metric from the cues; max, min and sum are settled once the
// target is known.
func (in *chatIntent) setMetric(cues map[string]bool, words []string) {
	switch {
	case cues["completion"]:
		in.special = chatCompletion
		return
	case cues["busiest"]:
		in.special, in.interval = chatBusiest, chatInterval(words, query.Day)
		return
	}
	for _, m := range chatMetricOrder {
		if cues[m.cue] {
			in.metric = m.metric
			in.least = m.cue == "least"
			break
		}
	}
	if in.metric == query.Trend {
		in.interval = chatInterval(words, "")
	}
	in.total = cues["total"]
	if cues["max"] {
		in.extreme = 1
	} else if cues["min"] {
		in.extreme = -1
	}
}

// chatInterval returns the period a message names, or def.
func chatInterval(words []string, def string) string {
	switch {
	case chatAnyWord(words, "day", "days", "daily"):
		return query.Day
	case chatAnyWord(words, "week", "weeks", "weekly"):
		return query.Week
	case chatAnyWord(words, "month", "months", "monthly"):
		return query.Month
	}
	return def
}

// chatFits reports whether metric m can be computed over answers of q.
func chatFits(m query.Metric, q *form.Question) bool {
	switch m {
	case query.Mean, query.Median, query.Sum, query.Trend:
		return chatIsNumeric(q)
	case query.Min, query.Max:
		return chatIsNumeric(q) || q.Type == form.Date || q.Type == form.Time
	case query.Sentiment:
		return chatIsFreeText(q)
	}
	return true
}

// chooseTarget picks the question the metric is about: the best-scoring question it
// fits, preferring questions no condition already names.
func (p *chatParser) chooseTarget(in *chatIntent, scores []float64) *chatQuestion {
	m := in.metric
	if m == "" && in.extreme != 0 {
		m = query.Max
	}
	var best *chatQuestion
	bestScore := 0.5
	if m == query.Trend {
		bestScore = 1
	}
	for qi := range p.cf.qs {
		q := &p.cf.qs[qi]
		s := scores[qi]
		if p.conditioned(q) {
			s -= 1
		}
		if q == in.groupBy || (m != "" && !chatFits(m, q.q)) {
			continue
		}
		if s >= bestScore && (best == nil || s > bestScore) {
			best, bestScore = q, s
		}
	}
	return best
}

// conditioned reports whether a condition of the message is on q.
func (p *chatParser) conditioned(q *chatQuestion) bool {
	for _, c := range p.conds {
		if c.q == q {
			return true
		}
	}
	return false
}

// settle fixes max, min and sum once the target is known, and the default metric of
// a target asked about without one.
func (in *chatIntent) settle() {
	numeric := in.target != nil && chatFits(query.Max, in.target.q)
	switch {
	case (in.metric == "" || in.metric == query.Count) && in.extreme != 0 && numeric:
		in.metric = map[int]query.Metric{1: query.Max, -1: query.Min}[in.extreme]
	case in.metric == "" && in.total && in.target != nil && chatIsNumeric(in.target.q):
		in.metric = query.Sum
	case in.metric == query.Count && in.total && !in.howMany && in.target != nil && chatIsNumeric(in.target.q):
		in.metric = query.Sum
	case in.metric == "" && in.total:
		in.metric = query.Count
	}
}

// chatGroupWords introduce the question results are broken down by.
var chatGroupWords = chatSet("by per each across every")

// grouping finds "by <question>", "for each <question>", and comparisons of two
// options of one question ("compare Free and Pro"), whose conditions it removes.
func (p *chatParser) grouping(in *chatIntent, cues map[string]bool) {
	for i, w := range p.words {
		if !chatGroupWords[w] {
			continue
		}
		for k := i + 1; k <= i+3 && k < len(p.ts); k++ {
			if q := p.groupableAt(k); q != nil {
				in.groupBy = q
				p.used[k] = true
				return
			}
		}
	}
	p.compareOptions(in, cues)
}

// groupableAt returns the choice, yes_no or rating question the word at k names.
func (p *chatParser) groupableAt(k int) *chatQuestion {
	t := p.ts[k]
	if t.stem == "" || p.used[k] {
		return nil
	}
	for qi := range p.cf.qs {
		q := &p.cf.qs[qi]
		if chatGroupable(q.q) && slices.Contains(q.stems, t.stem) {
			return q
		}
	}
	return nil
}

// chatGroupable reports whether results can be broken down by q's answers.
func chatGroupable(q *form.Question) bool {
	switch q.Type {
	case form.Select, form.MultiSelect, form.YesNo, form.Rating:
		return true
	}
	return false
}

// compareOptions turns two or more options of one question into a comparison when
// the message compares, or when they are options of a single-choice question.
func (p *chatParser) compareOptions(in *chatIntent, cues map[string]bool) {
	byQ := map[*chatQuestion][]string{}
	for _, c := range p.conds {
		if c.q != nil && c.q.q.Type != form.YesNo && c.f.Op == query.Equals && len(c.q.options) > 0 {
			byQ[c.q] = append(byQ[c.q], c.f.Value.(string))
		}
	}
	for q, labels := range byQ {
		if len(labels) < 2 || (q.q.Type == form.MultiSelect && !cues["compare"] && !chatAnyWord(p.words, "which", "or")) {
			continue
		}
		in.groupBy, in.compare = q, labels
		p.conds = slices.DeleteFunc(p.conds, func(c chatCond) bool { return c.q == q })
		return
	}
}

// whichGroup finds "which <question>" naming a groupable question: the answer of
// that question whose group has the highest or lowest figure.
func (p *chatParser) whichGroup() *chatQuestion {
	for i, w := range p.words {
		if w != "which" && w != "what" {
			continue
		}
		for k := i + 1; k <= i+2 && k < len(p.ts); k++ {
			if q := p.groupableAt(k); q != nil {
				return q
			}
		}
	}
	return nil
}

// chatPeopleNouns name the respondents.
var chatPeopleNouns = chatSet("people persons respondents customers users clients members ones those them folks")

// markBase marks the conditions of a clause like "among those who …", "of people
// who …" or "of Pro users" as narrowing the population; the others are what a
// percentage is a share of.
func (p *chatParser) markBase(mentions []chatMention) {
	start := p.baseStart(mentions)
	if start < 0 {
		return
	}
	end := len(p.words)
	for k := start + 1; k < len(p.words); k++ {
		if p.words[k] == "," {
			end = k
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
	if matches == 0 && len(p.conds) >= 2 {
		last := 0
		for i := range p.conds {
			if p.conds[i].pos > p.conds[last].pos {
				last = i
			}
		}
		p.conds[last].base = false
	}
}

// baseStart returns where a population clause starts, or -1.
func (p *chatParser) baseStart(mentions []chatMention) int {
	for i, w := range p.words {
		next, after := p.word(i+1), p.word(i+2)
		switch {
		case w == "among" || w == "amongst":
			return i
		case (w == "of" || w == "for" || w == "out") && chatSet("those them these")[next]:
			return i
		case (w == "of" || w == "for") && chatPeopleNouns[next] && chatSet("who that which on with in using from")[after]:
			return i
		case (w == "of" || w == "for") && next == "the" && chatPeopleNouns[after] && chatSet("who that which on with in using from")[p.word(i+3)]:
			return i
		case w == "of" && p.mentionAt(mentions, i+1, i+2):
			return i
		}
	}
	return -1
}

// mentionAt reports whether an option mention starts at one of the positions.
func (p *chatParser) mentionAt(ms []chatMention, at ...int) bool {
	for _, m := range ms {
		if slices.Contains(at, m.start) && (m.start == at[0] || p.word(at[0]) == "the") {
			return true
		}
	}
	return false
}

// chatContinuations start a follow-up question.
var chatContinuations = []string{"and", "what about", "how about", "what if", "same", "now", "also", "then", "ok", "okay", "but", "only", "just", "so"}

// chatPronouns refer back to what the conversation was about.
var chatPronouns = chatSet("them those these they their that it ones this")

// looksLikeFollowUp reports whether the message leans on the previous question.
func (p *chatParser) looksLikeFollowUp(in *chatIntent) bool {
	for _, c := range chatContinuations {
		if p.startsAt(0, c) {
			return true
		}
	}
	own := 0
	for _, c := range in.conds {
		if c.q != nil {
			own++
		}
	}
	pronoun := chatAnyWord(p.words, "them", "those", "these", "they", "their", "that", "it", "ones", "this")
	switch {
	case pronoun && own == 0:
		return true
	case in.metric == "" && in.special == "" && in.target == nil:
		return len(in.conds) > 0 || in.span != nil || in.groupBy != nil
	case in.target == nil && in.metric != "":
		return chatNeedsTarget(in.metric)
	}
	return false
}

// chatNeedsTarget reports whether a metric means nothing without a question.
func chatNeedsTarget(m query.Metric) bool {
	switch m {
	case query.Mean, query.Median, query.Sum, query.Min, query.Max, query.Top, query.Distribution:
		return true
	}
	return false
}

// parse reads one message into an intent.
func (s *chatSession) parse(msg string) *chatIntent {
	p := &chatParser{cf: s.cf, ts: chatTokens(msg)}
	p.words = chatWords(p.ts)
	p.used = make([]bool, len(p.ts))
	in := &chatIntent{limit: p.limit()}
	in.span = p.dates(s.now)
	p.numbers()
	mentions := p.options()
	p.yesNo()
	p.answeredText()
	p.noneChosen()
	if v, ok := p.unboundYesNo(); ok && !p.hasYesNoCond() {
		p.conds = append(p.conds, chatCond{f: query.Filter{Op: query.Equals, Value: v}, pos: chatIndexOf(p.words, "yes", "no")})
	}
	cues := p.cues()
	in.setMetric(cues, p.words)
	_, in.howMany = chatHasPhrase(p.words, "how many")
	classes := p.sentimentWords()
	scores := s.cf.scores(p.ts, p.used)
	p.dateQuestionRange(in, scores)
	p.sentimentConds(in, classes, scores)
	p.grouping(in, cues)
	p.argGroup(in)
	in.target = p.chooseTarget(in, scores)
	in.settle()
	p.markBase(mentions)
	in.conds = p.conds
	in.addOnly = chatAnyWord(p.words, "them", "those", "these") && chatAnyWord(p.words, "of", "among")
	in.followUp = p.looksLikeFollowUp(in)
	in.about = chatAnyWord(p.words, "responses", "response", "submissions", "people", "respondents", "customers",
		"users", "entries", "survey", "form", "filled", "replies", "answers", "everyone", "anyone", "comments")
	return in
}

// chatIndexOf returns the position of the first of the words, or 0.
func chatIndexOf(words []string, any ...string) int {
	for i, w := range words {
		if slices.Contains(any, w) {
			return i
		}
	}
	return 0
}

// sentimentConds turns one sentiment word into a condition on the free-text
// question; both "positive" and "negative" ask for the sentiment itself.
func (p *chatParser) sentimentConds(in *chatIntent, classes []string, scores []float64) {
	switch {
	case len(classes) == 1:
		if q := p.freeTextQuestion(scores); q != nil {
			p.add(q, query.Filter{Op: query.SentimentOp, Value: classes[0]}, chatIndexOf(p.words, "positive", "negative", "neutral", "happy", "unhappy", "angry", "complaints"))
		}
	case len(classes) > 1 && in.metric == "":
		in.metric = query.Sentiment
	}
}

// argGroup turns "which <question> has the highest <figure>" into the group with
// the highest (or lowest) figure.
func (p *chatParser) argGroup(in *chatIntent) {
	if in.extreme == 0 || in.groupBy != nil || in.special != "" {
		return
	}
	g := p.whichGroup()
	if g == nil {
		return
	}
	in.groupBy = g
	in.special = map[int]string{1: chatArgMax, -1: chatArgMin}[in.extreme]
	if in.metric == "" || in.metric == query.Top {
		in.metric = query.Mean
	}
	in.extreme = 0
}

// limit reads "top 3", "last 5", "10 most recent" and marks them used.
func (p *chatParser) limit() int {
	for i, t := range p.ts {
		if !t.isNum || t.num < 1 || t.num > 100 || t.num != float64(int(t.num)) {
			continue
		}
		prev, next := p.word(i-1), p.word(i+1)
		if chatSet("day days week weeks month months year years")[next] {
			continue
		}
		listed := chatSet("comments answers responses examples reviews entries quotes")[next] &&
			chatAnyWord(p.words, "show", "list", "give", "see", "display", "read")
		if listed || chatSet("top first last latest recent newest")[prev] || chatSet("most latest recent newest")[next] {
			p.used[i] = true
			return int(t.num)
		}
	}
	return 0
}

// dates reads the date range of the message, unless its words are part of a
// question the message names ("spend with us last month").
func (p *chatParser) dates(now time.Time) *chatRange {
	before := slices.Clone(p.used)
	r := chatDates(p.ts, p.used, now)
	if r == nil {
		return nil
	}
	if p.inQuestionText(before) {
		p.used = before
		return nil
	}
	return r
}

// inQuestionText reports whether the words newly marked used (relative to before)
// appear together in the text of a question that other words of the message name.
func (p *chatParser) inQuestionText(before []bool) bool {
	var phrase []string
	for i := range p.used {
		if p.used[i] && !before[i] && !chatDatePrepositions[p.words[i]] {
			phrase = append(phrase, p.words[i])
		}
	}
	scores := p.cf.scores(p.ts, p.used)
	for qi, q := range p.cf.qs {
		if _, ok := chatHasPhrase(chatTokensWords(q.q.Text), strings.Join(phrase, " ")); ok && scores[qi] >= 1 {
			return true
		}
	}
	return false
}

// dateQuestionRange moves the date range of the message onto a date question the
// message names ("started using our product in 2024").
func (p *chatParser) dateQuestionRange(in *chatIntent, scores []float64) {
	if in.span == nil {
		return
	}
	for qi := range p.cf.qs {
		q := &p.cf.qs[qi]
		if q.q.Type != form.Date || scores[qi] < 1 {
			continue
		}
		f := query.Filter{Op: query.Between, Value: in.span.fromText(), To: in.span.toText()}
		switch {
		case in.span.from.IsZero():
			f = query.Filter{Op: query.LTE, Value: in.span.toText()}
		case in.span.to.IsZero():
			f = query.Filter{Op: query.GTE, Value: in.span.fromText()}
		}
		p.add(q, f, in.span.pos)
		p.cf.absorb(p.ts, p.used, q, 0, len(p.ts), 0)
		in.span = nil
		return
	}
}

// hasYesNoCond reports whether the message already named a yes_no question.
func (p *chatParser) hasYesNoCond() bool {
	for _, c := range p.conds {
		if c.q != nil && c.q.q.Type == form.YesNo {
			return true
		}
	}
	return false
}
