package analyze

import (
	"fmt"
	"strings"

	"forma/internal/ai/query"
	"forma/internal/ai/text"
	"forma/internal/form"
)

// Limits and thresholds of the analysis.
const (
	maxQuestionInsights = 12   // questions described in insights
	minTrendAnswers     = 5    // answers per period before averages are compared
	fewResponses        = 30   // below this, figures are called fragile
	lowCompletion       = 70.0 // completion rate (%) that calls for a shorter form
	lowAnswerRate       = 60.0 // answer rate (%) of an optional question that calls for a review
	lowRating           = 3.5  // mean rating that calls for reading low ratings
	highNegative        = 20.0 // share (%) of negative written answers worth reading
	ratingGap           = 0.3  // gap between groups' mean ratings worth a look
	minGroupSize        = 10   // responses a group needs before its mean is compared
	ratingDrop          = 0.25 // fall of the mean rating between 30-day windows worth a warning
)

// insights writes one insight per question (up to maxQuestionInsights), then the
// trend over time and drop-off.
func (a *analysis) insights() []string {
	var out []string
	for _, q := range a.questions() {
		if len(out) == maxQuestionInsights {
			break
		}
		if s := a.questionInsight(q); s != "" {
			out = append(out, s)
		}
	}
	out = append(out, a.trendInsights()...)
	return append(out, a.dropOffInsights()...)
}

// questionInsight describes the answers of one question.
func (a *analysis) questionInsight(q *form.Question) string {
	switch q.Type {
	case form.Rating:
		return a.ratingInsight(q)
	case form.Number, form.Currency, form.Slider:
		return a.numberInsight(q)
	case form.YesNo, form.Select, form.MultiSelect:
		return a.choiceInsight(q)
	case form.Text, form.Textarea:
		return a.textInsight(q)
	case form.Date, form.Time:
		return a.rangeInsight(q)
	}
	return a.answerRateInsight(q)
}

// ratingInsight gives a rating question's mean, median and share of 4 and 5.
func (a *analysis) ratingInsight(q *form.Question) string {
	mean := a.run(query.Query{Metric: query.Mean, Question: q.ID})
	median := a.run(query.Query{Metric: query.Median, Question: q.ID})
	high := a.run(query.Query{Metric: query.Percent, Match: []query.Filter{{Question: q.ID, Op: query.GTE, Value: 4}}})
	if mean == nil || mean.Value == nil || median == nil || high == nil {
		return fmt.Sprintf("%s: no ratings yet.", text.Quote(q.Text))
	}
	return fmt.Sprintf("%s: average %s out of 5, median %s (%d ratings); %s of responses rated it 4 or 5.",
		text.Quote(q.Text), mean.Display, median.Display, mean.N, high.Display)
}

// numberInsight gives a numeric question's mean, median and range.
func (a *analysis) numberInsight(q *form.Question) string {
	r := map[query.Metric]*query.Result{}
	for _, m := range []query.Metric{query.Mean, query.Median, query.Min, query.Max} {
		if r[m] = a.run(query.Query{Metric: m, Question: q.ID}); r[m] == nil || r[m].Value == nil {
			return fmt.Sprintf("%s: no answers yet.", text.Quote(q.Text))
		}
	}
	v := func(m query.Metric) string { return query.FormatValue(q, *r[m].Value) }
	return fmt.Sprintf("%s: average %s, median %s, ranging from %s to %s (%d answers).",
		text.Quote(q.Text), v(query.Mean), v(query.Median), v(query.Min), v(query.Max), r[query.Mean].N)
}

// choiceInsight names the leading answers of a choice question.
func (a *analysis) choiceInsight(q *form.Question) string {
	res := a.run(query.Query{Metric: query.Top, Question: q.ID, Limit: 3})
	if res == nil || len(res.Buckets) == 0 || res.Buckets[0].Count == 0 {
		return fmt.Sprintf("%s: no answers yet.", text.Quote(q.Text))
	}
	var parts []string
	for _, b := range res.Buckets {
		if b.Count > 0 {
			parts = append(parts, fmt.Sprintf("%s %s (%d)", b.Label, query.FormatPercent(b.Percent), b.Count))
		}
	}
	lead := "leads"
	if len(res.Buckets) > 1 && res.Buckets[1].Count == res.Buckets[0].Count {
		lead = "is tied for the lead"
	}
	s := fmt.Sprintf("%s: %s %s", text.Quote(q.Text), res.Buckets[0].Label, lead)
	if len(parts) > 1 {
		s += "; answers: " + strings.Join(parts, ", ")
	} else {
		s += " with " + parts[0]
	}
	if q.Type == form.MultiSelect {
		s += " (respondents may choose several)"
	}
	return s + "."
}

// textInsight gives the sentiment split of a free-text question.
func (a *analysis) textInsight(q *form.Question) string {
	res := a.run(query.Query{Metric: query.Sentiment, Question: q.ID})
	if res == nil || res.Value == nil {
		return fmt.Sprintf("%s: no written answers yet.", text.Quote(q.Text))
	}
	c := map[string]int{}
	for _, b := range res.Buckets {
		c[b.Label] = b.Count
	}
	return fmt.Sprintf("%s: %d written answers, %d positive, %d neutral and %d negative (average sentiment %s, %s).",
		text.Quote(q.Text), res.N, c[query.Positive], c[query.Neutral], c[query.Negative],
		query.Format(*res.Value), query.SentimentClass(*res.Value))
}

