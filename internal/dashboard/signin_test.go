package dashboard_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"forma/internal/config"
	"forma/internal/server/servertest"
)

func TestSetupLinkSignsInOnce(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		acct := env.Account("builder")
		link := setupLink(t, env, acct, 24*time.Hour)
		b := newBrowser(t, env)
		if p := b.get(link); p.Status != http.StatusOK || !strings.Contains(p.Body, acct.Email) {
			t.Fatalf("setup page: %d\n%s", p.Status, p.Body)
		}
		if p := b.post(link, url.Values{"password": {password}, "confirm": {password + "!"}}); p.Status != http.StatusBadRequest ||
			!strings.Contains(p.Body, "not the same") {
			t.Fatalf("mismatched confirmation: %d\n%s", p.Status, p.Body)
		}
		if p := b.post(link, url.Values{"password": {"short"}, "confirm": {"short"}}); p.Status != http.StatusBadRequest {
			t.Fatalf("short password: %d", p.Status)
		}
		res := b.post(link, url.Values{"password": {password}, "confirm": {password}})
		if res.Status != http.StatusSeeOther || res.Location != "/" {
			t.Fatalf("set password: %d %s\n%s", res.Status, res.Location, res.Body)
		}
		checkCookie(t, res.Header)
		p := b.get("/")
		if p.Status != http.StatusOK || !strings.Contains(p.Body, acct.Email) || !strings.Contains(p.Body, "builder") {
			t.Fatalf("overview after setup: %d\n%s", p.Status, p.Body)
		}
		if csp := p.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "unsafe-inline") {
			t.Errorf("CSP %q", csp)
		}
		// The link works once.
		if p := b.get(link); p.Status != http.StatusNotFound {
			t.Errorf("used link shows %d", p.Status)
		}
		if p := newBrowser(t, env).post(link, url.Values{"password": {"another password"}, "confirm": {"another password"}}); p.Status != http.StatusNotFound {
			t.Errorf("used link accepts a post: %d", p.Status)
		}
		other := newBrowser(t, env)
		other.signIn(acct.Email, password)
	})
}

// checkCookie checks the session cookie's attributes.
func checkCookie(t *testing.T, h http.Header) {
	t.Helper()
	c := h.Get("Set-Cookie")
	for _, want := range []string{"forma_session=", "Path=/", "HttpOnly", "SameSite=Lax", "Max-Age=2592000"} {
		if !strings.Contains(c, want) {
			t.Errorf("Set-Cookie %q lacks %s", c, want)
		}
	}
	if strings.Contains(c, "Secure") {
		t.Errorf("Set-Cookie %q is Secure on an http public URL", c)
	}
}

func TestSecureCookieOnHTTPS(t *testing.T) {
	env := servertest.New(t, "sqlite", func(c *config.Config) { c.PublicURL = "https://forms.example.com" })
	withPassword(t, env, "tls@example.com", password)
	p := newBrowser(t, env).post("/signin", url.Values{"email": {"tls@example.com"}, "password": {password}})
	if p.Status != http.StatusSeeOther || !strings.Contains(p.Header.Get("Set-Cookie"), "; Secure") {
		t.Fatalf("sign in: %d, Set-Cookie %q", p.Status, p.Header.Get("Set-Cookie"))
	}
}

func TestSetupLinkExpires(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		link := setupLink(t, env, env.Account("free"), -time.Minute)
		b := newBrowser(t, env)
		if p := b.get(link); p.Status != http.StatusNotFound || !strings.Contains(p.Body, "expired") {
			t.Errorf("expired link: %d\n%s", p.Status, p.Body)
		}
		if p := b.post(link, url.Values{"password": {password}, "confirm": {password}}); p.Status != http.StatusNotFound {
			t.Errorf("expired link accepts a post: %d", p.Status)
		}
		if p := b.get("/setup/not-a-token"); p.Status != http.StatusNotFound {
			t.Errorf("malformed link: %d", p.Status)
		}
	})
}

