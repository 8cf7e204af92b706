// Package api serves the REST/JSON API under /api/v1: authentication by API key,
// daily request limits, and one handler file per resource.
package api

import (
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"forma/internal/ai"
	"forma/internal/assist"
	"forma/internal/form"
	"forma/internal/httpx"
	"forma/internal/quota"
	"forma/internal/render"
	"forma/internal/store"
	"forma/internal/webhook"
)

// Prefix is where the API is mounted.
const Prefix = "/api/v1"

// Config is what the API needs to know about its deployment.
type Config struct {
	// PublicURL is {public_base_url}, without a trailing slash.
	PublicURL string
	// AllowPrivateWebhooks relaxes the webhook address checks (development only).
	AllowPrivateWebhooks bool
	// Costs are the credit prices of AI operations.
	Costs quota.Costs
	// Plans are the plans by tier.
	Plans quota.Plans
	// Submissions renders stored submissions and deletes them with their files.
	Submissions *render.Submissions
	// Webhooks sends test deliveries.
	Webhooks *webhook.Deliverer
	// MailSending says whether the server sends email notifications (an SMTP
	// server is configured); without it they are kept but not sent.
	MailSending bool
	// AI performs generation, analytics and chat; it must be set (the server
	// chooses the provider its configuration names).
	AI ai.Provider
}

// API is the /api/v1 handler.
type API struct {
	store  *store.Store
	cfg    Config
	assist *assist.Service
	mux    *http.ServeMux
	// queries are the query parameters each route accepts (documentedQueries).
	queries map[string]map[string]bool
}

// New returns the API over st.
func New(st *store.Store, cfg Config) *API {
	cfg.PublicURL = strings.TrimRight(cfg.PublicURL, "/")
	if cfg.Costs == nil {
		cfg.Costs = quota.DefaultCosts()
	}
	if cfg.Plans == nil {
		cfg.Plans = quota.DefaultPlans()
	}
	a := &API{store: st, cfg: cfg, mux: http.NewServeMux(), queries: documentedQueries(),
		assist: assist.New(st, cfg.AI, cfg.Costs, cfg.Submissions)}
	a.routes()
	return a
}

func (a *API) routes() {
	a.handle("POST /forms", a.createForm)
	a.handle("POST /forms/generate", a.generateForm)
	a.handle("GET /forms", a.listForms)
	a.handle("GET /forms/{id}", a.getForm)
	a.handle("PATCH /forms/{id}", a.updateForm)
	a.handle("DELETE /forms/{id}", a.deleteForm)
	a.handle("POST /forms/{id}/duplicate", a.duplicateForm)
	a.handle("GET /forms/{id}/definition", a.formDefinition)
	a.handle("POST /forms/import", a.importForm)
	a.handle("POST /forms/{id}/publish", a.publishForm)
	a.handle("POST /forms/{id}/unpublish", a.unpublishForm)
	a.handle("POST /forms/{id}/fields", a.addQuestion)
	a.handle("PATCH /forms/{id}/fields/{fieldId}", a.updateQuestion)
	a.handle("DELETE /forms/{id}/fields/{fieldId}", a.deleteQuestion)
	a.handle("GET /forms/{id}/responses", a.listResponses)
	a.handle("GET /forms/{id}/responses/export", a.exportResponses)
	a.handle("GET /forms/{id}/responses/{submissionId}", a.getResponse)
	a.handle("DELETE /forms/{id}/responses/{submissionId}", a.deleteResponse)
	a.handle("POST /forms/{id}/webhook/test", a.testWebhook)
	a.handle("GET /forms/{id}/webhook/logs", a.webhookLogs)
	a.handle("POST /forms/{id}/webhook/logs/{logId}/redeliver", a.redeliverWebhook)
	a.handle("GET /forms/{id}/webhook/status", a.webhookStatus)
	a.handle("GET /forms/{id}/notifications/logs", a.mailLogs)
	a.handle("POST /forms/{id}/webhook/secret", a.rotateWebhookSecret)
	a.handle("POST /forms/{id}/analytics/generate", a.generateAnalytics)
	a.handle("GET /forms/{id}/analytics", a.getAnalytics)
	a.handle("POST /forms/{id}/chat", a.createConversation)
	a.handle("GET /forms/{id}/chat", a.listConversations)
	a.handle("DELETE /forms/{id}/chat/{conversationId}", a.deleteConversation)
	a.handle("POST /forms/{id}/chat/{conversationId}/messages", a.sendMessage)
	a.handle("GET /forms/{id}/chat/{conversationId}/messages", a.listMessages)
	a.handle("GET /usage", a.getUsage)
	a.handle("GET /usage/history", a.getUsageHistory)
}

