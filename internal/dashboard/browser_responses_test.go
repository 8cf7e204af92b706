package dashboard_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"forma/internal/server/servertest"
	"forma/internal/store"
)

// TestBrowserResponses signs in in headless Chromium and visits a form's
// responses table, one response, its delete confirmation and the summary,
// writing screenshots of each at 1280 and 390 px to screenshotDir.
func TestBrowserResponses(t *testing.T) {
	alloc, dir := startChromium(t, time.Minute)
	env := servertest.New(t, store.SQLite)
	_, key := signedInOwner(t, env, "owner@example.com")
	s := newSurvey(t, env, key, "Team offsite — what should we do in spring?",
		map[string]any{"type": "select", "question": "Which team are you on?", "options": []string{"Development", "Operations", "Design", "Customer success and support"}, "required": true},
		map[string]any{"type": "rating", "question": "How was the last offsite?"},
		map[string]any{"type": "textarea", "question": "Anything else we should know before we book the venue?"},
		map[string]any{"type": "file_upload", "question": "Dietary form"})
	s.load(t, env, time.Now().UTC().AddDate(0, 0, -6), 13*time.Hour, "Development", "Design", "Operations", "Development", "Development", "Design", "Operations", "Development")
	for _, a := range []map[int]any{
		{0: "Development", 1: 5, 2: "Somewhere with good coffee and a quiet room for the afternoon workshops."},
		{0: "Operations", 1: 3},
		{0: "Customer success and support", 1: 4, 2: "Please no karaoke.", 3: upload(t, env, s.Share, "dietary-needs.pdf", []byte("%PDF-1.4"))},
		{0: "Development", 1: 4, 2: "A very long answer that goes on and on to see how the table copes with text that does not fit in one line at all."},
	} {
		s.submit(t, env, a)
	}
	for _, width := range []int64{1280, 390} {
		tab, cancelTab := chromedp.NewContext(alloc)
		b := &chrome{t: t, tab: tab, dir: dir, width: width}
		b.open(env, s.path(""), "owner@example.com")
		b.do(chromedp.WaitVisible(chromedp.CSS("table.responses")))
		if got := b.text(chromedp.Text(chromedp.CSS("table.responses caption"))); got != "Responses 1–12 of 12, newest first" {
			t.Errorf("the table's caption says %q", got)
		}
		b.shot("responses")
		b.do(chromedp.Click(chromedp.CSS("table.responses tbody tr:nth-child(2) th a")), chromedp.WaitVisible(chromedp.CSS(".answers")))
		if got := b.text(chromedp.Text(chromedp.CSS(".answers"))); !strings.Contains(got, "dietary-needs.pdf") {
			t.Errorf("the detail says %q", got)
		}
		b.shot("response")
		b.do(chromedp.Click(chromedp.CSS(".button.danger")), chromedp.WaitVisible(chromedp.CSS("form .button.danger")))
		b.shot("response-delete")
		b.do(chromedp.Navigate(env.URL+strings.Replace(s.path(""), "/responses", "/summary", 1)), chromedp.WaitVisible(chromedp.CSS(".chart-svg")))
		b.shot("summary")
		cancelTab()
	}
	t.Logf("screenshots in %s", dir)
}

// startChromium starts a headless Chromium for the rest of the test (at most
// timeout) and makes the screenshot folder; it returns the allocator to open tabs
// from, and the folder. Without Chromium, or with -short, the test is skipped.
func startChromium(t *testing.T, timeout time.Duration) (context.Context, string) {
	exe := chromium()
	if exe == "" || testing.Short() {
		t.Skip("browser test skipped: no Chromium (apt-get install chromium, or set CHROMIUM), or -short")
	}
	dir := screenshotDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// The budget bounds a hung browser; CI runs this package beside others on two
	// cores, so no test gets less than three minutes.
	ctx, cancel := context.WithTimeout(context.Background(), max(timeout, 3*time.Minute))
	t.Cleanup(cancel)
	// Without the background-networking flags, Chromium keeps trying hosts this
	// machine's closed network refuses.
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-quic", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900))
	t.Cleanup(cancelAlloc)
	return alloc, dir
}
