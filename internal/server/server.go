// Package server wires Forma's parts into one HTTP handler and runs it; `forma
// serve` and the end-to-end tests start the service through it.
package server

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"time"

	"forma/internal/api"
	"forma/internal/blob"
	"forma/internal/config"
	"forma/internal/httpx"
	"forma/internal/respond"
	"forma/internal/store"
)

// Server is a running Forma: its store and its handler.
type Server struct {
	Store   *store.Store
	handler http.Handler
	log     *slog.Logger
}

// New builds the service over an opened store, keeping uploads in cfg.DataDir.
func New(ctx context.Context, cfg config.Config, st *store.Store, log *slog.Logger) (*Server, error) {
	if cfg.AllowPrivateWebhooks {
		log.Warn("private webhook targets are allowed (--allow-private-webhooks): never use this in production")
	}
	blobs, err := blob.NewDisk(filepath.Join(cfg.DataDir, "uploads"))
	if err != nil {
		return nil, err
	}
	secret, err := st.Secret(ctx, "links")
	if err != nil {
		return nil, err
	}
	links := respond.NewLinks(secret, cfg.PublicURL)
	rcfg := respond.DefaultConfig(cfg.PublicURL)
	rcfg.MaxUploadBytes = int64(cfg.MaxUploadMB) << 20
	rcfg.SubmitLimit, rcfg.TrustProxy = cfg.SubmitLimit, cfg.TrustProxy
	rcfg.MinFillTime = time.Duration(cfg.MinFillSeconds) * time.Second
	mux := http.NewServeMux()
	respond.New(st, blobs, links, rcfg).Routes(mux)
	a := api.New(st, api.Config{PublicURL: cfg.PublicURL, AllowPrivateWebhooks: cfg.AllowPrivateWebhooks,
		Responses: respond.NewRenderer(st, links), Blobs: blobs})
	mux.Handle("GET /api/v1/openapi.json", api.OpenAPIHandler(cfg.PublicURL))
	mux.Handle("GET /docs", api.DocsHandler())
	mux.Handle(api.Prefix+"/", a)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		httpx.WriteJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		httpx.WriteProblem(w, http.StatusNotFound, "not_found", "No route matches "+r.Method+" "+r.URL.Path)
	})
	return &Server{Store: st, handler: httpx.Observe(log, mux), log: log}, nil
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
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	s.log.Info("shutting down")
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
