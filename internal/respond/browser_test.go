package respond_test

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"forma/internal/form"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// Browser tests drive the real pages in headless Chromium. They need Debian's
// chromium (apt-get install chromium), or CHROMIUM set to a Chromium or Chrome
// binary, and skip with a message when there is none.

// chromiumPath finds a Chromium to drive, or "".
func chromiumPath() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	return ""
}

// shotsDir is where the layout screenshots go (FORMA_SHOTS, or /tmp/forma-shots).
func shotsDir() string {
	if d := os.Getenv("FORMA_SHOTS"); d != "" {
		return d
	}
	return filepath.Join(os.TempDir(), "forma-shots")
}

// browserEnv is a running server and one headless browser shared by the subtests.
type browserEnv struct {
	env     *servertest.Env
	key     string
	browser context.Context
	files   string
}

func TestBrowser(t *testing.T) {
	b := startBrowser(t, 3*time.Minute)
	t.Run("SinglePageAllTypes", b.testSinglePageAllTypes)
	t.Run("LiveShowHide", b.testLiveShowHide)
	t.Run("ScoreDecidedByServer", b.testScoreDecidedByServer)
	t.Run("MultiStepSkipEndFormResume", b.testMultiStep)
	t.Run("ServerErrorsKeepAnswers", b.testServerErrors)
	t.Run("NoJavaScript", b.testNoJavaScript)
	t.Run("ModulesFailToLoad", b.testModulesFailToLoad)
	t.Run("PrefillAndHiddenValues", b.testPrefill)
	t.Run("HiddenFieldsMultiStep", b.testHiddenFieldsMultiStep)
	t.Run("HiddenFieldsWithoutJavaScript", b.testHiddenFieldsWithoutJavaScript)
	t.Run("LogicVectorsInBrowser", b.testLogicVectors)
	t.Run("SameSentenceServerAndScript", b.testSameSentences)
	t.Run("CatalogueSentencesInScript", b.testCatalogueInScript)
	t.Run("Screenshots", b.testScreenshots)
}

