package api_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"forma/internal/config"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

func withAllowances(spec string) func(*config.Config) {
	return func(c *config.Config) { c.Allowances = spec; c.SubmitLimit = 0 }
}

func history(t *testing.T, env *servertest.Env, key string) map[string]any {
	t.Helper()
	r := env.Do("GET", "/api/v1/usage/history", key, nil)
	expectStatus(t, r, 200)
	return r.JSON(t)
}

func TestGenerateFormChargesCredits(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		r := env.Do("POST", "/api/v1/forms/generate", key, map[string]any{
			"prompt": "a job application form asking for name, email, phone, years of experience, a resume upload and how they heard about us (LinkedIn, a friend, a job board)"})
		expectStatus(t, r, 201)
		f := r.JSON(t)
		qs := f["questions"].([]any)
		if len(qs) < 5 || f["isPublished"] != false || f["title"] == "" {
			t.Errorf("generated form: %s", r.Body)
		}
		types := map[string]bool{}
		for _, q := range qs {
			types[q.(map[string]any)["type"].(string)] = true
		}
		for _, want := range []string{"email", "phone", "file_upload", "select"} {
			if !types[want] {
				t.Errorf("no %s question in %s", want, r.Body)
			}
		}
		if r.Header.Get("X-Credits-Used") != "5" || r.Header.Get("X-Credits-Remaining") != "95" {
			t.Errorf("credit headers: used %q remaining %q", r.Header.Get("X-Credits-Used"), r.Header.Get("X-Credits-Remaining"))
		}
		h := history(t, env, key)
		entry := h["history"].([]any)[0].(map[string]any)
		if h["total"] != 1.0 || entry["endpoint"] != "forms.generate" || entry["creditsConsumed"] != 5.0 ||
			entry["formId"] != f["id"] || entry["formName"] != f["title"] || !timestampRE.MatchString(entry["createdAt"].(string)) {
			t.Errorf("history: %v", h)
		}
		// A useless prompt is a 400 and charges nothing.
		for _, bad := range []any{map[string]any{"prompt": ""}, map[string]any{"prompt": "asdf qwer"}, map[string]any{}} {
			r := env.Do("POST", "/api/v1/forms/generate", key, bad)
			expectError(t, r, 400, "validation_error", "prompt")
			if r.Header.Get("X-Credits-Used") != "0" {
				t.Errorf("failed generation charged %s", r.Header.Get("X-Credits-Used"))
			}
		}
		if h := history(t, env, key); h["total"] != 1.0 {
			t.Errorf("failed generations appear in history: %v", h)
		}
		if u := env.Do("GET", "/api/v1/usage", key, nil).JSON(t); u["creditsRemaining"] != 95.0 {
			t.Errorf("usage after one generation: %v", u)
		}
	})
}

func TestFreePlanRunsOutAndPaidPlansGoIntoOverage(t *testing.T) {
	env := servertest.New(t, store.SQLite, withAllowances("free=10,builder=5"))
	free := env.NewKey()
	prompt := map[string]any{"prompt": "a contact form"}
	expectStatus(t, env.Do("POST", "/api/v1/forms/generate", free, prompt), 201)
	expectStatus(t, env.Do("POST", "/api/v1/forms/generate", free, prompt), 201)
	r := env.Do("POST", "/api/v1/forms/generate", free, prompt)
	expectError(t, r, 402, "insufficient_credits", "credits")
	if r.Header.Get("X-Credits-Remaining") != "0" {
		t.Errorf("remaining on 402: %s", r.Header.Get("X-Credits-Remaining"))
	}
	if n := env.Do("GET", "/api/v1/forms", free, nil).JSON(t)["total"]; n != 2.0 {
		t.Errorf("%v forms after a refused generation", n)
	}

	paid := env.Key(env.Account("builder"), nil, nil)
	expectStatus(t, env.Do("POST", "/api/v1/forms/generate", paid, prompt), 201)
	r = env.Do("POST", "/api/v1/forms/generate", paid, prompt)
	expectStatus(t, r, 201)
	u := env.Do("GET", "/api/v1/usage", paid, nil).JSON(t)
	if u["overageCreditsUsed"] != 5.0 || u["creditsRemaining"] != 0.0 || u["creditsMonthlyAllowance"] != 5.0 {
		t.Errorf("builder past its allowance: %v", u)
	}
}

