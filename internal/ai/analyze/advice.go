package analyze

import (
	"fmt"

	"forma/internal/ai/query"
	"forma/internal/ai/text"
	"forma/internal/form"
)

// recommendations turns the figures into advice; there is always at least one.
func (a *analysis) recommendations() []string {
	var out []string
	for _, rule := range []func() string{
		a.adviseVolume, a.adviseCompletion, a.adviseSkipped, a.adviseRating,
		a.adviseGroups, a.adviseNegative, a.adviseMomentum, a.adviseRatingTrend,
	} {
		if s := rule(); s != "" {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		out = append(out, "The figures show no weak spot: keep collecting responses and run the analysis again to follow the trend.")
	}
	return out
}

// adviseVolume warns when there are too few responses to trust the figures.
func (a *analysis) adviseVolume() string {
	if n := len(a.ds.Responses); n < fewResponses {
		return fmt.Sprintf("With only %d responses the figures can change a lot: share the form more widely before drawing conclusions.", n)
	}
	return ""
}

// adviseCompletion suggests a shorter form when many started sessions are not
// completed.
func (a *analysis) adviseCompletion() string {
	c := a.eng.Completion()
	if c.Started == 0 || c.Rate >= lowCompletion {
		return ""
	}
	return fmt.Sprintf("Only %s of started sessions are completed: shorten the form or make more questions optional to reduce drop-off.",
		query.FormatPercent(c.Rate))
}

// adviseSkipped points at an optional question that many skip.
func (a *analysis) adviseSkipped() string {
	q, res := a.leastAnswered()
	if q == nil || q.Required || *res.Value >= lowAnswerRate {
		return ""
	}
	return fmt.Sprintf("Only %s of responses answer %s: reword it, explain why it is asked, or drop it.", res.Display, text.Quote(q.Text))
}

// adviseRating suggests reading the low ratings when the average is low.
func (a *analysis) adviseRating() string {
	qs := a.questions(form.Rating)
	if len(qs) == 0 {
		return ""
	}
	mean := a.run(query.Query{Metric: query.Mean, Question: qs[0].ID})
	if mean == nil || mean.Value == nil || *mean.Value >= lowRating {
		return ""
	}
	low := a.run(query.Query{Metric: query.Count, Filters: []query.Filter{{Question: qs[0].ID, Op: query.LTE, Value: 2}}})
	if low == nil {
		return ""
	}
	return fmt.Sprintf("The average answer to %s is %s out of 5: follow up on the %d responses that rated it 1 or 2 to find the causes.",
		text.Quote(qs[0].Text), mean.Display, low.N)
}

// adviseGroups points at the answer group of the first choice question whose
// average rating trails the best group.
func (a *analysis) adviseGroups() string {
	ratings := a.questions(form.Rating)
	choices := a.questions(form.Select)
	if len(ratings) == 0 || len(choices) == 0 {
		return ""
	}
	res := a.run(query.Query{Metric: query.Mean, Question: ratings[0].ID, GroupBy: choices[0].ID})
	if res == nil {
		return ""
	}
	lo, hi := extremeGroups(res.Groups)
	if lo == nil || *hi.Result.Value-*lo.Result.Value < ratingGap {
		return ""
	}
	return fmt.Sprintf("Respondents who answered %s to %s give the lowest average rating (%s, %d ratings, against %s for %s): look into their experience first.",
		lo.Label, text.Quote(choices[0].Text), lo.Result.Display, lo.Result.N, hi.Result.Display, hi.Label)
}

// extremeGroups returns the groups of at least minGroupSize answers with the
// lowest and highest values.
func extremeGroups(groups []query.Group) (lo, hi *query.Group) {
	for i := range groups {
		g := &groups[i]
		if g.Result.Value == nil || g.Result.N < minGroupSize {
			continue
		}
		if lo == nil || *g.Result.Value < *lo.Result.Value {
			lo = g
		}
		if hi == nil || *g.Result.Value > *hi.Result.Value {
			hi = g
		}
	}
	return lo, hi
}

// adviseNegative suggests reading negative written feedback when there is a lot.
func (a *analysis) adviseNegative() string {
	res := a.run(query.Query{Metric: query.Sentiment})
	if res == nil || res.Value == nil {
		return ""
	}
	for _, b := range res.Buckets {
		if b.Label == query.Negative && b.Percent >= highNegative {
			return fmt.Sprintf("%s of written answers are negative (%d of %d): read them for recurring problems and answer the most common ones.",
				query.FormatPercent(b.Percent), b.Count, res.N)
		}
	}
	return ""
}

// adviseMomentum suggests promoting the form when responses slow down sharply.
func (a *analysis) adviseMomentum() string {
	rf, rt, pf, pt := a.windows()
	recent := a.run(query.Query{Metric: query.Count, From: rf, To: rt})
	prev := a.run(query.Query{Metric: query.Count, From: pf, To: pt})
	if recent == nil || prev == nil || prev.N < fewResponses || recent.N*4 > prev.N*3 {
		return ""
	}
	return fmt.Sprintf("Responses slowed from %d to %d in the last 30 days: promote the form again or send a reminder.", prev.N, recent.N)
}

// adviseRatingTrend warns when the first rating question's average fell between
// the previous 30 days and the last 30.
func (a *analysis) adviseRatingTrend() string {
	qs := a.questions(form.Rating)
	if len(qs) == 0 {
		return ""
	}
	rf, rt, pf, pt := a.windows()
	recent := a.run(query.Query{Metric: query.Mean, Question: qs[0].ID, From: rf, To: rt})
	prev := a.run(query.Query{Metric: query.Mean, Question: qs[0].ID, From: pf, To: pt})
	if recent == nil || prev == nil || recent.N < minTrendAnswers || prev.N < minTrendAnswers ||
		*prev.Value-*recent.Value < ratingDrop {
		return ""
	}
	return fmt.Sprintf("The average answer to %s fell from %s to %s in the last 30 days: check what changed recently (releases, pricing, support).",
		text.Quote(qs[0].Text), prev.Display, recent.Display)
}
