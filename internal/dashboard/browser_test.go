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

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
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
	alloc, dir := startChromium(t, time.Minute)
	env := servertest.New(t, store.SQLite)
	acct := env.Account("free")
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
		b.keysAndUsage(env)
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

// keysAndUsage creates a key on /keys, copies it with the Copy button, spends
// credits with it through the API, and shows the keys and usage pages.
func (c *chrome) keysAndUsage(env *servertest.Env) {
	c.t.Helper()
	c.allowClipboard(env)
	c.do(chromedp.Navigate(env.URL+"/keys"), chromedp.WaitVisible(chromedp.ID("name")),
		chromedp.SendKeys(chromedp.ID("name"), "Website <b>form</b>"), chromedp.Submit(chromedp.ID("name")),
		chromedp.WaitVisible(chromedp.CSS("button[data-copy]")), chromedp.Click(chromedp.CSS("button[data-copy]")),
		chromedp.WaitVisible(chromedp.CSS(".copy-status:not(:empty)")))
	if got := c.text(chromedp.Text(chromedp.CSS(".copy-status"))); got != "Copied" {
		c.t.Errorf("after Copy the page says %q", got)
	}
	key := c.text(chromedp.Value(chromedp.ID("new-key")))
	copied := c.text(chromedp.Evaluate[string](`navigator.clipboard.readText()`, chromedp.EvalAwaitPromise))
	if !strings.HasPrefix(key, "forma_sk_live_") || copied != key {
		c.t.Errorf("the key %q, the clipboard %q", key, copied)
	}
	c.shot("key-created")
	if r := env.Do("POST", "/api/v1/forms/generate", key, map[string]any{"prompt": "a short customer feedback survey"}); r.Status != 201 {
		c.t.Fatalf("generate with the new key: %d", r.Status)
	}
	c.do(chromedp.Navigate(env.URL+"/keys"), chromedp.WaitVisible(chromedp.CSS("table.keys")))
	if body := c.text(chromedp.Text(chromedp.CSS("main"))); strings.Contains(body, key) || !strings.Contains(body, "Website <b>form</b>") {
		c.t.Errorf("the keys page after creation says %q", body)
	}
	c.shot("keys")
	c.do(chromedp.Navigate(env.URL+"/usage"), chromedp.WaitVisible(chromedp.CSS(".usage-facts")))
	c.shot("usage")
}

// allowClipboard lets the pages of env read and write the clipboard, so that
// Copy buttons can be checked.
func (c *chrome) allowClipboard(env *servertest.Env) {
	c.t.Helper()
	for _, name := range []string{"clipboard-read", "clipboard-write"} {
		if _, err := chromedp.CallBrowser(c.tab, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
			Permission: &cdpbrowser.PermissionDescriptor{Name: name}, Setting: cdpbrowser.PermissionSettingGranted, Origin: env.URL}); err != nil {
			c.t.Fatal(err)
		}
	}
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

// shot writes a full-page screenshot named name-<width>.png, after checking
// that the page fits its width: nothing may make a phone scroll sideways (a
// table may scroll inside its own region).
func (c *chrome) shot(name string) {
	c.t.Helper()
	if wide := c.text(chromedp.Evaluate[string](overflowing)); wide != "" {
		c.t.Errorf("%s at %d px is wider than the screen: %s", name, c.width, wide)
	}
	c.snap(name)
}

// open shows path at the tab's width, signing in as email first when the page
// asks (a new tab may or may not keep the cookie of the one before).
func (c *chrome) open(env *servertest.Env, path, email string) {
	c.t.Helper()
	c.do(chromedp.EmulateViewport(c.width, 860), chromedp.Navigate(env.URL+path))
	if strings.Contains(c.text(chromedp.Location()), "/signin") {
		c.do(chromedp.WaitVisible(chromedp.ID("email")), chromedp.SendKeys(chromedp.ID("email"), email),
			chromedp.SendKeys(chromedp.ID("password"), password), chromedp.Submit(chromedp.ID("password")))
	}
}

// snap writes the screenshot without the check, for a page that is leaving
// (its post under way), where no script can run.
func (c *chrome) snap(name string) {
	c.t.Helper()
	png, err := chromedp.Run(c.tab, chromedp.FullScreenshot(100))
	if err == nil {
		err = os.WriteFile(filepath.Join(c.dir, name+"-"+strconv.FormatInt(c.width, 10)+".png"), png, 0o644)
	}
	if err != nil {
		c.t.Fatal(err)
	}
}

