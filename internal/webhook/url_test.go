package webhook_test

import (
	"errors"
	"strings"
	"testing"

	"forma/internal/form"
	"forma/internal/webhook"
)

const blockedMsg = "is not allowed (private, loopback or reserved networks are blocked)"

// refusedURLs are refused when private targets are not allowed; want is part of
// the message.
var refusedURLs = []struct{ url, want string }{
	// IPv4 loopback in every spelling.
	{"http://127.0.0.1/", "points to 127.0.0.1, an address that " + blockedMsg},
	{"http://127.0.0.1:8080/hook", blockedMsg},
	{"http://127.255.255.254/", blockedMsg},
	{"http://2130706433/", "2130706433 (127.0.0.1)"},
	{"http://0177.0.0.1/", "0177.0.0.1 (127.0.0.1)"},
	{"http://017700000001/", "(127.0.0.1)"},
	{"http://0x7f.0.0.1/", "(127.0.0.1)"},
	{"http://0X7F.0X0.0X0.0X1/", "(127.0.0.1)"},
	{"http://0x7f000001/", "(127.0.0.1)"},
	{"http://0x00000000007f.1/", "(127.0.0.1)"},
	{"http://127.1/", "127.1 (127.0.0.1)"},
	{"http://127.0.1/", "(127.0.0.1)"},
	{"http://0x7f.1/", "(127.0.0.1)"},
	{"http://0177.0x0.1/", "(127.0.0.1)"},
	{"http://127.0.0.1./", "(127.0.0.1)"},
	{"http://0/", "0 (0.0.0.0)"},
	{"http://0.0.0.0:80/", blockedMsg},
	{"http://0x/", "(0.0.0.0)"},
	// Private, link-local, CGNAT, multicast, broadcast, reserved.
	{"http://10.0.0.5/", blockedMsg},
	{"http://10.1/", "10.1 (10.0.0.1)"},
	{"http://167772161/", "(10.0.0.1)"},
	{"http://172.16.0.1/", blockedMsg},
	{"http://172.31.255.255/", blockedMsg},
	{"http://192.168.1.1/", blockedMsg},
	{"http://0xc0.0xa8.1.1/", "(192.168.1.1)"},
	{"http://169.254.169.254/latest/meta-data/", blockedMsg},
	{"http://0xa9fea9fe/", "(169.254.169.254)"},
	{"http://100.64.0.1/", blockedMsg},
	{"http://100.127.255.254/", blockedMsg},
	{"http://224.0.0.1/", blockedMsg},
	{"http://239.255.255.250:1900/", blockedMsg},
	{"http://255.255.255.255/", blockedMsg},
	{"http://240.0.0.1/", blockedMsg},
	{"http://192.0.2.1/", blockedMsg},
	{"http://198.18.0.1/", blockedMsg},
	// IPv6 and the IPv6 forms of blocked IPv4 addresses.
	{"http://[::1]/", "points to ::1, an address that " + blockedMsg},
	{"http://[::]/", blockedMsg},
	{"http://[0:0:0:0:0:0:0:1]:9000/", "(::1)"},
	{"http://[::ffff:127.0.0.1]/", blockedMsg},
	{"http://[::ffff:7f00:1]/", blockedMsg},
	{"http://[0:0:0:0:0:ffff:a9fe:a9fe]/", blockedMsg},
	{"http://[::ffff:10.0.0.1]/", blockedMsg},
	{"http://[::127.0.0.1]/", blockedMsg},
	{"http://[::7f00:1]/", blockedMsg},
	{"http://[64:ff9b::127.0.0.1]/", "(64:ff9b::7f00:1)"},
	{"http://[64:ff9b::a9fe:a9fe]/", blockedMsg},
	{"http://[2002:7f00:1::]/", blockedMsg},
	{"http://[2002:c0a8:101::1]/", blockedMsg},
	{"http://[2002:a9fe:a9fe::]/", blockedMsg},
	{"http://[fe80::1]/", blockedMsg},
	{"http://[fe80::1%25eth0]/", blockedMsg},
	{"http://[fc00::1]/", blockedMsg},
	{"http://[fd12:3456:789a::1]:8443/", blockedMsg},
	{"http://[ff02::1]/", blockedMsg},
	{"http://[2001:db8::1]/", blockedMsg},
	// Loopback names.
	{"http://localhost/", "names this machine (localhost)"},
	{"http://LOCALHOST:3000/hook", "not allowed"},
	{"http://localhost./", "not allowed"},
	{"http://api.localhost/", "not allowed"},
	{"http://Foo.LocalHost./", "not allowed"},
	{"http://ip6-localhost/", "not allowed"},
	{"http://localhost.localdomain/", "not allowed"},
	// User information, including the classic host confusion.
	{"http://example.com@127.0.0.1/", "must not contain a user name or password"},
	{"http://user:pass@example.com/", "must not contain a user name or password"},
	{"http://@example.com/", "must not contain a user name or password"},
	{"http://127.0.0.1:80@example.com/", "must not contain a user name or password"},
	{`http://example.com\@127.0.0.1/`, "is not a valid URL"},
	// Other schemes.
	{"file:///etc/passwd", `the scheme "file" is not allowed`},
	{"gopher://127.0.0.1:70/_GET", `the scheme "gopher" is not allowed`},
	{"ftp://example.com/", `the scheme "ftp" is not allowed`},
	{"javascript:alert(1)", `the scheme "javascript" is not allowed`},
	{"data:text/plain,hi", `the scheme "data" is not allowed`},
	{"ws://example.com/", `the scheme "ws" is not allowed`},
	// Missing or malformed host, port and length.
	{"", `the scheme "" is not allowed`},
	{"example.com/hook", `the scheme "" is not allowed`},
	{"//example.com/hook", `the scheme "" is not allowed`},
	{"http:///hook", "with a host"},
	{"http:example.com", "with a host"},
	{"http://:80/", "with a host"},
	{"http://::1/", "is not a valid URL"},
	{"http://exa mple.com/", "is not a valid URL"},
	{"http://%31%32%37.0.0.1/", "is not a valid URL"},
	{"http://1.2.3.4.5/", "is not a valid IPv4 address"},
	{"http://256.0.0.1/", "is not a valid IPv4 address"},
	{"http://127.0.0.08/", "is not a valid IPv4 address"},
	{"http://127..1/", "is not a valid IPv4 address"},
	{"http://example.123/", "is not a valid IPv4 address"},
	{"http://１２７.０.０.１/", "must be written in ASCII"},
	{"http://exa*mple.com/", "is not a valid host name"},
	{"http://example..com/", "is not a valid host name"},
	{"http://example.com:0/", "has a port (0) that is not valid"},
	{"http://example.com:65536/", "has a port (65536) that is not valid"},
	{"https://example.com/" + strings.Repeat("a", webhook.MaxURLLength-19), "must be at most 2000 characters (this one has 2001)"},
}

