package dashboard_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"forma/internal/server/servertest"
	"forma/internal/store"
)

// TestBrowserExportImport moves a form in headless Chromium, at 1280 and 390
// px: Export on the editor downloads its definition (the API's bytes); Import
// on the new-form page refuses a file with markup in a field's name, showing it
// as text at the file field, then makes a draft of the downloaded file and
// opens it. It writes screenshots of the forms page (with Import), the editor
// (with Export), the import card, the refusal and the imported form's editor
// to screenshotDir.
func TestBrowserExportImport(t *testing.T) {
	alloc, dir := startChromium(t, 2*time.Minute)
	env := servertest.New(t, store.SQLite)
	// One account for both widths: the browser keeps its session across tabs, so
	// a second account's sign-in would be skipped and its form not found.
	const email = "mover@example.com"
	key := env.Key(withPassword(t, env, email, password), nil, nil)
	for _, width := range []int64{1280, 390} {
		id := ruledForm(t, env, key)
		c := &chrome{t: t, dir: dir, width: width}
		tab, cancelTab := chromedp.NewContext(alloc)
		c.tab = tab
		c.open(env, "/forms", email)
		c.do(chromedp.WaitVisible(chromedp.CSS(`.page-actions a[href="/forms/new#import"]`)))
		c.shot("moving-forms")

		c.do(chromedp.Navigate(fmt.Sprintf("%s/forms/%d", env.URL, id)), chromedp.WaitVisible(chromedp.CSS(`a[href$="/definition.json"]`)))
		c.shot("moving-editor")
		file := c.download(`a[href$="/definition.json"]`, "*.json")
		if api := env.For(t).Do("GET", fmt.Sprintf("/api/v1/forms/%d/definition", id), key, nil); string(api.Body) != string(file) {
			t.Errorf("Export downloaded\n%s\nthe API answers\n%s", file, api.Body)
		}

		bad := filepath.Join(t.TempDir(), "bad.json")
		if err := os.WriteFile(bad, []byte(`{"formaDefinition": 1, "title": "x", "<img src=x onerror=alert(1)>": 1}`), 0o644); err != nil {
			t.Fatal(err)
		}
		c.do(chromedp.Navigate(env.URL+"/forms/new#import"), chromedp.WaitVisible(chromedp.ID("definition")))
		c.shot("moving-new")
		c.do(chromedp.SetUploadFiles(chromedp.ID("definition"), []string{bad}),
			chromedp.Click(chromedp.CSS(`#import button[type="submit"]`)), chromedp.WaitVisible(chromedp.ID("definition-error")))
		if got := c.text(chromedp.Text(chromedp.ID("definition-error"))); !strings.Contains(got, "<img src=x onerror=alert(1)>: is not a known field") {
			t.Errorf("the refusal says %q", got)
		}
		if n := c.text(chromedp.Evaluate[string](`String(document.querySelectorAll("img[onerror]").length)`)); n != "0" {
			t.Errorf("the refusal made %s images of the file's markup", n)
		}
		c.shot("moving-import-refused")

		good := filepath.Join(t.TempDir(), "form.json")
		if err := os.WriteFile(good, file, 0o644); err != nil {
			t.Fatal(err)
		}
		c.do(chromedp.SetUploadFiles(chromedp.ID("definition"), []string{good}),
			chromedp.Click(chromedp.CSS(`#import button[type="submit"]`)), chromedp.WaitVisible(chromedp.CSS(".banner.ok")))
		if got := c.text(chromedp.Text(chromedp.CSS(".banner.ok"))); !strings.Contains(got, "Your form is imported") {
			t.Errorf("after the import the editor says %q", got)
		}
		if loc := c.text(chromedp.Location()); strings.Contains(loc, fmt.Sprintf("/forms/%d?", id)) || !strings.Contains(loc, "?done=imported") {
			t.Errorf("the import opened %s", loc)
		}
		c.shot("moving-imported")
		cancelTab()
	}
	t.Logf("screenshots in %s", dir)
}

// download clicks the link the CSS selector css finds and returns the file it
// downloads, the one file matching pattern in a fresh download folder.
func (c *chrome) download(css, pattern string) []byte {
	c.t.Helper()
	dir := c.t.TempDir()
	if _, err := chromedp.CallBrowser(c.tab, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir}); err != nil {
		c.t.Fatal(err)
	}
	c.do(chromedp.Click(chromedp.CSS(css)))
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		files, _ := filepath.Glob(filepath.Join(dir, pattern))
		if len(files) == 1 {
			if b, err := os.ReadFile(files[0]); err == nil && len(b) > 0 {
				return b
			}
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("nothing downloaded (found %v)", files)
		}
	}
}
