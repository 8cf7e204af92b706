package webhook

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"time"

	"forma/internal/form"
	"forma/internal/store"
)

// TestResult is the outcome of a test delivery.
type TestResult struct {
	Success    bool    `json:"success"`
	StatusCode int     `json:"statusCode"` // 0 when no HTTP answer came
	Error      *string `json:"error"`
	// Duration is how long the delivery took (not on the wire).
	Duration time.Duration `json:"-"`
}

// SendTest POSTs a sample payload built from the form's questions to url (checked
// as a saved URL is, and reported as the field "url"), or to the form's configured
// URL when url is empty, signed like a real delivery, and reports the outcome. Test
// deliveries are not logged and do not change the form's last delivery.
func (d *Deliverer) SendTest(ctx context.Context, f *form.Form, url string) (TestResult, error) {
	url, err := d.testTarget(f, url)
	if err != nil {
		return TestResult{}, err
	}
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	id := "test_" + hex.EncodeToString(b)
	body, err := json.Marshal(Payload{FormID: f.ID, FormName: f.Title, SubmissionID: id,
		SubmittedAt: form.Timestamp(time.Now()), Data: sampleData(f.Questions), Hidden: sampleHidden(f.Settings.HiddenFields)})
	if err != nil {
		return TestResult{}, err
	}
	secrets, err := d.store.WebhookSecrets(ctx, f.ID, NewSecret)
	if err != nil {
		return TestResult{}, err
	}
	start := time.Now()
	res := d.send(ctx, url, id, body, secrets)
	code := 0
	if res.code != nil {
		code = *res.code
	}
	return TestResult{Success: res.status == "success", StatusCode: code, Error: res.err, Duration: time.Since(start)}, nil
}

// testTarget picks and checks the URL a test delivery goes to.
func (d *Deliverer) testTarget(f *form.Form, url string) (string, error) {
	if url != "" {
		return url, CheckURLField("url", url, d.opts.AllowPrivate)
	}
	if f.WebhookURL == nil {
		return "", form.FieldInvalid("url", "is required when the form has no webhook URL configured")
	}
	return *f.WebhookURL, nil
}

// Secret returns the current signing secret of form formID, creating it when the
// form has none yet (as the first delivery would). The caller checks that the
// reader owns the form.
func (d *Deliverer) Secret(ctx context.Context, formID int64) (string, error) {
	secrets, err := d.store.WebhookSecrets(ctx, formID, NewSecret)
	if err != nil {
		return "", err
	}
	return secrets[0], nil
}

// RotateSecret gives an account's form a new signing secret and returns it; the
// previous one keeps signing for store.SecretOverlap.
func (d *Deliverer) RotateSecret(ctx context.Context, accountID, formID int64) (string, error) {
	secret, err := NewSecret()
	if err != nil {
		return "", err
	}
	return secret, d.store.RotateWebhookSecret(ctx, accountID, formID, secret)
}

// sampleData answers every question with a plausible value of its type.
func sampleData(questions []form.Question) form.Data {
	answers := make(map[int64]any, len(questions))
	for _, q := range questions {
		answers[q.ID] = sampleAnswer(q)
	}
	return form.BuildData(questions, answers, nil)
}

// sampleHidden gives every hidden field the value "example".
func sampleHidden(names []string) form.HiddenValues {
	out := form.HiddenValues{}
	for _, name := range names {
		out[name] = "example"
	}
	return out
}

func sampleAnswer(q form.Question) any {
	switch q.Type {
	case form.Email:
		return "respondent@example.com"
	case form.Number:
		return 42.0
	case form.Currency:
		return 100.0
	case form.Phone:
		return "+1 555 0100"
	case form.URL:
		return "https://example.com"
	case form.Date:
		return time.Now().UTC().Format("2006-01-02")
	case form.Time:
		return "09:30"
	case form.Select:
		return q.Options[0]
	case form.MultiSelect:
		return []string{q.Options[0]}
	case form.Rating:
		return 5.0
	case form.Slider:
		return q.Slider.Min
	case form.YesNo:
		return true
	case form.FileUpload:
		return form.FileAnswer{Name: "sample.pdf", Size: 1024, ContentType: "application/pdf", URL: "https://example.com/sample.pdf"}
	case form.Textarea:
		return "A longer sample answer."
	}
	return "Sample answer"
}

// Redeliver sends logged delivery logID of form f again, now: the payload of
// its submission, rendered as a delivery renders it, to the URL it went to,
// through the SSRF-safe client and with the same webhook-id, so receivers can
// recognise it. The attempt is logged as a new entry, which it returns; the
// logged delivery is NotFound when f has none of that id. Delivery itself
// never retries (decisions.md): this is the owner's choice.
func (d *Deliverer) Redeliver(ctx context.Context, f *form.Form, logID int64) (*store.Delivery, error) {
	old, err := d.store.WebhookDelivery(ctx, f.ID, logID)
	if err != nil {
		return nil, err
	}
	dl := delivery{job: store.WebhookJob{FormID: f.ID, SessionID: old.SessionID, URL: old.URL}}
	d.prepareForm(ctx, f.ID, []*delivery{&dl})
	rec := d.deliver(ctx, dl)
	return &rec, d.store.LogDelivery(ctx, &rec)
}
