package dashboard_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"forma/internal/form"
	"forma/internal/quota"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// shownKey finds the full key on a page.
var shownKey = regexp.MustCompile(`forma_sk_live_[A-Za-z0-9_-]+`)

// createKey creates a key through the page and returns the key it shows.
func (b *browser) createKey(vals url.Values) string {
	b.t.Helper()
	p := b.post("/keys", vals)
	key := shownKey.FindString(p.Body)
	if p.Status != http.StatusCreated || key == "" {
		b.t.Fatalf("create key %v: %d\n%s", vals, p.Status, p.Body)
	}
	if cc := p.Header.Get("Cache-Control"); cc != "no-store" {
		b.t.Errorf("the new key's page is Cache-Control %q", cc)
	}
	return key
}

// keysOf lists acct's keys from the store.
func keysOf(t *testing.T, env *servertest.Env, acct *store.Account) []store.KeyStatus {
	t.Helper()
	keys, err := env.Store.ListKeys(context.Background(), acct.ID, quota.Day(env.Store.Now()))
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// apiStatus is the status of GET /api/v1/forms with key.
func apiStatus(env *servertest.Env, key string) int {
	return env.Do(http.MethodGet, "/api/v1/forms", key, nil).Status
}

func TestCreateKeyShownOnce(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		acct := withPassword(t, env, "keys@example.com", password)
		b := newBrowser(t, env)
		b.signIn(acct.Email, password)
		if p := b.get("/keys"); p.Status != http.StatusOK || !strings.Contains(p.Body, "no API keys yet") {
			t.Fatalf("empty keys page: %d\n%s", p.Status, p.Body)
		}
		key := b.createKey(url.Values{"name": {"Zapier"}, "dailyLimit": {"500"}})
		if got := apiStatus(env, key); got != http.StatusOK {
			t.Fatalf("GET /api/v1/forms with the new key: %d", got)
		}
		p := b.get("/keys")
		keys := keysOf(t, env, acct)
		if len(keys) != 1 || keys[0].Name != "Zapier" || keys[0].DailyLimit == nil || *keys[0].DailyLimit != 500 {
			t.Fatalf("stored keys %+v", keys)
		}
		if strings.Contains(p.Body, key) || !strings.Contains(p.Body, keys[0].Prefix) {
			t.Errorf("the list shows the whole key, or not its prefix\n%s", p.Body)
		}
		for _, want := range []string{"Zapier", "500", "All forms", "Active", ">1<", "/keys/" + strconv.FormatInt(keys[0].ID, 10) + "/revoke"} {
			if !strings.Contains(p.Body, want) {
				t.Errorf("the list lacks %q\n%s", want, p.Body)
			}
		}
		if strings.Contains(p.Body, ">never<") {
			t.Error("a used key shows as never used")
		}
	})
}

func TestCreateKeyWithScopeAndPlanLimit(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		acct := withPassword(t, env, "scope@example.com", password)
		f := &form.Form{AccountID: acct.ID, Title: "Survey <b>one</b>", DisplayMode: form.SinglePage, ShareToken: "scopedform01"}
		if err := env.Store.CreateForm(context.Background(), f); err != nil {
			t.Fatal(err)
		}
		b := newBrowser(t, env)
		b.signIn(acct.Email, password)
		if p := b.get("/keys"); !strings.Contains(p.Body, "Only: Survey &lt;b&gt;one&lt;/b&gt;") {
			t.Errorf("the form is not offered as a scope\n%s", p.Body)
		}
		key := b.createKey(url.Values{"name": {""}, "dailyLimit": {""}, "formId": {strconv.FormatInt(f.ID, 10)}})
		if got := env.Do(http.MethodGet, "/api/v1/forms/"+strconv.FormatInt(f.ID, 10), key, nil).Status; got != http.StatusOK {
			t.Errorf("the scoped key reads its form: %d", got)
		}
		keys := keysOf(t, env, acct)
		if len(keys) != 1 || keys[0].FormID == nil || *keys[0].FormID != f.ID || keys[0].DailyLimit != nil {
			t.Fatalf("stored keys %+v", keys)
		}
		p := b.get("/keys")
		for _, want := range []string{"plan&#39;s: 1000", "Survey &lt;b&gt;one&lt;/b&gt;", "(no name)"} {
			if !strings.Contains(p.Body, want) {
				t.Errorf("the list lacks %q\n%s", want, p.Body)
			}
		}
	})
}

