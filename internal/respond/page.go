package respond

// PLACEHOLDER: the page rendering is being written; this file is replaced.

import (
	"net/http"

	"forma/internal/form"
)

type pageState struct {
	Values     map[int64][]string
	Errors     map[int64]string
	Files      map[int64]string
	Message    string
	StartToken string
}

func (h *Handler) renderForm(w http.ResponseWriter, status int, f *form.Form, st pageState) {
	w.WriteHeader(status)
}

func (h *Handler) renderThanks(w http.ResponseWriter, f *form.Form) {}

func renderNotFound(w http.ResponseWriter) { w.WriteHeader(404) }

func serveAsset(w http.ResponseWriter, r *http.Request) {}
