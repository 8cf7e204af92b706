// Package mailtest starts a real SMTP server (go-smtp, in the test binary, on a
// loopback port) for tests of email notifications, and reads back what it was
// sent.
package mailtest

import (
	"bytes"
	"io"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"forma/internal/config"
)

// BounceDomain is the domain whose addresses a Server refuses (550), so that
// one recipient of a message can fail while the others get it.
const BounceDomain = "bounce.test"

// Delivered is one message the server accepted.
type Delivered struct {
	From string   // the envelope sender
	To   []string // the envelope recipients
	Data []byte   // the message as sent
}

// Server is a real SMTP server that keeps what it is sent. It refuses every
// recipient when started with reject, and always those at BounceDomain.
type Server struct {
	// Addr is the server's host:port.
	Addr string
	// Got receives every accepted message.
	Got    chan Delivered
	reject bool
}

// Start starts a server for the rest of the test.
func Start(t testing.TB, reject bool) *Server {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Addr: l.Addr().String(), reject: reject, Got: make(chan Delivered, 16)}
	srv := smtp.NewServer(s)
	srv.Domain, srv.ReadTimeout, srv.WriteTimeout = "localhost", 10*time.Second, 10*time.Second
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { srv.Close() })
	return s
}

// Configure makes a server send its email through the SMTP server at addr
// (no TLS) from "Forma <forms@example.com>", retrying a failed email at once.
func Configure(addr string) func(*config.Config) {
	return func(c *config.Config) {
		c.SMTPURL, c.MailFrom, c.MailRetrySeconds = "smtp://"+addr+"?tls=none", "Forma <forms@example.com>", 0
	}
}

// NewSession implements smtp.Backend.
func (s *Server) NewSession(*smtp.Conn) (smtp.Session, error) { return &session{server: s}, nil }

// Next waits for the next message the server accepts.
func (s *Server) Next(t testing.TB) Delivered {
	t.Helper()
	select {
	case d := <-s.Got:
		return d
	case <-time.After(15 * time.Second):
		t.Fatal("no email arrived")
	}
	return Delivered{}
}

type session struct {
	server *Server
	msg    Delivered
}

// Mail records the sender.
func (c *session) Mail(from string, _ *smtp.MailOptions) error { c.msg.From = from; return nil }

// Rcpt records a recipient, or refuses it as the server is set to.
func (c *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if c.server.reject || strings.HasSuffix(to, "@"+BounceDomain) {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "mailbox unavailable"}
	}
	c.msg.To = append(c.msg.To, to)
	return nil
}

// Data records the message and hands it to the test.
func (c *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	c.msg.Data = b
	c.server.Got <- c.msg
	return err
}

// Reset forgets the message under way.
func (c *session) Reset() { c.msg = Delivered{} }

// Logout ends the session.
func (c *session) Logout() error { return nil }

// Parse reads a delivered message back: its headers and its decoded text, with
// "\n" line ends.
func Parse(t testing.TB, d Delivered) (*mail.Message, string) {
	t.Helper()
	m, err := mail.ReadMessage(bytes.NewReader(d.Data))
	if err != nil {
		t.Fatalf("unreadable message: %v\n%s", err, d.Data)
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

// Header is the decoded value of a message's header.
func Header(t testing.TB, m *mail.Message, name string) string {
	t.Helper()
	v, err := new(mime.WordDecoder).DecodeHeader(m.Header.Get(name))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return v
}