// startBrowser starts a server and a headless Chromium that its test may use
// for at most timeout; the test is skipped, saying why, without Chromium or in
// -short mode.
func startBrowser(t *testing.T, timeout time.Duration) *browserEnv {
	exe := chromiumPath()
	if exe == "" {
		t.Skip("browser tests skipped: no Chromium found (looked for chromium, chromium-browser, google-chrome and /usr/bin/chromium); install it with `apt-get install chromium` or set CHROMIUM")
	}
	if testing.Short() {
		t.Skip("browser tests skipped in -short mode")
	}
	env := servertest.New(t, store.SQLite)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("disable-features", "Translate,MediaRouter,OptimizationHints"),
		chromedp.Flag("lang", "en-US"),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	t.Cleanup(cancelAlloc)
	browser, cancelBrowser := chromedp.NewContext(alloc)
	t.Cleanup(cancelBrowser)
	if err := chromedp.Do(browser); err != nil {
		t.Fatalf("start %s: %v", exe, err)
	}
	files := t.TempDir()
	for name, body := range map[string]string{"cv.txt": "Ada Lovelace\nCurriculum vitae\n", "notes.txt": "Notes for the reviewers.\n"} {
		if err := os.WriteFile(filepath.Join(files, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return &browserEnv{env: env, key: env.NewKey(), browser: browser, files: files}
}

// waitThanks waits for the thank-you page, saying what the page shows instead.
func waitThanks(t *testing.T, ctx context.Context) {
	t.Helper()
	wait, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := chromedp.Do(wait, chromedp.WaitVisible(chromedp.ID("thanks-title"))); err != nil {
		state, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.title + " | " + document.body.innerText.slice(0, 600)`))
		t.Fatalf("no thank-you page (%v); the page shows: %s", err, state)
	}
}

// tab opens a new tab that closes when the test ends. The test fails if a page
// in it throws, logs an error to the console, or breaks its Content-Security-Policy.
func (b *browserEnv) tab(t *testing.T) context.Context {
	ctx, cancel := chromedp.NewContext(b.browser)
	t.Cleanup(cancel)
	ctx, cancelTimeout := context.WithTimeout(ctx, 30*time.Second)
	t.Cleanup(cancelTimeout)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var problems []string
	report := func(s string) {
		mu.Lock()
		problems = append(problems, s)
		mu.Unlock()
	}
	go func() {
		for ev, err := range chromedp.Events(ctx, cdplog.EntryAdded) {
			if err != nil {
				return
			}
			// Network entries are the 4xx answers the tests provoke on purpose.
			if e := ev.Entry; e != nil && e.Level == cdplog.EntryLevelError && e.Source != cdplog.EntrySourceNetwork {
				report(fmt.Sprintf("%s: %s", e.Source, e.Text))
			}
		}
	}()
	go func() {
		for ev, err := range chromedp.Events(ctx, cdpruntime.ExceptionThrown) {
			if err != nil {
				return
			}
			d := ev.ExceptionDetails
			text := d.Text
			if d.Exception != nil {
				text += " " + d.Exception.Description
			}
			report(fmt.Sprintf("exception at %s:%d: %s", d.URL, d.LineNumber+1, text))
		}
	}()
	go func() {
		for ev, err := range chromedp.Events(ctx, cdpruntime.ConsoleAPICalled) {
			if err != nil {
				return
			}
			if ev.Type == cdpruntime.ConsoleAPICalledTypeError {
				report("console.error from the page")
			}
		}
	}()
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, p := range problems {
			t.Errorf("page problem: %s", p)
		}
	})
	return ctx
}

func run(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("browser: %v", err)
	}
}

func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// waitFor polls a JavaScript condition for up to 10 s.
func waitFor(t *testing.T, ctx context.Context, expr string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("waiting for %s: %v", expr, err)
	}
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// setValue sets a control's value as a picker would, with input and change events.
func setValue(sel, value string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(function () {
		var e = document.querySelector(%s);
		e.value = %s;
		e.dispatchEvent(new Event("input", {bubbles: true}));
		e.dispatchEvent(new Event("change", {bubbles: true}));
	})()`, jsString(sel), jsString(value)))
}

func clickLabel(id string) chromedp.Action[chromedp.Void] {
	return chromedp.Click(chromedp.CSS(`label[for="` + id + `"]`))
}

// shown reports whether the block of question id is displayed.
func shown(id int64) string {
	return fmt.Sprintf(`(function () { var e = document.getElementById("question-%d"); return !!e && e.offsetParent !== null; })()`, id)
}

func (b *browserEnv) open(t *testing.T, ctx context.Context, f *testForm) {
	t.Helper()
	run(t, ctx, chromedp.Navigate(b.env.URL+"/f/"+f.Share), chromedp.WaitReady(chromedp.ID("forma-form")))
}

// checkAnswers compares the one stored submission of a form with want.
func checkAnswers(t *testing.T, env *servertest.Env, formID int64, n int, want map[int64]any) form.Submission {
	t.Helper()
	list := responses(t, env, formID)
	if len(list) != n {
		t.Fatalf("%d completed submissions, want %d", len(list), n)
	}
	got, _ := json.Marshal(list[0].Answers)
	w, _ := json.Marshal(want)
	if string(got) != string(w) {
		t.Errorf("stored answers\n got %s\nwant %s", got, w)
	}
	return list[0]
}

// labelProblems lists the form controls that have no label (and groups with no legend).
const labelProblems = `(function () {
	var bad = [];
	document.querySelectorAll("#forma-form input:not([type=hidden]), #forma-form select, #forma-form textarea").forEach(function (e) {
		if (e.name === "website") return;
		if (!e.labels || !e.labels.length || !e.labels[0].textContent.trim()) bad.push(e.id || e.name);
	});
	document.querySelectorAll("#forma-form fieldset").forEach(function (f) {
		var l = f.querySelector("legend");
		if (!l || !l.textContent.trim()) bad.push("fieldset " + f.parentNode.id);
	});
	return bad;
})()`

func (b *browserEnv) testSinglePageAllTypes(t *testing.T) {
	f := allTypesForm(t, b.env, b.key, "single-page")
	ctx := b.tab(t)
	b.open(t, ctx, f)
	if bad := eval[[]string](t, ctx, labelProblems); len(bad) > 0 {
		t.Errorf("controls without a label: %v", bad)
	}
	sel := func(prefix string) chromedp.CSS { return chromedp.CSS("#" + f.field(t, prefix)) }
	rating, langs, remote := f.field(t, "Rating"), f.field(t, "Languages"), f.field(t, "Remote")
	conf := f.field(t, "Confidence")
	// The optional slider starts unanswered and posts nothing until touched.
	if eval[bool](t, ctx, `document.getElementById("`+conf+`").hasAttribute("name")`) {
		t.Error("an untouched optional slider would post a value")
	}
	run(t, ctx,
		chromedp.SendKeys(sel("Name"), "Ada Lovelace"),
		chromedp.SendKeys(sel("About"), "Analyst.\nPoet of science."),
		chromedp.SendKeys(sel("Email"), "ada@example.com"),
		chromedp.SendKeys(sel("Age"), "36"),
		chromedp.SendKeys(sel("Phone"), "+44 20 7946 0958"),
		chromedp.SendKeys(sel("Website"), "https://ada.example.com"),
		setValue("#"+f.field(t, "Start date"), "2027-01-04"),
		setValue("#"+f.field(t, "Best time"), "09:30"),
		setValue("#"+f.field(t, "Team"), "Engineering"),
		clickLabel(langs+"_0"), clickLabel(langs+"_2"),
		clickLabel(rating+"_3"),
		chromedp.SendKeys(sel("Confidence"), kb.ArrowRight+kb.ArrowRight),
		clickLabel(remote+"_0"),
		chromedp.SetUploadFiles(sel("CV"), []string{filepath.Join(b.files, "cv.txt")}),
		chromedp.SendKeys(sel("Expected"), "65000"),
	)
	// The stars work from the keyboard: arrows move the choice.
	run(t, ctx, chromedp.Evaluate[chromedp.Void](`document.getElementById("`+rating+`_3").focus()`), chromedp.KeyEvent(kb.ArrowLeft))
	if !eval[bool](t, ctx, `document.getElementById("`+rating+`_2").checked && document.activeElement.id === "`+rating+`_2"`) {
		t.Error("ArrowLeft on the rating did not move to 3 stars")
	}
	run(t, ctx, chromedp.KeyEvent(kb.ArrowRight))
	if got := eval[string](t, ctx, `document.getElementById("`+conf+`-value").textContent`); got != "7" {
		t.Errorf("slider shows %q, want 7", got)
	}
	if got := eval[string](t, ctx, `document.querySelector("#question-`+strings.TrimPrefix(rating, "q_")+` .rating-text").textContent`); got != "4 of 5 stars" {
		t.Errorf("rating text %q", got)
	}
	run(t, ctx, chromedp.Click(chromedp.ID("forma-next")))
	waitThanks(t, ctx)
	sess := responses(t, b.env, f.ID)
	if len(sess) != 1 {
		t.Fatalf("%d submissions", len(sess))
	}
	uploadID, _ := sess[0].Answers[f.qid(t, "CV")].(string)
	u, err := b.env.Store.GetUpload(context.Background(), uploadID)
	if err != nil || u.Name != "cv.txt" || u.FormID != f.ID || u.ContentType != "text/plain; charset=utf-8" {
		t.Errorf("upload %q: %+v %v", uploadID, u, err)
	}
	checkAnswers(t, b.env, f.ID, 1, map[int64]any{
		f.qid(t, "Name"): "Ada Lovelace", f.qid(t, "About"): "Analyst.\nPoet of science.",
		f.qid(t, "Email"): "ada@example.com", f.qid(t, "Age"): 36, f.qid(t, "Phone"): "+44 20 7946 0958",
		f.qid(t, "Website"): "https://ada.example.com", f.qid(t, "Start date"): "2027-01-04",
		f.qid(t, "Best time"): "09:30", f.qid(t, "Team"): "Engineering", f.qid(t, "Languages"): []string{"Go", "SQL"},
		f.qid(t, "Rating"): 4, f.qid(t, "Confidence"): 7, f.qid(t, "Remote"): true, f.qid(t, "CV"): uploadID,
		f.qid(t, "Expected"): 65000,
	})
}

func (b *browserEnv) testLiveShowHide(t *testing.T) {
	f := createForm(t, b.env, b.key, map[string]any{"title": "Contact preferences", "questions": []any{
		map[string]any{"type": "select", "question": "Contact by", "required": true, "options": []string{"Email", "Phone"}},
		map[string]any{"type": "email", "question": "Your email", "required": true},
		map[string]any{"type": "phone", "question": "Your phone", "required": true},
		map[string]any{"type": "yes_no", "question": "Newsletter"},
		map[string]any{"type": "multi_select", "question": "Topics", "options": []string{"Product", "Events"}},
	}}, func(f *testForm) map[string]any {
		contact := f.qid(t, "Contact")
		return map[string]any{
			"Your email": map[string]any{"showIf": map[string]any{"questionId": contact, "operator": "equals", "value": "Email"}},
			"Your phone": map[string]any{"showIf": map[string]any{"questionId": contact, "operator": "equals", "value": "Phone"}},
			"Newsletter": map[string]any{"advanced": map[string]any{
				"conditionGroups": []any{map[string]any{"id": "g", "operator": "AND", "conditions": []any{
					map[string]any{"id": "c", "questionId": f.qid(t, "Newsletter"), "operator": "equals", "value": "true"}}}},
				"actions": []any{map[string]any{"type": "show_question", "targetId": f.qid(t, "Topics")}}}},
		}
	}, true)
	email, phone, topics := f.qid(t, "Your email"), f.qid(t, "Your phone"), f.qid(t, "Topics")
	ctx := b.tab(t)
	b.open(t, ctx, f)
	visible := func(want map[int64]bool) {
		t.Helper()
		for id, w := range want {
			if got := eval[bool](t, ctx, shown(id)); got != w {
				t.Errorf("question %d shown = %v, want %v", id, got, w)
			}
		}
	}
	visible(map[int64]bool{email: false, phone: false, topics: false})
	run(t, ctx, setValue("#"+f.field(t, "Contact"), "Email"))
	visible(map[int64]bool{email: true, phone: false})
	run(t, ctx, chromedp.SendKeys(chromedp.ID(f.field(t, "Your email")), "me@example.com"))
	run(t, ctx, setValue("#"+f.field(t, "Contact"), "Phone"))
	visible(map[int64]bool{email: false, phone: true})
	if !eval[bool](t, ctx, `document.getElementById("`+f.field(t, "Your email")+`").disabled`) {
		t.Error("the input of a hidden question is not disabled")
	}
	run(t, ctx, clickLabel(f.field(t, "Newsletter")+"_0"))
	visible(map[int64]bool{topics: true})
	run(t, ctx, clickLabel(f.field(t, "Newsletter")+"_1"))
	visible(map[int64]bool{topics: false})
	run(t, ctx, clickLabel(f.field(t, "Newsletter")+"_0"), clickLabel(f.field(t, "Topics")+"_1"))
	// Clearing the optional yes/no hides the dependent question again.
	run(t, ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf("#question-%d [data-clear]", f.qid(t, "Newsletter")))))
	visible(map[int64]bool{topics: false})
	run(t, ctx, clickLabel(f.field(t, "Newsletter")+"_0"))
	visible(map[int64]bool{topics: true})
	run(t, ctx,
		chromedp.SendKeys(chromedp.ID(f.field(t, "Your phone")), "+1 555 0100 200"),
		chromedp.Click(chromedp.ID("forma-next")))
	waitThanks(t, ctx)
	checkAnswers(t, b.env, f.ID, 1, map[int64]any{
		f.qid(t, "Contact"): "Phone", phone: "+1 555 0100 200", f.qid(t, "Newsletter"): true, topics: []string{"Events"},
	})
}

