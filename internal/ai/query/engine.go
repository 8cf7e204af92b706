package query

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"

	"forma/internal/form"
)

// Limits of queries.
const (
	DefaultTopLimit  = 5   // answers returned by top without a limit
	DefaultListLimit = 10  // answers returned by list without a limit
	MaxListLimit     = 100 // most answers list returns
	DefaultTextLimit = 10  // distinct free-text answers in a distribution without a limit
)

// Engine answers queries over one dataset. It is safe for concurrent use as long as
// the dataset is not modified.
type Engine struct {
	ds        *Dataset
	questions map[int64]*form.Question
	newest    []int           // response indexes, newest first
	all       []int           // response indexes in order
	sentiment *sentimentCache // shared with the engines that follow (see follow)
	mu        sync.Mutex
	columns   map[int64]*column // answers of a question by response index
}

// New returns an engine over ds. The dataset is read, never modified.
func New(ds *Dataset) *Engine {
	e := &Engine{ds: ds, questions: map[int64]*form.Question{}, sentiment: &sentimentCache{}}
	if ds.Form != nil {
		for i := range ds.Form.Questions {
			q := &ds.Form.Questions[i]
			e.questions[q.ID] = q
		}
	}
	e.newest = newestFirst(ds.Responses)
	e.all = make([]int, len(ds.Responses))
	for i := range e.all {
		e.all[i] = i
	}
	return e
}

// newestFirst returns the indexes of responses, newest first, ties in index order.
// Responses stored oldest first (as render.Submissions.Dataset loads them) take one
// pass; others are sorted.
func newestFirst(rs []form.Submission) []int {
	for i := 1; i < len(rs); i++ {
		if rs[i].SubmittedAt().Before(rs[i-1].SubmittedAt()) {
			return sortNewest(rs)
		}
	}
	return reverseRuns(rs)
}

// sortNewest sorts the indexes of responses in any order newest first.
func sortNewest(rs []form.Submission) []int {
	idx := make([]int, len(rs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		if c := rs[b].SubmittedAt().Compare(rs[a].SubmittedAt()); c != 0 {
			return c
		}
		return a - b
	})
	return idx
}

// reverseRuns lists the indexes of responses stored oldest first newest first:
// backwards, run of equal times by run, each run in index order.
func reverseRuns(rs []form.Submission) []int {
	idx := make([]int, 0, len(rs))
	for end := len(rs); end > 0; {
		start := end - 1
		for start > 0 && rs[start-1].SubmittedAt().Equal(rs[end-1].SubmittedAt()) {
			start--
		}
		for i := start; i < end; i++ {
			idx = append(idx, i)
		}
		end = start
	}
	return idx
}

// question returns the question with the given id.
func (e *Engine) question(id int64) (*form.Question, error) {
	if id == 0 {
		return nil, errors.New("question id is missing")
	}
	q, ok := e.questions[id]
	if !ok {
		return nil, fmt.Errorf("the form has no question %d", id)
	}
	return q, nil
}

