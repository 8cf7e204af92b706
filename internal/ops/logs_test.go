package ops_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"testing"

	"forma/internal/server/servertest"
	"forma/internal/store"
)

// syncBuffer is a buffer the server's goroutines may write to at once.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestRequestLogs: one JSON line per request with its request id (kept when well
// formed, else generated and sent back), method, route pattern, status, duration
// and bytes; API keys, answers, share tokens and signed links' queries never
// appear in the log.
func TestRequestLogs(t *testing.T) {
	logs := &syncBuffer{}
	env := servertest.StartLogging(t, servertest.OpenStore(t, store.SQLite), slog.New(slog.NewJSONHandler(logs, nil)))
	key := env.NewKey()
	token, q := published(t, env, key, "")
	upload, err := submitWithFile(t, env.URL, token, q, "SECRET-ANSWER-42", []byte("private file"))
	if err != nil {
		t.Fatal(err)
	}

	req := env.NewRequest("GET", "/api/v1/forms?limit=5", key, nil)
	req.Header.Set("X-Request-Id", "ops-request-0001")
	if r := env.Send(req); r.Status != 200 || r.Header.Get("X-Request-Id") != "ops-request-0001" {
		t.Fatalf("list forms: %d, X-Request-Id %q", r.Status, r.Header.Get("X-Request-Id"))
	}
	req = env.NewRequest("GET", "/files/"+upload+"?exp=1&sig=SIGNATURE", "", nil)
	req.Header.Set("X-Request-Id", "bad id {}")
	generated := env.Send(req).Header.Get("X-Request-Id")
	if !regexp.MustCompile(`^[0-9a-f]{24}$`).MatchString(generated) {
		t.Errorf("a malformed X-Request-Id was answered with %q, want a fresh id", generated)
	}

	out := logs.String()
	for _, secret := range []string{key, "SECRET-ANSWER-42", token, "SIGNATURE", "limit=5", "private file", "bad id"} {
		if strings.Contains(out, secret) {
			t.Errorf("the log holds %q:\n%s", secret, out)
		}
	}
	lines := requestLines(t, out)
	if got := lines["ops-request-0001"]; got == nil || got["method"] != "GET" || got["route"] != "GET /api/v1/forms" ||
		got["status"] != 200.0 || got["bytes"].(float64) <= 0 || got["duration_ms"] == nil || got["key_id"].(float64) <= 0 {
		t.Errorf("the API request's line: %v", got)
	}
	if got := lines[generated]; got == nil || got["route"] != "GET /files/{id}" || got["status"] == nil {
		t.Errorf("the file request's line: %v", got)
	}
	routes := map[string]int{}
	for _, l := range lines {
		routes[fmt.Sprint(l["route"])]++
	}
	if routes["POST /f/{token}/submissions"] != 1 || routes["POST /f/{token}/uploads"] != 1 {
		t.Errorf("routes logged: %v", routes)
	}
}

// requestLines parses the log's request lines by request id.
func requestLines(t *testing.T, out string) map[string]map[string]any {
	lines := map[string]map[string]any{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("a log line is not JSON: %q", l)
		}
		if m["msg"] == "request" {
			lines[m["request_id"].(string)] = m
		}
	}
	return lines
}
