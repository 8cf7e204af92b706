package dashboard_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"forma/internal/mail/mailtest"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// TestBrowserEmail sets a form's email notifications on its Email tab in
// headless Chromium, with a real SMTP server behind the server: two owner
// recipients (one of them refused by the SMTP server) and a confirmation to the
// respondent's email question with a piped subject. A respondent then answers on
// the public page; the owner and the respondent get their emails, and the tab's
// log shows both as sent and the refused address's three attempts, the last
// failed. It writes screenshots of the tab at 1280 and 390 px.
func TestBrowserEmail(t *testing.T) {
	alloc, dir := startChromium(t, 2*time.Minute)
	smtpd := mailtest.Start(t, false)
	env := servertest.New(t, store.SQLite, mailtest.Configure(smtpd.Addr))
	_, key := signedInOwner(t, env, "owner@example.com")
	s := newSurvey(t, env, key, "Café tasting — spring menu sign-up",
		map[string]any{"type": "text", "question": "Your name", "required": true},
		map[string]any{"type": "email", "question": "Your email", "required": true})
	for i, width := range []int64{1280, 390} {
		tab, cancelTab := chromedp.NewContext(alloc)
		c := &chrome{t: t, tab: tab, dir: dir, width: width}
		c.open(env, emailTab(s), "owner@example.com")
		c.do(chromedp.WaitVisible(chromedp.ID("recipients")))
		if i == 0 {
			c.setNotifications(s)
			c.answerPublicPage(env, s)
			checkDelivered(t, smtpd)
			c.waitForMailLog(env, s, 5)
			got := c.text(chromedp.Text(chromedp.CSS("table.deliveries")))
			for _, want := range []string{"team@example.com", "ada@example.com", "archive@" + mailtest.BounceDomain, "Sent", "Failed", "550"} {
				if !strings.Contains(got, want) {
					t.Errorf("the log lacks %q: %q", want, got)
				}
			}
		}
		c.do(chromedp.WaitVisible(chromedp.CSS("table.deliveries")))
		c.shot("email")
		cancelTab()
	}
	t.Logf("screenshots in %s", dir)
}

// emailTab is the dashboard path of the survey's Email tab.
func emailTab(s survey) string { return fmt.Sprintf("/forms/%d/email", s.ID) }

// setNotifications fills the Email tab as an owner would and saves it.
func (c *chrome) setNotifications(s survey) {
	c.t.Helper()
	name := strconv.FormatInt(s.Questions[0], 10)
	c.do(chromedp.SendKeys(chromedp.ID("recipients"), "team@example.com\narchive@"+mailtest.BounceDomain),
		chromedp.Click(chromedp.ID("confirm")), chromedp.SetValue(chromedp.ID("email-question"), strconv.FormatInt(s.Questions[1], 10)),
		chromedp.SendKeys(chromedp.ID("subject"), "Thanks, {{"+name+"}}!"),
		chromedp.SendKeys(chromedp.ID("message"), "Hello {{"+name+"}},\nsee you at the tasting."))
	c.shot("email-filled")
	c.do(chromedp.Click(chromedp.CSS(`form[action$="/email"] button[type=submit]`)), chromedp.WaitVisible(chromedp.CSS(".banner.ok")))
	if got := c.text(chromedp.Text(chromedp.CSS(".banner.ok"))); got != "The email settings were saved." {
		c.t.Errorf("after saving the tab says %q", got)
	}
}

// answerPublicPage completes the survey on its public page as Ada.
func (c *chrome) answerPublicPage(env *servertest.Env, s survey) {
	c.t.Helper()
	field := func(i int) string { return `[name="q_` + strconv.FormatInt(s.Questions[i], 10) + `"]` }
	c.do(chromedp.Navigate(env.URL+"/f/"+s.Share), chromedp.WaitVisible(chromedp.ID("forma-form")),
		chromedp.SendKeys(chromedp.CSS(field(0)), "Ada"), chromedp.SendKeys(chromedp.CSS(field(1)), "ada@example.com"),
		chromedp.Click(chromedp.CSS(`#forma-form button[type="submit"]`)), chromedp.WaitVisible(chromedp.ID("thanks-title")))
}

// checkDelivered reads the two emails the SMTP server accepts: the owner
// notification to the recipient it takes, and the confirmation with its piped
// subject to the address Ada gave.
func checkDelivered(t *testing.T, smtpd *mailtest.Server) {
	t.Helper()
	subjects := map[string]string{}
	for range 2 {
		d := smtpd.Next(t)
		m, _ := mailtest.Parse(t, d)
		subjects[strings.Join(d.To, ",")] = mailtest.Header(t, m, "Subject")
	}
	if got := subjects["team@example.com"]; got != "New response to Café tasting — spring menu sign-up" {
		t.Errorf("the owner notification's subject is %q (all: %v)", got, subjects)
	}
	if got := subjects["ada@example.com"]; got != "Thanks, Ada!" {
		t.Errorf("the confirmation's subject is %q (all: %v)", got, subjects)
	}
}

// waitForMailLog reloads the survey's Email tab until its log has n entries.
func (c *chrome) waitForMailLog(env *servertest.Env, s survey, n int) {
	c.t.Helper()
	count := `String(document.querySelectorAll("table.deliveries tbody tr").length)`
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		c.do(chromedp.Navigate(env.URL+emailTab(s)), chromedp.WaitVisible(chromedp.ID("mail-log-title")))
		if got := c.text(chromedp.Evaluate[string](count)); got == strconv.Itoa(n) {
			return
		} else if time.Now().After(deadline) {
			c.t.Fatalf("the Email tab's log shows %s entries, want %d", got, n)
		}
	}
}
