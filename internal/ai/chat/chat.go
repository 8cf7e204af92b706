// Package chat is Forma's offline chat about a form's responses: it answers
// questions in plain English ("what percentage of Pro users would recommend us?")
// with figures computed by the query engine, without a model.
//
// Answer reads a message in five steps:
//
//  1. parse (parse.go, with lexicon.go, match.go, conds.go and dates.go):
//     tokenize and stem the message, then read what it asks into a request: the
//     intent (an engine metric, the completion rate, the busiest period, the
//     group with the highest or lowest figure), the question it is about (scored
//     against an index of the form's questions and options), conditions on other
//     questions, a date range, a breakdown; a follow-up ("and for Free users?")
//     is merged into the previous request of the conversation;
//  2. bind (this file): give bare "yes"/"no" conditions their yes_no question;
//  3. plan (plan.go): turn the request into one engine query: metric, filters,
//     the population of a percentage and its share, grouping, limits;
//  4. run: the query engine computes every figure;
//  5. reply (reply.go, groups.go): word the result, or say what cannot be
//     answered and suggest questions about this form.
package chat

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"forma/internal/ai"
	"forma/internal/ai/query"
	"forma/internal/ai/text"
	"forma/internal/form"
)

// Limits of the chat.
const (
	// maxHistoryTurns caps the earlier user messages replayed for context.
	maxHistoryTurns = 20
)

// session answers one message over one dataset.
type session struct {
	ds  *query.Dataset
	eng *query.Engine
	cf  *formIndex
	now time.Time
}

// Answer replies in plain English to a question about the responses of the
// dataset's form: counts, percentages, averages, medians, extremes and totals,
// most common answers, breakdowns, filters ("among those who rated 4 or more"),
// date ranges ("last week", "in March"), comparisons and breakdowns by a question,
// trends, recent comments and their sentiment. Earlier user turns of history give
// the context of follow-ups ("and for those who said no?"). Every number in the
// reply comes from the query engine, or is a value the question itself gave; when
// the question cannot be mapped to the data, the reply says so and suggests
// questions about this form. Answers are data, never instructions. now resolves
// relative dates. The same inputs always give the same reply.
func Answer(ds *query.Dataset, history []ai.Turn, question string, now time.Time) string {
	if ds == nil || ds.Form == nil {
		ds = &query.Dataset{Form: &form.Form{}}
	}
	s := &session{ds: ds, eng: ds.Engine(), cf: newFormIndex(ds.Form), now: now.UTC()}
	if len(ds.Responses) == 0 {
		return s.noResponses()
	}
	in := s.parse(clip(question))
	prev, lastFailed, asked := s.context(history)
	completeFigure(asked, in)
	if in.followUp && lastFailed && !in.completes {
		return s.cannotFollow()
	}
	if in.dangling && prev == nil && !lastFailed {
		in.ambiguous = "it points back at an earlier answer (“them”, “those”), and there is none; please say who you mean"
	}
	in = s.resolve(prev, in, lastFailed)
	s.respellSearches(in)
	return s.reply(in)
}

// resolve reads a parsed message in the conversation: merged into the previous
// request it follows (prev, and whether the turn before failed), bound to the
// form, asked back when it names no question for its figure or its "which" went
// unread.
func (s *session) resolve(prev, in *request, lastFailed bool) *request {
	in.followUp = in.followUp || in.pointsBack && !lastFailed
	which := whichAsked(in)
	in = s.follow(prev, in)
	s.bind(in)
	s.askForQuestion(in)
	askWhichUnread(in, which)
	return in
}

// completeFigure reads a bare question name after a figure that was asked back
// for its question ("how many from the uk" – "avg?" – "rating"): that figure of
// that question, following what the figure followed.
func completeFigure(asked, in *request) {
	if asked == nil || in.target == nil || in.metric != "" || len(in.conds) > 0 || in.groupBy != nil || in.span != nil || !in.bare {
		return
	}
	in.metric, in.followUp, in.completes = asked.metric, asked.followUp, true
}

// askForQuestion asks back when a figure of numbers names no question ("avg?").
func (s *session) askForQuestion(in *request) {
	if in.target == nil && numberFigure[in.metric] && in.kind == metricIntent && len(in.compare) == 0 && in.ambiguous == "" &&
		len(in.unknown) == 0 && !s.answerable(in) {
		in.ambiguous = fmt.Sprintf("it asks for the %s without naming the question; please name it", figureNames[in.metric])
	}
}

// askWhichUnread asks back when the message asked "which <question>" and the
// request answers no question of that kind: no group by it, no answer of it
// ("which session's fans brought in the most" read as a total of everyone).
func askWhichUnread(in *request, which *question) {
	if which == nil || in.ambiguous != "" || in.groupBy == which || in.target == which || in.kind != metricIntent && in.groupBy != nil ||
		slices.ContainsFunc(in.conds, func(c cond) bool { return c.q == which }) || len(in.compare) > 0 {
		return
	}
	in.ambiguous = fmt.Sprintf("it asks which answer to %s, and I could not read what to rank them by; please ask e.g. for the total by %s",
		text.Quote(which.q.Text), text.Quote(which.q.Text))
}

// whichAsked returns the question a message asks "which" of, or nil.
func whichAsked(in *request) *question {
	if !in.asksWhich {
		return nil
	}
	return in.which
}

// asksFigureOnly reports whether in asks for a figure of numbers and names
// nothing else ("avg?"), so a question's name can complete it.
func asksFigureOnly(in *request) bool {
	return in.target == nil && numberFigure[in.metric] && len(in.conds) == 0 && in.groupBy == nil && in.span == nil
}

// respellSearches reads a searched word that no written answer contains as the
// only word of the answers a typing slip away ("mention the prise": price), so a
// slip does not count nothing; the reply names the word searched.
func (s *session) respellSearches(in *request) {
	for i, c := range in.conds {
		term, ok := c.f.Value.(string)
		if c.f.Op != query.Contains || !ok || c.q == nil || len(term) < minSlipLen {
			continue
		}
		if res, err := s.eng.Run(query.Query{Metric: query.Count, Filters: []query.Filter{c.f}}); err != nil || res.N > 0 {
			continue
		}
		words, err := s.eng.Run(query.Query{Metric: query.Words, Question: c.q.q.ID, Limit: query.MaxListLimit})
		if err != nil {
			continue
		}
		found := ""
		for _, b := range words.Buckets {
			if oneSlip(term, b.Label) || sameSqueezed(term, b.Label) {
				if found != "" {
					found = ""
					break
				}
				found = b.Label
			}
		}
		if found != "" {
			in.conds[i].f.Value = found
		}
	}
}

// clip cuts a message to ai.MaxMessageLen characters.
func clip(s string) string {
	if utf8.RuneCountInString(s) <= ai.MaxMessageLen {
		return s
	}
	return string([]rune(s)[:ai.MaxMessageLen])
}

// context replays the user turns of history and returns the request of the last
// one that could be answered, and whether the last turn could not be.
func (s *session) context(history []ai.Turn) (*request, bool, *request) {
	var users []string
	for _, t := range history {
		if t.Role == ai.RoleUser {
			users = append(users, t.Content)
		}
	}
	if len(users) > maxHistoryTurns {
		users = users[len(users)-maxHistoryTurns:]
	}
	var prev, asked *request
	failed := false
	for _, u := range users {
		in := s.parse(clip(u))
		completeFigure(asked, in)
		asked = nil
		if in.followUp && failed && !in.completes {
			continue // refused too: it follows a question that could not be answered
		}
		raw := *in
		in = s.resolve(prev, in, failed)
		failed = !s.answerable(in) || len(in.unknown) > 0 || in.clash != "" || in.ambiguous != ""
		switch {
		case !failed:
			prev = in
		case asksFigureOnly(&raw):
			asked = &raw // "avg?", asked back: a question's name may follow
		}
	}
	return prev, failed, asked
}

