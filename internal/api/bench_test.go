package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"forma/internal/server/servertest"
	"forma/internal/store"
)

// keyRing hands out keys of one account, a fresh one before the daily limit of the
// previous is reached, so that benchmarks measure the work and not 429s.
type keyRing struct {
	env   *servertest.Env
	acct  *store.Account
	key   string
	count int
}

func newKeyRing(env *servertest.Env) *keyRing {
	return &keyRing{env: env, acct: env.Account("scale")}
}

func (k *keyRing) next() string {
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

func twentyQuestions() string {
	var qs []string
	types := []string{"text", "email", "number", "date", "rating", "yes_no", "textarea", "phone", "url", "time"}
	for i := range 20 {
		qs = append(qs, fmt.Sprintf(`{"type":%q,"question":"Question %d","required":%v}`, types[i%len(types)], i+1, i%2 == 0))
	}
	qs[5] = `{"type":"select","question":"Pick one","options":["A","B","C"]}`
	qs[6] = `{"type":"slider","question":"How much","sliderConfig":{"min":0,"max":10,"step":1}}`
	return `{"title":"Benchmark form","description":"Twenty questions","questions":[` + strings.Join(qs, ",") + `]}`
}

// BenchmarkGetForm measures GET /api/v1/forms/{id} of a 20-question form on SQLite,
// through real HTTP, including authentication and the daily counter.
func BenchmarkGetForm(b *testing.B) {
	env := servertest.New(b, store.SQLite)
	keys := newKeyRing(env)
	r := env.Do("POST", "/api/v1/forms", keys.next(), twentyQuestions())
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

// BenchmarkCreateForm measures POST /api/v1/forms with 20 questions on SQLite.
func BenchmarkCreateForm(b *testing.B) {
	env := servertest.New(b, store.SQLite)
	keys := newKeyRing(env)
	body := twentyQuestions()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		benchRequest(b, env, "POST", "/api/v1/forms", keys.next(), body, 201)
	}
}
