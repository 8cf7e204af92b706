package respond_test

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"forma/internal/config"
	"forma/internal/respond"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

const expiredText = "This page has expired. Please check your answers and submit again."

// nameForm publishes a one-question form for the page tests.
func nameForm(t *testing.T, env *servertest.Env) *testForm {
	return createForm(t, env, env.NewKey(), map[string]any{"title": "Hello", "questions": []any{
		map[string]any{"type": "text", "question": "Name", "required": true}}}, nil, true)
}

// TestPageStartTokenExpires: a form shown more than 24 hours ago asks for the
// submission again, with the answers kept.
func TestPageStartTokenExpires(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		f := nameForm(t, env)
		secret, err := env.Store.Secret(t.Context(), "links")
		if err != nil {
			t.Fatal(err)
		}
		old := respond.StartTokenAt(secret, f.Share, time.Now().Add(-25*time.Hour))
		resp := postPage(t, env, f.Share, [][2]string{{"_started", old}, {"website", ""}, {f.field(t, "Name"), "Ada Lovelace"}})
		mustStatus(t, resp, http.StatusBadRequest)
		mustContain(t, string(resp.Body), expiredText, `value="Ada Lovelace"`, `id="forma-form"`)
		if n := len(responses(t, env, f.ID)); n != 0 {
			t.Fatalf("%d responses recorded", n)
		}
		// The re-rendered page carries a fresh token that works.
		resp = postPage(t, env, f.Share, [][2]string{{"_started", startToken(t, string(resp.Body))}, {"website", ""}, {f.field(t, "Name"), "Ada Lovelace"}})
		mustStatus(t, resp, http.StatusOK)
		mustContain(t, string(resp.Body), "Thank you!")
	})
}

// TestPageStartTokenIsSingleUse: the token of a successful submission cannot be
// used again; a failed attempt does not use it up.
func TestPageStartTokenIsSingleUse(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		f := nameForm(t, env)
		_, page := getPage(t, env, f.Share)
		token := startToken(t, page)
		mustStatus(t, postPage(t, env, f.Share, [][2]string{{"_started", token}, {"website", ""}}), http.StatusBadRequest)
		post := [][2]string{{"_started", token}, {"website", ""}, {f.field(t, "Name"), "Ada"}}
		mustStatus(t, postPage(t, env, f.Share, post), http.StatusOK)
		resp := postPage(t, env, f.Share, post)
		mustStatus(t, resp, http.StatusBadRequest)
		mustContain(t, string(resp.Body), expiredText, `value="Ada"`)
		if n := len(responses(t, env, f.ID)); n != 1 {
			t.Fatalf("%d responses recorded, want 1", n)
		}
	})
}

// TestPageRefusesCrossOriginPosts: the no-JS post is refused (403 page) when the
// browser says it comes from another site; posts from the server's own origin
// (its pages, and embeds, which are iframes of them) pass.
func TestPageRefusesCrossOriginPosts(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d, func(c *config.Config) { c.PublicURL = "https://forms.example.com" })
		f := nameForm(t, env)
		_, page := getPage(t, env, f.Share)
		send := func(header, value string) *servertest.Response {
			body := fmt.Sprintf("_started=%s&website=&%s=Ada", startToken(t, page), f.field(t, "Name"))
			req, _ := http.NewRequest("POST", env.URL+"/f/"+f.Share+"/submissions", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set(header, value)
			return env.Send(req)
		}
		for _, h := range [][2]string{{"Origin", "https://evil.example"}, {"Origin", "null"}, {"Sec-Fetch-Site", "cross-site"}} {
			resp := send(h[0], h[1])
			mustStatus(t, resp, http.StatusForbidden)
			mustContain(t, string(resp.Body), "<title>Submission refused</title>", "from another website")
		}
		if n := len(responses(t, env, f.ID)); n != 0 {
			t.Fatalf("%d responses recorded", n)
		}
		mustStatus(t, send("Origin", "https://forms.example.com"), http.StatusOK)
		_, page = getPage(t, env, f.Share)
		mustStatus(t, send("Sec-Fetch-Site", "same-origin"), http.StatusOK)
	})
}

// TestPageBadMultipart: a body that does not match its boundary is a 400 page;
// too large a body stays a 413.
func TestPageBadMultipart(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d, func(c *config.Config) { c.MaxUploadMB = 1 })
		f := createForm(t, env, env.NewKey(), map[string]any{"title": "CV", "questions": []any{
			map[string]any{"type": "file_upload", "question": "Resume"}}}, nil, true)
		post := func(ctype string, body []byte) *servertest.Response {
			req, _ := http.NewRequest("POST", env.URL+"/f/"+f.Share+"/submissions", bytes.NewReader(body))
			req.Header.Set("Content-Type", ctype)
			return env.Send(req)
		}
		for _, ctype := range []string{"multipart/form-data; boundary=nothere", "multipart/form-data"} {
			resp := post(ctype, []byte("--zzz\r\nContent-Disposition: form-data; name=\"website\"\r\n\r\n\r\n--zzz--\r\n"))
			mustStatus(t, resp, http.StatusBadRequest)
			mustContain(t, string(resp.Body), "The submission could not be read. Please try again.")
			if strings.Contains(string(resp.Body), "too large") {
				t.Errorf("%s: a broken body is said to be too large", ctype)
			}
		}
		_, page := getPage(t, env, f.Share)
		resp := postPage(t, env, f.Share, [][2]string{{"_started", startToken(t, page)}, {"website", ""}},
			upload{field: f.field(t, "Resume"), name: "big.txt", body: bytes.Repeat([]byte("a"), 3<<20)})
		mustStatus(t, resp, http.StatusRequestEntityTooLarge)
		mustContain(t, string(resp.Body), "too large")
	})
}
