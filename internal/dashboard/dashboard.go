// Package dashboard serves the signed-in side of Forma in the browser: sign-in,
// the one-time setup link, optional sign-up, the overview, the forms (list;
// create blank, from a prompt or from an imported definition, duplicate,
// export, delete; builder with share link, QR code and embed snippet;
// responses: table, detail, delete, export, summary; the webhook: URL, test,
// log and signing secret; AI analytics and chat), and the
// account's settings, API keys and usage. Pages are server-rendered
// html/template with embedded assets and two small scripts (the copy button and
// the progress of a slow post; the builder's drag and drop); the builder's live
// preview is drawn by the public pages' own code (Config.Preview). All sign-in
// state is in the database (store), so any node serves any request.
//
// Cross-site request forgery: every POST passes http.CrossOriginProtection
// before anything else, which refuses a request whose Sec-Fetch-Site is not
// same-origin (every current browser sends it) or, from older browsers, whose
// Origin is not this server's. The session cookie is also SameSite=Lax, so a
// cross-site POST does not carry it at all. Together they cover what a token
// would (including sign-in forgery, since /signin is a POST behind the same
// check), and no state changes on GET, so the pages carry no CSRF tokens. A
// request with neither header is let through: no browser sends such a request
// while also ignoring SameSite.
package dashboard

import (
	"net/http"
	"net/url"
	"strings"

	"forma/internal/ai"
	"forma/internal/assist"
	"forma/internal/form"
	"forma/internal/httpx"
	"forma/internal/quota"
	rendered "forma/internal/render"
	"forma/internal/store"
	"forma/internal/webhook"
)

// Config tunes the dashboard.
type Config struct {
	// PublicURL is the server's public base URL: its origin is trusted for posts,
	// and the session cookie is Secure when it is https.
	PublicURL string
	// TrustProxy takes the client address (for the sign-in throttle) from
	// X-Forwarded-For.
	TrustProxy bool
	// Signup serves /signup, where anyone may create an account on the free plan.
	Signup bool
	// Plans are the configured plans (the API's, so that both report the same
	// limits and allowances).
	Plans quota.Plans
	// Submissions renders, exports and deletes responses, as the API does.
	Submissions *rendered.Submissions
	// AI is the provider of analyses and chat answers, and Costs their prices in
	// credits (the API's: both charge through package assist).
	AI    ai.Provider
	Costs quota.Costs
	// AllowPrivateWebhooks relaxes the webhook address checks (development only),
	// as for the API.
	AllowPrivateWebhooks bool
	// Webhooks sends test deliveries and reads and rotates signing secrets, as for
	// the API.
	Webhooks *webhook.Deliverer
	// Preview writes a form's page as its respondents see it, for the builder's
	// preview: the public page's own template and script (respond.Handler.Preview,
	// which the server passes in, since the dashboard does not import the public
	// side). It is called only for the signed-in account's own form. Required.
	Preview func(w http.ResponseWriter, r *http.Request, f *form.Form)
	// MailSending says whether the server sends email notifications; the
	// Email page says so when it does not.
	MailSending bool
}

// Handler serves the dashboard's routes.
type Handler struct {
	store      *store.Store
	cfg        Config
	sameOrigin *http.CrossOriginProtection
	assist     *assist.Service
}

// New returns the dashboard over st.
func New(st *store.Store, cfg Config) *Handler {
	c := http.NewCrossOriginProtection()
	if u, err := url.Parse(cfg.PublicURL); err == nil && u.Host != "" {
		// Cannot fail: the origin is built from a parsed URL's scheme and host.
		_ = c.AddTrustedOrigin(u.Scheme + "://" + u.Host)
	}
	c.SetDenyHandler(http.HandlerFunc(renderCrossSite))
	if cfg.Plans == nil {
		cfg.Plans = quota.DefaultPlans()
	}
	if cfg.Costs == nil {
		cfg.Costs = quota.DefaultCosts()
	}
	return &Handler{store: st, cfg: cfg, sameOrigin: c, assist: assist.New(st, cfg.AI, cfg.Costs, cfg.Submissions)}
}

// Mux is what Routes registers the dashboard's routes on: an *http.ServeMux in
// the server, a recorder in the tests that sweep every route.
type Mux interface {
	HandleFunc(pattern string, handler func(http.ResponseWriter, *http.Request))
}

// Routes registers the dashboard's routes on mux. A page that needs a signed-in
// account is registered with h.page; other posts go through h.post.
func (h *Handler) Routes(mux Mux) {
	handle(mux, "GET /{$}", h.page(h.overview))
	handle(mux, "GET /forms", h.page(h.forms))
	handle(mux, "GET /keys", h.page(h.keys))
	handle(mux, "POST /keys", h.page(h.createKey))
	handle(mux, "GET /keys/{id}/revoke", h.page(h.confirmRevoke))
	handle(mux, "POST /keys/{id}/revoke", h.page(h.revokeKey))
	handle(mux, "GET /usage", h.page(h.usage))
	h.builderRoutes(mux)
	handle(mux, "GET /forms/{id}/responses", h.page(h.responses))
	handle(mux, "GET /forms/{id}/responses/export.csv", h.page(h.exportResponses))
	handle(mux, "GET /forms/{id}/responses/export.json", h.page(h.exportResponses))
	handle(mux, "GET /forms/{id}/responses/{submissionId}", h.page(h.response))
	handle(mux, "GET /forms/{id}/responses/{submissionId}/delete", h.page(h.confirmDeleteResponse))
	handle(mux, "POST /forms/{id}/responses/{submissionId}/delete", h.page(h.deleteResponse))
	handle(mux, "GET /forms/{id}/summary", h.page(h.summary))
	h.aiRoutes(mux)
	h.webhookRoutes(mux)
	h.emailRoutes(mux)
	h.formSettingsRoutes(mux)
	handle(mux, "GET /settings", h.page(h.settings))
	handle(mux, "POST /settings/password", h.page(h.changePassword))
	handle(mux, "POST /signout", h.page(h.signOut))
	handle(mux, "POST /signout/everywhere", h.page(h.signOutEverywhere))
	handle(mux, "GET /signin", h.signinPage)
	handle(mux, "POST /signin", h.post(h.signIn))
	handle(mux, "GET /setup/{token}", h.setupPage)
	handle(mux, "POST /setup/{token}", h.post(h.setup))
	handle(mux, "GET /signup", h.signupPage)
	handle(mux, "POST /signup", h.post(h.signUp))
	handle(mux, "GET /assets/dashboard/{name}", serveAsset)
}

// handle registers fn at pattern and names the pattern in the request log.
func handle(mux Mux, pattern string, fn http.HandlerFunc) {
	mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		httpx.SetRoute(r.Context(), pattern)
		fn(w, r)
	})
}

// post refuses cross-origin requests (see the package comment) before fn runs.
func (h *Handler) post(fn http.HandlerFunc) http.HandlerFunc {
	return h.sameOrigin.Handler(fn).ServeHTTP
}

// localPath returns next when it is a path on this server ("/settings?x=1"), or
// "/": a sign-in must never send the browser to another site.
func localPath(next string) string {
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.ContainsAny(next, "\\\r\n\t") {
		return "/"
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" {
		return "/"
	}
	return next
}
