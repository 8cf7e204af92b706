package respond_test

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// TestBrowserClosingAndThankYou drives, in headless Chromium, the closed page,
// the thank-you screen with piped answers and the redirect after a response.
func TestBrowserClosingAndThankYou(t *testing.T) {
	b := startBrowser(t, 2*time.Minute)
	t.Run("ClosedPage", b.testClosedPage)
	t.Run("ThankYouPiping", b.testThankYouPiping)
	t.Run("ThankYouRedirect", b.testThankYouRedirect)
}

// xssAnswer is an answer that would run, and say so in window.__xss, if it
// reached a page as HTML (the page's policy would also refuse it, which the
// tab reports as a page problem).
const xssAnswer = `<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>`

// inert checks that nothing of xssAnswer became part of the page.
func inert(t *testing.T, ctx context.Context) {
	t.Helper()
	if eval[bool](t, ctx, `window.__xss !== undefined || !!document.querySelector('img[src="x"]')`) {
		t.Error("an answer was shown as HTML")
	}
}

// noSideways fails when the page scrolls sideways.
func noSideways(t *testing.T, ctx context.Context) {
	t.Helper()
	if eval[bool](t, ctx, `document.documentElement.scrollWidth > window.innerWidth`) {
		t.Error("the page scrolls sideways")
	}
}