func TestCheckURLRefuses(t *testing.T) {
	for _, tc := range refusedURLs {
		t.Run(tc.url, func(t *testing.T) {
			fe := checkInvalid(t, webhook.CheckURL(tc.url, false), "webhookUrl")
			if !strings.Contains(fe.Message, tc.want) {
				t.Errorf("message %q does not contain %q", fe.Message, tc.want)
			}
		})
	}
}

func TestCheckURLMessage(t *testing.T) {
	err := webhook.CheckURL("http://127.0.0.1/hook", false)
	want := "webhookUrl: points to 127.0.0.1, an address that is not allowed (private, loopback or reserved networks are blocked)"
	if fe := checkInvalid(t, err, "webhookUrl"); fe.Message != want {
		t.Errorf("message = %q, want %q", fe.Message, want)
	}
}

func TestCheckURLFieldRelabels(t *testing.T) {
	fe := checkInvalid(t, webhook.CheckURLField("url", "http://10.0.0.1/", false), "url")
	if !strings.HasPrefix(fe.Message, "url: points to 10.0.0.1, ") {
		t.Errorf("message = %q", fe.Message)
	}
}

func TestCheckURLAllows(t *testing.T) {
	for _, raw := range []string{
		"https://example.com/hook",
		"http://example.com:8080/x?y=1#z",
		"https://hooks.example.com:65535/",
		"https://example.com./",
		"HTTPS://Example.COM/Hook",
		"https://xn--bcher-kva.de/",
		"http://my_host.example/",
		"http://localhost.example.com/",
		"http://localhost-api.example/",
		"https://" + strings.Repeat("a", 63) + ".example/" + strings.Repeat("b", webhook.MaxURLLength-81),
		"http://8.8.8.8/",
		"http://8.8.8.8:3000/",
		"http://134744072/",
		"http://11.0.0.1/",
		"http://172.32.0.1/",
		"http://100.128.0.1/",
		"http://192.169.0.1/",
		"http://[2606:4700:4700::1111]/",
		"http://[2606:4700:4700::1111]:9443/",
		"http://[::ffff:8.8.8.8]/",
		"http://[64:ff9b::8.8.8.8]/",
		"http://[2002:808:808::1]/",
	} {
		if err := webhook.CheckURL(raw, false); err != nil {
			t.Errorf("CheckURL(%q) = %v, want nil", raw, err)
		}
	}
}

func TestCheckURLAllowPrivate(t *testing.T) {
	for _, raw := range []string{
		"http://127.0.0.1:8080/",
		"http://localhost:3000/hook",
		"http://api.localhost/",
		"http://0x7f.1/",
		"http://2130706433/",
		"http://192.168.1.10/",
		"http://169.254.169.254/",
		"http://[::1]:9000/",
		"http://[::ffff:127.0.0.1]/",
		"http://[fe80::1%25eth0]/",
	} {
		if err := webhook.CheckURL(raw, true); err != nil {
			t.Errorf("CheckURL(%q, allowPrivate) = %v, want nil", raw, err)
		}
	}
	// Everything that is not about the address is still refused.
	for _, raw := range []string{
		"ftp://127.0.0.1/",
		"http://user:pass@localhost/",
		"http://1.2.3.4.5/",
		"http://127.0.0.1:0/",
		"http://localhost/" + strings.Repeat("a", webhook.MaxURLLength),
	} {
		checkInvalid(t, webhook.CheckURL(raw, true), "webhookUrl")
	}
}

// checkInvalid asserts err is a form.Invalid error about field alone, prefixed
// with the field's name, and returns it.
func checkInvalid(t *testing.T, err error, field string) *form.Error {
	t.Helper()
	var fe *form.Error
	if !errors.As(err, &fe) {
		t.Fatalf("error = %v (%T), want *form.Error", err, err)
	}
	if fe.Code != form.Invalid || len(fe.Fields) != 1 || fe.Fields[0].Field != field {
		t.Fatalf("error = %+v, want code invalid about %s", fe, field)
	}
	if !strings.HasPrefix(fe.Message, field+": ") {
		t.Errorf("message %q does not start with %q", fe.Message, field+": ")
	}
	return fe
}
