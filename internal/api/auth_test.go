package api_test

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"forma/internal/server/servertest"
	"forma/internal/store"
)

var limitHeaders = []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset",
	"X-Credits-Remaining", "X-Credits-Used", "X-Monthly-Allowance"}

func TestUnauthorizedKeysAllLookTheSame(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		acct := env.Account("free")
		revoked := env.Key(acct, nil, nil)
		keys, _ := env.Store.ListKeys(context.Background(), acct.ID)
		if err := env.Store.RevokeKey(context.Background(), acct.ID, keys[0].ID); err != nil {
			t.Fatal(err)
		}
		valid := env.Key(acct, nil, nil)
		cases := map[string]string{
			"missing":   "",
			"malformed": "hello",
			"unknown":   "forma_sk_live_" + strings.Repeat("A", 32),
			"test key":  "forma_sk_test_" + strings.Repeat("A", 32),
			"revoked":   revoked,
		}
		var first []byte
		for name, key := range cases {
			r := env.Do("GET", "/api/v1/forms", key, nil)
			expectError(t, r, 401, "unauthorized", "API key")
			if first == nil {
				first = r.Body
			} else if string(r.Body) != string(first) {
				t.Errorf("%s: body %s differs from %s", name, r.Body, first)
			}
			if r.Header.Get("X-Request-Id") == "" {
				t.Errorf("%s: no X-Request-Id", name)
			}
			if r.Header.Get("X-RateLimit-Limit") != "" {
				t.Errorf("%s: limit headers on a request without a valid key", name)
			}
		}
		// A key in the query string is not accepted.
		expectError(t, env.Do("GET", "/api/v1/forms?api_key="+valid+"&key="+valid, "", nil), 401, "unauthorized", "X-API-Key")
		expectStatus(t, env.Do("GET", "/api/v1/forms", valid, nil), 200)
	})
}

func TestLimitHeadersOnEveryResponse(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		limit := 500
		key := env.Key(env.Account("builder"), &limit, nil)
		f := createForm(t, env, key, map[string]any{"title": "H"})
		path := "/api/v1/forms/" + id(f["id"])
		requests := []struct {
			method, path string
			body         any
			status       int
		}{
			{"GET", "/api/v1/forms", nil, 200},
			{"GET", path, nil, 200},
			{"PATCH", path, map[string]any{"nope": 1}, 400},
			{"GET", "/api/v1/forms/999999", nil, 404},
			{"GET", "/api/v1/unknown", nil, 404},
			{"PUT", path, nil, 405},
			{"POST", "/api/v1/forms", strings.Repeat(" ", 2<<20), 413},
			{"GET", "/api/v1/usage", nil, 200},
		}
		for i, rq := range requests {
			r := env.Do(rq.method, rq.path, key, rq.body)
			expectStatus(t, r, rq.status)
			for _, h := range limitHeaders {
				if r.Header.Get(h) == "" {
					t.Errorf("%s %s: missing %s", rq.method, rq.path, h)
				}
			}
			if r.Header.Get("X-Request-Id") == "" {
				t.Errorf("%s %s: missing X-Request-Id", rq.method, rq.path)
			}
			if got := r.Header.Get("X-RateLimit-Limit"); got != "500" {
				t.Errorf("limit %s, want the key's 500 (smaller than builder's 5000)", got)
			}
			// Counting: the form was created with request 1; this is request i+2.
			if got, want := r.Header.Get("X-RateLimit-Remaining"), strconv.Itoa(500-(i+2)); got != want {
				t.Errorf("%s %s: remaining %s, want %s", rq.method, rq.path, got, want)
			}
			if r.Header.Get("X-Credits-Used") != "0" || r.Header.Get("X-Monthly-Allowance") != "1000" || r.Header.Get("X-Credits-Remaining") != "1000" {
				t.Errorf("credit headers: %v", r.Header)
			}
			reset, _ := strconv.ParseInt(r.Header.Get("X-RateLimit-Reset"), 10, 64)
			if reset%86400 != 0 || reset <= time.Now().Unix() || reset > time.Now().Unix()+86400 {
				t.Errorf("reset %d is not the next midnight UTC", reset)
			}
		}
		if r := env.Do("PUT", path, key, nil); r.Header.Get("Allow") != "GET, PATCH, DELETE" {
			t.Errorf("Allow %q", r.Header.Get("Allow"))
		}
	})
}