// testScoreDecidedByServer: a question shown by the score (which the page cannot
// compute: the definition has no answer key) appears and goes as the server
// evaluates, on a single page and between steps.
func (b *browserEnv) testScoreDecidedByServer(t *testing.T) {
	token, q := quiz(t, b.env, b.key, "single-page")
	ctx := b.tab(t)
	run(t, ctx, chromedp.Navigate(b.env.URL+"/f/"+token), chromedp.WaitReady(chromedp.ID("forma-form")))
	waitFor(t, ctx, "!"+shown(q[2]))
	run(t, ctx, setValue(fmt.Sprintf("#q_%d", q[0]), "Paris"), setValue(fmt.Sprintf("#q_%d", q[1]), "Rome"))
	waitFor(t, ctx, shown(q[2]))
	run(t, ctx, setValue(fmt.Sprintf("#q_%d", q[1]), "Milan"))
	waitFor(t, ctx, "!"+shown(q[2]))

	token, q = quiz(t, b.env, b.key, "multi-step")
	run(t, ctx, chromedp.Navigate(b.env.URL+"/f/"+token), chromedp.WaitReady(chromedp.ID("forma-form")))
	next := chromedp.Click(chromedp.ID("forma-next"))
	step(t, ctx, q[0], "Step 1 of 3", "Next")
	run(t, ctx, setValue(fmt.Sprintf("#q_%d", q[0]), "Paris"), next)
	step(t, ctx, q[1], "Step 2 of 3", "Next")
	run(t, ctx, setValue(fmt.Sprintf("#q_%d", q[1]), "Rome"), next)
	step(t, ctx, q[2], "Step 3 of 4", "Next")
}

