package dashboard

import (
	"net/http"
	"strconv"
	"strings"

	"forma/internal/form"
)

// The public page card of a form's settings page: the language of the page's
// own words, picked from the languages the page comes in (form.PageLanguages,
// each by its own name), and the sites that may embed the page, one origin per
// line. It posts a form.FormPatch with language and frameAncestors, validated
// as the API's PATCH /forms/{id}.

// languageOption is an option of the language select.
type languageOption struct {
	Tag, Name string
	Selected  bool
}

// setPublicPage sets the card's inputs to the language tag and the origins
// (one per line). A tag that is none of the page's languages (a regional one
// set through the API, or a refused one being shown again) is an option too,
// so the select shows it.
func (d *formSettingsData) setPublicPage(tag, origins string) {
	d.Language = field{ID: "language", Name: "language", Value: tag}
	d.FrameAncestors = field{ID: "frame-ancestors", Name: "frameAncestors", Value: origins}
	if tag == "" {
		tag = form.DefaultLanguage
	}
	d.Languages = nil
	known := false
	for _, l := range form.PageLanguages {
		d.Languages = append(d.Languages, languageOption{Tag: l.Tag, Name: l.Name, Selected: l.Tag == tag})
		known = known || l.Tag == tag
	}
	if !known {
		d.Languages = append(d.Languages, languageOption{Tag: tag, Name: tag, Selected: true})
	}
}

// savePublicPage serves POST /forms/{id}/settings/page: the language and the
// origins that may frame the page (blank lines left out; none lets any site).
func (h *Handler) savePublicPage(w http.ResponseWriter, r *http.Request, s *Session) {
	id, ok := parseIDs(w, r, s)
	if !ok {
		return
	}
	v := r.PostForm
	origins := originLines(v.Get("frameAncestors"))
	p := form.FormPatch{
		Language:       form.Optional[string]{Set: true, Value: strings.TrimSpace(v.Get("language"))},
		FrameAncestors: form.Optional[[]string]{Set: true, Value: origins},
	}
	_, err := h.store.UpdateForm(r.Context(), s.Account.ID, id, p.ApplyPatch)
	if form.ErrorCode(err) != form.Invalid {
		h.afterFormSettings(w, r, s, id, "page", err)
		return
	}
	f := h.ownForm(w, r, s)
	if f == nil {
		return
	}
	d := settingsOf(f)
	errs := pageErrors(err, origins)
	d.setPublicPage(v.Get("language"), v.Get("frameAncestors"))
	d.Language.Error, d.FrameAncestors.Error = errs["language"], errs["frameAncestors"]
	d.PageError = errs.other("language", "frameAncestors")
	h.showFormSettings(w, r, http.StatusBadRequest, s, f, d)
}

// originLines are the origins of text, one per line, blank lines left out.
func originLines(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if o := strings.TrimSpace(line); o != "" {
			out = append(out, o)
		}
	}
	return out
}

// pageErrors are the problems of err at the card's inputs: an origin's names
// the line it is on, quoted, since the numbers of the API's frameAncestors[i]
// skip blank lines.
func pageErrors(err error, origins []string) fieldErrors {
	errs := fieldErrors{}
	fe, ok := err.(*form.Error)
	if !ok {
		return errs
	}
	for _, f := range fe.Fields {
		key, sentence := f.Field, fieldLabel(f.Field)+" "+f.Message+"."
		if rest, ok := strings.CutPrefix(f.Field, "frameAncestors["); ok {
			key = "frameAncestors"
			if i, err := strconv.Atoi(strings.TrimSuffix(rest, "]")); err == nil && i < len(origins) {
				sentence = "“" + origins[i] + "” " + f.Message + "."
			}
		}
		if errs[key] != "" {
			sentence = errs[key] + " " + sentence
		}
		errs[key] = sentence
	}
	if len(fe.Fields) == 0 {
		errs[""] = fe.Message
	}
	return errs
}
