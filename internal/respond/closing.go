package respond

import (
	"context"
	"net/http"
	"strings"

	"forma/internal/form"
	"forma/internal/httpx"
)

// A closed form (form.Settings.Closed: its closing time has come, or its
// responses reached maxResponses) shows its closed message instead of the page,
// with 410 Gone, and its respondent operations that would add to it — the
// definition, submissions, session starts, saves and completions, uploads —
// answer 410 form_closed with the same message. The store checks the limit again,
// exactly, in the transaction of each completion (store.CreateSubmission,
// store.CompleteSession), so concurrent respondents never take it past its
// maximum. The thank-you page stays open: the last respondent reads it too.

// accepting adapts a handler of a published form that adds to its responses: a
// closed form's request is answered Closed (checkOpen) instead.
func (h *Handler) accepting(fn func(w http.ResponseWriter, r *http.Request, f *form.Form)) func(w http.ResponseWriter, r *http.Request, f *form.Form) {
	return func(w http.ResponseWriter, r *http.Request, f *form.Form) {
		if err := h.checkOpen(r.Context(), f); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		fn(w, r, f)
	}
}

// checkOpen returns f's Closed error (closedError) when f takes no more
// submissions now (store.FormClosed), nil while it does.
func (h *Handler) checkOpen(ctx context.Context, f *form.Form) error {
	closed, err := h.store.FormClosed(ctx, f)
	if err == nil && closed {
		err = closedError(f)
	}
	return err
}

// closedText is what respondents of the closed form f read: its owner's
// message, or the default of its language.
func closedText(f *form.Form) string {
	if f.Settings.ClosedMessage != "" {
		return f.Settings.ClosedMessage
	}
	return localeOf(f.Settings).word("closedDefault")
}

// closedError is the Closed error answering a respondent of the closed form f,
// its message closedText.
func closedError(f *form.Form) *form.Error {
	return &form.Error{Code: form.Closed, Message: closedText(f)}
}

// closedAs gives the Closed error of a completion the store refused, because the
// form's responses were full by then, f's own message.
func closedAs(f *form.Form, err error) error {
	if form.ErrorCode(err) == form.Closed {
		return closedError(f)
	}
	return err
}

// renderClosed writes the page of the closed form f: its title and its closed
// message, a paragraph per line, with 410 Gone.
func renderClosed(w http.ResponseWriter, r *http.Request, f *form.Form) {
	var lines []string
	for _, line := range strings.Split(closedText(f), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			lines = append(lines, line)
		}
	}
	writePage(w, r, http.StatusGone, "notice", noticeView{pageChrome(r, f), f.Title, lines}, pagePolicy(f))
}
