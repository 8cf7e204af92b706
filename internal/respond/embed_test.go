package respond_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"forma/internal/server/servertest"
	"forma/internal/store"
)

// TestEmbedPage: ?embed=1 gives the page of an iframe — marked for the page
// script, without the footer — and keeps it through a post without JavaScript,
// its errors and its thank-you page. Any site may frame a page unless its form
// names frame ancestors; then only they (and Forma itself) may, on the form's
// page, its thank-you page and its closed page alike.
func TestEmbedPage(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		f := createForm(t, env, key, map[string]any{"title": "Hello", "questions": []any{
			map[string]any{"type": "text", "question": "Name", "required": true}}}, nil, true)

		plain := env.Do("GET", "/f/"+f.Share, "", nil)
		mustStatus(t, plain, http.StatusOK)
		mustContain(t, string(plain.Body), "Powered by Forma", `action="/f/`+f.Share+`/submissions"`)
		if csp := plain.Header.Get("Content-Security-Policy"); !strings.HasSuffix(csp, "frame-ancestors *") {
			t.Errorf("policy %q: any site should frame the page", csp)
		}
		r := env.Do("GET", "/f/"+f.Share+"?embed=1", "", nil)
		mustStatus(t, r, http.StatusOK)
		page := string(r.Body)
		mustContain(t, page, `action="/f/`+f.Share+`/submissions?embed=1"`)
		mustMatch(t, page, `<html lang="en"[^>]* data-embed>`)
		if strings.Contains(page, "Powered by Forma") {
			t.Error("the embedded page has the footer")
		}

		// Without JavaScript: the errors, then the thank-you page, stay embedded.
		req := pageRequest(t, env, f.Share, [][2]string{{"_started", startToken(t, page)}, {"website", ""}})
		req.URL.RawQuery = "embed=1"
		errs := env.Send(req)
		mustStatus(t, errs, http.StatusBadRequest)
		mustContain(t, string(errs.Body), "data-embed", "There is a problem")
		req = pageRequest(t, env, f.Share, [][2]string{{"_started", startToken(t, page)}, {"website", ""}, {f.field(t, "Name"), "Ada"}})
		req.URL.RawQuery = "embed=1"
		if to := redirectedTo(t, env, req); to != "/f/"+f.Share+"/thanks?embed=1" {
			t.Errorf("redirected to %q", to)
		}
		thanks := env.Do("GET", "/f/"+f.Share+"/thanks?embed=1", "", nil)
		mustContain(t, string(thanks.Body), "data-embed", `href="/f/`+f.Share+`?embed=1"`)

		origins := []string{"https://shop.example.com", "http://localhost:3000"}
		mustStatus(t, env.Do("PATCH", formURL(f), key, map[string]any{"frameAncestors": origins}), http.StatusOK)
		want := "frame-ancestors 'self' https://shop.example.com http://localhost:3000"
		for _, path := range []string{"", "?embed=1", "/thanks"} {
			if csp := env.Do("GET", "/f/"+f.Share+path, "", nil).Header.Get("Content-Security-Policy"); !strings.HasSuffix(csp, want) {
				t.Errorf("%s: policy %q, want it to end with %q", path, csp, want)
			}
		}
		mustStatus(t, env.Do("PATCH", formURL(f), key, map[string]any{"maxResponses": 1}), http.StatusOK)
		closed := env.Do("GET", "/f/"+f.Share+"?embed=1", "", nil)
		mustStatus(t, closed, http.StatusGone)
		if csp := closed.Header.Get("Content-Security-Policy"); !strings.HasSuffix(csp, want) {
			t.Errorf("closed page: policy %q", csp)
		}
		mustContain(t, string(closed.Body), "data-embed")
	})
}

// formURL is the API address of f.
func formURL(f *testForm) string {
	return "/api/v1/forms/" + strconv.FormatInt(f.ID, 10)
}

// TestEmbedScript: /embed.js is served as a script other sites may load,
// revalidated by its ETag since its address has no version.
func TestEmbedScript(t *testing.T) {
	env := servertest.New(t, store.SQLite)
	r := env.Do("GET", "/embed.js", "", nil)
	mustStatus(t, r, http.StatusOK)
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/javascript") {
		t.Errorf("Content-Type %q", ct)
	}
	if r.Header.Get("ETag") == "" || r.Header.Get("Cache-Control") != "public, no-cache" {
		t.Errorf("caching: ETag %q, Cache-Control %q", r.Header.Get("ETag"), r.Header.Get("Cache-Control"))
	}
	mustContain(t, string(r.Body), "data-forma-embed", "forma:height", "e.origin !== origin")
}
