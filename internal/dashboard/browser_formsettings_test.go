package dashboard_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"forma/internal/server/servertest"
	"forma/internal/store"
)

// TestBrowserFormSettings sets a form's closing and thank-you screen on its
// settings page in headless Chromium, at 1280 and 390 px, and shows the full
// form marked closed in the forms list, writing screenshots of the settings
// page (with a refused post, and saved) and of the list to screenshotDir.
func TestBrowserFormSettings(t *testing.T) {
	alloc, dir := startChromium(t, 2*time.Minute)
	env := servertest.New(t, store.SQLite)
	_, key := signedInOwner(t, env, "owner@example.com")
	for _, width := range []int64{1280, 390} {
		s := newSurvey(t, env, key, "Pottery workshop — spring term", text,
			map[string]any{"type": "select", "question": "Which evening suits you best?", "options": []string{"Tuesday", "Thursday"}})
		tab, cancelTab := chromedp.NewContext(alloc)
		c := &chrome{t: t, tab: tab, dir: dir, width: width}
		c.open(env, s.settingsPath(""), "owner@example.com")
		closing := `form[action$="/settings/closing"]`
		c.do(chromedp.WaitVisible(chromedp.ID("max-responses")), chromedp.SendKeys(chromedp.ID("closed-message"), "   "),
			chromedp.Click(chromedp.CSS(closing+" button")), chromedp.WaitVisible(chromedp.CSS("#closed-message-error")))
		c.shot("form-settings-error")
		c.do(chromedp.SendKeys(chromedp.ID("max-responses"), "1"),
			chromedp.SetValue(chromedp.ID("closes-at"), "2999-12-24T18:00"),
			chromedp.SetValue(chromedp.ID("closed-message"), "All twelve places are taken.\nThe summer term opens in May."),
			chromedp.Click(chromedp.CSS(closing+" button")), chromedp.WaitVisible(chromedp.CSS(".banner.ok")))
		c.do(chromedp.Navigate(env.URL+s.settingsPath("")), chromedp.WaitVisible(chromedp.ID("thanks-title-input")),
			chromedp.Click(chromedp.CSS(`input[name="kind"][value="screen"]`)),
			chromedp.SendKeys(chromedp.ID("thanks-title-input"), fmt.Sprintf("See you on {{%d}}!", s.Questions[1])),
			chromedp.SendKeys(chromedp.ID("thanks-message-input"), "Bring an apron."),
			chromedp.Click(chromedp.CSS(`form[action$="/settings/thankyou"] button`)), chromedp.WaitVisible(chromedp.CSS(".banner.ok")))
		if got := c.text(chromedp.Text(chromedp.CSS(".banner.ok"))); got != "The thank-you settings were saved." {
			t.Errorf("after saving the page says %q", got)
		}
		c.shot("form-settings")
		s.submit(t, env, map[int]any{0: "Ada", 1: "Thursday"})
		c.do(chromedp.Navigate(env.URL+"/forms"), chromedp.WaitVisible(chromedp.CSS(".badge.closed")))
		c.shot("forms-closed")
		c.do(chromedp.Navigate(env.URL+s.settingsPath("")), chromedp.WaitVisible(chromedp.CSS(".form-state .badge.closed")))
		if got := c.text(chromedp.Text(chromedp.CSS(".form-state"))); !strings.Contains(got, "1 response so far") {
			t.Errorf("the closed form's state reads %q", got)
		}
		cancelTab()
	}
	t.Logf("screenshots in %s", dir)
}

// TestBrowserFormPublicPage sets a form's language and the sites that may embed
// it on its settings page in headless Chromium, at 1280 and 390 px: an origin
// with a path is refused at the list with the typed lines kept, the fixed list
// is saved; screenshots of both to screenshotDir.
func TestBrowserFormPublicPage(t *testing.T) {
	alloc, dir := startChromium(t, 2*time.Minute)
	env := servertest.New(t, store.SQLite)
	_, key := signedInOwner(t, env, "owner@example.com")
	for _, width := range []int64{1280, 390} {
		s := newSurvey(t, env, key, "Kundenumfrage Frühjahr", text)
		tab, cancelTab := chromedp.NewContext(alloc)
		c := &chrome{t: t, tab: tab, dir: dir, width: width}
		c.open(env, s.settingsPath(""), "owner@example.com")
		save := chromedp.Click(chromedp.CSS(`form[action$="/settings/page"] button`))
		c.do(chromedp.WaitVisible(chromedp.ID("language")), chromedp.SetValue(chromedp.ID("language"), "de"),
			chromedp.SendKeys(chromedp.ID("frame-ancestors"), "https://www.example.com\nexample.com/shop"),
			save, chromedp.WaitVisible(chromedp.ID("frame-ancestors-error")))
		if got := c.text(chromedp.Value(chromedp.ID("frame-ancestors"))); got != "https://www.example.com\nexample.com/shop" {
			t.Errorf("the refused list reads %q", got)
		}
		c.do(chromedp.ScrollIntoView(chromedp.ID("page-title")))
		c.shot("form-settings-page-error")
		c.do(chromedp.SetValue(chromedp.ID("frame-ancestors"), "https://www.example.com\nhttps://shop.example.com"),
			save, chromedp.WaitVisible(chromedp.CSS(".banner.ok")))
		if got := c.text(chromedp.Value(chromedp.ID("language"))); got != "de" {
			t.Errorf("after saving the language is %q", got)
		}
		c.shot("form-settings-page")
		cancelTab()
	}
	t.Logf("screenshots in %s", dir)
}
