package mail_test

import (
	"errors"
	"fmt"
	"net"
	"net/mail"
	"slices"
	"strings"
	"testing"
	"time"

	"forma/internal/mail/mailtest"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

type obj = map[string]any

// notifiedForm creates and publishes a form with a name, an email and a
// comments question, a hidden field, an owner recipient and a confirmation
// whose subject pipes the comments (a multi-line answer: the injection
// attempt). It returns the form's API path, share token and question ids.
func notifiedForm(t *testing.T, env *servertest.Env, key string) (path, share string, q []string) {
	t.Helper()
	r := env.Do("POST", "/api/v1/forms", key, obj{"title": "Café signup", "hiddenFields": []string{"utm_source"},
		"questions": []obj{{"question": "Name", "required": true}, {"type": "email", "question": "Email", "required": true},
			{"type": "textarea", "question": "Comments"}}})
	f := r.JSON(t)
	path = fmt.Sprintf("/api/v1/forms/%v", f["id"])
	for _, qu := range f["questions"].([]any) {
		q = append(q, fmt.Sprint(qu.(obj)["id"]))
	}
	patch := env.Do("PATCH", path, key, obj{"notifications": obj{"recipients": []string{"owner@example.com"},
		"confirmation": obj{"enabled": true, "emailQuestionId": f["questions"].([]any)[1].(obj)["id"],
			"subject": "Thanks {{" + q[0] + "}}: {{" + q[2] + "}}", "message": "Hello {{" + q[0] + "}},\nyou wrote: {{" + q[2] + "}}"}}})
	if patch.Status != 200 {
		t.Fatalf("PATCH notifications: %d %s", patch.Status, patch.Body)
	}
	if r := env.Do("POST", path+"/publish", key, nil); r.Status != 200 {
		t.Fatalf("publish: %d", r.Status)
	}
	return path, f["shareUrl"].(string), q
}

// injection is an answer that would add headers if it reached one as it is.
const injection = "fine\r\nBcc: evil@evil.test\r\nX-Injected: yes\n\nbody"

// submit completes a submission and returns its id.
func submit(t *testing.T, env *servertest.Env, share string, q []string) string {
	t.Helper()
	r := env.Do("POST", "/f/"+share+"/submissions", "", obj{
		"answers": obj{q[0]: "Ada", q[1]: "ada@example.com", q[2]: injection}, "hidden": obj{"utm_source": "newsletter"}})
	if r.Status != 201 {
		t.Fatalf("submission: %d %s", r.Status, r.Body)
	}
	return r.JSON(t)["id"].(string)
}

// TestNotificationsDelivered: a completed submission sends the owner a
// readable notification (every answer, the hidden value, a link to the
// response) and the respondent the confirmation with piped answers, through a
// real SMTP server; the answer piped into the subject adds no header and no
// recipient. Both attempts are logged as sent.
func TestNotificationsDelivered(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		smtpd := mailtest.Start(t, false)
		env := servertest.New(t, d, mailtest.Configure(smtpd.Addr))
		key := env.NewKey()
		path, share, q := notifiedForm(t, env, key)
		sid := submit(t, env, share, q)

		byTo := map[string]mailtest.Delivered{}
		for range 2 {
			m := smtpd.Next(t)
			if len(m.To) != 1 {
				t.Fatalf("envelope recipients %v", m.To)
			}
			byTo[m.To[0]] = m
		}
		owner, body := mailtest.Parse(t, byTo["owner@example.com"])
		if from := mailtest.Header(t, owner, "From"); from != `"Forma" <forms@example.com>` && from != "Forma <forms@example.com>" {
			t.Errorf("From %q", from)
		}
		if to := mailtest.Header(t, owner, "To"); !strings.Contains(to, "owner@example.com") {
			t.Errorf("To %q", to)
		}
		if s := mailtest.Header(t, owner, "Subject"); s != "New response to Café signup" {
			t.Errorf("owner subject %q", s)
		}
		for _, want := range []string{"Name: Ada\n", "Email: ada@example.com\n", "Comments: fine\n    Bcc: evil@evil.test",
			"utm_source: newsletter\n", fmt.Sprintf("%s/forms/%s/responses/%s", env.URL, strings.TrimPrefix(path, "/api/v1/forms/"), sid)} {
			if !strings.Contains(body, want) {
				t.Errorf("owner body lacks %q:\n%s", want, body)
			}
		}

		if got := replyTo(t, owner); got != "ada@example.com" {
			t.Errorf("the owner notification's Reply-To is %q", got)
		}

		conf, text := mailtest.Parse(t, byTo["ada@example.com"])
		if s := mailtest.Header(t, conf, "Subject"); s != "Thanks Ada: fine Bcc: evil@evil.test X-Injected: yes body" {
			t.Errorf("confirmation subject %q", s)
		}
		if conf.Header.Get("X-Injected") != "" || conf.Header.Get("Bcc") != "" || owner.Header.Get("X-Injected") != "" {
			t.Error("an answer added a header")
		}
		if conf.Header.Get("Reply-To") != "" {
			t.Errorf("the confirmation replies to %q", conf.Header.Get("Reply-To"))
		}
		if conf.Header.Get("Auto-Submitted") != "auto-generated" {
			t.Errorf("Auto-Submitted %q", conf.Header.Get("Auto-Submitted"))
		}
		if !strings.HasPrefix(text, "Hello Ada,\nyou wrote: fine") {
			t.Errorf("confirmation body %q", text)
		}

		logs := waitLogs(t, env, key, path, 2)
		kinds := []string{}
		for _, e := range logs["logs"].([]any) {
			e := e.(obj)
			kinds = append(kinds, e["kind"].(string))
			if e["status"] != "sent" || e["attempt"] != 1.0 || e["errorMessage"] != nil || e["sessionId"] != sid {
				t.Errorf("log entry %v", e)
			}
		}
		slices.Sort(kinds)
		if !slices.Equal(kinds, []string{"confirmation", "owner"}) || logs["sending"] != true {
			t.Errorf("logs %v", logs)
		}
		select {
		case m := <-smtpd.Got:
			t.Errorf("a third message went to %v", m.To)
		case <-time.After(200 * time.Millisecond):
		}
	})
}

