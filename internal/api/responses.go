package api

import (
	"net/http"
	"time"

	"forma/internal/form"
	"forma/internal/httpx"
	"forma/internal/render"
	"forma/internal/store"
)

// responseForm loads the form of the {id} path parameter with all its questions
// (deleted ones last), for rendering submissions.
func (a *API) responseForm(r *http.Request) (*form.Form, []form.Question, error) {
	f, err := a.ownedForm(r)
	if err != nil {
		return nil, nil, err
	}
	all, err := a.store.AllQuestions(r.Context(), f.ID)
	return f, all, err
}

// parseResponseFilter reads order (desc default, or asc) and the since/until
// completion-time bounds (RFC 3339).
func parseResponseFilter(r *http.Request) (store.ResponseFilter, error) {
	var f store.ResponseFilter
	q := r.URL.Query()
	switch q.Get("order") {
	case "", "desc":
	case "asc":
		f.Ascending = true
	default:
		return f, form.FieldInvalid("order", "must be asc or desc")
	}
	for _, p := range []struct {
		name string
		dst  **time.Time
	}{{"since", &f.Since}, {"until", &f.Until}} {
		if v := q.Get(p.name); v != "" {
			t, err := time.Parse(time.RFC3339, v)
			if err != nil {
				return f, form.FieldInvalid(p.name, "must be an RFC 3339 date-time such as 2026-11-22T00:00:00Z")
			}
			*p.dst = &t
		}
	}
	return f, nil
}

// listResponses serves GET /forms/{id}/responses: completed submissions, newest
// first, by offset or after a cursor.
func (a *API) listResponses(w http.ResponseWriter, r *http.Request) {
	p, err := parsePage(r, 50, 500)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	filter, err := parseResponseFilter(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	f, questions, err := a.responseForm(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	list := responsesList(filter.Ascending)
	after, err := parseCursor(r, list, f.ID)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if after != nil {
		filter.After = &store.ResponseKey{CompletedAt: time.UnixMilli(after.at).UTC(), ID: after.id}
	}
	subs, total, err := a.store.ListResponses(r.Context(), f.ID, filter, p.fetchLimit(after), p.offset)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	subs, more := cursorRows(subs, total, p, after)
	views := make([]render.Response, len(subs))
	for i := range subs {
		if views[i], err = a.cfg.Submissions.Response(r.Context(), questions, &subs[i]); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
	}
	var next *cursor
	if n := len(subs); n > 0 {
		next = &cursor{list: list, formID: f.ID, at: subs[n-1].CompletedAt.UnixMilli(), id: subs[n-1].ID}
	}
	httpx.WriteJSON(w, http.StatusOK, withCursor(listEnvelope("responses", views, total, p), more, next))
}

// getResponse serves GET /forms/{id}/responses/{submissionId} (extension).
func (a *API) getResponse(w http.ResponseWriter, r *http.Request) {
	f, questions, err := a.responseForm(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	sub, err := a.store.GetResponse(r.Context(), f.ID, r.PathValue("submissionId"))
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	view, err := a.cfg.Submissions.Response(r.Context(), questions, sub)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, view)
}

// deleteResponse serves DELETE /forms/{id}/responses/{submissionId} (extension); the
// files uploaded with the submission are deleted too.
func (a *API) deleteResponse(w http.ResponseWriter, r *http.Request) {
	f, _, err := a.responseForm(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if err := a.cfg.Submissions.Delete(r.Context(), f.ID, r.PathValue("submissionId")); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