func TestSignInRedirects(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		acct := withPassword(t, env, "next@example.com", password)
		b := newBrowser(t, env)
		if p := b.get("/"); p.Status != http.StatusSeeOther || p.Location != "/signin" {
			t.Errorf("GET / signed out: %d %s", p.Status, p.Location)
		}
		if p := b.get("/settings"); p.Status != http.StatusSeeOther || p.Location != "/signin?next=%2Fsettings" {
			t.Errorf("GET /settings signed out: %d %s", p.Status, p.Location)
		}
		if p := b.post("/signin", url.Values{"email": {acct.Email}, "password": {password}, "next": {"//evil.example/x"}}); p.Location != "/" {
			t.Errorf("next=//evil.example went to %q", p.Location)
		}
		b = newBrowser(t, env)
		if p := b.post("/signin", url.Values{"email": {acct.Email}, "password": {password}, "next": {"/settings"}}); p.Location != "/settings" {
			t.Errorf("next=/settings went to %q", p.Location)
		}
		if p := b.get("/signin?next=/settings"); p.Status != http.StatusSeeOther || p.Location != "/settings" {
			t.Errorf("signin page when signed in: %d %s", p.Status, p.Location)
		}
		if p := newBrowser(t, env).post("/signin", url.Values{"email": {acct.Email}, "password": {"wrong password"}}); p.Status != http.StatusUnauthorized ||
			!strings.Contains(p.Body, "not right") || !strings.Contains(p.Body, `value="next@example.com"`) {
			t.Errorf("wrong password: %d\n%s", p.Status, p.Body)
		}
	})
}

func TestSessionFixation(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		acct := withPassword(t, env, "fix@example.com", password)
		planted := strings.Repeat("A", 43)
		b := newBrowser(t, env)
		b.plant(planted)
		b.signIn(acct.Email, password)
		if got := b.cookie(); got == "" || got == planted {
			t.Fatalf("session cookie after sign-in %q, planted %q", got, planted)
		}
		if signedIn(t, env, planted) {
			t.Error("the planted token signs in")
		}
		if !signedIn(t, env, b.cookie()) {
			t.Error("the new token does not sign in")
		}
		// Signing in again replaces the session, and ends the one before.
		before := b.cookie()
		b.signIn(acct.Email, password)
		if b.cookie() == before || signedIn(t, env, before) {
			t.Error("a second sign-in kept the earlier session")
		}
	})
}

func TestSignOutRevokesServerSide(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		acct := withPassword(t, env, "out@example.com", password)
		b := newBrowser(t, env)
		b.signIn(acct.Email, password)
		token := b.cookie()
		if p := b.post("/signout", nil); p.Status != http.StatusSeeOther || p.Location != "/signin?done=signout" {
			t.Fatalf("sign out: %d %s", p.Status, p.Location)
		}
		if b.cookie() != "" {
			t.Error("the cookie is still in the browser")
		}
		if signedIn(t, env, token) {
			t.Error("the old cookie still signs in")
		}
		if p := b.get("/signin?done=signout"); !strings.Contains(p.Body, "You have signed out.") {
			t.Errorf("sign-in page after sign-out:\n%s", p.Body)
		}
	})
}

func TestSignOutEverywhere(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		acct := withPassword(t, env, "all@example.com", password)
		other := withPassword(t, env, "other@example.com", password)
		a, b, c := newBrowser(t, env), newBrowser(t, env), newBrowser(t, env)
		a.signIn(acct.Email, password)
		b.signIn(acct.Email, password)
		c.signIn(other.Email, password)
		ta, tb := a.cookie(), b.cookie()
		if p := a.post("/signout/everywhere", nil); p.Status != http.StatusSeeOther {
			t.Fatalf("sign out everywhere: %d", p.Status)
		}
		if signedIn(t, env, ta) || signedIn(t, env, tb) {
			t.Error("a session of the account survived")
		}
		if !signedIn(t, env, c.cookie()) {
			t.Error("another account's session ended")
		}
	})
}