// replyTo is the address of a message's Reply-To header ("" without one).
func replyTo(t *testing.T, m *mail.Message) string {
	t.Helper()
	if m.Header.Get("Reply-To") == "" {
		return ""
	}
	list, err := m.Header.AddressList("Reply-To")
	if err != nil || len(list) != 1 {
		t.Fatalf("Reply-To %q: %v", m.Header.Get("Reply-To"), err)
	}
	return list[0].Address
}

// TestOwnerReplyTo: the owner notification replies to the address a respondent
// gave in the confirmation's email question, also while the confirmation is
// off, and has no Reply-To when the question was left unanswered.
func TestOwnerReplyTo(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		smtpd := mailtest.Start(t, false)
		env := servertest.New(t, d, mailtest.Configure(smtpd.Addr))
		key := env.NewKey()
		f := env.Do("POST", "/api/v1/forms", key, obj{"title": "Feedback", "questions": []obj{{"question": "Comment", "required": true},
			{"type": "email", "question": "Email, if you want an answer"}}}).JSON(t)
		path, share := fmt.Sprintf("/api/v1/forms/%v", f["id"]), f["shareUrl"].(string)
		q := []string{}
		for _, qu := range f["questions"].([]any) {
			q = append(q, fmt.Sprint(qu.(obj)["id"]))
		}
		if r := env.Do("PATCH", path, key, obj{"notifications": obj{"recipients": []string{"owner@example.com"},
			"confirmation": obj{"enabled": false, "emailQuestionId": f["questions"].([]any)[1].(obj)["id"]}}}); r.Status != 200 {
			t.Fatalf("PATCH notifications: %d %s", r.Status, r.Body)
		}
		if r := env.Do("POST", path+"/publish", key, nil); r.Status != 200 {
			t.Fatalf("publish: %d", r.Status)
		}
		for _, answers := range []obj{{q[0]: "Great", q[1]: "grace@example.com"}, {q[0]: "Fine"}} {
			if r := env.Do("POST", "/f/"+share+"/submissions", "", obj{"answers": answers}); r.Status != 201 {
				t.Fatalf("submission: %d %s", r.Status, r.Body)
			}
			m, _ := mailtest.Parse(t, smtpd.Next(t))
			want, _ := answers[q[1]].(string)
			if got := replyTo(t, m); got != want {
				t.Errorf("answers %v: Reply-To %q, want %q", answers, got, want)
			}
		}
	})
}

