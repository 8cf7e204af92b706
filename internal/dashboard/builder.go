package dashboard

import (
	"net/http"
	"net/url"
	"strconv"

	"forma/internal/assist"
	"forma/internal/form"
)

// The form builder: /forms/new creates a form, blank or generated from a prompt,
// /forms/{id} edits one. Every change goes through the same domain functions as
// the API (form.NewForm, FormPatch.ApplyPatch, form.NewQuestion,
// form.ApplyQuestionPatch, Form.SetPublished, assist.Service.GenerateForm),
// built from the posted fields, so the two never disagree on what is valid. Each
// change is a plain form post answered by a redirect back to the editor, or by
// the editor again with the errors at their fields (400).

// builderRoutes registers the builder's pages.
func (h *Handler) builderRoutes(mux Mux) {
	handle(mux, "GET /forms/new", h.page(h.newFormPage))
	handle(mux, "POST /forms/new", h.page(h.createForm))
	handle(mux, "POST /forms/generate", h.page(h.generateForm))
	handle(mux, "POST /forms/import", h.page(h.importForm))
	handle(mux, "GET /forms/{id}", h.page(h.editor))
	handle(mux, "POST /forms/{id}", h.page(h.saveDetails))
	handle(mux, "GET /forms/{id}/preview", h.page(h.preview))
	handle(mux, "POST /forms/{id}/publish", h.page(h.publish))
	handle(mux, "POST /forms/{id}/unpublish", h.page(h.unpublish))
	handle(mux, "POST /forms/{id}/hidden-fields", h.page(h.saveHiddenFields))
	handle(mux, "GET /forms/{id}/qr.svg", h.page(h.qrCode))
	handle(mux, "POST /forms/{id}/duplicate", h.page(h.duplicateForm))
	handle(mux, "GET /forms/{id}/definition.json", h.page(h.exportDefinition))
	handle(mux, "GET /forms/{id}/delete", h.page(h.confirmDeleteForm))
	handle(mux, "POST /forms/{id}/delete", h.page(h.deleteForm))
	handle(mux, "POST /forms/{id}/questions", h.page(h.addQuestion))
	handle(mux, "POST /forms/{id}/questions/{qid}", h.page(h.saveQuestion))
	handle(mux, "POST /forms/{id}/questions/{qid}/move", h.page(h.moveQuestion))
	handle(mux, "POST /forms/{id}/questions/{qid}/logic", h.page(h.saveLogic))
	handle(mux, "POST /forms/{id}/questions/{qid}/rule", h.page(h.saveRule))
	handle(mux, "GET /forms/{id}/questions/{qid}/delete", h.page(h.confirmDelete))
	handle(mux, "POST /forms/{id}/questions/{qid}/delete", h.page(h.deleteQuestion))
}

// newFormData is the data of the new-form page: the blank form's fields, the
// prompt with the price of a generation, and the file of an import.
type newFormData struct {
	Title, Description field
	DisplayMode        string
	Other              string
	Prompt             field
	Credits            credits
	Import             field
}

// newFormPage serves GET /forms/new.
func (h *Handler) newFormPage(w http.ResponseWriter, r *http.Request, s *Session) {
	h.showNewForm(w, r, http.StatusOK, s, url.Values{}, nil)
}

func (h *Handler) showNewForm(w http.ResponseWriter, r *http.Request, status int, s *Session, v url.Values, errs fieldErrors) {
	d := newFormData{
		Title:       field{ID: "title", Value: v.Get("title"), Error: errs["title"]},
		Description: field{ID: "description", Value: v.Get("description"), Error: errs["description"]},
		DisplayMode: v.Get("displayMode"), Other: errs.other("title", "description", "prompt", "definition"),
		Prompt: field{ID: "prompt", Value: v.Get("prompt"), Error: errs["prompt"]},
		Import: field{ID: "definition", Error: errs["definition"]},
	}
	var err error
	if d.Credits, err = h.credits(r, s.Account, assist.GenerateForm); err != nil {
		serverError(w, r, "find the account's credits", err)
		return
	}
	render(w, r, status, "newform", "New form", s, d)
}

