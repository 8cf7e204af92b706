package bench

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// newClient is the load generator's HTTP client: keep-alive connections, as many
// idle ones kept per host as there are workers, no proxy, no compression.
func newClient(conns int) *http.Client {
	return &http.Client{
		Timeout: 5 * time.Minute, // an analytics call over many responses is slow
		Transport: &http.Transport{
			Proxy:               nil,
			DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			MaxIdleConns:        conns,
			MaxIdleConnsPerHost: conns,
			MaxConnsPerHost:     conns,
			IdleConnTimeout:     90 * time.Second,
			DisableCompression:  true,
		},
	}
}

// result is what a load measured.
type result struct {
	n       int
	elapsed time.Duration
	// latencies are sorted.
	latencies []time.Duration
	errors    int
	// firstError describes the first failed request, for the log.
	firstError error
}

// rate is requests per second.
func (r result) rate() float64 {
	if r.elapsed <= 0 {
		return 0
	}
	return float64(r.n) / r.elapsed.Seconds()
}

// percentile is the nearest-rank q-quantile of the latencies (0 when none).
func (r result) percentile(q float64) time.Duration {
	if len(r.latencies) == 0 {
		return 0
	}
	i := int(q*float64(len(r.latencies))+0.999999) - 1
	return r.latencies[min(max(i, 0), len(r.latencies)-1)]
}

// request makes the n-th request of a load.
type request func(ctx context.Context, n int64) (*http.Request, error)

// load sends requests from conns workers for d, each waiting for its answer
// before the next (a closed loop, as wrk does); a request fails unless it is
// answered with status want.
func load(ctx context.Context, c *http.Client, conns int, d time.Duration, want int, next request) result {
	var (
		counter atomic.Int64
		mu      sync.Mutex
		all     result
		wg      sync.WaitGroup
	)
	start := time.Now()
	deadline := start.Add(d)
	for range conns {
		wg.Go(func() {
			var mine result
			for ctx.Err() == nil && time.Now().Before(deadline) {
				lat, err := send(ctx, c, want, next, counter.Add(1)-1)
				mine.add(lat, err)
			}
			mu.Lock()
			all.merge(mine)
			mu.Unlock()
		})
	}
	wg.Wait()
	all.elapsed = time.Since(start)
	slices.Sort(all.latencies)
	return all
}

// sequential sends n requests one after the other and measures them.
func sequential(ctx context.Context, c *http.Client, n, want int, next request) result {
	var r result
	start := time.Now()
	for i := range n {
		r.add(send(ctx, c, want, next, int64(i)))
	}
	r.elapsed = time.Since(start)
	slices.Sort(r.latencies)
	return r
}

// add records one request.
func (r *result) add(lat time.Duration, err error) {
	r.n++
	r.latencies = append(r.latencies, lat)
	if err != nil {
		r.errors++
		if r.firstError == nil {
			r.firstError = err
		}
	}
}

// merge adds the requests of o.
func (r *result) merge(o result) {
	r.n += o.n
	r.errors += o.errors
	r.latencies = append(r.latencies, o.latencies...)
	if r.firstError == nil {
		r.firstError = o.firstError
	}
}

// send makes, sends and reads the n-th request; it fails on a status other than want.
func send(ctx context.Context, c *http.Client, want int, next request, n int64) (time.Duration, error) {
	req, err := next(ctx, n)
	if err != nil {
		return 0, err
	}
	start := time.Now()
	resp, err := c.Do(req)
	if err != nil {
		return time.Since(start), err
	}
	defer resp.Body.Close()
	if resp.StatusCode != want {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
		return time.Since(start), fmt.Errorf("%s %s: status %d, want %d: %s", req.Method, req.URL.Path, resp.StatusCode, want, body)
	}
	_, err = io.Copy(io.Discard, resp.Body)
	return time.Since(start), err
}
