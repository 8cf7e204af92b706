package dashboard

import (
	"net/http"

	"forma/internal/form"
	"forma/internal/store"
)

// formsPerPage is how many forms the forms page lists at a time.
const formsPerPage = 50

// formRow is one form as the forms page lists it.
type formRow struct {
	ID           int64
	Title        string
	Published    bool
	URL          string // the public page, while published
	Responses    int
	LastResponse string // "" when there is none
	lastAt       int64  // the last response's Unix time in nanoseconds, 0 when none
	Created      string
}

// formsData is the data of the forms page.
type formsData struct {
	Rows       []formRow
	Total      int
	Page       int
	Prev, Next int // 0: no such page
}

// forms serves GET /forms: the account's forms, newest first, with their state and
// responses at a glance.
func (h *Handler) forms(w http.ResponseWriter, r *http.Request, s *Session) {
	n, ok := requestedPage(w, r, s, "/forms", "Your forms")
	if !ok {
		return
	}
	page, err := h.store.ListForms(r.Context(), s.Account.ID, nil, formsPerPage, (n-1)*formsPerPage)
	var activity map[int64]store.FormActivity
	if err == nil {
		activity, err = h.store.FormsActivity(r.Context(), s.Account.ID)
	}
	if err != nil {
		serverError(w, r, "list the account's forms", err)
		return
	}
	data := formsData{Total: page.Total, Page: n}
	for _, f := range page.Forms {
		data.Rows = append(data.Rows, h.formRow(f, activity[f.ID]))
	}
	data.Prev, data.Next = pages(n, formsPerPage, page.Total)
	render(w, r, http.StatusOK, "forms", "Forms", s, data)
}

// formRow is f as the forms page shows it.
func (h *Handler) formRow(f form.Form, a store.FormActivity) formRow {
	row := formRow{ID: f.ID, Title: f.Title, Published: f.IsPublished(), Responses: a.Responses, Created: day(f.CreatedAt)}
	if row.Published {
		row.URL = f.ShareURL(h.cfg.PublicURL)
	}
	if a.LastResponse != nil {
		row.LastResponse = a.LastResponse.UTC().Format("2 Jan 2006, 15:04 UTC")
		row.lastAt = a.LastResponse.UnixNano()
	}
	return row
}
