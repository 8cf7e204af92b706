package webhook

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
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
	// Hidden (an extension) holds the submission's hidden-field values, beside
	// data, which maps question texts only; absent when it has none.
	Hidden form.HiddenValues `json:"hidden,omitempty"`
}

// Options tune a Deliverer.
type Options struct {
	// Workers bounds the deliveries in flight in this process.
	Workers int
	// AllowPrivate lets deliveries reach private and loopback addresses (development).
	AllowPrivate bool
	// Delivered, when set, is told of every delivery attempt's status (success,
	// failed or error) and duration (for metrics); test deliveries are not told.
	Delivered func(status string, elapsed time.Duration)
}

// PerForm bounds the deliveries in flight for one form, so that a slow receiver
// occupies at most that many workers and connections. 8 rather than 4: on the
// 2-core machine, BenchmarkDeliveries drains a burst to one form at ~7,700/s with
// 8 against ~5,600/s with 4.
const PerForm = 8

const (
	// batch is the most jobs one claim takes, in all and of one form; a claim
	// skips the forms that hold batch jobs or more.
	batch = 256
	// maxHeld bounds the jobs a process holds, waiting or in flight; it claims more
	// when it holds at most maxHeld-batch.
	maxHeld = 4 * batch
	// claimLease is how long a claimed job is left to its claimant before another
	// worker may take it.
	claimLease = 3 * time.Minute
	// startBy is how old a claim may be when its delivery starts. A job that waited
	// longer (behind slow receivers) is given back unsent, so that every delivery
	// ends, and its result is recorded, well within the lease: a job is never sent
	// by two workers at once (given clocks that agree to within a few seconds).
	startBy = claimLease - DeliveryTimeout - time.Minute
	// maxAttempts bounds how often a job whose claim expired before it was begun
	// is taken again.
	maxAttempts = 3
	// maxRecord bounds the results written in one transaction, and recordLinger
	// how long the first of them waits for others.
	maxRecord    = 256
	recordLinger = 10 * time.Millisecond
	// pollInterval is how often the outbox is checked when nothing wakes the
	// workers (other nodes' jobs, missed wake-ups).
	pollInterval = 250 * time.Millisecond
)

// Deliverer takes jobs from the outbox and delivers them: one POST each, signed,
// through the SSRF-safe client, and logs every attempt. It claims jobs in batches,
// keeps at most PerForm deliveries of a form and Options.Workers in all in flight,
// and records results in batches, so a burst costs a few commits per batch rather
// than two per delivery. Delivery is at most once (decisions.md): each POST is
// preceded by a committed mark (store.StartWebhookJob, through the group commit),
// and a job whose claim expired (its server stopped) is sent again only if it was
// never begun, up to maxAttempts claims; a begun one is logged as an error.
type Deliverer struct {
	store  *store.Store
	render *render.Submissions
	client *http.Client
	opts   Options
	log    *slog.Logger
	name   string
	wake   chan struct{}
}

// NewDeliverer returns a Deliverer; Run starts it.
func NewDeliverer(st *store.Store, submissions *render.Submissions, opts Options, log *slog.Logger) *Deliverer {
	host, _ := os.Hostname()
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return &Deliverer{
		store: st, render: submissions, client: NewClient(opts.AllowPrivate), opts: opts, log: log,
		name: host + "-" + hex.EncodeToString(b), wake: make(chan struct{}, 1),
	}
}

// Notify wakes the workers: a job was just committed.
func (d *Deliverer) Notify() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// run is the state of one Run: the jobs held and the channels its deliveries
// report on.
type run struct {
	queue    *queue
	ended    chan int64             // form id of each delivery that ended
	results  chan store.FinishedJob // what the recorder writes
	claimed  chan []delivery        // the batch of a background claim
	claiming bool                   // a claim is under way
	drained  bool                   // the last claim found all there was to take
	sends    sync.WaitGroup
}