func TestChangePassword(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		acct := withPassword(t, env, "change@example.com", password)
		a, b := newBrowser(t, env), newBrowser(t, env)
		a.signIn(acct.Email, password)
		b.signIn(acct.Email, password)
		const fresh = "a brand new passphrase"
		if p := a.post("/settings/password", url.Values{"current": {"not my password"}, "password": {fresh}, "confirm": {fresh}}); p.Status != http.StatusBadRequest ||
			!strings.Contains(p.Body, "current password is not right") {
			t.Fatalf("wrong current password: %d\n%s", p.Status, p.Body)
		}
		if p := a.post("/settings/password", url.Values{"current": {password}, "password": {fresh}, "confirm": {fresh + "x"}}); p.Status != http.StatusBadRequest {
			t.Fatalf("mismatched confirmation: %d", p.Status)
		}
		if p := a.post("/settings/password", url.Values{"current": {password}, "password": {fresh}, "confirm": {fresh}}); p.Status != http.StatusSeeOther ||
			p.Location != "/settings?done=password" {
			t.Fatalf("change password: %d %s\n%s", p.Status, p.Location, p.Body)
		}
		if !signedIn(t, env, a.cookie()) {
			t.Error("the session that changed the password ended")
		}
		if signedIn(t, env, b.cookie()) {
			t.Error("another session survived the password change")
		}
		if p := newBrowser(t, env).post("/signin", url.Values{"email": {acct.Email}, "password": {password}}); p.Status != http.StatusUnauthorized {
			t.Errorf("old password: %d", p.Status)
		}
		newBrowser(t, env).signIn(acct.Email, fresh)
	})
}

func TestThrottlePerEmail(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		acct := withPassword(t, env, "Guess@example.com", password)
		b := newBrowser(t, env)
		for i := range 5 {
			// The throttle counts the email whatever its case.
			email := acct.Email
			if i%2 == 1 {
				email = strings.ToLower(email)
			}
			if p := b.post("/signin", url.Values{"email": {email}, "password": {fmt.Sprint("guess ", i)}}); p.Status != http.StatusUnauthorized {
				t.Fatalf("failure %d: %d", i, p.Status)
			}
		}
		p := newBrowser(t, env).post("/signin", url.Values{"email": {acct.Email}, "password": {password}})
		if p.Status != http.StatusTooManyRequests || !strings.Contains(p.Body, "wait 15 minutes") || p.Header.Get("Retry-After") != "900" {
			t.Fatalf("right password while throttled: %d %q\n%s", p.Status, p.Header.Get("Retry-After"), p.Body)
		}
		// Another account from the same address is not throttled.
		other := withPassword(t, env, "fine@example.com", password)
		newBrowser(t, env).signIn(other.Email, password)
		// Failures leave the window: fifteen minutes later the password works.
		ctx := context.Background()
		if err := env.Store.RecordSigninFailure(ctx, "x@example.com", "x", env.Store.Now().Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		newBrowser(t, env).signIn(acct.Email, password)
	})
}

func TestThrottlePerAddress(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		acct := withPassword(t, env, "addr@example.com", password)
		b := newBrowser(t, env)
		from := func(addr string) []string { return []string{"X-Forwarded-For", "198.51.100.9, " + addr} }
		for i := range 20 {
			email := fmt.Sprintf("nobody%d@example.com", i)
			if p := b.post("/signin", url.Values{"email": {email}, "password": {"guess guess"}}, from("203.0.113.1")...); p.Status != http.StatusUnauthorized {
				t.Fatalf("failure %d: %d", i, p.Status)
			}
		}
		if p := b.post("/signin", url.Values{"email": {acct.Email}, "password": {password}}, from("203.0.113.1")...); p.Status != http.StatusTooManyRequests {
			t.Fatalf("right password from a throttled address: %d", p.Status)
		}
		if p := b.post("/signin", url.Values{"email": {acct.Email}, "password": {password}}, from("203.0.113.2")...); p.Status != http.StatusSeeOther {
			t.Fatalf("right password from another address: %d", p.Status)
		}
	}, func(c *config.Config) { c.TrustProxy = true })
}

