package blob

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Links signs and checks expiring download links for uploaded files, so that a file
// URL in a response, an export or a webhook works for whoever holds it, for a while,
// without an API key. Every node sharing the database signs with the same secret.
type Links struct {
	secret    []byte
	publicURL string
	// TTL is how long a link works.
	TTL time.Duration
}

// NewLinks returns a signer with the server secret whose links start with
// publicURL.
func NewLinks(secret, publicURL string) *Links {
	return &Links{secret: []byte(secret), publicURL: strings.TrimRight(publicURL, "/"), TTL: 7 * 24 * time.Hour}
}

// FileURL is a signed link to upload uploadID, valid for TTL from now: it is
// served at /files/{id}?exp=…&sig=….
func (l *Links) FileURL(uploadID string, now time.Time) string {
	exp := strconv.FormatInt(now.Add(l.TTL).Unix(), 10)
	return fmt.Sprintf("%s/files/%s?exp=%s&sig=%s", l.publicURL, url.PathEscape(uploadID), exp, l.sign(uploadID, exp))
}

// Valid reports whether sig signs upload uploadID with expiry exp (Unix seconds)
// and exp is not yet past at now.
func (l *Links) Valid(uploadID, exp, sig string, now time.Time) bool {
	e, err := strconv.ParseInt(exp, 10, 64)
	if err != nil || now.Unix() > e {
		return false
	}
	return hmac.Equal([]byte(sig), []byte(l.sign(uploadID, exp)))
}

func (l *Links) sign(uploadID, exp string) string {
	m := hmac.New(sha256.New, l.secret)
	fmt.Fprintf(m, "file|%s|%s", uploadID, exp)
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}
