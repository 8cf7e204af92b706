// Package analyze is the deterministic analysis of a form's responses: the
// figures, key metrics and rule-based insights and recommendations of an
// ai.Analytics. The built-in provider returns it as it is; the openai provider
// takes its figures and has the model write the prose.
//
// Dataset works in four steps, every figure computed by the query engine (and
// each query run once, as several parts ask the same):
//
//  1. totals: completed responses and the completion rate of started sessions;
//  2. key metrics (this file): response rate, top answer, sentiment, average
//     rating and the response times;
//  3. insights (insights.go): one per question, by its type, then the trend over
//     the last 30 days against the 30 before, and drop-off;
//  4. recommendations (advice.go): rules that turn weak figures (few responses,
//     low completion, a skipped question, low or falling ratings, negative
//     comments, slowing responses) into advice, at least one.
package analyze

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"forma/internal/ai"
	"forma/internal/ai/query"
	"forma/internal/ai/text"
	"forma/internal/form"
)

// notAvailable is the value of a key metric that cannot be computed.
const notAvailable = "n/a"

// analysis computes the ai.Analytics of one dataset.
type analysis struct {
	ds    *query.Dataset
	eng   *query.Engine
	now   time.Time
	cache map[string]*query.Result // results by query, as several parts ask the same
}

// Dataset analyses the responses of ds as of now. Every figure in the result is
// computed by the query engine; the same inputs always give the same result.
//
// KeyMetrics holds ai.MetricResponseRate, ai.MetricTopAnswer and ai.MetricSentiment,
// and when they apply: averageRating ("3.59 / 5 (500 ratings)", the form's first
// rating question), firstResponse and mostRecentResponse (RFC 3339 UTC),
// responsesLast7Days (the 7 UTC days ending today) and startedSessions.
func Dataset(ds *query.Dataset, now time.Time) ai.Analytics {
	if ds == nil || ds.Form == nil {
		ds = &query.Dataset{Form: &form.Form{}}
	}
	a := &analysis{ds: ds, eng: ds.Engine(), now: now.UTC(), cache: map[string]*query.Result{}}
	c := a.eng.Completion()
	out := ai.Analytics{TotalResponses: c.Completed, CompletionRate: c.Rate, KeyMetrics: a.keyMetrics()}
	if c.Completed == 0 {
		out.Summary = "No responses yet: share the form to start collecting answers."
		out.Insights = []string{}
		out.Recommendations = []string{"Share the form's link to start collecting responses, then run the analysis again."}
		return out
	}
	out.Summary = a.summary()
	out.Insights = a.insights()
	out.Recommendations = a.recommendations()
	return out
}

// run computes a query once; nil when it cannot be computed.
func (a *analysis) run(q query.Query) *query.Result {
	key, _ := json.Marshal(q)
	if res, ok := a.cache[string(key)]; ok {
		return res
	}
	res, err := a.eng.Run(q)
	if err != nil {
		res = nil
	}
	a.cache[string(key)] = res
	return res
}

// questions returns the form's questions of the given types, in order.
func (a *analysis) questions(types ...form.QuestionType) []*form.Question {
	var out []*form.Question
	for i := range a.ds.Form.Questions {
		q := &a.ds.Form.Questions[i]
		if len(types) == 0 || slices.Contains(types, q.Type) {
			out = append(out, q)
		}
	}
	return out
}

// keyMetrics computes the key metrics.
func (a *analysis) keyMetrics() map[string]string {
	c := a.eng.Completion()
	m := map[string]string{
		ai.MetricResponseRate: notAvailable,
		ai.MetricTopAnswer:    notAvailable,
		ai.MetricSentiment:    notAvailable,
		"startedSessions":     fmt.Sprint(c.Started),
	}
	if c.Started > 0 {
		m[ai.MetricResponseRate] = query.FormatPercent(c.Rate)
	}
	if top, ok := a.topAnswer(); ok {
		m[ai.MetricTopAnswer] = fmt.Sprintf("%s (%s) — %s", top.bucket.Label, query.FormatPercent(top.bucket.Percent), text.Quote(top.q.Text))
	}
	if res := a.run(query.Query{Metric: query.Sentiment}); res != nil && res.Value != nil {
		m[ai.MetricSentiment] = fmt.Sprintf("%s (%s)", query.SentimentClass(*res.Value), query.Format(*res.Value))
	}
	a.timeMetrics(m)
	if q := a.questions(form.Rating); len(q) > 0 {
		if res := a.run(query.Query{Metric: query.Mean, Question: q[0].ID}); res != nil && res.Value != nil {
			m["averageRating"] = fmt.Sprintf("%s / 5 (%d ratings)", res.Display, res.N)
		}
	}
	return m
}

