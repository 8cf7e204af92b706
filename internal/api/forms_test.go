package api_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"forma/internal/config"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

var timestampRE = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)

// expectStatus fails the test unless the response has the status.
func expectStatus(t *testing.T, r *servertest.Response, status int) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d; body: %s", r.Status, status, r.Body)
	}
}

// expectError checks an error response: status, error code, and a message that
// names the given text (usually the field).
func expectError(t *testing.T, r *servertest.Response, status int, code, mentions string) {
	t.Helper()
	expectStatus(t, r, status)
	body := r.JSON(t)
	if body["error"] != code {
		t.Errorf("error %v, want %s; body: %s", body["error"], code, r.Body)
	}
	msg, _ := body["message"].(string)
	if msg == "" || !strings.Contains(msg, mentions) {
		t.Errorf("message %q does not mention %q", msg, mentions)
	}
}

func createForm(t *testing.T, env *servertest.Env, key string, body any) map[string]any {
	t.Helper()
	r := env.Do("POST", "/api/v1/forms", key, body)
	expectStatus(t, r, http.StatusCreated)
	return r.JSON(t)
}

func id(v any) string { return fmt.Sprint(int64(v.(float64))) }

func TestCreateFormShape(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		f := createForm(t, env, key, map[string]any{
			"title": "Job application", "description": "Apply here", "displayMode": "multi-step",
			"questions": []any{
				map[string]any{"type": "text", "question": "Name", "required": true},
				map[string]any{"question": "Nickname"},
				map[string]any{"type": "select", "question": "Role", "options": []string{"Dev", "Ops"}},
				map[string]any{"type": "slider", "question": "Fit", "sliderConfig": map[string]any{"min": 0, "max": 10, "step": 0.5}},
				map[string]any{"type": "currency", "question": "Salary", "currencyConfig": map[string]any{"currency": "EUR", "min": 0}},
			},
		})
		if f["title"] != "Job application" || f["description"] != "Apply here" || f["displayMode"] != "multi-step" {
			t.Errorf("metadata: %v", f)
		}
		if f["isPublished"] != false || f["publishedAt"] != nil {
			t.Errorf("new form must be unpublished: %v %v", f["isPublished"], f["publishedAt"])
		}
		share, _ := f["shareUrl"].(string)
		if len(share) < 10 || f["url"] != env.URL+"/f/"+share {
			t.Errorf("shareUrl %q url %v", share, f["url"])
		}
		if !timestampRE.MatchString(f["createdAt"].(string)) {
			t.Errorf("createdAt %v is not RFC 3339 UTC with milliseconds", f["createdAt"])
		}
		wh := f["webhook"].(map[string]any)
		if wh["enabled"] != false || wh["url"] != nil {
			t.Errorf("webhook %v", wh)
		}
		qs := f["questions"].([]any)
		if len(qs) != 5 {
			t.Fatalf("%d questions", len(qs))
		}
		for i, q := range qs {
			if q.(map[string]any)["order"] != float64(i+1) {
				t.Errorf("question %d has order %v", i, q.(map[string]any)["order"])
			}
		}
		nick := qs[1].(map[string]any)
		if nick["type"] != "text" || nick["required"] != false || nick["options"] != nil {
			t.Errorf("defaults: %v", nick)
		}
		if _, ok := nick["sliderConfig"]; ok {
			t.Error("sliderConfig present on a text question")
		}
		role := qs[2].(map[string]any)
		if fmt.Sprint(role["options"]) != "[Dev Ops]" {
			t.Errorf("options %v", role["options"])
		}
		if fmt.Sprint(qs[3].(map[string]any)["sliderConfig"]) != "map[max:10 min:0 step:0.5]" {
			t.Errorf("sliderConfig %v", qs[3].(map[string]any)["sliderConfig"])
		}
		if fmt.Sprint(qs[4].(map[string]any)["currencyConfig"]) != "map[currency:EUR min:0]" {
			t.Errorf("currencyConfig %v", qs[4].(map[string]any)["currencyConfig"])
		}
		got := env.Do("GET", "/api/v1/forms/"+id(f["id"]), key, nil)
		expectStatus(t, got, http.StatusOK)
		if string(got.Body) != string(mustBody(t, env, key, f)) {
			t.Errorf("GET differs from create:\n%s\n%s", got.Body, mustBody(t, env, key, f))
		}
	})
}

