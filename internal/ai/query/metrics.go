package query

import (
	"errors"
	"fmt"
	"slices"
	"sort"

	"forma/internal/form"
)

// ptr returns a pointer to v.
func ptr(v float64) *float64 { return &v }

// share returns part ÷ whole × 100, 0 when whole is 0.
func share(part, whole int) float64 {
	if whole == 0 {
		return 0
	}
	return float64(part) / float64(whole) * 100
}

// count counts the responses idx, or their answers to qu.
func (e *Engine) count(qu *form.Question, idx []int, res *Result) error {
	n := len(idx)
	if qu != nil {
		n = e.answeredCount(qu.ID, idx)
	}
	res.N, res.Value = n, ptr(float64(n))
	return nil
}

// answeredCount counts the responses among idx that answered question id.
func (e *Engine) answeredCount(id int64, idx []int) int {
	n := 0
	ans := e.column(id).ans
	for _, i := range idx {
		if ans[i] {
			n++
		}
	}
	return n
}

// percent computes the share of the responses idx that satisfy match.
func (e *Engine) percent(match []Filter, idx []int, res *Result) error {
	if len(match) == 0 {
		return errors.New("percent needs match: the condition whose share is computed")
	}
	p, err := e.compileAll(match)
	if err != nil {
		return fmt.Errorf("match: %w", err)
	}
	res.N = len(e.match(p, idx))
	if len(idx) > 0 {
		res.Value = ptr(share(res.N, len(idx)))
	}
	return nil
}

// numeric computes mean, median, min, max or sum of qu's answers.
func (e *Engine) numeric(m Metric, qu *form.Question, idx []int, res *Result) error {
	if qu == nil {
		return fmt.Errorf("metric %q needs a question", m)
	}
	k := kindOf(qu.Type)
	if (k == kindDate || k == kindTime) && (m == Min || m == Max) {
		return e.extremeText(m, qu, idx, res)
	}
	if k != kindNumber {
		return fmt.Errorf("metric %q needs a numeric question; question %d is %s", m, qu.ID, qu.Type)
	}
	vals := e.numberValues(qu.ID, idx)
	res.N = len(vals)
	if len(vals) > 0 || m == Sum {
		res.Value = ptr(aggregate(m, vals))
	}
	return nil
}

// numberValues returns the numeric answers to question id among idx.
func (e *Engine) numberValues(id int64, idx []int) []float64 {
	num, isNum := e.column(id).numbers()
	vals := make([]float64, 0, len(idx))
	for _, i := range idx {
		if isNum[i] {
			vals = append(vals, num[i])
		}
	}
	return vals
}

