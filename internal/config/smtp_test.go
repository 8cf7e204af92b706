package config

import (
	"strings"
	"testing"
)

// TestSMTPURL: smtp:// is STARTTLS on 587, smtps:// implicit TLS on 465,
// ?tls=none plain; credentials are percent-decoded; anything else is refused
// with a message that does not repeat the URL (it holds the password).
func TestSMTPURL(t *testing.T) {
	for raw, want := range map[string]SMTP{
		"smtp://user:p%40ss@mail.example.com": {Host: "mail.example.com", Port: 587, Username: "user", Password: "p@ss", TLS: TLSStartTLS},
		"smtps://mail.example.com":            {Host: "mail.example.com", Port: 465, TLS: TLSImplicit},
		"smtp://127.0.0.1:2525?tls=none":      {Host: "127.0.0.1", Port: 2525, TLS: TLSNone},
		"smtp://u:secret@[::1]:25":            {Host: "::1", Port: 25, Username: "u", Password: "secret", TLS: TLSStartTLS},
	} {
		got, err := ParseSMTPURL(raw)
		if err != nil || got != want {
			t.Errorf("%s: %+v, %v; want %+v", raw, got, err, want)
		}
	}
	for _, raw := range []string{"http://mail.example.com", "smtp://", "smtp://h:99999", "smtp://h?tls=off",
		"smtps://h?tls=none", "smtp://h?x=1", "mail.example.com"} {
		if _, err := ParseSMTPURL(raw); err == nil {
			t.Errorf("%s accepted", raw)
		}
	}
	for _, c := range []struct{ url, from, problem string }{
		{"smtp://u:hunter2@h:25?tls=bad", "a@example.com", "FORMA_SMTP_URL"},
		{"smtp://h", "", "FORMA_MAIL_FROM"},
		{"smtp://h", "not an address", "FORMA_MAIL_FROM"},
		{"smtp://h", "a@example.com\r\nBcc: x@evil.test", "FORMA_MAIL_FROM"},
		{"", "a@example.com", "FORMA_SMTP_URL is not"},
	} {
		cfg := Defaults()
		cfg.SMTPURL, cfg.MailFrom = c.url, c.from
		err := cfg.Validate()
		if err == nil || !strings.Contains(err.Error(), c.problem) || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%q, %q: %v; want an error naming %s", c.url, c.from, err, c.problem)
		}
	}
	cfg := Defaults()
	cfg.SMTPURL, cfg.MailFrom = "smtp://h:25", "Forma <forms@example.com>"
	if err := cfg.Validate(); err != nil {
		t.Error(err)
	}
}
