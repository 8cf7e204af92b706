package api

import (
	"net/http"

	"forma/internal/form"
	"forma/internal/httpx"
)

// formDefinition serves GET /forms/{id}/definition (extension): the form's
// definition (form.Form.Definition), to import again with POST /forms/import.
func (a *API) formDefinition(w http.ResponseWriter, r *http.Request) {
	id, err := a.formID(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	c, err := a.store.CachedForm(r.Context(), caller(r).account.ID, id)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, c.Form.Definition())
}

// importForm serves POST /forms/import (extension): a new draft made from a
// definition (form.Definition.Form, store.ImportForm), answered as POST /forms
// answers. Form-scoped keys cannot create forms (403).
func (a *API) importForm(w http.ResponseWriter, r *http.Request) {
	if err := requireUnscoped(r, "create forms"); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	var d form.Definition
	if err := httpx.DecodeJSON(w, r, &d); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	f, err := d.Form()
	if err == nil {
		f.AccountID = caller(r).account.ID
		err = a.store.ImportForm(r.Context(), f)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	a.writeForm(w, r, http.StatusCreated, f, true)
}
