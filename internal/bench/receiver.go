package bench

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"slices"
	"sync"
	"time"
)

// receiver is the local webhook endpoint of the submission form: it counts
// deliveries, their lag behind the submission, and duplicates.
type receiver struct {
	srv *http.Server
	url string

	mu   sync.Mutex
	seen map[string]bool
	lags []time.Duration
	last time.Time
	// bad counts deliveries delivered twice or unreadable.
	bad int
}

// startReceiver listens on a loopback port.
func startReceiver() (*receiver, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	r := &receiver{url: "http://" + ln.Addr().String() + "/hook", seen: map[string]bool{}}
	r.srv = &http.Server{Handler: r, ReadHeaderTimeout: 10 * time.Second}
	go r.srv.Serve(ln)
	return r, nil
}

// ServeHTTP takes one delivery.
func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	var d struct {
		SubmissionID string `json:"submission_id"`
		SubmittedAt  string `json:"submitted_at"`
	}
	body, err := io.ReadAll(io.LimitReader(req.Body, 1<<20))
	if err == nil {
		err = json.Unmarshal(body, &d)
	}
	at, terr := time.Parse(time.RFC3339, d.SubmittedAt)
	now := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.last = now
	if err != nil || terr != nil || r.seen[d.SubmissionID] {
		r.bad++
	} else {
		r.seen[d.SubmissionID] = true
		r.lags = append(r.lags, now.Sub(at))
	}
	w.WriteHeader(http.StatusNoContent)
}

// deliveries reports how many distinct submissions were delivered, and when the
// last delivery came.
func (r *receiver) deliveries() (int, time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.seen), r.last
}

// result is what the receiver measured since it started: deliveries over the
// window from start to the last one, their lags, duplicates and unreadable ones
// as errors.
func (r *receiver) result(start time.Time) result {
	r.mu.Lock()
	defer r.mu.Unlock()
	res := result{n: len(r.seen), elapsed: r.last.Sub(start), errors: r.bad, latencies: slices.Clone(r.lags)}
	slices.Sort(res.latencies)
	return res
}

// close stops the receiver.
func (r *receiver) close() error { return r.srv.Close() }
