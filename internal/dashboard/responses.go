package dashboard

import (
	"net/http"
	"net/url"
	"path"
	"strconv"
	"time"

	"forma/internal/form"
	rendered "forma/internal/render"
	"forma/internal/store"
)

// responsesPerPage is how many responses the responses table shows at a time.
const responsesPerPage = 25

// answer is one rendered answer as the pages show it: text, or a file's name with
// its signed download link.
type answer struct {
	Text     string
	FileName string
	FileURL  string
}

// responseRow is one response in the table: its answers in column order,
// then its hidden values (those of the form's hidden fields).
type responseRow struct {
	ID        string
	Submitted string
	Answers   []answer
	Hidden    []string
}

// formHead names the form a responses page is about.
type formHead struct {
	ID      int64
	Title   string
	URL     string // the public page, while published
	Path    string // the responses table
	Summary string // the summary page
	// Analytics and Chat are the AI pages: the analysis and the conversations.
	Analytics, Chat string
	Webhook         string // the webhook page
	Settings        string // the settings page: closing and thank-you
	Email           string // the Email page: notifications
	Tab             string // the view shown: "table", "summary", "webhook", "analytics", "chat", "settings" or "email" ("" on other pages)
}

// responsesData is the data of the responses table.
type responsesData struct {
	Form       formHead
	Columns    []string // question keys, in form order
	Hidden     []string // the form's hidden fields, columns after the questions
	Filter     filterView
	Rows       []responseRow
	Total      int
	Page       int
	From, To   int // the responses shown, counted from 1
	Prev, Next int // 0: no such page
	// The links of the pager and of the exports, which keep the filter.
	PrevLink, NextLink, CSVLink, JSONLink string
	Deleted                               bool
}

// responses serves GET /forms/{id}/responses: the form's completed responses,
// newest first, one column per question.
func (h *Handler) responses(w http.ResponseWriter, r *http.Request, s *Session) {
	f, questions, ok := h.accountForm(w, r, s)
	if !ok {
		return
	}
	head := h.headOf(f)
	head.Tab = "table"
	n, ok := requestedPage(w, r, s, head.Path, "First page of responses")
	if !ok {
		return
	}
	filter, fv := responsesFilter(r.URL.Query(), f, questions)
	list, total, err := h.store.ListResponses(r.Context(), f.ID, filter, responsesPerPage, (n-1)*responsesPerPage)
	if form.ErrorCode(err) == form.Invalid { // a filter the store cannot read (too many responses to scan)
		fv.Error, fv.Active, fv.Query = refusal(err), false, ""
		list, total, err = h.store.ListResponses(r.Context(), f.ID, store.ResponseFilter{}, responsesPerPage, (n-1)*responsesPerPage)
	}
	if err != nil {
		serverError(w, r, "list responses", err)
		return
	}
	data := responsesData{Form: head, Total: total, Page: n, Deleted: r.URL.Query().Get("deleted") == "1",
		Hidden: f.Settings.HiddenFields, Filter: fv}
	keys := form.DataKeys(questions)
	for _, q := range questions {
		data.Columns = append(data.Columns, keys[q.ID])
	}
	for i := range list {
		row, err := h.responseRow(r, f, questions, &list[i])
		if err != nil {
			serverError(w, r, "render a response", err)
			return
		}
		data.Rows = append(data.Rows, row)
	}
	data.From, data.To = (n-1)*responsesPerPage+1, (n-1)*responsesPerPage+len(list)
	data.Prev, data.Next = pages(n, responsesPerPage, total)
	data.links()
	render(w, r, http.StatusOK, "responses", "Responses · "+f.Title, s, data)
}

// links sets the links of the pager and the exports, which keep the filter.
func (d *responsesData) links() {
	d.CSVLink, d.JSONLink = d.link(d.Form.Path+"/export.csv", 0), d.link(d.Form.Path+"/export.json", 0)
	if d.Prev > 0 {
		d.PrevLink = d.link(d.Form.Path, d.Prev)
	}
	if d.Next > 0 {
		d.NextLink = d.link(d.Form.Path, d.Next)
	}
}

// link is path with the filter's query and, unless it is 0, the page number.
func (d *responsesData) link(path string, page int) string {
	q, _ := url.ParseQuery(d.Filter.Query) // encoded by responsesFilter
	if page > 0 {
		q.Set("page", strconv.Itoa(page))
	}
	if len(q) == 0 {
		return path
	}
	return path + "?" + q.Encode()
}

