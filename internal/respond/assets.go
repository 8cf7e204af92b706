package respond

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"maps"
	"net/http"
	"slices"
	"strings"

	"forma/internal/httpx"
	"forma/internal/logic"
)

// The pages' files (stylesheet, scripts) are embedded and served under /assets
// with their content hash in the URL, so that they are cached for a year and a
// new version is fetched at once. Nothing comes from a CDN and nothing is built:
// the files are served as they are written.
//
//go:embed assets
var assetFiles embed.FS

// The page script is a set of native ES modules (assets/form/) that import each other by relative URLs, which cannot
// carry each file's content hash the way ?v= does. So the set is versioned as a
// whole, in the path: /assets/form/{moduleVersion}/main.js imports ./page.js,
// which resolves to the same versioned folder; every module is cached for a year
// and a new version of any module changes the folder of all.
const modulePrefix = "form/"

// assets maps a name to its file: the embedded assets/ folder (modules under
// "form/") and logic.js (the browser twin of the server's logic engine).
var assets, moduleVersion = loadAssets()

func loadAssets() (map[string]*httpx.Asset, string) {
	out := map[string]*httpx.Asset{}
	add := func(name string, body []byte) { out[name] = httpx.NewAsset(name, body) }
	err := fs.WalkDir(assetFiles, "assets", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := assetFiles.ReadFile(path)
		if err == nil {
			add(strings.TrimPrefix(path, "assets/"), body)
		}
		return err
	})
	if err != nil {
		panic(err)
	}
	add("logic.js", logic.Script)
	version := sha256.New()
	for _, name := range slices.Sorted(maps.Keys(out)) {
		if strings.HasPrefix(name, modulePrefix) {
			fmt.Fprintf(version, "%s %s\n", name, out[name].Hash)
		}
	}
	return out, hex.EncodeToString(version.Sum(nil)[:8])
}

// assetURL is the versioned URL of a top-level asset: the content hash in the
// query makes it safe to cache for a year.
func assetURL(name string) string {
	return "/assets/" + name + "?v=" + assets[name].Hash
}

// moduleURL is the versioned URL of a module of the page script.
func moduleURL(name string) string {
	return "/assets/" + modulePrefix + moduleVersion + "/" + strings.TrimPrefix(name, modulePrefix)
}

// serveAsset serves GET /assets/{name}. A request carrying the current content
// hash (?v=) may be cached for a year; any other revalidates with the ETag.
func serveAsset(w http.ResponseWriter, r *http.Request) {
	a := assets[r.PathValue("name")]
	httpx.ServeAsset(w, r, a, a != nil && r.URL.Query().Get("v") == a.Hash)
}

// serveEmbedScript serves GET /embed.js, the script other sites load to embed
// forms (assets/embed.js). Its address has no version, since it is pasted into
// other sites: browsers revalidate it with its ETag.
func serveEmbedScript(w http.ResponseWriter, r *http.Request) {
	httpx.ServeAsset(w, r, assets["embed.js"], false)
}

// serveModule serves GET /assets/form/{version}/{name}: a module of the page
// script, cached for a year when version is the current one. Another version
// (a page rendered before a deployment) gets the current module, revalidated.
func serveModule(w http.ResponseWriter, r *http.Request) {
	httpx.ServeAsset(w, r, assets[modulePrefix+r.PathValue("name")], r.PathValue("version") == moduleVersion)
}

// pageAssets are the URLs of the files every page loads.
type pageAssets struct {
	CSS   string
	Boot  string // classic script: marks the page for the script before it is drawn
	Logic string // classic script: FormaLogic
	Main  string // the page script's entry module
	// Modules are the other modules, preloaded so that the browser fetches them
	// all at once instead of discovering them import by import.
	Modules []string
}

// pageAssetURLs is computed once: the assets never change while the process runs.
var pageAssetURLs = func() pageAssets {
	a := pageAssets{CSS: assetURL("form.css"), Boot: assetURL("boot.js"), Logic: assetURL("logic.js"), Main: moduleURL(modulePrefix + "main.js")}
	for _, name := range slices.Sorted(maps.Keys(assets)) {
		if strings.HasPrefix(name, modulePrefix) && name != modulePrefix+"main.js" {
			a.Modules = append(a.Modules, moduleURL(name))
		}
	}
	return a
}()