// Run computes the result of q.
func (e *Engine) Run(q Query) (*Result, error) {
	if !slices.Contains(Metrics, q.Metric) {
		return nil, fmt.Errorf("unknown metric %q", q.Metric)
	}
	pred, err := e.compileAll(scopeFilters(q))
	if err != nil {
		return nil, err
	}
	idx := e.match(pred, nil)
	res, err := e.compute(q, idx)
	if err != nil {
		return nil, err
	}
	if q.GroupBy != 0 {
		if res.Groups, err = e.groups(q, idx); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// scopeFilters returns the filters of q with its From and To bounds added.
func scopeFilters(q Query) []Filter {
	fs := slices.Clone(q.Filters)
	if q.From != "" {
		fs = append(fs, Filter{Field: FieldSubmittedAt, Op: GTE, Value: q.From})
	}
	if q.To != "" {
		fs = append(fs, Filter{Field: FieldSubmittedAt, Op: LTE, Value: q.To})
	}
	return fs
}

// match returns the indexes of the responses among idx (all when idx is nil) that
// satisfy p (all when p is nil). The result may be idx itself or shared by the
// engine: it must not be modified.
func (e *Engine) match(p predicate, idx []int) []int {
	if idx == nil {
		idx = e.all
	}
	if p == nil {
		return idx
	}
	out := make([]int, 0, len(idx))
	for _, i := range idx {
		if p(i) {
			out = append(out, i)
		}
	}
	return out
}

// follow starts e from what prev, the engine of a dataset whose responses begin
// e's, has read: its columns, extended with the responses added, and its
// sentiment scores. A nil prev changes nothing.
func (e *Engine) follow(prev *Engine) {
	if prev == nil {
		return
	}
	e.sentiment = prev.sentiment
	prev.mu.Lock()
	defer prev.mu.Unlock()
	kept := len(prev.ds.Responses)
	if prev.columns == nil || kept > len(e.ds.Responses) {
		return
	}
	added := readColumns(e.questions, e.ds.Responses[kept:])
	e.columns = make(map[int64]*column, len(e.questions))
	for id, q := range e.questions {
		old, ok := prev.columns[id]
		if !ok {
			e.columns[id] = readColumns(map[int64]*form.Question{id: q}, e.ds.Responses)[id]
			continue
		}
		e.columns[id] = &column{q: q, vals: append(slices.Clip(old.vals), added[id].vals...),
			ans: append(slices.Clip(old.ans), added[id].ans...)}
	}
}

// column returns the answers to question id by response index; the first call
// reads those of every question of the form, in one pass.
func (e *Engine) column(id int64) *column {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.columns == nil {
		e.columns = readColumns(e.questions, e.ds.Responses)
	}
	col, ok := e.columns[id]
	if !ok { // not a question of the form
		col = readColumns(map[int64]*form.Question{id: {ID: id}}, e.ds.Responses)[id]
		e.columns[id] = col
	}
	return col
}

// compute computes the metric of q over the responses idx.
func (e *Engine) compute(q Query, idx []int) (*Result, error) {
	res := &Result{Metric: q.Metric, Question: q.Question, Total: len(e.ds.Responses), Matched: len(idx)}
	var qu *form.Question
	if q.Question != 0 {
		var err error
		if qu, err = e.question(q.Question); err != nil {
			return nil, err
		}
		res.QuestionText = qu.Text
	}
	if err := e.metric(q, qu, idx, res); err != nil {
		return nil, err
	}
	res.Display = display(res)
	return res, nil
}

// metric dispatches to the computation of q.Metric.
func (e *Engine) metric(q Query, qu *form.Question, idx []int, res *Result) error {
	switch q.Metric {
	case Count:
		return e.count(qu, idx, res)
	case Percent:
		return e.percent(q.Match, idx, res)
	case Mean, Median, Min, Max, Sum:
		return e.numeric(q.Metric, qu, idx, res)
	case Distribution, Top:
		return e.distribution(q, qu, idx, res)
	case List:
		return e.list(q.Limit, qu, idx, res)
	case Trend:
		return e.trend(q.Interval, qu, idx, res)
	case StdDev, Percentile:
		return e.spread(q, qu, idx, res)
	case Mode:
		return e.mode(q, qu, idx, res)
	case Words:
		return e.words(q, qu, idx, res)
	}
	return e.sentimentOf(qu, idx, res)
}

// display formats the value of a scalar result.
func display(r *Result) string {
	switch {
	case r.Text != "":
		return r.Text
	case r.Value == nil:
		return ""
	case r.Metric == Percent:
		return FormatPercent(*r.Value)
	}
	return Format(*r.Value)
}

// RunJSON decodes a Query from raw (unknown fields are an error), runs it and
// returns the Result as compact JSON. It is the entry point of LLM tool calls.
func (e *Engine) RunJSON(raw json.RawMessage) (json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var q Query
	if err := dec.Decode(&q); err != nil {
		return nil, fmt.Errorf("invalid query: %w", err)
	}
	res, err := e.Run(q)
	if err != nil {
		return nil, err
	}
	return json.Marshal(res)
}

// Completion is the completion figure of a dataset.
type Completion struct {
	Completed int     `json:"completed"` // responses
	Started   int     `json:"started"`   // sessions started
	Rate      float64 `json:"rate"`      // Completed ÷ Started × 100, at most 100; 0 when none started
}

// Completion returns completed ÷ started sessions × 100 (0 when none started; at
// most 100 when the counts disagree).
func (e *Engine) Completion() Completion {
	c := Completion{Completed: len(e.ds.Responses), Started: e.ds.Started}
	if c.Started > 0 {
		c.Rate = min(100, float64(c.Completed)/float64(c.Started)*100)
	}
	return c
}

// QuestionInfo describes a question for a caller choosing what to query.
type QuestionInfo struct {
	ID      int64             `json:"id"`
	Type    form.QuestionType `json:"type"`
	Text    string            `json:"text"`
	Options []string          `json:"options,omitempty"`
	// Metrics lists the metrics that apply to the question.
	Metrics []Metric `json:"metrics"`
}

// Catalog describes the form for a caller choosing queries (an LLM): its title,
// response count and questions with the metrics that apply to each.
func (e *Engine) Catalog() json.RawMessage {
	type catalog struct {
		Title        string         `json:"title"`
		Responses    int            `json:"responses"`
		Questions    []QuestionInfo `json:"questions"`
		HiddenFields []string       `json:"hiddenFields,omitempty"`
	}
	c := catalog{Responses: len(e.ds.Responses), Questions: []QuestionInfo{}}
	if e.ds.Form != nil {
		c.Title, c.HiddenFields = e.ds.Form.Title, e.ds.Form.Settings.HiddenFields
		for _, q := range e.ds.Form.Questions {
			c.Questions = append(c.Questions, QuestionInfo{ID: q.ID, Type: q.Type, Text: q.Text,
				Options: q.Options, Metrics: MetricsFor(q.Type)})
		}
	}
	b, _ := json.Marshal(c)
	return b
}

// MetricsFor lists the metrics that apply to a question of type t.
func MetricsFor(t form.QuestionType) []Metric {
	common := []Metric{Count, Distribution, Top, List, Mode}
	switch kindOf(t) {
	case kindNumber:
		return append(common, Mean, Median, Min, Max, Sum, Trend, StdDev, Percentile)
	case kindDate, kindTime:
		return append(common, Min, Max)
	}
	if isFreeText(t) {
		return append(common, Sentiment, Words)
	}
	return common
}
