package query

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"forma/internal/ai/text"
	"forma/internal/form"
)

// numbers returns qu's numeric answers among idx; an error when qu is not numeric.
func (e *Engine) numbers(m Metric, qu *form.Question, idx []int) ([]float64, error) {
	if qu == nil {
		return nil, fmt.Errorf("metric %q needs a question", m)
	}
	if kindOf(qu.Type) != kindNumber {
		return nil, fmt.Errorf("metric %q needs a numeric question; question %d is %s", m, qu.ID, qu.Type)
	}
	return e.numberValues(qu.ID, idx), nil
}

// spread computes the sample standard deviation or a percentile of qu's answers.
func (e *Engine) spread(q Query, qu *form.Question, idx []int, res *Result) error {
	if q.Metric == Percentile && (q.Percentile <= 0 || q.Percentile > 100) {
		return errors.New(`metric "percentile" needs percentile between 0 (exclusive) and 100`)
	}
	vals, err := e.numbers(q.Metric, qu, idx)
	if err != nil {
		return err
	}
	res.N = len(vals)
	switch {
	case q.Metric == Percentile && len(vals) > 0:
		res.Value = ptr(percentileOf(vals, q.Percentile))
	case q.Metric == StdDev && len(vals) > 1:
		res.Value = ptr(stdDev(vals))
	}
	return nil
}

// percentileOf interpolates linearly between the closest ranks (the method of
// spreadsheets' PERCENTILE.INC); p is in (0, 100].
func percentileOf(vals []float64, p float64) float64 {
	s := slices.Clone(vals)
	slices.Sort(s)
	h := float64(len(s)-1) * p / 100
	lo := int(math.Floor(h))
	if lo+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[lo] + (h-float64(lo))*(s[lo+1]-s[lo])
}

// stdDev is the sample standard deviation (n − 1) of at least two values.
func stdDev(vals []float64) float64 {
	mean := aggregate(Mean, vals)
	ss := 0.0
	for _, v := range vals {
		ss += (v - mean) * (v - mean)
	}
	return math.Sqrt(ss / float64(len(vals)-1))
}

// mode finds the most common answers of qu: every answer given as often as the
// most common one, in Buckets.
func (e *Engine) mode(q Query, qu *form.Question, idx []int, res *Result) error {
	if qu == nil {
		return errors.New(`metric "mode" needs a question`)
	}
	all := q
	all.Limit = len(idx) + 1
	if err := e.distribution(all, qu, idx, res); err != nil {
		return err
	}
	best := 0
	for _, b := range res.Buckets {
		best = max(best, b.Count)
	}
	res.Buckets = slices.DeleteFunc(res.Buckets, func(b Bucket) bool { return b.Count != best || best == 0 })
	return nil
}

// wordStop lists the words the words metric leaves out.
var wordStop = text.Set("a an the and or but nor is are was were be been being am it its it's i me my we our us " +
	"you your he she they them their this that these those to of in on at by for with from as into about " +
	"so too very just also all any some more most much many can could would should will shall may might must " +
	"do does did done have has had not no yes if then than there here what which who whom when where why how " +
	"get got up out over again keep almost nobody though")

// words counts, for every word of qu's free-text answers among idx, the answers
// that contain it, and keeps the most frequent (Limit, default DefaultTopLimit).
func (e *Engine) words(q Query, qu *form.Question, idx []int, res *Result) error {
	ids, err := e.textQuestions(qu)
	if err != nil {
		return err
	}
	counts := map[string]int{}
	for _, id := range ids {
		col := e.column(id)
		for _, i := range idx {
			if !col.ans[i] {
				continue
			}
			res.N++
			seen := map[string]bool{}
			for _, w := range text.Words(asText(col.vals[i])) {
				if !seen[w] && !wordStop[w] && !isDigits(w) {
					seen[w] = true
					counts[w]++
				}
			}
		}
	}
	for w, n := range counts {
		res.Buckets = append(res.Buckets, Bucket{Label: w, Count: n, Percent: share(n, res.N)})
	}
	slices.SortFunc(res.Buckets, func(a, b Bucket) int {
		if a.Count != b.Count {
			return b.Count - a.Count
		}
		return strings.Compare(a.Label, b.Label)
	})
	if limit := clampLimit(q.Limit, DefaultTopLimit, MaxListLimit); limit < len(res.Buckets) {
		res.Buckets = res.Buckets[:limit]
	}
	return nil
}

// isDigits reports whether w is made of digits only.
func isDigits(w string) bool { return strings.Trim(w, "0123456789") == "" }
