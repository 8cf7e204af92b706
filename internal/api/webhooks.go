package api

import (
	"net/http"

	"forma/internal/form"
	"forma/internal/httpx"
	"forma/internal/store"
)

// testWebhook serves POST /forms/{id}/webhook/test: a sample payload to the given
// url, or to the form's configured one. A receiver's failure is success=false in a
// 200 body.
func (a *API) testWebhook(w http.ResponseWriter, r *http.Request) {
	var body struct {
		URL *string `json:"url"`
	}
	if r.ContentLength != 0 {
		if err := httpx.DecodeJSON(w, r, &body); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
	}
	f, err := a.ownedForm(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	target := ""
	if body.URL != nil {
		target = *body.URL
	}
	res, err := a.cfg.Webhooks.SendTest(r.Context(), f, target)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, res)
}

// deliveryView is the wire shape of a delivery log entry.
type deliveryView struct {
	ID           int64   `json:"id"`
	SessionID    string  `json:"sessionId"`
	WebhookURL   string  `json:"webhookUrl"`
	Status       string  `json:"status"`
	ResponseCode int     `json:"responseCode"`
	ErrorMessage *string `json:"errorMessage"`
	CreatedAt    string  `json:"createdAt"`
}

// logPage reads the page asked of a form's log (GET …/logs of the webhook or
// of the emails: 20 entries by default, at most 100), then the owned form.
func (a *API) logPage(r *http.Request) (page, *form.Form, error) {
	p, err := parsePage(r, 20, 100)
	if err != nil {
		return p, nil, err
	}
	f, err := a.ownedForm(r)
	return p, f, err
}

// webhookLogs serves GET /forms/{id}/webhook/logs: delivery attempts, newest
// first, by offset or after a cursor.
func (a *API) webhookLogs(w http.ResponseWriter, r *http.Request) {
	p, f, err := a.logPage(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	after, err := parseCursor(r, newestDeliveries, f.ID)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	list, total, err := a.readLogs(r, f.ID, p, after)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	list, more := cursorRows(list, total, p, after)
	views := make([]deliveryView, len(list))
	for i := range list {
		views[i] = viewDelivery(&list[i])
	}
	var next *cursor
	if n := len(list); n > 0 {
		next = &cursor{list: newestDeliveries, formID: f.ID, at: list[n-1].ID}
	}
	httpx.WriteJSON(w, http.StatusOK, withCursor(listEnvelope("logs", views, total, p), more, next))
}

// viewDelivery renders a delivery log entry.
func viewDelivery(d *store.Delivery) deliveryView {
	return deliveryView{ID: d.ID, SessionID: d.SessionID, WebhookURL: d.URL, Status: d.Status,
		ResponseCode: codeOrZero(d.ResponseCode), ErrorMessage: d.ErrorMessage, CreatedAt: form.Timestamp(d.CreatedAt)}
}

// redeliverWebhook serves POST /forms/{id}/webhook/logs/{logId}/redeliver
// (extension): the logged delivery is sent again now, and the new attempt,
// logged as a new entry, is the answer, whatever the receiver said.
func (a *API) redeliverWebhook(w http.ResponseWriter, r *http.Request) {
	err := httpx.RequireEmptyBody(w, r)
	var f *form.Form
	if err == nil {
		f, err = a.ownedForm(r)
	}
	var logID int64
	if err == nil {
		logID, err = pathID(r, "logId")
	}
	var d *store.Delivery
	if err == nil {
		d, err = a.cfg.Webhooks.Redeliver(r.Context(), f, logID)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, viewDelivery(d))
}

// readLogs reads a page of a form's delivery log: after the cursor, or at the
// page's offset.
func (a *API) readLogs(r *http.Request, formID int64, p page, after *cursor) ([]store.Delivery, int, error) {
	if after != nil {
		return a.store.WebhookLogsBefore(r.Context(), formID, after.at, p.fetchLimit(after))
	}
	return a.store.WebhookLogs(r.Context(), formID, p.limit, p.offset)
}

// webhookStatus serves GET /forms/{id}/webhook/status: the setting and the latest
// delivery (null before the first).
func (a *API) webhookStatus(w http.ResponseWriter, r *http.Request) {
	f, err := a.ownedForm(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	last, err := a.store.LastDelivery(r.Context(), f.ID)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{
		"enabled": f.WebhookEnabled, "url": f.WebhookURL, "lastDelivery": lastDeliveryView(last),
	})
}

func lastDeliveryView(d *store.Delivery) any {
	if d == nil {
		return nil
	}
	return map[string]any{"status": d.Status, "responseCode": codeOrZero(d.ResponseCode), "error": d.ErrorMessage, "attemptedAt": form.Timestamp(d.CreatedAt)}
}

// codeOrZero is the receiver's HTTP status, or 0 when it gave no HTTP answer (the API
// contract types the field as an integer; see openapi.json).
func codeOrZero(code *int) int {
	if code == nil {
		return 0
	}
	return *code
}

// rotateWebhookSecret serves POST /forms/{id}/webhook/secret (extension): a new
// signing secret, shown once; the previous one keeps signing for 24 hours.
func (a *API) rotateWebhookSecret(w http.ResponseWriter, r *http.Request) {
	err := httpx.RequireEmptyBody(w, r)
	var id int64
	if err == nil {
		id, err = a.formID(r)
	}
	var secret string
	if err == nil {
		secret, err = a.cfg.Webhooks.RotateSecret(r.Context(), caller(r).account.ID, id)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"secret": secret})
}

// ownedForm loads the form of the {id} path parameter for the caller.
func (a *API) ownedForm(r *http.Request) (*form.Form, error) {
	id, err := a.formID(r)
	if err != nil {
		return nil, err
	}
	return a.store.GetForm(r.Context(), caller(r).account.ID, id)
}
