package openai

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestProviderErrors(t *testing.T) {
	cases := []struct {
		name string
		step step
		want []string
	}{
		{"500", status(500, `{"error":{"message":"upstream overloaded","type":"server_error"}}`),
			[]string{"HTTP 500", "try again later", "upstream overloaded"}},
		{"500 html", status(502, `<html><body>Bad gateway</body></html>`), []string{"HTTP 502", "try again later"}},
		{"ollama error", status(404, `{"error":"model \"llama9\" not found, try pulling it first"}`),
			[]string{"HTTP 404", "FORMA_AI_MODEL", "try pulling it first"}},
		{"vllm error", status(400, `{"object":"error","message":"max_tokens is too large","type":"BadRequestError","code":400}`),
			[]string{"HTTP 400", "max_tokens is too large"}},
		{"401 echoing the key", status(401, `{"error":{"message":"Incorrect API key provided: `+testKey+`","type":"invalid_request_error"}}`),
			[]string{"HTTP 401", "check FORMA_AI_API_KEY"}},
		{"404 model", status(404, `{"error":{"message":"model 'test-model' not found"}}`),
			[]string{"HTTP 404", "FORMA_AI_MODEL", "not found"}},
		{"429", status(429, `{"error":{"message":"Rate limit reached for `+testKey+`"}}`),
			[]string{"HTTP 429", "rate limited", "[redacted]"}},
		{"not JSON", func(_ *testing.T, _ sent, w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"choices": [ {"message": `)
		}, []string{"malformed response"}},
		{"no choices", func(_ *testing.T, _ sent, w http.ResponseWriter, _ *http.Request) {
			_, _ = io.WriteString(w, `{"id":"x","choices":[]}`)
		}, []string{"no answer"}},
		{"content filter", func(_ *testing.T, _ sent, w http.ResponseWriter, _ *http.Request) {
			completion(w, map[string]any{"content": ""}, "content_filter")
		}, []string{"content filter"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for op, run := range operations() {
				s := newScript(t, c.step)
				err := run(s.provider(t, time.Second))
				if t.Run(op, func(t *testing.T) { providerFailed(t, err, c.want...) }) && len(s.requests()) != 1 {
					t.Errorf("%s: %d requests, want 1 (no retry)", op, len(s.requests()))
				}
			}
		})
	}
}

// operations runs each operation of the provider once.
func operations() map[string]func(p *Provider) error {
	return map[string]func(p *Provider) error{
		"generate": func(p *Provider) error {
			_, err := p.GenerateForm(context.Background(), "a contact form")
			return err
		},
		"analyze": func(p *Provider) error {
			_, err := p.Analyze(context.Background(), testDataset())
			return err
		},
		"chat": func(p *Provider) error {
			_, err := p.Chat(context.Background(), testDataset(), nil, "How many responses?")
			return err
		},
	}
}

func TestTimeout(t *testing.T) {
	slow := func(_ *testing.T, _ sent, w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(3 * time.Second):
		}
		completion(w, map[string]any{"content": contactForm}, "stop")
	}
	for op, run := range operations() {
		t.Run(op, func(t *testing.T) {
			s := newScript(t, slow)
			start := time.Now()
			err := run(s.provider(t, 200*time.Millisecond))
			providerFailed(t, err, "did not answer within 200ms")
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("gave up after %v", d)
			}
		})
	}
}

func TestTimeoutWhileReadingTheBody(t *testing.T) {
	s := newScript(t, func(_ *testing.T, _ sent, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"choices":[`)
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-time.After(3 * time.Second):
		}
	})
	_, err := s.provider(t, 200*time.Millisecond).GenerateForm(context.Background(), "a contact form")
	providerFailed(t, err, "did not answer within 200ms")
}

func TestCancelledRequest(t *testing.T) {
	s := newScript(t, reply(contactForm))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := s.provider(t, time.Second).GenerateForm(ctx, "a contact form")
	providerFailed(t, err, "cancelled")
}

func TestUnreachableServer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	p, err := New(Config{BaseURL: "http://" + addr + "/v1", APIKey: testKey, Model: "m", Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.GenerateForm(context.Background(), "a contact form")
	providerFailed(t, err, "could not reach the AI provider", "FORMA_AI_BASE_URL")
}

func TestNewChecksConfig(t *testing.T) {
	for _, c := range []Config{
		{Model: "m"},
		{BaseURL: "localhost:11434", Model: "m"},
		{BaseURL: "ftp://example.com", Model: "m"},
		{BaseURL: "http://localhost:11434/v1"},
		{BaseURL: "http://localhost:11434/v1", Model: "m", Timeout: -time.Second},
	} {
		if _, err := New(c); err == nil {
			t.Errorf("New(%+v) succeeded", c)
		} else if strings.Contains(err.Error(), "sk-") {
			t.Errorf("error leaks a key: %v", err)
		}
	}
	p, err := New(Config{BaseURL: " http://localhost:11434/v1/ ", Model: "llama3.2"})
	if err != nil {
		t.Fatal(err)
	}
	if p.timeout != DefaultTimeout {
		t.Errorf("timeout = %v", p.timeout)
	}
}

func TestNoAuthorizationWithoutKey(t *testing.T) {
	s := newScript(t, checked(func(t *testing.T, req sent) {
		if h := req.Header.Get("Authorization"); h != "" {
			t.Errorf("Authorization = %q without a key", h)
		}
	}, reply(contactForm)))
	p, err := New(Config{BaseURL: s.srv.URL + "/v1", Model: "llama3.2"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.GenerateForm(context.Background(), "a contact form"); err != nil {
		t.Fatal(err)
	}
}

func TestAzureKeyHeader(t *testing.T) {
	for host, want := range map[string]bool{
		"https://myres.openai.azure.com/openai/v1":            true,
		"https://myres.cognitiveservices.azure.com/openai/v1": true,
		"https://api.openai.com/v1":                           false,
		"http://localhost:11434/v1":                           false,
	} {
		u, _ := url.Parse(host)
		if got := azureKey(u, "k") != ""; got != want {
			t.Errorf("azureKey(%s) = %v", host, got)
		}
	}
	// The header is added by the transport.
	s := newScript(t, checked(func(t *testing.T, req sent) {
		if req.Header.Get("api-key") != testKey || req.Header.Get("Authorization") != "Bearer "+testKey {
			t.Errorf("headers = %v", req.Header)
		}
	}, reply(contactForm)))
	// The scripted server is not on an Azure host: give the provider a client whose
	// transport already adds the header, as New does for Azure hosts.
	hc := &http.Client{Transport: &transport{azureKey: testKey}}
	p2, err := New(Config{BaseURL: s.srv.URL + "/v1", APIKey: testKey, Model: "m", HTTPClient: hc})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p2.GenerateForm(context.Background(), "a contact form"); err != nil {
		t.Fatal(err)
	}
}

func TestOversizedAnswer(t *testing.T) {
	s := newScript(t, func(_ *testing.T, _ sent, w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, `{"choices":[{"message":{"role":"assistant","content":"`)
		chunk := strings.Repeat("x", 1<<20)
		for i := 0; i < 9; i++ {
			if _, err := io.WriteString(w, chunk); err != nil {
				return
			}
		}
		_, _ = io.WriteString(w, `"}}]}`)
	})
	_, err := s.provider(t, 5*time.Second).GenerateForm(context.Background(), "a contact form")
	providerFailed(t, err, "exceeded 8 MiB")
}

func TestSeconds(t *testing.T) {
	for d, want := range map[time.Duration]string{
		60 * time.Second: "60s", 1500 * time.Millisecond: "1.5s", 200 * time.Millisecond: "200ms", 2 * time.Minute: "120s",
	} {
		if got := seconds(d); got != want {
			t.Errorf("seconds(%v) = %q, want %q", d, got, want)
		}
	}
}
