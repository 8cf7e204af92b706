// Package query is the engine that computes every figure Forma's AI features report
// about a form's responses: counts, percentages, averages, distributions, top
// answers, trends, text answers and sentiment, with filters and grouping.
//
// Queries are small JSON-serialisable values (see Query and Schema), so the same
// engine serves the built-in chat, which builds queries from plain English, and an
// LLM provider, which calls RunJSON as a tool. Every Result carries the counts it was
// computed from, so each number can be traced back to the responses.
//
// Conventions:
//   - Percentages are of the responses matching the query's filters and date range
//     (Result.Matched), not of the responses that answered the question, except for
//     the positive/neutral/negative buckets of the sentiment metric, which are of the
//     text answers scored (Result.N).
//   - A multi_select answer counts once for every option it chose, so its
//     distribution percentages can add up to more than 100.
//   - Results keep full float64 precision; Format and FormatPercent round to at most
//     two decimals for display.
//   - Days, weeks (starting Monday) and months are UTC.
package query

import (
	"sync"
	"sync/atomic"
	"time"

	"forma/internal/form"
)

// Dataset is a form with its completed responses. Once built it must not be
// modified: its engine, and the readers of a cached dataset, share it.
type Dataset struct {
	Form *form.Form
	// Responses are the completed submissions.
	Responses []form.Submission
	// Started counts the sessions started on the form, completed or not; it is the
	// denominator of the completion rate.
	Started int

	engineOnce sync.Once
	engine     atomic.Pointer[Engine]
	prev       *Dataset // see Following; nil once the engine is made
}

// Following returns the dataset of form f with the responses rs, which begin with
// all the responses of prev (the kept dataset they grew from), and started
// sessions. Its engine starts from what prev's engine has read, if it was made:
// the answers of the responses they share, and sentiment scores.
func Following(prev *Dataset, f *form.Form, started int, rs []form.Submission) *Dataset {
	return &Dataset{Form: f, Started: started, Responses: rs, prev: prev}
}

// Engine returns the engine over ds, made on first use and kept with ds, so that
// what it works out once (the newest-first order, columns of answers, sentiment)
// serves every later query over the same dataset.
func (ds *Dataset) Engine() *Engine {
	ds.engineOnce.Do(func() {
		e := New(ds)
		if ds.prev != nil {
			e.follow(ds.prev.engine.Load())
			ds.prev = nil
		}
		ds.engine.Store(e)
	})
	return ds.engine.Load()
}

// Metric names what a query computes.
type Metric string

// The metrics of a query.
const (
	Count        Metric = "count"        // responses matching (that answered Question, when set)
	Percent      Metric = "percent"      // share of matching responses that also satisfy Match
	Mean         Metric = "mean"         // average of a numeric question
	Median       Metric = "median"       // median of a numeric question
	Min          Metric = "min"          // smallest answer (numeric, date or time question)
	Max          Metric = "max"          // largest answer (numeric, date or time question)
	Sum          Metric = "sum"          // total of a numeric question
	Distribution Metric = "distribution" // count and share of every answer
	Top          Metric = "top"          // the most (or, with Order "asc", least) common answers
	List         Metric = "list"         // answers as text, newest first
	Trend        Metric = "trend"        // responses (or a numeric question's mean) per day, week or month
	Sentiment    Metric = "sentiment"    // mean VADER compound score of text answers
	StdDev       Metric = "stddev"       // sample standard deviation of a numeric question
	Percentile   Metric = "percentile"   // a percentile (Query.Percentile) of a numeric question
	Mode         Metric = "mode"         // the most common answers (all of them when tied)
	Words        Metric = "words"        // the words found in most free-text answers
)

// Metrics lists every metric.
var Metrics = []Metric{Count, Percent, Mean, Median, Min, Max, Sum, Distribution, Top, List, Trend, Sentiment,
	StdDev, Percentile, Mode, Words}

// Op is the comparison of a filter.
type Op string

// The filter operators.
const (
	Equals      Op = "equals"       // same value; case-insensitive for text; an option chosen for multi_select
	NotEquals   Op = "not_equals"   // answered with another value
	Contains    Op = "contains"     // case-insensitive substring; for multi_select, a chosen option containing it
	GT          Op = "gt"           // greater than (numbers, dates, times, submittedAt, score)
	GTE         Op = "gte"          // greater than or equal
	LT          Op = "lt"           // less than
	LTE         Op = "lte"          // less than or equal
	Between     Op = "between"      // Value <= answer <= To, both inclusive
	Before      Op = "before"       // strictly earlier (dates, times, submittedAt)
	After       Op = "after"        // strictly later (dates, times, submittedAt)
	IsEmpty     Op = "is_empty"     // not answered
	IsNotEmpty  Op = "is_not_empty" // answered
	SentimentOp Op = "sentiment"    // text answer whose sentiment is Value: positive, neutral or negative
	In          Op = "in"           // equals one of the values of the list Value ("A or B")
)

