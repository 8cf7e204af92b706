package api

import (
	"net/http"
	"net/url"
	"time"

	"forma/internal/form"
	"forma/internal/httpx"
	"forma/internal/store"
)

// responseForm loads the form of the {id} path parameter with all its questions
// (deleted ones last), for rendering submissions, from the form cache: both are
// shared and must not be modified.
func (a *API) responseForm(r *http.Request) (*form.Form, []form.Question, error) {
	id, err := a.formID(r)
	if err != nil {
		return nil, nil, err
	}
	c, err := a.store.CachedForm(r.Context(), caller(r).account.ID, id)
	if err != nil {
		return nil, nil, err
	}
	all, err := a.store.CachedAllQuestions(r.Context(), c)
	return c.Form, all, err
}

// parseResponseFilter reads, for the responses of f with questions (deleted
// ones included), order (desc default, or asc), the since/until completion-time
// bounds (RFC 3339), the from/to range (parseRange) and the filter and q of
// form.ParseAnswerFilter, which becomes the store's Match.
func parseResponseFilter(r *http.Request, f *form.Form, questions []form.Question) (store.ResponseFilter, error) {
	var rf store.ResponseFilter
	q := r.URL.Query()
	switch q.Get("order") {
	case "", "desc":
	case "asc":
		rf.Ascending = true
	default:
		return rf, form.FieldInvalid("order", "must be asc or desc")
	}
	for _, p := range []struct {
		name string
		dst  **time.Time
	}{{"since", &rf.Since}, {"until", &rf.Until}} {
		if v := q.Get(p.name); v != "" {
			t, err := time.Parse(time.RFC3339, v)
			if err != nil {
				return rf, form.FieldInvalid(p.name, "must be an RFC 3339 date-time such as 2026-11-22T00:00:00Z")
			}
			*p.dst = &t
		}
	}
	if err := parseRange(q, &rf); err != nil {
		return rf, err
	}
	match, err := form.ParseAnswerFilter(q["filter"], q.Get("q"), questions, f.Settings.HiddenFields)
	if match != nil {
		rf.Match = match.Match
	}
	return rf, err
}

// parseRange narrows rf to the from/to range of query (form.ParseRange);
// with since or until, the narrower bound holds.
func parseRange(query url.Values, rf *store.ResponseFilter) error {
	from, to, err := form.ParseRange(query.Get("from"), query.Get("to"))
	if from != nil && (rf.Since == nil || from.After(*rf.Since)) {
		rf.Since = from
	}
	if to != nil && (rf.Until == nil || to.Before(*rf.Until)) {
		rf.Until = to
	}
	return err
}

// listResponses serves GET /forms/{id}/responses: completed submissions, newest
// first, by offset or after a cursor, those parseResponseFilter selects.
func (a *API) listResponses(w http.ResponseWriter, r *http.Request) {
	p, err := parsePage(r, 50, 500)
	if err != nil {
		httpx.WriteError(w, r, err)
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
	views, err := a.cfg.Submissions.Responses(r.Context(), questions, subs)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
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