func (b *browserEnv) multiStepForm(t *testing.T) *testForm {
	rule := func(q int64, op string, value any, action map[string]any) map[string]any {
		return map[string]any{"advanced": map[string]any{
			"conditionGroups": []any{map[string]any{"id": "g", "operator": "AND", "conditions": []any{
				map[string]any{"id": "c", "questionId": q, "operator": op, "value": value}}}},
			"actions": []any{action}}}
	}
	return createForm(t, b.env, b.key, map[string]any{"title": "Course feedback", "displayMode": "multi-step",
		"description": "Five minutes, one question at a time.", "questions": []any{
			map[string]any{"type": "select", "question": "Status", "required": true, "options": []string{"Student", "Employed", "Retired"}},
			map[string]any{"type": "text", "question": "Employer", "required": true},
			map[string]any{"type": "number", "question": "Years at employer"},
			map[string]any{"type": "rating", "question": "Satisfaction", "required": true},
			map[string]any{"type": "textarea", "question": "Highlights"},
			map[string]any{"type": "file_upload", "question": "Attachment"},
			map[string]any{"type": "yes_no", "question": "Recommend", "required": true},
		}}, func(f *testForm) map[string]any {
		return map[string]any{
			"Status": rule(f.qid(t, "Status"), "equals", "Student",
				map[string]any{"type": "skip_to_question", "targetId": f.qid(t, "Satisfaction")}),
			"Satisfaction": rule(f.qid(t, "Satisfaction"), "less_than", 3, map[string]any{"type": "end_form"}),
		}
	}, true)
}

// step checks the progress indicator, the question shown and the main button.
func step(t *testing.T, ctx context.Context, id int64, label, button string) {
	t.Helper()
	waitFor(t, ctx, shown(id)+` && document.getElementById("forma-step").textContent === `+jsString(label))
	state := eval[map[string]any](t, ctx, `(function () {
		var shown = Array.prototype.filter.call(document.querySelectorAll(".q"), function (q) { return q.offsetParent !== null; });
		var bar = document.getElementById("forma-bar");
		return {shown: shown.length, button: document.getElementById("forma-next").textContent,
			bar: bar.value + "/" + bar.max, back: !document.getElementById("forma-back").hidden};
	})()`)
	if state["shown"] != 1.0 || state["button"] != button {
		t.Errorf("at %q: %v questions shown, button %q (want 1, %q)", label, state["shown"], state["button"], button)
	}
	var n, of int
	fmt.Sscanf(label, "Step %d of %d", &n, &of)
	if state["bar"] != fmt.Sprintf("%d/%d", n, of) || state["back"] != (n > 1) {
		t.Errorf("at %q: progress bar %v, back shown %v", label, state["bar"], state["back"])
	}
}

