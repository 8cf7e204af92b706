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
	// page is the form page, embedPage that of an iframe (?embed=1).
	page, embedPage renderedPage
	// policy is the page's Content-Security-Policy (pagePolicy).
	policy string
}

// renderedPage is a page rendered ahead: head and tail are the page before and
// after its start token, the one part that differs per request.
type renderedPage struct {
	head, tail []byte
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
	rd := &rendition{shareToken: f.ShareToken, definition: body, policy: pagePolicy(f)}
	if rd.page, err = h.renderAhead(f, def, false); err == nil {
		rd.embedPage, err = h.renderAhead(f, def, true)
	}
	return rd, err
}

// renderAhead renders the page of f with the definition def (of an iframe when
// embed) around startMarker.
func (h *Handler) renderAhead(f *form.Form, def Definition, embed bool) (renderedPage, error) {
	v, err := h.formView(f, pageState{StartToken: string(startMarker), Embed: embed}, def)
	if err != nil {
		return renderedPage{}, err
	}
	page, err := renderPage("form", v)
	if err != nil {
		return renderedPage{}, err
	}
	head, tail, found := bytes.Cut(page, startMarker)
	if !found || bytes.Contains(tail, startMarker) {
		return renderedPage{}, errors.New("the form page must show its start token exactly once")
	}
	return renderedPage{head: head, tail: tail}, nil
}