// waitLogs polls the notification log until it has n entries.
func waitLogs(t *testing.T, env *servertest.Env, key, path string, n int) obj {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		r := env.For(t).Do("GET", path+"/notifications/logs?limit=100", key, nil)
		if r.Status != 200 {
			t.Fatalf("logs: %d %s", r.Status, r.Body)
		}
		if logs := r.JSON(t); logs["total"] == float64(n) {
			return logs
		}
		if time.Now().After(deadline) {
			t.Fatalf("the notification log never reached %d entries: %s", n, r.Body)
		}
	}
}

// TestFailingSMTP: with an SMTP server that refuses the recipients, or none
// listening, submissions are still acknowledged and stored, and each email is
// tried 3 times, each attempt logged, the last as failed; none is lost in
// between.
func TestFailingSMTP(t *testing.T) {
	down := func(t *testing.T) string {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := l.Addr().String()
		l.Close()
		return addr
	}
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		for name, addr := range map[string]func(t *testing.T) string{
			"rejecting": func(t *testing.T) string { return mailtest.Start(t, true).Addr },
			"down":      down,
		} {
			t.Run(name, func(t *testing.T) {
				env := servertest.New(t, d, mailtest.Configure(addr(t)))
				key := env.NewKey()
				path, share, q := notifiedForm(t, env, key)
				sid := submit(t, env, share, q)
				if r := env.Do("GET", path+"/responses/"+sid, key, nil); r.Status != 200 {
					t.Fatalf("the response: %d", r.Status)
				}
				logs := waitLogs(t, env, key, path, 6)
				count := map[string]int{}
				for _, e := range logs["logs"].([]any) {
					e := e.(obj)
					count[fmt.Sprint(e["kind"], " ", e["status"], " ", e["attempt"])]++
					if reason, _ := e["errorMessage"].(string); reason == "" || strings.Contains(reason, "@") {
						t.Errorf("a failed attempt without a reason, or with an address in it (the log has its own column): %v", e)
					}
				}
				for _, kind := range []string{"owner", "confirmation"} {
					for _, want := range []string{kind + " retrying 1", kind + " retrying 2", kind + " failed 3"} {
						if count[want] != 1 {
							t.Errorf("%s: %d entries, want 1 (%v)", want, count[want], count)
						}
					}
				}
				if n, err := env.Store.PendingMail(t.Context(), formIDOf(t, path)); err != nil || n != 0 {
					t.Errorf("%d jobs left in the outbox (%v)", n, err)
				}
			})
		}
	})
}

func formIDOf(t *testing.T, path string) int64 {
	var id int64
	if _, err := fmt.Sscan(strings.TrimPrefix(path, "/api/v1/forms/"), &id); err != nil {
		t.Fatal(errors.Join(err, fmt.Errorf("path %s", path)))
	}
	return id
}

// TestWithoutSMTP: a server without FORMA_SMTP_URL keeps notification
// settings but queues and sends nothing, and its log says it does not send.
func TestWithoutSMTP(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		path, share, q := notifiedForm(t, env, key)
		submit(t, env, share, q)
		r := env.Do("GET", path+"/notifications/logs", key, nil)
		if logs := r.JSON(t); logs["sending"] != false || logs["total"] != 0.0 {
			t.Errorf("logs %s", r.Body)
		}
		if n, err := env.Store.PendingMail(t.Context(), formIDOf(t, path)); err != nil || n != 0 {
			t.Errorf("%d jobs queued (%v)", n, err)
		}
		if f := env.Do("GET", path, key, nil).JSON(t); f["notifications"] == nil {
			t.Error("the settings were not kept")
		}
	})
}
