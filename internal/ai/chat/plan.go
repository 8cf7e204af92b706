package chat

import (
	"forma/internal/ai/query"
	"forma/internal/form"
)

// defaultListLen is how many answers a listing shows without a number asked.
const defaultListLen = 5

// queryPlan is the engine query of a request with the conditions it was built from.
type queryPlan struct {
	q     query.Query
	base  []cond     // conditions of the population
	match []cond     // percent: the conditions whose share is asked
	span  *dateRange // submission dates of the population
	// matchSpan is the period whose share a percent asks ("what % of responses
	// came in October"), or nil.
	matchSpan *dateRange
}

// plan turns a request into an engine query; false when it names nothing the
// engine can compute.
func (s *session) plan(in *request) (queryPlan, bool) {
	p := queryPlan{base: in.conds, span: in.span}
	if in.span != nil {
		p.q.From, p.q.To = in.span.fromText(), in.span.toText()
	}
	if in.groupBy != nil {
		p.q.GroupBy = in.groupBy.q.ID
	}
	p.q.Metric = s.metricOf(in)
	if p.q.Metric == query.Distribution && in.limit > 0 {
		p.q.Metric = query.Top // "which 3 departments have the most responses": the 3 largest
	}
	if in.target == nil && in.groupBy != nil && len(in.conds) == 0 && (p.q.Metric == query.Percent || p.q.Metric == query.Distribution) {
		// "% by country", "breakdown by ticket type": the answers of the question named
		in.target, in.groupBy, p.q.GroupBy, p.q.Metric = in.groupBy, nil, 0, query.Distribution
	}
	if in.target != nil {
		p.q.Question = in.target.q.ID
	}
	ok := true
	switch p.q.Metric {
	case query.Count:
		s.planCount(in, &p)
	case query.Percent:
		if ok = s.planPercent(in, &p); !ok && in.target != nil && !isFreeText(in.target.q) {
			p.q.Metric, p.base, p.match = query.Distribution, in.conds, nil
			ok = s.planChoice(in, &p)
		}
	case query.Mean, query.Median, query.Sum, query.Min, query.Max, query.StdDev, query.Percentile:
		ok = in.target != nil && fits(p.q.Metric, in.target.q)
		p.q.Percentile = in.percentile
	case query.Mode:
		ok = in.target != nil
	case query.Words:
		if in.target == nil {
			in.target = s.cf.firstOfType(form.Textarea, form.Text)
		}
		ok = in.target != nil && fits(query.Words, in.target.q)
		if ok {
			p.q.Question, p.q.Limit = in.target.q.ID, in.limit
			if in.limit == 1 {
				p.q.Limit = 0 // "the most common word": replyWords keeps the words tied first
			}
		}
	case query.Top, query.Distribution:
		ok = s.planChoice(in, &p)
	case query.List:
		ok = s.planList(in, &p)
	case query.Trend:
		ok = in.groupBy == nil // one series: not a series per group
		p.q.Interval = trendInterval(in)
		if in.target != nil && !isNumeric(in.target.q) {
			p.q.Question = 0
		}
	}
	p.q.Filters = filtersOf(p.base)
	p.q.Match = filtersOf(p.match)
	if p.matchSpan != nil {
		f := p.matchSpan.filter()
		f.Field = query.FieldSubmittedAt
		p.q.Match = append(p.q.Match, f)
	}
	return p, ok
}

// metricOf returns the engine metric of a request, choosing one from the target's
// type when the message named none.
func (s *session) metricOf(in *request) query.Metric {
	switch in.kind {
	case busiestPeriod:
		return query.Trend
	case highestGroup, lowestGroup:
		return in.metric
	}
	if in.metric != "" {
		if in.target != nil && !fits(in.metric, in.target.q) && in.metric != query.Trend {
			return defaultMetric(in.target.q)
		}
		return in.metric
	}
	if in.target == nil {
		return query.Count
	}
	if len(in.conds) > 0 && in.target.q.Type == form.YesNo {
		return query.Count
	}
	return defaultMetric(in.target.q)
}

