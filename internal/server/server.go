// Package server wires Forma's parts into one HTTP handler and runs it; `forma
// serve` and the end-to-end tests start the service through it.
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"time"

	"forma/internal/ai"
	"forma/internal/ai/builtin"
	"forma/internal/ai/openai"
	"forma/internal/api"
	"forma/internal/blob"
	"forma/internal/config"
	"forma/internal/dashboard"
	"forma/internal/httpx"
	"forma/internal/mail"
	"forma/internal/ops"
	"forma/internal/quota"
	"forma/internal/render"
	"forma/internal/respond"
	"forma/internal/store"
	"forma/internal/webhook"
)

// Server is a running Forma: its store, its handler and its webhook and mail
// workers.
type Server struct {
	Store    *store.Store
	Webhooks *webhook.Deliverer
	// Files deletes uploaded files, and sweeps the orphans (RunSweeper).
	Files *render.Submissions
	// Blobs holds the uploaded files' bytes.
	Blobs blob.Store
	// Metrics serves /metrics with no token: for the --metrics-addr listener.
	Metrics http.Handler
	// Mail sends email notifications; nil when no SMTP server is configured.
	Mail    *mail.Sender
	handler http.Handler
	log     *slog.Logger
	workers int
}

// New builds the service over an opened store, keeping uploads in cfg.DataDir.
func New(ctx context.Context, cfg config.Config, st *store.Store, log *slog.Logger) (*Server, error) {
	if cfg.AllowPrivateWebhooks {
		log.Warn("private webhook targets are allowed (--allow-private-webhooks): never use this in production")
	}
	blobs, err := blob.Open(cfg.BlobURL, filepath.Join(cfg.DataDir, "uploads"))
	if err != nil {
		return nil, fmt.Errorf("--blob-url (FORMA_BLOB_URL): %w", err)
	}
	secret, err := st.Secret(ctx, "links")
	if err != nil {
		return nil, err
	}
	links := blob.NewLinks(secret, cfg.PublicURL)
	renderer := render.NewSubmissions(st, links, blobs)
	metrics := ops.NewMetrics(st, log)
	st.Charged = metrics.Charged
	deliverer := webhook.NewDeliverer(st, renderer, webhook.Options{Workers: max(cfg.WebhookWorkers, 1),
		AllowPrivate: cfg.AllowPrivateWebhooks, Delivered: metrics.Delivered}, log)
	sender, err := mailSender(cfg, st, log)
	if err != nil {
		return nil, err
	}
	rcfg := respond.Config{
		MaxUploadBytes: int64(cfg.MaxUploadMB) << 20,
		SubmitLimit:    cfg.SubmitLimit,
		SessionLimit:   cfg.SessionLimit,
		SaveLimit:      cfg.SaveLimit,
		TrustProxy:     cfg.TrustProxy,
		MinFillTime:    time.Duration(cfg.MinFillSeconds) * time.Second,
		PublicURL:      cfg.PublicURL,
		Committed:      committed(metrics, deliverer, sender),
	}
	acfg, err := apiConfig(cfg)
	if err != nil {
		return nil, err
	}
	acfg.Submissions, acfg.Webhooks, acfg.AI = renderer, deliverer, ops.CountAI(acfg.AI, metrics)
	acfg.MailSending = sender != nil
	mux := http.NewServeMux()
	pages := respond.New(st, blobs, links, secret, rcfg)
	pages.Routes(mux)
	dashboard.New(st, dashboard.Config{PublicURL: cfg.PublicURL, TrustProxy: cfg.TrustProxy, Signup: cfg.Signup,
		Plans: acfg.Plans, Submissions: renderer, AI: acfg.AI, Costs: acfg.Costs,
		AllowPrivateWebhooks: cfg.AllowPrivateWebhooks, Webhooks: deliverer, Preview: pages.Preview,
		MailSending: sender != nil}).Routes(mux)
	a := api.New(st, acfg)
	mux.Handle("GET /api/v1/openapi.json", api.OpenAPIHandler(cfg.PublicURL))
	mux.HandleFunc("/api/v1/openapi.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", "GET, HEAD")
		httpx.WriteProblem(w, http.StatusMethodNotAllowed, "method_not_allowed", r.Method+" is not allowed on /api/v1/openapi.json; allowed: GET, HEAD")
	})
	mux.Handle("GET /docs", api.DocsHandler())
	mux.Handle(api.Prefix+"/", a)
	mux.HandleFunc("GET /healthz", ops.Health)
	mux.Handle("GET /readyz", &ops.Readiness{Store: st, Blobs: blobs, Log: log})
	mux.Handle("GET /metrics", ops.Protected(cfg.MetricsToken, metrics.Handler(), http.HandlerFunc(notFound)))
	mux.HandleFunc("/", notFound)
	return &Server{Store: st, Webhooks: deliverer, Files: renderer, Blobs: blobs, Metrics: metrics.Handler(), Mail: sender, handler: httpx.Observe(log, mux, metrics.Request),
		log: log, workers: cfg.WebhookWorkers}, nil
}