// timeMetrics adds the first and latest response times and the responses of the
// last 7 days.
func (a *analysis) timeMetrics(m map[string]string) {
	if len(a.ds.Responses) == 0 {
		m["mostRecentResponse"] = notAvailable
		return
	}
	first, last := a.ds.Responses[0].SubmittedAt(), a.ds.Responses[0].SubmittedAt()
	for _, r := range a.ds.Responses {
		if r.SubmittedAt().Before(first) {
			first = r.SubmittedAt()
		}
		if r.SubmittedAt().After(last) {
			last = r.SubmittedAt()
		}
	}
	m["firstResponse"] = first.UTC().Format(time.RFC3339)
	m["mostRecentResponse"] = last.UTC().Format(time.RFC3339)
	today := a.now.Format("2006-01-02")
	week := a.now.AddDate(0, 0, -6).Format("2006-01-02")
	if res := a.run(query.Query{Metric: query.Count, From: week, To: today}); res != nil {
		m["responsesLast7Days"] = fmt.Sprint(res.N)
	}
}

// leading is the leading answer of a choice question.
type leading struct {
	q      *form.Question
	res    *query.Result
	bucket query.Bucket
}

// topAnswer returns the leading answer of the choice question answered most often
// (the first in form order among equals).
func (a *analysis) topAnswer() (leading, bool) {
	var best leading
	for _, q := range a.questions(form.Select, form.MultiSelect, form.YesNo) {
		res := a.run(query.Query{Metric: query.Top, Question: q.ID, Limit: 3})
		if res == nil || len(res.Buckets) == 0 || res.Buckets[0].Count == 0 {
			continue
		}
		if best.res == nil || res.N > best.res.N {
			best = leading{q: q, res: res, bucket: res.Buckets[0]}
		}
	}
	return best, best.res != nil
}

// summary writes the one-paragraph summary.
func (a *analysis) summary() string {
	c := a.eng.Completion()
	var parts []string
	title := strings.TrimSpace(a.ds.Form.Title)
	if title == "" {
		title = "this form"
	} else {
		title = text.Quote(title)
	}
	parts = append(parts, fmt.Sprintf("%s has %d responses", title, c.Completed))
	if c.Started > 0 {
		parts[0] += fmt.Sprintf(" from %d started sessions (%s completed)", c.Started, query.FormatPercent(c.Rate))
	}
	parts[0] += "."
	if s := a.ratingSentence(); s != "" {
		parts = append(parts, s)
	}
	if top, ok := a.topAnswer(); ok {
		parts = append(parts, fmt.Sprintf("The most common answer to %s is %s (%s of responses).",
			text.Quote(top.q.Text), top.bucket.Label, query.FormatPercent(top.bucket.Percent)))
	}
	if res := a.run(query.Query{Metric: query.Sentiment}); res != nil && res.Value != nil {
		parts = append(parts, fmt.Sprintf("The %d written answers are %s overall (average sentiment %s on a scale from -1 to +1).",
			res.N, query.SentimentClass(*res.Value), query.Format(*res.Value)))
	}
	return strings.Join(parts, " ")
}

// ratingSentence states the average of the first rating question.
func (a *analysis) ratingSentence() string {
	qs := a.questions(form.Rating)
	if len(qs) == 0 {
		return ""
	}
	res := a.run(query.Query{Metric: query.Mean, Question: qs[0].ID})
	if res == nil || res.Value == nil {
		return ""
	}
	return fmt.Sprintf("The average answer to %s is %s out of 5 (%d ratings).", text.Quote(qs[0].Text), res.Display, res.N)
}
