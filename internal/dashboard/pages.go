package dashboard

import (
	"bytes"
	"embed"
	"html/template"
	"net/http"

	"forma/internal/httpx"
	"forma/internal/store"
)

// The pages are html/template files: whatever an account typed (its email) is
// escaped, never rendered as HTML.
//
//go:embed templates/*.html
var templateFiles embed.FS

var pageTemplates = template.Must(template.New("pages").ParseFS(templateFiles, "templates/*.html"))

// pageCSP is the Content-Security-Policy of every dashboard page: scripts and
// styles only from this server's /assets (no inline script, no event handler
// attributes), scripts call back and frames load only here (the builder's
// preview), forms post only here, and no other site may frame a page
// (clickjacking a signed-in page).
const pageCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
	"frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// view is what the layout needs, and the page's own data.
type view struct {
	Title string
	// Account is the signed-in account; nil on the signed-out pages, which show
	// no navigation.
	Account *store.Account
	// Nav names the navigation entry of the page, marked as the current one.
	Nav string
	CSS string
	// JS is the dashboard's script, loaded on the signed-in pages.
	JS string
	layout
	// Data is the page's own data.
	Data any
}

// layout is what a page may add to the layout: a script of its own (the URL of
// an asset) and a wider main column.
type layout struct {
	Script string
	Wide   bool
}

// layouts are the pages that add to the layout, by template name.
var layouts = map[string]layout{
	"editor": {Script: assetURL("builder.js"), Wide: true},
}

// render writes the page template name with the layout around data, for the
// signed-in session s (nil on signed-out pages). The page is rendered completely
// before anything is sent, so that a template failure is a clean 500.
func render(w http.ResponseWriter, r *http.Request, status int, name, title string, s *Session, data any) {
	v := view{Title: title, Nav: name, CSS: assetURL("dashboard.css"), JS: assetURL("dashboard.js"), layout: layouts[name], Data: data}
	if s != nil {
		v.Account = s.Account
	}
	var buf bytes.Buffer
	if err := pageTemplates.ExecuteTemplate(&buf, name, v); err != nil {
		serverError(w, r, "render dashboard page "+name, err)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/html; charset=utf-8")
	hd.Set("Content-Security-Policy", pageCSP)
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Frame-Options", "DENY")
	// Setup links carry a secret in their path: never send it to another site.
	hd.Set("Referrer-Policy", "same-origin")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// notice is the data of a page that only says something.
type notice struct {
	Lines []string
	// Link, when set, is where the reader goes next, with its text.
	Link, LinkText string
}

// renderNotice writes a signed-out page that says lines.
func renderNotice(w http.ResponseWriter, r *http.Request, status int, title string, n notice) {
	render(w, r, status, "notice", title, nil, n)
}

// renderCrossSite refuses a post sent from another site.
func renderCrossSite(w http.ResponseWriter, r *http.Request) {
	renderNotice(w, r, http.StatusForbidden, "Request refused", notice{
		Lines: []string{"This form was sent from another website, so it was not accepted.",
			"Open Forma at its own address and try again."},
		Link: "/", LinkText: "Go to Forma"})
}

// serverError answers an unexpected failure with a 500 page that names only the
// request id, and logs its cause with that id.
func serverError(w http.ResponseWriter, r *http.Request, what string, err error) {
	httpx.LogError(r.Context(), what, err)
	w.Header().Set("Content-Security-Policy", pageCSP)
	http.Error(w, "Something went wrong on our side. Please try again in a moment. Request id: "+httpx.RequestID(r.Context()),
		http.StatusInternalServerError)
}
