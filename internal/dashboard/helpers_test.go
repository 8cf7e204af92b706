package dashboard_test

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"forma/internal/auth"
	"forma/internal/config"
	"forma/internal/dashboard"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// browser is an HTTP client with a cookie jar that does not follow redirects,
// so that the tests see each answer.
type browser struct {
	t   *testing.T
	env *servertest.Env
	c   *http.Client
}

func newBrowser(t *testing.T, env *servertest.Env) *browser {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &browser{t: t, env: env, c: &http.Client{Jar: jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// page is one answer: its status, Location, and body.
type page struct {
	Status   int
	Location string
	Body     string
	Header   http.Header
}

func (b *browser) do(req *http.Request) page {
	b.t.Helper()
	res, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		b.t.Fatal(err)
	}
	return page{Status: res.StatusCode, Location: res.Header.Get("Location"), Body: string(body), Header: res.Header}
}

func (b *browser) get(path string) page {
	b.t.Helper()
	req, err := http.NewRequest(http.MethodGet, b.env.URL+path, nil)
	if err != nil {
		b.t.Fatal(err)
	}
	return b.do(req)
}

// post sends a form; headers are name, value pairs.
func (b *browser) post(path string, vals url.Values, headers ...string) page {
	b.t.Helper()
	req, err := http.NewRequest(http.MethodPost, b.env.URL+path, strings.NewReader(vals.Encode()))
	if err != nil {
		b.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return b.do(req)
}

// cookie is the browser's session token ("" when it has none).
func (b *browser) cookie() string {
	u, _ := url.Parse(b.env.URL)
	for _, c := range b.c.Jar.Cookies(u) {
		if c.Name == dashboard.CookieName {
			return c.Value
		}
	}
	return ""
}

// plant gives the browser a session cookie of the attacker's choosing.
func (b *browser) plant(token string) {
	u, _ := url.Parse(b.env.URL)
	b.c.Jar.SetCookies(u, []*http.Cookie{{Name: dashboard.CookieName, Value: token, Path: "/"}})
}

// signIn signs in and fails the test unless it worked.
func (b *browser) signIn(email, password string) {
	b.t.Helper()
	p := b.post("/signin", url.Values{"email": {email}, "password": {password}})
	if p.Status != http.StatusSeeOther || p.Location != "/" {
		b.t.Fatalf("sign in as %s: %d %s\n%s", email, p.Status, p.Location, p.Body)
	}
}

// signedIn reports whether token is a live session, by asking for the overview
// with only that cookie.
func signedIn(t *testing.T, env *servertest.Env, token string) bool {
	t.Helper()
	b := newBrowser(t, env)
	b.plant(token)
	p := b.get("/")
	return p.Status == http.StatusOK
}

// withPassword creates an account on tier with a password set through the store.
func withPassword(t *testing.T, env *servertest.Env, email, password string) *store.Account {
	t.Helper()
	ctx := context.Background()
	acct, err := env.Store.CreateAccount(ctx, email, "free")
	if err != nil {
		t.Fatal(err)
	}
	hash, err := auth.HashPassword(password)
	if err != nil {
		t.Fatal(err)
	}
	if err := env.Store.SetPassword(ctx, acct.ID, hash, ""); err != nil {
		t.Fatal(err)
	}
	return acct
}

// setupLink creates a setup link for acct that expires after ttl, and returns
// its path.
func setupLink(t *testing.T, env *servertest.Env, acct *store.Account, ttl time.Duration) string {
	t.Helper()
	token, hash, err := auth.NewToken()
	if err != nil {
		t.Fatal(err)
	}
	if err := env.Store.CreateSetupToken(context.Background(), acct.ID, hash, env.Store.Now().Add(ttl)); err != nil {
		t.Fatal(err)
	}
	return "/setup/" + token
}

// each runs fn on a fresh server per database; configure adjusts its settings.
func each(t *testing.T, fn func(t *testing.T, env *servertest.Env), configure ...func(*config.Config)) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		fn(t, servertest.New(t, d, configure...))
	})
}

const password = "correct horse battery"
