package dashboard

import (
	"net/http"
	"strconv"

	"forma/internal/form"
	"forma/internal/store"
	"forma/internal/webhook"
)

// The webhook page of a form: its URL and on/off switch (form.FormPatch.ApplyWebhook
// with webhook.URLCheck inside store.UpdateForm, as PATCH /api/v1/forms/{id}), a
// test delivery (webhook.Deliverer.SendTest, as POST …/webhook/test), the delivery
// status and log (store.LastDelivery, store.WebhookLogs), and the signing secret
// (revealed by a post; rotated after a confirmation with Deliverer.RotateSecret, as
// POST …/webhook/secret).

// deliveriesPerPage is how many delivery attempts the log shows at a time.
const deliveriesPerPage = 20

// webhookRoutes registers the webhook page and its posts.
func (h *Handler) webhookRoutes(mux Mux) {
	handle(mux, "GET /forms/{id}/webhook", h.page(h.webhookPage))
	handle(mux, "POST /forms/{id}/webhook", h.page(h.saveWebhook))
	handle(mux, "POST /forms/{id}/webhook/test", h.page(h.testWebhook))
	handle(mux, "POST /forms/{id}/webhook/secret", h.page(h.revealSecret))
	handle(mux, "GET /forms/{id}/webhook/rotate", h.page(h.confirmRotate))
	handle(mux, "POST /forms/{id}/webhook/rotate", h.page(h.rotateSecret))
}

// webhookData is the data of the webhook page.
type webhookData struct {
	Form    formHead
	URL     field
	Enabled bool
	// EnabledError is the problem of the on/off switch.
	EnabledError string
	Last         *deliveryRow
	TestURL      field
	Test         *testRow
	// Secret is the signing secret, shown after Reveal or Rotate ("" otherwise).
	Secret  string
	Rotated bool
	// OverlapHours is how long a rotated-out secret keeps signing.
	OverlapHours int
	Log          []deliveryRow
	Total        int
	Page         int
	Prev, Next   int
	Notice       string
}

// deliveryRow is one delivery attempt as the page shows it.
type deliveryRow struct {
	// Redeliver is where the entry's Redeliver button posts.
	Redeliver                 string
	Status, Code, Error, Time string
	URL, Response             string
}

// testRow is the outcome of a test delivery.
type testRow struct {
	Success  bool
	Code     string
	Error    string
	URL      string
	Duration string
}

// webhookNotices are the sentences the page shows after a redirect.
var webhookNotices = map[string]string{
	"saved":       "The webhook settings were saved.",
	"redelivered": "The delivery was sent again; its attempt is the newest entry of the log.",
}

// webhookPage serves GET /forms/{id}/webhook, with a validated page of the log.
func (h *Handler) webhookPage(w http.ResponseWriter, r *http.Request, s *Session) {
	f := h.ownForm(w, r, s)
	if f == nil {
		return
	}
	n, ok := requestedPage(w, r, s, webhookPath(f.ID), "The webhook page")
	if !ok {
		return
	}
	d := h.webhookView(f)
	d.Page, d.Notice = n, webhookNotices[r.URL.Query().Get("done")]
	h.showWebhook(w, r, http.StatusOK, s, f, d)
}

// webhookView is the page's data for the stored form f, before the log.
func (h *Handler) webhookView(f *form.Form) webhookData {
	d := webhookData{Form: h.headOf(f), Enabled: f.WebhookEnabled, Page: 1,
		OverlapHours: int(store.SecretOverlap.Hours())}
	d.Form.Tab = "webhook"
	d.URL = field{ID: "webhook-url", Name: "webhookUrl"}
	if f.WebhookURL != nil {
		d.URL.Value = *f.WebhookURL
	}
	d.TestURL = field{ID: "test-url", Name: "url"}
	return d
}

// showWebhook completes d with the delivery status and its page of the log, and
// draws the page.
func (h *Handler) showWebhook(w http.ResponseWriter, r *http.Request, status int, s *Session, f *form.Form, d webhookData) {
	last, err := h.store.LastDelivery(r.Context(), f.ID)
	var list []store.Delivery
	if err == nil {
		list, d.Total, err = h.store.WebhookLogs(r.Context(), f.ID, deliveriesPerPage, (d.Page-1)*deliveriesPerPage)
	}
	if err != nil {
		serverError(w, r, "read the webhook log", err)
		return
	}
	if last != nil {
		row := deliveryOf(f.ID, *last)
		d.Last = &row
	}
	for _, del := range list {
		d.Log = append(d.Log, deliveryOf(f.ID, del))
	}
	d.Prev, d.Next = pages(d.Page, deliveriesPerPage, d.Total)
	render(w, r, status, "webhook", "Webhook · "+f.Title, s, d)
}

// deliveryOf is a logged attempt of form id as the page shows it.
func deliveryOf(id int64, del store.Delivery) deliveryRow {
	row := deliveryRow{Status: del.Status, Code: "—", Time: moment(del.CreatedAt), URL: del.URL,
		Redeliver: webhookPath(id) + "/logs/" + strconv.FormatInt(del.ID, 10) + "/redeliver"}
	if del.ResponseCode != nil {
		row.Code = strconv.Itoa(*del.ResponseCode)
	}
	if del.ErrorMessage != nil {
		row.Error = *del.ErrorMessage
	}
	if del.SessionID != "" {
		row.Response = "/forms/" + strconv.FormatInt(id, 10) + "/responses/" + del.SessionID
	}
	return row
}

