package webhook

import (
	"errors"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"forma/internal/form"
)

// MaxURLLength is the longest webhook URL accepted, in characters.
const MaxURLLength = 2000

// loopbackNames are names that /etc/hosts on common distributions maps to a
// loopback address, besides localhost and *.localhost.
var loopbackNames = map[string]bool{
	"localhost.localdomain":   true,
	"localhost4":              true,
	"localhost4.localdomain4": true,
	"localhost6":              true,
	"localhost6.localdomain6": true,
	"ip6-localhost":           true,
	"ip6-loopback":            true,
}

// CheckURL checks a webhook URL when it is saved; see CheckURLField. Its errors
// name the field "webhookUrl".
func CheckURL(raw string, allowPrivate bool) error {
	return CheckURLField("webhookUrl", raw, allowPrivate)
}

// URLCheck is CheckURL with allowPrivate fixed: the check of a URL being saved that
// form.FormPatch.ApplyWebhook takes, the same for the API and the dashboard.
func URLCheck(allowPrivate bool) func(string) error {
	return func(raw string) error { return CheckURL(raw, allowPrivate) }
}

// CheckURLField checks a webhook URL when it is saved and returns nil or a
// *form.Error (code form.Invalid) about field. The URL is SingleLine text under
// form.CheckText (no control or line-break characters anywhere). It must be an absolute http or
// https URL with a host, at most MaxURLLength characters, without user name or
// password (they would be stored and shown in logs, and "trusted.example@evil"
// misleads readers about the target), with a port, if any, from 1 to 65535. Any
// port is allowed, since receivers often listen on ports other than 80 and 443.
// Unless allowPrivate, the host must not be a loopback name (localhost,
// *.localhost, …) nor an address IsBlockedIP refuses, in any numeric spelling a
// browser or resolver accepts (decimal, octal, hex, short forms, IPv6 literals).
// Host names are not resolved here: the client checks every resolved address.
func CheckURLField(field, raw string, allowPrivate bool) error {
	if err := form.CheckField(field, raw, form.SingleLine); err != nil {
		return err
	}
	if n := utf8.RuneCountInString(raw); n > MaxURLLength {
		return form.FieldInvalid(field, "must be at most %d characters (this one has %d)", MaxURLLength, n)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return form.FieldInvalid(field, "is not a valid URL (%s)", parseReason(err))
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return form.FieldInvalid(field, "must be an http:// or https:// URL (the scheme %q is not allowed)", u.Scheme)
	}
	if u.Opaque != "" || u.Hostname() == "" {
		return form.FieldInvalid(field, "must be an absolute http:// or https:// URL with a host")
	}
	if u.User != nil {
		return form.FieldInvalid(field, "must not contain a user name or password (the part before @ in the host)")
	}
	if err := checkPort(field, u.Port()); err != nil {
		return err
	}
	return checkHost(field, u, allowPrivate)
}

// parseReason returns what url.Parse objected to, without the quoted URL.
func parseReason(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}

func checkPort(field, port string) error {
	if port == "" {
		return nil
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return form.FieldInvalid(field, "has a port (%s) that is not valid (it must be from 1 to 65535)", port)
	}
	return nil
}

// checkHost checks the host of a parsed http(s) URL: IPv6 literals (url.Parse has
// validated them), then anything a browser would read as an IPv4 address, then
// host names.
func checkHost(field string, u *url.URL, allowPrivate bool) error {
	host := u.Hostname()
	if strings.HasPrefix(u.Host, "[") {
		ip, err := netip.ParseAddr(host)
		if err != nil {
			return form.FieldInvalid(field, "has a host %q that is not a valid IPv6 address", host)
		}
		return checkAddr(field, host, ip, allowPrivate)
	}
	if !isASCII(host) {
		return form.FieldInvalid(field, "has a host %q that must be written in ASCII (use the xn-- form of an international domain name)", host)
	}
	if endsInNumber(host) {
		ip, ok := parseIPv4(host)
		if !ok {
			return form.FieldInvalid(field, "has a host %q that is not a valid IPv4 address", host)
		}
		return checkAddr(field, host, ip, allowPrivate)
	}
	if !validHostName(host) {
		return form.FieldInvalid(field, "has a host %q that is not a valid host name", host)
	}
	if !allowPrivate && isLoopbackName(host) {
		return form.FieldInvalid(field, "names this machine (%s), which is not allowed", host)
	}
	return nil
}

// checkAddr refuses a blocked address, showing its canonical form when the URL
// spelled it differently (0x7f.1 is 127.0.0.1).
func checkAddr(field, spelled string, ip netip.Addr, allowPrivate bool) error {
	if allowPrivate || !IsBlockedIP(ip) {
		return nil
	}
	shown := spelled
	if canonical := ip.String(); canonical != spelled {
		shown += " (" + canonical + ")"
	}
	return form.FieldInvalid(field, "points to %s, an address that is not allowed (private, loopback or reserved networks are blocked)", shown)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// validHostName accepts dot-separated labels of letters, digits, '-' and '_'
// (1 to 63 characters each, 253 in all) with at most one trailing dot.
func validHostName(host string) bool {
	host = strings.TrimSuffix(host, ".")
	if host == "" || len(host) > 253 {
		return false
	}
	for label := range strings.SplitSeq(host, ".") {
		if label == "" || len(label) > 63 || strings.IndexFunc(label, notHostChar) >= 0 {
			return false
		}
	}
	return true
}

func notHostChar(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_')
}

func isLoopbackName(host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	return host == "localhost" || strings.HasSuffix(host, ".localhost") || loopbackNames[host]
}
