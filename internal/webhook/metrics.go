package webhook

import (
	"sync"
	"time"
)

// latencyBuckets are the upper bounds of the delivery-latency histogram.
var latencyBuckets = []time.Duration{
	50 * time.Millisecond, 100 * time.Millisecond, 250 * time.Millisecond, 500 * time.Millisecond,
	time.Second, 2500 * time.Millisecond, 5 * time.Second, 10 * time.Second,
}

// Metrics counts deliveries by status and keeps a latency histogram, for the
// metrics endpoint.
type Metrics struct {
	mu      sync.Mutex
	byState map[string]int64
	buckets [9]int64 // one per bound, plus one for longer
	sum     time.Duration
}

// MetricsSnapshot is a copy of the figures at one moment.
type MetricsSnapshot struct {
	Deliveries map[string]int64
	// Buckets[i] counts deliveries that took at most LatencyBuckets[i] (cumulative);
	// the last counts all.
	Buckets        []int64
	LatencyBuckets []time.Duration
	TotalLatency   time.Duration
}

func (m *Metrics) observe(status string, d time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.byState == nil {
		m.byState = map[string]int64{}
	}
	m.byState[status]++
	i := 0
	for i < len(latencyBuckets) && d > latencyBuckets[i] {
		i++
	}
	m.buckets[i]++
	m.sum += d
}

// Snapshot returns the current figures.
func (m *Metrics) Snapshot() MetricsSnapshot {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := MetricsSnapshot{Deliveries: map[string]int64{}, LatencyBuckets: latencyBuckets, TotalLatency: m.sum}
	for k, v := range m.byState {
		s.Deliveries[k] = v
	}
	var cum int64
	for _, n := range m.buckets {
		cum += n
		s.Buckets = append(s.Buckets, cum)
	}
	return s
}