func (b *browserEnv) testMultiStep(t *testing.T) {
	f := b.multiStepForm(t)
	status, employer, years, satisfaction := f.qid(t, "Status"), f.qid(t, "Employer"), f.qid(t, "Years"), f.qid(t, "Satisfaction")
	highlights, attachment, recommend := f.qid(t, "Highlights"), f.qid(t, "Attachment"), f.qid(t, "Recommend")
	next := chromedp.Click(chromedp.ID("forma-next"))
	back := chromedp.Click(chromedp.ID("forma-back"))
	sessionKey := `localStorage.getItem("forma:` + f.Share + `:session")`
	resumeKey := `localStorage.getItem("forma:` + f.Share + `:resume")`

	ctx := b.tab(t)
	b.open(t, ctx, f)
	step(t, ctx, status, "Step 1 of 7", "Next")
	run(t, ctx, setValue("#"+f.field(t, "Status"), "Student"))
	step(t, ctx, status, "Step 1 of 5", "Next") // the skip already counts
	run(t, ctx, next)
	step(t, ctx, satisfaction, "Step 2 of 5", "Next") // Employer and Years skipped
	run(t, ctx, clickLabel(f.field(t, "Satisfaction")+"_1"))
	step(t, ctx, satisfaction, "Step 2 of 2", "Submit") // end_form: nothing after
	run(t, ctx, clickLabel(f.field(t, "Satisfaction")+"_4"))
	step(t, ctx, satisfaction, "Step 2 of 5", "Next")
	run(t, ctx, next)
	step(t, ctx, highlights, "Step 3 of 5", "Next")
	run(t, ctx, chromedp.SendKeys(chromedp.ID(f.field(t, "Highlights")), "Great mentors"), next)
	step(t, ctx, attachment, "Step 4 of 5", "Next")
	run(t, ctx, chromedp.SetUploadFiles(chromedp.ID(f.field(t, "Attachment")), []string{filepath.Join(b.files, "notes.txt")}), next)
	step(t, ctx, recommend, "Step 5 of 5", "Submit")
	if eval[string](t, ctx, `String(`+sessionKey+`)`) == "null" || eval[string](t, ctx, `String(`+resumeKey+`)`) == "null" {
		t.Fatal("no session id and resume token kept in localStorage")
	}

	// A reload resumes at the first unanswered step with every answer kept.
	run(t, ctx, chromedp.Reload())
	step(t, ctx, recommend, "Step 5 of 5", "Submit")
	run(t, ctx, back)
	step(t, ctx, attachment, "Step 4 of 5", "Next")
	if got := eval[string](t, ctx, fmt.Sprintf(`document.querySelector("#question-%d .file-name").textContent`, attachment)); got != "notes.txt" {
		t.Errorf("uploaded file shown as %q", got)
	}
	run(t, ctx, back)
	step(t, ctx, highlights, "Step 3 of 5", "Next")
	if got := eval[string](t, ctx, `document.getElementById("`+f.field(t, "Highlights")+`").value`); got != "Great mentors" {
		t.Errorf("highlights %q after reload", got)
	}
	run(t, ctx, back)
	step(t, ctx, satisfaction, "Step 2 of 5", "Next")
	if !eval[bool](t, ctx, `document.getElementById("`+f.field(t, "Satisfaction")+`_4").checked`) {
		t.Error("rating not kept after reload")
	}
	run(t, ctx, back)
	step(t, ctx, status, "Step 1 of 5", "Next")
	if got := eval[string](t, ctx, `document.getElementById("`+f.field(t, "Status")+`").value`); got != "Student" {
		t.Errorf("status %q after reload", got)
	}
	run(t, ctx, next)
	step(t, ctx, satisfaction, "Step 2 of 5", "Next")
	run(t, ctx, next)
	step(t, ctx, highlights, "Step 3 of 5", "Next")
	run(t, ctx, next)
	step(t, ctx, attachment, "Step 4 of 5", "Next")
	run(t, ctx, next)
	step(t, ctx, recommend, "Step 5 of 5", "Submit")
	run(t, ctx, clickLabel(f.field(t, "Recommend")+"_0"), next)
	waitThanks(t, ctx)
	if eval[string](t, ctx, `String(`+sessionKey+`)`) != "null" || eval[string](t, ctx, `String(`+resumeKey+`)`) != "null" {
		t.Error("the session id or resume token is still in localStorage after completion")
	}
	sess := responses(t, b.env, f.ID)
	if len(sess) != 1 {
		t.Fatalf("%d submissions", len(sess))
	}
	uploadID, _ := sess[0].Answers[attachment].(string)
	checkAnswers(t, b.env, f.ID, 1, map[int64]any{
		status: "Student", satisfaction: 5, highlights: "Great mentors", attachment: uploadID, recommend: true,
	})
	if uploadID == "" {
		t.Error("no file stored")
	}

	// Another respondent: a required step is checked before moving on, and a low
	// rating ends the form.
	ctx = b.tab(t)
	b.open(t, ctx, f)
	step(t, ctx, status, "Step 1 of 7", "Next")
	run(t, ctx, setValue("#"+f.field(t, "Status"), "Employed"), next)
	step(t, ctx, employer, "Step 2 of 7", "Next")
	run(t, ctx, next)
	waitFor(t, ctx, `!document.getElementById("`+f.field(t, "Employer")+`-error").hidden`)
	if got := eval[string](t, ctx, `document.getElementById("`+f.field(t, "Employer")+`-error").textContent`); !strings.Contains(got, "Please answer this question.") {
		t.Errorf("error %q", got)
	}
	if eval[string](t, ctx, `document.activeElement.id`) != f.field(t, "Employer") ||
		eval[string](t, ctx, `document.activeElement.getAttribute("aria-invalid")`) != "true" ||
		!strings.Contains(eval[string](t, ctx, `document.activeElement.getAttribute("aria-describedby")`), "-error") {
		t.Error("the invalid input is not focused, marked invalid and described by its error")
	}
	step(t, ctx, employer, "Step 2 of 7", "Next")
	run(t, ctx, chromedp.SendKeys(chromedp.ID(f.field(t, "Employer")), "Acme\n")) // Enter moves on
	step(t, ctx, years, "Step 3 of 7", "Next")
	run(t, ctx, next)
	step(t, ctx, satisfaction, "Step 4 of 7", "Next")
	run(t, ctx, clickLabel(f.field(t, "Satisfaction")+"_0"))
	step(t, ctx, satisfaction, "Step 4 of 4", "Submit")
	run(t, ctx, next)
	waitThanks(t, ctx)
	list := responses(t, b.env, f.ID)
	if len(list) != 2 {
		t.Fatalf("%d submissions", len(list))
	}
	got, _ := json.Marshal(list[0].Answers)
	want, _ := json.Marshal(map[int64]any{status: "Employed", employer: "Acme", satisfaction: 1})
	if string(got) != string(want) {
		t.Errorf("second submission %s, want %s", got, want)
	}
}

func (b *browserEnv) testServerErrors(t *testing.T) {
	f := allTypesForm(t, b.env, b.key, "single-page")
	name, email, langs, rating := f.field(t, "Name"), f.field(t, "Email"), f.field(t, "Languages"), f.field(t, "Rating")
	ctx := b.tab(t)
	b.open(t, ctx, f)
	// The form is novalidate: the browser posts it and the server answers.
	run(t, ctx,
		chromedp.SendKeys(chromedp.ID(email), "not-an-email"),
		setValue("#"+f.field(t, "Team"), "Sales"),
		clickLabel(langs+"_1"),
		clickLabel(rating+"_2"),
		chromedp.SendKeys(chromedp.ID(f.field(t, "About")), `<b>"kept"</b>`),
		chromedp.Click(chromedp.ID("forma-next")),
		chromedp.WaitVisible(chromedp.ID("error-summary")),
	)
	state := eval[map[string]any](t, ctx, `(function () {
		function val(id) { return document.getElementById(id).value; }
		return {
			focused: document.activeElement.id,
			title: document.title,
			nameError: document.getElementById("`+name+`-error").textContent.trim(),
			emailError: document.getElementById("`+email+`-error").textContent.trim(),
			email: val("`+email+`"), team: val("`+f.field(t, "Team")+`"), about: val("`+f.field(t, "About")+`"),
			js: document.getElementById("`+langs+`_1").checked, go: document.getElementById("`+langs+`_0").checked,
			rating: document.getElementById("`+rating+`_2").checked,
			invalid: document.getElementById("`+email+`").getAttribute("aria-invalid"),
			links: document.querySelectorAll("#error-summary a").length
		};
	})()`)
	want := map[string]any{
		"focused": "error-summary", "title": "Error: Job application",
		"nameError": "Error: Please answer this question.", "email": "not-an-email", "team": "Sales",
		"about": `<b>"kept"</b>`, "js": true, "go": false, "rating": true, "invalid": "true", "links": 2.0,
	}
	for k, w := range want {
		if state[k] != w {
			t.Errorf("%s = %v, want %v", k, state[k], w)
		}
	}
	if e, _ := state["emailError"].(string); !strings.HasPrefix(e, "Error: This answer must be a valid email address") {
		t.Errorf("email error %q", e)
	}
	// The summary links to the field.
	run(t, ctx, chromedp.Click(chromedp.CSS(`#error-summary a[href="#`+name+`"]`)))
	if got := eval[string](t, ctx, `document.activeElement.id`); got != name {
		t.Errorf("summary link focused %q", got)
	}
	run(t, ctx,
		chromedp.SendKeys(chromedp.ID(name), "Ada"),
		setValue("#"+email, ""), chromedp.SendKeys(chromedp.ID(email), "ada@example.com"),
		chromedp.Click(chromedp.ID("forma-next")))
	waitThanks(t, ctx)
	checkAnswers(t, b.env, f.ID, 1, map[int64]any{
		f.qid(t, "Name"): "Ada", f.qid(t, "About"): `<b>"kept"</b>`, f.qid(t, "Email"): "ada@example.com",
		f.qid(t, "Team"): "Sales", f.qid(t, "Languages"): []string{"JavaScript"}, f.qid(t, "Rating"): 3,
	})
}

