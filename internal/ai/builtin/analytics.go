package builtin

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"forma/internal/ai/query"
	"forma/internal/form"
)

// Analytics is the built-in analysis of a form's responses: the figures and prose
// of the API's Analytics resource.
type Analytics struct {
	TotalResponses int
	// CompletionRate is completed ÷ started sessions × 100, 0 when none started.
	CompletionRate  float64
	Summary         string
	Insights        []string
	Recommendations []string
	// KeyMetrics always has responseRate, topAnswer and sentiment; see Analyze.
	KeyMetrics map[string]string
}

// Key metrics that are always present.
const (
	// MetricResponseRate is the share of started sessions that were completed, as
	// text ("88.97%"); "n/a" when no session was recorded as started.
	MetricResponseRate = "responseRate"
	// MetricTopAnswer is the leading answer of the most-answered choice (select,
	// multi_select or yes_no) question with its share of all responses and the
	// question ("Search engine (29.8%) — “How did you hear about us?”"); "n/a"
	// when there is none.
	MetricTopAnswer = "topAnswer"
	// MetricSentiment is the class and mean VADER compound score of the text and
	// textarea answers ("positive (0.42)"); "n/a" when there are none.
	MetricSentiment = "sentiment"
)

// notAvailable is the value of a key metric that cannot be computed.
const notAvailable = "n/a"

// analysis computes Analytics over one dataset.
type analysis struct {
	ds    *query.Dataset
	eng   *query.Engine
	now   time.Time
	cache map[string]*query.Result // results by query, as several parts ask the same
}

// Analyze analyses the responses of ds as of now. Every figure in the result is
// computed by the query engine; the same inputs always give the same result.
//
// KeyMetrics holds responseRate, topAnswer and sentiment (see their constants),
// and when they apply: averageRating ("3.59 / 5 (500 ratings)", the form's first
// rating question), firstResponse and mostRecentResponse (RFC 3339 UTC),
// responsesLast7Days (the 7 UTC days ending today) and startedSessions.
func Analyze(ds *query.Dataset, now time.Time) Analytics {
	if ds == nil || ds.Form == nil {
		ds = &query.Dataset{Form: &form.Form{}}
	}
	a := &analysis{ds: ds, eng: query.New(ds), now: now.UTC(), cache: map[string]*query.Result{}}
	c := a.eng.Completion()
	out := Analytics{TotalResponses: c.Completed, CompletionRate: c.Rate, KeyMetrics: a.keyMetrics()}
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
		MetricResponseRate: notAvailable,
		MetricTopAnswer:    notAvailable,
		MetricSentiment:    notAvailable,
		"startedSessions":  fmt.Sprint(c.Started),
	}
	if c.Started > 0 {
		m[MetricResponseRate] = query.FormatPercent(c.Rate)
	}
	if top, ok := a.topAnswer(); ok {
		m[MetricTopAnswer] = fmt.Sprintf("%s (%s) — %s", top.bucket.Label, query.FormatPercent(top.bucket.Percent), chatQuote(top.q.Text))
	}
	if res := a.run(query.Query{Metric: query.Sentiment}); res != nil && res.Value != nil {
		m[MetricSentiment] = fmt.Sprintf("%s (%s)", query.SentimentClass(*res.Value), query.Format(*res.Value))
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
		title = chatQuote(title)
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
			chatQuote(top.q.Text), top.bucket.Label, query.FormatPercent(top.bucket.Percent)))
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
	return fmt.Sprintf("The average answer to %s is %s out of 5 (%d ratings).", chatQuote(qs[0].Text), res.Display, res.N)
}