func TestConcurrentChargesForTheLastCredits(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d, withAllowances("free=5"))
		key := env.NewKey()
		var wg sync.WaitGroup
		statuses := make([]int, 2)
		for i := range statuses {
			wg.Add(1)
			go func() {
				defer wg.Done()
				statuses[i] = env.Do("POST", "/api/v1/forms/generate", key, map[string]any{"prompt": "an RSVP form"}).Status
			}()
		}
		wg.Wait()
		if !(statuses[0] == 201 && statuses[1] == 402 || statuses[0] == 402 && statuses[1] == 201) {
			t.Fatalf("statuses %v, want one 201 and one 402", statuses)
		}
		if h := history(t, env, key); h["total"] != 1.0 {
			t.Errorf("charges: %v", h)
		}
	})
}

func TestAnalytics(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d, withAllowances(""))
		key := env.Key(env.Account("scale"), nil, nil)
		path, token, q := publishedForm(t, env, key, `{"title":"Feedback","questions":[
			{"type":"rating","question":"How would you rate us?","required":true},
			{"type":"select","question":"Plan","options":["Free","Pro"]},
			{"type":"textarea","question":"Comments"}]}`)
		expectError(t, env.Do("GET", path+"/analytics", key, nil), 404, "not_found", "not been generated")
		for i, a := range []string{`5,"Pro","Great product, love it"`, `4,"Pro","Good"`, `2,"Free","Slow and buggy"`, `5,"Pro","Excellent support"`} {
			parts := strings.SplitN(a, ",", 3)
			submit(t, env, token, fmt.Sprintf(`{"%s":%s,"%s":%s,"%s":%s}`, q[0], parts[0], q[1], parts[1], q[2], parts[2]))
			_ = i
		}
		// One started, never completed session: completion 4 of 5.
		expectStatus(t, env.Do("POST", "/f/"+token+"/sessions", "", nil), 201)
		r := env.Do("POST", path+"/analytics/generate", key, nil)
		expectStatus(t, r, 200)
		a := r.JSON(t)
		if a["totalResponses"] != 4.0 || a["completionRate"] != 80.0 || a["formId"] != float64(mustInt(path[len("/api/v1/forms/"):])) {
			t.Errorf("figures: %s", r.Body)
		}
		ins := a["insights"].(map[string]any)
		km := ins["keyMetrics"].(map[string]any)
		for _, k := range []string{"responseRate", "topAnswer", "sentiment"} {
			if s, _ := km[k].(string); s == "" {
				t.Errorf("keyMetrics.%s missing: %v", k, km)
			}
		}
		if s, _ := ins["summary"].(string); !strings.Contains(s, "4") {
			t.Errorf("summary does not state the count: %q", s)
		}
		if _, ok := ins["insights"].([]any); !ok {
			t.Errorf("insights.insights: %v", ins)
		}
		if _, ok := ins["recommendations"].([]any); !ok {
			t.Errorf("insights.recommendations: %v", ins)
		}
		if r.Header.Get("X-Credits-Used") != "10" {
			t.Errorf("X-Credits-Used %s", r.Header.Get("X-Credits-Used"))
		}
		got := env.Do("GET", path+"/analytics", key, nil).JSON(t)
		if got["id"] != a["id"] || got["lastAnalyzed"] != a["lastAnalyzed"] {
			t.Errorf("GET differs: %v vs %v", got, a)
		}
		time.Sleep(5 * time.Millisecond)
		submit(t, env, token, fmt.Sprintf(`{"%s":1}`, q[0]))
		again := env.Do("POST", path+"/analytics/generate", key, nil).JSON(t)
		if again["id"] != a["id"] || again["totalResponses"] != 5.0 || again["lastAnalyzed"] == a["lastAnalyzed"] {
			t.Errorf("regeneration must overwrite in place: %v", again)
		}
		if h := history(t, env, key); h["total"] != 2.0 || h["history"].([]any)[0].(map[string]any)["endpoint"] != "analytics.generate" {
			t.Errorf("history %v", h)
		}
	})
}

