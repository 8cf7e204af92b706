package dashboard

import (
	"embed"
	"net/http"

	"forma/internal/httpx"
)

// The stylesheet and the script are embedded and served under /assets/dashboard
// as httpx.Assets: with their content hash in the URL, cached for a year.
//
//go:embed assets
var assetFiles embed.FS

// assets are the embedded files by name.
var assets = loadAssets()

func loadAssets() map[string]*httpx.Asset {
	entries, err := assetFiles.ReadDir("assets")
	if err != nil {
		panic(err)
	}
	out := map[string]*httpx.Asset{}
	for _, e := range entries {
		body, err := assetFiles.ReadFile("assets/" + e.Name())
		if err != nil {
			panic(err)
		}
		out[e.Name()] = httpx.NewAsset(e.Name(), body)
	}
	return out
}

// assetURL is the versioned URL of an asset.
func assetURL(name string) string {
	return "/assets/dashboard/" + name + "?v=" + assets[name].Hash
}

// serveAsset serves GET /assets/dashboard/{name}: cached for a year when the
// request carries the current hash, revalidated with the ETag otherwise.
func serveAsset(w http.ResponseWriter, r *http.Request) {
	a := assets[r.PathValue("name")]
	httpx.ServeAsset(w, r, a, a != nil && r.URL.Query().Get("v") == a.Hash)
}