// follow merges a follow-up into the previous request; a period moved from a
// previous one that is missing ("the week before") can't be answered.
func (s *session) follow(prev, in *request) *request {
	if in.countsExtreme && !in.followUp {
		return s.countAtExtreme(in) // "how many gave the lowest rating": those who gave it
	}
	if in.topWordBack {
		return s.followTopWord(prev, in)
	}
	if out := s.followTopAnswer(prev, in); out != nil {
		return out
	}
	s.pointFirst(prev, in)
	switch {
	case prev != nil && in.followUp && in.atFigure && singleFigure[prev.metric] && prev.groupBy == nil && prev.target != nil:
		return s.countAtFigure(prev, in)
	case prev != nil && in.followUp && in.atFigure && summaryFigure[prev.metric] && len(in.conds) == 0:
		out := merge(prev, in, s.today())
		out.ambiguous = "“that” is a figure computed over many answers, not an answer respondents gave; ask for a number, e.g. how many answered 4"
		return out
	case prev != nil && in.followUp && in.loneWord != "" && searchCond(prev.conds) >= 0:
		out := *prev // "how many mention reports" – "and onboarding?" searches the new word; "and reports?" too
		out.conds = slices.Clone(prev.conds)
		out.conds[searchCond(out.conds)].f.Value = in.loneWord
		out.unknown = nil
		return &out
	case prev != nil && in.followUp && in.either && eitherOf(prev.conds) != nil:
		out := *prev // "both the design and the product track" – "and either one of them?"
		out.conds = eitherOf(prev.conds)
		return &out
	case prev != nil && in.followUp && in.allGroups && (prev.kind == highestGroup || prev.kind == lowestGroup) && len(in.conds) == 0 && in.target == nil:
		out := *prev // "which drink has the highest recommend rate" – "show me all of them"
		out.kind, out.limit = metricIntent, 0
		return &out
	case prev != nil && in.answersPrev && prev.target != nil && in.target == nil:
		out := merge(prev, in, s.today()) // "total years at the company across engineering" – "and how many engineers answered that"
		out.metric, out.kind, out.groupBy, out.blank, out.answersTarget = query.Count, metricIntent, nil, false, true
		return out
	}
	if out := s.ofListedAnswers(prev, in); out != nil {
		return out
	}
	if out := s.inPeriodNamed(prev, in); out != nil {
		return out
	}
	if prev != nil && in.followUp {
		switch named := s.ofNamedAnswer(prev, in); {
		case named != nil:
			if in.target == nil && (numberFigure[in.metric] || in.metric == "" && in.extreme != 0) {
				named.target = prev.target // "cups by country" – "which one drinks the least?" – "median there?": of cups
			}
			return merge(named, in, s.today()) // "which session did people enjoy most" – "how many of them will come next year"
		case in.itAnswer || in.its && in.firstOne == 0 && (listedQuestion(prev) != nil || slices.ContainsFunc(prev.conds, func(c cond) bool { return c.f.Op == query.In })):
			out := merge(prev, in, s.today()) // "two most attended tracks" – "what's its average rating"
			out.ambiguous = "I can't tell which one answer “it” is; please name it"
			return out
		}
	}
	switch {
	case prev != nil && in.followUp && in.compares && in.ambiguous == "" && in.span != nil && s.noResponsesIn(in.span):
		out := merge(prev, in, s.today()) // "how does that compare to last year" when nobody answered last year
		out.ambiguous = "there are no responses from that period to compare with"
		return out
	case prev != nil && in.followUp:
		out := merge(prev, in, s.today())
		if ofAnswersListed(prev, in) && prev.metric == query.Top {
			out.compare = s.listedAnswers(prev) // "top 3 countries" – "which of them has the highest average rating": those 3
		}
		return out
	case in.shift != nil:
		in.ambiguous = shiftSpan(in, nil, *in.shift, s.today())
	}
	return in
}

// ofListedAnswers reads a figure of "them" after a top list ("top 3 countries" –
// "their average rating") as each listed answer's figure, or as one figure over
// all of them when asked together ("their combined average rating"); nil when the
// follow-up asks otherwise.
func (s *session) ofListedAnswers(prev, in *request) *request {
	shareOfThem := in.metric == query.Percent && in.target == nil && len(in.conds) == 0 // "what share of all responses do those make up"
	if prev == nil || !in.followUp || !in.refersBack || in.itAnswer || prev.metric != query.Top || prev.limit < 2 || prev.target == nil || !groupable(prev.target.q) ||
		(in.target == nil || in.target == prev.target) && !shareOfThem || in.groupBy != nil || in.asksWhich || in.rank != 0 || in.kind != metricIntent {
		return nil
	}
	listed := s.listedAnswers(prev)
	if len(listed) < 2 {
		return nil
	}
	out := merge(prev, in, s.today())
	out.limit, out.least = 0, false
	if in.metric == "" {
		out.metric = defaultMetric(in.target.q)
	}
	if !in.together && !shareOfThem {
		out.groupBy, out.compare = prev.target, listed
		return out
	}
	vals := make([]any, len(listed))
	for i, l := range listed {
		vals[i] = l
	}
	out.conds = append(out.conds, cond{q: prev.target, f: query.Filter{Question: prev.target.q.ID, Op: query.In, Value: vals}})
	return out
}

// followTopWord searches the written answers for the word a list of top words
// ranked first ("most common words in the comments" – "how many mention the top
// one"); it asks back when there is no such list, a tie heads it, or "that word"
// follows a list of several.
func (s *session) followTopWord(prev, in *request) *request {
	word := ""
	if prev != nil && prev.metric == query.Words && prev.target != nil {
		if p, ok := s.plan(prev); ok {
			if res, err := s.eng.Run(p.q); err == nil && len(res.Buckets) > 0 &&
				(len(res.Buckets) == 1 || res.Buckets[0].Count > res.Buckets[1].Count && (!in.thatWord || prev.limit == 1)) {
				word = res.Buckets[0].Label
			}
		}
	}
	if word == "" {
		in.ambiguous = "I can't tell which word it means; please name the word to look for"
		return in
	}
	in.followUp = true
	out := merge(prev, in, s.today())
	at := searchCond(out.conds)
	out.conds[at].q, out.conds[at].f.Question, out.conds[at].f.Value = prev.target, prev.target.q.ID, word
	if in.metric == "" || in.metric == query.Count || in.metric == query.Top || in.metric == query.Words { // "top one", "that word" name the word searched
		out.metric, out.kind, out.target, out.groupBy, out.limit, out.least = query.Count, metricIntent, nil, nil, 0, false
	}
	return out
}

// followTopAnswer reads a follow-up of the most (least) common answer that asks
// for that answer's share ("which session did people enjoy least" – "percent?")
// or count ("most common rating among vips" – "how many vips gave that"), or
// returns nil.
func (s *session) followTopAnswer(prev, in *request) *request {
	listed := listedQuestion(prev)
	first := in.firstOne != 0 && listed != nil && len(in.conds) == 0 && (in.target == nil || in.target == listed) // "top 2 sessions" – "what share picked the top one?"
	share := in.metric == query.Percent && (in.cuesOnly || first)
	if prev == nil || !in.followUp || prev.metric != query.Top && !first || !share && !in.atFigure && !first {
		return nil
	}
	out := s.countOfNamed(prev)
	if first {
		out = nil
		if c, ok := s.edgeAnswer(prev, in.firstOne < 0); ok {
			out = countOf(prev, c)
			out.groupBy = nil
		}
	}
	switch {
	case out == nil:
		return nil
	case share:
		out.metric = query.Percent // Panel's share: the previous population is the base
		for i := range out.conds {
			out.conds[i].base = i < len(out.conds)-1
		}
		return out
	case first:
		return out // "how many picked the top one?"
	}
	return merge(out, in, s.today())
}

// listedQuestion returns the question whose answers the reply to prev listed
// one by one (a top list, a breakdown, counts by group), or nil.
func listedQuestion(prev *request) *question {
	switch {
	case prev == nil:
		return nil
	case prev.metric == query.Top && prev.limit > 1 && prev.target != nil:
		return prev.target
	case listsShares(prev) && prev.groupBy == nil:
		return prev.target
	case (prev.metric == query.Count || prev.metric == "") && prev.kind == metricIntent && prev.groupBy != nil && prev.target == nil:
		return prev.groupBy // "headcount by department"
	}
	return nil
}

