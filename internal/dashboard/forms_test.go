package dashboard_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
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

// TestDuplicateFormPage: Duplicate on the editor makes a draft copy with the same
// details, questions and settings, its rule naming the copied question, a new
// share link and no responses, and opens it; another account's form and a
// cross-site post copy nothing.
func TestDuplicateFormPage(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		b := newBuilder(t, env, "ada@example.com", "Team offsite")
		b.change("/questions", url.Values{"type": {"select"}, "question": {"Meal"}, "options": {"Fish\nMeat\nVegan"}, "required": {"on"}})
		b.change("/questions", url.Values{"type": {"file_upload"}, "question": {"Dietary certificate"}})
		b.change("/questions", url.Values{"type": {"slider"}, "question": {"Excited?"}, "sliderMin": {"0"}, "sliderMax": {"10"}, "sliderStep": {"0.5"}})
		orig, _ := b.stored()
		meal, cert := orig.Questions[0].ID, orig.Questions[1].ID
		b.change(b.qpath(cert, "/logic"), url.Values{"for": {fmt.Sprint(meal)}, "target": {fmt.Sprint(meal)}, "operator": {"equals"},
			"value": {"Vegan"}, "action": {"save"}})
		b.change("/publish", nil)
		orig, _ = b.stored()
		if p := b.get(b.path); !strings.Contains(p.Body, `action="`+b.path+`/duplicate"`) || !strings.Contains(p.Body, `href="`+b.path+`/delete"`) {
			t.Errorf("the editor lacks Duplicate or Delete")
		}
		bob, _ := signedInOwner(t, env, "bob@example.com")
		if p := bob.post(b.path+"/duplicate", nil); p.Status != http.StatusNotFound {
			t.Errorf("bob duplicated ada's form: %d", p.Status)
		}
		if p := b.post(b.path+"/duplicate", nil, "Sec-Fetch-Site", "cross-site"); p.Status != http.StatusForbidden {
			t.Errorf("a cross-site duplicate: %d", p.Status)
		}
		if r := env.For(t).Do("GET", "/api/v1/forms", b.key, nil); r.JSON(t)["total"].(float64) != 1 {
			t.Fatalf("a refused duplicate made a form: %s", r.Body)
		}

		p := b.post(b.path+"/duplicate", nil)
		c := &builder{browser: b.browser, t: t, env: env, key: b.key}
		if _, err := fmt.Sscanf(p.Location, "/forms/%d?done=duplicated", &c.id); p.Status != http.StatusSeeOther || err != nil {
			t.Fatalf("duplicate: %d %q\n%s", p.Status, p.Location, p.Body)
		}
		if p := b.get(p.Location); !strings.Contains(p.Body, "This is the copy, as a draft.") || !strings.Contains(p.Body, "<h1 class=\"page-title wrap\">Copy of Team offsite</h1>") {
			t.Errorf("the copy's editor:\n%s", p.Body)
		}
		cp, raw := c.stored()
		if cp.Title != "Copy of Team offsite" || cp.Description != orig.Description || cp.DisplayMode != orig.DisplayMode || cp.IsPublished ||
			len(cp.Questions) != len(orig.Questions) {
			t.Fatalf("copy %+v of %+v", cp, orig)
		}
		for i, q := range cp.Questions {
			o := orig.Questions[i]
			if q.ID == o.ID || q.Type != o.Type || q.Question != o.Question || q.Required != o.Required ||
				fmt.Sprint(q.Options, q.SliderConfig) != fmt.Sprint(o.Options, o.SliderConfig) {
				t.Errorf("question %d: %+v, original %+v", i, q, o)
			}
		}
		want := fmt.Sprintf(`{"showIf":{"questionId":%d,"operator":"equals","value":"Vegan"}}`, cp.Questions[0].ID)
		if got := string(cp.Questions[1].ConditionalLogic); got != want {
			t.Errorf("copied rule %s, want %s", got, want)
		}
		_, origRaw := b.stored()
		if shareOf(t, raw) == shareOf(t, origRaw) {
			t.Errorf("the copy has the original's share link")
		}
	})
}

// shareOf is the shareUrl of a form as the API answers it.
func shareOf(t *testing.T, raw string) string {
	t.Helper()
	var f struct{ ShareURL string }
	if err := json.Unmarshal([]byte(raw), &f); err != nil || f.ShareURL == "" {
		t.Fatalf("no share URL in %s", raw)
	}
	return f.ShareURL
}

// TestDeleteFormPage: Delete asks first and says what goes with the form
// (responses, files, scoped keys); another account and a cross-site post delete
// nothing; the post deletes the form, its responses and its stored files, as
// the API's DELETE.
func TestDeleteFormPage(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		b, key := signedInOwner(t, env, "ada@example.com")
		s := newSurvey(t, env, key, "Applications <i>2026</i>", text, map[string]any{"type": "file_upload", "question": "CV"})
		s.submit(t, env, map[int]any{0: "Hire me", 1: upload(t, env, s.Share, "cv.txt", []byte("my life"))})
		s.submit(t, env, map[int]any{0: "Me too"})
		env.Key(mustAccount(t, env, "ada@example.com"), nil, &s.ID)
		uploads := filepath.Join(env.Config.DataDir, "uploads")
		path := fmt.Sprintf("/forms/%d/delete", s.ID)
		api := fmt.Sprintf("/api/v1/forms/%d", s.ID)

		p := b.get(path)
		for _, want := range []string{"Delete this form?", "Applications &lt;i&gt;2026&lt;/i&gt;", "<li>2 responses</li>",
			"<li>1 uploaded file (7 bytes)</li>", "<li>1 API key limited to this form</li>", "Its link stops working at once.",
			`<form method="post" action="` + path + `">`} {
			if !strings.Contains(p.Body, want) {
				t.Errorf("the confirmation lacks %q", want)
			}
		}
		bob, _ := signedInOwner(t, env, "bob@example.com")
		for i, p := range []page{bob.get(path), bob.post(path, nil), b.post(path, nil, "Sec-Fetch-Site", "cross-site")} {
			if want := []int{http.StatusNotFound, http.StatusNotFound, http.StatusForbidden}[i]; p.Status != want {
				t.Errorf("refused delete %d: %d, want %d", i, p.Status, want)
			}
		}
		if r := env.For(t).Do("GET", api, key, nil); r.Status != http.StatusOK || countFiles(t, uploads) != 1 {
			t.Fatalf("a refused delete removed the form (%d) or its file", r.Status)
		}

		p = b.post(path, nil)
		if p.Status != http.StatusSeeOther || p.Location != "/forms?deleted=1" {
			t.Fatalf("delete: %d %s\n%s", p.Status, p.Location, p.Body)
		}
		if p := b.get(p.Location); !strings.Contains(p.Body, "The form was deleted") || !strings.Contains(p.Body, "No forms yet") {
			t.Errorf("the forms page after the delete:\n%s", p.Body)
		}
		if r := env.For(t).Do("GET", api, key, nil); r.Status != http.StatusNotFound {
			t.Errorf("the API still finds the form: %d", r.Status)
		}
		if n := countFiles(t, uploads); n != 0 {
			t.Errorf("%d stored files after the delete", n)
		}
		if p := b.get(path); p.Status != http.StatusNotFound {
			t.Errorf("confirming the deletion of a deleted form: %d", p.Status)
		}
	})
}
