package chat

import (
	"fmt"
	"slices"
	"strings"

	"forma/internal/ai/query"
	"forma/internal/ai/text"
	"forma/internal/form"
)

// replyCross words a cross-tab: for every answer of the breakdown question, how
// many of its responses gave each answer of the target question, and the average
// answer of each group when the target is a rating.
func (s *session) replyCross(in *request, p queryPlan, res *query.Result) string {
	g, q := in.groupBy.q, in.target.q
	means := s.groupMeans(p, q)
	var b strings.Builder
	fmt.Fprintf(&b, "Answers to %s by answer to %s%s (%d responses):", text.Quote(q.Text), text.Quote(g.Text),
		s.scope(p.base, p, res.Matched), res.Matched)
	for _, grp := range s.groupsShown(in, res) {
		var cells []string
		for _, bk := range grp.Result.Buckets {
			cells = append(cells, fmt.Sprintf("%s %d", answerLabel(q, bk.Label), bk.Count))
		}
		avg := ""
		if m, ok := means[grp.Label]; ok {
			avg = ", average " + m
		}
		fmt.Fprintf(&b, "\n- %s (%d%s): %s", answerLabel(g, grp.Label), grp.Result.Matched, avg, strings.Join(cells, ", "))
	}
	return b.String()
}

// groupMeans returns the average answer to q of every group of the plan,
// formatted, when q is numeric; nil otherwise.
func (s *session) groupMeans(p queryPlan, q *form.Question) map[string]string {
	if !isNumeric(q) {
		return nil
	}
	mq := p.q
	mq.Metric, mq.Limit, mq.Order = query.Mean, 0, ""
	res, err := s.eng.Run(mq)
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for _, grp := range res.Groups {
		if grp.Result.Value != nil {
			out[grp.Label] = query.FormatValue(q, *grp.Result.Value)
		}
	}
	return out
}

// orOptions turns two or more options of one question joined by "or" ("tea or
// latte") into one condition that either answer satisfies, unless the message
// compares them ("which is more popular, tea or latte?").
func (p *parser) orOptions(cues map[cue]bool) {
	if cues[cueCompare] || anyWord(p.words, text.Set("which vs versus compare")) {
		return
	}
	byQ := map[*question][]int{}
	for i, c := range p.conds {
		if c.q != nil && c.f.Op == query.Equals && len(c.q.options) > 0 && c.q.q.Type != form.YesNo {
			byQ[c.q] = append(byQ[c.q], i)
		}
	}
	for q, idx := range byQ {
		if len(idx) < 2 {
			continue
		}
		from, to := p.conds[idx[0]].pos, p.conds[idx[len(idx)-1]].pos
		if !p.orBetween(from, to) && !(q.q.Type == form.Select && p.andBetween(from, to) && anyWord(p.words, togetherWords)) {
			continue // "france and the uk put together": one country each, so either
		}
		var vals []any
		for _, i := range idx {
			vals = append(vals, p.conds[i].f.Value)
		}
		first := p.conds[idx[0]]
		first.f = query.Filter{Question: q.q.ID, Op: query.In, Value: vals}
		p.conds = slices.DeleteFunc(p.conds, func(c cond) bool { return c.q == q && c.f.Op == query.Equals })
		p.conds = append(p.conds, first)
	}
}

// togetherWords ask for the total of answers joined by "and".
var togetherWords = text.Set("together combined altogether total")

// andBetween reports whether "and" stands between positions from and to.
func (p *parser) andBetween(from, to int) bool {
	for k := max(from, 0); k < to && k < len(p.words); k++ {
		if p.words[k] == "and" {
			return true
		}
	}
	return false
}

// orBetween reports whether "or" stands between positions from and to.
func (p *parser) orBetween(from, to int) bool {
	for k := from; k < to; k++ {
		if p.words[k] == "or" {
			return true
		}
	}
	return false
}
