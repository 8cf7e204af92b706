package builtin

import (
	"forma/internal/ai/query"
	"forma/internal/form"
)

// defaultChatList is how many answers a listing shows without a number asked.
const defaultChatList = 5

// chatPlan is the engine query of an intent with the conditions it was built from.
type chatPlan struct {
	q     query.Query
	base  []chatCond // conditions of the population
	match []chatCond // percent: the conditions whose share is asked
	span  *chatRange // submission dates of the population
}

// plan turns an intent into an engine query; false when it names nothing the
// engine can compute.
func (s *chatSession) plan(in *chatIntent) (chatPlan, bool) {
	p := chatPlan{base: in.conds, span: in.span}
	if in.span != nil {
		p.q.From, p.q.To = in.span.fromText(), in.span.toText()
	}
	if in.groupBy != nil {
		p.q.GroupBy = in.groupBy.q.ID
	}
	p.q.Metric = s.metricOf(in)
	if in.target == nil && in.groupBy != nil && len(in.conds) == 0 && p.q.Metric == query.Percent {
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
		if ok = s.planPercent(in, &p); !ok && in.target != nil {
			p.q.Metric, p.base, p.match = query.Distribution, in.conds, nil
			ok = s.planChoice(in, &p)
		}
	case query.Mean, query.Median, query.Sum, query.Min, query.Max:
		ok = in.target != nil && chatFits(p.q.Metric, in.target.q)
	case query.Top, query.Distribution:
		ok = s.planChoice(in, &p)
	case query.List:
		ok = s.planList(in, &p)
	case query.Trend:
		p.q.Interval = chatTrendInterval(in)
		if in.target != nil && !chatIsNumeric(in.target.q) {
			p.q.Question = 0
		}
	}
	p.q.Filters = chatFilters(p.base)
	p.q.Match = chatFilters(p.match)
	return p, ok
}

// metricOf returns the engine metric of an intent, choosing one from the target's
// type when the message named none.
func (s *chatSession) metricOf(in *chatIntent) query.Metric {
	switch in.special {
	case chatBusiest:
		return query.Trend
	case chatArgMax, chatArgMin:
		return in.metric
	}
	if in.metric != "" {
		if in.target != nil && !chatFits(in.metric, in.target.q) && in.metric != query.Trend {
			return chatDefaultMetric(in.target.q)
		}
		return in.metric
	}
	if in.target == nil {
		return query.Count
	}
	if len(in.conds) > 0 && in.target.q.Type == form.YesNo {
		return query.Count
	}
	return chatDefaultMetric(in.target.q)
}

// chatDefaultMetric is the figure shown for a question asked about without one.
func chatDefaultMetric(q *form.Question) query.Metric {
	switch {
	case chatIsNumeric(q):
		return query.Mean
	case chatIsFreeText(q):
		return query.List
	case q.Type == form.Select || q.Type == form.MultiSelect || q.Type == form.YesNo:
		return query.Distribution
	}
	return query.Count
}

// planCount counts the matching responses; a target nobody conditioned counts the
// responses that answered it.
func (s *chatSession) planCount(in *chatIntent, p *chatPlan) {
	p.q.Question = 0
	if in.target == nil {
		return
	}
	for _, c := range in.conds {
		if c.q == in.target {
			return
		}
	}
	p.base = append(p.base, chatCond{q: in.target, f: query.Filter{Question: in.target.q.ID, Op: query.IsNotEmpty}})
}

// planPercent splits the conditions into population and share. Without a share
// condition, the yes_no target's Yes is the share, or the population conditions are.
func (s *chatSession) planPercent(in *chatIntent, p *chatPlan) bool {
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
	if in.target != nil && in.target.q.Type == form.YesNo {
		p.match = []chatCond{{q: in.target, f: query.Filter{Question: in.target.q.ID, Op: query.Equals, Value: true}}}
		return true
	}
	p.base, p.match = nil, p.base
	return len(p.match) > 0
}

// planList lists the target's answers, or the first free-text question's.
func (s *chatSession) planList(in *chatIntent, p *chatPlan) bool {
	p.q.Limit = in.limit
	if p.q.Limit == 0 {
		p.q.Limit = defaultChatList
	}
	if in.target != nil {
		return true
	}
	for _, c := range in.conds {
		if c.q != nil && chatIsFreeText(c.q.q) {
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

// chatFilters returns the filters of bound conditions.
func chatFilters(cs []chatCond) []query.Filter {
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
func (s *chatSession) planChoice(in *chatIntent, p *chatPlan) bool {
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

// chatTrendInterval is the period of a trend: the one asked for, else months for a
// date range of eight weeks or more, weeks for two weeks or more, else the engine's
// choice.
func chatTrendInterval(in *chatIntent) string {
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
