package dashboard

import (
	"net/http"
)

// overviewData is the data of the overview page.
type overviewData struct {
	Forms int
}

// overview is the home page of a signed-in account: who it is, its plan and
// how many forms it has, and where to go from there.
func (h *Handler) overview(w http.ResponseWriter, r *http.Request, s *Session) {
	page, err := h.store.ListForms(r.Context(), s.Account.ID, nil, 0, 0)
	if err != nil {
		serverError(w, r, "count the account's forms", err)
		return
	}
	render(w, r, http.StatusOK, "overview", "Overview", s, overviewData{Forms: page.Total})
}
