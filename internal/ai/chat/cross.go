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

// comparingOr set the answers joined by "or" against each other.
var comparingOr = text.Set("which vs versus compare")

// orOptions turns two or more options of one question joined by "or" ("tea or
// latte") into one condition that either answer satisfies, unless the message
// compares them ("which is more popular, tea or latte?").
func (p *parser) orOptions(cues map[cue]bool) {
	if cues[cueCompare] || anyWord(p.words, comparingOr) {
		return
	}
	byQ := map[*question][]int{} // the positions of each question's answers named
	for _, c := range p.conds {
		if c.q != nil && c.f.Op == query.Equals && len(c.q.options) > 0 && c.q.q.Type != form.YesNo {
			byQ[c.q] = append(byQ[c.q], c.pos)
		}
	}
	for q, pos := range byQ {
		if len(pos) < 2 {
			continue
		}
		from, to := pos[0], pos[len(pos)-1]
		joinedAnd := q.q.Type == form.Select && p.wordBetween("and", from, to)
		if !p.wordBetween("or", from, to) && !(joinedAnd && (anyWord(p.words, togetherWords) || p.peopleAfter(to))) {
			continue // "france and the uk put together", "finance and marketing people": one answer each, so either
		}
		p.conds = anyOf(p.conds, q)
	}
}

// peopleAfter reports whether a word naming people follows the answer named at
// pos ("finance and marketing people").
func (p *parser) peopleAfter(pos int) bool {
	k := pos + 1
	for k < len(p.words) && p.used[k] && !peopleNouns[p.words[k]] {
		k++ // the answer's other words ("early bird")
	}
	return peopleNouns[p.word(k)]
}

// anyOf returns conds with the answers of q they name made one "any of"
// condition, in the place of the first.
func anyOf(conds []cond, q *question) []cond {
	var vals []any
	first := -1
	for i, c := range conds {
		if c.q == q && c.f.Op == query.Equals {
			vals = append(vals, c.f.Value)
			if first < 0 {
				first = i
			}
		}
	}
	merged := conds[first]
	merged.f = query.Filter{Question: q.q.ID, Op: query.In, Value: vals}
	out := slices.DeleteFunc(slices.Clone(conds), func(c cond) bool { return c.q == q && c.f.Op == query.Equals })
	return append(out, merged)
}

// togetherWords ask for the total of answers joined by "and".
var togetherWords = text.Set("together combined altogether total")

// wordBetween reports whether w stands between positions from and to.
func (p *parser) wordBetween(w string, from, to int) bool {
	for k := max(from, 0); k < to && k < len(p.words); k++ {
		if p.words[k] == w {
			return true
		}
	}
	return false
}
