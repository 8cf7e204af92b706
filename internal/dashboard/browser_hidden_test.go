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

// TestBrowserHiddenFields sets a form's hidden fields in the editor, then reads
// responses that came with hidden values (one of them an XSS attempt, which
// must stay text) in the table, filtered by one of them, and in a response's
// detail; and opens the public page at a link that prefills a question and
// carries a value. It writes screenshots of each at 1280 and 390 px.
func TestBrowserHiddenFields(t *testing.T) {
	alloc, dir := startChromium(t, 2*time.Minute)
	env := servertest.New(t, store.SQLite)
	_, key := signedInOwner(t, env, "owner@example.com")
	s := newSurvey(t, env, key, "Spring newsletter sign-up",
		map[string]any{"type": "text", "question": "Your name", "required": true},
		map[string]any{"type": "select", "question": "Which topics interest you?", "options": []string{"Events", "Product news", "Jobs"}})
	editor := fmt.Sprintf("/forms/%d", s.ID)
	const xss = `<img src=x onerror="document.title='pwned'">`
	for width, step := range []int64{1280, 390} {
		tab, cancelTab := chromedp.NewContext(alloc)
		b := &chrome{t: t, tab: tab, dir: dir, width: step}
		b.open(env, editor+"#hidden-fields", "owner@example.com")
		if width == 0 {
			b.do(chromedp.WaitVisible(chromedp.ID("hiddenFields")), chromedp.SendKeys(chromedp.ID("hiddenFields"), "utm_source\nreferrer"),
				chromedp.Click(chromedp.CSS(`#hidden-fields button[type=submit]`)), chromedp.WaitVisible(chromedp.CSS(".banner.ok")))
			if got := b.text(chromedp.Text(chromedp.CSS(".banner.ok"))); got != "Hidden fields saved." {
				t.Fatalf("after saving: %q", got)
			}
			s.submitWith(t, env, map[int]any{0: "Ada", 1: "Events"}, map[string]string{"utm_source": "newsletter", "referrer": "partner-site"})
			s.submitWith(t, env, map[int]any{0: "Grace", 1: "Jobs"}, map[string]string{"utm_source": "ads", "referrer": xss})
			s.submit(t, env, map[int]any{0: "Linus"})
			b.do(chromedp.Navigate(env.URL + editor + "#hidden-fields"))
		}
		b.do(chromedp.WaitVisible(chromedp.ID("hiddenFields")), chromedp.ScrollIntoView(chromedp.ID("hidden-fields")))
		b.shot("hidden-fields-editor")

		b.do(chromedp.Navigate(env.URL+s.path("")), chromedp.WaitVisible(chromedp.CSS("table.responses")))
		if got := b.text(chromedp.Evaluate[string](`document.title + "|" + document.images.length`)); got != "Responses · Spring newsletter sign-up · Forma|0" {
			t.Errorf("the hidden XSS value ran: title and images %q", got)
		}
		if got := b.text(chromedp.Text(chromedp.CSS("table.responses"))); !strings.Contains(got, xss) {
			t.Errorf("the hidden XSS value is not shown as text: %q", got)
		}
		b.shot("responses-hidden")
		b.do(chromedp.SetValue(chromedp.ID("filter-field"), "utm_source"), chromedp.SetValue(chromedp.ID("filter-op"), "eq"),
			chromedp.SendKeys(chromedp.ID("filter-value"), "newsletter"), chromedp.Click(chromedp.CSS(".response-filter button")),
			// The unfiltered table stays visible until the filtered page has loaded:
			// wait for what only a filtered page has.
			chromedp.WaitVisible(chromedp.CSS(".response-filter .actions a")), chromedp.WaitVisible(chromedp.CSS("table.responses")))
		if got := b.text(chromedp.Text(chromedp.CSS(".responses-bar .lead"))); !strings.HasPrefix(got, "1 matching response,") {
			t.Errorf("the filtered table says %q", got)
		}
		b.shot("responses-filtered")
		b.do(chromedp.Click(chromedp.CSS("table.responses tbody th a")), chromedp.WaitVisible(chromedp.ID("hidden-title")))
		if got := b.text(chromedp.Text(chromedp.CSS("main"))); !strings.Contains(got, "partner-site") {
			t.Errorf("the detail lacks the hidden value: %q", got)
		}
		b.shot("response-hidden")

		b.do(chromedp.Navigate(fmt.Sprintf("%s/f/%s?utm_source=newsletter&q%d=Ada+Lovelace&q%d=Jobs", env.URL, s.Share, s.Questions[0], s.Questions[1])),
			chromedp.WaitVisible(chromedp.ID("forma-form")))
		if got := b.text(chromedp.Evaluate[string](fmt.Sprintf(`document.getElementById("q_%d").value`, s.Questions[0]))); got != "Ada Lovelace" {
			t.Errorf("the prefilled name is %q", got)
		}
		b.shot("page-prefilled")
		cancelTab()
	}
	t.Logf("screenshots in %s", dir)
}
