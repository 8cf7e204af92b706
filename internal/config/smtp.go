package config

import (
	"fmt"
	"net/mail"
	"net/url"
	"strconv"
)

// SMTP is where email notifications are sent, as FORMA_SMTP_URL names it.
type SMTP struct {
	Host     string
	Port     int
	Username string // "" sends without authentication
	Password string
	// TLS is how the connection is secured: TLSStartTLS, TLSImplicit or TLSNone.
	TLS string
}

// The ways an SMTP connection is secured.
const (
	// TLSStartTLS upgrades a plain connection (smtp://, port 587 by default) and
	// refuses a server that cannot.
	TLSStartTLS = "starttls"
	// TLSImplicit speaks TLS from the start (smtps://, port 465 by default).
	TLSImplicit = "implicit"
	// TLSNone sends in the clear (smtp://…?tls=none): a relay on the same host,
	// or tests.
	TLSNone = "none"
)

// ParseSMTPURL reads an SMTP URL: smtp://user:pass@host:587 (STARTTLS),
// smtps://user:pass@host:465 (implicit TLS), with ?tls=none for a plain
// connection. User name and password are optional and percent-encoded.
func ParseSMTPURL(raw string) (SMTP, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return SMTP{}, fmt.Errorf("is not a URL")
	}
	s := SMTP{Host: u.Hostname(), TLS: TLSStartTLS, Port: 587}
	switch u.Scheme {
	case "smtp":
	case "smtps":
		s.TLS, s.Port = TLSImplicit, 465
	default:
		return SMTP{}, fmt.Errorf("must start with smtp:// (STARTTLS) or smtps:// (implicit TLS)")
	}
	if s.Host == "" {
		return SMTP{}, fmt.Errorf("must name a host, as in smtp://user:pass@mail.example.com:587")
	}
	if p := u.Port(); p != "" {
		if s.Port, err = strconv.Atoi(p); err != nil || s.Port < 1 || s.Port > 65535 {
			return SMTP{}, fmt.Errorf("has an invalid port %q", p)
		}
	}
	if u.User != nil {
		s.Username = u.User.Username()
		s.Password, _ = u.User.Password()
	}
	return s, smtpQuery(u.Query(), &s)
}

// smtpQuery applies the query options of an SMTP URL: only tls=none, on smtp://.
func smtpQuery(q url.Values, s *SMTP) error {
	for name, values := range q {
		if name != "tls" || len(values) != 1 || values[0] != TLSNone {
			return fmt.Errorf("takes only the query option tls=none (got %s)", name)
		}
		if s.TLS == TLSImplicit {
			return fmt.Errorf("cannot be smtps:// with tls=none")
		}
		s.TLS = TLSNone
	}
	return nil
}

// validateMail checks the mail settings: none, or a valid SMTP URL and a sender
// address.
func (c *Config) validateMail() error {
	if c.SMTPURL == "" {
		if c.MailFrom != "" {
			return fmt.Errorf("--mail-from (FORMA_MAIL_FROM) is set but FORMA_SMTP_URL is not: set both to send email notifications")
		}
		return nil
	}
	if _, err := ParseSMTPURL(c.SMTPURL); err != nil {
		return fmt.Errorf("FORMA_SMTP_URL %v", err) // the URL itself is not repeated: it holds the password
	}
	if c.MailFrom == "" {
		return fmt.Errorf("FORMA_SMTP_URL is set, so --mail-from (FORMA_MAIL_FROM) must give the sender, e.g. \"Forma <forms@example.com>\"")
	}
	if _, err := mail.ParseAddress(c.MailFrom); err != nil {
		return fmt.Errorf("--mail-from (FORMA_MAIL_FROM) must be an address such as forms@example.com or \"Forma <forms@example.com>\" (got %q)", c.MailFrom)
	}
	return nil
}
