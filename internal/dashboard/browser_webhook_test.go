package dashboard_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"forma/internal/server/servertest"
	"forma/internal/store"
)

// TestBrowserWebhook connects a webhook in headless Chromium, at 1280 and 390 px:
// it sets the URL of a loopback receiver (private targets allowed), sends a test,
// redelivers the failed delivery from its log row, reveals the secret and opens the rotation's confirmation, writing screenshots
// of the webhook page (its log with the failed delivery and the redelivery) and
// the confirmation to screenshotDir.
func TestBrowserWebhook(t *testing.T) {
	alloc, dir := startChromium(t, time.Minute)
	env := servertest.New(t, store.SQLite, allowPrivate)
	b, key := signedInOwner(t, env, "owner@example.com")
	s := newSurvey(t, env, key, "Customer feedback — spring launch", text)
	rc, broken := newReceiver(t, http.StatusOK), newReceiver(t, http.StatusInternalServerError)
	saveWebhook(b, s, broken.URL+"/hooks/forma", true)
	s.submit(t, env, map[int]any{0: "Lovely"})
	waitForLog(t, b, s)
	for _, width := range []int64{1280, 390} {
		tab, cancelTab := chromedp.NewContext(alloc)
		c := &chrome{t: t, tab: tab, dir: dir, width: width}
		c.open(env, s.webhookPath(""), "owner@example.com")
		c.do(chromedp.WaitVisible(chromedp.ID("webhook-url")), chromedp.SetValue(chromedp.ID("webhook-url"), rc.URL+"/hooks/forma"),
			chromedp.Click(chromedp.CSS(`form[action$="/webhook"] button`)), chromedp.WaitVisible(chromedp.CSS(".banner.ok")))
		c.do(chromedp.Click(chromedp.CSS(`form[action$="/webhook/test"] button`)), chromedp.WaitVisible(chromedp.CSS(".test-result")))
		if got := c.text(chromedp.Text(chromedp.CSS(".test-result"))); !strings.Contains(got, "Test delivered") || !strings.Contains(got, "200") {
			t.Errorf("the test result says %q", got)
		}
		c.shot("webhook-test")
		c.redeliver()
		c.do(chromedp.Click(chromedp.CSS(`form[action$="/webhook/secret"] button`)), chromedp.WaitVisible(chromedp.ID("webhook-secret")))
		c.shot("webhook")
		c.do(chromedp.Click(chromedp.CSS(`a[href$="/webhook/rotate"]`)), chromedp.WaitVisible(chromedp.CSS("form .danger-solid")))
		c.shot("webhook-rotate")
		cancelTab()
	}
	t.Logf("screenshots in %s", dir)
}

// redeliver presses Redeliver on the newest delivery of the webhook page's log
// (the failed one): the page says it was sent again and the log has one more
// entry, which went to the same failing receiver.
func (c *chrome) redeliver() {
	c.t.Helper()
	rows := `String(document.querySelectorAll("table.deliveries tbody tr").length)`
	before, _ := strconv.Atoi(c.text(chromedp.Evaluate[string](rows)))
	c.do(chromedp.Click(chromedp.CSS(`table.deliveries tbody tr:first-child form[action$="/redeliver"] button`)),
		chromedp.WaitNotPresent(chromedp.CSS(".test-result")), chromedp.WaitVisible(chromedp.CSS(".banner.ok")))
	if got := c.text(chromedp.Text(chromedp.CSS(".banner.ok"))); !strings.HasPrefix(got, "The delivery was sent again") {
		c.t.Errorf("after Redeliver the page says %q", got)
	}
	if after := c.text(chromedp.Evaluate[string](rows)); after != strconv.Itoa(before+1) {
		c.t.Errorf("the log has %s entries after the redelivery, %d before", after, before)
	}
	if got := c.text(chromedp.Text(chromedp.CSS("table.deliveries tbody tr:first-child"))); !strings.Contains(got, "500") {
		c.t.Errorf("the redelivery's entry reads %q", got)
	}
	c.shot("webhook-redelivered")
}
