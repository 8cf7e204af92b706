package dashboard_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"forma/internal/server/servertest"
	"forma/internal/store"
)

// TestBrowserJourney walks an owner's whole first day in headless Chromium, on
// each database (SQLite at 1280 px, PostgreSQL at 360 px, the narrowest phone
// the dashboard supports, so that both ends are driven through and every shot
// checks that nothing scrolls sideways): sign in through the setup link; create an API key and
// use it; build a form of five question types with a showIf rule in the builder
// and publish it; answer it on the public page, where the rule hides and shows
// its question; find the response in the table and the chart; export CSV; set,
// test and see the webhook deliver; generate analytics; ask the chat a
// question; revoke the key. Every step is done through the pages, as a person
// would; the API is called only with the key the page handed out.
func TestBrowserJourney(t *testing.T) {
	alloc, dir := startChromium(t, 4*time.Minute)
	widths := map[store.Dialect]int64{store.SQLite: 1280, store.Postgres: 360}
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d, allowPrivate)
		tab, cancel := chromedp.NewContext(alloc)
		defer cancel()
		j := &journey{chrome: chrome{t: t, tab: tab, dir: dir, width: widths[d]}, env: env}
		j.signInWithSetupLink()
		j.createKey()
		j.buildAndPublish()
		j.answer("Ada Lovelace", "Vegan")
		j.seeResponse()
		j.exportCSV()
		j.connectWebhook()
		j.analyse()
		j.ask()
		j.revokeKey()
	})
	t.Logf("screenshots in %s", dir)
}

// journey is the state the steps hand on: the account's key, the form and its
// public link.
type journey struct {
	chrome
	env    *servertest.Env
	key    string
	formID int64
	share  string
}

// shot writes a screenshot named journey-<name>-<width>.png.
func (j *journey) shot(name string) { j.chrome.shot("journey-" + name) }

// signInWithSetupLink (step 1): the first start's setup link sets the owner's
// password and signs them in.
func (j *journey) signInWithSetupLink() {
	acct := j.env.Account("free")
	j.do(chromedp.EmulateViewport(j.width, 860), chromedp.Navigate(j.env.URL+setupLink(j.t, j.env, acct, 24*time.Hour)),
		chromedp.WaitVisible(chromedp.ID("confirm")), chromedp.SendKeys(chromedp.ID("password"), password),
		chromedp.SendKeys(chromedp.ID("confirm"), password), chromedp.Submit(chromedp.ID("confirm")),
		chromedp.WaitVisible(chromedp.CSS(".facts")))
	if got := j.text(chromedp.Text(chromedp.CSS(".facts"))); !strings.Contains(got, acct.Email) {
		j.t.Errorf("after the setup link the overview says %q", got)
	}
}

// createKey (step 2): a key made on /keys is shown once and works with the API.
func (j *journey) createKey() {
	j.do(chromedp.Navigate(j.env.URL+"/keys"), chromedp.WaitVisible(chromedp.ID("name")),
		chromedp.SendKeys(chromedp.ID("name"), "Journey"), chromedp.Submit(chromedp.ID("name")),
		chromedp.WaitVisible(chromedp.ID("new-key")))
	j.key = j.text(chromedp.Value(chromedp.ID("new-key")))
	if r := j.env.Do("GET", "/api/v1/forms", j.key, nil); r.Status != http.StatusOK {
		j.t.Fatalf("GET /api/v1/forms with the new key: %d %s", r.Status, r.Body)
	}
	j.do(chromedp.Navigate(j.env.URL+"/keys"), chromedp.WaitVisible(chromedp.CSS("table.keys")))
	if body := j.text(chromedp.Text(chromedp.CSS("main"))); strings.Contains(body, j.key) {
		j.t.Error("the keys page shows the key a second time")
	}
}

// buildAndPublish (steps 3 and 4): a new form with five questions (text, email,
// select, file upload, yes/no), a showIf rule and publication, all in the
// builder.
func (j *journey) buildAndPublish() {
	j.do(chromedp.Navigate(j.env.URL+"/forms"), chromedp.Click(chromedp.CSS(`.page-head a[href="/forms/new"]`)),
		chromedp.WaitVisible(chromedp.ID("title")), chromedp.SendKeys(chromedp.ID("title"), "Team offsite RSVP"),
		chromedp.Submit(chromedp.ID("title")), chromedp.WaitVisible(chromedp.ID("add")))
	j.buildQuestions()
	j.share = j.text(chromedp.Value(chromedp.ID("share-link")))
	loc := j.text(chromedp.Location())
	id, err := strconv.ParseInt(strings.TrimPrefix(strings.SplitN(loc, "?", 2)[0], j.env.URL+"/forms/"), 10, 64)
	if err != nil {
		j.t.Fatalf("the editor's address %s: %v", loc, err)
	}
	j.formID = id
	j.shot("editor")
	f := j.apiForm()
	if !f.Published || len(f.Questions) != 5 || f.Questions[4].Logic == nil {
		j.t.Fatalf("the API reads the built form as %+v", f)
	}
}

