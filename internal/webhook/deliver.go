package webhook

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"forma/internal/form"
	"forma/internal/render"
	"forma/internal/store"
)

// UserAgent identifies Forma's webhook requests.
const UserAgent = "Forma-Webhook/1.0"

// maxResponseBytes is how much of a receiver's answer is read (and thrown away).
const maxResponseBytes = 64 << 10

// Payload is the JSON body of a delivery.
type Payload struct {
	FormID       int64     `json:"form_id"`
	FormName     string    `json:"form_name"`
	SubmissionID string    `json:"submission_id"`
	SubmittedAt  string    `json:"submitted_at"`
	Data         form.Data `json:"data"`
}

// Options tune a Deliverer.
type Options struct {
	// Workers bounds the deliveries in flight in this process.
	Workers int
	// AllowPrivate lets deliveries reach private and loopback addresses (development).
	AllowPrivate bool
}

const (
	// perForm bounds the deliveries in flight for one form, so that a slow receiver
	// occupies at most that many workers.
	perForm = 4
	// pollInterval is how often the outbox is checked when nothing wakes the
	// workers (other nodes' jobs, missed wake-ups).
	pollInterval = 250 * time.Millisecond
)

// Deliverer takes jobs from the outbox and delivers them: one POST each, at most
// once, signed, through the SSRF-safe client, and logs every attempt.
type Deliverer struct {
	store  *store.Store
	render *render.Submissions
	client *http.Client
	opts   Options
	log    *slog.Logger
	name   string
	wake   chan struct{}

	mu       sync.Mutex
	inFlight map[int64]int // form id → deliveries in flight
}

// NewDeliverer returns a Deliverer; Run starts it.
func NewDeliverer(st *store.Store, submissions *render.Submissions, opts Options, log *slog.Logger) *Deliverer {
	host, _ := os.Hostname()
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return &Deliverer{
		store: st, render: submissions, client: NewClient(opts.AllowPrivate), opts: opts, log: log,
		name: host + "-" + hex.EncodeToString(b), wake: make(chan struct{}, 1),
		inFlight: map[int64]int{},
	}
}

// Notify wakes the workers: a job was just committed.
func (d *Deliverer) Notify() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// Run delivers jobs until ctx ends, then waits up to grace for the deliveries in
// flight to finish. Jobs left in the outbox are delivered after the next start.
func (d *Deliverer) Run(ctx context.Context, grace time.Duration) {
	d.abandonStale(ctx)
	slots := make(chan struct{}, d.opts.Workers)
	var wg sync.WaitGroup
	stale := time.NewTicker(time.Minute)
	defer stale.Stop()
	for ctx.Err() == nil {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			continue
		}
		job, err := d.store.ClaimWebhookJob(ctx, d.name, d.busyForms())
		if err != nil || job == nil {
			<-slots
			if err != nil && ctx.Err() == nil {
				d.log.Error("webhook claim failed", "err", err)
			}
			d.idle(ctx, stale.C)
			continue
		}
		d.track(job.FormID, 1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			defer d.Notify() // a slot (and maybe a busy form) is free again
			defer d.track(job.FormID, -1)
			d.deliver(context.WithoutCancel(ctx), job)
		}()
	}
	waitGroup(&wg, grace)
}

// idle waits for a wake-up, the poll interval, or the periodic stale-claim sweep.
func (d *Deliverer) idle(ctx context.Context, stale <-chan time.Time) {
	select {
	case <-ctx.Done():
	case <-d.wake:
	case <-time.After(pollInterval):
	case <-stale:
		d.abandonStale(ctx)
	}
}

// abandonStale ends jobs that a stopped server had claimed and never finished.
func (d *Deliverer) abandonStale(ctx context.Context) {
	n, err := d.store.AbandonStaleJobs(ctx, time.Now().Add(-2*DeliveryTimeout-time.Minute))
	if err != nil && ctx.Err() == nil {
		d.log.Error("webhook stale-claim sweep failed", "err", err)
	}
	if n > 0 {
		d.log.Warn("webhook deliveries interrupted by a stop were logged as errors", "count", n)
	}
}

func waitGroup(wg *sync.WaitGroup, grace time.Duration) {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(grace):
	}
}

func (d *Deliverer) track(formID int64, delta int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.inFlight[formID] += delta
	if d.inFlight[formID] <= 0 {
		delete(d.inFlight, formID)
	}
}

