package dashboard

import (
	"net/http"
	"strconv"

	"forma/internal/ai/query"
	"forma/internal/form"
)

// questionSummary is one question's figures on the summary page.
type questionSummary struct {
	Question string
	// Answered counts the responses that answered it.
	Answered int
	// Figures are a numeric question's average and median ("" for others).
	Figures string
	// Chart is nil for questions whose answers are not counted by choice or value
	// (free text, dates, files): the table of responses shows them.
	Chart *chart
}

// summaryData is the data of the summary page.
type summaryData struct {
	Form      formHead
	Total     int
	PerDay    *chart // nil without responses
	Questions []questionSummary
}

// summary serves GET /forms/{id}/summary: responses per day and each question's
// figures, computed by the query engine that the AI features use, so that both
// report the same numbers.
func (h *Handler) summary(w http.ResponseWriter, r *http.Request, s *Session) {
	f, _, ok := h.accountForm(w, r, s)
	if !ok {
		return
	}
	ds, err := h.cfg.Submissions.Dataset(r.Context(), f)
	if err != nil {
		serverError(w, r, "load responses for the summary", err)
		return
	}
	head := h.headOf(f)
	head.Tab = "summary"
	data, err := summarise(head, f, ds.Engine(), len(ds.Responses))
	if err != nil {
		serverError(w, r, "summarise responses", err)
		return
	}
	render(w, r, http.StatusOK, "summary", "Summary · "+f.Title, s, data)
}

// summarise computes the figures of the summary page of f (head) over the total
// responses of e's dataset.
func summarise(head formHead, f *form.Form, e *query.Engine, total int) (summaryData, error) {
	data := summaryData{Form: head, Total: total}
	if total == 0 {
		return data, nil
	}
	trend, err := e.Run(query.Query{Metric: query.Trend, Interval: query.Day})
	if err != nil {
		return data, err
	}
	data.PerDay = columnChart("per-day", "Responses per day", trend.Buckets)
	for i := range f.Questions {
		qs, err := questionFigures(e, &f.Questions[i], "q"+strconv.Itoa(i))
		if err != nil {
			return data, err
		}
		data.Questions = append(data.Questions, qs)
	}
	return data, nil
}

// charted are the question types whose answers the summary counts by choice or
// value; numeric marks those that also get an average and a median.
var charted = map[form.QuestionType]struct{ numeric bool }{
	form.Select: {}, form.MultiSelect: {}, form.YesNo: {},
	form.Rating: {true}, form.Slider: {true}, form.Number: {true}, form.Currency: {true},
}

// questionFigures computes one question's figures: how many answered it and, for
// the charted types, the distribution of its answers (chart id).
func questionFigures(e *query.Engine, q *form.Question, id string) (questionSummary, error) {
	qs := questionSummary{Question: q.Text}
	kind, ok := charted[q.Type]
	metric := query.Count
	if ok {
		metric = query.Distribution
	}
	res, err := e.Run(query.Query{Metric: metric, Question: q.ID})
	if err != nil {
		return qs, err
	}
	qs.Answered = res.N
	if !ok {
		return qs, nil
	}
	buckets := res.Buckets
	if kind.numeric {
		buckets = binned(q, buckets)
	}
	qs.Chart = barChart(id, "Answers to “"+q.Text+"”", buckets)
	if kind.numeric && res.N > 0 {
		qs.Figures, err = averages(e, q)
	}
	return qs, err
}

// averages writes the mean and median of a numeric question's answers.
func averages(e *query.Engine, q *form.Question) (string, error) {
	mean, err := e.Run(query.Query{Metric: query.Mean, Question: q.ID})
	if err != nil {
		return "", err
	}
	median, err := e.Run(query.Query{Metric: query.Median, Question: q.ID})
	if err != nil {
		return "", err
	}
	return "Average " + query.FormatValue(q, *mean.Value) + " · median " + query.FormatValue(q, *median.Value), nil
}
