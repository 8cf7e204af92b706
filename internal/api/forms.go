package api

import (
	"net/http"

	"forma/internal/form"
	"forma/internal/httpx"
	"forma/internal/store"
	"forma/internal/webhook"
)

// createForm serves POST /forms.
func (a *API) createForm(w http.ResponseWriter, r *http.Request) {
	if err := requireUnscoped(r, "create forms"); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	var in form.FormInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	f, err := form.NewForm(in)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	f.AccountID = caller(r).account.ID
	if err = a.store.CreateForm(r.Context(), f); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	a.writeForm(w, r, http.StatusCreated, f, true)
}

// listForms serves GET /forms.
func (a *API) listForms(w http.ResponseWriter, r *http.Request) {
	p, err := parsePage(r, 50, 100)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	c := caller(r)
	res, err := a.store.ListForms(r.Context(), c.account.ID, c.key.FormID, p.limit, p.offset)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	views := make([]formView, len(res.Forms))
	for i := range res.Forms {
		if views[i], err = a.showForm(r.Context(), &res.Forms[i], false); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
	}
	httpx.WriteJSON(w, http.StatusOK, listEnvelope("forms", views, res.Total, p))
}

// formID parses the {id} path parameter and checks the caller may touch that form.
func (a *API) formID(r *http.Request) (int64, error) {
	id, err := pathID(r, "id")
	if err != nil {
		return 0, err
	}
	return id, a.authorizeForm(r, id)
}

// getForm serves GET /forms/{id} from the store's form cache, the body encoded
// once per version of the form, and of its being closed.
func (a *API) getForm(w http.ResponseWriter, r *http.Request) {
	id, err := a.formID(r)
	var c *store.CachedForm
	if err == nil {
		c, err = a.store.CachedForm(r.Context(), caller(r).account.ID, id)
	}
	var closed bool
	if err == nil {
		closed, err = a.store.FormClosed(r.Context(), c.Form)
	}
	var body []byte
	if err == nil {
		body, err = store.Derived(c, formBody{a, closed}, func(f *form.Form) ([]byte, error) {
			return httpx.EncodeJSON(a.viewForm(f, closed, true))
		})
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteRawJSON(w, http.StatusOK, body)
}

// formBody keys the body of GET /forms/{id} among what is derived from a cached
// form (store.Derived): one per API and state of closing.
type formBody struct {
	api    *API
	closed bool
}

// writeForm answers with f as it is now (showForm).
func (a *API) writeForm(w http.ResponseWriter, r *http.Request, status int, f *form.Form, withQuestions bool) {
	v, err := a.showForm(r.Context(), f, withQuestions)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, status, v)
}

// updateForm serves PATCH /forms/{id}: metadata, webhook, closing and thank-you
// settings.
func (a *API) updateForm(w http.ResponseWriter, r *http.Request) {
	id, err := a.formID(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	var patch form.FormPatch
	if err := httpx.DecodeJSON(w, r, &patch); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	checkURL := webhook.URLCheck(a.cfg.AllowPrivateWebhooks)
	f, err := a.store.UpdateForm(r.Context(), caller(r).account.ID, id, func(f *form.Form) error {
		if err := patch.ApplyPatch(f); err != nil {
			return err
		}
		return patch.ApplyWebhook(f, checkURL)
	})
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	a.writeForm(w, r, http.StatusOK, f, false)
}

// deleteForm serves DELETE /forms/{id} (extension): the form, its questions, its
// submissions and their files.
func (a *API) deleteForm(w http.ResponseWriter, r *http.Request) {
	id, err := a.formID(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if err := a.cfg.Submissions.DeleteForm(r.Context(), caller(r).account.ID, id); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// duplicateForm serves POST /forms/{id}/duplicate (extension): a draft copy of
// the form (store.DuplicateForm), answered as GET /forms/{id} shows it. It takes
// no body. A form-scoped key may read its form but not create one (403).
func (a *API) duplicateForm(w http.ResponseWriter, r *http.Request) {
	err := httpx.RequireEmptyBody(w, r)
	var id int64
	if err == nil {
		id, err = a.formID(r)
	}
	if err == nil {
		err = requireUnscoped(r, "create forms")
	}
	var c *form.Form
	if err == nil {
		c, err = a.store.DuplicateForm(r.Context(), caller(r).account.ID, id)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	a.writeForm(w, r, http.StatusCreated, c, true)
}

// publishForm serves POST /forms/{id}/publish; publishing a published form keeps
// its publishedAt.
func (a *API) publishForm(w http.ResponseWriter, r *http.Request) {
	f, err := a.setPublished(w, r, true)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{
		"id": f.ID, "isPublished": true, "publishedAt": timestampOrNil(f.PublishedAt), "url": a.shareURL(f),
	})
}

// unpublishForm serves POST /forms/{id}/unpublish; it is idempotent.
func (a *API) unpublishForm(w http.ResponseWriter, r *http.Request) {
	f, err := a.setPublished(w, r, false)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"id": f.ID, "isPublished": false, "publishedAt": nil})
}

// setPublished publishes or unpublishes the form of the request, which takes no
// body.
func (a *API) setPublished(w http.ResponseWriter, r *http.Request, published bool) (*form.Form, error) {
	if err := httpx.RequireEmptyBody(w, r); err != nil {
		return nil, err
	}
	id, err := a.formID(r)
	if err != nil {
		return nil, err
	}
	now := a.store.Now()
	return a.store.UpdateForm(r.Context(), caller(r).account.ID, id, func(f *form.Form) error {
		f.SetPublished(published, now)
		return nil
	})
}