// Run delivers jobs until ctx ends, then waits up to grace for the deliveries in
// flight to finish and their results to be recorded. The jobs it claimed and had
// not started are given back to the outbox at once.
func (d *Deliverer) Run(ctx context.Context, grace time.Duration) {
	d.releaseExpired(ctx)
	r := &run{queue: newQueue(), ended: make(chan int64, maxHeld), results: make(chan store.FinishedJob, maxHeld),
		claimed: make(chan []delivery, 1)}
	recorded := make(chan struct{})
	go func() { d.record(r.results); close(recorded) }()
	sweep := time.NewTicker(time.Minute)
	defer sweep.Stop()
	poll := time.NewTimer(pollInterval)
	defer poll.Stop()
	for ctx.Err() == nil {
		if r.wantsMore() {
			d.claim(ctx, r)
		}
		d.start(ctx, r)
		d.wait(ctx, r, poll, sweep.C)
	}
	d.stop(ctx, r, grace, recorded)
}

// wantsMore reports whether a claim is due: none is under way, there is room for
// a batch, and the last claim did not find the outbox empty since the last
// wake-up.
func (r *run) wantsMore() bool { return !r.claiming && !r.drained && r.queue.size <= maxHeld-batch }

// claim takes a batch of jobs from the outbox and prepares their payloads in the
// background, so that deliveries go on meanwhile; wait adds the batch to the queue.
// The claim is not cancelled with ctx: stop waits for it and gives its jobs back.
func (d *Deliverer) claim(ctx context.Context, r *run) {
	r.claiming = true
	skip := r.queue.full()
	go func() {
		ctx := context.WithoutCancel(ctx)
		claimed := time.Now()
		jobs, err := d.store.ClaimWebhookJobs(ctx, store.Claim{Worker: d.name, Limit: batch, Skip: skip})
		if err != nil {
			d.log.Error("webhook claim failed", "err", err)
		}
		ds := d.prepare(ctx, jobs)
		for i := range ds {
			ds[i].claimed = claimed
		}
		r.claimed <- ds
	}()
}

// took adds a claimed batch to the queue.
func (r *run) took(ds []delivery) {
	r.claiming = false
	r.queue.add(ds)
	// A claim that skips forms scans past their pending jobs: claim again at once
	// only after a full batch that left no form full.
	r.drained = len(ds) < batch || r.queue.anyFull()
}

// start sends held jobs while workers and the forms' caps allow, and gives back
// those that waited too long to start.
func (d *Deliverer) start(ctx context.Context, r *run) {
	defer func() { d.giveBack(ctx, r.queue.takeExpired()) }()
	for r.queue.running < d.opts.Workers {
		dl, ok := r.queue.next(time.Now().Add(-startBy))
		if !ok {
			return
		}
		r.sends.Add(1)
		go func() {
			defer r.sends.Done()
			defer func() { r.ended <- dl.job.FormID }()
			ctx := context.WithoutCancel(ctx)
			if err := d.store.StartWebhookJob(ctx, dl.job.ID, d.name); err != nil {
				d.log.Error("webhook delivery not begun: its start could not be recorded (it is offered again after its lease unless another worker holds it)",
					"form_id", dl.job.FormID, "submission_id", dl.job.SessionID, "err", err)
				return
			}
			r.results <- store.FinishedJob{JobID: dl.job.ID, Delivery: d.deliver(ctx, dl)}
		}()
	}
}

// wait blocks until a delivery ends, a job is committed, the poll interval passes
// or the expired-claim sweep is due; a claim that may find more does not wait.
func (d *Deliverer) wait(ctx context.Context, r *run, poll *time.Timer, sweep <-chan time.Time) {
	var now chan struct{}
	if r.wantsMore() {
		now = make(chan struct{})
		close(now)
	}
	select {
	case <-ctx.Done():
	case <-now:
	case ds := <-r.claimed:
		r.took(ds)
	case formID := <-r.ended:
		if r.queue.finish(formID) {
			r.drained = false // the form may be offered jobs again
		}
	case <-d.wake:
		// New jobs are looked for at once when the claim need skip no form, else
		// at the next poll.
		r.drained = r.drained && r.queue.anyFull()
	case <-poll.C:
		poll.Reset(pollInterval)
		r.drained = false
	case <-sweep:
		d.releaseExpired(ctx)
	}
}

