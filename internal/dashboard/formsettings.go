package dashboard

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"forma/internal/form"
)

// The settings page of a form (/forms/{id}/settings): when it closes (a time, a
// number of responses, the message respondents then read), what respondents
// see after a response (the standard words, the owner's screen with piped
// answers, or a redirect with chosen answers), and the public page's language
// and the sites that may embed it (formpage.go). Each card posts a form.FormPatch
// applied inside store.UpdateForm, as the API's PATCH /forms/{id}, so the two
// never disagree on what is valid; a refused post shows the page again with
// each domain error at its field.

// localTime is the layout of a datetime-local input; the page says its times
// are UTC.
const localTime = "2006-01-02T15:04"

// formSettingsRoutes registers the settings page and its posts.
func (h *Handler) formSettingsRoutes(mux Mux) {
	handle(mux, "GET /forms/{id}/settings", h.page(h.formSettings))
	handle(mux, "POST /forms/{id}/settings/closing", h.page(h.saveClosing))
	handle(mux, "POST /forms/{id}/settings/thankyou", h.page(h.saveThankYou))
	handle(mux, "POST /forms/{id}/settings/page", h.page(h.savePublicPage))
}

// formSettingsData is the data of the settings page.
type formSettingsData struct {
	Form   formHead
	Notice string

	// Closed says whether the form takes no more submissions now; Responses
	// counts its completed ones.
	Closed    bool
	Responses int
	// The closing card: its inputs, a problem at none of them, and the
	// message respondents read when the owner writes none.
	ClosesAt, MaxResponses, ClosedMessage field
	ClosingError, DefaultClosed           string

	// Kind is what follows a response: "default", "screen" or "redirect".
	Kind                        string
	Title, Message, RedirectURL field
	// Params are the redirect parameters, one per question.
	Params      []paramField
	ThanksError string

	// The public page card: the language (one of Languages) and the origins
	// that may frame the page, one per line.
	Language, FrameAncestors field
	Languages                []languageOption
	PageError                string
}

// paramField is the input naming the redirect parameter of a question, which
// the screen also pipes as Pipe.
type paramField struct {
	field
	Question string
	Pipe     string
}

// formSettingsNotices are the sentences the page shows after a redirect.
var formSettingsNotices = map[string]string{
	"closing":  "The closing settings were saved.",
	"thankyou": "The thank-you settings were saved.",
	"page":     "The public page settings were saved.",
}

// formSettings serves GET /forms/{id}/settings.
func (h *Handler) formSettings(w http.ResponseWriter, r *http.Request, s *Session) {
	f := h.ownForm(w, r, s)
	if f == nil {
		return
	}
	d := settingsOf(f)
	d.Notice = formSettingsNotices[r.URL.Query().Get("done")]
	h.showFormSettings(w, r, http.StatusOK, s, f, d)
}

// settingsOf is the page's data for the stored form f.
func settingsOf(f *form.Form) formSettingsData {
	st := f.Settings
	d := formSettingsData{
		ClosesAt:      field{ID: "closes-at", Name: "closesAt"},
		MaxResponses:  field{ID: "max-responses", Name: "maxResponses"},
		ClosedMessage: field{ID: "closed-message", Name: "closedMessage", Value: st.ClosedMessage},
		Title:         field{ID: "thanks-title-input", Name: "title"},
		Message:       field{ID: "thanks-message-input", Name: "message"},
		RedirectURL:   field{ID: "redirect-url", Name: "redirectUrl"},
		DefaultClosed: form.DefaultClosedMessage, Kind: "default",
	}
	d.setPublicPage(st.Language, strings.Join(st.FrameAncestors, "\n"))
	if st.ClosesAt != nil {
		d.ClosesAt.Value = st.ClosesAt.UTC().Format(localTime)
	}
	if st.MaxResponses != nil {
		d.MaxResponses.Value = strconv.Itoa(*st.MaxResponses)
	}
	names := map[int64]string{}
	if t := st.ThankYou; t != nil {
		d.Kind = "screen"
		if t.RedirectURL != "" {
			d.Kind = "redirect"
		}
		d.Title.Value, d.Message.Value, d.RedirectURL.Value = t.Title, t.Message, t.RedirectURL
		for _, p := range t.RedirectParams {
			names[p.QuestionID] = p.Name
		}
	}
	for _, q := range form.InOrder(f.Questions) {
		id := strconv.FormatInt(q.ID, 10)
		d.Params = append(d.Params, paramField{field: field{ID: "param-" + id, Name: "param_" + id, Value: names[q.ID]},
			Question: q.Text, Pipe: "{{" + id + "}}"})
	}
	return d
}