// inPeriodNamed reads a figure asked of "it", "that month" or "then" after the
// busiest (quietest) period as that figure over that period ("quietest month?" –
// "average rating in it"), or returns nil.
func (s *session) inPeriodNamed(prev, in *request) *request {
	if prev == nil || prev.kind != busiestPeriod || !in.followUp || in.kind != metricIntent || in.span != nil || !in.pointsAtPeriod {
		return nil
	}
	span, ok := s.periodNamed(prev)
	out := merge(prev, in, s.today())
	out.kind, out.interval, out.least = metricIntent, "", in.least
	if !ok {
		out.ambiguous = "several periods tie, so I can't tell which one it means; please name it"
		return out
	}
	out.span = span
	return out
}

// periodNamed returns the one period the reply to prev, a busiest (quietest)
// period, named, and false when several tie.
func (s *session) periodNamed(prev *request) (*dateRange, bool) {
	p, ok := s.plan(prev)
	if !ok {
		return nil, false
	}
	res, err := s.eng.Run(p.q)
	if err != nil {
		return nil, false
	}
	at, _ := periodsAtEdge(res.Buckets, prev.least)
	if len(at) != 1 {
		return nil, false
	}
	best := at[0]
	if t, err := time.Parse("2006-01", best.Label); err == nil && res.Interval == query.Month {
		return &dateRange{from: t, to: t.AddDate(0, 1, -1), label: "in " + t.Format("January 2006")}, true
	}
	t, err := time.Parse("2006-01-02", best.Label)
	if err != nil {
		return nil, false
	}
	if res.Interval == query.Week {
		return &dateRange{from: t, to: t.AddDate(0, 0, 6), label: "in the week of " + best.Label}, true
	}
	return &dateRange{from: t, to: t, label: "on " + best.Label}, true
}

// pointFirst reads "the top one" ("the smallest one") after a list of answers
// as its first (last) answer: the follow-up gets that answer as a condition
// ("which country has the most fans of the top one", "average job satisfaction in
// the biggest one"), or asks back when a tie heads the list.
func (s *session) pointFirst(prev, in *request) {
	list := prev
	if listedQuestion(list) == nil && prev != nil && prev.edgeOf != nil {
		list = prev.edgeOf // "… in the biggest one" – "and in the smallest": the same list
	}
	q := listedQuestion(list)
	if in.firstOne == 0 || q == nil || slices.ContainsFunc(in.conds, func(c cond) bool { return c.q == q }) {
		return
	}
	in.edgeOf = list
	c, ok := s.edgeAnswer(list, in.firstOne < 0)
	if !ok {
		in.ambiguous = "answers are tied at that end of the list, so I can't tell which one it means; please name it"
		return
	}
	c.pos = -1                          // named by no word of the follow-up
	c.base = in.metric == query.Percent // "of the people in the first one, what % will come back": the population
	in.conds = append(in.conds, c)
	in.followUp = true
	if in.target == q {
		in.target = nil // "what share uses the first one?": “uses” names the benefits question again
	}
	if in.target == nil && in.metric == query.Top {
		in.metric = query.Count // "how many picked the top one?": "top" names the answer
	}
	if in.metric == query.Min || in.metric == query.Max || in.metric == "" {
		in.metric, in.extreme = "", 0 // "and in the smallest": the group, not the lowest answer
		if in.takings {
			in.metric = query.Sum // "how much revenue does the biggest one bring in"
		}
	}
}

// edgeAnswer returns the condition of the most (least) common answer of the
// list prev shows, and false when a tie holds that end.
func (s *session) edgeAnswer(prev *request, least bool) (cond, bool) {
	q := listedQuestion(prev)
	if q == nil {
		return cond{}, false
	}
	r := &request{kind: metricIntent, metric: query.Top, target: q, conds: prev.conds, span: prev.span, least: least}
	p, ok := s.plan(r)
	if !ok {
		return cond{}, false
	}
	p.q.Limit = 0
	res, err := s.eng.Run(p.q)
	if err != nil {
		return cond{}, false
	}
	return mostGiven(q, res.Buckets, least)
}

// eitherOf returns conds with the answers they require together of one
// multiple-choice question made one "any of" condition, or nil when there are
// none such.
func eitherOf(conds []cond) []cond {
	named := map[*question]int{}
	for _, c := range conds {
		if c.q != nil && c.f.Op == query.Equals && c.q.q.Type == form.MultiSelect {
			named[c.q]++
		}
	}
	for _, c := range conds {
		if named[c.q] >= 2 {
			return anyOf(conds, c.q) // the first such question, whatever the map's order
		}
	}
	return nil
}

// searchCond returns the index of the only condition of conds that searches the
// written answers for a word, or -1.
func searchCond(conds []cond) int {
	return onlyCond(conds, func(c cond) bool { return c.f.Op == query.Contains })
}

// numberFigure are the metrics of a figure computed over a numeric question's
// answers.
var numberFigure = map[query.Metric]bool{query.Mean: true, query.Median: true, query.Sum: true, query.StdDev: true,
	query.Percentile: true, query.Min: true, query.Max: true}

// ofAnswersListed reports whether cur ranks the answers the reply to prev listed
// by a figure of another question ("which of them has the lowest average rating").
func ofAnswersListed(prev, cur *request) bool {
	return cur.rank != 0 && cur.asksWhich && cur.refersBack && cur.groupBy == nil && cur.kind == metricIntent && cur.target != nil &&
		prev.groupBy == nil && prev.target != nil && cur.target != prev.target && groupable(prev.target.q) &&
		(prev.metric == query.Distribution || prev.metric == query.Top)
}

// whichOfCounted reads "which office are they in" after a count (or a figure of
// one group) as the breakdown of the counted respondents by the question named,
// and "which office are most of them in" and "what do they mostly drink" as its
// most common answer.
func whichOfCounted(out, prev, cur *request) {
	counted := prev.metric == query.Count || prev.metric == query.Percent && prev.groupBy == nil || prev.metric == "" && prev.target == nil ||
		numberFigure[prev.metric] && prev.groupBy == nil && cur.asksWhich
	if cur.target == prev.target || cur.metric != "" || !cur.asksWhich && !cur.refersBack || !groupable(cur.target.q) || !counted || cur.kind != metricIntent ||
		isNumeric(cur.target.q) && !cur.asksWhich && cur.possessive { // "its satisfaction": the average, not the breakdown
		return
	}
	out.metric, out.limit, out.least = query.Distribution, 0, false
	if cur.rank != 0 || cur.mostly || cur.refersBack && anyWord(cur.target.words, favouriteWords) {
		out.metric, out.limit, out.least = query.Top, 1, cur.rank < 0 // "what do they mostly drink", "what's their favourite drink"
	}
}

// topOfList reports whether cur only asks for the first of the list the reply to
// prev gave ("just the top one", "top 3 instead").
func topOfList(prev, cur *request) bool {
	return cur.metric == query.Top && !cur.least && cur.target == nil && cur.groupBy == nil && len(cur.conds) == 0 && cur.kind == metricIntent &&
		(prev.metric == query.Words || prev.metric == query.Top && !prev.least)
}

// splitsFigure reports whether cur only asks to break the previous figure down
// by a group ("how many use the gym or training" – "split by office"): the
// figure stays, a breakdown of answers is not asked for.
func splitsFigure(prev, cur *request) bool {
	return cur.metric == query.Distribution && cur.kind == metricIntent && cur.groupBy != nil && cur.target == nil && len(cur.conds) == 0 &&
		prev.kind == metricIntent && (numberFigure[prev.metric] || prev.metric == query.Count || prev.metric == query.Percent)
}

// singleFigure are the metrics whose figure is an answer some respondents gave.
var singleFigure = map[query.Metric]bool{query.Max: true, query.Min: true, query.Mode: true}

// summaryFigure are the metrics whose figure no respondent need have given, or
// that name several answers.
var summaryFigure = map[query.Metric]bool{query.Mean: true, query.Median: true, query.Sum: true, query.StdDev: true,
	query.Percentile: true, query.Top: true, query.Mode: true, query.Distribution: true}

// groupFigure are the figures a ranking of groups can be by.
var groupFigure = map[query.Metric]bool{query.Mean: true, query.Median: true, query.Sum: true}

// sameCond reports whether a and b keep the same answers of the same question.
func sameCond(a, b cond) bool {
	return a.q == b.q && a.f.Op == b.f.Op && fmt.Sprint(a.f.Value) == fmt.Sprint(b.f.Value) && fmt.Sprint(a.f.To) == fmt.Sprint(b.f.To)
}

