package dashboard_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"forma/internal/server/servertest"
	"forma/internal/store"
)

// apiForm creates a form of one required text question through the API with key
// and returns its share token and the question's id; publish publishes it.
func apiForm(t *testing.T, env *servertest.Env, key, title string, publish bool) (string, string) {
	t.Helper()
	r := env.For(t).Do("POST", "/api/v1/forms", key, map[string]any{"title": title,
		"questions": []map[string]any{{"type": "text", "question": "Name", "required": true}}})
	if r.Status != http.StatusCreated {
		t.Fatalf("create form: %d %s", r.Status, r.Body)
	}
	f := r.JSON(t)
	id, share := int(f["id"].(float64)), f["shareUrl"].(string)
	question := fmt.Sprint(f["questions"].([]any)[0].(map[string]any)["id"])
	if publish {
		if r := env.For(t).Do("POST", fmt.Sprintf("/api/v1/forms/%d/publish", id), key, nil); r.Status != http.StatusOK {
			t.Fatalf("publish: %d %s", r.Status, r.Body)
		}
	}
	return share, question
}

// TestFormsPage: the forms page lists the account's own forms, newest first, with
// their state, response count and last response; titles are escaped; other
// accounts' forms are not there; an empty account gets directions.
func TestFormsPage(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		ada := withPassword(t, env, "ada@example.com", password)
		withPassword(t, env, "bob@example.com", password)
		adaKey, bobKey := env.Key(ada, nil, nil), env.Key(mustAccount(t, env, "bob@example.com"), nil, nil)

		bob := newBrowser(t, env)
		bob.signIn("bob@example.com", password)
		if p := bob.get("/forms"); p.Status != http.StatusOK || !strings.Contains(p.Body, "No forms yet") {
			t.Fatalf("empty forms page: %d\n%s", p.Status, p.Body)
		}

		const xss = `<script>alert(1)</script>`
		apiForm(t, env, adaKey, "Draft "+xss, false)
		share, question := apiForm(t, env, adaKey, "Live survey", true)
		for _, name := range []string{"Ada", "Grace"} {
			r := env.For(t).Do("POST", "/f/"+share+"/submissions", "", map[string]any{"answers": map[string]any{question: name}})
			if r.Status != http.StatusCreated {
				t.Fatalf("submit: %d %s", r.Status, r.Body)
			}
		}
		apiForm(t, env, bobKey, "Bob's private form", true)

		a := newBrowser(t, env)
		a.signIn("ada@example.com", password)
		p := a.get("/forms")
		if p.Status != http.StatusOK {
			t.Fatalf("forms page: %d\n%s", p.Status, p.Body)
		}
		live, draft := strings.Index(p.Body, "Live survey"), strings.Index(p.Body, "Draft &lt;script&gt;")
		for _, want := range []string{"2 forms", "Published", "Draft", env.URL + "/f/" + share, "<dd>2</dd>", "None yet"} {
			if !strings.Contains(p.Body, want) {
				t.Errorf("the forms page lacks %q", want)
			}
		}
		if live < 0 || draft < 0 || live > draft {
			t.Errorf("forms not listed newest first (live at %d, draft at %d)", live, draft)
		}
		if strings.Contains(p.Body, xss) || strings.Contains(p.Body, "Bob&#39;s private form") || strings.Contains(p.Body, "Bob's private form") {
			t.Errorf("the page shows raw markup or another account's form:\n%s", p.Body)
		}
		for _, bad := range []string{"0", "-1", "01", "x"} {
			if p := a.get("/forms?page=" + bad); p.Status != http.StatusBadRequest {
				t.Errorf("page=%s: status %d, want 400", bad, p.Status)
			}
		}
		if p := a.get("/forms?page=2"); p.Status != http.StatusOK || !strings.Contains(p.Body, "no forms on this page") {
			t.Errorf("a page past the end: %d", p.Status)
		}
	})
}

// mustAccount finds an account by email.
func mustAccount(t *testing.T, env *servertest.Env, email string) *store.Account {
	t.Helper()
	a, err := env.Store.AccountByEmail(t.Context(), email)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