// Ops lists every filter operator.
var Ops = []Op{Equals, NotEquals, Contains, GT, GTE, LT, LTE, Between, Before, After, IsEmpty, IsNotEmpty, SentimentOp, In}

// Fields a filter can test instead of a question's answer.
const (
	FieldSubmittedAt = "submittedAt" // the submission time; date values mean whole UTC days
	FieldScore       = "score"       // the submission's score
)

// Trend intervals.
const (
	Day   = "day"
	Week  = "week"
	Month = "month"
)

// Filter is one condition on a response. Exactly one of Question, Field and
// HiddenField is set. Unanswered questions, and hidden fields without a value,
// match only is_empty.
type Filter struct {
	Question int64  `json:"question,omitempty"`
	Field    string `json:"field,omitempty"`
	// HiddenField names a hidden field of the form (form.Settings.HiddenFields)
	// whose value is tested: as text, or as a number by the ordering operators.
	HiddenField string `json:"hiddenField,omitempty"`
	Op          Op     `json:"op"`
	// Value is the operand: a number, string, boolean ("yes"/"no" also work for
	// yes_no), date "YYYY-MM-DD", time "HH:MM" or RFC 3339 time for submittedAt;
	// for in, a list of such values.
	Value any `json:"value,omitempty"`
	// To is the upper bound of between.
	To any `json:"to,omitempty"`
}

// Query asks the engine for one figure.
type Query struct {
	Metric Metric `json:"metric"`
	// Question is the question the metric is about (0: the responses themselves, for
	// count and trend; every text question, for sentiment).
	Question int64 `json:"question,omitempty"`
	// Filters select the responses the metric is computed over; they are ANDed.
	Filters []Filter `json:"filters,omitempty"`
	// Match is the condition of percent: the result is the share of the filtered
	// responses that also satisfy every Match filter.
	Match []Filter `json:"match,omitempty"`
	// GroupBy is a select, multi_select, yes_no or rating question: the metric is
	// also computed for the responses of each of its answers.
	GroupBy int64 `json:"groupBy,omitempty"`
	// From and To bound submittedAt, inclusive; a date means the whole UTC day.
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
	// Interval of trend: day, week or month (default chosen from the time span).
	Interval string `json:"interval,omitempty"`
	// Limit caps top (default 5), list (default 10, at most 100) and the
	// distribution of free-text answers (default 10).
	Limit int `json:"limit,omitempty"`
	// Order "asc" makes top return the least common answers first.
	Order string `json:"order,omitempty"`
	// Percentile is the percentile of metric percentile, in (0, 100].
	Percentile float64 `json:"percentile,omitempty"`
}

// Result is the answer to a query. Value is nil when there was nothing to compute
// from (a mean of no answers, a percentage of no responses).
type Result struct {
	Metric       Metric `json:"metric"`
	Question     int64  `json:"question,omitempty"`
	QuestionText string `json:"questionText,omitempty"`
	// Total counts all responses of the dataset.
	Total int `json:"total"`
	// Matched counts the responses matching the filters and date range; it is the
	// denominator of percentages.
	Matched int `json:"matched"`
	// N counts what the figure was computed from: the answers of Question among the
	// matched responses (mean, median, min, max, sum, distribution, list, sentiment),
	// the responses counted (count), or the responses also matching Match (percent).
	N     int      `json:"n"`
	Value *float64 `json:"value,omitempty"`
	// Text is the value of min and max over date and time questions.
	Text string `json:"text,omitempty"`
	// Display is Value (or Text) formatted for people.
	Display string   `json:"display,omitempty"`
	Buckets []Bucket `json:"buckets,omitempty"`
	Items   []Item   `json:"items,omitempty"`
	Groups  []Group  `json:"groups,omitempty"`
	// Interval is the bucket size of a trend.
	Interval string `json:"interval,omitempty"`
}

// Bucket is one answer of a distribution or top list, one sentiment class, or one
// period of a trend.
type Bucket struct {
	Label string `json:"label"`
	Count int    `json:"count"`
	// Percent is Count as a share of the matched responses (of the scored text
	// answers for sentiment; of all matched responses in the trend).
	Percent float64 `json:"percent"`
	// Value is the mean of the trend's numeric question in the period.
	Value *float64 `json:"value,omitempty"`
}

// Item is one answer listed by the list metric.
type Item struct {
	Response    string    `json:"response"`
	SubmittedAt time.Time `json:"submittedAt"`
	Text        string    `json:"text"`
}

// Group is the result for the responses of one answer of the GroupBy question.
type Group struct {
	Label  string `json:"label"`
	Result Result `json:"result"`
}