// isCrossTab reports whether r asks for the answers of one choice question by
// those of another ("favourite session by ticket type").
func isCrossTab(r *request) bool {
	return r != nil && r.kind == metricIntent && r.target != nil && r.groupBy != nil && r.target != r.groupBy && groupable(r.target.q) &&
		(r.metric == query.Distribution || r.metric == "" && defaultMetric(r.target.q) == query.Distribution)
}

// listsShares reports whether r asks for the answers of one question with their
// shares ("sessions of those not coming back").
func listsShares(r *request) bool {
	grouped := r.groupBy != nil && !slices.ContainsFunc(r.conds, func(c cond) bool { return c.q == r.groupBy }) // "and in Madrid?" after "department by office": one group
	return !grouped && r.target != nil && (r.metric == query.Distribution || r.kind == metricIntent && r.metric == "" && defaultMetric(r.target.q) == query.Distribution)
}

// countAtFigure counts the respondents who gave the previous answer's figure
// ("the highest ticket price" – "how many paid that"), among the same responses.
func (s *session) countAtFigure(prev, in *request) *request {
	v, ok := s.figure(prev)
	return countAt(prev, in, v, ok)
}

// countAt counts prev's respondents who answered v to its question (ok false:
// there is no such figure, and it asks back).
func countAt(prev, in *request, v float64, ok bool) *request {
	out := *prev
	out.metric, out.kind, out.unknown, out.ambiguous = query.Count, metricIntent, in.unknown, in.ambiguous
	if !ok {
		out.ambiguous = "I can't tell which figure “that” is; please give the number"
		return &out
	}
	out.conds = append(slices.Clone(prev.conds), cond{q: prev.target, f: query.Filter{Question: prev.target.q.ID, Op: query.Equals, Value: v}})
	return &out
}

// figure returns the one figure r computes, and false when it computes none.
func (s *session) figure(r *request) (float64, bool) {
	p, ok := s.plan(r)
	if !ok {
		return 0, false
	}
	res, err := s.eng.Run(p.q)
	if err != nil || res.Value == nil {
		return 0, false
	}
	return *res.Value, true
}

// countAtExtreme counts the respondents who gave the highest (lowest) answer ("how
// many gave the lowest rating"). Among a group ("how many germans gave the top
// rating") the highest answer may be the group's or everyone's: it asks back when
// they differ.
func (s *session) countAtExtreme(in *request) *request {
	group, okGroup := s.figure(in)
	out := countAt(in, in, group, okGroup)
	everyone := *in
	everyone.conds = nil
	all, okAll := s.figure(&everyone)
	if okAll && okGroup && all != group && out.ambiguous == "" {
		out.ambiguous = fmt.Sprintf("the %s answer among them (%s) is not everyone's (%s); please give the number, e.g. how many answered %s",
			figureNames[in.metric], query.Format(group), query.Format(all), query.Format(all))
	}
	return out
}

// cannotFollow refuses a follow-up of a question that could not be answered: it
// could continue that question or an earlier one.
func (s *session) cannotFollow() string {
	var b strings.Builder
	b.WriteString("I can't answer that exactly: it follows a question I could not answer, so I don't know what it continues; please ask it in full.")
	s.suggest(&b)
	return b.String()
}

// merge applies a follow-up to the previous request: what the follow-up names
// replaces what the previous question had, the rest carries over.
func merge(prev, cur *request, today time.Time) *request {
	out := *prev
	out.conds = append([]cond(nil), prev.conds...)
	ranked := prev.kind == highestGroup || prev.kind == lowestGroup
	mergeFigure(&out, prev, cur, ranked)
	mergePeriod(&out, prev, cur, today)
	comparePeriods(&out, prev, cur, today)
	mergeGroups(&out, prev, cur, ranked)
	mergeConds(&out, prev, cur)
	out.followUp, out.addOnly, out.about, out.refersBack = false, false, true, cur.refersBack
	if cur.edgeOf != nil {
		out.edgeOf = cur.edgeOf
	}
	if out.ambiguous == "" && cur.judged {
		out.ambiguous = judgedWithoutScale(&out)
	}
	if ranked && cur.oneAfterExtreme {
		out.limit = 0 // "top 2 departments by balance" – "and the worst one": one department
	}
	if out.ambiguous == "" && cur.possessive && (listsShares(prev) || prev.metric == query.Distribution && prev.target != nil) && len(prev.conds) > 0 && cur.groupBy == nil && cur.target != nil && cur.target != prev.target {
		out.ambiguous = "the previous answer listed several answers, so I can't tell whose figure “their” asks for; please name one" // "which department is biggest in Madrid?" – "their average satisfaction there?"
	}
	if out.ambiguous == "" && cur.asksWhich && cur.target == nil && cur.groupBy == nil && len(cur.conds) == 0 && isCrossTab(prev) {
		out.ambiguous = "the previous answer is a table of two questions, so I can't tell which of them “which” asks about; please name it" // "cross-tab of session by ticket type" – "which one is the most popular"
	}
	if out.ambiguous == "" && cur.addOnly && prev.metric == query.Percent && splitsShare(prev.conds) && len(cur.conds) > 0 {
		out.ambiguous = "“those” could be everyone the share was of or only the ones it counted; please say which" // "what share of flat white drinkers gave 4 or 5 stars" – "how many of those are from germany"
	}
	if out.ambiguous == "" && cur.whichOne && cur.rank == 0 && cur.target == nil && out.groupBy != nil {
		out.ambiguous = "“which one” needs a way to rank the groups; please say highest or lowest" // "satisfaction by office" – "which one"
	}
	return &out
}

// judgedWithoutScale says why "best" or "worst" has two readings for r: the
// highest or the lowest answer of a number that is no scale (hours, a price),
// or "".
func judgedWithoutScale(r *request) string {
	ranks := r.kind == highestGroup || r.kind == lowestGroup || r.metric == query.Max || r.metric == query.Min
	if !ranks || r.target == nil || !isNumeric(r.target.q) || isScale(r.target.q) {
		return ""
	}
	return fmt.Sprintf("“best” and “worst” could be the highest or the lowest %s; please say which", text.Quote(r.target.q.Text))
}

