// Package ops serves what an operator watches: /healthz (the process is up),
// /readyz (the database answers, its migrations are current, the blob store takes
// writes) and /metrics (Prometheus), and holds the metrics the other parts report to.
package ops

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"forma/internal/blob"
	"forma/internal/httpx"
	"forma/internal/store"
)

// Health answers 200 "ok" for as long as the process serves requests.
func Health(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write([]byte("ok\n"))
}

// CheckTimeout bounds each readiness check, so that a load balancer's probe gets
// an answer even when the database hangs.
const CheckTimeout = 2 * time.Second

// Readiness answers /readyz: 200 when every check passes, else 503; both with
// {"status", "checks": {name: "ok"|"failed"}, "failing": [names]}. Why a check
// failed is logged, not answered: the endpoint is public.
type Readiness struct {
	Store *store.Store
	Blobs blob.Store
	Log   *slog.Logger
}

// readiness is the body /readyz answers.
type readiness struct {
	Status  string            `json:"status"`
	Checks  map[string]string `json:"checks"`
	Failing []string          `json:"failing"`
}

// check is one readiness check.
type check struct {
	name string
	run  func(ctx context.Context) error
}

// ServeHTTP runs every readiness check and answers 200, or 503 naming the
// failing checks.
func (rd *Readiness) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body := readiness{Status: "ready", Checks: map[string]string{}, Failing: []string{}}
	for _, c := range rd.checks() {
		ctx, cancel := context.WithTimeout(r.Context(), CheckTimeout)
		err := c.run(ctx)
		cancel()
		if err != nil {
			rd.Log.Warn("readiness check failed", "check", c.name, "error", err.Error(), "request_id", httpx.RequestID(r.Context()))
			body.Checks[c.name] = "failed"
			body.Failing = append(body.Failing, c.name)
			continue
		}
		body.Checks[c.name] = "ok"
	}
	code := http.StatusOK
	if len(body.Failing) > 0 {
		body.Status, code = "unavailable", http.StatusServiceUnavailable
	}
	w.Header().Set("Cache-Control", "no-store")
	httpx.WriteJSON(w, code, body)
}

func (rd *Readiness) checks() []check {
	return []check{
		{"database", rd.Store.Ping},
		{"migrations", rd.Store.CheckMigrations},
		{"blobs", rd.probeBlobs},
	}
}

// probeBlobs writes a small object under a fresh key and deletes it again.
func (rd *Readiness) probeBlobs(ctx context.Context) error {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	key := "readyz-probe-" + hex.EncodeToString(b)
	if err := rd.Blobs.Put(ctx, key, strings.NewReader("probe")); err != nil {
		return err
	}
	return rd.Blobs.Delete(ctx, key)
}