// mustBody re-reads a form, to compare two reads byte for byte.
func mustBody(t *testing.T, env *servertest.Env, key string, f map[string]any) []byte {
	return env.Do("GET", "/api/v1/forms/"+id(f["id"]), key, nil).Body
}

func TestListFormsNewestFirstWithPagination(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		other := env.NewKey()
		createForm(t, env, other, map[string]any{"title": "not mine"})
		for i := 1; i <= 5; i++ {
			createForm(t, env, key, map[string]any{"title": fmt.Sprintf("F%d", i)})
		}
		r := env.Do("GET", "/api/v1/forms?limit=2&offset=1", key, nil)
		expectStatus(t, r, http.StatusOK)
		body := r.JSON(t)
		forms := body["forms"].([]any)
		if body["total"] != 5.0 || body["hasMore"] != true || body["limit"] != 2.0 || body["offset"] != 1.0 || len(forms) != 2 {
			t.Fatalf("envelope: %s", r.Body)
		}
		if forms[0].(map[string]any)["title"] != "F4" || forms[1].(map[string]any)["title"] != "F3" {
			t.Errorf("order: %s", r.Body)
		}
		if _, ok := forms[0].(map[string]any)["questions"]; ok {
			t.Error("list items must not carry questions")
		}
		last := env.Do("GET", "/api/v1/forms?offset=4", key, nil).JSON(t)
		if last["hasMore"] != false || len(last["forms"].([]any)) != 1 || last["limit"] != 50.0 {
			t.Errorf("last page: %v", last)
		}
		for _, q := range []string{"limit=0", "limit=101", "limit=x", "offset=-1", "offset=1.5"} {
			field := strings.Split(q, "=")[0]
			expectError(t, env.Do("GET", "/api/v1/forms?"+q, key, nil), 400, "validation_error", field)
		}
	})
}

func TestPublishAndUnpublishAreIdempotent(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		f := createForm(t, env, key, map[string]any{"title": "P"})
		path := "/api/v1/forms/" + id(f["id"])
		first := env.Do("POST", path+"/publish", key, nil)
		expectStatus(t, first, 200)
		p1 := first.JSON(t)
		if p1["isPublished"] != true || !timestampRE.MatchString(fmt.Sprint(p1["publishedAt"])) || p1["url"] != f["url"] || p1["id"] != f["id"] {
			t.Fatalf("publish body: %s", first.Body)
		}
		time.Sleep(5 * time.Millisecond)
		p2 := env.Do("POST", path+"/publish", key, nil).JSON(t)
		if p2["publishedAt"] != p1["publishedAt"] {
			t.Errorf("second publish moved publishedAt: %v -> %v", p1["publishedAt"], p2["publishedAt"])
		}
		for range 2 {
			u := env.Do("POST", path+"/unpublish", key, nil)
			expectStatus(t, u, 200)
			if string(u.Body) != `{"id":`+id(f["id"])+`,"isPublished":false,"publishedAt":null}`+"\n" {
				t.Errorf("unpublish body: %s", u.Body)
			}
		}
		g := env.Do("GET", path, key, nil).JSON(t)
		if g["isPublished"] != false || g["publishedAt"] != nil {
			t.Errorf("after unpublish: %v", g)
		}
		// A body on a body-less POST is ignored when empty.
		expectStatus(t, env.Do("POST", path+"/publish", key, ""), 200)
	})
}

