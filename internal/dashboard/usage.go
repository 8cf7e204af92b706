package dashboard

import (
	"net/http"

	"forma/internal/form"
	"forma/internal/quota"
	"forma/internal/store"
)

// historyPageSize is how many credit charges a page of the usage history shows.
const historyPageSize = 20

// usageData is the data of the usage page.
type usageData struct {
	Plan          quota.Plan
	Balance       quota.Balance
	CycleStart    string
	CycleEnd      string
	DaysRemaining int
	Keys          []keyRow
	History       []historyRow
	// Page is the history page shown (from 1), of Pages; Prev and Next are the
	// neighbouring pages, 0 when there is none.
	Page, Pages, Prev, Next int
	Total                   int
}

// historyRow is one credit charge, ready to show.
type historyRow struct {
	Endpoint, Form, Time string
	Credits              int
}

// usage shows the plan, the credit balance of the billing cycle (computed by
// store.Balance, as the API's), the requests of each key today and the credit
// history, newest first, historyPageSize charges a page. A page that is not a
// positive number is a 400 page; one past the last shows no charges.
func (h *Handler) usage(w http.ResponseWriter, r *http.Request, s *Session) {
	page, ok := requestedPage(w, r, s, "/usage", "Go to the first page")
	if !ok {
		return
	}
	d, err := h.usageData(r, s.Account, page)
	if err != nil {
		serverError(w, r, "show the account's usage", err)
		return
	}
	render(w, r, http.StatusOK, "usage", "Usage", s, d)
}

// maxHistoryPage bounds the page number, so that its offset cannot overflow.
const maxHistoryPage = 1 << 20

// pageNumber reads the page query parameter, written as an id is (form.ParseID):
// absent is 1.
func pageNumber(v string) (int, bool) {
	if v == "" {
		return 1, true
	}
	n, ok := form.ParseID(v)
	return int(n), ok && n <= maxHistoryPage
}

// requestedPage reads the request's page number; when it is not one it answers a
// 400 page that links back to the first page (back, with its text).
func requestedPage(w http.ResponseWriter, r *http.Request, s *Session, back, backText string) (int, bool) {
	n, ok := pageNumber(r.URL.Query().Get("page"))
	if !ok {
		render(w, r, http.StatusBadRequest, "notice", "Page not found", s, notice{
			Lines: []string{"The page number must be a whole number from 1 on."}, Link: back, LinkText: backText})
	}
	return n, ok
}

// usageData gathers the usage page's figures.
func (h *Handler) usageData(r *http.Request, acct *store.Account, page int) (usageData, error) {
	d := usageData{Page: page}
	var err error
	if d.Plan, err = h.plan(acct); err != nil {
		return d, err
	}
	if d.Balance, err = h.store.Balance(r.Context(), acct, d.Plan); err != nil {
		return d, err
	}
	now := h.store.Now()
	d.CycleStart, d.CycleEnd, d.DaysRemaining = day(d.Balance.CycleStart), day(d.Balance.CycleEnd), d.Balance.DaysRemaining(now)
	keys, err := h.store.ListKeys(r.Context(), acct.ID, quota.Day(now))
	if err != nil {
		return d, err
	}
	d.Keys = keyRows(keys, nil, d.Plan)
	entries, total, err := h.store.UsageHistory(r.Context(), acct.ID, nil, historyPageSize, (page-1)*historyPageSize)
	if err != nil {
		return d, err
	}
	d.Total, d.Pages = total, max((total+historyPageSize-1)/historyPageSize, 1)
	if page > 1 {
		d.Prev = min(page-1, d.Pages)
	}
	if page < d.Pages {
		d.Next = page + 1
	}
	for _, e := range entries {
		d.History = append(d.History, historyRow{Endpoint: e.Endpoint, Form: e.FormName, Time: when(e.CreatedAt), Credits: e.Credits})
	}
	return d, nil
}