// mergeFigure applies what a follow-up says of the figure: its metric, the
// question it is about, a new number for the previous condition, the words it
// could not read.
func mergeFigure(out, prev, cur *request, ranked bool) {
	if topOfList(prev, cur) {
		out.limit = max(cur.limit, 1) // "top 2 words in what people liked" – "just the top one": the same list, shorter
	} else if (cur.metric != "" || cur.kind != metricIntent) && !splitsFigure(prev, cur) {
		out.metric, out.kind, out.least, out.interval = cur.metric, cur.kind, cur.least, cur.interval
		out.extreme, out.total, out.percentile = cur.extreme, cur.total, cur.percentile
	}
	if ranked && cur.same && cur.kind == metricIntent && cur.groupBy == nil {
		out.kind = prev.kind // "same question but going by the % who would recommend us"
	}
	if cur.rankDefault && prev.metric != "" && prev.kind == metricIntent {
		out.metric = prev.metric // "which department is lowest" ranks the figure asked before
	}
	out.unknown, out.clash, out.ambiguous = cur.unknown, cur.clash, cur.ambiguous
	if q := textOf(out); cur.looseClass != "" && q != nil {
		out.conds = slices.DeleteFunc(out.conds, func(c cond) bool { return c.q == q && c.f.Op == query.SentimentOp })
		out.conds = append(out.conds, cond{q: q, f: query.Filter{Question: q.q.ID, Op: query.SentimentOp, Value: cur.looseClass}})
		out.unknown = slices.DeleteFunc(slices.Clone(out.unknown), func(w string) bool { return sentimentClasses[w] == cur.looseClass })
	}
	if cur.compares && cur.groupBy == nil && len(cur.conds) == 0 && cur.span == nil && out.ambiguous == "" { // "vs last month" asks for that period
		out.ambiguous = "I can't tell which groups to compare; please name them, e.g. “compare Sales and Support”"
	}
	if cur.vaguePointer && out.ambiguous == "" {
		out.ambiguous = "I can't tell what “them” asks about; please ask in full"
	}
	if cur.theOthers && out.ambiguous == "" {
		out.ambiguous = "“the others” could be each other answer or all of them together; please say which"
	}
	if cur.theRest && (len(out.conds) != 1 || !isAnswerCond(out.conds[0])) && out.ambiguous == "" {
		out.ambiguous = "I can't tell whom “everyone else” leaves out: the last group named, or everyone asked about; please say who"
	}
	if at := onlyCond(out.conds, isAnswerCond); cur.theRest && at >= 0 && len(out.conds) == 1 {
		out.conds = slices.Clone(out.conds) // "what do the italians say" – "and everyone else?"
		if yes, ok := out.conds[at].f.Value.(bool); ok {
			out.conds[at].f.Value = !yes // "the ones who will come next year" – "and everyone else": the no's
		} else {
			out.conds[at].f.Op = query.NotEquals
		}
	}
	if at := onlyCond(out.conds, isNumberComparison); cur.otherSide != "" && at >= 0 {
		out.conds = slices.Clone(out.conds) // "how many paid under 200" – "and over?"
		out.conds[at].f.Op = cur.otherSide
		out.unknown = nil
	}
	if cur.lone != nil && renumber(out.conds, *cur.lone) {
		out.unknown = nil
	}
	if cur.metric == "" && cur.extreme != 0 && out.target != nil && fits(query.Max, out.target.q) && cur.kind == metricIntent {
		out.metric = extremeMetric(cur.extreme > 0)
		if prev.metric == query.Mean && cur.cuesOnly && cur.judged && slices.ContainsFunc(prev.conds, isOptionCond) && out.ambiguous == "" {
			// "what's the average rating from spain" – "and the worst?": Spain's lowest rating, or the country rated lowest
			out.ambiguous = "it could ask for the lowest (or highest) answer among the people asked about, or for the group with the lowest (or highest) average; please say which"
		}
	}
	if (prev.metric == query.Max || prev.metric == query.Min) && cur.metric == query.List && cur.target == nil && out.target != nil && isDateLike(out.target.q) {
		out.metric = query.Max // "earliest start date in sales" – "and the most recent one?"
	}
	if prev.metric == query.Top && cur.metric == "" && cur.rank != 0 && (cur.cuesOnly || cur.target == nil && len(cur.conds) == 0 && cur.groupBy == nil) {
		out.least = cur.rank < 0 // "which session did people enjoy least" – "and the most"
	}
	if prev.metric == query.Top && cur.extreme != 0 && cur.judged && cur.target == nil && len(cur.conds) == 0 {
		out.metric, out.least, out.limit = query.Top, cur.extreme < 0, 1 // "top 3 benefits" – "and the worst one"
	}
	if (prev.metric == query.Mode || prev.metric == query.Top && prev.target != nil && isNumeric(prev.target.q)) && cur.extreme != 0 && cur.cuesOnly && !cur.judged && out.ambiguous == "" {
		out.ambiguous = "it could ask for the lowest (or highest) answer or the least (or most) common one; please say which" // after "the most common rating"
	}
	if cur.metric == query.Percent && cur.cuesOnly && !cur.ofEveryone && out.ambiguous == "" && (prev.groupBy != nil && (prev.metric == query.Distribution || prev.metric == "" && prev.target != nil && groupable(prev.target.q)) ||
		prev.metric == query.Count && len(prev.conds) >= 2) {
		out.ambiguous = "I can't tell which share “percent” means here: of everyone, or of one of the groups; please ask in full" // after a cross-tab or a count with two filters
	}
	if listsShares(prev) && len(prev.conds) > 0 && cur.metric == query.Percent && cur.cuesOnly && len(cur.conds) == 0 && out.ambiguous == "" {
		out.ambiguous = "the previous answer lists the shares of several answers, so I can't tell which share “percent” asks for; please ask in full" // "sessions of the no's" – "%?"
	}
	if groupFigure[prev.metric] && cur.topNamed && cur.metric == query.Top && cur.target == nil && len(cur.conds) == 0 && cur.groupBy == nil && out.ambiguous == "" {
		out.ambiguous = "“top” could be the highest answer, the most common one or the group with the highest average; please ask in full" // "avg cups for tea drinkers" – "and the top one"
	}
	if numberFigure[prev.metric] && cur.metric == query.Percent && cur.cuesOnly && len(cur.conds) == 0 && out.ambiguous == "" {
		out.ambiguous = "the previous answer is a figure of numbers, so I can't tell what share “percent” asks for; please ask in full" // "avg price early bird" – "percent?"
	}
	if prev.metric == query.Sentiment && cur.atFigure && out.ambiguous == "" {
		out.ambiguous = "the previous answer is a sentiment over many answers, so I can't tell which count “that” is; please ask in full"
	}
	if ranked && cur.cuesOnly && cur.rank == 0 && cur.metric != "" && cur.metric != prev.metric && out.ambiguous == "" {
		out.ambiguous = "it could rank the groups by that figure or give the figure of the group named; please ask in full" // "who's top" – "and median"
	}
	if prev.metric == query.Sum && cur.perPerson {
		out.metric = query.Mean // "total hours in engineering" – "per person?"
	}
	if i := dateCond(prev.conds); i >= 0 && cur.target == nil && prev.target == nil && (cur.metric == query.Min || cur.metric == query.Max || cur.metric == "" && cur.extreme != 0) {
		out.target = prev.conds[i].q // "how many started in 2023" – "earliest of those?"
		if cur.metric == "" {
			out.metric = extremeMetric(cur.extreme > 0)
		}
	}
	if prev.metric == query.Top && cur.metric == query.Top && cur.least != prev.least && cur.limit == 0 {
		out.limit = 1 // "top 2 instead" – "least popular?": the one least popular
	}
	if (prev.metric == query.Max || prev.metric == query.Min) && cur.metric == query.Top && cur.cuesOnly && cur.limit <= 1 && cur.kind == metricIntent {
		out.metric, out.least = extremeMetric(!cur.least), false // "most anyone paid for a regular ticket" – "and the least?"
	}
	if ranked && cur.which != nil && cur.which == prev.groupBy && cur.target == cur.which {
		cur.target = nil // "and which country likes us least?" names the same groups again
	}
	if ranked && cur.which != nil && cur.metric == "" &&
		cur.groupBy == nil && cur.which != prev.target {
		out.groupBy, cur.target = cur.which, nil // "which session rates highest" – "and which ticket type?"
		out.conds = slices.DeleteFunc(out.conds, func(c cond) bool { return c.q == cur.which })
	}
	if cur.target != nil {
		if prev.blank && prev.target != nil && cur.target != prev.target && !cur.blank && (cur.metric != "" || cur.asksWhich) {
			// "how many skipped cups per day" – "which countries are they from": those who skipped
			out.conds = append(out.conds, cond{q: prev.target, f: query.Filter{Question: prev.target.q.ID, Op: query.IsEmpty}, base: true})
			out.blank = false
		}
		out.target = cur.target
		whichOfCounted(out, prev, cur)
		if (out.metric == query.Count || out.metric == query.Percent) && cur.metric == "" && cur.kind == metricIntent && isNumeric(cur.target.q) {
			out.metric = defaultMetric(cur.target.q) // "how many in support" – "what's the work-life balance there"; "in madrid" (a share) – "hours per week there"
		}
	} else if out.target != nil && out.metric != "" && !fits(out.metric, out.target.q) {
		out.target = nil
	}
	if cur.check != nil {
		out.check = cur.check
	} else if cur.metric != "" && cur.metric != prev.metric {
		out.check = nil // "is avg satisfaction above 3.5?" – "and the standard deviation?" asks the figure, not the check
	}
	if cur.total && cur.metric == query.Count && !cur.howMany && out.target != nil && isNumeric(out.target.q) {
		out.metric = query.Sum // "avg ticket price" – "total?"
	}
}

// mergePeriod applies the period a follow-up names or moves.
func mergePeriod(out, prev, cur *request, today time.Time) {
	if i := dateCond(out.conds); cur.span != nil && i >= 0 && prev.span == nil {
		out.conds[i].f = cur.span.filter() // "how many started before 2018" – "and after 2023?"
		out.conds[i].f.Question = out.conds[i].q.q.ID
	} else if cur.span != nil {
		out.span = cur.span
	}
	if cur.allTime && cur.span == nil {
		out.span = nil // "in october" – "and germans over the whole survey?"
	}
	if cur.shift != nil {
		out.span = nil
		if why := shiftSpan(out, prev.span, *cur.shift, today); why != "" && out.ambiguous == "" {
			out.ambiguous = why
		}
	}
}

