package respond_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"forma/internal/server/servertest"
	"forma/internal/store"
)

// xssText is owner or respondent text that would run if it reached a page as
// HTML.
const xssText = `<script>alert("xss")</script><img src=x onerror=alert(1)>`

// xssEscaped is how html/template writes xssText: inert.
const xssEscaped = `&lt;script&gt;alert(&#34;xss&#34;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;`

// TestClosedPage: once a form's responses are full, its page is the closed page
// (410) with its message, escaped, a paragraph per line; the HTML form's post is
// refused with the same page and stores nothing; the thank-you page stays.
func TestClosedPage(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		f := createForm(t, env, env.NewKey(), map[string]any{"title": "Workshop", "maxResponses": 1,
			"closedMessage": "All places are taken.\n" + xssText, "questions": []any{map[string]any{"question": "Name"}}}, nil, true)
		_, page := getPage(t, env, f.Share)
		token := startToken(t, page)
		mustStatus(t, postPage(t, env, f.Share, [][2]string{{"_started", token}, {"website", ""}, {f.field(t, "Name"), "Ada"}}), http.StatusOK)

		resp, page := getPage(t, env, f.Share)
		mustStatus(t, resp, http.StatusGone)
		mustContain(t, page, "<title>Workshop</title>", "<p>All places are taken.</p>", "<p>"+xssEscaped+"</p>")
		if strings.Contains(page, "<script>alert") || strings.Contains(page, `id="forma-form"`) {
			t.Errorf("the closed page shows the form or the message as HTML:\n%s", page)
		}
		resp = postPage(t, env, f.Share, [][2]string{{"_started", token}, {"website", ""}, {f.field(t, "Name"), "Grace"}})
		mustStatus(t, resp, http.StatusGone)
		mustContain(t, string(resp.Body), "All places are taken.")
		if n := len(responses(t, env, f.ID)); n != 1 {
			t.Fatalf("%d responses, want 1", n)
		}
		mustStatus(t, env.Do("GET", "/f/"+f.Share+"/thanks", "", nil), http.StatusOK)
	})
}

// TestThankYouPiping: the HTML form's post is redirected to the thank-you page
// naming the response, whose screen pipes its answers, escaped like the owner's
// text around them; the page of another form pipes nothing of it, nor does the
// link after an hour.
func TestThankYouPiping(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		var now atomic.Int64
		now.Store(time.Now().UnixMilli())
		st := servertest.OpenStore(t, d)
		st.Now = func() time.Time { return time.UnixMilli(now.Load()).UTC() }
		env := servertest.Start(t, st)
		key := env.NewKey()
		f := createForm(t, env, key, map[string]any{"title": "RSVP", "questions": []any{
			map[string]any{"question": "Name", "required": true},
			map[string]any{"type": "select", "question": "Meal", "options": []string{"Fish", "Vegan"}}}}, nil, true)
		screen := map[string]any{"title": "Thanks, {{" + fmt.Sprint(f.qid(t, "Name")) + "}}!",
			"message": "You chose {{" + fmt.Sprint(f.qid(t, "Meal")) + "}}.\n" + xssText}
		mustStatus(t, env.Do("PATCH", fmt.Sprintf("/api/v1/forms/%d", f.ID), key, map[string]any{"thankYou": screen}), http.StatusOK)

		_, page := getPage(t, env, f.Share)
		thanks := redirectedTo(t, env, pageRequest(t, env, f.Share, [][2]string{{"_started", startToken(t, page)}, {"website", ""},
			{f.field(t, "Name"), xssText}, {f.field(t, "Meal"), "Vegan"}}))
		if !strings.HasPrefix(thanks, "/f/"+f.Share+"/thanks?response=") {
			t.Fatalf("the post led to %s, want the thank-you page naming the response", thanks)
		}
		resp := env.Do("GET", thanks, "", nil)
		mustStatus(t, resp, http.StatusOK)
		body := string(resp.Body)
		mustContain(t, body, "Thanks, "+xssEscaped+"!", "You chose Vegan.\n"+xssEscaped)
		if strings.Contains(body, "<script>alert") || strings.Contains(body, "has been recorded") {
			t.Errorf("thank-you page:\n%s", body)
		}

		other := createForm(t, env, key, map[string]any{"title": "Other", "questions": []any{map[string]any{"question": "Name"}},
			"thankYou": map[string]any{"title": "Bye"}}, nil, true)
		resp = env.Do("GET", strings.Replace(thanks, f.Share, other.Share, 1), "", nil)
		mustStatus(t, resp, http.StatusOK)
		if strings.Contains(string(resp.Body), "Vegan") || !strings.Contains(string(resp.Body), "Bye") {
			t.Errorf("another form's thank-you page with this response:\n%s", resp.Body)
		}

		now.Add((time.Hour + time.Second).Milliseconds())
		resp = env.Do("GET", thanks, "", nil)
		mustStatus(t, resp, http.StatusOK)
		mustContain(t, string(resp.Body), "Thanks, !", "You chose .")
	})
}

// redirectedTo sends req without following redirects and returns where its 303
// leads.
func redirectedTo(t *testing.T, env *servertest.Env, req *http.Request) string {
	t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("status %d, want 303", resp.StatusCode)
	}
	return resp.Header.Get("Location")
}

// TestThankYouRedirect: with a redirect, the HTML form's post is answered 303 to
// the owner's URL with the chosen answers URL-encoded after its own query, and
// the page's policy lets the form post lead there.
func TestThankYouRedirect(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		got := make(chan url.Values, 1)
		receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			got <- r.URL.Query()
			fmt.Fprint(w, "welcome")
		}))
		defer receiver.Close()
		env := servertest.New(t, d)
		key := env.NewKey()
		f := createForm(t, env, key, map[string]any{"title": "Trial", "questions": []any{
			map[string]any{"question": "Name", "required": true}, map[string]any{"question": "Company"}}}, nil, true)
		params := []any{map[string]any{"questionId": f.qid(t, "Name"), "name": "who"}, map[string]any{"questionId": f.qid(t, "Company"), "name": "org"}}
		mustStatus(t, env.Do("PATCH", fmt.Sprintf("/api/v1/forms/%d", f.ID), key, map[string]any{"thankYou": map[string]any{
			"redirectUrl": receiver.URL + "/welcome?src=forma", "redirectParams": params}}), http.StatusOK)

		resp, page := getPage(t, env, f.Share)
		if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "form-action 'self' "+receiver.URL+";") {
			t.Errorf("policy %q does not let the form lead to %s", csp, receiver.URL)
		}
		resp = postPage(t, env, f.Share, [][2]string{{"_started", startToken(t, page)}, {"website", ""},
			{f.field(t, "Name"), "Ada & Co = \"x\"#1"}})
		mustStatus(t, resp, http.StatusOK)
		if string(resp.Body) != "welcome" {
			t.Fatalf("the post did not lead to the redirect URL: %s", resp.Body)
		}
		q := <-got
		if q.Get("src") != "forma" || q.Get("who") != `Ada & Co = "x"#1` || q.Has("org") {
			t.Errorf("the redirect carried %v", q)
		}
		if n := len(responses(t, env, f.ID)); n != 1 {
			t.Fatalf("%d responses, want 1", n)
		}
	})
}
