package mail

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"

	"forma/internal/config"
	"forma/internal/form"
	"forma/internal/store"
)

const (
	// MaxAttempts bounds the attempts at one email.
	MaxAttempts = 3
	// sendTimeout bounds one attempt: connecting, greeting, sending.
	sendTimeout = 20 * time.Second
	// batch is how many jobs one claim takes; they are sent one after another,
	// well within claimLease.
	batch = 8
	// claimLease is how long a claimed job is left to its claimant before it is
	// offered again (store.ReleaseMailClaims).
	claimLease = 5 * time.Minute
	// pollInterval is how often the outbox is checked when nothing wakes the
	// sender (other nodes' jobs, retries coming due).
	pollInterval = time.Second
)

// Options configure a Sender.
type Options struct {
	// SMTP is the server the emails go to.
	SMTP config.SMTP
	// From is the sender address, with or without a display name.
	From string
	// PublicURL is the address of the dashboard, for links to responses.
	PublicURL string
	// RetryAfter is the wait before the second attempt at a failed email; it
	// doubles for each later one.
	RetryAfter time.Duration
}

// Sender takes email jobs from the outbox and sends them through SMTP, logging
// every attempt (package doc).
type Sender struct {
	store *store.Store
	opts  Options
	log   *slog.Logger
	name  string
	wake  chan struct{}
}

// NewSender returns a Sender; Run starts it.
func NewSender(st *store.Store, opts Options, log *slog.Logger) *Sender {
	host, _ := os.Hostname()
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return &Sender{store: st, opts: opts, log: log, name: host + "-mail-" + hex.EncodeToString(b), wake: make(chan struct{}, 1)}
}

// Notify wakes the sender: a job was just committed.
func (s *Sender) Notify() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Run sends due emails until ctx ends.
func (s *Sender) Run(ctx context.Context) {
	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	for {
		s.drain(ctx)
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		case <-tick.C:
		}
	}
}

// drain sends every due job, a batch at a time, after releasing the claims of
// stopped servers.
func (s *Sender) drain(ctx context.Context) {
	if err := s.store.ReleaseMailClaims(ctx, s.store.Now().Add(-claimLease), MaxAttempts); err != nil && ctx.Err() == nil {
		s.log.Error("mail: release expired claims", "error", err)
	}
	for ctx.Err() == nil {
		jobs, err := s.store.ClaimMailJobs(ctx, s.name, batch)
		if err != nil {
			if ctx.Err() == nil {
				s.log.Error("mail: claim jobs", "error", err)
			}
			return
		}
		for _, job := range jobs {
			s.attempt(ctx, job)
		}
		if len(jobs) < batch {
			return
		}
	}
}

// attempt sends one job and logs the outcome: sent, retrying (after a
// backoff) or failed.
func (s *Sender) attempt(ctx context.Context, job store.MailJob) {
	err := s.send(ctx, job)
	status, retryAt := store.MailSent, time.Time{}
	var msg *string
	if err != nil {
		text := reason(err)
		msg, status = &text, store.MailFailed
		if job.Attempts < MaxAttempts && !errors.Is(err, errPermanent) {
			status, retryAt = store.MailRetrying, s.store.Now().Add(s.backoff(job.Attempts))
		}
		// The message says why, never what: no address or answer is logged.
		s.log.Warn("mail: attempt failed", "form_id", job.FormID, "job_id", job.ID, "attempt", job.Attempts, "status", status)
	}
	if err := s.store.FinishMailJob(context.WithoutCancel(ctx), job, status, msg, retryAt); err != nil {
		s.log.Error("mail: record attempt", "job_id", job.ID, "error", err)
	}
}

// reason is what the log says of a failed attempt: the error without what
// go-mail appends to it (", affected recipient(s): …, affected message ID: …"),
// which the log's recipient column already shows or nobody needs.
func reason(err error) string {
	text, _, _ := strings.Cut(err.Error(), ", affected ")
	return text
}

// backoff is the wait after the given failed attempt: RetryAfter, doubled
// for each attempt before it.
func (s *Sender) backoff(attempt int) time.Duration {
	return s.opts.RetryAfter << (attempt - 1)
}

// errPermanent marks failures that another attempt cannot mend.
var errPermanent = errors.New("not retried")

// send builds the email of a job and hands it to the SMTP server.
func (s *Sender) send(ctx context.Context, job store.MailJob) error {
	r, err := s.load(ctx, job)
	if err != nil {
		return err
	}
	m, err := s.message(job.Recipient, s.compose(job, r), job.Kind == store.MailConfirmation)
	if err != nil {
		return fmt.Errorf("%w: %w", errPermanent, err)
	}
	client, err := s.client()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, sendTimeout)
	defer cancel()
	return client.DialAndSendWithContext(ctx, m)
}

// load reads what a job's email is made of: its form, questions (deleted ones
// too, whose answers stay) and submission.
func (s *Sender) load(ctx context.Context, job store.MailJob) (*response, error) {
	f, err := s.store.FormByID(ctx, job.FormID)
	if err != nil {
		return nil, err
	}
	questions, err := s.store.AllQuestions(ctx, job.FormID)
	if err != nil {
		return nil, err
	}
	sub, err := s.store.GetResponse(ctx, job.FormID, job.SessionID)
	if form.ErrorCode(err) == form.NotFound {
		return nil, fmt.Errorf("%w: the response was deleted before its email was sent", errPermanent)
	}
	if err != nil {
		return nil, err
	}
	texts := form.AnswerTexts(questions, sub.Answers, func(uploadID string) string {
		if u, err := s.store.GetUpload(ctx, uploadID); err == nil {
			return u.Name
		}
		return ""
	})
	return &response{form: f, questions: questions, sub: sub, texts: texts}, nil
}

// client is a go-mail client for the configured server.
func (s *Sender) client() (*gomail.Client, error) {
	c := s.opts.SMTP
	opts := []gomail.Option{gomail.WithPort(c.Port), gomail.WithTimeout(sendTimeout)}
	switch c.TLS {
	case config.TLSImplicit:
		opts = append(opts, gomail.WithSSL())
	case config.TLSNone:
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	default:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	}
	if c.Username != "" {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(c.Username), gomail.WithPassword(c.Password))
	}
	return gomail.NewClient(c.Host, opts...)
}