func (b *browserEnv) testNoJavaScript(t *testing.T) {
	// A multi-step form without JavaScript: every question on one page.
	f := allTypesForm(t, b.env, b.key, "multi-step")
	ctx := b.tab(t)
	if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatal(err)
	}
	b.open(t, ctx, f)
	if eval[bool](t, ctx, `typeof FormaLogic !== "undefined" || document.documentElement.classList.contains("js")`) {
		t.Fatal("the page script ran")
	}
	if n := eval[int](t, ctx, `Array.prototype.filter.call(document.querySelectorAll(".q"), function (q) { return q.offsetParent !== null; }).length`); n != 15 {
		t.Errorf("%d questions shown without JavaScript, want 15", n)
	}
	if eval[bool](t, ctx, `document.getElementById("forma-progress").offsetParent !== null`) {
		t.Error("the progress indicator is shown without JavaScript")
	}
	name, email := f.field(t, "Name"), f.field(t, "Email")
	run(t, ctx,
		chromedp.SendKeys(chromedp.ID(email), "grace@"),
		clickLabel(f.field(t, "Languages")+"_0"),
		clickLabel(f.field(t, "Remote")+"_1"),
		chromedp.SetUploadFiles(chromedp.ID(f.field(t, "CV")), []string{filepath.Join(b.files, "cv.txt")}),
		chromedp.Click(chromedp.ID("forma-next")),
		chromedp.WaitVisible(chromedp.ID("error-summary")),
	)
	summary := eval[string](t, ctx, `document.getElementById("error-summary").textContent`)
	if !strings.Contains(summary, "Name: Please answer this question.") || !strings.Contains(summary, "Email address: This answer must be a valid email address") {
		t.Errorf("summary %q", summary)
	}
	kept := eval[map[string]any](t, ctx, `({email: document.getElementById("`+email+`").value,
		go: document.getElementById("`+f.field(t, "Languages")+`_0").checked,
		no: document.getElementById("`+f.field(t, "Remote")+`_1").checked,
		file: document.querySelector("#question-`+fmt.Sprint(f.qid(t, "CV"))+` .file-name").textContent})`)
	if kept["email"] != "grace@" || kept["go"] != true || kept["no"] != true || kept["file"] != "cv.txt" {
		t.Errorf("answers not kept: %v", kept)
	}
	run(t, ctx,
		chromedp.SendKeys(chromedp.ID(name), "Grace Hopper"),
		setValue("#"+email, ""), chromedp.SendKeys(chromedp.ID(email), "grace@example.com"),
		chromedp.Click(chromedp.ID("forma-next")),
	)
	waitThanks(t, ctx)
	sess := responses(t, b.env, f.ID)
	if len(sess) != 1 {
		t.Fatalf("%d submissions", len(sess))
	}
	uploadID, _ := sess[0].Answers[f.qid(t, "CV")].(string)
	if uploadID == "" {
		t.Error("the file of the first attempt was not kept")
	}
	checkAnswers(t, b.env, f.ID, 1, map[int64]any{
		f.qid(t, "Name"): "Grace Hopper", f.qid(t, "Email"): "grace@example.com",
		f.qid(t, "Languages"): []string{"Go"}, f.qid(t, "Confidence"): 5, f.qid(t, "Remote"): false, f.qid(t, "CV"): uploadID,
	})
}

// testModulesFailToLoad checks the fallback when the page script's modules do not
// arrive (boot.js has marked the page for them already): the page becomes the
// plain form again, every question of a multi-step form on it.
func (b *browserEnv) testModulesFailToLoad(t *testing.T) {
	f := allTypesForm(t, b.env, b.key, "multi-step")
	ctx := b.tab(t)
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.SetBlockedURLs, network.SetBlockedURLsParams{
		URLPatterns: []*network.BlockPattern{{URLPattern: "*://*:*/assets/form/*", Block: true}},
	}); err != nil {
		t.Fatal(err)
	}
	b.open(t, ctx, f)
	waitFor(t, ctx, `document.readyState === "complete"`)
	state := eval[map[string]any](t, ctx, `({
		js: document.documentElement.classList.contains("js"),
		logic: typeof FormaLogic,
		shown: Array.prototype.filter.call(document.querySelectorAll(".q"), function (q) { return q.offsetParent !== null; }).length,
		progress: document.getElementById("forma-progress").offsetParent !== null
	})`)
	want := map[string]any{"js": false, "logic": "object", "shown": 15.0, "progress": false}
	for k, w := range want {
		if state[k] != w {
			t.Errorf("%s = %v, want %v", k, state[k], w)
		}
	}
}