// aggregate applies a numeric metric to values (not empty, except for sum).
func aggregate(m Metric, vals []float64) float64 {
	switch m {
	case Min:
		return slices.Min(vals)
	case Max:
		return slices.Max(vals)
	case Median:
		s := slices.Clone(vals)
		slices.Sort(s)
		if len(s)%2 == 1 {
			return s[len(s)/2]
		}
		return (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	sum := 0.0
	for _, v := range vals {
		sum += v
	}
	if m == Mean {
		return sum / float64(len(vals))
	}
	return sum
}

// extremeText computes the earliest or latest date or time answer.
func (e *Engine) extremeText(m Metric, qu *form.Question, idx []int, res *Result) error {
	best := ""
	text := e.column(qu.ID).orderedText()
	for _, i := range idx {
		s := text[i]
		if s == "" {
			continue
		}
		res.N++
		if best == "" || (m == Min && s < best) || (m == Max && s > best) {
			best = s
		}
	}
	res.Text = best
	return nil
}

// list returns qu's answers among idx as text, newest first.
func (e *Engine) list(limit int, qu *form.Question, idx []int, res *Result) error {
	if qu == nil {
		return errors.New(`metric "list" needs a question`)
	}
	limit = clampLimit(limit, DefaultListLimit, MaxListLimit)
	in := make([]bool, len(e.ds.Responses))
	for _, i := range idx {
		in[i] = true
	}
	col := e.column(qu.ID)
	for _, i := range e.newest {
		r := &e.ds.Responses[i]
		if !in[i] || !col.ans[i] {
			continue
		}
		res.N++
		if len(res.Items) < limit {
			res.Items = append(res.Items, Item{Response: r.ID, SubmittedAt: r.SubmittedAt(), Text: asText(col.vals[i])})
		}
	}
	return nil
}

// clampLimit returns limit, or def when it is not positive, at most max.
func clampLimit(limit, def, max int) int {
	if limit <= 0 {
		return def
	}
	return min(limit, max)
}

// sentimentOf scores the free-text answers of qu (of every text and textarea
// question when qu is nil) among idx.
func (e *Engine) sentimentOf(qu *form.Question, idx []int, res *Result) error {
	ids, err := e.textQuestions(qu)
	if err != nil {
		return err
	}
	counts := map[string]int{}
	sum := 0.0
	cols := make([]*column, len(ids))
	scores := make([][]float64, len(ids))
	for k, id := range ids {
		cols[k] = e.column(id)
		scores[k] = cols[k].scores(e.sentiment)
	}
	for _, i := range idx {
		for k, col := range cols {
			if !col.ans[i] {
				continue
			}
			s := scores[k][i]
			sum += s
			counts[SentimentClass(s)]++
			res.N++
		}
	}
	if res.N > 0 {
		res.Value = ptr(sum / float64(res.N))
	}
	for _, c := range []string{Positive, Neutral, Negative} {
		res.Buckets = append(res.Buckets, Bucket{Label: c, Count: counts[c], Percent: share(counts[c], res.N)})
	}
	return nil
}

// textQuestions returns the question ids sentiment is computed over.
func (e *Engine) textQuestions(qu *form.Question) ([]int64, error) {
	if qu != nil {
		if kindOf(qu.Type) != kindText {
			return nil, fmt.Errorf(`metric "sentiment" needs a text question; question %d is %s`, qu.ID, qu.Type)
		}
		return []int64{qu.ID}, nil
	}
	var ids []int64
	if e.ds.Form != nil {
		for _, q := range e.ds.Form.Questions {
			if isFreeText(q.Type) {
				ids = append(ids, q.ID)
			}
		}
	}
	return ids, nil
}

// groups computes the metric of q for the responses of each answer of q.GroupBy.
func (e *Engine) groups(q Query, idx []int) ([]Group, error) {
	gq, err := e.question(q.GroupBy)
	if err != nil {
		return nil, fmt.Errorf("groupBy: %w", err)
	}
	switch gq.Type {
	case form.Select, form.MultiSelect, form.YesNo, form.Rating:
	default:
		return nil, fmt.Errorf("groupBy needs a select, multi_select, yes_no or rating question; question %d is %s", gq.ID, gq.Type)
	}
	cats := e.categories(gq, idx)
	cc := e.column(gq.ID).categories(e)
	members := make([][]int, len(cc.keys))
	for _, i := range idx {
		for _, l := range cc.of(i) {
			k := cc.keyOf[l]
			members[k] = append(members[k], i)
		}
	}
	sub := q
	sub.GroupBy = 0
	out := make([]Group, 0, len(cats.labels))
	for _, label := range cats.labels {
		var in []int
		if k, ok := cc.keyID[cats.key(label)]; ok {
			in = members[k]
		}
		r, err := e.compute(sub, in)
		if err != nil {
			return nil, err
		}
		out = append(out, Group{Label: label, Result: *r})
	}
	return out, nil
}

// sortBuckets orders buckets by count, descending (ascending when asc), keeping the
// category order between equal counts.
func sortBuckets(bs []Bucket, asc bool) {
	sort.SliceStable(bs, func(i, j int) bool {
		if asc {
			return bs[i].Count < bs[j].Count
		}
		return bs[i].Count > bs[j].Count
	})
}