func TestCrossSitePostRefused(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		acct := withPassword(t, env, "csrf@example.com", password)
		b := newBrowser(t, env)
		creds := url.Values{"email": {acct.Email}, "password": {password}}
		if p := b.post("/signin", creds, "Sec-Fetch-Site", "cross-site"); p.Status != http.StatusForbidden || !strings.Contains(p.Body, "another website") {
			t.Errorf("cross-site sign-in: %d\n%s", p.Status, p.Body)
		}
		b.signIn(acct.Email, password)
		for _, h := range [][]string{{"Sec-Fetch-Site", "cross-site"}, {"Sec-Fetch-Site", "same-site"}, {"Origin", "https://evil.example"}} {
			if p := b.post("/signout", nil, h...); p.Status != http.StatusForbidden {
				t.Errorf("sign-out with %s: %d", h, p.Status)
			}
			const fresh = "a brand new passphrase"
			if p := b.post("/settings/password", url.Values{"current": {password}, "password": {fresh}, "confirm": {fresh}}, h...); p.Status != http.StatusForbidden {
				t.Errorf("password change with %s: %d", h, p.Status)
			}
		}
		if !signedIn(t, env, b.cookie()) {
			t.Error("a refused cross-site sign-out ended the session")
		}
		if p := b.post("/signout", nil, "Sec-Fetch-Site", "same-origin", "Origin", env.URL); p.Status != http.StatusSeeOther {
			t.Errorf("same-origin sign-out: %d", p.Status)
		}
	})
}

func TestSignup(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		b := newBrowser(t, env)
		if p := b.get("/signup"); p.Status != http.StatusNotFound {
			t.Errorf("GET /signup when off: %d", p.Status)
		}
		if p := b.post("/signup", url.Values{"email": {"new@example.com"}, "password": {password}, "confirm": {password}}); p.Status != http.StatusNotFound {
			t.Errorf("POST /signup when off: %d", p.Status)
		}
		if p := b.get("/signin"); strings.Contains(p.Body, "/signup") {
			t.Error("the sign-in page links to sign-up when it is off")
		}
	})
	each(t, func(t *testing.T, env *servertest.Env) {
		b := newBrowser(t, env)
		if p := b.get("/signin"); !strings.Contains(p.Body, `href="/signup"`) {
			t.Error("the sign-in page does not link to sign-up")
		}
		for _, email := range []string{"", "not an email", `"<script>alert(1)</script>"@example.com`, "<img src=x onerror=alert(1)>@example.com"} {
			p := b.post("/signup", url.Values{"email": {email}, "password": {password}, "confirm": {password}})
			if p.Status != http.StatusBadRequest || strings.Contains(p.Body, "<script>alert") || strings.Contains(p.Body, "<img") {
				t.Errorf("sign up as %q: %d\n%s", email, p.Status, p.Body)
			}
		}
		p := b.post("/signup", url.Values{"email": {"new@example.com"}, "password": {password}, "confirm": {password}})
		if p.Status != http.StatusSeeOther || p.Location != "/" {
			t.Fatalf("sign up: %d %s\n%s", p.Status, p.Location, p.Body)
		}
		acct, err := env.Store.AccountByEmail(context.Background(), "new@example.com")
		if err != nil || acct.Tier != "free" {
			t.Fatalf("signed-up account %+v, %v", acct, err)
		}
		if p := b.get("/"); p.Status != http.StatusOK || !strings.Contains(p.Body, "new@example.com") {
			t.Errorf("overview after sign-up: %d", p.Status)
		}
		if p := newBrowser(t, env).post("/signup", url.Values{"email": {"new@example.com"}, "password": {password}, "confirm": {password}}); p.Status != http.StatusConflict {
			t.Errorf("second sign-up with the email: %d", p.Status)
		}
	}, func(c *config.Config) { c.Signup = true })
}

// TestAccountEmailEscaped: an email with markup (the CLI accepts any text with
// an @) is shown as text on every signed-in page.
func TestAccountEmailEscaped(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		const email = `<script>alert(1)</script>"'><img src=x onerror=alert(2)>@example.com`
		withPassword(t, env, email, password)
		b := newBrowser(t, env)
		b.signIn(email, password)
		for _, path := range []string{"/", "/settings"} {
			p := b.get(path)
			if p.Status != http.StatusOK || strings.Contains(p.Body, "<script>alert") || strings.Contains(p.Body, "<img src=x") ||
				!strings.Contains(p.Body, "&lt;script&gt;alert(1)&lt;/script&gt;") {
				t.Errorf("%s: %d\n%s", path, p.Status, p.Body)
			}
		}
	})
}
