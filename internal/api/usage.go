package api

import (
	"net/http"

	"forma/internal/form"
	"forma/internal/httpx"
)

// getUsage serves GET /usage: the plan, credits and the key's daily limit.
func (a *API) getUsage(w http.ResponseWriter, r *http.Request) {
	c := caller(r)
	httpx.WriteJSON(w, http.StatusOK, map[string]any{
		"tier":                    c.plan.Tier,
		"creditsRemaining":        c.balance.Remaining(),
		"creditsMonthlyAllowance": c.balance.Allowance,
		"overageCreditsUsed":      c.balance.Overage(),
		"rateLimitDaily":          c.limit,
		"billingCycleStart":       form.Timestamp(c.balance.CycleStart),
		"billingCycleEnd":         form.Timestamp(c.balance.CycleEnd),
		"daysRemaining":           c.balance.DaysRemaining(a.store.Now()),
	})
}

// getUsageHistory serves GET /usage/history: credit charges, newest first.
func (a *API) getUsageHistory(w http.ResponseWriter, r *http.Request) {
	p, err := parsePage(r, 20, 100)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	entries, total, err := a.store.UsageHistory(r.Context(), caller(r).account.ID, caller(r).key.FormID, p.limit, p.offset)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	items := make([]map[string]any, len(entries))
	for i, e := range entries {
		items[i] = map[string]any{
			"id": e.ID, "endpoint": e.Endpoint, "creditsConsumed": e.Credits,
			"formId": e.FormID, "formName": e.FormName, "createdAt": form.Timestamp(e.CreatedAt),
		}
	}
	httpx.WriteJSON(w, http.StatusOK, listEnvelope("history", items, total, p))
}