// comparePeriods reads "vs last month" after a figure of this month as that
// figure over both periods, month by month (week by week), when both are whole
// calendar periods of one kind; it asks back when they are not.
func comparePeriods(out, prev, cur *request, today time.Time) {
	if !cur.compares || cur.span == nil || prev.span == nil || len(cur.conds) > 0 || cur.groupBy != nil || prev.groupBy != nil || prev.interval != "" {
		return
	}
	unit := periodUnit(prev.span, today)
	if unit == "" || unit != periodUnit(cur.span, today) {
		if out.ambiguous == "" {
			out.ambiguous = "I compare whole months or weeks side by side; please ask for each period"
		}
		return
	}
	counts := (out.metric == "" || out.metric == query.Count) && out.target == nil
	if !counts && !(out.metric == query.Mean && out.target != nil && isNumeric(out.target.q)) {
		if out.ambiguous == "" {
			out.ambiguous = "I show counts and averages period by period, not that figure; please ask for each period"
		}
		return
	}
	first, second := prev.span, cur.span
	if second.from.Before(first.from) {
		first, second = second, first
	}
	out.span = &dateRange{from: first.from, to: second.to, label: first.label + " and " + second.label}
	out.metric, out.interval = query.Trend, unit // a count or an average per period
}

// periodUnit returns "month" or "week" when r is one whole calendar
// period of that kind (the current one up to today), or "".
func periodUnit(r *dateRange, today time.Time) string {
	if r.from.IsZero() || r.to.IsZero() {
		return ""
	}
	for _, u := range []struct {
		name string
		end  time.Time
	}{
		{query.Month, r.from.AddDate(0, 1, -1)},
		{query.Week, r.from.AddDate(0, 0, 6)},
	} {
		starts := u.name == query.Month && r.from.Day() == 1 || u.name == query.Week && r.from.Weekday() == time.Monday
		if starts && (r.to.Equal(u.end) || r.to.Equal(today) && today.Before(u.end)) {
			return u.name
		}
	}
	return ""
}

// mergeGroups applies a follow-up's ranking and breakdown.
func mergeGroups(out, prev, cur *request, ranked bool) {
	if byGroup := prev.kind == metricIntent && prev.groupBy != nil && (len(prev.compare) == 0 || cur.refersBack) && (cur.asksWhich || cur.cuesOnly); (ranked || byGroup) &&
		cur.kind == metricIntent && cur.groupBy == nil && cur.rank != 0 &&
		(cur.target == nil || cur.target == prev.target || prev.target == nil && len(cur.conds) == 0 || cur.whichOne && !isNumeric(cur.target.q)) {
		// "which department is the most satisfied" – "and the least?" ranks the other way
		out.kind = rankIntent(cur.rank > 0)
		out.metric, out.least, out.extreme, out.target = prev.metric, false, 0, prev.target
		if out.metric == "" && out.target != nil {
			out.metric = defaultMetric(out.target.q) // "compare keynote and panel fans on overall rating" – "which of them is highest"
		}
	}
	if ranked && cur.rank != 0 && cur.groupBy == nil && cur.kind == metricIntent && cur.target != nil && cur.target != prev.target && isNumeric(cur.target.q) &&
		(cur.asksWhich || groupFigure[cur.metric] && len(cur.conds) == 0 && cur.span == nil) { // "and the highest average hours?"
		// "which office is happiest" – "and which has the best balance": the same groups ranked by the new measure
		out.kind, out.target, out.extreme, out.least = rankIntent(cur.rank > 0), cur.target, 0, false
		out.metric = cur.metric
		if out.metric == "" || out.metric == query.Max || out.metric == query.Min {
			out.metric = query.Mean
		}
	}
	if cur.every && cur.groupBy == nil && cur.target != nil && listsShares(prev) && cur.target != prev.target && groupable(prev.target.q) && numberFigure[out.metric] {
		out.groupBy = prev.target // "break down ticket types" – "average overall rating for each?"
	}
	if ofAnswersListed(prev, cur) {
		out.groupBy, out.kind, out.extreme, out.limit = prev.target, rankIntent(cur.rank > 0), 0, 0 // "ticket type breakdown" – "which of them has the lowest average rating"
	}
	if cur.groupBy != nil {
		if cur.kind == metricIntent && cur.every {
			out.kind = metricIntent // "the figure for each ticket type" after the highest one shows them all
		}
		out.groupBy, out.compare = cur.groupBy, cur.compare
		// "and for every country" breaks down what was filtered to one; "compare vip and regular" after early birds compares those
		out.conds = slices.DeleteFunc(out.conds, func(c cond) bool { return c.q == cur.groupBy })
	}
	if labels := addedToCompare(prev, cur); labels != nil {
		out.compare, cur.conds = append(slices.Clone(prev.compare), labels...), nil // "compare keynote and panel fans" – "add networking too"
	}
	if g, labels := versusPrevious(prev, cur); g != nil {
		out.groupBy, out.compare, cur.conds = g, labels, nil
		out.conds = slices.DeleteFunc(out.conds, func(c cond) bool { return c.q == g })
	}
	if cur.limit > 0 {
		out.limit = cur.limit
	}
}

// mergeConds applies a follow-up's conditions: they replace those on the same
// question, narrow the population, or turn a count into a share.
func mergeConds(out, prev, cur *request) {
	if out.ambiguous == "" && !cur.addOnly && !cur.narrows && prev.metric != query.Count {
		out.ambiguous = otherGroup(prev.conds, cur.conds)
	}
	asksOfShared := slices.ContainsFunc(prev.conds, func(c cond) bool { return !c.base && c.q != nil && (c.q == cur.target || c.q == cur.groupBy) })
	figureOfBase := numberFigure[cur.metric] && !cur.rankDefault && slices.ContainsFunc(prev.conds, func(c cond) bool { return c.base })
	if prev.metric == query.Percent && (asksOfShared || figureOfBase) {
		// the share's population: "share using health insurance in London" – "least used benefit there?": London's;
		// "what % of the Italians would recommend us" – "and their avg rating": the Italians'
		out.conds = slices.DeleteFunc(out.conds, func(c cond) bool { return !c.base })
	}
	if cur.everyone || cur.allNamed {
		out.conds = nil // "how many in germany" – "and overall?"; "… remote london engineers" – "and for all london engineers"
	}
	if cur.metric == query.Sentiment && cur.overall && len(cur.conds) > 0 {
		out.conds = slices.DeleteFunc(out.conds, func(c cond) bool { return c.f.Op == query.Contains }) // "… mention support" – "and the overall sentiment of comments from people who wouldn't recommend us"
	}
	curConds := replaceNamed(out.conds, cur.conds, cur.replaced)
	if !cur.addOnly {
		out.conds = keepFirstOf(out.conds, curConds)
	}
	if !cur.addOnly && !cur.narrows && len(curConds) > 0 && !slices.ContainsFunc(curConds, func(c cond) bool { return !isAnsweringCond(c) }) {
		out.conds = slices.DeleteFunc(out.conds, isAnsweringCond) // "how many skipped cups per day" – "and how many didn't leave a comment"
		if prev.blank && cur.target == nil {
			out.blank, out.target = false, nil
		}
	}
	if cur.answer != "" && !setYesNo(out.conds, cur.answer == "yes") && out.ambiguous == "" {
		out.ambiguous = "I can't tell which answer of the previous question it turns around; please ask in full"
	}
	if cur.addOnly { // "how many of them …": the earlier answers are the population
		for i := range out.conds {
			out.conds[i].base = true
		}
	}
	if cur.compares && cur.groupBy != nil && cur.target == nil && slices.ContainsFunc(prev.conds, isYesNoAnswer) && out.ambiguous == "" {
		// "avg hours for remote ppl" – "vs office ppl": those not remote, or a breakdown by “Office”
		out.ambiguous = fmt.Sprintf("I can't tell whether it compares with the other answer of the yes/no question or breaks the figure down by %s; please ask in full",
			text.Quote(cur.groupBy.q.Text))
	}
	if len(curConds) == 1 && curConds[0].f.Op == query.Equals && joinedAnswers(prev.conds, curConds[0].q) && out.ambiguous == "" {
		// "how many attended both design and engineering" – "and product?", "latte or tea" – "and espresso?": a third one, or in the place of one?
		out.ambiguous = "it could add that answer to the ones asked for together or put it in the place of one of them; please name them all"
	}
	if (cur.sameFor || cur.bareAnd && len(curConds) == 1 && cur.target == nil && cur.metric == "") && newQuestion(prev.conds, curConds) && len(population(prev)) > 0 && out.ambiguous == "" {
		out.ambiguous = "it could add that answer to the previous conditions or put it in the place of one of them; please ask in full" // "how many germans add sugar" – "same for tea"
	}
	named := map[*question]int{} // where each question's first new answer went
	for _, c := range curConds {
		if at, ok := named[c.q]; ok && c.q != nil {
			c.base = out.conds[at].base
			out.conds = append(out.conds, c) // "milk or sugar" – "and milk and sugar?": both
			continue
		}
		out.conds = replaceCond(out.conds, c, cur.addOnly)
		if i := slices.IndexFunc(out.conds, func(o cond) bool {
			return c.f.Op == query.Equals && o.f.Op == query.Equals && o.q == c.q && o.f.Value == c.f.Value
		}); i >= 0 {
			named[c.q] = i
		}
		if cur.groupBy == nil && c.q != nil && c.q == out.groupBy && len(out.compare) == 0 {
			out.groupBy = nil // "and for Spain?" after a breakdown by country: Spain alone
		}
		if cur.groupBy == nil && c.q != nil && c.q == out.groupBy && len(out.compare) > 0 && out.ambiguous == "" {
			out.ambiguous = "it could add that answer to the comparison or put it in the place of one side; please name the answers to compare"
		}
	}
	if cur.metric == query.Percent && splitsShare(curConds) {
		for i := range out.conds { // "and what % of gym users are in london?" names its own population and share
			k := slices.IndexFunc(curConds, func(c cond) bool { return sameCond(c, out.conds[i]) }) // "of the milk people, what share take sugar": each answer its role
			if k < 0 {
				k = slices.IndexFunc(curConds, func(c cond) bool { return c.q == out.conds[i].q })
			}
			if k >= 0 {
				out.conds[i].base = curConds[k].base
			}
		}
	}
	if out.metric == query.Percent && prev.metric != query.Percent {
		switch {
		case cur.ofEveryone:
			for i := range out.conds {
				out.conds[i].base = false // "how many add milk and sugar" – "what % of everyone is that"
			}
		case cur.addOnly:
			shareOfFirst(out.conds)
		case len(curConds) == 0 && out.span != nil && len(out.conds) == 1:
			out.conds[0].base = false // "responses last 30 days" – "how many recommend" – "%?": of those days' responses
		case cur.shareOfNamed && splitShare(out.conds, curConds, true):
		case !splitShare(out.conds, curConds, false):
			shareOfFirst(out.conds)
		}
	}
}