func TestChatConversations(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d, withAllowances(""))
		key := env.Key(env.Account("builder"), nil, nil)
		path, token, q := publishedForm(t, env, key, `{"title":"Feedback","questions":[
			{"type":"rating","question":"How would you rate us?"},{"type":"yes_no","question":"Would you recommend us?"}]}`)
		for i, r := range []string{"5,true", "4,true", "1,false"} {
			parts := strings.Split(r, ",")
			submit(t, env, token, fmt.Sprintf(`{"%s":%s,"%s":%s}`, q[0], parts[0], q[1], parts[1]))
			_ = i
		}
		c1 := env.Do("POST", path+"/chat", key, nil)
		expectStatus(t, c1, 201)
		conv := c1.JSON(t)
		if conv["formId"] != float64(mustInt(path[len("/api/v1/forms/"):])) || conv["createdAt"] != conv["updatedAt"] {
			t.Errorf("conversation: %s", c1.Body)
		}
		c2 := env.Do("POST", path+"/chat", key, nil).JSON(t)
		cpath := fmt.Sprintf("%s/chat/%v", path, conv["id"])
		time.Sleep(5 * time.Millisecond)
		r := env.Do("POST", cpath+"/messages", key, map[string]any{"message": "How many responses are there?"})
		expectStatus(t, r, 201)
		ex := r.JSON(t)
		user, asst := ex["userMessage"].(map[string]any), ex["assistantMessage"].(map[string]any)
		if user["role"] != "user" || user["message"] != "How many responses are there?" || asst["role"] != "assistant" {
			t.Errorf("exchange: %s", r.Body)
		}
		if !strings.Contains(asst["message"].(string), "3") {
			t.Errorf("answer does not say 3: %q", asst["message"])
		}
		if r.Header.Get("X-Credits-Used") != "2" {
			t.Errorf("X-Credits-Used %s", r.Header.Get("X-Credits-Used"))
		}
		env.Do("POST", cpath+"/messages", key, map[string]any{"message": "What is the average rating?"})
		msgs := env.Do("GET", cpath+"/messages", key, nil).JSON(t)
		list := msgs["messages"].([]any)
		if msgs["total"] != 4.0 || len(list) != 4 || list[0].(map[string]any)["role"] != "user" || list[3].(map[string]any)["role"] != "assistant" {
			t.Errorf("messages: %v", msgs)
		}
		if page := env.Do("GET", cpath+"/messages?limit=1&offset=1", key, nil).JSON(t); page["hasMore"] != true ||
			page["messages"].([]any)[0].(map[string]any)["id"] != list[1].(map[string]any)["id"] {
			t.Errorf("messages page: %v", page)
		}
		convs := env.Do("GET", path+"/chat", key, nil).JSON(t)
		first := convs["conversations"].([]any)[0].(map[string]any)
		if convs["total"] != 2.0 || first["id"] != conv["id"] || first["updatedAt"] == conv["updatedAt"] {
			t.Errorf("conversations by updatedAt: %v", convs)
		}
		expectError(t, env.Do("POST", cpath+"/messages", key, map[string]any{"message": strings.Repeat("a", 5001)}), 400, "validation_error", "message")
		expectError(t, env.Do("POST", cpath+"/messages", key, map[string]any{"message": ""}), 400, "validation_error", "message")
		expectError(t, env.Do("POST", cpath+"/messages", key, map[string]any{"message": "   "}), 400, "validation_error", "message")
		expectError(t, env.Do("POST", cpath+"/messages", key, map[string]any{}), 400, "validation_error", "message")
		for _, bad := range []string{"limit=51", "limit=0", "offset=-1"} {
			expectError(t, env.Do("GET", path+"/chat?"+bad, key, nil), 400, "validation_error", strings.Split(bad, "=")[0])
		}
		expectError(t, env.Do("GET", cpath+"/messages?limit=101", key, nil), 400, "validation_error", "limit")
		expectStatus(t, env.Do("DELETE", fmt.Sprintf("%s/chat/%v", path, c2["id"]), key, nil), 204)
		expectError(t, env.Do("GET", fmt.Sprintf("%s/chat/%v/messages", path, c2["id"]), key, nil), 404, "not_found", "Conversation not found")
		expectError(t, env.Do("POST", path+"/chat/999999/messages", key, map[string]any{"message": "hi"}), 404, "not_found", "Conversation not found")
	})
}