// notFound answers a request no route matches.
func notFound(w http.ResponseWriter, r *http.Request) {
	httpx.WriteProblem(w, http.StatusNotFound, "not_found", "No route matches "+r.Method+" "+r.URL.Path)
}

// mailSender returns the sender of email notifications when cfg names an SMTP
// server, and makes the store queue their jobs; nil otherwise (notification
// settings are kept but nothing is queued or sent).
func mailSender(cfg config.Config, st *store.Store, log *slog.Logger) (*mail.Sender, error) {
	if cfg.SMTPURL == "" {
		return nil, nil
	}
	smtp, err := config.ParseSMTPURL(cfg.SMTPURL)
	if err != nil {
		return nil, fmt.Errorf("FORMA_SMTP_URL %w", err)
	}
	st.QueueMail = true
	return mail.NewSender(st, mail.Options{SMTP: smtp, From: cfg.MailFrom, PublicURL: cfg.PublicURL,
		RetryAfter: time.Duration(cfg.MailRetrySeconds) * time.Second}, log), nil
}

// committed counts a completed submission once it is committed, and wakes the
// outbox workers.
func committed(metrics *ops.Metrics, webhooks *webhook.Deliverer, sender *mail.Sender) func() {
	return func() {
		metrics.Submitted()
		webhooks.Notify()
		if sender != nil {
			sender.Notify()
		}
	}
}

// apiConfig builds the API's settings: prices, plans and the AI provider.
func apiConfig(cfg config.Config) (api.Config, error) {
	costs, err := quota.DefaultCosts().WithCosts(cfg.CreditCosts)
	if err != nil {
		return api.Config{}, fmt.Errorf("--credit-costs: %w", err)
	}
	plans, err := quota.DefaultPlans().WithAllowances(cfg.Allowances)
	if err != nil {
		return api.Config{}, fmt.Errorf("--credit-allowances: %w", err)
	}
	provider, err := aiProvider(cfg)
	if err != nil {
		return api.Config{}, err
	}
	return api.Config{PublicURL: cfg.PublicURL, AllowPrivateWebhooks: cfg.AllowPrivateWebhooks,
		Costs: costs, Plans: plans, AI: provider}, nil
}

// aiProvider picks the AI provider the configuration names.
func aiProvider(cfg config.Config) (ai.Provider, error) {
	switch cfg.AIProvider {
	case "", "builtin":
		return builtin.Provider{}, nil
	case "openai":
		return openai.New(openai.Config{BaseURL: cfg.AIBaseURL, APIKey: cfg.AIAPIKey, Model: cfg.AIModel,
			Timeout: time.Duration(cfg.AITimeoutSeconds) * time.Second})
	}
	return nil, fmt.Errorf("AI provider %q is not available", cfg.AIProvider)
}

// RunWorkers delivers webhooks and sends emails until ctx ends, then waits up
// to grace for the webhook deliveries in flight (an email in flight is sent
// again by the next server that finds it claimed too long). Webhooks are left
// to other nodes when the configuration runs no webhook workers; emails when it
// names no SMTP server.
func (s *Server) RunWorkers(ctx context.Context, grace time.Duration) {
	done := make(chan struct{})
	go func() {
		if s.Mail != nil {
			s.Mail.Run(ctx)
		}
		close(done)
	}()
	if s.workers > 0 {
		s.Webhooks.Run(ctx, grace)
	}
	<-done
}

// OrphanAge is how old an upload no submission uses must be before the sweeper
// deletes it: a respondent may take a while between uploading and submitting.
const OrphanAge = 24 * time.Hour

// sweepEvery is how often RunSweeper runs.
const sweepEvery = time.Hour

// RunSweeper, until ctx ends, deletes every hour the uploads older than OrphanAge
// that no submission uses, and the per-client counts of past windows. Every node
// may run it: each row goes to one of them.
func (s *Server) RunSweeper(ctx context.Context) {
	t := time.NewTicker(sweepEvery)
	defer t.Stop()
	for {
		s.Sweep(ctx, s.Store.Now())
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Sweep runs the sweeper once as of now, logging what fails.
func (s *Server) Sweep(ctx context.Context, now time.Time) {
	if n, err := s.Files.SweepOrphans(ctx, now.Add(-OrphanAge)); err != nil && ctx.Err() == nil {
		s.log.Error("sweep orphan uploads", "err", err)
	} else if n > 0 {
		s.log.Info("swept orphan uploads", "count", n)
	}
	if err := s.Store.SweepClientHits(ctx, now.Add(-2*time.Hour)); err != nil && ctx.Err() == nil {
		s.log.Error("sweep client limits", "err", err)
	}
}

// Handler is the root handler of the service.
func (s *Server) Handler() http.Handler { return s.handler }

// Serve answers requests on ln until ctx ends, then shuts down gracefully, letting
// requests in flight finish for up to 15 seconds.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      120 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	workersDone := make(chan struct{})
	go func() { s.RunWorkers(ctx, 15*time.Second); close(workersDone) }()
	go s.RunSweeper(ctx)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	s.log.Info("shutting down")
	defer func() { <-workersDone }()
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
