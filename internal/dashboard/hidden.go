package dashboard

import (
	"net/http"
	"strconv"
	"strings"

	"forma/internal/form"
)

// hiddenView is the editor's card of the form's hidden fields: their names, one
// per line, and, while the form is published, what links that fill them in and
// prefill a question look like.
type hiddenView struct {
	Names         field
	Link, Prefill string
}

// hiddenOf is the hidden-fields card of f, showing a refused post of it again.
func (h *Handler) hiddenOf(f *form.Form, a attempt) hiddenView {
	names := f.Settings.HiddenFields
	v := hiddenView{Names: field{ID: "hiddenFields", Name: "hiddenFields", Value: strings.Join(names, "\n")}}
	if a.applies("hidden", 0) {
		v.Names.Value, v.Names.Error = a.Values.Get("hiddenFields"), a.Errors.other()
	}
	if !f.IsPublished() {
		return v
	}
	share := f.ShareURL(h.cfg.PublicURL)
	if len(names) > 0 {
		v.Link = share + "?" + strings.Join(names, "=…&") + "=…"
	}
	if len(f.Questions) > 0 {
		v.Prefill = share + "?q" + strconv.FormatInt(f.Questions[0].ID, 10) + "=…"
	}
	return v
}

// saveHiddenFields serves POST /forms/{id}/hidden-fields: the names posted one
// per line (blank lines left out), saved through form.FormPatch.ApplyPatch as
// the API's PATCH with hiddenFields; none removes them all.
func (h *Handler) saveHiddenFields(w http.ResponseWriter, r *http.Request, s *Session) {
	id, ok := parseIDs(w, r, s)
	if !ok {
		return
	}
	var names []string
	for _, line := range strings.Split(r.PostForm.Get("hiddenFields"), "\n") {
		if name := strings.TrimSpace(line); name != "" {
			names = append(names, name)
		}
	}
	p := form.FormPatch{HiddenFields: form.Optional[[]string]{Set: true, Value: names}}
	_, err := h.store.UpdateForm(r.Context(), s.Account.ID, id, p.ApplyPatch)
	h.afterChange(w, r, s, id, attempt{Form: "hidden", Done: "hidden"}, err)
}