func TestErrorsKeepTheShape(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		expectError(t, env.Do("GET", "/api/v1/nothing/here", key, nil), 404, "not_found", "/api/v1/nothing/here")
		expectError(t, env.Do("GET", "/elsewhere", "", nil), 404, "not_found", "/elsewhere")
		expectError(t, env.Do("DELETE", "/api/v1/forms", key, nil), 405, "method_not_allowed", "GET, POST")
		expectError(t, env.Do("POST", "/api/v1/openapi.json", "", nil), 405, "method_not_allowed", "GET")
		expectError(t, env.Do("POST", "/api/v1/forms", key, `{"title":"`+strings.Repeat("a", 1<<20)+`"}`), 413, "payload_too_large", "bytes")
		expectError(t, env.Do("POST", "/api/v1/forms", key, `{"title":`), 400, "validation_error", "malformed")
		expectError(t, env.Do("POST", "/api/v1/forms", key, `{"title":"a"} {}`), 400, "validation_error", "body")
		expectError(t, env.Do("POST", "/api/v1/forms", key, `[]`), 400, "validation_error", "body")
		expectError(t, env.Do("POST", "/api/v1/forms", key, ``), 400, "validation_error", "body")
		expectError(t, env.Do("GET", "/api/v1/forms/abc", key, nil), 400, "validation_error", "id")
		req, _ := http.NewRequest("POST", env.URL+"/api/v1/forms", strings.NewReader(`{"title":"x"}`))
		req.Header.Set("X-API-Key", key)
		req.Header.Set("Content-Type", "text/plain")
		expectError(t, env.Send(req), 400, "validation_error", "Content-Type")
		req, _ = http.NewRequest("POST", env.URL+"/api/v1/forms", strings.NewReader(`{"title":"x"}`))
		req.Header.Set("X-API-Key", key)
		req.Header.Set("Content-Type", "application/json; charset=utf-8")
		expectStatus(t, env.Send(req), 201)
	})
}

func TestValidationNamesTheField(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		q := func(fields string) string { return `{"title":"T","questions":[` + fields + `]}` }
		cases := []struct{ body, field string }{
			{`{}`, "title"},
			{`{"title":""}`, "title"},
			{`{"title":"   "}`, "title"},
			{`{"title":5}`, "title"},
			{`{"title":"T","description":7}`, "description"},
			{`{"title":"T","displayMode":"wizard"}`, "displayMode"},
			{`{"title":"T","colour":"red"}`, "colour"},
			{q(`{"type":"text"}`), "questions[0].question"},
			{q(`{"question":""}`), "questions[0].question"},
			{q(`{"question":"` + strings.Repeat("é", 1001) + `"}`), "questions[0].question"},
			{q(`{"question":"Q","type":"essay"}`), "questions[0].type"},
			{q(`{"question":"Q","type":"select"}`), "questions[0].options"},
			{q(`{"question":"Q","type":"select","options":[]}`), "questions[0].options"},
			{q(`{"question":"Q","type":"multi_select","options":["a","a"]}`), "questions[0].options[1]"},
			{q(`{"question":"Q","type":"select","options":[""]}`), "questions[0].options[0]"},
			{q(`{"question":"Q","type":"text","options":["a"]}`), "questions[0].options"},
			{q(`{"question":"Q","type":"slider"}`), "questions[0].sliderConfig"},
			{q(`{"question":"Q","type":"slider","sliderConfig":{"min":5,"max":1,"step":1}}`), "questions[0].sliderConfig.min"},
			{q(`{"question":"Q","type":"slider","sliderConfig":{"min":0,"max":10,"step":0}}`), "questions[0].sliderConfig.step"},
			{q(`{"question":"Q","type":"slider","sliderConfig":{"min":0,"max":10,"step":11}}`), "questions[0].sliderConfig.step"},
			{q(`{"question":"Q","type":"currency","currencyConfig":{"currency":"usd"}}`), "questions[0].currencyConfig.currency"},
			{q(`{"question":"Q","type":"currency","currencyConfig":{"currency":"XYZ"}}`), "questions[0].currencyConfig.currency"},
			{q(`{"question":"Q","type":"currency","currencyConfig":{"currency":"USD","min":10,"max":1}}`), "questions[0].currencyConfig.min"},
			{q(`{"question":"Q","required":"yes"}`), "questions.required"},
			{q(`{"question":"Q","sliderConfig":{"min":0,"max":1,"step":1}}`), "questions[0].sliderConfig"},
			{q(`{"question":"Q","extra":1}`), "extra"},
		}
		for _, c := range cases {
			r := env.Do("POST", "/api/v1/forms", key, c.body)
			expectError(t, r, 400, "validation_error", c.field)
			if fields, ok := r.JSON(t)["fields"].([]any); !ok || len(fields) == 0 {
				t.Errorf("%s: no fields list: %s", c.body, r.Body)
			}
		}
		if n := len(env.Do("GET", "/api/v1/forms", key, nil).JSON(t)["forms"].([]any)); n != 0 {
			t.Errorf("%d forms were created by invalid requests", n)
		}
	})
}

