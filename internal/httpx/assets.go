package httpx

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"time"
)

// Asset is an embedded file (stylesheet, script) served with its content hash in
// its URL, so that it may be cached for a year and a new version is fetched at
// once. Nothing comes from a CDN and nothing is built.
type Asset struct {
	Body []byte
	Type string // the Content-Type, from the name's extension
	Hash string // first 16 hex digits of the SHA-256 of Body
}

// NewAsset returns the asset of a file named name.
func NewAsset(name string, body []byte) *Asset {
	ctype := "application/octet-stream"
	switch {
	case strings.HasSuffix(name, ".js"):
		ctype = "text/javascript; charset=utf-8"
	case strings.HasSuffix(name, ".css"):
		ctype = "text/css; charset=utf-8"
	case strings.HasSuffix(name, ".svg"):
		ctype = "image/svg+xml"
	}
	sum := sha256.Sum256(body)
	return &Asset{Body: body, Type: ctype, Hash: hex.EncodeToString(sum[:8])}
}

// ServeAsset serves a (nil: 404). current says the request named the current
// version (its hash): such a response may be cached for a year; any other
// revalidates with the ETag.
func ServeAsset(w http.ResponseWriter, r *http.Request, a *Asset, current bool) {
	if a == nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", a.Type)
	h.Set("ETag", `"`+a.Hash+`"`)
	if current {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "public, no-cache")
	}
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(a.Body))
}
