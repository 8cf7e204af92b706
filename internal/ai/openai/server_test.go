package openai

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"forma/internal/form"
)

const testKey = "sk-test-0123456789"

// sent is one request the provider made to the scripted server.
type sent struct {
	Path   string
	Header http.Header
	Body   map[string]any
	Raw    string
}

// messages returns the messages of the request.
func (s sent) messages(t *testing.T) []map[string]any {
	t.Helper()
	raw, ok := s.Body["messages"].([]any)
	if !ok {
		t.Fatalf("request has no messages: %s", s.Raw)
	}
	out := make([]map[string]any, len(raw))
	for i, m := range raw {
		out[i] = m.(map[string]any)
	}
	return out
}

// step answers one request of the script; it may inspect what was sent.
type step func(t *testing.T, req sent, w http.ResponseWriter, r *http.Request)

// script is a local Chat Completions server that answers requests with its steps in
// order and records what it was sent.
type script struct {
	t     *testing.T
	srv   *httptest.Server
	mu    sync.Mutex
	steps []step
	reqs  []sent
}

// newScript starts a scripted server; it is closed when the test ends.
func newScript(t *testing.T, steps ...step) *script {
	t.Helper()
	s := &script{t: t, steps: steps}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *script) serve(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	req := sent{Path: r.URL.Path, Header: r.Header.Clone(), Raw: string(b)}
	if err := json.Unmarshal(b, &req.Body); err != nil {
		s.t.Errorf("request body is not JSON: %v: %s", err, b)
	}
	s.mu.Lock()
	n := len(s.reqs)
	s.reqs = append(s.reqs, req)
	s.mu.Unlock()
	if n >= len(s.steps) {
		s.t.Errorf("unexpected request %d (the script has %d steps): %s", n+1, len(s.steps), b)
		http.Error(w, `{"error":{"message":"script exhausted"}}`, http.StatusInternalServerError)
		return
	}
	s.steps[n](s.t, req, w, r)
}

// requests returns what was sent so far.
func (s *script) requests() []sent {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]sent(nil), s.reqs...)
}

// provider returns a provider pointed at the script.
func (s *script) provider(t *testing.T, timeout time.Duration) *Provider {
	t.Helper()
	p, err := New(Config{BaseURL: s.srv.URL + "/v1", APIKey: testKey, Model: "test-model", Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// completion writes a Chat Completions answer with one choice.
func completion(w http.ResponseWriter, message map[string]any, finish string) {
	message["role"] = "assistant"
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "test-model",
		"choices": []any{map[string]any{"index": 0, "message": message, "finish_reason": finish}},
		"usage":   map[string]any{"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
	})
}

// reply answers with a message whose content is content.
func reply(content string) step {
	return func(_ *testing.T, _ sent, w http.ResponseWriter, _ *http.Request) {
		completion(w, map[string]any{"content": content}, "stop")
	}
}

// call is one tool call of a scripted answer.
type call struct{ ID, Name, Args string }

// toolCalls answers with tool calls and no content.
func toolCalls(calls ...call) step {
	return func(_ *testing.T, _ sent, w http.ResponseWriter, _ *http.Request) {
		writeToolCalls(w, calls...)
	}
}

func writeToolCalls(w http.ResponseWriter, calls ...call) {
	var tc []any
	for _, c := range calls {
		tc = append(tc, map[string]any{"id": c.ID, "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": c.Args}})
	}
	completion(w, map[string]any{"content": nil, "tool_calls": tc}, "tool_calls")
}

// status answers with an HTTP error status and body.
func status(code int, body string) step {
	return func(_ *testing.T, _ sent, w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		_, _ = io.WriteString(w, body)
	}
}

// checked runs check on the request before answering with next.
func checked(check func(t *testing.T, req sent), next step) step {
	return func(t *testing.T, req sent, w http.ResponseWriter, r *http.Request) {
		check(t, req)
		next(t, req, w, r)
	}
}

// providerFailed asserts that err is a ProviderFailed error whose message contains
// every want, and never the API key.
func providerFailed(t *testing.T, err error, want ...string) {
	t.Helper()
	var fe *form.Error
	if !errors.As(err, &fe) || fe.Code != form.ProviderFailed {
		t.Fatalf("err = %v (%T), want a ProviderFailed *form.Error", err, err)
	}
	for _, w := range want {
		if !strings.Contains(fe.Message, w) {
			t.Errorf("message %q does not contain %q", fe.Message, w)
		}
	}
	if strings.Contains(fe.Message, "<html") {
		t.Errorf("message %q carries an HTML page", fe.Message)
	}
	if strings.Contains(fe.Message, testKey) {
		t.Errorf("message %q leaks the API key", fe.Message)
	}
}

// path returns the value at a path of keys in decoded JSON.
func path(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// jsonString marshals v.
func jsonString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprint(err))
	}
	return string(b)
}

// asFormError is errors.As for *form.Error.
func asFormError(err error, fe **form.Error) bool { return errors.As(err, fe) }
