package mail_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"forma/internal/config"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

type obj = map[string]any

// delivered is one message a test SMTP server accepted.
type delivered struct {
	from string
	to   []string
	data []byte
}

// smtpServer is a real SMTP server (go-smtp) on a loopback port that keeps
// what it is sent, or refuses every recipient when reject is set.
type smtpServer struct {
	addr   string
	reject bool
	got    chan delivered
}

func startSMTP(t *testing.T, reject bool) *smtpServer {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &smtpServer{addr: l.Addr().String(), reject: reject, got: make(chan delivered, 16)}
	srv := smtp.NewServer(s)
	srv.Domain, srv.ReadTimeout, srv.WriteTimeout = "localhost", 10*time.Second, 10*time.Second
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { srv.Close() })
	return s
}

// NewSession implements smtp.Backend.
func (s *smtpServer) NewSession(*smtp.Conn) (smtp.Session, error) { return &session{server: s}, nil }

type session struct {
	server *smtpServer
	msg    delivered
}

func (c *session) Mail(from string, _ *smtp.MailOptions) error { c.msg.from = from; return nil }

func (c *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if c.server.reject {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "mailbox unavailable"}
	}
	c.msg.to = append(c.msg.to, to)
	return nil
}

func (c *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	c.msg.data = b
	c.server.got <- c.msg
	return err
}

func (c *session) Reset()        { c.msg = delivered{} }
func (c *session) Logout() error { return nil }

// next waits for the next message the server accepts.
func (s *smtpServer) next(t *testing.T) delivered {
	t.Helper()
	select {
	case d := <-s.got:
		return d
	case <-time.After(15 * time.Second):
		t.Fatal("no email arrived")
	}
	return delivered{}
}

// withSMTP configures a server to send through addr, retrying at once.
func withSMTP(addr string) func(*config.Config) {
	return func(c *config.Config) {
		c.SMTPURL, c.MailFrom, c.MailRetrySeconds = "smtp://"+addr+"?tls=none", "Forma <forms@example.com>", 0
	}
}

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

// parsed is a delivered message read back: its headers and decoded text.
func parsed(t *testing.T, d delivered) (*mail.Message, string) {
	t.Helper()
	m, err := mail.ReadMessage(bytes.NewReader(d.data))
	if err != nil {
		t.Fatalf("unreadable message: %v\n%s", err, d.data)
	}
	var body io.Reader = m.Body
	if strings.EqualFold(m.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
		body = quotedprintable.NewReader(m.Body)
	}
	b, err := io.ReadAll(body)
	if err != nil {
		t.Fatal(err)
	}
	return m, strings.ReplaceAll(string(b), "\r\n", "\n")
}

func header(t *testing.T, m *mail.Message, name string) string {
	t.Helper()
	v, err := new(mime.WordDecoder).DecodeHeader(m.Header.Get(name))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return v
}

// TestNotificationsDelivered: a completed submission sends the owner a
// readable notification (every answer, the hidden value, a link to the
// response) and the respondent the confirmation with piped answers, through a
// real SMTP server; the answer piped into the subject adds no header and no
// recipient. Both attempts are logged as sent.
func TestNotificationsDelivered(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		smtpd := startSMTP(t, false)
		env := servertest.New(t, d, withSMTP(smtpd.addr))
		key := env.NewKey()
		path, share, q := notifiedForm(t, env, key)
		sid := submit(t, env, share, q)

		byTo := map[string]delivered{}
		for range 2 {
			m := smtpd.next(t)
			if len(m.to) != 1 {
				t.Fatalf("envelope recipients %v", m.to)
			}
			byTo[m.to[0]] = m
		}
		owner, body := parsed(t, byTo["owner@example.com"])
		if from := header(t, owner, "From"); from != `"Forma" <forms@example.com>` && from != "Forma <forms@example.com>" {
			t.Errorf("From %q", from)
		}
		if to := header(t, owner, "To"); !strings.Contains(to, "owner@example.com") {
			t.Errorf("To %q", to)
		}
		if s := header(t, owner, "Subject"); s != "New response to Café signup" {
			t.Errorf("owner subject %q", s)
		}
		for _, want := range []string{"Name: Ada\n", "Email: ada@example.com\n", "Comments: fine\n    Bcc: evil@evil.test",
			"utm_source: newsletter\n", fmt.Sprintf("%s/forms/%s/responses/%s", env.URL, strings.TrimPrefix(path, "/api/v1/forms/"), sid)} {
			if !strings.Contains(body, want) {
				t.Errorf("owner body lacks %q:\n%s", want, body)
			}
		}

		conf, text := parsed(t, byTo["ada@example.com"])
		if s := header(t, conf, "Subject"); s != "Thanks Ada: fine Bcc: evil@evil.test X-Injected: yes body" {
			t.Errorf("confirmation subject %q", s)
		}
		if conf.Header.Get("X-Injected") != "" || conf.Header.Get("Bcc") != "" || owner.Header.Get("X-Injected") != "" {
			t.Error("an answer added a header")
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
		case m := <-smtpd.got:
			t.Errorf("a third message went to %v", m.to)
		case <-time.After(200 * time.Millisecond):
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
			"rejecting": func(t *testing.T) string { return startSMTP(t, true).addr },
			"down":      down,
		} {
			t.Run(name, func(t *testing.T) {
				env := servertest.New(t, d, withSMTP(addr(t)))
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
					if e["errorMessage"] == nil || e["errorMessage"] == "" {
						t.Errorf("a failed attempt without a reason: %v", e)
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
