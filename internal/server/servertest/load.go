package servertest

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"forma/internal/store"
)

// LoadClients is how many concurrent clients Load runs per GOMAXPROCS: 32, so 64
// connections on a 2-core machine, as issue 11's targets assume.
const LoadClients = 32

// Load sends b.N requests made by next over real HTTP from LoadClients clients per
// GOMAXPROCS, each over its own keep-alive connection, and reports throughput as
// requests/s. Every response must have status want. The clients share the
// machine's cores with the server, so the figure is below what an outside load
// generator would measure; it is for comparing changes, not for targets.
func (e *Env) Load(b *testing.B, want int, next func() *http.Request) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1024, MaxConnsPerHost: 1024}}
	defer client.CloseIdleConnections()
	b.SetParallelism(LoadClients)
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			resp, err := client.Do(next())
			if err != nil {
				b.Error(err)
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != want {
				b.Errorf("%s: status %d, want %d", resp.Request.URL.Path, resp.StatusCode, want)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "requests/s")
}

// TwentyQuestions is the body of POST /api/v1/forms for the benchmarks' form:
// twenty questions of eleven types, half of them required.
func TwentyQuestions() string {
	var qs []string
	types := []string{"text", "email", "number", "date", "rating", "yes_no", "textarea", "phone", "url", "time"}
	for i := range 20 {
		qs = append(qs, fmt.Sprintf(`{"type":%q,"question":"Question %d","required":%v}`, types[i%len(types)], i+1, i%2 == 0))
	}
	qs[5] = `{"type":"select","question":"Pick one","options":["A","B","C"]}`
	qs[6] = `{"type":"slider","question":"How much","sliderConfig":{"min":0,"max":10,"step":1}}`
	return `{"title":"Benchmark form","description":"Twenty questions","questions":[` + strings.Join(qs, ",") + `]}`
}

// ServeInProcess passes b.N requests made by next straight to the server's
// handler, without a network: the server's own cost per request, in ns/op and
// allocs/op. Every response must have status want.
func (e *Env) ServeInProcess(b *testing.B, want int, next func() *http.Request) {
	h := e.Server.Handler()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		rec := httptest.NewRecorder()
		req := next()
		h.ServeHTTP(rec, req)
		if rec.Code != want {
			b.Fatalf("%s: status %d, want %d: %s", req.URL.Path, rec.Code, want, rec.Body)
		}
	}
}

// BenchDialects runs fn as a sub-benchmark per dialect; the PostgreSQL one is
// skipped, saying how to enable it, when FORMA_TEST_DATABASE_URL is not set.
func BenchDialects(b *testing.B, fn func(b *testing.B, d store.Dialect)) {
	for _, d := range Dialects {
		b.Run(string(d), func(b *testing.B) {
			if d == store.Postgres && os.Getenv(DatabaseEnv) == "" {
				b.Skip("PostgreSQL benchmarks skipped: set " + DatabaseEnv + " to run them")
			}
			fn(b, d)
		})
	}
}