// showFormSettings completes d with the form's state and draws the page.
func (h *Handler) showFormSettings(w http.ResponseWriter, r *http.Request, status int, s *Session, f *form.Form, d formSettingsData) {
	_, completed, err := h.store.SessionCounts(r.Context(), f.ID)
	if err != nil {
		serverError(w, r, "count a form's responses", err)
		return
	}
	d.Form = h.headOf(f)
	d.Form.Tab = "settings"
	d.Responses, d.Closed = completed, f.Settings.Closed(h.store.Now(), completed)
	render(w, r, status, "form-settings", "Settings · "+f.Title, s, d)
}

// saveClosing serves POST /forms/{id}/settings/closing: the closing time (UTC),
// the number of responses and the message; an empty input removes its setting.
func (h *Handler) saveClosing(w http.ResponseWriter, r *http.Request, s *Session) {
	id, ok := parseIDs(w, r, s)
	if !ok {
		return
	}
	v := r.PostForm
	p, errs := closingPatch(v)
	if len(errs) == 0 {
		_, err := h.store.UpdateForm(r.Context(), s.Account.ID, id, p.ApplyPatch)
		if form.ErrorCode(err) != form.Invalid {
			h.afterFormSettings(w, r, s, id, "closing", err)
			return
		}
		errs = problemsOf(err)
	}
	f := h.ownForm(w, r, s)
	if f == nil {
		return
	}
	d := settingsOf(f)
	d.ClosesAt.Value, d.ClosesAt.Error = v.Get("closesAt"), errs["closesAt"]
	d.MaxResponses.Value, d.MaxResponses.Error = v.Get("maxResponses"), errs["maxResponses"]
	d.ClosedMessage.Value, d.ClosedMessage.Error = v.Get("closedMessage"), errs["closedMessage"]
	d.ClosingError = errs.other("closesAt", "maxResponses", "closedMessage")
	h.showFormSettings(w, r, http.StatusBadRequest, s, f, d)
}

// closingPatch is the change the closing card posts, or the problems of the
// inputs that are not a time or a number.
func closingPatch(v url.Values) (form.FormPatch, fieldErrors) {
	errs := fieldErrors{}
	p := form.FormPatch{
		ClosesAt:      form.Optional[string]{Set: true, Null: true},
		MaxResponses:  form.Optional[int]{Set: true, Null: true},
		ClosedMessage: form.Optional[string]{Set: true, Value: v.Get("closedMessage")},
	}
	if at := strings.TrimSpace(v.Get("closesAt")); at != "" {
		t, err := time.Parse(localTime, at)
		if err != nil {
			errs["closesAt"] = "Enter a date and a time, such as 2026-12-24 18:00."
		}
		p.ClosesAt = form.Optional[string]{Set: true, Value: t.Format(time.RFC3339)}
	}
	if n := strings.TrimSpace(v.Get("maxResponses")); n != "" {
		max, err := strconv.Atoi(n)
		if err != nil {
			errs["maxResponses"] = "Enter a whole number of responses, such as 100."
		}
		p.MaxResponses = form.Optional[int]{Set: true, Value: max}
	}
	return p, errs
}