// TestBrowserBuilder builds forms through the builder in headless Chromium, at
// 1280 and 390 px: one generated from a prompt (the progress status shows while
// the post runs), published, its link copied and its QR code shown, then
// deleted after the confirmation; and one blank form with five questions of
// different types, a move, a showIf rule, publication, a move by drag and drop,
// an advanced rule set with the keyboard, and the live preview (in the
// editor's frame at 1280 px, where the public page's logic runs in it; through
// the Preview link at 390). It writes screenshots of the new-form page, the
// progress, the share section, the delete confirmation, the editor, the editor
// with the rule and the preview page to screenshotDir.
func TestBrowserBuilder(t *testing.T) {
	alloc, dir := startChromium(t, 3*time.Minute)
	env := servertest.New(t, store.SQLite)
	for _, width := range []int64{1280, 390} {
		email := "builder" + strconv.FormatInt(width, 10) + "@example.com"
		withPassword(t, env, email, password)
		b := &chrome{t: t, dir: dir, width: width}
		tab, cancelTab := chromedp.NewContext(alloc)
		b.tab = tab
		b.do(chromedp.EmulateViewport(width, 860), chromedp.Navigate(env.URL+"/forms"), chromedp.WaitVisible(chromedp.ID("email")),
			chromedp.SendKeys(chromedp.ID("email"), email), chromedp.SendKeys(chromedp.ID("password"), password),
			chromedp.Submit(chromedp.ID("password")), chromedp.WaitVisible(chromedp.CSS(".empty")),
			chromedp.Click(chromedp.CSS(`.page-head a[href="/forms/new"]`)), chromedp.WaitVisible(chromedp.ID("title")),
			chromedp.SendKeys(chromedp.ID("prompt"), "A short feedback survey about our café: rating, favourite drink (tea, coffee or juice) and comments"))
		b.shot("builder-new")
		b.generate()
		b.shareAndDelete(env)
		b.do(chromedp.Navigate(env.URL+"/forms/new"), chromedp.WaitVisible(chromedp.ID("title")),
			chromedp.SendKeys(chromedp.ID("title"), "Team offsite RSVP"),
			chromedp.Submit(chromedp.ID("title")), chromedp.WaitVisible(chromedp.ID("add")))
		b.buildQuestions()
		b.shot("builder-editor")
		b.dragQuestion()
		b.advancedRule()
		if width > 1000 {
			b.previewFrame()
		}
		b.shot("builder-rule")
		b.previewPage(b.text(chromedp.Location()))
		b.do(chromedp.Click(chromedp.CSS(".who button")), chromedp.WaitVisible(chromedp.ID("email")))
		cancelTab()
	}
	t.Logf("screenshots in %s", dir)
}

// buildQuestions adds five questions through the add form, moves one, sets a
// rule on the fourth and publishes the form.
func (c *chrome) buildQuestions() {
	c.t.Helper()
	adds := []struct{ typ, text, options string }{
		{"text", "Your name", ""}, {"email", "Email", ""}, {"select", "Meal", "Fish\nMeat\nVegan"},
		{"file_upload", "Dietary certificate", ""}, {"yes_no", "Staying overnight?", ""},
	}
	for i, a := range adds {
		steps := []chromedp.Action[chromedp.Void]{chromedp.SetValue(chromedp.ID("new-type"), a.typ),
			chromedp.SendKeys(chromedp.ID("new-question"), a.text)}
		if a.options != "" {
			steps = append(steps, chromedp.SendKeys(chromedp.ID("new-options"), a.options))
		}
		if i == 0 {
			steps = append(steps, chromedp.Click(chromedp.CSS(`#add input[name="required"]`)))
		}
		steps = append(steps, chromedp.Click(chromedp.CSS(`#add button[type="submit"]`)),
			chromedp.WaitVisible(chromedp.CSS(".questions > li:nth-child("+strconv.Itoa(i+1)+") .banner.ok")))
		c.do(steps...)
	}
	// Show the certificate only for vegans, then move "Staying overnight?" up.
	c.do(chromedp.SetValue(chromedp.CSS(".questions > li:nth-child(4) select[name=value]"), "Vegan"),
		chromedp.Click(chromedp.CSS(".questions > li:nth-child(4) button[value=save]")),
		chromedp.WaitVisible(chromedp.CSS(".questions > li:nth-child(4) .banner.ok")),
		chromedp.Click(chromedp.CSS(".questions > li:nth-child(5) .question-tools button")),
		chromedp.WaitVisible(chromedp.Search(`//ol[@class="questions"]/li[4]//p[text()="Moved."]`)))
	if got := c.text(chromedp.Text(chromedp.CSS(".questions > li:nth-child(5) .logic .hint"))); got != "Shown only if “3. Meal” is “Vegan”." {
		c.t.Errorf("the rule reads %q", got)
	}
	c.do(chromedp.Click(chromedp.CSS(".editor-actions button.primary")), chromedp.WaitVisible(chromedp.ID("share-link")))
}