func TestFormScopedKeys(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		acct := env.Account("free")
		full := env.Key(acct, nil, nil)
		mine := createForm(t, env, full, map[string]any{"title": "Mine"})
		sibling := createForm(t, env, full, map[string]any{"title": "Sibling"})
		foreign := createForm(t, env, env.NewKey(), map[string]any{"title": "Foreign"})
		formID := int64(mine["id"].(float64))
		scoped := env.Key(acct, nil, &formID)

		list := env.Do("GET", "/api/v1/forms", scoped, nil).JSON(t)
		if list["total"] != 1.0 || list["forms"].([]any)[0].(map[string]any)["title"] != "Mine" {
			t.Errorf("scoped list: %v", list)
		}
		expectStatus(t, env.Do("GET", "/api/v1/forms/"+id(mine["id"]), scoped, nil), 200)
		expectStatus(t, env.Do("POST", "/api/v1/forms/"+id(mine["id"])+"/fields", scoped, map[string]any{"question": "Q"}), 201)
		expectError(t, env.Do("POST", "/api/v1/forms", scoped, map[string]any{"title": "New"}), 403, "forbidden", "form-scoped")
		for _, rq := range [][2]string{{"GET", ""}, {"PATCH", ""}, {"DELETE", ""}, {"POST", "/publish"}, {"POST", "/fields"}} {
			var body any
			if rq[0] == "PATCH" || rq[1] == "/fields" {
				body = map[string]any{"title": "x", "question": "x"}
			}
			expectError(t, env.Do(rq[0], "/api/v1/forms/"+id(sibling["id"])+rq[1], scoped, body), 403, "forbidden", "limited to form")
			expectError(t, env.Do(rq[0], "/api/v1/forms/"+id(foreign["id"])+rq[1], scoped, body), 404, "not_found", "Form not found")
		}
		expectStatus(t, env.Do("GET", "/api/v1/usage", scoped, nil), 200)
		// An unscoped key of another account sees 404 for this account's form.
		expectError(t, env.Do("GET", "/api/v1/forms/"+id(mine["id"]), env.NewKey(), nil), 404, "not_found", "Form not found")
	})
}

func TestDailyLimitExactUnderConcurrency(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		limit := 100
		acct := env.Account("free")
		key := env.Key(acct, &limit, nil)
		statuses := hammer(t, []string{env.URL}, key, 200)
		if statuses[200] != 100 || statuses[429] != 100 {
			t.Fatalf("statuses %v, want exactly 100 × 200 and 100 × 429", statuses)
		}
		r := env.Do("GET", "/api/v1/forms", key, nil)
		expectError(t, r, 429, "rate_limit_exceeded", "100")
		body := r.JSON(t)
		tomorrow := time.Now().UTC().Truncate(24 * time.Hour).Add(24 * time.Hour).Format("2006-01-02T15:04:05.000Z")
		if body["resetAt"] != tomorrow || body["tier"] != "free" || body["upgradeUrl"] != "/settings/billing" {
			t.Errorf("429 body: %s", r.Body)
		}
		if !strings.Contains(body["message"].(string), "midnight UTC") {
			t.Errorf("429 message: %v", body["message"])
		}
		if r.Header.Get("X-RateLimit-Remaining") != "0" {
			t.Errorf("remaining on 429: %q", r.Header.Get("X-RateLimit-Remaining"))
		}
		// Another key of the same account has its own counter.
		expectStatus(t, env.Do("GET", "/api/v1/forms", env.Key(acct, &limit, nil), nil), 200)
	})
}

// hammer sends n concurrent GET /forms requests spread over the servers and counts
// the statuses.
func hammer(t *testing.T, servers []string, key string, n int) map[int]int {
	t.Helper()
	var mu sync.Mutex
	statuses := map[int]int{}
	var wg sync.WaitGroup
	var failures atomic.Int32
	start := make(chan struct{})
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: n}}
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			req, _ := http.NewRequest("GET", servers[i%len(servers)]+"/api/v1/forms", nil)
			req.Header.Set("X-API-Key", key)
			resp, err := client.Do(req)
			if err != nil {
				failures.Add(1)
				return
			}
			resp.Body.Close()
			mu.Lock()
			statuses[resp.StatusCode]++
			mu.Unlock()
		}()
	}
	close(start)
	wg.Wait()
	if failures.Load() > 0 {
		t.Fatalf("%d requests failed to complete", failures.Load())
	}
	return statuses
}

func TestUsage(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.Key(env.Account("scale"), nil, nil)
		u := env.Do("GET", "/api/v1/usage", key, nil).JSON(t)
		want := map[string]any{"tier": "scale", "creditsRemaining": 5000.0, "creditsMonthlyAllowance": 5000.0,
			"overageCreditsUsed": 0.0, "rateLimitDaily": 10000.0}
		for k, v := range want {
			if u[k] != v {
				t.Errorf("%s = %v, want %v", k, u[k], v)
			}
		}
		for _, k := range []string{"billingCycleStart", "billingCycleEnd"} {
			if !timestampRE.MatchString(fmt.Sprint(u[k])) {
				t.Errorf("%s = %v", k, u[k])
			}
		}
		if days := u["daysRemaining"].(float64); days < 28 || days > 31 {
			t.Errorf("daysRemaining %v for a new account", days)
		}
		h := env.Do("GET", "/api/v1/usage/history", key, nil)
		expectStatus(t, h, 200)
		if string(h.Body) != `{"hasMore":false,"history":[],"limit":20,"offset":0,"total":0}`+"\n" {
			t.Errorf("empty history: %s", h.Body)
		}
		expectError(t, env.Do("GET", "/api/v1/usage/history?limit=101", key, nil), 400, "validation_error", "limit")
		expectError(t, env.Do("GET", "/api/v1/usage/history?offset=-1", key, nil), 400, "validation_error", "offset")
	})
}