// journeyForm is what the steps read of the form through the API.
type journeyForm struct {
	Published bool `json:"isPublished"`
	Questions []struct {
		ID       int64  `json:"id"`
		Question string `json:"question"`
		Logic    any    `json:"conditionalLogic"`
	} `json:"questions"`
}

// apiForm reads the journey's form with the key.
func (j *journey) apiForm() journeyForm {
	j.t.Helper()
	r := j.env.Do("GET", fmt.Sprintf("/api/v1/forms/%d", j.formID), j.key, nil)
	var f journeyForm
	if r.Status != http.StatusOK {
		j.t.Fatalf("GET the form: %d %s", r.Status, r.Body)
	}
	if err := json.Unmarshal(r.Body, &f); err != nil {
		j.t.Fatal(err)
	}
	return f
}

// answer (step 5) fills in the public page as a respondent: the certificate
// question is hidden until the meal is Vegan, hidden again for Fish, shown for
// meal, and the response is sent with a file when it is shown.
func (j *journey) answer(name, meal string) {
	qs := j.apiForm().Questions
	sel := func(i int) string { return "#question-" + strconv.FormatInt(qs[i].ID, 10) }
	field := func(i int) string { return "q_" + strconv.FormatInt(qs[i].ID, 10) }
	cert := sel(4)
	j.do(chromedp.Navigate(j.share), chromedp.WaitVisible(chromedp.ID("forma-form")),
		chromedp.SendKeys(chromedp.CSS(`[name="`+field(0)+`"]`), name),
		chromedp.SendKeys(chromedp.CSS(`[name="`+field(1)+`"]`), strings.ToLower(strings.Fields(name)[0])+"@example.com"))
	certShown := func() bool {
		return j.text(chromedp.Evaluate[string](`String(!document.querySelector("`+cert+`").hidden)`)) == "true"
	}
	choose := func(v string) {
		j.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => { const e = document.querySelector("%s select");
			e.value = %q; e.dispatchEvent(new Event("input", {bubbles: true})); e.dispatchEvent(new Event("change", {bubbles: true})); })()`,
			sel(2), v)))
	}
	if certShown() {
		j.t.Error("the certificate question shows before a meal is chosen")
	}
	choose("Vegan")
	if !certShown() {
		j.t.Error("the certificate question stays hidden for Vegan")
	}
	choose("Fish")
	if certShown() {
		j.t.Error("the certificate question shows for Fish")
	}
	choose(meal)
	if meal == "Vegan" {
		file := filepath.Join(j.t.TempDir(), "certificate.txt")
		if err := os.WriteFile(file, []byte("Vegan since 2019.\n"), 0o644); err != nil {
			j.t.Fatal(err)
		}
		j.do(chromedp.SetUploadFiles(chromedp.CSS(cert+` input[type="file"]`), []string{file}))
	}
	j.shot("respondent")
	j.do(chromedp.Click(chromedp.CSS(`#forma-form button[type="submit"]`)), chromedp.WaitVisible(chromedp.ID("thanks-title")))
}

// seeResponse (step 6): the response is the table's first row, and the summary
// charts its meal.
func (j *journey) seeResponse() {
	base := fmt.Sprintf("%s/forms/%d", j.env.URL, j.formID)
	j.do(chromedp.Navigate(base+"/responses"), chromedp.WaitVisible(chromedp.CSS("table.responses")))
	if row := j.text(chromedp.Text(chromedp.CSS("table.responses tbody tr:first-child"))); !strings.Contains(row, "Ada Lovelace") ||
		!strings.Contains(row, "Vegan") || !strings.Contains(row, "certificate.txt") {
		j.t.Errorf("the table's first row says %q", row)
	}
	j.shot("responses")
	j.do(chromedp.Navigate(base+"/summary"), chromedp.WaitVisible(chromedp.CSS(".chart-svg")))
	meal := j.text(chromedp.Evaluate[string](`[...document.querySelectorAll(".question-summary")]
		.filter((s) => s.querySelector("h2").textContent.includes("Meal"))
		.map((s) => [...s.querySelectorAll("svg text.label, svg text.value")].map((e) => e.textContent.trim()).join("|")).join("")`))
	if !strings.Contains(meal, "Vegan|100% · 1") || !strings.Contains(meal, "Fish|0% · 0") {
		j.t.Errorf("the meal chart reads %q", meal)
	}
	j.shot("summary")
}

