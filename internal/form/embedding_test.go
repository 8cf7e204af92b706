package form

import (
	"strings"
	"testing"
)

// TestOrigin: frame ancestors are exactly scheme://host[:port], in lower case;
// anything that could add a directive, a header or markup to the page's
// Content-Security-Policy is refused.
func TestOrigin(t *testing.T) {
	for raw, want := range map[string]string{
		"https://example.com":           "https://example.com",
		"https://Shop.Example.COM/":     "https://shop.example.com",
		"http://localhost:8080":         "http://localhost:8080",
		"https://*.example.com":         "https://*.example.com",
		"https://127.0.0.1:3000":        "https://127.0.0.1:3000",
		"https://[2001:db8::1]:8443":    "https://[2001:db8::1]:8443",
		"https://xn--bcher-kva.example": "https://xn--bcher-kva.example",
	} {
		if got, problem := Origin(raw); got != want || problem != "" {
			t.Errorf("Origin(%q) = %q, %q; want %q", raw, got, problem, want)
		}
	}
	for _, raw := range []string{
		"", "example.com", "ftp://example.com", "javascript:alert(1)", "https://example.com/path",
		"https://example.com?x=1", "https://example.com#x", "https://user@example.com", "https://example.com:0",
		"https://example.com:99999", "https://example.com:", "https://exa mple.com", "https://example.com; script-src *",
		"https://example.com\r\nSet-Cookie: a=b", "https://example.com'", `https://"example.com"`,
		"https://<script>.com", "https://example.com,https://evil.com", "https://*", "https://a.*.com",
		"https://" + strings.Repeat("a", MaxOriginLen), "'self'", "*", "https://bücher.example",
	} {
		if got, problem := Origin(raw); problem == "" {
			t.Errorf("Origin(%q) = %q, accepted", raw, got)
		}
	}
}

// TestFrameAncestorsSetting: the list is normalized, bounded, without
// duplicates; each problem names its item.
func TestFrameAncestorsSetting(t *testing.T) {
	var s Settings
	var p Problems
	s.setFrameAncestors([]string{"https://A.example", "http://b.example:8080/"}, &p)
	if p.Err() != nil || strings.Join(s.FrameAncestors, " ") != "https://a.example http://b.example:8080" {
		t.Fatalf("%v %v", p.Err(), s.FrameAncestors)
	}
	s.setFrameAncestors([]string{}, &p)
	if s.FrameAncestors != nil {
		t.Errorf("an empty list leaves %v", s.FrameAncestors)
	}
	for _, c := range []struct {
		list  []string
		field string
	}{
		{[]string{"https://a.example", "https://A.example/"}, "frameAncestors[1]"},
		{[]string{"https://a.example", "https://a.example/x"}, "frameAncestors[1]"},
		{make([]string, MaxFrameAncestors+1), "frameAncestors"},
	} {
		var p Problems
		s.setFrameAncestors(c.list, &p)
		if len(p) == 0 || p[0].Field != c.field {
			t.Errorf("%v: problems %v, want one at %s", c.list, p, c.field)
		}
	}
}

// TestParseLanguage: a known language's BCP 47 tag, canonical; nothing else.
func TestParseLanguage(t *testing.T) {
	for raw, want := range map[string]string{
		"de": "de", "EN-us": "en-US", "pt-br": "pt-BR", "ar": "ar", "iw": "he", "zh-Hant": "zh-Hant", "sr-Latn-RS": "sr-Latn-RS",
	} {
		if got, problem := ParseLanguage(raw); got != want || problem != "" {
			t.Errorf("ParseLanguage(%q) = %q, %q; want %q", raw, got, problem, want)
		}
	}
	for _, raw := range []string{"", "und", "zz", "x-foo", "english", `en"><script>`, "en;q=1", "de\r\nX: y", "de DE",
		"de-" + strings.Repeat("a", MaxLanguageLen)} {
		if got, problem := ParseLanguage(raw); problem == "" {
			t.Errorf("ParseLanguage(%q) = %q, accepted", raw, got)
		}
	}
}
