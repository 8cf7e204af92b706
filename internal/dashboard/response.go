package dashboard

import (
	"maps"
	"net/http"
	"slices"

	"forma/internal/ai/query"
	"forma/internal/form"
)

// detailItem is one question of a response with its answer.
type detailItem struct {
	Question string
	Answer   answer
	Answered bool
}

// responseData is the data of a response's detail page and of its delete
// confirmation.
type responseData struct {
	Form      formHead
	ID        string
	Submitted string
	Score     string // "" when the form is not scored
	Items     []detailItem
	// Hidden are the hidden values the response came with, by field name in
	// name order.
	Hidden []hiddenValue
}

// hiddenValue is a hidden field's value in a response.
type hiddenValue struct {
	Name, Value string
}

// response serves GET /forms/{id}/responses/{submissionId}: every question of the
// form with its answer, files with their signed links, and the score.
func (h *Handler) response(w http.ResponseWriter, r *http.Request, s *Session) {
	if data, ok := h.responseData(w, r, s); ok {
		render(w, r, http.StatusOK, "response", "Response · "+data.Form.Title, s, data)
	}
}

// confirmDeleteResponse serves GET /forms/{id}/responses/{submissionId}/delete: the step
// that asks before deleting.
func (h *Handler) confirmDeleteResponse(w http.ResponseWriter, r *http.Request, s *Session) {
	if data, ok := h.responseData(w, r, s); ok {
		render(w, r, http.StatusOK, "response-delete", "Delete response · "+data.Form.Title, s, data)
	}
}

// deleteResponse serves POST /forms/{id}/responses/{submissionId}/delete: the
// response and its files go, as with the API's DELETE, and the browser returns
// to the table.
func (h *Handler) deleteResponse(w http.ResponseWriter, r *http.Request, s *Session) {
	f, _, ok := h.accountForm(w, r, s)
	if !ok {
		return
	}
	err := h.cfg.Submissions.Delete(r.Context(), f.ID, r.PathValue("submissionId"))
	if h.loaded(w, r, s, "response", err) {
		http.Redirect(w, r, h.headOf(f).Path+"?deleted=1", http.StatusSeeOther)
	}
}

// responseData loads the response of the path for the signed-in account; it
// answers 404 and returns false when there is none.
func (h *Handler) responseData(w http.ResponseWriter, r *http.Request, s *Session) (responseData, bool) {
	f, questions, ok := h.accountForm(w, r, s)
	if !ok {
		return responseData{}, false
	}
	sub, err := h.store.GetResponse(r.Context(), f.ID, r.PathValue("submissionId"))
	if !h.loaded(w, r, s, "response", err) {
		return responseData{}, false
	}
	row, err := h.responseRow(r, f, questions, sub)
	if err != nil {
		serverError(w, r, "render a response", err)
		return responseData{}, false
	}
	data := responseData{Form: h.headOf(f), ID: sub.ID, Submitted: row.Submitted}
	for _, name := range slices.Sorted(maps.Keys(sub.Hidden)) {
		data.Hidden = append(data.Hidden, hiddenValue{Name: name, Value: sub.Hidden[name]})
	}
	if sub.Score != nil {
		data.Score = query.Format(*sub.Score)
	}
	keys := form.DataKeys(questions)
	for i, q := range questions {
		a := row.Answers[i]
		answered := a != answer{}
		// Deleted questions (after the live ones) show only when answered.
		if answered || i < len(f.Questions) {
			data.Items = append(data.Items, detailItem{Question: keys[q.ID], Answer: a, Answered: answered})
		}
	}
	return data, true
}
