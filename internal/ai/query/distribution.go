package query

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"forma/internal/form"
)

// categorised holds the distinct answers of a question in display order with their
// counts; counts are keyed by the lower-cased label.
type categorised struct {
	labels []string
	counts map[string]int
}

// key returns the count key of a label.
func (categorised) key(label string) string { return strings.ToLower(label) }

// eachKey calls fn with each category label of an answer to q: the chosen option(s)
// as spelled in the form, Yes or No, a formatted number, or the trimmed text.
func (e *Engine) eachKey(q *form.Question, v any, fn func(string)) {
	if !answered(v) {
		return
	}
	switch kindOf(q.Type) {
	case kindMulti:
		for _, o := range asStrings(v) {
			fn(canonicalOption(q, o))
		}
	case kindBool:
		if b, ok := v.(bool); ok {
			fn(yesNo(b))
		}
	case kindNumber:
		if n, ok := asNumber(v); ok {
			fn(Format(n))
		}
	default:
		fn(canonicalOption(q, asText(v)))
	}
}

// canonicalOption returns the option of q that s names, ignoring case and
// surrounding space, or s trimmed.
func canonicalOption(q *form.Question, s string) string {
	s = strings.TrimSpace(s)
	for _, o := range q.Options {
		if o == s || strings.EqualFold(strings.TrimSpace(o), s) {
			return o
		}
	}
	return s
}

// fixedLabels returns the categories every answer of q falls into, in form order:
// options, Yes/No, or the ratings 1 to 5.
func fixedLabels(q *form.Question) []string {
	switch q.Type {
	case form.Select, form.MultiSelect:
		return slices.Clone(q.Options)
	case form.YesNo:
		return []string{"Yes", "No"}
	case form.Rating:
		out := make([]string, 0, form.MaxRating)
		for r := form.MinRating; r <= form.MaxRating; r++ {
			out = append(out, strconv.Itoa(r))
		}
		return out
	}
	return nil
}

// categories counts the answers of q among idx by category.
func (e *Engine) categories(q *form.Question, idx []int) categorised {
	c := categorised{counts: map[string]int{}}
	seen := map[string]bool{}
	for _, l := range fixedLabels(q) {
		if k := c.key(l); !seen[k] {
			seen[k] = true
			c.labels = append(c.labels, l)
		}
	}
	fixed := len(c.labels)
	cc := e.column(q.ID).categories(e)
	counts := make([]int, len(cc.keys))
	for _, i := range idx {
		for _, l := range cc.of(i) {
			k := cc.keyOf[l]
			if counts[k] == 0 && !seen[cc.keys[k]] {
				c.labels = append(c.labels, cc.labels[l])
			}
			counts[k]++
		}
	}
	for k, n := range counts {
		if n > 0 {
			c.counts[cc.keys[k]] = n
		}
	}
	sortExtras(c, fixed, kindOf(q.Type))
	return c
}

// sortExtras orders the categories found beyond the fixed ones: numbers ascending,
// dates and times ascending, free text by count then alphabetically.
func sortExtras(c categorised, fixed int, k kind) {
	extra := c.labels[fixed:]
	switch k {
	case kindNumber:
		slices.SortFunc(extra, func(a, b string) int {
			x, _ := strconv.ParseFloat(a, 64)
			y, _ := strconv.ParseFloat(b, 64)
			return cmp.Compare(x, y)
		})
	case kindDate, kindTime:
		slices.Sort(extra)
	default:
		slices.SortFunc(extra, func(a, b string) int {
			if d := cmp.Compare(c.counts[c.key(b)], c.counts[c.key(a)]); d != 0 {
				return d
			}
			return cmp.Compare(a, b)
		})
	}
}

