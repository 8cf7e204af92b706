package respond

import (
	"bytes"
	"errors"
	"net/http"

	"forma/internal/form"
	"forma/internal/httpx"
	"forma/internal/store"
)

// rendition is what every request for one version of a published form shares:
// the body of its definition and its page as a first-time visitor gets it,
// made once (store.Derived) instead of on every request.
type rendition struct {
	// shareToken is the form's, for which each request signs a start token.
	shareToken string
	// definition is the body of GET /f/{token}/definition.
	definition []byte
	// head and tail are the page before and after its start token, the one
	// part that differs per request.
	head, tail []byte
	// policy is the page's Content-Security-Policy (pagePolicy).
	policy string
}

// startMarker stands for the start token in a page rendered ahead: random, so
// that no text of a form can contain it.
var startMarker = []byte(newID())

// openRendition returns the published form of the {token} path parameter
// (publishedForm) and its rendition, made on first use; a closed form's error is
// its Closed error (checkOpen), returned with the form.
func (h *Handler) openRendition(r *http.Request) (*form.Form, *rendition, error) {
	c, err := h.publishedForm(r)
	if err != nil {
		return nil, nil, err
	}
	if err := h.checkOpen(r.Context(), c.Form); err != nil {
		return c.Form, nil, err
	}
	rd, err := store.Derived(c, h, h.render)
	return c.Form, rd, err
}

// render makes the rendition of the published form f.
func (h *Handler) render(f *form.Form) (*rendition, error) {
	def := publicDefinition(f)
	body, err := httpx.EncodeJSON(def)
	if err != nil {
		return nil, err
	}
	v, err := h.formView(f, pageState{StartToken: string(startMarker)}, def)
	if err != nil {
		return nil, err
	}
	page, err := renderPage("form", v)
	if err != nil {
		return nil, err
	}
	head, tail, found := bytes.Cut(page, startMarker)
	if !found || bytes.Contains(tail, startMarker) {
		return nil, errors.New("the form page must show its start token exactly once")
	}
	return &rendition{shareToken: f.ShareToken, definition: body, head: head, tail: tail, policy: pagePolicy(f)}, nil
}
