package api_test

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"forma/internal/quota"
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
		keys, _ := env.Store.ListKeys(context.Background(), acct.ID, 0)
		if err := env.Store.RevokeKey(context.Background(), acct.ID, keys[0].ID); err != nil {
			t.Fatal(err)
		}
		valid := env.Key(acct, nil, nil)
		var first []byte
		var table []scenario
		for _, c := range []struct{ name, key string }{
			{"missing", ""},
			{"malformed", "hello"},
			{"unknown", "forma_sk_live_" + strings.Repeat("A", 32)},
			{"test key", "forma_sk_test_" + strings.Repeat("A", 32)},
			{"revoked", revoked},
		} {
			table = append(table, scenario{Name: c.name, Method: "GET", Path: apiPrefix + "/forms", Key: c.key,
				ExpectedStatus: 401,
				// No limit headers on a request without a valid key.
				ExpectedHeaders: map[string]string{"X-RateLimit-Limit": ""},
				Check: checks(apiError("unauthorized", "API key"), hasHeaders("X-Request-Id"), func(t *testing.T, r *servertest.Response) {
					if first == nil {
						first = r.Body
					} else if string(r.Body) != string(first) {
						t.Errorf("body %s differs from %s", r.Body, first)
					}
				})})
		}
		servertest.Run(t, env, append(table,
			// A key in the query string is not accepted.
			scenario{Name: "key in the query string", Method: "GET", Path: apiPrefix + "/forms?api_key=" + valid + "&key=" + valid,
				ExpectedStatus: 401, Check: apiError("unauthorized", "X-API-Key")},
			scenario{Name: "valid", Method: "GET", Path: apiPrefix + "/forms", Key: valid, ExpectedStatus: 200}))
	})
}

// hasHeaders checks that the response has each header, with any value.
func hasHeaders(names ...string) check {
	return func(t *testing.T, r *servertest.Response) {
		t.Helper()
		for _, h := range names {
			if r.Header.Get(h) == "" {
				t.Errorf("missing %s", h)
			}
		}
	}
}

// TestLimitHeadersOnEveryResponse is a sequence: each request counts against the
// key's daily limit.
func TestLimitHeadersOnEveryResponse(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		limit := 500
		key := env.Key(env.Account("builder"), &limit, nil)
		path := formPath(createForm(t, env, key, obj{"title": "H"}))
		var table []scenario
		for i, rq := range []struct {
			method, path string
			body         any
			status       int
		}{
			{"GET", apiPrefix + "/forms", nil, 200},
			{"GET", path, nil, 200},
			{"PATCH", path, obj{"nope": 1}, 400},
			{"GET", apiPrefix + "/forms/999999", nil, 404},
			{"GET", apiPrefix + "/unknown", nil, 404},
			{"PUT", path, nil, 405},
			{"POST", apiPrefix + "/forms", strings.Repeat(" ", 2<<20), 413},
			{"GET", apiPrefix + "/usage", nil, 200},
		} {
			table = append(table, scenario{Method: rq.method, Path: rq.path, Key: key, Body: rq.body, ExpectedStatus: rq.status,
				ExpectedHeaders: map[string]string{
					"X-RateLimit-Limit": "500", // the key's, smaller than builder's 5000
					// Counting: the form was created with request 1; this is request i+2.
					"X-RateLimit-Remaining": strconv.Itoa(500 - (i + 2)),
					"X-Credits-Used":        "0", "X-Monthly-Allowance": "1000", "X-Credits-Remaining": "1000",
				},
				Check: checks(hasHeaders(append(limitHeaders, "X-Request-Id")...), func(t *testing.T, r *servertest.Response) {
					reset, _ := strconv.ParseInt(r.Header.Get("X-RateLimit-Reset"), 10, 64)
					if reset%86400 != 0 || reset <= time.Now().Unix() || reset > time.Now().Unix()+86400 {
						t.Errorf("reset %d is not the next midnight UTC", reset)
					}
				})})
		}
		servertest.Run(t, env, append(table, scenario{Name: "Allow on 405", Method: "PUT", Path: path, Key: key,
			ExpectedStatus: 405, ExpectedHeaders: map[string]string{"Allow": "GET, PATCH, DELETE"}}))
	})
}

