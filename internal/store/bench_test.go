package store_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"forma/internal/form"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// callers is how many goroutines the parallel benchmarks run at once: the 64
// connections of the load test in issue 11.
const callers = 64

// BenchmarkSubmitParallel stores durable one-shot submissions of a 10-question form
// with its webhook enabled (so each also queues an outbox job) from 64 concurrent
// callers, and reports submissions/s and the 99th percentile latency.
func BenchmarkSubmitParallel(b *testing.B) {
	eachDialect(b, func(b *testing.B, st *store.Store) {
		f := hookedForm(b, st, 10)
		answers := map[int64]any{}
		for _, q := range f.Questions {
			answers[q.ID] = "An answer of a reasonable length for a form"
		}
		var n atomic.Int64
		runParallel(b, func() error {
			return st.CreateSubmission(context.Background(),
				&form.Submission{ID: fmt.Sprintf("b%d", n.Add(1)), FormID: f.ID, Answers: answers}, nil)
		})
	})
}

// BenchmarkCountRequestParallel counts API requests (the daily counter and the
// key's last use) for four keys from 64 concurrent callers, as every authenticated
// request does, and reports requests/s and the 99th percentile latency.
func BenchmarkCountRequestParallel(b *testing.B) {
	eachDialect(b, func(b *testing.B, st *store.Store) {
		acct, err := st.CreateAccount(context.Background(), "bench@example.com", "free")
		if err != nil {
			b.Fatal(err)
		}
		var keys []int64
		for i := range 4 {
			k := &store.APIKey{AccountID: acct.ID, Hash: fmt.Sprintf("hash-%d", i), Prefix: "p", Name: "bench"}
			if err := st.CreateKey(context.Background(), k); err != nil {
				b.Fatal(err)
			}
			keys = append(keys, k.ID)
		}
		var n atomic.Int64
		runParallel(b, func() error {
			_, ok, err := st.CountRequest(context.Background(), keys[n.Add(1)%4], 20394, 1<<30)
			if err == nil && !ok {
				err = fmt.Errorf("refused under the limit")
			}
			return err
		})
	})
}

// eachDialect runs fn on a fresh store of each dialect: SQLite, and PostgreSQL
// when FORMA_TEST_DATABASE_URL is set.
func eachDialect(b *testing.B, fn func(b *testing.B, st *store.Store)) {
	for _, d := range servertest.Dialects {
		b.Run(string(d), func(b *testing.B) {
			if d == store.Postgres && os.Getenv(servertest.DatabaseEnv) == "" {
				b.Skip("set " + servertest.DatabaseEnv + " to run on PostgreSQL")
			}
			fn(b, servertest.OpenStore(b, d))
		})
	}
}

// runParallel calls op from callers goroutines until the benchmark ends and
// reports operations per second and the 99th percentile latency.
func runParallel(b *testing.B, op func() error) {
	var mu sync.Mutex
	var latencies []time.Duration
	b.SetParallelism(max(1, callers/runtime.GOMAXPROCS(0)))
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		for pb.Next() {
			start := time.Now()
			if err := op(); err != nil {
				b.Error(err)
				return
			}
			mine = append(mine, time.Since(start))
		}
		mu.Lock()
		latencies = append(latencies, mine...)
		mu.Unlock()
	})
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ops/s")
	if len(latencies) > 0 {
		slices.Sort(latencies)
		b.ReportMetric(float64(latencies[len(latencies)*99/100].Microseconds())/1000, "p99-ms")
	}
}