// busyForms lists the forms that already have perForm deliveries in flight.
func (d *Deliverer) busyForms() []int64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	var busy []int64
	for id, n := range d.inFlight {
		if n >= perForm {
			busy = append(busy, id)
		}
	}
	return busy
}

// deliver makes one attempt for a job and logs it.
func (d *Deliverer) deliver(ctx context.Context, job *store.WebhookJob) {
	rec := &store.Delivery{FormID: job.FormID, SessionID: job.SessionID, URL: job.URL}
	body, secrets, err := d.payload(ctx, job)
	start := time.Now()
	if err != nil {
		rec.Status, rec.ErrorMessage = "error", ptr(err.Error())
	} else {
		res := d.send(ctx, job.URL, job.SessionID, body, secrets)
		rec.Status, rec.ResponseCode, rec.ErrorMessage = res.status, res.code, res.err
	}
	rec.Duration = time.Since(start)
	d.log.Info("webhook delivery", "form_id", job.FormID, "submission_id", job.SessionID, "status", rec.Status,
		"response_code", deref(rec.ResponseCode), "duration_ms", rec.Duration.Milliseconds(), "error", derefString(rec.ErrorMessage))
	if err := d.store.FinishWebhookJob(ctx, job.ID, rec); err != nil {
		d.log.Error("webhook delivery could not be logged", "job_id", job.ID, "err", err)
	}
}

// payload renders the submission of a job and finds the form's signing secrets.
func (d *Deliverer) payload(ctx context.Context, job *store.WebhookJob) ([]byte, []string, error) {
	f, err := d.store.FormByID(ctx, job.FormID)
	if err != nil {
		return nil, nil, fmt.Errorf("form could not be loaded: %w", err)
	}
	sub, err := d.store.GetResponse(ctx, job.FormID, job.SessionID)
	if form.ErrorCode(err) == form.NotFound {
		return nil, nil, errors.New("the submission was deleted before it could be delivered")
	}
	if err != nil {
		return nil, nil, err
	}
	questions, err := d.store.AllQuestions(ctx, f.ID)
	if err != nil {
		return nil, nil, err
	}
	data, err := d.render.Data(ctx, questions, sub)
	if err != nil {
		return nil, nil, err
	}
	body, err := json.Marshal(Payload{FormID: f.ID, FormName: f.Title, SubmissionID: sub.ID,
		SubmittedAt: form.Timestamp(*sub.CompletedAt), Data: data})
	if err != nil {
		return nil, nil, err
	}
	secrets, err := d.store.WebhookSecrets(ctx, f.ID, NewSecret)
	return body, secrets, err
}

// result is the outcome of one POST.
type result struct {
	status string
	code   *int
	err    *string
}

// send POSTs a signed body to url and classifies the outcome: success (2xx), failed
// (another HTTP status) or error (no HTTP answer).
func (d *Deliverer) send(ctx context.Context, url, msgID string, body []byte, secrets []string) result {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return result{status: "error", err: ptr("invalid webhook URL: " + err.Error())}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", UserAgent)
	if len(secrets) > 0 {
		now := time.Now()
		sig, err := SignatureHeader(secrets, msgID, now, body)
		if err != nil {
			return result{status: "error", err: ptr("signing failed: " + err.Error())}
		}
		req.Header.Set("webhook-id", msgID)
		req.Header.Set("webhook-timestamp", fmt.Sprint(now.Unix()))
		req.Header.Set("webhook-signature", sig)
	}
	resp, err := d.client.Do(req)
	if err != nil {
		return result{status: "error", err: ptr(describe(err))}
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxResponseBytes))
	resp.Body.Close()
	code := resp.StatusCode
	if code >= 200 && code < 300 {
		return result{status: "success", code: &code}
	}
	return result{status: "failed", code: &code, err: ptr(fmt.Sprintf("the receiver answered HTTP %d", code))}
}

// describe says in plain words why no HTTP answer came.
func describe(err error) string {
	var netErr net.Error
	var dnsErr *net.DNSError
	switch {
	case errors.Is(err, ErrBlockedAddress):
		return "the address is not allowed: webhooks may not target private, loopback or reserved networks"
	case errors.As(err, &netErr) && netErr.Timeout():
		return fmt.Sprintf("timed out after %s without an answer", DeliveryTimeout)
	case errors.As(err, &dnsErr):
		return "the host name could not be resolved: " + dnsErr.Name
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "dial" {
		return "the connection was refused or could not be made: " + opErr.Err.Error()
	}
	return "the request failed: " + err.Error()
}

func ptr[T any](v T) *T { return &v }

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

func derefString(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