func TestErrorsKeepTheShape(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		forms := apiPrefix + "/forms"
		refused := func(name, method, path, key string, body any, status int, code, mentions string) scenario {
			return scenario{Name: name, Method: method, Path: path, Key: key, Body: body, ExpectedStatus: status, Check: apiError(code, mentions)}
		}
		servertest.Run(t, env, []scenario{
			refused("unknown API route", "GET", apiPrefix+"/nothing/here", key, nil, 404, "not_found", apiPrefix+"/nothing/here"),
			refused("unknown route", "GET", "/elsewhere", "", nil, 404, "not_found", "/elsewhere"),
			refused("wrong method", "DELETE", forms, key, nil, 405, "method_not_allowed", "GET, POST"),
			refused("wrong method on the document", "POST", apiPrefix+"/openapi.json", "", nil, 405, "method_not_allowed", "GET"),
			refused("body over 1 MiB", "POST", forms, key, `{"title":"`+strings.Repeat("a", 1<<20)+`"}`, 413, "payload_too_large", "bytes"),
			refused("malformed JSON", "POST", forms, key, `{"title":`, 400, "validation_error", "malformed"),
			refused("two values", "POST", forms, key, `{"title":"a"} {}`, 400, "validation_error", "body"),
			refused("an array", "POST", forms, key, `[]`, 400, "validation_error", "body"),
			refused("an empty body", "POST", forms, key, ``, 400, "validation_error", "body"),
			refused("id not a number", "GET", forms+"/abc", key, nil, 400, "validation_error", "id"),
			{Name: "not JSON Content-Type", Method: "POST", Path: forms, Key: key, Body: `{"title":"x"}`,
				Header: map[string]string{"Content-Type": "text/plain"}, ExpectedStatus: 400, Check: apiError("validation_error", "Content-Type")},
			{Name: "JSON Content-Type with a charset", Method: "POST", Path: forms, Key: key, Body: `{"title":"x"}`,
				Header: map[string]string{"Content-Type": "application/json; charset=utf-8"}, ExpectedStatus: 201},
		})
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
		var table []scenario
		for _, c := range cases {
			table = append(table, scenario{Name: clipName(c.body), Method: "POST", Path: apiPrefix + "/forms", Key: key, Body: c.body,
				ExpectedStatus: 400, Check: checks(apiError("validation_error", c.field), func(t *testing.T, r *servertest.Response) {
					if fields, ok := r.JSON(t)["fields"].([]any); !ok || len(fields) == 0 {
						t.Error("no fields list")
					}
				})})
		}
		servertest.Run(t, env, append(table, scenario{Name: "invalid requests created no form", Method: "GET", Path: apiPrefix + "/forms",
			Key: key, ExpectedStatus: 200, Check: itemCount("forms", 0)}))
	})
}