// shoot writes a full-page screenshot of ctx to the screenshots folder. It grows
// the viewport to the page's height and captures that, then puts the viewport
// back: chromedp's FullScreenshot clips from the left edge, which cuts a
// right-to-left page in half.
func shoot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	w := eval[int64](t, ctx, `window.innerWidth`)
	h := eval[int64](t, ctx, `window.innerHeight`)
	full := eval[int64](t, ctx, `Math.ceil(document.documentElement.scrollHeight)`)
	run(t, ctx, chromedp.EmulateViewport(w, max(h, full)))
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	run(t, ctx, chromedp.EmulateViewport(w, h))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(shotsDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(shotsDir(), name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// sizes are the widths every page is looked at.
var sizes = []struct {
	name string
	w, h int64
}{{"phone", 390, 844}, {"desktop", 1280, 900}}

// testClosedPage: a full form shows its closed message, as text, instead of the
// form; a multi-step respondent whose form filled up meanwhile reads it when
// submitting.
func (b *browserEnv) testClosedPage(t *testing.T) {
	full := createForm(t, b.env, b.key, map[string]any{"title": "Pottery workshop", "maxResponses": 1,
		"closedMessage": "All twelve places are taken.\nThe next workshop opens in spring. " + xssAnswer,
		"questions":     []any{map[string]any{"question": "Name", "required": true}}}, nil, true)
	submitJSON(t, b, full, map[string]any{fmt.Sprint(full.qid(t, "Name")): "Ada"})
	for _, size := range sizes {
		ctx := b.tab(t)
		run(t, ctx, chromedp.EmulateViewport(size.w, size.h), chromedp.Navigate(b.env.URL+"/f/"+full.Share), chromedp.WaitReady(chromedp.ID("nf-title")))
		if got := eval[string](t, ctx, `document.querySelector("main").innerText`); got != "Pottery workshop\n\nAll twelve places are taken.\n\nThe next workshop opens in spring. "+xssAnswer {
			t.Errorf("closed page reads %q", got)
		}
		if eval[bool](t, ctx, `!!document.getElementById("forma-form")`) {
			t.Error("the closed form is shown")
		}
		inert(t, ctx)
		noSideways(t, ctx)
		shoot(t, ctx, size.name+"-closed.png")
	}

	steps := createForm(t, b.env, b.key, map[string]any{"title": "Last seat", "displayMode": "multi-step", "maxResponses": 1,
		"closedMessage": "Sorry, the last seat was just taken.", "questions": []any{
			map[string]any{"question": "Name", "required": true}, map[string]any{"question": "City"}}}, nil, true)
	ctx := b.tab(t)
	b.open(t, ctx, steps)
	step(t, ctx, steps.qid(t, "Name"), "Step 1 of 2", "Next")
	run(t, ctx, chromedp.SendKeys(chromedp.ID(steps.field(t, "Name")), "Grace"), chromedp.Click(chromedp.ID("forma-next")))
	step(t, ctx, steps.qid(t, "City"), "Step 2 of 2", "Submit")
	submitJSON(t, b, steps, map[string]any{fmt.Sprint(steps.qid(t, "Name")): "Ada"})
	run(t, ctx, chromedp.Click(chromedp.ID("forma-next")))
	waitFor(t, ctx, `document.getElementById("forma-status").textContent.indexOf("Sorry, the last seat was just taken.") >= 0`)
	if n := len(responses(t, b.env, steps.ID)); n != 1 {
		t.Errorf("%d responses, want 1", n)
	}
}

// submitJSON completes a submission of f through the JSON operation.
func submitJSON(t *testing.T, b *browserEnv, f *testForm, answers map[string]any) {
	t.Helper()
	mustStatus(t, b.env.Do("POST", "/f/"+f.Share+"/submissions", "", map[string]any{"answers": answers}), http.StatusCreated)
}

// testThankYouPiping: the owner's thank-you screen shows the respondent's
// answers, as text, after the page's own post (single-page) and after the
// script's completion (multi-step).
func (b *browserEnv) testThankYouPiping(t *testing.T) {
	for _, mode := range []string{"single-page", "multi-step"} {
		f := createForm(t, b.env, b.key, map[string]any{"title": "Book club", "displayMode": mode, "questions": []any{
			map[string]any{"question": "Name", "required": true},
			map[string]any{"type": "select", "question": "Book", "options": []string{"Middlemarch", "Dune"}}}}, nil, false)
		path := fmt.Sprintf("/api/v1/forms/%d", f.ID)
		mustStatus(t, b.env.Do("PATCH", path, b.key, map[string]any{"thankYou": map[string]any{
			"title":   fmt.Sprintf("See you soon, {{%d}}!", f.qid(t, "Name")),
			"message": fmt.Sprintf("You picked {{%d}}.\nWe meet on Thursday. %s", f.qid(t, "Book"), xssAnswer)}}), http.StatusOK)
		mustStatus(t, b.env.Do("POST", path+"/publish", b.key, nil), http.StatusOK)
		for _, size := range sizes {
			ctx := b.tab(t)
			run(t, ctx, chromedp.EmulateViewport(size.w, size.h))
			b.open(t, ctx, f)
			name := "Ada " + xssAnswer
			if mode == "multi-step" {
				run(t, ctx, chromedp.SendKeys(chromedp.ID(f.field(t, "Name")), name), chromedp.Click(chromedp.ID("forma-next")))
				step(t, ctx, f.qid(t, "Book"), "Step 2 of 2", "Submit")
				run(t, ctx, setValue("#"+f.field(t, "Book"), "Dune"), chromedp.Click(chromedp.ID("forma-next")))
			} else {
				run(t, ctx, chromedp.SendKeys(chromedp.ID(f.field(t, "Name")), name), setValue("#"+f.field(t, "Book"), "Dune"),
					chromedp.Click(chromedp.ID("forma-next")))
			}
			waitThanks(t, ctx)
			got := eval[map[string]any](t, ctx, `({title: document.getElementById("thanks-title").textContent,
				message: document.getElementById("thanks-message").innerText})`)
			if got["title"] != "See you soon, "+name+"!" || got["message"] != "You picked Dune.\nWe meet on Thursday. "+xssAnswer {
				t.Errorf("%s: thank-you screen %q", mode, got)
			}
			inert(t, ctx)
			noSideways(t, ctx)
			shoot(t, ctx, size.name+"-thanks-"+mode+".png")
		}
	}
}

// testThankYouRedirect: with a redirect, the respondent lands on the owner's
// page with the chosen answer in its query: after the page's post, with or
// without JavaScript, and after the script's completion of a multi-step form.
func (b *browserEnv) testThankYouRedirect(t *testing.T) {
	welcome := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>Welcome</title><link rel="icon" href="data:,"><p id="plan">%s</p>`, html.EscapeString(r.URL.Query().Get("plan")))
	}))
	defer welcome.Close()
	for _, c := range []struct {
		mode string
		js   bool
	}{{"single-page", true}, {"multi-step", true}, {"multi-step", false}} {
		t.Run(fmt.Sprintf("%s, JavaScript %v", c.mode, c.js), func(t *testing.T) {
			f := createForm(t, b.env, b.key, map[string]any{"title": "Trial", "displayMode": c.mode, "questions": []any{
				map[string]any{"type": "select", "question": "Plan", "required": true, "options": []string{"Pro & Co", "Basic"}}}}, nil, false)
			path := fmt.Sprintf("/api/v1/forms/%d", f.ID)
			mustStatus(t, b.env.Do("PATCH", path, b.key, map[string]any{"thankYou": map[string]any{
				"redirectUrl": welcome.URL + "/start?src=forma", "redirectParams": []any{map[string]any{"questionId": f.qid(t, "Plan"), "name": "plan"}}}}), http.StatusOK)
			mustStatus(t, b.env.Do("POST", path+"/publish", b.key, nil), http.StatusOK)
			ctx := b.tab(t)
			if !c.js {
				if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
					t.Fatal(err)
				}
			}
			b.open(t, ctx, f)
			run(t, ctx, setValue("#"+f.field(t, "Plan"), "Pro & Co"), chromedp.Click(chromedp.ID("forma-next")))
			run(t, ctx, chromedp.WaitReady(chromedp.ID("plan")))
			if got := eval[string](t, ctx, `location.href`); got != welcome.URL+"/start?src=forma&plan=Pro+%26+Co" {
				t.Errorf("landed on %s", got)
			}
			if got := eval[string](t, ctx, `document.getElementById("plan").textContent`); got != "Pro & Co" {
				t.Errorf("the page got plan %q", got)
			}
			if n := len(responses(t, b.env, f.ID)); n != 1 {
				t.Errorf("%d responses, want 1", n)
			}
		})
	}
}
