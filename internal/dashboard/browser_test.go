package dashboard_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"forma/internal/server/servertest"
	"forma/internal/store"
)

// screenshotDir is where the browser test writes its screenshots:
// FORMA_SCREENSHOT_DIR, or forma-screenshots in the system's temporary folder.
func screenshotDir() string {
	if d := os.Getenv("FORMA_SCREENSHOT_DIR"); d != "" {
		return d
	}
	return filepath.Join(os.TempDir(), "forma-screenshots")
}

// chromium finds a Chromium to drive, or "".
func chromium() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// TestBrowserSignInAndOut walks the dashboard in headless Chromium: / sends a
// signed-out visitor to sign-in, the setup link sets a password, sign-in shows
// the overview, sign-out ends it. It writes screenshots of each page at 1280 and
// 390 px to screenshotDir.
func TestBrowserSignInAndOut(t *testing.T) {
	exe := chromium()
	if exe == "" || testing.Short() {
		t.Skip("browser test skipped: no Chromium (apt-get install chromium, or set CHROMIUM), or -short")
	}
	env := servertest.New(t, store.SQLite)
	acct := env.Account("free")
	alloc, dir := startChromium(t, exe)
	for _, width := range []int64{1280, 390} {
		key := env.Key(acct, nil, nil)
		apiForm(t, env, key, "Team offsite RSVP", false)
		apiForm(t, env, key, "Customer feedback — autumn 2026 survey of every café we run", true)
		b := &chrome{t: t, dir: dir, width: width}
		tab, cancelTab := chromedp.NewContext(alloc)
		b.tab = tab
		b.do(chromedp.EmulateViewport(width, 860), chromedp.Navigate(env.URL+"/settings"), chromedp.WaitVisible(chromedp.ID("password")))
		if loc := b.text(chromedp.Location()); !strings.HasSuffix(loc, "/signin?next=%2Fsettings") {
			t.Errorf("signed-out /settings went to %s", loc)
		}
		b.shot("signin")
		b.do(chromedp.Navigate(env.URL+setupLink(t, env, acct, time.Hour)), chromedp.WaitVisible(chromedp.ID("confirm")))
		b.shot("setup")
		b.do(chromedp.SendKeys(chromedp.ID("password"), password), chromedp.SendKeys(chromedp.ID("confirm"), password),
			chromedp.Submit(chromedp.ID("confirm")), chromedp.WaitVisible(chromedp.CSS(".facts")))
		b.shot("overview")
		b.do(chromedp.Navigate(env.URL+"/settings"), chromedp.WaitVisible(chromedp.ID("current")))
		b.shot("settings")
		b.do(chromedp.Navigate(env.URL+"/forms"), chromedp.WaitVisible(chromedp.CSS(".form-list")))
		b.shot("forms")
		b.do(chromedp.Click(chromedp.CSS(".who button")), chromedp.WaitVisible(chromedp.CSS(".banner.ok")))
		if got := b.text(chromedp.Text(chromedp.CSS(".banner.ok"))); got != "You have signed out." {
			t.Errorf("after sign-out the page says %q", got)
		}
		// Signing in again, from / through the sign-in page, and out.
		b.do(chromedp.Navigate(env.URL+"/"), chromedp.WaitVisible(chromedp.ID("email")),
			chromedp.SendKeys(chromedp.ID("email"), acct.Email), chromedp.SendKeys(chromedp.ID("password"), password),
			chromedp.Submit(chromedp.ID("password")), chromedp.WaitVisible(chromedp.CSS(".facts")))
		if got := b.text(chromedp.Text(chromedp.CSS(".facts"))); !strings.Contains(got, acct.Email) {
			t.Errorf("the overview says %q", got)
		}
		b.do(chromedp.Click(chromedp.CSS(".who button")), chromedp.WaitVisible(chromedp.ID("email")))
		cancelTab()
		acct = env.Account("builder")
	}
	t.Logf("screenshots in %s", dir)
}

// chrome drives one tab at one width, failing the test on any error.
type chrome struct {
	t     *testing.T
	tab   context.Context
	dir   string
	width int64
}

func (c *chrome) do(steps ...chromedp.Action[chromedp.Void]) {
	c.t.Helper()
	if err := chromedp.Do(c.tab, steps...); err != nil {
		c.t.Fatalf("browser at %d px: %v", c.width, err)
	}
}

func (c *chrome) text(a chromedp.Action[string]) string {
	c.t.Helper()
	s, err := chromedp.Run(c.tab, a)
	if err != nil {
		c.t.Fatalf("browser at %d px: %v", c.width, err)
	}
	return s
}

// shot writes a full-page screenshot named name-<width>.png.
func (c *chrome) shot(name string) {
	c.t.Helper()
	png, err := chromedp.Run(c.tab, chromedp.FullScreenshot(100))
	if err == nil {
		err = os.WriteFile(filepath.Join(c.dir, name+"-"+strconv.FormatInt(c.width, 10)+".png"), png, 0o644)
	}
	if err != nil {
		c.t.Fatal(err)
	}
}
