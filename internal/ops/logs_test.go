package ops_test

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"strings"
	"testing"

	"forma/internal/server/servertest"
	"forma/internal/store"
)

// TestRequestLogs: one JSON line per request with its request id (kept when well
// formed, else generated and sent back), method, route pattern, status, duration
// and bytes; API keys, answers, share tokens and signed links' queries never
// appear in the log.
func TestRequestLogs(t *testing.T) {
	jsonLines := func(w io.Writer) slog.Handler { return slog.NewJSONHandler(w, nil) }
	env := servertest.StartLogging(t, servertest.OpenStore(t, store.SQLite), jsonLines)
	key := env.NewKey()
	f := env.NewFileForm(t, key, nil)
	upload, err := f.Submit("SECRET-ANSWER-42", []byte("private file"))
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

	out := env.Logs()
	for _, secret := range []string{key, "SECRET-ANSWER-42", f.Share, "SIGNATURE", "limit=5", "private file", "bad id"} {
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