// defaultMetric is the figure shown for a question asked about without one.
func defaultMetric(q *form.Question) query.Metric {
	switch {
	case isNumeric(q):
		return query.Mean
	case isFreeText(q):
		return query.List
	case q.Type == form.Select || q.Type == form.MultiSelect || q.Type == form.YesNo:
		return query.Distribution
	}
	return query.Count
}

// planCount counts the matching responses; a target nobody conditioned counts the
// responses that answered it (that left it blank, when asked).
func (s *session) planCount(in *request, p *queryPlan) {
	p.q.Question = 0
	if in.target == nil {
		return
	}
	for _, c := range in.conds {
		if c.q == in.target {
			return
		}
	}
	if len(in.conds) > 0 && !in.answersTarget && !in.blank {
		return // "how many attendees said the Workshop was …" counts the Workshop's, whoever wrote a comment
	}
	op := query.IsNotEmpty
	if in.blank {
		op = query.IsEmpty
	}
	p.base = append(p.base, cond{q: in.target, f: query.Filter{Question: in.target.q.ID, Op: op}})
}

// planPercent splits the conditions into population and share. Without a share
// condition, the yes_no target's Yes is the share, or the population conditions are.
func (s *session) planPercent(in *request, p *queryPlan) bool {
	p.q.Question = 0
	p.base, p.match = nil, nil
	for _, c := range in.conds {
		if c.base {
			p.base = append(p.base, c)
		} else {
			p.match = append(p.match, c)
		}
	}
	if len(p.match) > 0 {
		return true
	}
	if in.span != nil && in.target == nil {
		p.matchSpan, p.span, p.q.From, p.q.To = in.span, nil, "", "" // "what % of responses came in October"
		return true
	}
	if in.target != nil && in.blank { // "what % didn't answer cups per day"
		p.match = []cond{{q: in.target, f: query.Filter{Question: in.target.q.ID, Op: query.IsEmpty}}}
		return true
	}
	if in.target != nil && in.target.q.Type == form.YesNo {
		p.match = []cond{{q: in.target, f: query.Filter{Question: in.target.q.ID, Op: query.Equals, Value: true}}}
		return true
	}
	p.base, p.match = nil, p.base
	return len(p.match) > 0
}

// planList lists the target's answers, or the first free-text question's.
func (s *session) planList(in *request, p *queryPlan) bool {
	p.q.Limit = in.limit
	if p.q.Limit == 0 {
		p.q.Limit = defaultListLen
	}
	if in.groupBy != nil {
		return false // answers are listed newest first, not by group
	}
	if in.target != nil {
		return true
	}
	for _, c := range in.conds {
		if c.q != nil && isFreeText(c.q.q) {
			in.target = c.q
			break
		}
	}
	if in.target == nil {
		in.target = s.cf.firstOfType(form.Textarea, form.Text)
	}
	if in.target == nil {
		return false
	}
	p.q.Question = in.target.q.ID
	return true
}

// filtersOf returns the filters of bound conditions.
func filtersOf(cs []cond) []query.Filter {
	var out []query.Filter
	for _, c := range cs {
		if c.q != nil {
			out = append(out, c.f)
		}
	}
	return out
}

// planChoice shows the answers of the target; a message that named only one
// question, through a condition ("breakdown of who would recommend us"), is about
// that question.
func (s *session) planChoice(in *request, p *queryPlan) bool {
	if in.target == nil && len(in.conds) == 1 && in.conds[0].q != nil {
		in.target, p.base = in.conds[0].q, nil
		in.conds = nil
	}
	if in.target == nil {
		return false
	}
	p.q.Question = in.target.q.ID
	p.q.Limit = in.limit
	if in.least {
		p.q.Order = "asc"
	}
	return true
}

// trendInterval is the period of a trend: the one asked for, else months for a
// date range of eight weeks or more, weeks for two weeks or more, else the engine's
// choice.
func trendInterval(in *request) string {
	if in.interval != "" || in.span == nil || in.span.from.IsZero() || in.span.to.IsZero() {
		return in.interval
	}
	days := in.span.to.Sub(in.span.from).Hours() / 24
	switch {
	case days >= 55:
		return query.Month
	case days >= 13:
		return query.Week
	}
	return query.Day
}