// isNumberComparison reports whether c compares a numeric answer with a number.
func isNumberComparison(c cond) bool {
	switch c.f.Op {
	case query.LT, query.LTE, query.GT, query.GTE:
		_, ok := c.f.Value.(float64)
		return ok
	}
	return false
}

// isAnsweringCond reports whether c keeps the responses that left its question
// blank, or those that answered it.
func isAnsweringCond(c cond) bool { return c.f.Op == query.IsEmpty || c.f.Op == query.IsNotEmpty }

// addedToCompare returns the answers a follow-up adds to the previous comparison
// ("add networking too", "also panel"), or nil.
func addedToCompare(prev, cur *request) []string {
	if prev.groupBy == nil || len(prev.compare) == 0 || !cur.addsMore || len(cur.conds) == 0 {
		return nil
	}
	var labels []string
	for _, c := range cur.conds {
		label, ok := c.f.Value.(string)
		if c.q != prev.groupBy || c.f.Op != query.Equals || !ok {
			return nil
		}
		labels = append(labels, label)
	}
	return labels
}

// versusPrevious reads a follow-up that sets one answer against the previous
// question's ("avg cups for latte people" – "vs espresso people", "… remote
// people" – "vs the non remote ones"): the question to break down by and the two
// answers compared (none for a yes/no question, whose two answers are all).
func versusPrevious(prev, cur *request) (*question, []string) {
	if !cur.compares || cur.groupBy != nil || len(cur.conds) != 1 {
		return nil, nil
	}
	c := cur.conds[0]
	if c.q == nil || c.f.Op != query.Equals || c.q.q.Type != form.Select && c.q.q.Type != form.YesNo {
		return nil, nil
	}
	if prev.groupBy == c.q && len(prev.compare) > 0 && c.q.q.Type == form.Select {
		return c.q, append(slices.Clone(prev.compare), c.f.Value.(string)) // "and compared to tea"
	}
	at := slices.IndexFunc(prev.conds, func(o cond) bool { return o.q == c.q && o.f.Op == query.Equals && o.f.Value != c.f.Value })
	if at < 0 {
		return nil, nil
	}
	if c.q.q.Type == form.YesNo {
		return c.q, nil
	}
	return c.q, []string{prev.conds[at].f.Value.(string), c.f.Value.(string)}
}

// shiftSpan gives out the period "the week before that" names, moved from the
// previous question's; it returns why it can't, or "".
func shiftSpan(out *request, from *dateRange, sh shift, today time.Time) string {
	if from == nil {
		return fmt.Sprintf("the previous question names no period, so I can't tell which %s is %s it; please name the dates", sh.unit, shiftWord(sh))
	}
	r, why := from.shifted(sh, today)
	out.span = r
	return why
}

// today is the UTC day of now.
func (s *session) today() time.Time { return dayOf(s.now) }

// splitsShare reports whether conds name both a population and a share.
func splitsShare(conds []cond) bool {
	return slices.ContainsFunc(conds, func(c cond) bool { return c.base }) && slices.ContainsFunc(conds, func(c cond) bool { return !c.base })
}

// splitShare makes a count turned into a share the share of some conditions among
// the respondents of the others: with ofNamed, among those of the answers the
// follow-up names ("how many Germans recommend us" – "what % of Germans is that");
// else, the share of those answers among the earlier conditions' respondents
// ("how many from germany" – "recommend %?"). It returns false when the follow-up
// named nothing, or nothing else is left.
func splitShare(conds, named []cond, ofNamed bool) bool {
	isNamed := func(c cond) bool {
		return c.q != nil && slices.ContainsFunc(named, func(n cond) bool { return n.q == c.q })
	}
	if len(named) == 0 || !slices.ContainsFunc(conds, func(c cond) bool { return !isNamed(c) }) {
		return false
	}
	for i := range conds {
		conds[i].base = isNamed(conds[i]) == ofNamed
	}
	return true
}

// joinedAnswers reports whether conds join two answers or more of q: required
// together of a multiple-choice question ("both design and engineering"), or
// either of them ("latte or tea").
func joinedAnswers(conds []cond, q *question) bool {
	if q == nil {
		return false
	}
	n := 0
	for _, c := range conds {
		switch {
		case c.q != q:
		case c.f.Op == query.Equals && q.q.Type == form.MultiSelect:
			n++
		case c.f.Op == query.In:
			n += len(labelsOf(c.f.Value))
		}
	}
	return n >= 2
}

// population returns the conditions that keep the respondents prev is about:
// those of a share's population, or all of them.
func population(prev *request) []cond {
	if prev.metric != query.Percent {
		return prev.conds
	}
	return slices.DeleteFunc(slices.Clone(prev.conds), func(c cond) bool { return !c.base })
}

// newQuestion reports whether named holds an answer of a question that none of
// conds is about, while conds hold some.
func newQuestion(conds, named []cond) bool {
	return slices.ContainsFunc(conds, func(c cond) bool { return c.q != nil }) && slices.ContainsFunc(named, func(n cond) bool {
		return n.q != nil && !slices.ContainsFunc(conds, func(c cond) bool { return c.q == n.q })
	})
}

// shareOfFirst makes a count turned into a share ("how many VIPs will come
// again" – "in percent?") the share of the last condition among the others,
// when none is marked as the population yet.
func shareOfFirst(conds []cond) {
	last := -1
	for i, c := range conds {
		if c.base {
			return
		}
		if last < 0 || c.pos > conds[last].pos {
			last = i
		}
	}
	for i := range conds {
		conds[i].base = i != last
	}
}

