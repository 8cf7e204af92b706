package dashboard

import (
	"net/http"
	"strconv"
	"time"

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
	Closed       bool   // it takes no more submissions (form.Settings.Closed)
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
	// Deleted: the page follows a form's deletion.
	Deleted bool
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
	data := formsData{Total: page.Total, Page: n, Deleted: r.URL.Query().Get("deleted") != ""}
	now := h.store.Now()
	for _, f := range page.Forms {
		data.Rows = append(data.Rows, h.formRow(f, activity[f.ID], now))
	}
	data.Prev, data.Next = pages(n, formsPerPage, page.Total)
	render(w, r, http.StatusOK, "forms", "Forms", s, data)
}

// formRow is f as the forms page shows it at now, with its activity a.
func (h *Handler) formRow(f form.Form, a store.FormActivity, now time.Time) formRow {
	row := formRow{ID: f.ID, Title: f.Title, Published: f.IsPublished(), Closed: f.Settings.Closed(now, a.Responses),
		Responses: a.Responses, Created: day(f.CreatedAt)}
	if row.Published {
		row.URL = f.ShareURL(h.cfg.PublicURL)
	}
	if a.LastResponse != nil {
		row.LastResponse = a.LastResponse.UTC().Format("2 Jan 2006, 15:04 UTC")
		row.lastAt = a.LastResponse.UnixNano()
	}
	return row
}

// duplicateForm serves POST /forms/{id}/duplicate: a copy of the form as a new
// draft (store.DuplicateForm), then the copy's editor.
func (h *Handler) duplicateForm(w http.ResponseWriter, r *http.Request, s *Session) {
	id, ok := parseIDs(w, r, s)
	if !ok {
		return
	}
	c, err := h.store.DuplicateForm(r.Context(), s.Account.ID, id)
	if err != nil {
		h.failed(w, r, s, "duplicate a form", err)
		return
	}
	http.Redirect(w, r, editorURL(c.ID, "duplicated", 0), http.StatusSeeOther)
}

// formDeleteData is the data of the page that confirms a form's deletion.
type formDeleteData struct {
	ID        int64
	Title     string
	Published bool
	store.FormContents
	// FileSize is FileBytes for people.
	FileSize string
}

// confirmDeleteForm serves GET /forms/{id}/delete: what the deletion takes with
// the form, and the button that deletes it.
func (h *Handler) confirmDeleteForm(w http.ResponseWriter, r *http.Request, s *Session) {
	f := h.ownForm(w, r, s)
	if f == nil {
		return
	}
	c, err := h.store.FormContents(r.Context(), s.Account.ID, f.ID)
	if err != nil {
		h.failed(w, r, s, "count a form's contents", err)
		return
	}
	render(w, r, http.StatusOK, "form-delete", "Delete "+f.Title, s, formDeleteData{ID: f.ID, Title: f.Title,
		Published: f.IsPublished(), FormContents: c, FileSize: sizeText(c.FileBytes)})
}

// deleteForm serves POST /forms/{id}/delete: the form, its responses and their
// files go, as with the API's DELETE (render.Submissions.DeleteForm), and the
// browser returns to the forms.
func (h *Handler) deleteForm(w http.ResponseWriter, r *http.Request, s *Session) {
	id, ok := parseIDs(w, r, s)
	if !ok {
		return
	}
	if err := h.cfg.Submissions.DeleteForm(r.Context(), s.Account.ID, id); err != nil {
		h.failed(w, r, s, "delete a form", err)
		return
	}
	http.Redirect(w, r, "/forms?deleted=1", http.StatusSeeOther)
}

// sizeText writes a byte count for people: 1.5 MB, 20 KB, 300 bytes.
func sizeText(n int64) string {
	switch {
	case n >= 1e6:
		return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + " MB"
	case n >= 1e3:
		return strconv.FormatInt(n/1e3, 10) + " KB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}
