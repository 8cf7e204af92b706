package chat

import (
	"slices"
	"strconv"

	"forma/internal/ai/query"
	"forma/internal/form"
)

// Follow-ups that point back at the one answer the previous reply named ("which
// session did people enjoy most" – "how many of them will come next year"): "them"
// are the respondents who gave that answer, not everyone the previous question
// counted.

// namedAnswer returns the condition that keeps the respondents of the one answer
// the reply to prev named: the group ranked first, or the most (least) common
// answer. It returns false when the reply named none, or several tied.
func (s *session) namedAnswer(prev *request) (cond, bool) {
	p, ok := s.plan(prev)
	if !ok || prev.limit > 1 {
		return cond{}, false
	}
	switch {
	case (prev.kind == highestGroup || prev.kind == lowestGroup) && prev.groupBy != nil:
		res, err := s.eng.Run(p.q)
		if err != nil {
			return cond{}, false
		}
		ranked := rankGroups(s.groupsShown(prev, res), prev.kind == highestGroup)
		if len(ranked) == 0 || len(ranked) > 1 && query.Format(*ranked[0].Result.Value) == query.Format(*ranked[1].Result.Value) {
			return cond{}, false
		}
		return answerCond(prev.groupBy, ranked[0].Label)
	case prev.kind == metricIntent && prev.groupBy == nil && prev.target != nil && (p.q.Metric == query.Top || p.q.Metric == query.Mode):
		q := p.q
		q.Metric, q.Limit, q.Order = query.Distribution, 0, ""
		res, err := s.eng.Run(q)
		if err != nil {
			return cond{}, false
		}
		return mostGiven(prev.target, res.Buckets, prev.least && p.q.Metric == query.Top)
	}
	return cond{}, false
}

// mostGiven returns the condition of the answer of buckets given most (least)
// often, and false on a tie.
func mostGiven(q *question, buckets []query.Bucket, least bool) (cond, bool) {
	ranked := slices.Clone(buckets)
	slices.SortStableFunc(ranked, func(a, b query.Bucket) int {
		if least {
			return a.Count - b.Count
		}
		return b.Count - a.Count
	})
	if len(ranked) == 0 || len(ranked) > 1 && ranked[0].Count == ranked[1].Count {
		return cond{}, false
	}
	return answerCond(q, ranked[0].Label)
}

// answerCond returns the condition "answered label to q", and false when label is
// not an answer q takes.
func answerCond(q *question, label string) (cond, bool) {
	var v any
	switch q.q.Type {
	case form.Select, form.MultiSelect:
		if !slices.ContainsFunc(q.options, func(o option) bool { return o.label == label }) {
			return cond{}, false
		}
		v = label
	case form.YesNo:
		if label != "Yes" && label != "No" {
			return cond{}, false
		}
		v = label == "Yes"
	default:
		n, err := strconv.ParseFloat(label, 64)
		if err != nil || !isNumeric(q.q) {
			return cond{}, false
		}
		v = n
	}
	return cond{q: q, f: query.Filter{Question: q.q.ID, Op: query.Equals, Value: v}}, true
}

// ofNamedAnswer returns prev as the count of the respondents of the answer its
// reply named, for a follow-up to narrow, or nil when the follow-up does not
// point back at them or the reply named no one answer.
func (s *session) ofNamedAnswer(prev, cur *request) *request {
	if !cur.refersBack || cur.groupBy != nil || prev.refersBack && len(prev.conds) > 0 {
		return nil // "how many drink more than 3 cups" – "which drink is most popular among them" – "their average rating": still those drinkers
	}
	c, ok := s.namedAnswer(prev)
	if !ok || cur.target == c.q || cur.which == c.q || slices.ContainsFunc(cur.conds, func(o cond) bool { return o.q == c.q }) ||
		cur.onlyThere && (isNumeric(c.q.q) || !anyWord(c.q.words, placeNouns) && slices.ContainsFunc(prev.conds, isPlaceCond)) { // "most common rating in spain" – "the total cups there": in Spain
		return nil // "and those in France?" names the answer again; "and which add-in do they pick least?" asks it again
	}
	return countOf(prev, c)
}

// countOfNamed returns prev as the count of the respondents of the one answer its
// reply named, or nil when it named none.
func (s *session) countOfNamed(prev *request) *request {
	c, ok := s.namedAnswer(prev)
	if !ok {
		return nil
	}
	return countOf(prev, c)
}

// countOf returns prev as the count of its respondents who also satisfy c; the
// respondents of a share are its population, not those the share counted.
func countOf(prev *request, c cond) *request {
	out := *prev
	out.conds = append(slices.Clone(population(prev)), c) // "worst country for recommending" – "their avg rating": all of France
	out.metric, out.kind, out.target, out.groupBy, out.compare = query.Count, metricIntent, nil, nil, nil
	out.limit, out.least, out.extreme, out.rank, out.check = 0, false, 0, 0, nil
	return &out
}

// listedAnswers returns the answers the reply to prev listed, a top (or bottom)
// list of a choice question, or nil.
func (s *session) listedAnswers(prev *request) []string {
	p, ok := s.plan(prev)
	if !ok {
		return nil
	}
	res, err := s.eng.Run(p.q)
	if err != nil {
		return nil
	}
	var out []string
	for _, b := range res.Buckets {
		out = append(out, b.Label)
	}
	return out
}

// noResponsesIn reports whether no response was submitted in span.
func (s *session) noResponsesIn(span *dateRange) bool {
	res, err := s.eng.Run(query.Query{Metric: query.Count, From: span.fromText(), To: span.toText()})
	return err == nil && res.N == 0
}

// isPlaceCond reports whether c is a condition on a place question ("in spain").
func isPlaceCond(c cond) bool {
	return c.q != nil && anyWord(c.q.words, placeNouns)
}