// vector is a case of internal/logic/testdata/vectors.json.
type vector struct {
	Name      string          `json:"name"`
	Questions json.RawMessage `json:"questions"`
	Answers   json.RawMessage `json:"answers"`
	Expect    struct {
		Visible []int64  `json:"visible"`
		Hidden  []int64  `json:"hidden"`
		Score   *float64 `json:"score"`
	} `json:"expect"`
}

func (b *browserEnv) testLogicVectors(t *testing.T) {
	raw, err := os.ReadFile("../logic/testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []vector
	if err := json.Unmarshal(raw, &vs); err != nil {
		t.Fatal(err)
	}
	f := createForm(t, b.env, b.key, map[string]any{"title": "Vectors", "questions": []any{map[string]any{"question": "Q"}}}, nil, true)
	ctx := b.tab(t)
	b.open(t, ctx, f)
	type result struct {
		Visible  map[string]bool `json:"visible"`
		Score    float64         `json:"score"`
		HasScore bool            `json:"hasScore"`
	}
	results := eval[[]result](t, ctx, `(function (cases) {
		return cases.map(function (c) { return FormaLogic.evaluate(c.questions, c.answers || {}, c.hidden); });
	})(`+string(raw)+`)`)
	if len(results) != len(vs) {
		t.Fatalf("%d results for %d vectors", len(results), len(vs))
	}
	passed := 0
	for i, v := range vs {
		r := results[i]
		var vis, hid []int64
		for k, on := range r.Visible {
			var id int64
			fmt.Sscan(k, &id)
			if on {
				vis = append(vis, id)
			} else {
				hid = append(hid, id)
			}
		}
		slices.Sort(vis)
		slices.Sort(hid)
		wantVis, wantHid := slices.Sorted(slices.Values(v.Expect.Visible)), slices.Sorted(slices.Values(v.Expect.Hidden))
		ok := slices.Equal(vis, wantVis) && slices.Equal(hid, wantHid) && r.HasScore == (v.Expect.Score != nil) &&
			(v.Expect.Score == nil || *v.Expect.Score == r.Score)
		if !ok {
			t.Errorf("%s: visible %v hidden %v score %v/%v; want %v %v %v", v.Name, vis, hid, r.Score, r.HasScore, wantVis, wantHid, v.Expect.Score)
			continue
		}
		passed++
	}
	t.Logf("logic vectors in the page's logic.js (headless Chromium): %d/%d passed", passed, len(vs))
}

func (b *browserEnv) testScreenshots(t *testing.T) {
	f := createForm(t, b.env, b.key, map[string]any{
		"title": "Job application", "description": "Tell us about yourself. It takes about two minutes.\nWe reply within a week.",
		"questions": allTypesQuestions(),
	}, nil, true)
	ms := b.multiStepForm(t)
	shot := func(ctx context.Context, name string) { t.Helper(); shoot(t, ctx, name) }
	for _, size := range []struct {
		name string
		w, h int64
	}{{"phone", 390, 844}, {"desktop", 1280, 900}} {
		ctx := b.tab(t)
		run(t, ctx, chromedp.EmulateViewport(size.w, size.h))
		b.open(t, ctx, f)
		run(t, ctx,
			chromedp.SendKeys(chromedp.ID(f.field(t, "Name")), "Ada Lovelace"),
			// Answers the server refuses, so that the error shot shows several kinds.
			chromedp.SendKeys(chromedp.ID(f.field(t, "Email")), "ada@example"),
			chromedp.SendKeys(chromedp.ID(f.field(t, "Phone")), "12345"),
			chromedp.SendKeys(chromedp.ID(f.field(t, "Website")), "ada.example.com"),
			chromedp.SendKeys(chromedp.ID(f.field(t, "Expected")), "50"),
			clickLabel(f.field(t, "Rating")+"_3"),
			clickLabel(f.field(t, "Remote")+"_0"),
			clickLabel(f.field(t, "Languages")+"_0"),
			chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0); document.activeElement.blur()`),
		)
		shot(ctx, size.name+".png")
		run(t, ctx, chromedp.Click(chromedp.ID("forma-next")), chromedp.WaitVisible(chromedp.ID("error-summary")))
		shot(ctx, size.name+"-errors.png")
		ctx = b.tab(t)
		run(t, ctx, chromedp.EmulateViewport(size.w, size.h))
		b.open(t, ctx, ms)
		run(t, ctx, setValue("#"+ms.field(t, "Status"), "Student"), chromedp.Click(chromedp.ID("forma-next")))
		step(t, ctx, ms.qid(t, "Satisfaction"), "Step 2 of 5", "Next")
		run(t, ctx, chromedp.Click(chromedp.ID("forma-next")))
		waitFor(t, ctx, `!document.querySelector("#question-`+fmt.Sprint(ms.qid(t, "Satisfaction"))+` .error-message").hidden`)
		shot(ctx, size.name+"-multistep.png")
		run(t, ctx, clickLabel(ms.field(t, "Satisfaction")+"_1"), chromedp.Click(chromedp.ID("forma-next")))
		waitThanks(t, ctx)
		shot(ctx, size.name+"-thanks.png")
	}
	// The multi-step form as a browser without JavaScript shows it.
	ctx := b.tab(t)
	if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatal(err)
	}
	run(t, ctx, chromedp.EmulateViewport(390, 844))
	b.open(t, ctx, ms)
	shot(ctx, "phone-nojs-multistep.png")
	t.Logf("screenshots in %s", shotsDir())
}

// errorText is the error shown on question id, once it shows.
func errorText(t *testing.T, ctx context.Context, id int64) string {
	t.Helper()
	sel := fmt.Sprintf("#q_%d-error", id)
	waitFor(t, ctx, `!document.querySelector("`+sel+`").hidden`)
	return eval[string](t, ctx, `document.querySelector("`+sel+` .error-text").textContent`)
}

var pageErrorRE = regexp.MustCompile(`<p class="error-message" id="q_(\d+)-error"><span class="vh">Error: </span><span class="error-text">([^<]*)</span>`)

// testSameSentences checks that a problem reads the same whoever finds it: the
// page script before posting (required, not a number), the server answering the
// script's session save (email, currency range, with parameters), and the server
// rendering the page of a post without JavaScript; all from the catalogue.
func (b *browserEnv) testSameSentences(t *testing.T) {
	f := allTypesForm(t, b.env, b.key, "multi-step")
	name, email, age, salary := f.qid(t, "Name"), f.qid(t, "Email"), f.qid(t, "Age"), f.qid(t, "Expected")
	next := chromedp.Click(chromedp.ID("forma-next"))
	ctx := b.tab(t)
	b.open(t, ctx, f)
	script := map[int64]string{}

	waitFor(t, ctx, shown(name))
	run(t, ctx, next)
	script[name] = errorText(t, ctx, name) // found by the script
	run(t, ctx, chromedp.SendKeys(chromedp.ID(f.field(t, "Name")), "Ada"), next)
	waitFor(t, ctx, shown(f.qid(t, "About")))
	run(t, ctx, next)
	waitFor(t, ctx, shown(email))
	run(t, ctx, chromedp.SendKeys(chromedp.ID(f.field(t, "Email")), "ada@example"), next)
	script[email] = errorText(t, ctx, email) // refused by the session save
	run(t, ctx, setValue("#"+f.field(t, "Email"), "ada@example.com"), next)
	waitFor(t, ctx, shown(age))
	run(t, ctx, chromedp.SendKeys(chromedp.ID(f.field(t, "Age")), "e"), next)
	script[age] = errorText(t, ctx, age) // the browser's badInput
	run(t, ctx, setValue("#"+f.field(t, "Age"), "36"), next)
	for _, q := range []string{"Phone", "Website", "Start date", "Best time", "Team", "Languages", "Rating", "Confidence", "Remote", "CV"} {
		waitFor(t, ctx, shown(f.qid(t, q)))
		run(t, ctx, next)
	}
	waitFor(t, ctx, shown(salary))
	run(t, ctx, chromedp.SendKeys(chromedp.ID(f.field(t, "Expected")), "50"), next)
	script[salary] = errorText(t, ctx, salary)

	// The same answers posted without JavaScript (a value that is not a number
	// is refused before the others are validated, so it goes on its own).
	_, page := getPage(t, b.env, f.Share)
	server := map[int64]string{}
	for _, answers := range [][][2]string{
		{{f.field(t, "Email"), "ada@example"}, {f.field(t, "Expected"), "50"}},
		{{f.field(t, "Name"), "Ada"}, {f.field(t, "Email"), "ada@example.com"}, {f.field(t, "Age"), "e"}},
	} {
		resp := postPage(t, b.env, f.Share, append([][2]string{{"_started", startToken(t, page)}, {"website", ""}}, answers...))
		mustStatus(t, resp, http.StatusBadRequest)
		for _, m := range pageErrorRE.FindAllStringSubmatch(string(resp.Body), -1) {
			var id int64
			fmt.Sscan(m[1], &id)
			server[id] = html.UnescapeString(m[2])
		}
	}
	catalogue := map[int64]string{
		name:   form.NewReason(form.MsgRequired).Sentence(),
		email:  form.NewReason(form.MsgEmail).Sentence(),
		age:    form.NewReason(form.MsgNumber).Sentence(),
		salary: form.NewReason(form.MsgBetween, "1000", "500000").Sentence(),
	}
	for id, want := range catalogue {
		if script[id] != want || server[id] != want {
			t.Errorf("question %d: the script says %q, the server's page %q; the catalogue %q", id, script[id], server[id], want)
		}
	}
	if len(server) != len(catalogue) {
		t.Errorf("the server's page shows errors on %v", server)
	}
}

// testCatalogueInScript checks that the page script renders every message of the
// catalogue, with parameters, exactly as the server does.
func (b *browserEnv) testCatalogueInScript(t *testing.T) {
	f := createForm(t, b.env, b.key, map[string]any{"title": "Messages", "questions": []any{map[string]any{"question": "Q"}}}, nil, true)
	ctx := b.tab(t)
	b.open(t, ctx, f)
	type sample struct {
		Code   form.MessageCode  `json:"code"`
		Params map[string]string `json:"params"`
	}
	var cases []sample
	var want []string
	tricky := []string{"1000", `"{max}" & $&`, "a, b, c", "$1 {choice}"}
	for code, m := range form.Catalogue() {
		values := make([]string, len(m.Params))
		for i := range values {
			values[i] = tricky[i%len(tricky)]
		}
		r := form.NewReason(code, values...)
		cases = append(cases, sample{code, r.Params})
		want = append(want, r.Sentence())
	}
	cases = append(cases, sample{Code: "no_such_code"}, sample{})
	want = append(want, form.Reason{Code: "no_such_code"}.Sentence(), form.Reason{}.Sentence())
	input, _ := json.Marshal(cases)
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(function (cases) {
		var url = document.querySelector('link[rel=modulepreload][href$="/messages.js"]').href;
		return import(url).then(function (m) {
			return cases.map(function (c) { return m.sentence(c.code, c.params); });
		});
	})(`+string(input)+`)`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d sentences for %d cases", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%s %v: the script says %q, the server %q", cases[i].Code, cases[i].Params, got[i], want[i])
		}
	}
	t.Logf("%d catalogue messages render the same in the page script", len(want))
}
