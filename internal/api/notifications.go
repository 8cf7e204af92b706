package api

import (
	"net/http"

	"forma/internal/form"
	"forma/internal/httpx"
)

// mailLogView is the wire shape of a logged email attempt.
type mailLogView struct {
	ID           int64   `json:"id"`
	SessionID    string  `json:"sessionId"`
	Kind         string  `json:"kind"`
	Recipient    string  `json:"recipient"`
	Status       string  `json:"status"`
	ErrorMessage *string `json:"errorMessage"`
	Attempt      int     `json:"attempt"`
	CreatedAt    string  `json:"createdAt"`
}

// mailLogs serves GET /forms/{id}/notifications/logs (extension): the form's
// email attempts, newest first, and whether this server sends email at all.
func (a *API) mailLogs(w http.ResponseWriter, r *http.Request) {
	p, f, err := a.logPage(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	list, total, err := a.store.MailLogs(r.Context(), f.ID, p.limit, p.offset)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	views := make([]mailLogView, len(list))
	for i, d := range list {
		views[i] = mailLogView{ID: d.ID, SessionID: d.SessionID, Kind: d.Kind, Recipient: d.Recipient, Status: d.Status,
			ErrorMessage: d.ErrorMessage, Attempt: d.Attempt, CreatedAt: form.Timestamp(d.CreatedAt)}
	}
	body := listEnvelope("logs", views, total, p)
	body["sending"] = a.cfg.MailSending
	httpx.WriteJSON(w, http.StatusOK, body)
}