// distribution computes the distribution or the top answers of qu among idx.
func (e *Engine) distribution(q Query, qu *form.Question, idx []int, res *Result) error {
	if qu == nil {
		return fmt.Errorf("metric %q needs a question", q.Metric)
	}
	c := e.categories(qu, idx)
	for _, l := range c.labels {
		n := c.counts[c.key(l)]
		res.Buckets = append(res.Buckets, Bucket{Label: l, Count: n, Percent: share(n, len(idx))})
	}
	res.N = e.answeredCount(qu.ID, idx)
	limit := q.Limit
	if q.Metric == Top {
		sortBuckets(res.Buckets, q.Order == "asc")
		limit = clampLimit(limit, DefaultTopLimit, len(res.Buckets))
	} else if limit <= 0 && fixedLabels(qu) == nil && kindOf(qu.Type) == kindText {
		limit = DefaultTextLimit
	}
	if limit > 0 && limit < len(res.Buckets) {
		res.Buckets = res.Buckets[:limit]
	}
	return nil
}

// periodStart returns the start of the UTC day, week (Monday) or month of t.
func periodStart(t time.Time, interval string) time.Time {
	t = t.UTC()
	d := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	switch interval {
	case Week:
		return d.AddDate(0, 0, -((int(d.Weekday()) + 6) % 7))
	case Month:
		return d.AddDate(0, 0, 1-d.Day())
	}
	return d
}

// nextPeriod returns the start of the period after the one starting at t.
func nextPeriod(t time.Time, interval string) time.Time {
	switch interval {
	case Week:
		return t.AddDate(0, 0, 7)
	case Month:
		return t.AddDate(0, 1, 0)
	}
	return t.AddDate(0, 0, 1)
}

// periodLabel names a period: "2025-03-14" for a day or the Monday of a week,
// "2025-03" for a month.
func periodLabel(t time.Time, interval string) string {
	if interval == Month {
		return t.Format("2006-01")
	}
	return t.Format(dateLayout)
}

// chooseInterval picks months for spans over 92 days, weeks over 21 days, else days.
func chooseInterval(first, last time.Time) string {
	span := last.Sub(first)
	switch {
	case span > 92*24*time.Hour:
		return Month
	case span > 21*24*time.Hour:
		return Week
	}
	return Day
}

// timeSpan returns the earliest and latest submission among idx.
func (e *Engine) timeSpan(idx []int) (first, last time.Time) {
	for n, i := range idx {
		t := e.ds.Responses[i].SubmittedAt()
		if n == 0 || t.Before(first) {
			first = t
		}
		if n == 0 || t.After(last) {
			last = t
		}
	}
	return first, last
}

// trend counts the responses idx (or their answers to qu, with the mean when qu is
// numeric) per period, every period from the first response to the last included.
func (e *Engine) trend(interval string, qu *form.Question, idx []int, res *Result) error {
	if interval != "" && interval != Day && interval != Week && interval != Month {
		return errors.New(`interval must be "day", "week" or "month"`)
	}
	if len(idx) == 0 {
		res.Interval = cmp.Or(interval, Day)
		return nil
	}
	first, last := e.timeSpan(idx)
	if interval == "" {
		interval = chooseInterval(first, last)
	}
	res.Interval = interval
	counts, sums := e.periodTotals(interval, qu, idx)
	for p := periodStart(first, interval); !p.After(last); p = nextPeriod(p, interval) {
		b := Bucket{Label: periodLabel(p, interval), Count: counts[p], Percent: share(counts[p], len(idx))}
		if qu != nil && kindOf(qu.Type) == kindNumber && counts[p] > 0 {
			b.Value = ptr(sums[p] / float64(counts[p]))
		}
		res.N += counts[p]
		res.Buckets = append(res.Buckets, b)
	}
	return nil
}

// periodTotals counts responses (or answers of qu) per period and sums the numeric
// answers.
func (e *Engine) periodTotals(interval string, qu *form.Question, idx []int) (map[time.Time]int, map[time.Time]float64) {
	counts, sums := map[time.Time]int{}, map[time.Time]float64{}
	var col *column
	var num []float64
	var isNum []bool
	if qu != nil {
		col = e.column(qu.ID)
		num, isNum = col.numbers()
	}
	for _, i := range idx {
		r := &e.ds.Responses[i]
		if col != nil && !col.ans[i] {
			continue
		}
		p := periodStart(r.SubmittedAt(), interval)
		counts[p]++
		if col != nil && isNum[i] {
			sums[p] += num[i]
		}
	}
	return counts, sums
}
