package dashboard

import (
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"forma/internal/form"
	"forma/internal/httpx"
)

// A form's definition (form.Definition) moves forms between accounts and
// servers: Export on the editor downloads it, Import on the new-form page
// makes a form of it. Both are the API's operations (GET
// /api/v1/forms/{id}/definition, POST /api/v1/forms/import) in the browser.

// multipartRoom is what a browser's upload adds to the file it sends: the
// multipart boundaries and part headers.
const multipartRoom = 16 << 10

// exportDefinition serves GET /forms/{id}/definition.json: the form's
// definition as a file to download, the very bytes the API answers.
func (h *Handler) exportDefinition(w http.ResponseWriter, r *http.Request, s *Session) {
	f := h.ownForm(w, r, s)
	if f == nil {
		return
	}
	body, err := httpx.EncodeJSON(f.Definition())
	if err != nil {
		serverError(w, r, "encode a form's definition", err)
		return
	}
	w.Header().Set("Content-Disposition", `attachment; filename="form-`+strconv.FormatInt(f.ID, 10)+`-definition.json"`)
	httpx.WriteRawJSON(w, http.StatusOK, body)
}

// importForm serves POST /forms/import: a new draft made from the uploaded
// definition, checked and stored as the API's import does
// (form.Definition.Form, store.ImportForm), then its editor. A refused file
// is named at the file field of the new-form page, with the API's reason.
func (h *Handler) importForm(w http.ResponseWriter, r *http.Request, s *Session) {
	d, err := uploadedDefinition(w, r)
	var f *form.Form
	if err == nil {
		f, err = d.Form()
	}
	if err == nil {
		f.AccountID = s.Account.ID
		err = h.store.ImportForm(r.Context(), f)
	}
	switch code := form.ErrorCode(err); {
	case err == nil:
		http.Redirect(w, r, editorURL(f.ID, "imported", 0), http.StatusSeeOther)
	case code == form.Invalid || code == form.TooLarge:
		status := http.StatusBadRequest
		if code == form.TooLarge {
			status = http.StatusRequestEntityTooLarge
		}
		h.showNewForm(w, r, status, s, url.Values{}, fieldErrors{"definition": importProblem(err)})
	default:
		serverError(w, r, "import a form", err)
	}
}

// uploadedDefinition decodes the file posted as "definition", of at most
// httpx.MaxBodyBytes (the API's limit), as the API decodes a body.
func uploadedDefinition(w http.ResponseWriter, r *http.Request) (*form.Definition, error) {
	r.Body = http.MaxBytesReader(w, r.Body, httpx.MaxBodyBytes+multipartRoom)
	file, _, err := r.FormFile("definition")
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return nil, form.Errorf(form.TooLarge, "the file is larger than 1 MiB")
	case err != nil:
		return nil, form.FieldInvalid("definition", "choose the definition file to import")
	}
	defer file.Close()
	b, err := io.ReadAll(io.LimitReader(file, httpx.MaxBodyBytes+1))
	switch {
	case err != nil:
		return nil, form.FieldInvalid("definition", "the file could not be read")
	case len(b) > httpx.MaxBodyBytes:
		return nil, form.Errorf(form.TooLarge, "the file is larger than 1 MiB")
	}
	var d form.Definition
	if err := httpx.DecodeBytes(b, &d); err != nil {
		return nil, err
	}
	return &d, nil
}

// importProblem is the sentence of a refused import, err an Invalid or
// TooLarge *form.Error: its first problem, named as in the file (a problem of
// the whole file is not named).
func importProblem(err error) string {
	var fe *form.Error
	errors.As(err, &fe)
	msg := fe.Message
	for _, whole := range []string{"body: ", "definition: "} {
		msg = strings.TrimPrefix(msg, whole)
	}
	return "This file cannot be imported: " + msg + "."
}