// createForm serves POST /forms/new: a blank form, then its editor.
func (h *Handler) createForm(w http.ResponseWriter, r *http.Request, s *Session) {
	if !parseForm(w, r) {
		return
	}
	title, description := r.PostForm.Get("title"), r.PostForm.Get("description")
	f, err := form.NewForm(form.FormInput{Title: &title, Description: &description,
		DisplayMode: form.DisplayMode(r.PostForm.Get("displayMode"))})
	if err != nil {
		h.showNewForm(w, r, http.StatusBadRequest, s, r.PostForm, problemsOf(err))
		return
	}
	f.AccountID = s.Account.ID
	if err := h.store.CreateForm(r.Context(), f); err != nil {
		serverError(w, r, "create a form", err)
		return
	}
	http.Redirect(w, r, editorURL(f.ID, "created", 0), http.StatusSeeOther)
}

// generateForm serves POST /forms/generate: a form generated from the posted
// prompt and charged through assist.Service.GenerateForm, as the API's POST
// /api/v1/forms/generate, then its editor. A refusal (the prompt, the credits,
// the provider) is shown at the prompt.
func (h *Handler) generateForm(w http.ResponseWriter, r *http.Request, s *Session) {
	if !parseForm(w, r) {
		return
	}
	p, err := h.payer(r, s.Account)
	var f *form.Form
	if err == nil {
		f, _, err = h.assist.GenerateForm(r.Context(), p, r.PostForm.Get("prompt"))
	}
	if err != nil {
		h.refusedAI(w, r, s, err, func(status int, problem string) {
			h.showNewForm(w, r, status, s, r.PostForm, fieldErrors{"prompt": problem})
		})
		return
	}
	http.Redirect(w, r, editorURL(f.ID, "generated", 0), http.StatusSeeOther)
}

// ownForm loads the form of the path's {id} if the account owns it. Otherwise it
// answers (404 for a form that is not the account's) and returns nil.
func (h *Handler) ownForm(w http.ResponseWriter, r *http.Request, s *Session) *form.Form {
	f, err := h.formOf(r, s)
	if err != nil {
		h.failed(w, r, s, "load a form", err)
		return nil
	}
	return f
}

// formOf loads the form of the {id} path parameter when the signed-in account
// owns it; an id that is not one, or another account's form, is NotFound.
func (h *Handler) formOf(r *http.Request, s *Session) (*form.Form, error) {
	id, ok := form.ParseID(r.PathValue("id"))
	if !ok {
		return nil, form.Errorf(form.NotFound, "no such form")
	}
	return h.store.GetForm(r.Context(), s.Account.ID, id)
}

// failed answers an error of the store: a 404 page for what is not found (or is
// another account's), else a 500.
func (h *Handler) failed(w http.ResponseWriter, r *http.Request, s *Session, what string, err error) {
	if form.ErrorCode(err) == form.NotFound {
		notFound(w, r, s)
		return
	}
	serverError(w, r, what, err)
}

// notFound answers a form or question the account does not have.
func notFound(w http.ResponseWriter, r *http.Request, s *Session) {
	missing(w, r, s, "form or question")
}

// missing answers 404 with a page saying the account has no such what.
func missing(w http.ResponseWriter, r *http.Request, s *Session, what string) {
	render(w, r, http.StatusNotFound, "notice", "Not found", s, notice{
		Lines: []string{"There is no such " + what + " in your account. It may have been deleted."},
		Link:  "/forms", LinkText: "Your forms"})
}

// preview serves GET /forms/{id}/preview: the form as its respondents see it,
// drafts included, drawn by the public page's own code (Config.Preview), with
// nothing recorded. The editor shows it beside the questions.
func (h *Handler) preview(w http.ResponseWriter, r *http.Request, s *Session) {
	if f := h.ownForm(w, r, s); f != nil {
		h.cfg.Preview(w, r, f)
	}
}

// editor serves GET /forms/{id}.
func (h *Handler) editor(w http.ResponseWriter, r *http.Request, s *Session) {
	f := h.ownForm(w, r, s)
	if f == nil {
		return
	}
	q := r.URL.Query()
	id, _ := form.ParseID(q.Get("q"))
	h.showEditor(w, r, http.StatusOK, s, f, attempt{Done: q.Get("done"), Question: id})
}

// showEditor draws the editor of f, with a refused post a shown again.
func (h *Handler) showEditor(w http.ResponseWriter, r *http.Request, status int, s *Session, f *form.Form, a attempt) {
	render(w, r, status, "editor", f.Title, s, h.editorView(f, a))
}

