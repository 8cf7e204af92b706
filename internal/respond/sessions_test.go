package respond_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"forma/internal/config"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// from sends a request as the client at address (through a trusted proxy).
func from(env *servertest.Env, address, method, path, resume string, body any) *servertest.Response {
	req := env.NewRequest(method, path, "", body)
	req.Header.Set("X-Forwarded-For", address)
	if resume != "" {
		req.Header.Set("X-Resume-Token", resume)
	}
	return env.Send(req)
}

// TestSessionStartsAndSavesAreLimitedPerClient: one client address starts at most
// --session-limit sessions on a form per hour and saves at most --save-limit
// times; another address has its own budget, and a refused start is no session.
func TestSessionStartsAndSavesAreLimitedPerClient(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d, func(c *config.Config) { c.TrustProxy, c.SaveLimit = true, 3 })
		formID, token, q := published(t, env, env.NewKey(), `{"title":"L","questions":[{"question":"Q"}]}`)
		base := "/f/" + token + "/sessions"
		if env.Config.SessionLimit != 30 {
			t.Fatalf("default session limit %d, want 30", env.Config.SessionLimit)
		}
		var sid, rt string
		for range 30 {
			r := from(env, "203.0.113.7", "POST", base, "", nil)
			expect(t, r, 201)
			sid, rt = r.JSON(t)["id"].(string), r.JSON(t)["resumeToken"].(string)
		}
		expect(t, from(env, "203.0.113.7", "POST", base, "", nil), 429, `"rate_limit_exceeded"`, "Too many new sessions")
		expect(t, from(env, "203.0.113.8", "POST", base, "", nil), 201)
		if started, _, _ := env.Store.SessionCounts(t.Context(), formID); started != 31 {
			t.Errorf("%d sessions started, want 31", started)
		}

		save := fmt.Sprintf(`{"answers":{"%d":"x"}}`, q[0])
		for range 3 {
			expect(t, from(env, "203.0.113.7", "PATCH", base+"/"+sid, rt, save), 200)
		}
		expect(t, from(env, "203.0.113.7", "PATCH", base+"/"+sid, rt, save), 429, `"rate_limit_exceeded"`, "Too many saves")
		expect(t, from(env, "203.0.113.9", "PATCH", base+"/"+sid, rt, save), 200)
	})
}

// textareas is a form of n optional long-text questions.
func textareas(n int) string {
	qs := make([]string, n)
	for i := range qs {
		qs[i] = fmt.Sprintf(`{"type":"textarea","question":"Essay %d"}`, i+1)
	}
	return `{"title":"Essays","questions":[` + strings.Join(qs, ",") + `]}`
}

// essays answers questions with the longest valid text each.
func essays(q []int64) map[string]string {
	out := map[string]string{}
	for _, id := range q {
		out[fmt.Sprint(id)] = strings.Repeat("a", 10000)
	}
	return out
}

// TestAnswersAreBounded: an answers object larger than 256 KiB, though every
// answer is valid, is refused naming `answers`, by a one-shot submission, a save
// (counting what is already saved) and a completion alike, and nothing is stored.
func TestAnswersAreBounded(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		formID, token, q := published(t, env, env.NewKey(), textareas(30))
		tooLarge := []string{`"field":"answers"`, `"code":"answers_too_large"`, `"max":"256"`}

		expect(t, env.Do("POST", "/f/"+token+"/submissions", "", map[string]any{"answers": essays(q)}), 400, tooLarge...)
		if _, total, _ := env.Store.ListResponses(t.Context(), formID, store.ResponseFilter{}, 10, 0); total != 0 {
			t.Errorf("an oversized submission was stored")
		}

		sid, rt := startSession(t, env, token)
		path := "/f/" + token + "/sessions/" + sid
		expect(t, resumed(env, "PATCH", path, rt, map[string]any{"answers": essays(q[:25])}), 200)
		expect(t, resumed(env, "PATCH", path, rt, map[string]any{"answers": essays(q[25:])}), 400, tooLarge...)
		var saved struct{ Answers map[string]string }
		if err := json.Unmarshal(resumed(env, "GET", path, rt, nil).Body, &saved); err != nil || len(saved.Answers) != 25 {
			t.Errorf("saved answers after a refused save: %d (%v), want the 25 saved before", len(saved.Answers), err)
		}
		expect(t, resumed(env, "POST", path+"/complete", rt, map[string]any{"answers": essays(q[25:])}), 400, tooLarge...)
		expect(t, resumed(env, "GET", path, rt, nil), 200)
	})
}

