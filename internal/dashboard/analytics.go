package dashboard

import (
	"maps"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"forma/internal/assist"
	"forma/internal/form"
	"forma/internal/store"
)

// credits is what an AI operation costs, and what the account has left, shown
// before the click.
type credits struct {
	Cost, Remaining int
	// Overage: the plan may go past its allowance, so the operation runs anyway.
	Overage bool
}

// metric is one key metric of an analysis, labelled.
type metric struct{ Label, Value string }

// analyticsData is the data of the analytics page.
type analyticsData struct {
	Form    formHead
	Credits credits
	// Problem says why the last post did nothing ("" when it did not fail).
	Problem string
	// Analysis is the stored analysis; nil before the first.
	Analysis *analysisView
}

// analysisView is a stored analysis, every part of it plain text.
type analysisView struct {
	Analyzed        string
	Total           int
	CompletionRate  string
	Summary         string
	Insights        []string
	Recommendations []string
	Metrics         []metric
}

// analytics serves GET /forms/{id}/analytics: the stored analysis, if any, and
// the button that generates a new one, with its price.
func (h *Handler) analytics(w http.ResponseWriter, r *http.Request, s *Session) {
	f, _, ok := h.accountForm(w, r, s)
	if ok {
		h.showAnalytics(w, r, s, f, http.StatusOK, "")
	}
}

// generateAnalytics serves POST /forms/{id}/analytics: a new analysis, through
// assist.Service.Analyze as the API's, charged to the account.
func (h *Handler) generateAnalytics(w http.ResponseWriter, r *http.Request, s *Session) {
	f, _, ok := h.accountForm(w, r, s)
	if !ok {
		return
	}
	p, err := h.payer(r, s.Account)
	if err == nil {
		_, _, err = h.assist.Analyze(r.Context(), p, f)
	}
	if err != nil {
		h.refusedAI(w, r, s, err, func(status int, problem string) { h.showAnalytics(w, r, s, f, status, problem) })
		return
	}
	http.Redirect(w, r, h.headOf(f).Analytics, http.StatusSeeOther)
}

// refusedAI answers an AI operation that failed: show(status, sentence) draws
// the page again for a refusal the owner can act on (credits, the provider, the
// message); anything else is a 500.
func (h *Handler) refusedAI(w http.ResponseWriter, r *http.Request, s *Session, err error, show func(int, string)) {
	switch form.ErrorCode(err) {
	case form.InsufficientCredits:
		show(http.StatusPaymentRequired, "Not enough credits: nothing was done and nothing was charged. "+
			"Credits come back at the start of the next billing cycle (see Usage), or upgrade your plan.")
	case form.ProviderFailed:
		show(http.StatusBadGateway, "The AI provider did not answer, so nothing was charged. Try again in a moment.")
	case form.Invalid:
		show(http.StatusBadRequest, problemsOf(err).other())
	default:
		h.loaded(w, r, s, "conversation", err)
	}
}

// showAnalytics draws the analytics page of f with status and problem.
func (h *Handler) showAnalytics(w http.ResponseWriter, r *http.Request, s *Session, f *form.Form, status int, problem string) {
	head := h.headOf(f)
	head.Tab = "analytics"
	data := analyticsData{Form: head, Problem: problem}
	var err error
	if data.Credits, err = h.credits(r, s.Account, assist.Analytics); err != nil {
		serverError(w, r, "find the account's credits", err)
		return
	}
	rec, err := h.store.GetAnalytics(r.Context(), f.ID)
	if err == nil {
		data.Analysis, err = analysisOf(rec)
	}
	if err != nil && form.ErrorCode(err) != form.NotFound {
		serverError(w, r, "load the form's analysis", err)
		return
	}
	render(w, r, status, "analytics", "Analytics · "+f.Title, s, data)
}

// analysisOf is a stored analysis as the page shows it.
func analysisOf(rec *store.AnalyticsRecord) (*analysisView, error) {
	in, err := assist.ReadInsights(rec)
	if err != nil {
		return nil, err
	}
	v := &analysisView{Analyzed: moment(rec.AnalyzedAt), Total: rec.TotalResponses,
		CompletionRate: strconv.FormatFloat(math.Round(rec.CompletionRate*100)/100, 'f', -1, 64) + "%", Summary: in.Summary,
		Insights: in.Insights, Recommendations: in.Recommendations}
	for _, k := range slices.Sorted(maps.Keys(in.KeyMetrics)) {
		v.Metrics = append(v.Metrics, metric{Label: metricLabel(k), Value: in.KeyMetrics[k]})
	}
	return v, nil
}

// metricLabel writes a key metric's name (responsesLast7Days) as words
// (Responses last 7 days).
func metricLabel(key string) string {
	var b strings.Builder
	prev := ' '
	for i, c := range key {
		switch {
		case i == 0:
			c = unicode.ToUpper(c)
		case unicode.IsUpper(c):
			b.WriteByte(' ')
			c = unicode.ToLower(c)
		case unicode.IsDigit(c) && !unicode.IsDigit(prev):
			b.WriteByte(' ')
		}
		b.WriteRune(c)
		prev = c
	}
	return b.String()
}

// payer is acct as the AI operations charge it: its plan and balance (store.Balance).
func (h *Handler) payer(r *http.Request, acct *store.Account) (assist.Payer, error) {
	p := assist.Payer{Account: acct}
	var err error
	if p.Plan, err = h.plan(acct); err != nil {
		return p, err
	}
	p.Balance, err = h.store.Balance(r.Context(), acct, p.Plan)
	return p, err
}

// credits is the price of endpoint and what acct has left.
func (h *Handler) credits(r *http.Request, acct *store.Account, endpoint string) (credits, error) {
	p, err := h.payer(r, acct)
	return credits{Cost: h.assist.Cost(endpoint), Remaining: p.Balance.Remaining(), Overage: p.Plan.Overage}, err
}