// saveDetails serves POST /forms/{id}: title, description and display mode.
func (h *Handler) saveDetails(w http.ResponseWriter, r *http.Request, s *Session) {
	id, ok := parseIDs(w, r, s)
	if !ok {
		return
	}
	p := form.FormPatch{
		Title:       form.Optional[string]{Set: true, Value: r.PostForm.Get("title")},
		Description: form.Optional[string]{Set: true, Value: r.PostForm.Get("description")},
		DisplayMode: form.Optional[form.DisplayMode]{Set: true, Value: form.DisplayMode(r.PostForm.Get("displayMode"))},
	}
	_, err := h.store.UpdateForm(r.Context(), s.Account.ID, id, p.ApplyPatch)
	h.afterChange(w, r, s, id, attempt{Form: "details"}, err)
}

// publish serves POST /forms/{id}/publish.
func (h *Handler) publish(w http.ResponseWriter, r *http.Request, s *Session) {
	h.setPublished(w, r, s, true)
}

// unpublish serves POST /forms/{id}/unpublish.
func (h *Handler) unpublish(w http.ResponseWriter, r *http.Request, s *Session) {
	h.setPublished(w, r, s, false)
}

func (h *Handler) setPublished(w http.ResponseWriter, r *http.Request, s *Session, published bool) {
	id, ok := parseIDs(w, r, s)
	if !ok {
		return
	}
	now := h.store.Now()
	_, err := h.store.UpdateForm(r.Context(), s.Account.ID, id, func(f *form.Form) error {
		f.SetPublished(published, now)
		return nil
	})
	done := "unpublished"
	if published {
		done = "published"
	}
	h.afterChange(w, r, s, id, attempt{Form: "publish", Done: done}, err)
}

// afterChange ends a post to the editor of form id: back to the editor when err
// is nil, the editor with a's fields and the problems when it is Invalid (or
// Conflict), a 404 or 500 page otherwise.
func (h *Handler) afterChange(w http.ResponseWriter, r *http.Request, s *Session, id int64, a attempt, err error) {
	switch form.ErrorCode(err) {
	case form.Invalid, form.Conflict:
		f, ferr := h.store.GetForm(r.Context(), s.Account.ID, id)
		if ferr != nil {
			h.failed(w, r, s, "load a form", ferr)
			return
		}
		a.Values, a.Errors = r.PostForm, problemsOf(err)
		status := http.StatusBadRequest
		if err == errChooseValue {
			status = http.StatusOK // a step of the rule's form, not a mistake
		}
		h.showEditor(w, r, status, s, f, a)
	case form.Internal:
		if err != nil {
			serverError(w, r, "change a form", err)
			return
		}
		if a.Done == "" {
			a.Done = "saved"
		}
		http.Redirect(w, r, editorURL(id, a.Done, a.Question), http.StatusSeeOther)
	default:
		h.failed(w, r, s, "change a form", err)
	}
}

// editorURL is the editor of form id after done, scrolled to question q (0: the
// top).
func editorURL(id int64, done string, q int64) string {
	u := "/forms/" + strconv.FormatInt(id, 10) + "?done=" + done
	if q != 0 {
		qs := strconv.FormatInt(q, 10)
		return u + "&q=" + qs + "#q-" + qs
	}
	return u
}

// parseIDs reads the posted form and the form id of the path (answering 404 when
// it is malformed); the store checks that the account owns the form.
func parseIDs(w http.ResponseWriter, r *http.Request, s *Session) (int64, bool) {
	if !parseForm(w, r) {
		return 0, false
	}
	id, ok := form.ParseID(r.PathValue("id"))
	if !ok {
		notFound(w, r, s)
	}
	return id, ok
}

// maxBuilderBytes bounds the body of a builder post: as much as the API takes
// in one JSON body, since a question may carry hundreds of long options.
const maxBuilderBytes = 1 << 20

// parseForm reads a posted form of at most maxBuilderBytes; on failure it
// answers 400 and returns false.
func parseForm(w http.ResponseWriter, r *http.Request) bool {
	r.Body = http.MaxBytesReader(w, r.Body, maxBuilderBytes)
	if err := r.ParseForm(); err != nil {
		http.Error(w, "The form could not be read. Go back and send it again.", http.StatusBadRequest)
		return false
	}
	return true
}
