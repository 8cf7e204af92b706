package respond

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"forma/internal/form"
	"forma/internal/httpx"
	"forma/internal/store"
)

// limiter counts one kind of request (submissions, session starts, session saves)
// per client and form in fixed windows. With a shared store (PostgreSQL, where
// several nodes may serve one database) the counts are rows in the database, so
// the limit is exact across nodes. Otherwise (SQLite, which one process owns) they
// live in the process, which is as exact and costs no write per request.
type limiter struct {
	mu     sync.Mutex
	limit  int
	window time.Duration
	what   string // what is counted, for the refusal ("submissions")
	counts map[string]*windowCount
	shared *store.Store
}

type windowCount struct {
	start time.Time
	n     int
}

// newLimiter allows limit requests of one kind, named by what, per key and window;
// a limit of 0 allows everything. A non-nil shared store keeps the counts.
func newLimiter(limit int, window time.Duration, what string, shared *store.Store) *limiter {
	return &limiter{limit: limit, window: window, what: what, counts: map[string]*windowCount{}, shared: shared}
}

// allow records one hit for key, or refuses it with a RateLimited error when the
// key's window is full.
func (l *limiter) allow(ctx context.Context, key string) error {
	if l.limit <= 0 {
		return nil
	}
	now := time.Now()
	n, start, err := l.count(ctx, key, now)
	if err != nil {
		return err
	}
	if n > l.limit {
		wait := start.Add(l.window).Sub(now).Round(time.Minute)
		return form.Errorf(form.RateLimited, "Too many %s to this form from your network; try again in %s", l.what, max(wait, time.Minute))
	}
	return nil
}

// count adds one hit to key's window and returns the window's hits and start.
func (l *limiter) count(ctx context.Context, key string, now time.Time) (int, time.Time, error) {
	if l.shared != nil {
		return l.shared.CountClientHit(ctx, l.what+"|"+key, l.window)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.counts) > 100_000 {
		l.sweep(now)
	}
	c := l.counts[key]
	if c == nil || now.Sub(c.start) >= l.window {
		c = &windowCount{start: now}
		l.counts[key] = c
	}
	if c.n <= l.limit {
		c.n++
	}
	return c.n, c.start, nil
}

func (l *limiter) sweep(now time.Time) {
	for k, c := range l.counts {
		if now.Sub(c.start) >= l.window {
			delete(l.counts, k)
		}
	}
}

// clientKey identifies the submitting client for one form: its address
// (httpx.ClientAddress) and the form.
func (h *Handler) clientKey(r *http.Request, formID int64) string {
	return httpx.ClientAddress(r, h.cfg.TrustProxy) + "|" + strconv.FormatInt(formID, 10)
}

// maxFillAge is how long a shown HTML form may wait before it is submitted; an
// older start token asks for the submission again.
const maxFillAge = 24 * time.Hour

// fillTimer signs the time an HTML form was shown, so that its submission can
// prove how long the form was open (bots submit at once).
type fillTimer struct{ secret []byte }

// startToken is put in the HTML form when it is shown.
func (t fillTimer) startToken(shareToken string, now time.Time) string {
	ts := strconv.FormatInt(now.UnixMilli(), 10)
	return ts + "." + t.sign(shareToken, ts)
}

// openedAt checks a start token and returns when the form was shown.
func (t fillTimer) openedAt(shareToken, token string) (time.Time, error) {
	ts, sig, ok := strings.Cut(token, ".")
	msec, err := strconv.ParseInt(ts, 10, 64)
	if !ok || err != nil || !hmac.Equal([]byte(sig), []byte(t.sign(shareToken, ts))) {
		return time.Time{}, fmt.Errorf("invalid start token")
	}
	return time.UnixMilli(msec), nil
}

func (t fillTimer) sign(shareToken, ts string) string {
	m := hmac.New(sha256.New, t.secret)
	fmt.Fprintf(m, "started|%s|%s", shareToken, ts)
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}
