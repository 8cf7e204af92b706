package dashboard

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"net/http"
	"strings"
	"time"
)

// The stylesheet and the script are embedded and served under /assets/dashboard with its content
// hash in the URL, so that it is cached for a year and a new version is fetched
// at once. Nothing comes from a CDN and nothing is built.
//
//go:embed assets
var assetFiles embed.FS

// asset is an embedded file served under /assets/dashboard.
type asset struct {
	body  []byte
	ctype string
	hash  string // first 16 hex digits of the SHA-256 of body
}

var assets = loadAssets()

func loadAssets() map[string]*asset {
	entries, err := assetFiles.ReadDir("assets")
	if err != nil {
		panic(err)
	}
	out := map[string]*asset{}
	for _, e := range entries {
		body, err := assetFiles.ReadFile("assets/" + e.Name())
		if err != nil {
			panic(err)
		}
		ctype := "application/octet-stream"
		switch {
		case strings.HasSuffix(e.Name(), ".css"):
			ctype = "text/css; charset=utf-8"
		case strings.HasSuffix(e.Name(), ".js"):
			ctype = "text/javascript; charset=utf-8"
		}
		sum := sha256.Sum256(body)
		out[e.Name()] = &asset{body: body, ctype: ctype, hash: hex.EncodeToString(sum[:8])}
	}
	return out
}

// assetURL is the versioned URL of an asset.
func assetURL(name string) string {
	return "/assets/dashboard/" + name + "?v=" + assets[name].hash
}

// serveAsset serves GET /assets/dashboard/{name}: cached for a year when the
// request carries the current hash, revalidated with the ETag otherwise.
func serveAsset(w http.ResponseWriter, r *http.Request) {
	a := assets[r.PathValue("name")]
	if a == nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", a.ctype)
	h.Set("ETag", `"`+a.hash+`"`)
	if r.URL.Query().Get("v") == a.hash {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "public, no-cache")
	}
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(a.body))
}
