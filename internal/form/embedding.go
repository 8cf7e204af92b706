package form

import (
	"fmt"
	"html"
	"net"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// Embedding (Settings.FrameAncestors): a form's public page may be framed by
// any site unless its owner names the only origins that may frame it. The page
// then sends Content-Security-Policy: frame-ancestors 'self' <origins>, so each
// origin is a piece of a response header: it is checked to be exactly
// scheme://host[:port] and nothing else.

// Limits of the frame ancestors.
const (
	// MaxFrameAncestors is the most origins a form names.
	MaxFrameAncestors = 20
	// MaxOriginLen is the longest origin, in bytes.
	MaxOriginLen = 200
)

// originHost is a host name of an origin: DNS labels of letters, digits and
// hyphens, optionally behind a "*." wildcard for every subdomain (as CSP
// allows).
var originHost = regexp.MustCompile(`^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$`)

// setFrameAncestors validates origins and sets them, normalized (Origin), as
// s.FrameAncestors; an empty list lets any site frame the page again.
func (s *Settings) setFrameAncestors(origins []string, p *Problems) {
	out := make([]string, 0, len(origins))
	list := uniqueList{field: "frameAncestors", noun: "origins", limit: MaxFrameAncestors}
	list.check(origins, p, func(o, field string) (string, bool) {
		norm, problem := Origin(o)
		if problem != "" {
			p.Add(field, "%s", problem)
		}
		out = append(out, norm)
		return norm, problem == ""
	}, func(_, norm string) string { return "duplicates the origin " + norm })
	s.FrameAncestors = out
	if len(out) == 0 {
		s.FrameAncestors = nil
	}
}

// Origin checks that raw is a web origin, scheme://host[:port] with an http or
// https scheme and nothing after the host but an optional "/", and returns it
// in lower case without the slash; problem says what is wrong otherwise.
func Origin(raw string) (origin, problem string) {
	const want = "must be an origin such as https://example.com or https://shop.example.com:8443 (scheme, host and optional port; no path)"
	if raw == "" || len(raw) > MaxOriginLen {
		return "", fmt.Sprintf("must be 1 to %d characters long; %s", MaxOriginLen, want[len("must be "):])
	}
	u, err := url.Parse(strings.ToLower(raw))
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Opaque != "" || u.User != nil ||
		u.Path != "" && u.Path != "/" || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.Contains(raw, "#") {
		return "", want
	}
	host, port := u.Hostname(), u.Port()
	if !validOriginHost(host) || strings.HasSuffix(u.Host, ":") || port != "" && !validPort(port) {
		return "", want
	}
	return u.Scheme + "://" + u.Host, ""
}

// validOriginHost reports whether host is a DNS name (possibly a wildcard) or
// an IP address.
func validOriginHost(host string) bool {
	if ip := net.ParseIP(host); ip != nil {
		return !strings.Contains(host, "%") // no IPv6 zone
	}
	return len(host) <= 253 && originHost.MatchString(host)
}

// validPort reports whether port is a port number from 1 to 65535, in digits.
func validPort(port string) bool {
	n, err := strconv.Atoi(port)
	return err == nil && n >= 1 && n <= 65535 && port[0] != '0'
}

// EmbedCode is what an owner pastes into a site of theirs to show a form there
// (README, Embedding): Forma's embed script, served at /embed.js, turns an
// element naming the form's share token into an iframe that grows with the form,
// or a button into one that opens it in an overlay.
type EmbedCode struct {
	// ScriptURL is the embed script's address.
	ScriptURL string `json:"scriptUrl"`
	// IframeURL is the page without its surroundings (?embed=1), for an iframe
	// of the owner's own making.
	IframeURL string `json:"iframeUrl"`
	// HTML is the inline embed: the form in the page, as tall as its content.
	HTML string `json:"html"`
	// PopupHTML is a button that opens the form in an overlay.
	PopupHTML string `json:"popupHtml"`
}

// Embed is the embed code of f on the server at publicURL.
func (f *Form) Embed(publicURL string) EmbedCode {
	script := publicURL + "/embed.js"
	tag := `<script src="` + html.EscapeString(script) + `" async></script>`
	token := html.EscapeString(f.ShareToken)
	return EmbedCode{
		ScriptURL: script,
		IframeURL: f.ShareURL(publicURL) + "?embed=1",
		HTML:      `<div data-forma-embed="` + token + `"></div>` + "\n" + tag,
		PopupHTML: `<button type="button" data-forma-popup="` + token + `">` + html.EscapeString(f.Title) + `</button>` + "\n" + tag,
	}
}