// saveWebhook serves POST /forms/{id}/webhook: the URL (empty clears it and turns
// delivery off) and the on/off switch, applied as the API's PATCH applies them.
func (h *Handler) saveWebhook(w http.ResponseWriter, r *http.Request, s *Session) {
	id, ok := parseIDs(w, r, s)
	if !ok {
		return
	}
	p := form.FormPatch{
		WebhookURL:     form.Optional[string]{Set: true, Value: r.PostForm.Get("webhookUrl")},
		WebhookEnabled: form.Optional[bool]{Set: true, Value: r.PostForm.Get("webhookEnabled") == "on"},
	}
	check := webhook.URLCheck(h.cfg.AllowPrivateWebhooks)
	_, err := h.store.UpdateForm(r.Context(), s.Account.ID, id, func(f *form.Form) error { return p.ApplyWebhook(f, check) })
	if form.ErrorCode(err) != form.Invalid {
		h.afterWebhook(w, r, s, id, err)
		return
	}
	f := h.ownForm(w, r, s)
	if f == nil {
		return
	}
	d := h.webhookView(f)
	errs := problemsOf(err)
	d.URL.Value, d.URL.Error = p.WebhookURL.Value, errs["webhookUrl"]
	d.Enabled, d.EnabledError = p.WebhookEnabled.Value, errs.other("webhookUrl")
	h.showWebhook(w, r, http.StatusBadRequest, s, f, d)
}

// afterWebhook ends a change of form id's webhook: back to the page when err is
// nil, a 404 or 500 page otherwise.
func (h *Handler) afterWebhook(w http.ResponseWriter, r *http.Request, s *Session, id int64, err error) {
	if err != nil {
		h.failed(w, r, s, "change a webhook", err)
		return
	}
	http.Redirect(w, r, webhookPath(id)+"?done=saved", http.StatusSeeOther)
}

// testWebhook serves POST /forms/{id}/webhook/test: a sample delivery to the
// posted URL, or the configured one, with its outcome on the page.
func (h *Handler) testWebhook(w http.ResponseWriter, r *http.Request, s *Session) {
	if !parseForm(w, r) {
		return
	}
	f := h.ownForm(w, r, s)
	if f == nil {
		return
	}
	d := h.webhookView(f)
	d.TestURL.Value = r.PostForm.Get("url")
	res, err := h.cfg.Webhooks.SendTest(r.Context(), f, d.TestURL.Value)
	switch {
	case form.ErrorCode(err) == form.Invalid:
		d.TestURL.Error = problemsOf(err).other()
		h.showWebhook(w, r, http.StatusBadRequest, s, f, d)
		return
	case err != nil:
		serverError(w, r, "send a test delivery", err)
		return
	}
	d.Test = testOf(res, d.TestURL.Value, f)
	h.showWebhook(w, r, http.StatusOK, s, f, d)
}

// testOf is a test delivery's outcome as the page shows it; url is the one posted
// ("" for f's configured URL).
func testOf(res webhook.TestResult, url string, f *form.Form) *testRow {
	t := &testRow{Success: res.Success, Code: "no HTTP answer", URL: url, Duration: "under 1 ms"}
	if ms := res.Duration.Milliseconds(); ms > 0 {
		t.Duration = strconv.FormatInt(ms, 10) + " ms"
	}
	if res.StatusCode != 0 {
		t.Code = strconv.Itoa(res.StatusCode)
	}
	if res.Error != nil {
		t.Error = *res.Error
	}
	if url == "" && f.WebhookURL != nil {
		t.URL = *f.WebhookURL
	}
	return t
}

// revealSecret serves POST /forms/{id}/webhook/secret: the page with the signing
// secret shown (the page is never cached).
func (h *Handler) revealSecret(w http.ResponseWriter, r *http.Request, s *Session) {
	f := h.ownForm(w, r, s)
	if f == nil {
		return
	}
	secret, err := h.cfg.Webhooks.Secret(r.Context(), f.ID)
	if err != nil {
		serverError(w, r, "read a webhook secret", err)
		return
	}
	d := h.webhookView(f)
	d.Secret = secret
	h.showWebhook(w, r, http.StatusOK, s, f, d)
}

// rotateData is the data of the rotation's confirmation.
type rotateData struct {
	Form         formHead
	OverlapHours int
}

// confirmRotate serves GET /forms/{id}/webhook/rotate: what a rotation does, and
// the button that does it.
func (h *Handler) confirmRotate(w http.ResponseWriter, r *http.Request, s *Session) {
	f := h.ownForm(w, r, s)
	if f == nil {
		return
	}
	render(w, r, http.StatusOK, "webhook-rotate", "Rotate the signing secret", s,
		rotateData{Form: h.headOf(f), OverlapHours: int(store.SecretOverlap.Hours())})
}

// rotateSecret serves POST /forms/{id}/webhook/rotate: a new signing secret,
// shown on the page.
func (h *Handler) rotateSecret(w http.ResponseWriter, r *http.Request, s *Session) {
	f := h.ownForm(w, r, s)
	if f == nil {
		return
	}
	secret, err := h.cfg.Webhooks.RotateSecret(r.Context(), s.Account.ID, f.ID)
	if err != nil {
		h.failed(w, r, s, "rotate a webhook secret", err)
		return
	}
	d := h.webhookView(f)
	d.Secret, d.Rotated = secret, true
	h.showWebhook(w, r, http.StatusOK, s, f, d)
}

// webhookPath is the webhook page of form id.
func webhookPath(id int64) string { return "/forms/" + strconv.FormatInt(id, 10) + "/webhook" }
