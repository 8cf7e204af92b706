package webhook_test

import (
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"forma/internal/config"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// BenchmarkDeliveries measures how fast queued deliveries reach a fast local
// receiver on SQLite: b.N submissions are queued by a server without workers, then a
// server with workers drains the outbox.
func BenchmarkDeliveries(b *testing.B) {
	var got atomic.Int64
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Add(1)
		w.WriteHeader(204)
	}))
	defer rc.Close()
	st := servertest.OpenStore(b, store.SQLite)
	queue := servertest.Start(b, st, func(c *config.Config) { allowPrivate(c); c.WebhookWorkers = 0 })
	limit := 10000
	key := queue.Key(queue.Account("scale"), &limit, nil)
	_, token, q := hookedForm(&testing.T{}, queue, key, rc.URL)
	for i := 0; i < b.N; i++ {
		body := `{"answers":{"` + q[0] + `":"bench","` + q[1] + `":3}}`
		if r := queue.Do("POST", "/f/"+token+"/submissions", "", body); r.Status != 201 {
			b.Fatalf("submit: %d", r.Status)
		}
	}
	b.ResetTimer()
	start := time.Now()
	servertest.Start(b, st, allowPrivate)
	for got.Load() < int64(b.N) {
		time.Sleep(time.Millisecond)
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "deliveries/s")
}