// pages returns the previous and next page numbers around page n (0: none).
func pages(n, perPage, total int) (prev, next int) {
	if n > 1 {
		prev = n - 1
	}
	if n*perPage < total {
		next = n + 1
	}
	return prev, next
}

// responseRow renders sub, a response of f, as a row of the table: one answer
// per question, empty where it was not answered, then one value per hidden
// field of f.
func (h *Handler) responseRow(r *http.Request, f *form.Form, questions []form.Question, sub *form.Submission) (responseRow, error) {
	view, err := h.cfg.Submissions.Response(r.Context(), questions, sub)
	if err != nil {
		return responseRow{}, err
	}
	byID := make(map[int64]any, len(view.Data))
	for _, e := range view.Data {
		byID[e.QuestionID] = e.Value
	}
	row := responseRow{ID: sub.ID, Submitted: moment(*sub.CompletedAt)}
	for _, q := range questions {
		v, ok := byID[q.ID]
		row.Answers = append(row.Answers, answerOf(v, ok))
	}
	for _, name := range f.Settings.HiddenFields {
		row.Hidden = append(row.Hidden, sub.Hidden[name])
	}
	return row, nil
}

// answerOf is a rendered answer (render.Submissions.Data) as the pages show it;
// answered is false for a question without an answer.
func answerOf(v any, answered bool) answer {
	switch {
	case !answered:
		return answer{}
	case v == nil:
		return answer{Text: "(file no longer stored)"}
	}
	if f, ok := v.(form.FileAnswer); ok {
		return answer{FileName: f.Name, FileURL: f.URL}
	}
	return answer{Text: rendered.AnswerText(v)}
}

// moment writes a time as the responses pages show it; the no-break spaces let
// a narrow column wrap it only between the date and the time.
func moment(t time.Time) string { return t.UTC().Format("2\u00a0Jan\u00a02006, 15:04\u00a0UTC") }

// accountForm loads the form of the {id} path parameter with all its questions
// (deleted ones last, as render expects) when the signed-in account owns it;
// otherwise it answers 404 (another account's form is not found, never forbidden)
// and returns false.
func (h *Handler) accountForm(w http.ResponseWriter, r *http.Request, s *Session) (*form.Form, []form.Question, bool) {
	var questions []form.Question
	f, err := h.formOf(r, s)
	if err == nil {
		questions, err = h.store.AllQuestions(r.Context(), f.ID)
	}
	return f, questions, h.loaded(w, r, s, "form", err)
}

// loaded reports whether err is nil; otherwise it answers 404 for a missing what
// and 500 for any other error.
func (h *Handler) loaded(w http.ResponseWriter, r *http.Request, s *Session, what string, err error) bool {
	switch {
	case err == nil:
		return true
	case form.ErrorCode(err) == form.NotFound:
		missing(w, r, s, what)
	default:
		serverError(w, r, "load a "+what, err)
	}
	return false
}

// headOf names f for the responses pages.
func (h *Handler) headOf(f *form.Form) formHead {
	id := strconv.FormatInt(f.ID, 10)
	head := formHead{ID: f.ID, Title: f.Title, Path: "/forms/" + id + "/responses", Summary: "/forms/" + id + "/summary",
		Analytics: "/forms/" + id + "/analytics", Chat: "/forms/" + id + "/chat", Webhook: webhookPath(f.ID),
		Settings: formSettingsPath(f.ID), Email: emailPath(f.ID)}
	if f.IsPublished() {
		head.URL = f.ShareURL(h.cfg.PublicURL)
	}
	return head
}

// exportResponses serves GET /forms/{id}/responses/export.csv and .json: every
// response the table's filter selects (all without one), newest first, as the
// API's export writes it.
func (h *Handler) exportResponses(w http.ResponseWriter, r *http.Request, s *Session) {
	f, questions, ok := h.accountForm(w, r, s)
	if !ok {
		return
	}
	filter, _ := responsesFilter(r.URL.Query(), f, questions)
	format, _ := rendered.ParseFormat(path.Ext(r.URL.Path)[1:])
	h.cfg.Submissions.Export(r.Context(), w, format, f, questions, func(fn func(*form.Submission) error) error {
		return h.store.EachResponse(r.Context(), f.ID, filter, fn)
	})
}
