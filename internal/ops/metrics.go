package ops

import (
	"context"
	"crypto/subtle"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"forma/internal/store"
)

// Metrics holds Forma's Prometheus metrics. The parts of the service report to it
// through its methods; Handler serves them with the database pools', the outbox's,
// the Go runtime's and the process's.
type Metrics struct {
	registry        *prometheus.Registry
	requests        *prometheus.CounterVec
	requestSeconds  *prometheus.HistogramVec
	submissions     prometheus.Counter
	deliveries      *prometheus.CounterVec
	deliverySeconds *prometheus.HistogramVec
	aiCalls         *prometheus.CounterVec
	aiErrors        *prometheus.CounterVec
	credits         *prometheus.CounterVec
}

// NewMetrics registers Forma's metrics, with collectors that read st's pool
// statistics and its webhook outbox at each scrape.
func NewMetrics(st *store.Store, log *slog.Logger) *Metrics {
	m := &Metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "forma_http_requests_total",
			Help: "HTTP requests answered, by route pattern and status."}, []string{"route", "status"}),
		requestSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "forma_http_request_duration_seconds",
			Help: "Time to answer an HTTP request, by route pattern and status.", Buckets: prometheus.DefBuckets},
			[]string{"route", "status"}),
		submissions: prometheus.NewCounter(prometheus.CounterOpts{Name: "forma_submissions_total",
			Help: "Completed submissions committed (one-shot and multi-step)."}),
		deliveries: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "forma_webhook_deliveries_total",
			Help: "Webhook delivery attempts, by status: success, failed (an HTTP error answer) or error (no answer)."},
			[]string{"status"}),
		deliverySeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "forma_webhook_delivery_duration_seconds",
			Help: "Time a webhook delivery attempt took, by status.", Buckets: prometheus.DefBuckets}, []string{"status"}),
		aiCalls: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "forma_ai_calls_total",
			Help: "Calls to the AI provider, by operation (generate, analyze, chat)."}, []string{"operation"}),
		aiErrors: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "forma_ai_errors_total",
			Help: "Calls to the AI provider that failed, by operation."}, []string{"operation"}),
		credits: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "forma_credits_charged_total",
			Help: "Credits charged, by endpoint."}, []string{"endpoint"}),
	}
	m.registry.MustRegister(m.requests, m.requestSeconds, m.submissions, m.deliveries, m.deliverySeconds,
		m.aiCalls, m.aiErrors, m.credits,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		&outbox{store: st, log: log})
	for name, db := range st.Pools() {
		m.registry.MustRegister(collectors.NewDBStatsCollector(db, name))
	}
	return m
}

// Request counts an answered request; route is its ServeMux pattern ("" when
// none matched), never its path, so the label's values stay few.
func (m *Metrics) Request(route string, status int, elapsed time.Duration) {
	if route == "" {
		route = "unmatched"
	}
	code := strconv.Itoa(status)
	m.requests.WithLabelValues(route, code).Inc()
	m.requestSeconds.WithLabelValues(route, code).Observe(elapsed.Seconds())
}

// Submitted counts a committed submission.
func (m *Metrics) Submitted() { m.submissions.Inc() }

// Delivered counts a webhook delivery attempt.
func (m *Metrics) Delivered(status string, elapsed time.Duration) {
	m.deliveries.WithLabelValues(status).Inc()
	m.deliverySeconds.WithLabelValues(status).Observe(elapsed.Seconds())
}

// Charged counts credits charged for an endpoint.
func (m *Metrics) Charged(endpoint string, credits int) {
	m.credits.WithLabelValues(endpoint).Add(float64(credits))
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}

// Protected serves h only to requests that carry "Authorization: Bearer token"
// (compared in constant time); any other request is answered by notFound, as if
// there were no metrics here. An empty token lets no request through.
func Protected(token string, h, notFound http.Handler) http.Handler {
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := []byte(r.Header.Get("Authorization"))
		if token == "" || subtle.ConstantTimeCompare(got, want) != 1 {
			notFound.ServeHTTP(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// outbox collects the webhook outbox's depth and the age of its oldest job with
// one short query per scrape.
type outbox struct {
	store *store.Store
	log   *slog.Logger
}

var (
	queueDepth = prometheus.NewDesc("forma_webhook_queue_depth",
		"Webhook jobs in the outbox: waiting or in flight.", nil, nil)
	queueAge = prometheus.NewDesc("forma_webhook_queue_oldest_age_seconds",
		"Age of the oldest webhook job in the outbox; 0 when it is empty.", nil, nil)
)

// Describe sends the outbox gauges' descriptions (prometheus.Collector).
func (o *outbox) Describe(ch chan<- *prometheus.Desc) {
	ch <- queueDepth
	ch <- queueAge
}

// Collect reads the outbox at each scrape and sends its gauges.
func (o *outbox) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), CheckTimeout)
	defer cancel()
	depth, oldest, err := o.store.WebhookQueue(ctx)
	if err != nil {
		o.log.Warn("metrics: reading the webhook outbox failed", "error", err.Error())
		ch <- prometheus.NewInvalidMetric(queueDepth, err)
		return
	}
	age := 0.0
	if !oldest.IsZero() {
		age = max(time.Since(oldest).Seconds(), 0)
	}
	ch <- prometheus.MustNewConstMetric(queueDepth, prometheus.GaugeValue, float64(depth))
	ch <- prometheus.MustNewConstMetric(queueAge, prometheus.GaugeValue, age)
}