func TestUpdateForm(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		f := createForm(t, env, key, map[string]any{"title": "Old", "questions": []any{map[string]any{"question": "Q"}}})
		path := "/api/v1/forms/" + id(f["id"])
		r := env.Do("PATCH", path, key, map[string]any{"title": "New", "description": "D", "displayMode": "multi-step"})
		expectStatus(t, r, 200)
		body := r.JSON(t)
		if body["title"] != "New" || body["description"] != "D" || body["displayMode"] != "multi-step" {
			t.Errorf("patched: %s", r.Body)
		}
		if _, ok := body["questions"]; ok {
			t.Error("update-form response must not carry questions")
		}
		if _, ok := body["webhook"]; !ok {
			t.Error("update-form response must carry webhook")
		}
		// A failed PATCH changes nothing.
		expectError(t, env.Do("PATCH", path, key, map[string]any{"title": "Newer", "displayMode": "carousel"}), 400, "validation_error", "displayMode")
		if g := env.Do("GET", path, key, nil).JSON(t); g["title"] != "New" {
			t.Errorf("failed PATCH left title %v", g["title"])
		}
	})
}

func TestWebhookSettingTransitions(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		f := createForm(t, env, key, map[string]any{"title": "W"})
		path := "/api/v1/forms/" + id(f["id"])
		webhook := func(body map[string]any) map[string]any {
			t.Helper()
			r := env.Do("PATCH", path, key, body)
			expectStatus(t, r, 200)
			return r.JSON(t)["webhook"].(map[string]any)
		}
		expectError(t, env.Do("PATCH", path, key, map[string]any{"webhookEnabled": true}), 400, "validation_error", "webhookEnabled")
		if w := webhook(map[string]any{"webhookUrl": "https://hooks.example.com/a", "webhookEnabled": true}); w["enabled"] != true || w["url"] != "https://hooks.example.com/a" {
			t.Errorf("enable with URL in same request: %v", w)
		}
		if w := webhook(map[string]any{"webhookEnabled": false}); w["enabled"] != false || w["url"] != "https://hooks.example.com/a" {
			t.Errorf("disable keeps URL: %v", w)
		}
		if w := webhook(map[string]any{"webhookEnabled": true}); w["enabled"] != true {
			t.Errorf("enable with stored URL: %v", w)
		}
		if w := webhook(map[string]any{"webhookUrl": ""}); w["enabled"] != false || w["url"] != nil {
			t.Errorf("empty URL clears and disables: %v", w)
		}
		webhook(map[string]any{"webhookUrl": "https://hooks.example.com/b", "webhookEnabled": true})
		if w := webhook(map[string]any{"webhookUrl": nil}); w["enabled"] != false || w["url"] != nil {
			t.Errorf("null URL clears and disables: %v", w)
		}
		for _, bad := range []string{"ftp://example.com/x", "http://127.0.0.1/x", "http://localhost:8080/", "http://10.0.0.1/",
			"http://192.168.1.1/", "http://172.16.0.1/", "http://[::1]/", "http://169.254.169.254/latest", "not a url",
			"https://example.com/" + strings.Repeat("a", 2000)} {
			expectError(t, env.Do("PATCH", path, key, map[string]any{"webhookUrl": bad}), 400, "validation_error", "webhookUrl")
		}
		expectError(t, env.Do("PATCH", path, key, map[string]any{"webhookUrl": 5}), 400, "validation_error", "webhookUrl")
		expectError(t, env.Do("PATCH", path, key, map[string]any{}), 400, "validation_error", "at least one")
	})
}

func TestPrivateWebhooksAllowedInDevelopment(t *testing.T) {
	env := servertest.Start(t, servertest.OpenStore(t, store.SQLite), func(c *config.Config) { c.AllowPrivateWebhooks = true })
	key := env.NewKey()
	f := createForm(t, env, key, map[string]any{"title": "W"})
	r := env.Do("PATCH", "/api/v1/forms/"+id(f["id"]), key, map[string]any{"webhookUrl": "http://127.0.0.1:9000/hook"})
	expectStatus(t, r, 200)
}

func TestDeleteForm(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		f := createForm(t, env, key, map[string]any{"title": "D", "questions": []any{map[string]any{"question": "Q"}}})
		path := "/api/v1/forms/" + id(f["id"])
		r := env.Do("DELETE", path, key, nil)
		expectStatus(t, r, http.StatusNoContent)
		if len(r.Body) != 0 {
			t.Errorf("204 with body %q", r.Body)
		}
		expectError(t, env.Do("GET", path, key, nil), 404, "not_found", "Form not found")
		expectError(t, env.Do("DELETE", path, key, nil), 404, "not_found", "Form not found")
	})
}