func TestFormScopedKeys(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		acct := env.Account("free")
		full := env.Key(acct, nil, nil)
		mine := createForm(t, env, full, obj{"title": "Mine"})
		sibling := formPath(createForm(t, env, full, obj{"title": "Sibling"}))
		foreign := formPath(createForm(t, env, env.NewKey(), obj{"title": "Foreign"}))
		formID := int64(mine["id"].(float64))
		scoped := env.Key(acct, nil, &formID)
		table := []scenario{
			{Name: "the list has its form only", Method: "GET", Path: apiPrefix + "/forms", Key: scoped, ExpectedStatus: 200,
				Check: checks(fields(obj{"total": 1}), func(t *testing.T, r *servertest.Response) {
					if forms := items(t, r.JSON(t), "forms"); len(forms) != 1 || forms[0]["title"] != "Mine" {
						t.Errorf("scoped list: %v", forms)
					}
				})},
			{Name: "read its form", Method: "GET", Path: formPath(mine), Key: scoped, ExpectedStatus: 200},
			{Name: "add a question to its form", Method: "POST", Path: formPath(mine) + "/fields", Key: scoped, Body: obj{"question": "Q"}, ExpectedStatus: 201},
			{Name: "create a form", Method: "POST", Path: apiPrefix + "/forms", Key: scoped, Body: obj{"title": "New"}, ExpectedStatus: 403,
				Check: apiError("forbidden", "form-scoped")},
		}
		for _, rq := range [][2]string{{"GET", ""}, {"PATCH", ""}, {"DELETE", ""}, {"POST", "/publish"}, {"POST", "/fields"}} {
			var body any
			if rq[0] == "PATCH" || rq[1] == "/fields" {
				body = obj{"title": "x", "question": "x"}
			}
			table = append(table,
				scenario{Name: rq[0] + " a sibling" + rq[1], Method: rq[0], Path: sibling + rq[1], Key: scoped, Body: body,
					ExpectedStatus: 403, Check: apiError("forbidden", "limited to form")},
				scenario{Name: rq[0] + " another account's" + rq[1], Method: rq[0], Path: foreign + rq[1], Key: scoped, Body: body,
					ExpectedStatus: 404, Check: apiError("not_found", "Form not found")})
		}
		servertest.Run(t, env, append(table,
			scenario{Name: "usage", Method: "GET", Path: apiPrefix + "/usage", Key: scoped, ExpectedStatus: 200},
			// An unscoped key of another account sees 404 for this account's form.
			scenario{Name: "another account's unscoped key", Method: "GET", Path: formPath(mine), Key: env.NewKey(),
				ExpectedStatus: 404, Check: apiError("not_found", "Form not found")}))
	})
}

// TestDailyLimitExactUnderConcurrency sends 200 concurrent requests with a key
// limited to 100: exactly 100 pass, each told its own remaining count, exactly 100
// are counted, and the next is refused.
func TestDailyLimitExactUnderConcurrency(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		limit := 100
		acct := env.Account("free")
		key := env.Key(acct, &limit, nil)
		answers := hammer(t, []string{env.URL}, key, 200)
		if statuses := statusCounts(answers); statuses[200] != 100 || statuses[429] != 100 {
			t.Errorf("statuses %v, want exactly 100 × 200 and 100 × 429", statuses)
		}
		wantEachRemainingOnce(t, answers, 0, limit-1)
		wantCounted(t, env, acct, 100)
		tomorrow := time.Now().UTC().Truncate(24 * time.Hour).Add(24 * time.Hour).Format("2006-01-02T15:04:05.000Z")
		servertest.Run(t, env, []scenario{{
			Name: "over the limit", Method: "GET", Path: apiPrefix + "/forms", Key: key, ExpectedStatus: 429,
			ExpectedHeaders: map[string]string{"X-RateLimit-Remaining": "0"},
			Check: checks(apiError("rate_limit_exceeded", "100"), apiError("rate_limit_exceeded", "midnight UTC"),
				fields(obj{"resetAt": tomorrow, "tier": "free", "upgradeUrl": "/settings/billing"})),
		}, {
			// Another key of the same account has its own counter.
			Name: "another key of the account", Method: "GET", Path: apiPrefix + "/forms", Key: env.Key(acct, &limit, nil), ExpectedStatus: 200,
		}})
	})
}

// TestEveryConcurrentRequestCountedOnce: 150 concurrent requests under the limit
// all pass and are counted exactly once each, though they share commits.
func TestEveryConcurrentRequestCountedOnce(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		limit := 1000
		acct := env.Account("free")
		answers := hammer(t, []string{env.URL}, env.Key(acct, &limit, nil), 150)
		if statuses := statusCounts(answers); statuses[200] != 150 {
			t.Errorf("statuses %v, want 150 × 200", statuses)
		}
		wantEachRemainingOnce(t, answers, limit-150, limit-1)
		wantCounted(t, env, acct, 150)
	})
}

