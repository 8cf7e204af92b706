package dashboard_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"forma/internal/server/servertest"
	"forma/internal/store"
)

// TestBrowserAI signs in in headless Chromium, generates a form's analysis and
// asks a question in a new conversation through the pages, writing screenshots
// of the analysis and the conversation at 1280 and 390 px to screenshotDir.
func TestBrowserAI(t *testing.T) {
	alloc, dir := startChromium(t, time.Minute)
	env := servertest.New(t, store.SQLite)
	_, key := signedInOwner(t, env, "owner@example.com")
	s := ratedSurvey(t, env, key)
	for _, width := range []int64{1280, 390} {
		tab, cancelTab := chromedp.NewContext(alloc)
		b := &chrome{t: t, tab: tab, dir: dir, width: width}
		b.open(env, s.aiPath("/analytics"), "owner@example.com")
		b.do(chromedp.WaitVisible(chromedp.CSS(".ai-action form")), chromedp.Submit(chromedp.CSS(".ai-action form")),
			chromedp.WaitVisible(chromedp.CSS(".analysis")))
		b.shot("analytics")
		b.do(chromedp.Navigate(env.URL+s.aiPath("/chat")), chromedp.WaitVisible(chromedp.CSS(".ai-action form")),
			chromedp.Submit(chromedp.CSS(".ai-action form")), chromedp.WaitVisible(chromedp.ID("message")),
			chromedp.SendKeys(chromedp.ID("message"), "How many responses are there?"), chromedp.Submit(chromedp.ID("message")),
			chromedp.WaitVisible(chromedp.ID("latest")))
		if got := b.text(chromedp.Text(chromedp.ID("latest"))); !strings.Contains(got, "3 responses") {
			t.Errorf("the answer says %q", got)
		}
		b.do(chromedp.SendKeys(chromedp.ID("message"), "And what is the average rating?"), chromedp.Submit(chromedp.ID("message")),
			chromedp.WaitVisible(chromedp.CSS(".message:nth-child(4)")))
		b.shot("conversation")
		b.do(chromedp.Navigate(env.URL+s.aiPath("/chat")), chromedp.WaitVisible(chromedp.CSS(".conversations")))
		b.shot("conversations")
		cancelTab()
	}
	t.Logf("screenshots in %s", dir)
}