// busyWatch records, in the tab's sessionStorage (which outlives the page), what
// the progress status of the new-form page shows when the script fills it: the
// page cannot be read while its post is under way.
const busyWatch = `const status = document.querySelector("[data-busy-status]");
new MutationObserver(() => sessionStorage.setItem("busy", status.textContent + "|" + !!status.querySelector("progress") +
  "|" + document.querySelector("form[data-busy] button").disabled)).observe(status, {childList: true});`

// generate sends the prompt typed on the new-form page, holding the request in
// the browser while the progress status is shot, then lets it through, waits
// for the generated form's editor and checks what the status showed.
func (c *chrome) generate() {
	c.t.Helper()
	paused := make(chan fetch.RequestID, 1)
	if err := chromedp.Listen(c.tab, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			paused <- e.RequestID
		}
	}); err != nil {
		c.t.Fatal(err)
	}
	if _, err := chromedp.Call(c.tab, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*/forms/generate"}}}); err != nil {
		c.t.Fatal(err)
	}
	c.do(chromedp.Evaluate[chromedp.Void](busyWatch), chromedp.Click(chromedp.CSS("form[data-busy] button[type=submit]")))
	var id fetch.RequestID
	select {
	case id = <-paused:
	case <-time.After(20 * time.Second):
		c.t.Fatal("the generation was never sent")
	}
	c.snap("builder-generating")
	if _, err := chromedp.Call(c.tab, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id}); err != nil {
		c.t.Fatal(err)
	}
	c.do(chromedp.WaitVisible(chromedp.CSS(".questions")))
	if _, err := chromedp.Call(c.tab, fetch.Disable, cdp.Empty{}); err != nil {
		c.t.Fatal(err)
	}
	if got := c.text(chromedp.Evaluate[string](`sessionStorage.getItem("busy")`)); got != "Generating your form…|true|true" {
		c.t.Errorf("while generating, the status (text|progress bar|button disabled) was %q", got)
	}
	if got := c.text(chromedp.Text(chromedp.CSS(".banner.ok"))); !strings.HasPrefix(got, "Your form is ready") {
		c.t.Errorf("after generating the editor says %q", got)
	}
}

// shareAndDelete publishes the form of the editor, copies its link with the
// Copy button, checks that its QR code loads, then deletes it after the
// confirmation.
func (c *chrome) shareAndDelete(env *servertest.Env) {
	c.t.Helper()
	c.allowClipboard(env)
	c.do(chromedp.Click(chromedp.CSS(".editor-actions button.primary")), chromedp.WaitVisible(chromedp.ID("share-link")),
		chromedp.Click(chromedp.CSS(`button[data-copy="share-link"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-copy-status="share-link"]:not(:empty)`)))
	link := c.text(chromedp.Value(chromedp.ID("share-link")))
	copied := c.text(chromedp.Evaluate[string](`navigator.clipboard.readText()`, chromedp.EvalAwaitPromise))
	if !strings.HasPrefix(link, env.URL+"/f/") || copied != link {
		c.t.Errorf("the link %q, the clipboard %q", link, copied)
	}
	loaded, err := chromedp.Run(c.tab, chromedp.Poll[bool](`document.querySelector(".qr img").naturalWidth > 0`, chromedp.WithPollingTimeout(10*time.Second)))
	if err != nil || !loaded {
		c.t.Errorf("the QR code did not load (%v)", err)
	}
	c.shot("builder-share")
	c.do(chromedp.Click(chromedp.CSS(`.editor-actions a.danger`)), chromedp.WaitVisible(chromedp.CSS(".loss")))
	c.shot("builder-delete")
	c.do(chromedp.Click(chromedp.CSS(".button.danger-solid")), chromedp.WaitVisible(chromedp.CSS(".banner.ok")))
	if got := c.text(chromedp.Text(chromedp.CSS(".banner.ok"))); !strings.HasPrefix(got, "The form was deleted") {
		c.t.Errorf("after deleting the forms page says %q", got)
	}
}

// overflowing is a script that names the elements reaching past the right edge
// of the viewport when the page scrolls sideways, or returns "".
const overflowing = `(() => {
  const w = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth <= w) return "";
  return [...document.querySelectorAll("body *")]
    .filter((e) => e.getBoundingClientRect().right > w + 1 && getComputedStyle(e).position !== "fixed")
    .filter((e) => !e.closest(".table-scroll, .tabs"))
    .slice(0, 5).map((e) => e.tagName.toLowerCase() + (e.className ? "." + String(e.className).trim().replace(/\s+/g, ".") : "") +
      " (right " + Math.round(e.getBoundingClientRect().right) + ")").join(", ");
})()`