// answer is the status and X-RateLimit-Remaining of one response.
type answer struct {
	status    int
	remaining int
}

// hammer sends n concurrent GET /forms requests spread over the servers and
// returns their answers.
func hammer(t *testing.T, servers []string, key string, n int) []answer {
	t.Helper()
	var mu sync.Mutex
	var answers []answer
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
			remaining, _ := strconv.Atoi(resp.Header.Get("X-RateLimit-Remaining"))
			mu.Lock()
			answers = append(answers, answer{resp.StatusCode, remaining})
			mu.Unlock()
		}()
	}
	close(start)
	wg.Wait()
	if failures.Load() > 0 {
		t.Fatalf("%d requests failed to complete", failures.Load())
	}
	return answers
}

// statusCounts counts the answers by status.
func statusCounts(answers []answer) map[int]int {
	statuses := map[int]int{}
	for _, a := range answers {
		statuses[a.status]++
	}
	return statuses
}

// wantEachRemainingOnce fails unless the accepted answers were told each
// remaining count from low to high exactly once: every request got its own count.
func wantEachRemainingOnce(t *testing.T, answers []answer, low, high int) {
	t.Helper()
	seen := map[int]int{}
	for _, a := range answers {
		if a.status == http.StatusOK {
			seen[a.remaining]++
		}
	}
	for r := low; r <= high; r++ {
		if seen[r] != 1 {
			t.Fatalf("X-RateLimit-Remaining %d was told to %d requests, want exactly one (all told: %v)", r, seen[r], seen)
		}
	}
}

// wantCounted fails unless the account's only key counted n requests today.
func wantCounted(t *testing.T, env *servertest.Env, acct *store.Account, n int) {
	t.Helper()
	keys, err := env.Store.ListKeys(context.Background(), acct.ID, quota.Day(env.Store.Now()))
	if err != nil {
		t.Fatal(err)
	}
	if keys[0].RequestsToday != n {
		t.Errorf("%d requests counted, want %d", keys[0].RequestsToday, n)
	}
}

func TestUsage(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.Key(env.Account("scale"), nil, nil)
		servertest.Run(t, env, []scenario{{
			Name: "usage of a new account", Method: "GET", Path: apiPrefix + "/usage", Key: key, ExpectedStatus: 200,
			Check: checks(fields(obj{"tier": "scale", "creditsRemaining": 5000, "creditsMonthlyAllowance": 5000,
				"overageCreditsUsed": 0, "rateLimitDaily": 10000}), func(t *testing.T, r *servertest.Response) {
				u := r.JSON(t)
				for _, k := range []string{"billingCycleStart", "billingCycleEnd"} {
					if s, _ := u[k].(string); !timestampRE.MatchString(s) {
						t.Errorf("%s = %v", k, u[k])
					}
				}
				if days, _ := u["daysRemaining"].(float64); days < 28 || days > 31 {
					t.Errorf("daysRemaining %v for a new account", u["daysRemaining"])
				}
			}),
		}, {
			Name: "empty history", Method: "GET", Path: apiPrefix + "/usage/history", Key: key, ExpectedStatus: 200,
			Check: bodyIs(`{"hasMore":false,"history":[],"limit":20,"offset":0,"total":0}` + "\n"),
		},
			{Name: "history limit 101", Method: "GET", Path: apiPrefix + "/usage/history?limit=101", Key: key, ExpectedStatus: 400,
				Check: apiError("validation_error", "limit")},
			{Name: "history offset -1", Method: "GET", Path: apiPrefix + "/usage/history?offset=-1", Key: key, ExpectedStatus: 400,
				Check: apiError("validation_error", "offset")},
		})
	})
}