func TestCreateKeyRefusals(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		acct := withPassword(t, env, "refuse@example.com", password)
		other := env.Account("free")
		theirs := &form.Form{AccountID: other.ID, Title: "Not yours", DisplayMode: form.SinglePage, ShareToken: "theirform001"}
		if err := env.Store.CreateForm(context.Background(), theirs); err != nil {
			t.Fatal(err)
		}
		b := newBrowser(t, env)
		b.signIn(acct.Email, password)
		cases := []struct {
			vals       url.Values
			field, say string
		}{
			{url.Values{"name": {"bad\x01name"}}, "name", "control character"},
			{url.Values{"name": {"two\nlines"}}, "name", "single line"},
			{url.Values{"name": {strings.Repeat("x", 101)}}, "name", "at most 100"},
			{url.Values{"name": {"ok"}, "dailyLimit": {"250"}}, "dailyLimit", "must be one of 100, 500"},
			{url.Values{"name": {"ok"}, "dailyLimit": {"lots"}}, "dailyLimit", "must be one of 100, 500"},
			{url.Values{"name": {"ok"}, "formId": {strconv.FormatInt(theirs.ID, 10)}}, "formId", "must be one of your forms"},
			{url.Values{"name": {"ok"}, "formId": {"x"}}, "formId", "must be one of your forms"},
		}
		ids := map[string]string{"name": "name-error", "dailyLimit": "limit-error", "formId": "form-error"}
		for _, c := range cases {
			p := b.post("/keys", c.vals)
			if p.Status != http.StatusBadRequest || shownKey.MatchString(p.Body) {
				t.Errorf("%v: %d\n%s", c.vals, p.Status, p.Body)
				continue
			}
			errorAt := `id="` + ids[c.field] + `" role="alert">`
			i := strings.Index(p.Body, errorAt)
			if i < 0 || !strings.Contains(p.Body[i:min(i+200, len(p.Body))], c.say) || !strings.Contains(p.Body, `aria-describedby="`) ||
				!regexp.MustCompile(`aria-describedby="[^"]*\b`+ids[c.field]+`"[^>]*aria-invalid="true"`).MatchString(p.Body) {
				t.Errorf("%v: the error %q is not at the field %s\n%s", c.vals, c.say, c.field, p.Body)
			}
		}
		if keys := keysOf(t, env, acct); len(keys) != 0 {
			t.Errorf("refused posts created %d keys", len(keys))
		}
		if keys := keysOf(t, env, other); len(keys) != 0 {
			t.Errorf("the other account has %d keys", len(keys))
		}
	})
}

func TestRevokeKey(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		acct := withPassword(t, env, "revoke@example.com", password)
		b := newBrowser(t, env)
		b.signIn(acct.Email, password)
		key := b.createKey(url.Values{"name": {"Website"}})
		id := strconv.FormatInt(keysOf(t, env, acct)[0].ID, 10)
		p := b.get("/keys/" + id + "/revoke")
		if p.Status != http.StatusOK || !strings.Contains(p.Body, "Website") || !strings.Contains(p.Body, `action="/keys/`+id+`/revoke"`) {
			t.Fatalf("confirmation: %d\n%s", p.Status, p.Body)
		}
		if got := apiStatus(env, key); got != http.StatusOK {
			t.Fatalf("the key before revocation: %d", got)
		}
		if p := b.post("/keys/"+id+"/revoke", nil); p.Status != http.StatusSeeOther || p.Location != "/keys?done=revoked" {
			t.Fatalf("revoke: %d %s\n%s", p.Status, p.Location, p.Body)
		}
		if got := apiStatus(env, key); got != http.StatusUnauthorized {
			t.Errorf("the revoked key: %d", got)
		}
		p = b.get("/keys?done=revoked")
		if !strings.Contains(p.Body, "has been revoked") || !strings.Contains(p.Body, "Revoked") || !strings.Contains(p.Body, "Website") ||
			strings.Contains(p.Body, "/keys/"+id+"/revoke") {
			t.Errorf("the list after revocation\n%s", p.Body)
		}
		if p := b.get("/keys/" + id + "/revoke"); p.Status != http.StatusNotFound {
			t.Errorf("confirming a revoked key: %d", p.Status)
		}
		if p := b.post("/keys/"+id+"/revoke", nil); p.Status != http.StatusNotFound {
			t.Errorf("revoking twice: %d", p.Status)
		}
		for _, bad := range []string{"x", "0", "99999"} {
			if p := b.get("/keys/" + bad + "/revoke"); p.Status != http.StatusNotFound {
				t.Errorf("confirm /keys/%s: %d", bad, p.Status)
			}
		}
	})
}

// TestKeysCrossSite: a key is not created by a post from another site.
// (Markup in a key's name, and other accounts' keys: security_test.go.)
func TestKeysCrossSite(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		acct := withPassword(t, env, "xss@example.com", password)
		b := newBrowser(t, env)
		b.signIn(acct.Email, password)
		if p := b.post("/keys", url.Values{"name": {"forged"}}, "Sec-Fetch-Site", "cross-site"); p.Status != http.StatusForbidden {
			t.Errorf("cross-site create: %d", p.Status)
		}
		if p := b.post("/keys", url.Values{"name": {"forged"}}, "Origin", "https://evil.example"); p.Status != http.StatusForbidden {
			t.Errorf("create from another origin: %d", p.Status)
		}
		if keys := keysOf(t, env, acct); len(keys) != 0 {
			t.Fatalf("a cross-site post created %d keys", len(keys))
		}
	})
}