// saveThankYou serves POST /forms/{id}/settings/thankyou: the standard words,
// the owner's screen, or a redirect with the answers whose parameter is named.
func (h *Handler) saveThankYou(w http.ResponseWriter, r *http.Request, s *Session) {
	id, ok := parseIDs(w, r, s)
	if !ok {
		return
	}
	v := r.PostForm
	var named []string // the input of each redirect parameter, in order
	_, err := h.store.UpdateForm(r.Context(), s.Account.ID, id, func(f *form.Form) error {
		var t *form.ThankYou
		t, named = thankYouOf(v, f)
		return form.FormPatch{ThankYou: form.Optional[*form.ThankYou]{Set: true, Value: t}}.ApplyPatch(f)
	})
	if form.ErrorCode(err) != form.Invalid {
		h.afterFormSettings(w, r, s, id, "thankyou", err)
		return
	}
	f := h.ownForm(w, r, s)
	if f == nil {
		return
	}
	d := settingsOf(f)
	errs := paramErrors(problemsOf(err), named)
	d.Kind = v.Get("kind")
	d.Title.Value, d.Title.Error = v.Get("title"), errs["thankYou.title"]
	d.Message.Value, d.Message.Error = v.Get("message"), errs["thankYou.message"]
	d.RedirectURL.Value, d.RedirectURL.Error = v.Get("redirectUrl"), errs["thankYou.redirectUrl"]
	keys := []string{"thankYou.title", "thankYou.message", "thankYou.redirectUrl"}
	for i := range d.Params {
		p := &d.Params[i]
		p.Value, p.Error = v.Get(p.Name), errs[p.Name]
		keys = append(keys, p.Name)
	}
	d.ThanksError = errs.other(keys...)
	h.showFormSettings(w, r, http.StatusBadRequest, s, f, d)
}

// thankYouOf is the thank-you setting the card posts for f (nil: the standard
// words), and the inputs of its redirect parameters in order.
func thankYouOf(v url.Values, f *form.Form) (*form.ThankYou, []string) {
	switch v.Get("kind") {
	case "screen":
		return &form.ThankYou{Title: v.Get("title"), Message: v.Get("message")}, nil
	case "redirect":
		t := &form.ThankYou{RedirectURL: strings.TrimSpace(v.Get("redirectUrl"))}
		var named []string
		for _, q := range form.InOrder(f.Questions) {
			input := "param_" + strconv.FormatInt(q.ID, 10)
			if name := strings.TrimSpace(v.Get(input)); name != "" {
				t.RedirectParams = append(t.RedirectParams, form.RedirectParam{QuestionID: q.ID, Name: name})
				named = append(named, input)
			}
		}
		return t, named
	}
	return nil, nil
}

// paramErrors moves the problems of redirect parameters (thankYou.redirectParams[i]
// and its fields) to the input of each, named in named.
func paramErrors(errs fieldErrors, named []string) fieldErrors {
	out := fieldErrors{}
	for key, msg := range errs {
		rest, ok := strings.CutPrefix(key, "thankYou.redirectParams[")
		i, err := strconv.Atoi(strings.SplitN(rest, "]", 2)[0])
		if ok && err == nil && i < len(named) {
			key = named[i]
		}
		if out[key] != "" {
			msg = out[key] + " " + msg
		}
		out[key] = msg
	}
	return out
}

// afterFormSettings ends a change of form id's settings: back to the page when
// err is nil, a 404 or 500 page otherwise.
func (h *Handler) afterFormSettings(w http.ResponseWriter, r *http.Request, s *Session, id int64, done string, err error) {
	if err != nil {
		h.failed(w, r, s, "change a form's settings", err)
		return
	}
	http.Redirect(w, r, formSettingsPath(id)+"?done="+done, http.StatusSeeOther)
}

// formSettingsPath is the settings page of form id.
func formSettingsPath(id int64) string { return "/forms/" + strconv.FormatInt(id, 10) + "/settings" }
