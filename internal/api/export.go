package api

import (
	"net/http"

	"forma/internal/form"
	"forma/internal/httpx"
	"forma/internal/render"
)

// exportResponses serves GET /forms/{id}/responses/export?format=csv|json (extension):
// every completed submission matching the list filters, streamed by render.Export.
func (a *API) exportResponses(w http.ResponseWriter, r *http.Request) {
	format, ok := render.ParseFormat(r.URL.Query().Get("format"))
	if !ok {
		httpx.WriteError(w, r, form.FieldInvalid("format", "must be csv or json"))
		return
	}
	f, questions, err := a.responseForm(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	filter, err := parseResponseFilter(r, f, questions)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	a.cfg.Submissions.Export(r.Context(), w, format, f, questions, func(fn func(*form.Submission) error) error {
		return a.store.EachResponse(r.Context(), f.ID, filter, fn)
	})
}