// handle registers a handler for a "METHOD /path" pattern relative to Prefix.
func (a *API) handle(pattern string, h http.HandlerFunc) {
	method, path, _ := strings.Cut(pattern, " ")
	a.mux.HandleFunc(method+" "+Prefix+path, h)
}

// ServeHTTP authenticates the request, counts it against the key's day, and routes
// it: unknown routes get 404 and known routes with another method 405 with Allow.
// Every response is private to its key: none may be cached.
func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	r, ok := a.authenticate(w, r)
	if !ok {
		return
	}
	_, pattern := a.mux.Handler(r)
	if pattern == "" {
		a.notRouted(w, r)
		return
	}
	httpx.SetRoute(r.Context(), pattern)
	if err := a.checkQuery(pattern, r.URL.Query()); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	a.mux.ServeHTTP(w, r)
}

// checkQuery refuses query parameters the route's operation does not take, naming
// the first, as the JSON decoder refuses unknown fields: a misspelt "ofset" or a
// "limit" on the export would otherwise be ignored without a word.
func (a *API) checkQuery(pattern string, q url.Values) error {
	names := slices.Sorted(maps.Keys(q))
	for _, name := range names {
		if !a.queries[pattern][name] {
			return form.FieldInvalid(name, "is not a parameter of this operation")
		}
	}
	return nil
}

var methods = []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}

// notRouted answers 405 when the path exists under another method, else 404.
func (a *API) notRouted(w http.ResponseWriter, r *http.Request) {
	var allow []string
	for _, m := range methods {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, p := a.mux.Handler(probe); p != "" {
			allow = append(allow, m)
		}
	}
	if len(allow) == 0 {
		httpx.WriteProblem(w, http.StatusNotFound, "not_found", "No route matches "+r.Method+" "+r.URL.Path)
		return
	}
	w.Header().Set("Allow", strings.Join(allow, ", "))
	httpx.WriteProblem(w, http.StatusMethodNotAllowed, "method_not_allowed",
		r.Method+" is not allowed on "+r.URL.Path+"; allowed: "+strings.Join(allow, ", "))
}

// pathID parses a positive integer path parameter.
func pathID(r *http.Request, name string) (int64, error) {
	v := r.PathValue(name)
	id, ok := form.ParseID(v)
	if !ok {
		return 0, form.FieldInvalid(name, "must be a positive integer (got %q)", v)
	}
	return id, nil
}

// page is a validated limit/offset pair.
type page struct{ limit, offset int }

// parsePage reads limit (1..max, default def) and offset (>= 0, default 0), written
// as plain decimals. Out-of-range or non-integer values are errors, never clamped.
func parsePage(r *http.Request, def, maxLimit int) (page, error) {
	p := page{limit: def}
	q := r.URL.Query()
	if v := q.Get("limit"); q.Has("limit") {
		n, ok := form.ParseID(v)
		if !ok || n > int64(maxLimit) {
			return p, form.FieldInvalid("limit", "must be an integer from 1 to %d (got %q)", maxLimit, v)
		}
		p.limit = int(n)
	}
	if v := q.Get("offset"); q.Has("offset") {
		n, ok := form.ParseCount(v)
		if !ok {
			return p, form.FieldInvalid("offset", "must be an integer of at least 0 (got %q)", v)
		}
		p.offset = int(n)
	}
	return p, nil
}

// more reports whether rows follow the page in a list of total rows.
func (p page) more(total int) bool {
	return p.offset < total && p.limit < total-p.offset // no overflow near the largest offset
}

// listEnvelope adds the pagination fields every list response carries.
func listEnvelope(key string, items any, total int, p page) map[string]any {
	return map[string]any{
		key:       items,
		"total":   total,
		"hasMore": p.more(total),
		"limit":   p.limit,
		"offset":  p.offset,
	}
}

// fetchLimit is how many rows a page of a list that may be walked with cursors
// asks the store for: one more than its limit when it is read after a cursor,
// where the total does not say whether another page follows but that row does.
func (p page) fetchLimit(after *cursor) int {
	if after != nil {
		return p.limit + 1
	}
	return p.limit
}

// cursorRows trims rows fetched with fetchLimit to the page, and says whether
// rows follow it: after a cursor, the extra row does; otherwise the total does.
func cursorRows[T any](rows []T, total int, p page, after *cursor) ([]T, bool) {
	if after == nil {
		return rows, p.more(total)
	}
	return rows[:min(len(rows), p.limit)], len(rows) > p.limit
}

// withCursor completes the envelope of a page of a list that may be walked with
// cursors: its hasMore (cursorRows), and nextCursor, the cursor after the page's
// last row (null on an empty page). Passed back, it reads the rows that follow
// the page, whatever rows have arrived or gone since.
func withCursor(env map[string]any, more bool, next *cursor) map[string]any {
	env["hasMore"], env["nextCursor"] = more, nil
	if next != nil {
		env["nextCursor"] = next.String()
	}
	return env
}