// TestUnknownKeysGetAShortAnswer: a megabyte of unknown answer keys is refused in
// a few hundred bytes, everywhere answers are sent; and a validation error lists
// at most 20 fields.
func TestUnknownKeysGetAShortAnswer(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		_, token, _ := published(t, env, key, contactForm)
		keys := map[string]int{}
		for i := 0; len(keys)*15 < 1<<20-200; i++ {
			keys[fmt.Sprintf("k%09d", i)] = 1
		}
		flood := map[string]any{"answers": keys}
		sid, rt := startSession(t, env, token)
		for _, r := range []*servertest.Response{
			env.Do("POST", "/f/"+token+"/submissions", "", flood),
			resumed(env, "PATCH", "/f/"+token+"/sessions/"+sid, rt, flood),
			resumed(env, "POST", "/f/"+token+"/sessions/"+sid+"/complete", rt, flood),
		} {
			expect(t, r, 400, `"field":"answers"`, `"code":"too_many_answers"`, `"max":"4"`)
			if len(r.Body) > 2048 {
				t.Errorf("%s %s: a %d-byte error for a %d-byte request", r.Request.Method, r.Request.URL.Path, len(r.Body), r.Request.ContentLength)
			}
		}

		// 25 required questions left unanswered: 25 problems, 20 listed.
		qs := make([]string, 25)
		for i := range qs {
			qs[i] = fmt.Sprintf(`{"question":"Q%d","required":true}`, i)
		}
		_, many, _ := published(t, env, key, `{"title":"Many","questions":[`+strings.Join(qs, ",")+`]}`)
		r := env.Do("POST", "/f/"+many+"/submissions", "", `{"answers":{}}`)
		expect(t, r, 400, "(and 24 more)")
		if n := len(fieldItems(t, r)); n != 20 {
			t.Errorf("%d fields listed, want 20", n)
		}
	})
}

// TestSessionsNeedTheirResumeToken: only the resume token given when a session
// started reads, saves or completes it; a wrong or missing token, and a completed
// or one-shot submission, are the 404 of an unknown id.
func TestSessionsNeedTheirResumeToken(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		_, token, q := published(t, env, env.NewKey(), contactForm)
		sid, rt := startSession(t, env, token)
		if len(rt) < 22 || rt == sid {
			t.Fatalf("resume token %q (session %q)", rt, sid)
		}
		path := "/f/" + token + "/sessions/" + sid
		save := fmt.Sprintf(`{"answers":{"%d":"Ana"}}`, q[0])
		_, other := startSession(t, env, token)
		for _, wrong := range []string{"", other, rt + "x"} {
			expect(t, resumed(env, "GET", path, wrong, nil), 404, `"not_found"`)
			expect(t, resumed(env, "PATCH", path, wrong, save), 404, `"not_found"`)
			expect(t, resumed(env, "POST", path+"/complete", wrong, save), 404, `"not_found"`)
		}
		expect(t, resumed(env, "GET", path, rt, nil), 200, `"answers":{}`)
		expect(t, resumed(env, "PATCH", path, rt, save), 200)
		if r := resumed(env, "GET", path, rt, nil); r.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("saved answers are cacheable: Cache-Control %q", r.Header.Get("Cache-Control"))
		}
		expect(t, resumed(env, "GET", path, rt, nil), 200, `"Ana"`)
		expect(t, resumed(env, "POST", path+"/complete", rt, fmt.Sprintf(`{"answers":{"%d":"ana@example.com"}}`, q[1])), 200)

		// Completed: its answers are the owner's; a second completion is 409.
		expect(t, resumed(env, "GET", path, rt, nil), 404, `"not_found"`)
		expect(t, resumed(env, "POST", path+"/complete", rt, nil), 409, `"already_completed"`)
		oneShot := env.Do("POST", "/f/"+token+"/submissions", "", fmt.Sprintf(`{"answers":{"%d":"Bo","%d":"bo@example.com"}}`, q[0], q[1]))
		expect(t, oneShot, 201)
		expect(t, resumed(env, "GET", "/f/"+token+"/sessions/"+oneShot.JSON(t)["id"].(string), "", nil), 404, `"not_found"`)
	})
}

// TestResumeTokenIsNeverShownToTheOwner: the responses, their export and the
// webhook payload carry no resume token.
func TestResumeTokenIsNeverShownToTheOwner(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		var mu sync.Mutex
		var payloads []string
		hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			mu.Lock()
			payloads = append(payloads, string(b))
			mu.Unlock()
		}))
		defer hook.Close()
		env := servertest.New(t, d, func(c *config.Config) { c.AllowPrivateWebhooks = true })
		key := env.NewKey()
		formID, token, q := published(t, env, key, contactForm)
		formPath := fmt.Sprintf("/api/v1/forms/%d", formID)
		expect(t, env.Do("PATCH", formPath, key, map[string]any{"webhookUrl": hook.URL, "webhookEnabled": true}), 200)

		sid, rt := startSession(t, env, token)
		expect(t, resumed(env, "POST", "/f/"+token+"/sessions/"+sid+"/complete", rt,
			fmt.Sprintf(`{"answers":{"%d":"Ana","%d":"ana@example.com"}}`, q[0], q[1])), 200)
		for _, path := range []string{formPath + "/responses", formPath + "/responses/" + sid,
			formPath + "/responses/export?format=json", formPath + "/responses/export?format=csv"} {
			r := env.Do("GET", path, key, nil)
			expect(t, r, 200, "ana@example.com")
			if strings.Contains(string(r.Body), rt) {
				t.Errorf("GET %s shows the resume token: %s", path, r.Body)
			}
		}
		deadline := time.Now().Add(10 * time.Second)
		for {
			mu.Lock()
			got := strings.Join(payloads, "\n")
			mu.Unlock()
			if got != "" {
				if !strings.Contains(got, sid) || strings.Contains(got, rt) {
					t.Errorf("webhook payload: %s", got)
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("no webhook delivered")
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
}