// giveBack returns held jobs to the outbox unsent.
func (d *Deliverer) giveBack(ctx context.Context, ids []int64) {
	if err := d.store.ReturnWebhookJobs(context.WithoutCancel(ctx), ids); err != nil {
		d.log.Error("webhook jobs could not be returned to the outbox; they are delivered after their lease", "err", err)
	}
}

// stop gives back the jobs not started, waits up to grace for the deliveries in
// flight and the recording of their results.
func (d *Deliverer) stop(ctx context.Context, r *run, grace time.Duration, recorded <-chan struct{}) {
	if r.claiming {
		r.took(<-r.claimed)
	}
	d.giveBack(ctx, r.queue.drop())
	deadline := time.After(grace)
	sent := make(chan struct{})
	go func() { r.sends.Wait(); close(sent) }()
	select {
	case <-sent:
		close(r.results)
	case <-deadline:
		return
	}
	select {
	case <-recorded:
	case <-deadline:
	}
}

// record writes the results of deliveries in batches: from the first result, it
// takes what arrives within recordLinger, up to maxRecord, and writes them in one
// transaction.
func (d *Deliverer) record(results <-chan store.FinishedJob) {
	done := make([]store.FinishedJob, 0, maxRecord)
	for first := range results {
		done = append(done[:0], first)
		linger := time.NewTimer(recordLinger)
	more:
		for len(done) < maxRecord {
			select {
			case f, ok := <-results:
				if !ok {
					break more
				}
				done = append(done, f)
			case <-linger.C:
				break more
			}
		}
		linger.Stop()
		if err := d.store.FinishWebhookJobs(context.Background(), done); err != nil {
			d.log.Error("webhook deliveries could not be logged; they are logged as errors after their lease", "jobs", len(done), "err", err)
		}
	}
}

// releaseExpired offers again the jobs whose claim outlived its lease.
func (d *Deliverer) releaseExpired(ctx context.Context) {
	released, ended, err := d.store.ReleaseExpiredClaims(ctx, time.Now().Add(-claimLease), maxAttempts)
	if err != nil && ctx.Err() == nil {
		d.log.Error("webhook expired-claim sweep failed", "err", err)
	}
	if released > 0 {
		d.log.Warn("webhook jobs claimed by a stopped server and never begun are offered again", "count", released)
	}
	if ended > 0 {
		d.log.Warn("webhook deliveries interrupted by a stopped server were logged as errors, not sent again", "count", ended)
	}
}

// deliver makes one attempt for a job and returns its log entry.
func (d *Deliverer) deliver(ctx context.Context, dl delivery) store.Delivery {
	job := dl.job
	rec := &store.Delivery{FormID: job.FormID, SessionID: job.SessionID, URL: job.URL}
	start := time.Now()
	if dl.err != nil {
		rec.Status, rec.ErrorMessage = "error", ptr(dl.err.Error())
	} else {
		res := d.send(ctx, job.URL, job.SessionID, dl.body, dl.secrets)
		rec.Status, rec.ResponseCode, rec.ErrorMessage = res.status, res.code, res.err
	}
	rec.Duration = time.Since(start)
	if d.opts.Delivered != nil {
		d.opts.Delivered(rec.Status, rec.Duration)
	}
	d.log.Info("webhook delivery", "form_id", job.FormID, "submission_id", job.SessionID, "status", rec.Status,
		"response_code", deref(rec.ResponseCode), "duration_ms", rec.Duration.Milliseconds(), "error", derefString(rec.ErrorMessage))
	return *rec
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
