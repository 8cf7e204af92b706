package dashboard

import (
	"cmp"
	"net/http"
	"slices"

	"forma/internal/quota"
	"forma/internal/store"
)

// recentForms is how many forms the overview lists.
const recentForms = 5

// overviewData is the data of the overview page.
type overviewData struct {
	Forms     int
	Responses int // completed responses over all the account's forms
	Balance   quota.Balance
	// Recent are, of the account's formsPerPage newest forms, those with the
	// latest responses first, then those without any, newest first; at most
	// recentForms.
	Recent []formRow
}

// overview is the home page of a signed-in account: its plan, forms, responses
// and credits at a glance, the forms where responses arrived last, and where to
// go from there (a first form, when there is none).
func (h *Handler) overview(w http.ResponseWriter, r *http.Request, s *Session) {
	d, err := h.overviewData(r, s.Account)
	if err != nil {
		serverError(w, r, "show the overview", err)
		return
	}
	render(w, r, http.StatusOK, "overview", "Overview", s, d)
}

// overviewData gathers the overview of acct.
func (h *Handler) overviewData(r *http.Request, acct *store.Account) (overviewData, error) {
	var d overviewData
	newest, err := h.store.ListForms(r.Context(), acct.ID, nil, formsPerPage, 0)
	if err != nil {
		return d, err
	}
	d.Forms = newest.Total
	activity, err := h.store.FormsActivity(r.Context(), acct.ID)
	if err != nil {
		return d, err
	}
	plan, err := h.plan(acct)
	if err == nil {
		d.Balance, err = h.store.Balance(r.Context(), acct, plan)
	}
	if err != nil {
		return d, err
	}
	now := h.store.Now()
	for _, f := range newest.Forms {
		d.Recent = append(d.Recent, h.formRow(f, activity[f.ID], now))
	}
	for _, a := range activity {
		d.Responses += a.Responses
	}
	// Latest response first; forms without responses keep their newest-first order.
	slices.SortStableFunc(d.Recent, func(a, b formRow) int { return cmp.Compare(b.lastAt, a.lastAt) })
	d.Recent = d.Recent[:min(len(d.Recent), recentForms)]
	return d, nil
}
