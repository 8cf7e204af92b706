// Package respond serves respondents: the public form pages at /f/<shareUrl>, the
// JSON operations behind them (definition, one-shot submission, sessions, uploads)
// and signed file downloads. No API key is involved.
package respond

import (
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"net/url"
	"slices"
	"time"

	"forma/internal/blob"
	"forma/internal/form"
	"forma/internal/httpx"
	"forma/internal/logic"
	"forma/internal/store"
)

// Config tunes the public side.
type Config struct {
	// MaxUploadBytes bounds one uploaded file.
	MaxUploadBytes int64
	// SubmitLimit is how many submissions (and uploads) one client address may make
	// to one form per hour; 0 disables the limit.
	SubmitLimit int
	// SessionLimit is how many sessions one client address may start on one form
	// per hour; 0 disables the limit.
	SessionLimit int
	// SaveLimit is how many session saves one client address may make to one form
	// per hour; 0 disables the limit.
	SaveLimit int
	// TrustProxy takes the client address from X-Forwarded-For (last hop); only for
	// servers behind a proxy that sets it.
	TrustProxy bool
	// MinFillTime is how long the HTML form must have been open before it may be
	// submitted (bots submit at once).
	MinFillTime time.Duration
	// PublicURL is the server's public base URL: HTML form posts from its origin
	// (or the request's own host) are accepted, others refused.
	PublicURL string
	// Committed, when set, is called after a completed submission is committed (to
	// wake the webhook workers, which take the jobs the store queued with it).
	Committed func()
}

// Handler serves the respondent routes.
type Handler struct {
	store   *store.Store
	blobs   blob.Store
	cfg     Config
	links   *blob.Links
	fill    fillTimer
	limiter *limiter // submissions and uploads
	starts  *limiter // sessions started
	saves   *limiter // session saves
	// sameOrigin refuses HTML form posts from other sites; embeds are iframes of
	// this server's own pages, so their posts are same-origin.
	sameOrigin *http.CrossOriginProtection
}

// New returns the respondent handler. links checks file download links; secret
// signs the fill-time tokens of the HTML form.
func New(st *store.Store, blobs blob.Store, links *blob.Links, secret string, cfg Config) *Handler {
	var shared *store.Store // the counts of the limits, when several nodes may share st
	if st.Dialect() == store.Postgres {
		shared = st
	}
	return &Handler{store: st, blobs: blobs, cfg: cfg, links: links, fill: fillTimer{secret: []byte(secret)},
		limiter:    newLimiter(cfg.SubmitLimit, time.Hour, "submissions", shared),
		starts:     newLimiter(cfg.SessionLimit, time.Hour, "new sessions", shared),
		saves:      newLimiter(cfg.SaveLimit, time.Hour, "saves", shared),
		sameOrigin: originCheck(cfg.PublicURL)}
}

// originCheck is the cross-origin protection of the HTML form's posts: the
// browser's Sec-Fetch-Site must be same-origin (or none), or, from older browsers,
// Origin must be the request's host or publicURL's origin.
func originCheck(publicURL string) *http.CrossOriginProtection {
	c := http.NewCrossOriginProtection()
	if u, err := url.Parse(publicURL); err == nil && u.Host != "" {
		// Cannot fail: the origin is built from a parsed URL's scheme and host.
		_ = c.AddTrustedOrigin(u.Scheme + "://" + u.Host)
	}
	return c
}

// Routes registers the public routes on mux.
func (h *Handler) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /f/{token}", h.page)
	mux.HandleFunc("GET /f/{token}/thanks", h.thanks)
	mux.HandleFunc("GET /f/{token}/definition", cors(h.definition))
	mux.HandleFunc("POST /f/{token}/submissions", h.submit)
	mux.HandleFunc("POST /f/{token}/sessions", cors(h.published(h.accepting(h.startSession))))
	mux.HandleFunc("GET /f/{token}/sessions/{id}", cors(h.published(h.getSession)))
	mux.HandleFunc("PATCH /f/{token}/sessions/{id}", cors(h.published(h.accepting(h.saveSession))))
	mux.HandleFunc("POST /f/{token}/sessions/{id}/complete", cors(h.published(h.accepting(h.completeSession))))
	mux.HandleFunc("POST /f/{token}/uploads", cors(h.published(h.accepting(h.upload))))
	mux.HandleFunc("POST /f/{token}/evaluate", cors(h.published(h.evaluate)))
	mux.HandleFunc("OPTIONS /f/{token}/{rest...}", cors(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	}))
	mux.HandleFunc("GET /files/{id}", h.download)
	mux.HandleFunc("GET /assets/{name}", serveAsset)
	mux.HandleFunc("GET /embed.js", serveEmbedScript)
	mux.HandleFunc("GET /assets/form/{version}/{name}", serveModule)
}

