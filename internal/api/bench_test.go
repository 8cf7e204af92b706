package api_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"forma/internal/server/servertest"
	"forma/internal/store"
)

// keyRing hands out keys of one account, a fresh one before the daily limit of the
// previous is reached, so that benchmarks measure the work and not 429s.
type keyRing struct {
	mu    sync.Mutex
	env   *servertest.Env
	acct  *store.Account
	key   string
	count int
}

func newKeyRing(env *servertest.Env) *keyRing {
	return &keyRing{env: env, acct: env.Account("scale")}
}

func (k *keyRing) next() string {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.key == "" || k.count == 9000 {
		k.key, k.count = k.env.Key(k.acct, nil, nil), 0
	}
	k.count++
	return k.key
}

func benchRequest(b *testing.B, env *servertest.Env, method, path, key, body string, want int) {
	var rd *strings.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, env.URL+path, nil)
	if rd != nil {
		req, _ = http.NewRequest(method, env.URL+path, rd)
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("X-API-Key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != want {
		b.Fatalf("status %d", resp.StatusCode)
	}
}

// BenchmarkGetForm measures GET /api/v1/forms/{id} of a 20-question form on SQLite,
// through real HTTP, including authentication and the daily counter.
func BenchmarkGetForm(b *testing.B) {
	env := servertest.New(b, store.SQLite)
	keys := newKeyRing(env)
	r := env.Do("POST", "/api/v1/forms", keys.next(), servertest.TwentyQuestions())
	if r.Status != 201 {
		b.Fatalf("create: %d %s", r.Status, r.Body)
	}
	path := "/api/v1/forms/" + fmt.Sprint(int64(r.JSON(b)["id"].(float64)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		benchRequest(b, env, "GET", path, keys.next(), "", 200)
	}
}

// BenchmarkGetFormLoad measures GET /api/v1/forms/{id} of a 20-question form:
// "handler" is the server's own cost per request, without a network; "load" is
// throughput over real HTTP from 64 clients on a 2-core machine
// (servertest.Load). Both include authentication and the daily counter.
func BenchmarkGetFormLoad(b *testing.B) {
	servertest.BenchDialects(b, func(b *testing.B, d store.Dialect) {
		env := servertest.New(b, d)
		keys := newKeyRing(env)
		r := env.Do("POST", "/api/v1/forms", keys.next(), servertest.TwentyQuestions())
		path := "/api/v1/forms/" + fmt.Sprint(int64(r.JSON(b)["id"].(float64)))
		next := func(target string) func() *http.Request {
			return func() *http.Request {
				req := httptest.NewRequest("GET", target, nil)
				req.RequestURI = ""
				req.Header.Set("X-API-Key", keys.next())
				return req
			}
		}
		b.Run("handler", func(b *testing.B) { env.ServeInProcess(b, 200, next(path)) })
		b.Run("load", func(b *testing.B) { env.Load(b, 200, next(env.URL+path)) })
	})
}

// BenchmarkCreateForm measures POST /api/v1/forms with 20 questions on SQLite.
func BenchmarkCreateForm(b *testing.B) {
	env := servertest.New(b, store.SQLite)
	keys := newKeyRing(env)
	body := servertest.TwentyQuestions()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		benchRequest(b, env, "POST", "/api/v1/forms", keys.next(), body, 201)
	}
}
