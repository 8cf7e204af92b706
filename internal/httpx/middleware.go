package httpx

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net"
	"net/http"
	"regexp"
	"strings"
	"time"
)

type ctxKey int

const infoKey ctxKey = 0

// requestInfo is what the request log line needs from inner handlers, and the
// logger they log to.
type requestInfo struct {
	id    string
	route string
	keyID int64
	log   *slog.Logger
}

var safeRequestID = regexp.MustCompile(`^[A-Za-z0-9._-]{8,64}$`)

// RequestID returns the id of the request being served ("" outside a request).
func RequestID(ctx context.Context) string {
	if info, ok := ctx.Value(infoKey).(*requestInfo); ok {
		return info.id
	}
	return ""
}

// logger returns the logger of the request being served (the default logger
// outside a request).
func logger(ctx context.Context) *slog.Logger {
	if info, ok := ctx.Value(infoKey).(*requestInfo); ok {
		return info.log
	}
	return slog.Default()
}

// SetKeyID records which API key made the request, for the request log.
func SetKeyID(ctx context.Context, id int64) {
	if info, ok := ctx.Value(infoKey).(*requestInfo); ok {
		info.keyID = id
	}
}

// SetRoute records the route pattern that served the request, for the request log.
func SetRoute(ctx context.Context, pattern string) {
	if info, ok := ctx.Value(infoKey).(*requestInfo); ok {
		info.route = pattern
	}
}

// statusRecorder remembers the status a handler wrote and counts the body bytes.
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	n, err := s.ResponseWriter.Write(b)
	s.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the underlying writer (for flushing).
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// Finished is told of every request Observe served, when it is answered: its route
// pattern ("" when no route matched), status and duration (for metrics).
type Finished func(route string, status int, elapsed time.Duration)

// Observe gives every request an id (kept from a well-formed incoming
// X-Request-Id, else random), sets X-Request-Id and baseline security headers, turns
// panics into a 500 and logs one line per request: request id, method, route
// pattern, status, duration, bytes written and key id. The path and query are not
// logged (they may hold tokens: setup links, resume links, signed file links), nor
// is any header or body. Each finished, when given, is told of the request too.
func Observe(log *slog.Logger, next http.Handler, finished ...Finished) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		info := &requestInfo{id: r.Header.Get("X-Request-Id"), log: log}
		if !safeRequestID.MatchString(info.id) {
			info.id = newRequestID()
		}
		r = r.WithContext(context.WithValue(r.Context(), infoKey, info))
		h := w.Header()
		h.Set("X-Request-Id", info.id)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		rec := &statusRecorder{ResponseWriter: w}
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				log.Error("panic", "panic", p, "request_id", info.id)
				if rec.status == 0 {
					WriteProblem(rec, http.StatusInternalServerError, "internal_error", "An unexpected error occurred; it has been logged. Request id: "+info.id)
				}
			}
			if rec.status == 0 {
				rec.status = http.StatusOK // a handler that wrote nothing answered 200
			}
			route, elapsed := info.route, time.Since(start)
			if route == "" {
				route = r.Pattern // set by the ServeMux that routed r
			}
			log.Info("request", "request_id", info.id, "method", r.Method, "route", route,
				"status", rec.status, "duration_ms", float64(elapsed.Microseconds())/1000, "bytes", rec.bytes, "key_id", info.keyID)
			for _, f := range finished {
				f(route, rec.status, elapsed)
			}
		}()
		next.ServeHTTP(rec, r)
	})
}

func newRequestID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// ClientAddress is the address of the client that sent r: the connection's, or,
// when trustProxy (the server is behind a proxy that sets it), the last hop of
// X-Forwarded-For: the one the proxy added, which the client cannot forge.
func ClientAddress(r *http.Request, trustProxy bool) string {
	ip, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		ip = r.RemoteAddr
	}
	if trustProxy {
		if xff := r.Header.Get("X-Forwarded-For"); xff != "" {
			hops := strings.Split(xff, ",")
			ip = strings.TrimSpace(hops[len(hops)-1])
		}
	}
	return ip
}