// cors lets any site's own front-end call the public JSON operations; no
// credentials are involved (a session's resume token is a header the page sends
// itself, resumeTokenHeader).
func cors(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", "*")
		h.Set("Access-Control-Allow-Methods", "GET, POST, PATCH, OPTIONS")
		h.Set("Access-Control-Allow-Headers", "Content-Type, "+resumeTokenHeader)
		h.Set("Access-Control-Max-Age", "600")
		next(w, r)
	}
}

// published adapts a handler of a published form: it loads the form of the
// {token} path parameter, answering 404 when it is unknown or unpublished. The
// form is shared (store.CachedForm): fn must not modify it.
func (h *Handler) published(fn func(w http.ResponseWriter, r *http.Request, f *form.Form)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		c, err := h.publishedForm(r)
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		fn(w, r, c.Form)
	}
}

// publishedForm loads the published form of the {token} path parameter from the
// store's form cache; an unpublished or unknown form is NotFound.
func (h *Handler) publishedForm(r *http.Request) (*store.CachedForm, error) {
	c, err := h.store.FormByShareToken(r.Context(), r.PathValue("token"))
	if err == nil && !c.Form.IsPublished() {
		err = form.Errorf(form.NotFound, "Form not found")
	}
	if form.ErrorCode(err) == form.NotFound {
		return nil, form.Errorf(form.NotFound, "Form not found")
	}
	return c, err
}

// newID returns an opaque URL-safe id with 128 bits of randomness.
func newID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// definition serves GET /f/{token}/definition: what a front-end needs to render
// the form and run its logic, encoded once per version of the form; Closed once
// the form is closed.
func (h *Handler) definition(w http.ResponseWriter, r *http.Request) {
	_, rd, err := h.openRendition(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteRawJSON(w, http.StatusOK, rd.definition)
}

// Definition is the public JSON shape of a published form. HiddenFields are
// the names a submission's hidden object may carry.
type Definition struct {
	Title        string              `json:"title"`
	Description  string              `json:"description"`
	DisplayMode  form.DisplayMode    `json:"displayMode"`
	HiddenFields []string            `json:"hiddenFields,omitempty"`
	Questions    []form.QuestionJSON `json:"questions"`
}

// publicDefinition is f as respondents may see it: its logic without the scoring
// (publicLogic).
func publicDefinition(f *form.Form) Definition {
	return formDefinition(f, publicLogic)
}

// formDefinition is f with the logic of each question passed through keep (nil:
// all of it).
func formDefinition(f *form.Form, keep func(*form.ConditionalLogic) *form.ConditionalLogic) Definition {
	d := Definition{Title: f.Title, Description: f.Description, DisplayMode: f.DisplayMode,
		HiddenFields: f.Settings.HiddenFields, Questions: []form.QuestionJSON{}}
	for i := range f.Questions {
		q := f.Questions[i].JSON()
		if keep != nil {
			q.ConditionalLogic = keep(q.ConditionalLogic)
		}
		d.Questions = append(d.Questions, q)
	}
	return d
}

// publicLogic is a question's logic without its score rules and set_score
// actions: they are a quiz's answer key, so only the server computes the score
// (and, for conditions on the score, visibility: POST /f/{token}/evaluate). A rule
// left with no action is left out.
func publicLogic(l *form.ConditionalLogic) *form.ConditionalLogic {
	if l == nil || l.Advanced == nil {
		return l
	}
	rule := *l.Advanced
	rule.ScoreRules = nil
	rule.Actions = slices.DeleteFunc(slices.Clone(rule.Actions), func(a form.Action) bool { return a.Type == form.ActionSetScore })
	out := &form.ConditionalLogic{ShowIf: l.ShowIf}
	if len(rule.Actions) > 0 {
		out.Advanced = &rule
	}
	if out.ShowIf == nil && out.Advanced == nil {
		return nil
	}
	return out
}

// evaluate serves POST /f/{token}/evaluate with {"answers": {...}} (and the
// optional hidden values): the ids of the questions the logic shows, in form
// order, for pages whose conditions compare the score (which the public
// definition cannot compute). Invalid
// answers count as unanswered; the score itself is not revealed. Each call counts
// against the client's save budget.
func (h *Handler) evaluate(w http.ResponseWriter, r *http.Request, f *form.Form) {
	var body answersBody
	err := decodeAnswers(w, r, &body, false)
	if err == nil {
		err = h.saves.allow(r.Context(), h.clientKey(r, f.ID)) // one per answer change, like a save
	}
	if err == nil {
		err = boundAnswers(f, body.Answers)
	}
	var hidden form.HiddenValues
	if err == nil {
		hidden, err = f.Settings.CheckHidden(body.Hidden)
	}
	var shown map[int64]bool
	if err == nil {
		shown, err = logic.Visibility(f.Questions, body.Answers, hidden)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	visible := []int64{}
	for _, q := range form.InOrder(f.Questions) {
		if shown[q.ID] {
			visible = append(visible, q.ID)
		}
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"visible": visible})
}