// rangeInsight gives the earliest and latest answers of a date or time question.
func (a *analysis) rangeInsight(q *form.Question) string {
	lo := a.run(query.Query{Metric: query.Min, Question: q.ID})
	hi := a.run(query.Query{Metric: query.Max, Question: q.ID})
	if lo == nil || hi == nil || lo.N == 0 {
		return fmt.Sprintf("%s: no answers yet.", text.Quote(q.Text))
	}
	return fmt.Sprintf("%s: answers range from %s to %s (%d answers).", text.Quote(q.Text), lo.Text, hi.Text, lo.N)
}

// answerRate returns the share of responses that answered q.
func (a *analysis) answerRate(q *form.Question) *query.Result {
	return a.run(query.Query{Metric: query.Percent, Match: []query.Filter{{Question: q.ID, Op: query.IsNotEmpty}}})
}

// answerRateInsight says how often a question is answered.
func (a *analysis) answerRateInsight(q *form.Question) string {
	res := a.answerRate(q)
	if res == nil || res.Value == nil {
		return ""
	}
	return fmt.Sprintf("%s: answered in %d of %d responses (%s).", text.Quote(q.Text), res.N, res.Matched, res.Display)
}

// windows returns the bounds of the last 30 days and the 30 days before them.
func (a *analysis) windows() (recentFrom, recentTo, prevFrom, prevTo string) {
	d := func(days int) string { return a.now.AddDate(0, 0, -days).Format("2006-01-02") }
	return d(29), d(0), d(59), d(30)
}

// trendInsights compares the last 30 days with the 30 before, names the busiest
// period, and compares the first rating question's average across the windows.
func (a *analysis) trendInsights() []string {
	var out []string
	rf, rt, pf, pt := a.windows()
	recent := a.run(query.Query{Metric: query.Count, From: rf, To: rt})
	prev := a.run(query.Query{Metric: query.Count, From: pf, To: pt})
	if recent != nil && prev != nil {
		out = append(out, fmt.Sprintf("%d responses arrived in the last 30 days (%s to %s), %s the %d of the 30 days before.",
			recent.N, rf, rt, versus(recent.N, prev.N), prev.N))
	}
	if s := a.busiestInsight(); s != "" {
		out = append(out, s)
	}
	if s := a.ratingTrendInsight(rf, rt, pf, pt); s != "" {
		out = append(out, s)
	}
	return out
}

// versus words how a count compares with an earlier one.
func versus(now, before int) string {
	switch {
	case now > before:
		return "up from"
	case now < before:
		return "down from"
	}
	return "the same as"
}

// busiestInsight names the period with the most responses.
func (a *analysis) busiestInsight() string {
	res := a.run(query.Query{Metric: query.Trend})
	if res == nil || len(res.Buckets) < 2 {
		return ""
	}
	best := res.Buckets[0]
	for _, b := range res.Buckets {
		if b.Count > best.Count {
			best = b
		}
	}
	name := query.PeriodName(best.Label, res.Interval)
	if res.Interval == query.Week {
		name = "the " + name
	}
	return fmt.Sprintf("The busiest %s was %s, with %d responses.", res.Interval, name, best.Count)
}

// ratingTrendInsight compares the first rating question's average in two windows.
func (a *analysis) ratingTrendInsight(rf, rt, pf, pt string) string {
	qs := a.questions(form.Rating)
	if len(qs) == 0 {
		return ""
	}
	recent := a.run(query.Query{Metric: query.Mean, Question: qs[0].ID, From: rf, To: rt})
	prev := a.run(query.Query{Metric: query.Mean, Question: qs[0].ID, From: pf, To: pt})
	if recent == nil || prev == nil || recent.N < minTrendAnswers || prev.N < minTrendAnswers {
		return ""
	}
	return fmt.Sprintf("The average answer to %s was %s in the last 30 days (%d ratings), against %s in the 30 days before (%d ratings).",
		text.Quote(qs[0].Text), recent.Display, recent.N, prev.Display, prev.N)
}

// dropOffInsights reports completion and the least answered question.
func (a *analysis) dropOffInsights() []string {
	var out []string
	if c := a.eng.Completion(); c.Started > 0 {
		out = append(out, fmt.Sprintf("%d of %d started sessions were completed (%s).", c.Completed, c.Started, query.FormatPercent(c.Rate)))
	}
	if q, res := a.leastAnswered(); q != nil {
		out = append(out, fmt.Sprintf("The least answered question is %s: %s of responses answer it (%d of %d).",
			text.Quote(q.Text), res.Display, res.N, res.Matched))
	}
	return out
}

// leastAnswered returns the question answered least often, when some response
// skipped it.
func (a *analysis) leastAnswered() (*form.Question, *query.Result) {
	var best *form.Question
	var bestRes *query.Result
	for _, q := range a.questions() {
		res := a.answerRate(q)
		if res == nil || res.Value == nil || *res.Value >= 100 {
			continue
		}
		if bestRes == nil || *res.Value < *bestRes.Value {
			best, bestRes = q, res
		}
	}
	return best, bestRes
}