// otherGroup returns why a follow-up naming an option of another choice question
// than the previous one's ("and in Sales?" – "same for the London office") has
// two readings: London alone, or Sales in London. "" when it has one. A count
// ("how many drink tea" – "and in Italy?") and a follow-up that says it narrows
// ("among VIPs", "only") are read one way: both conditions.
func otherGroup(prev, cur []cond) string {
	for _, c := range cur {
		if !isOptionCond(c) || slices.ContainsFunc(prev, func(old cond) bool { return old.q == c.q }) {
			continue // another option of a question asked before replaces it
		}
		for _, old := range prev {
			if isOptionCond(old) && old.q != c.q && !slices.ContainsFunc(cur, func(n cond) bool { return n.q == old.q }) {
				return fmt.Sprintf("I can't tell whether you mean %v alone or %v and %v together; please ask in full", c.f.Value, old.f.Value, c.f.Value)
			}
		}
	}
	return ""
}

// isOptionCond reports whether c is "answered <option>" on a single-choice question.
func isOptionCond(c cond) bool {
	return c.q != nil && c.q.q.Type == form.Select && c.f.Op == query.Equals
}

// isYesNoAnswer reports whether c keeps the respondents of one answer of a
// yes/no question.
func isYesNoAnswer(c cond) bool {
	return c.q != nil && c.q.q.Type == form.YesNo && c.f.Op == query.Equals
}

// isAnswerCond reports whether c keeps the respondents of one answer of a choice
// or yes/no question.
func isAnswerCond(c cond) bool {
	return isOptionCond(c) || isYesNoAnswer(c)
}

// renumber gives the only comparison of a numeric question among conds the value
// of f ("how many rated 3" – "and 4?"), and f's comparison when it has one ("and
// 7 or 8?"); false when there is not exactly one, or a range gets a lone number.
func renumber(conds []cond, f query.Filter) bool {
	at := onlyCond(conds, func(c cond) bool { return c.q != nil && isNumeric(c.q.q) })
	if at < 0 {
		return false
	}
	switch old := conds[at].f.Op; {
	case old == query.Between && f.Op == "":
		return false
	case old != query.Equals && old != query.GT && old != query.GTE && old != query.LT && old != query.LTE && old != query.Between:
		return false
	}
	conds[at].f.Value = f.Value
	if f.Op != "" {
		conds[at].f.Op, conds[at].f.To = f.Op, f.To
	}
	return true
}

// onlyCond returns the index of the only condition of conds that match holds
// for, or -1 when none or several do.
func onlyCond(conds []cond, match func(cond) bool) int {
	at := -1
	for i, c := range conds {
		if !match(c) {
			continue
		}
		if at >= 0 {
			return -1
		}
		at = i
	}
	return at
}

// replaceNamed puts, for each condition of replaced ("instead of Marketing") that
// conds holds, the condition of cur on the same question in its place, and
// returns the conditions of cur left to merge.
func replaceNamed(conds, cur, replaced []cond) []cond {
	rest := slices.Clone(cur)
	for _, r := range replaced {
		at := slices.IndexFunc(conds, func(c cond) bool { return c.q == r.q && c.f.Op == r.f.Op && c.f.Value == r.f.Value })
		with := slices.IndexFunc(rest, func(c cond) bool { return c.q == r.q })
		if at < 0 || with < 0 {
			continue
		}
		rest[with].base = conds[at].base
		conds[at] = rest[with]
		rest = slices.Delete(rest, with, with+1)
	}
	return rest
}

// textOf returns the free-text question a request is about: its target, or the
// question of one of its conditions, or nil.
func textOf(in *request) *question {
	if in.target != nil && isFreeText(in.target.q) {
		return in.target
	}
	for _, c := range in.conds {
		if c.q != nil && isFreeText(c.q.q) {
			return c.q
		}
	}
	return nil
}

// setYesNo gives the only yes/no condition of conds the answer v ("and those who
// wouldn't?" after "people who would recommend us"); false when there is not
// exactly one.
func setYesNo(conds []cond, v bool) bool {
	at := onlyCond(conds, func(c cond) bool {
		_, ok := c.f.Value.(bool)
		return ok && c.f.Op == query.Equals
	})
	if at < 0 {
		return false
	}
	conds[at].f.Value = v
	return true
}

// dateCond returns the index of the only condition of conds on a date question, or -1.
func dateCond(conds []cond) int {
	return onlyCond(conds, func(c cond) bool { return c.q != nil && c.q.q.Type == form.Date })
}

// keepFirstOf drops from conds every condition but the first on a question that
// a condition of replacing names: "both milk and sugar" – "and milk or sugar?"
// replaces both conditions on the question with the new one.
func keepFirstOf(conds, replacing []cond) []cond {
	seen := map[*question]bool{}
	return slices.DeleteFunc(conds, func(c cond) bool {
		named := c.q != nil && slices.ContainsFunc(replacing, func(n cond) bool { return n.q == c.q })
		drop := named && seen[c.q]
		seen[c.q] = true
		return drop
	})
}

// replaceCond puts c in place of the condition on the same question (a bare
// yes/no replaces the condition on a yes_no question), or adds it as narrowing the
// population.
func replaceCond(conds []cond, c cond, addOnly bool) []cond {
	for i, old := range conds {
		same := (c.q != nil && old.q == c.q) || (c.q == nil && old.q != nil && old.q.q.Type == form.YesNo)
		if same && (!addOnly || disjoint(old.f, c.f)) { // "40 hours or less" – "and of those working more than 40?" swaps
			c.base = old.base || c.base
			if c.q == nil {
				c.q = old.q
				c.f.Question = old.f.Question
			}
			conds[i] = c
			return conds
		}
	}
	c.base = !addOnly
	return append(conds, c)
}

// disjoint reports whether no number passes both numeric comparisons a and b.
func disjoint(a, b query.Filter) bool {
	alo, ahi, aok := interval(a)
	blo, bhi, bok := interval(b)
	return aok && bok && (ahi.v < blo.v || bhi.v < alo.v || ahi.v == blo.v && (ahi.open || blo.open) || bhi.v == alo.v && (bhi.open || alo.open))
}

// bound is one end of an interval of numbers; open excludes v.
type bound struct {
	v    float64
	open bool
}

// interval returns the numbers a numeric comparison lets through.
func interval(f query.Filter) (lo, hi bound, ok bool) {
	v, isNum := f.Value.(float64)
	if !isNum {
		return lo, hi, false
	}
	inf := math.Inf(1)
	switch f.Op {
	case query.Equals:
		return bound{v: v}, bound{v: v}, true
	case query.GT:
		return bound{v: v, open: true}, bound{v: inf}, true
	case query.GTE:
		return bound{v: v}, bound{v: inf}, true
	case query.LT:
		return bound{v: -inf}, bound{v: v, open: true}, true
	case query.LTE:
		return bound{v: -inf}, bound{v: v}, true
	case query.Between:
		to, ok := f.To.(float64)
		return bound{v: v}, bound{v: to}, ok
	}
	return lo, hi, false
}

// bind gives bare yes/no answers their question: the yes_no question the request is
// about, or the form's only one. Conditions that cannot be bound are dropped.
func (s *session) bind(in *request) {
	var yn *question
	if in.target != nil && in.target.q.Type == form.YesNo {
		yn = in.target
	} else if s.cf.countOfType(form.YesNo) == 1 {
		yn = s.cf.firstOfType(form.YesNo)
	}
	out := in.conds[:0]
	for _, c := range in.conds {
		if c.q == nil {
			if yn == nil {
				continue
			}
			c.q, c.f.Question = yn, yn.q.ID
		}
		out = append(out, c)
	}
	in.conds = out
}

// answerable reports whether the request names something to compute.
func (s *session) answerable(in *request) bool {
	switch {
	case in.kind != metricIntent || len(in.compare) > 0:
		return true
	case in.target != nil:
		return true
	case len(in.conds) > 0:
		return in.metric != query.Mean && in.metric != query.Median && in.metric != query.Sum
	case in.span != nil || in.groupBy != nil:
		return in.metric != "" || in.about
	case in.metric == query.Count || in.metric == query.Trend:
		return in.about
	case in.metric == query.Sentiment:
		return true
	case in.metric == query.List:
		return s.cf.firstOfType(form.Textarea, form.Text) != nil
	}
	return false
}
