package ops_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"forma/internal/config"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

const metricsToken = "test-metrics-token-0123456789"

// TestMetricsAfterTraffic: after submissions with files, webhook deliveries, API
// and AI calls, /metrics (with the token) counts them by route pattern, never by
// path; without the token, or with a wrong one, /metrics is 404.
func TestMetricsAfterTraffic(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
		defer hook.Close()
		env := servertest.New(t, d, func(c *config.Config) { c.MetricsToken, c.AllowPrivateWebhooks = metricsToken, true })
		key := env.NewKey()
		f := env.NewFileForm(t, key, map[string]any{"webhookUrl": hook.URL, "webhookEnabled": true})
		for i := range 2 {
			if _, err := f.Submit(fmt.Sprint("Ana", i), []byte("a resume")); err != nil {
				t.Fatal(err)
			}
		}
		if r := env.Do("POST", "/api/v1/forms/generate", key, `{"prompt":"a contact form asking for name and email"}`); r.Status != 201 {
			t.Fatalf("generate: %d %s", r.Status, r.Body)
		}
		env.Do("GET", "/api/v1/forms/987654321", key, nil)

		for _, h := range [][]string{nil, {"Authorization", "Bearer wrong"}, {"Authorization", metricsToken}} {
			if code, _ := get(t, env.URL+"/metrics", h...); code != 404 {
				t.Errorf("/metrics with %v = %d, want 404", h, code)
			}
		}
		body := scrapeUntil(t, env.URL, `forma_webhook_deliveries_total{status="success"} 2`, "forma_webhook_queue_depth 0")
		for _, want := range []string{
			`forma_http_requests_total{route="POST /f/{token}/submissions",status="201"} 2`,
			`forma_http_requests_total{route="POST /f/{token}/uploads",status="201"} 2`,
			`forma_http_requests_total{route="POST /api/v1/forms/generate",status="201"} 1`,
			`forma_http_requests_total{route="GET /api/v1/forms/{id}",status="404"} 1`,
			`forma_http_request_duration_seconds_count{route="POST /f/{token}/submissions",status="201"} 2`,
			`forma_submissions_total 2`,
			`forma_webhook_delivery_duration_seconds_count{status="success"} 2`,
			`forma_webhook_queue_depth 0`,
			`forma_webhook_queue_oldest_age_seconds 0`,
			`forma_ai_calls_total{operation="generate"} 1`,
			`forma_credits_charged_total{endpoint="forms.generate"} 5`,
			`go_goroutines `, `process_resident_memory_bytes `, `go_sql_open_connections{db_name=`,
		} {
			if !strings.Contains(body, want) {
				t.Errorf("/metrics lacks %s", want)
			}
		}
		if strings.Contains(body, f.Share) || strings.Contains(body, "987654321") {
			t.Error("/metrics names a raw path")
		}
	})
}

// scrapeUntil scrapes /metrics with the token until it holds every one of wants
// (webhook deliveries finish after the submission's answer, and leave the outbox
// after that), for at most 10 seconds.
func scrapeUntil(t *testing.T, url string, wants ...string) string {
	t.Helper()
	var body string
	for range 100 {
		var code int
		code, body = get(t, url+"/metrics", "Authorization", "Bearer "+metricsToken)
		if code != 200 {
			t.Fatalf("/metrics = %d %s", code, body)
		}
		if !slices.ContainsFunc(wants, func(w string) bool { return !strings.Contains(body, w) }) {
			return body
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("/metrics never showed all of %q:\n%s", wants, body)
	return ""
}