// exportCSV (step 7): the responses page's CSV link downloads the response.
func (j *journey) exportCSV() {
	dir := j.t.TempDir()
	if _, err := chromedp.CallBrowser(j.tab, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir}); err != nil {
		j.t.Fatal(err)
	}
	j.do(chromedp.Navigate(fmt.Sprintf("%s/forms/%d/responses", j.env.URL, j.formID)), chromedp.WaitVisible(chromedp.CSS(".exports")),
		chromedp.Click(chromedp.CSS(`.exports a[href$="export.csv"]`)))
	var csv []byte
	for deadline := time.Now().Add(10 * time.Second); csv == nil; time.Sleep(100 * time.Millisecond) {
		files, _ := filepath.Glob(filepath.Join(dir, "*.csv"))
		if len(files) == 1 {
			csv, _ = os.ReadFile(files[0])
		} else if time.Now().After(deadline) {
			j.t.Fatalf("no CSV downloaded (found %v)", files)
		}
	}
	lines := strings.Split(strings.TrimSpace(string(csv)), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "Meal") || !strings.Contains(lines[1], "Ada Lovelace") || !strings.Contains(lines[1], "Vegan") {
		j.t.Errorf("the CSV export is %q", csv)
	}
}

// connectWebhook (step 8): a loopback receiver is set as the webhook and
// tested, and the next response appears in the delivery log.
func (j *journey) connectWebhook() {
	rc := newReceiver(j.t, http.StatusOK)
	j.do(chromedp.Navigate(fmt.Sprintf("%s/forms/%d/webhook", j.env.URL, j.formID)), chromedp.WaitVisible(chromedp.ID("webhook-url")),
		chromedp.SetValue(chromedp.ID("webhook-url"), rc.URL+"/hooks/forma"),
		chromedp.Click(chromedp.CSS(`form[action$="/webhook"] button`)), chromedp.WaitVisible(chromedp.CSS(".banner.ok")),
		chromedp.Click(chromedp.CSS(`form[action$="/webhook/test"] button`)), chromedp.WaitVisible(chromedp.CSS(".test-result")))
	if got := j.text(chromedp.Text(chromedp.CSS(".webhook-facts"))); !strings.Contains(got, "On") {
		j.t.Errorf("after saving a first webhook URL its status says %q (the switch should start on)", got)
	}
	if got := j.text(chromedp.Text(chromedp.CSS(".test-result"))); !strings.Contains(got, "Test delivered") || !strings.Contains(got, "200") {
		j.t.Errorf("the webhook test says %q", got)
	}
	j.answer("Grace Hopper", "Fish")
	hook := fmt.Sprintf("%s/forms/%d/webhook", j.env.URL, j.formID)
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		j.do(chromedp.Navigate(hook), chromedp.WaitVisible(chromedp.ID("log-title")))
		log := j.text(chromedp.Text(chromedp.CSS(`section[aria-labelledby="log-title"]`)))
		if strings.Contains(log, "200") {
			break
		}
		if time.Now().After(deadline) {
			j.t.Fatalf("no delivery in the log: %q", log)
		}
	}
	j.shot("webhook")
}

// analyse (step 9): the analysis is generated on its page.
func (j *journey) analyse() {
	j.do(chromedp.Navigate(fmt.Sprintf("%s/forms/%d/analytics", j.env.URL, j.formID)), chromedp.WaitVisible(chromedp.CSS(".ai-action form")),
		chromedp.Submit(chromedp.CSS(".ai-action form")), chromedp.WaitVisible(chromedp.CSS(".analysis")))
	if got := j.text(chromedp.Text(chromedp.CSS(".analysis"))); !strings.Contains(got, "2") {
		j.t.Errorf("the analysis says %q", got)
	}
	j.shot("analytics")
}

// ask (step 10): the chat answers with the right count.
func (j *journey) ask() {
	j.do(chromedp.Navigate(fmt.Sprintf("%s/forms/%d/chat", j.env.URL, j.formID)), chromedp.WaitVisible(chromedp.CSS(".ai-action form")),
		chromedp.Submit(chromedp.CSS(".ai-action form")), chromedp.WaitVisible(chromedp.ID("message")),
		chromedp.SendKeys(chromedp.ID("message"), "How many people chose Vegan?"), chromedp.Submit(chromedp.ID("message")),
		chromedp.WaitVisible(chromedp.ID("latest")))
	got := j.text(chromedp.Text(chromedp.ID("latest")))
	if n := regexp.MustCompile(`\d+`).FindString(got); n != "1" || !strings.Contains(got, "Vegan") {
		j.t.Errorf("asked how many chose Vegan (1 of 2), the chat says %q", got)
	}
	j.shot("chat")
}

// revokeKey (step 11): revoked on /keys after its confirmation, the key gets
// 401 from the API.
func (j *journey) revokeKey() {
	j.do(chromedp.Navigate(j.env.URL+"/keys"), chromedp.WaitVisible(chromedp.CSS("table.keys")),
		chromedp.Click(chromedp.CSS(`table.keys a[href$="/revoke"]`)), chromedp.WaitVisible(chromedp.CSS("form .danger-solid")),
		chromedp.Click(chromedp.CSS("form .danger-solid")), chromedp.WaitVisible(chromedp.CSS(".banner.ok")))
	if r := j.env.Do("GET", "/api/v1/forms", j.key, nil); r.Status != http.StatusUnauthorized {
		j.t.Errorf("GET /api/v1/forms with the revoked key: %d", r.Status)
	}
	j.shot("keys-revoked")
}
