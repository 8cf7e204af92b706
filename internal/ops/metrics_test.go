package ops_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
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

// published creates a form with a text and a file question, points its webhook
// at hook (when given), publishes it, and returns its share token and question ids.
func published(t *testing.T, env *servertest.Env, key, hook string) (string, [2]int64) {
	t.Helper()
	r := env.Do("POST", "/api/v1/forms", key, `{"title":"Ops","questions":[{"type":"text","question":"Name"},{"type":"file_upload","question":"CV"}]}`)
	if r.Status != 201 {
		t.Fatalf("create form: %d %s", r.Status, r.Body)
	}
	f := r.JSON(t)
	path := fmt.Sprintf("/api/v1/forms/%d", int64(f["id"].(float64)))
	var q [2]int64
	for i, x := range f["questions"].([]any) {
		q[i] = int64(x.(map[string]any)["id"].(float64))
	}
	if hook != "" {
		if r := env.Do("PATCH", path, key, map[string]any{"webhookUrl": hook, "webhookEnabled": true}); r.Status != 200 {
			t.Fatalf("webhook: %s", r.Body)
		}
	}
	if r := env.Do("POST", path+"/publish", key, nil); r.Status != 200 {
		t.Fatalf("publish: %s", r.Body)
	}
	return f["shareUrl"].(string), q
}

// submitWithFile uploads a file and submits name with it; it returns the
// upload's id.
func submitWithFile(t testing.TB, url, token string, q [2]int64, name string, content []byte) (string, error) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", name+".txt")
	fw.Write(content)
	mw.Close()
	resp, err := http.Post(url+"/f/"+token+"/uploads", mw.FormDataContentType(), &body)
	if err != nil {
		return "", err
	}
	var up struct{ ID string }
	err = json.NewDecoder(resp.Body).Decode(&up)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 201 {
		return "", fmt.Errorf("upload: %d %v", resp.StatusCode, err)
	}
	answers := fmt.Sprintf(`{"answers":{"%d":%q,"%d":%q}}`, q[0], name, q[1], up.ID)
	resp, err = http.Post(url+"/f/"+token+"/submissions", "application/json", strings.NewReader(answers))
	if err != nil {
		return "", err
	}
	resp.Body.Close()
	if resp.StatusCode != 201 {
		return "", fmt.Errorf("submit: %d", resp.StatusCode)
	}
	return up.ID, nil
}

// TestMetricsAfterTraffic: after submissions with files, webhook deliveries, API
// and AI calls, /metrics (with the token) counts them by route pattern, never by
// path; without the token, or with a wrong one, /metrics is 404.
func TestMetricsAfterTraffic(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
		defer hook.Close()
		env := servertest.New(t, d, func(c *config.Config) { c.MetricsToken, c.AllowPrivateWebhooks = metricsToken, true })
		key := env.NewKey()
		token, q := published(t, env, key, hook.URL)
		for i := range 2 {
			if _, err := submitWithFile(t, env.URL, token, q, fmt.Sprint("Ana", i), []byte("a resume")); err != nil {
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
		if strings.Contains(body, token) || strings.Contains(body, "987654321") {
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
