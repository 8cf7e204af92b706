package respond

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"forma/internal/form"
)

// After a completed submission a respondent reads the form's thank-you screen
// (form.ThankYou: the owner's title and message with answers piped in, or the
// page's own words) or is sent to its redirect URL, with chosen answers as query
// parameters. The JSON answer of a completion carries both (completion); the HTML
// form's post is redirected to one or the other (afterSubmit), and the page
// script does the same with the JSON (steps.js). Piped answers are text: the
// templates escape them, the script sets them as text.

// thanksLinkAge is how long the thank-you page shows a response's piped answers
// after its completion: long enough for a slow page load or a reload, short
// enough that an old link in a browser history shows none.
const thanksLinkAge = time.Hour

// thanksView is the data of the thank-you content.
type thanksView struct {
	// Title is the form's.
	Title string
	// Heading and Message are the owner's, answers piped in, when Custom.
	Heading   string
	Message   string
	Custom    bool
	AgainHref string
	// L is the catalogue of the page's words.
	L *locale
}

// thanksOf is the thank-you content of f with the answers texts piped in (nil:
// none, as in the page rendered ahead, which the script fills in); embed keeps
// the link to another response in the iframe's page.
func thanksOf(f *form.Form, texts map[int64]string, embed bool) thanksView {
	t := f.Settings.ThankYou
	v := thanksView{Title: f.Title, AgainHref: "/f/" + f.ShareToken, Custom: t.Custom(), L: localeOf(f.Settings)}
	if embed {
		v.AgainHref += "?" + embedQuery
	}
	v.Heading, v.Message = screen(f, texts)
	return v
}

// screen is the title and message of f's thank-you screen with the answers
// texts piped in: its owner's, or the title of its language.
func screen(f *form.Form, texts map[int64]string) (title, message string) {
	t := f.Settings.ThankYou
	title, message = t.Screen(texts)
	if t == nil || t.Title == "" {
		title = localeOf(f.Settings).word("thanksTitle")
	}
	return title, message
}

// completion is the body answering a completed submission sub of f: its id,
// time and score, and, as f's thank-you settings say, the redirect URL with its
// parameters (redirectUrl) or the screen with answers piped in (thankYou).
func (h *Handler) completion(ctx context.Context, f *form.Form, sub *form.Submission) map[string]any {
	out := map[string]any{"id": sub.ID, "submittedAt": form.Timestamp(*sub.CompletedAt)}
	if sub.Score != nil {
		out["score"] = *sub.Score
	}
	t := f.Settings.ThankYou
	if t == nil {
		return out
	}
	texts := h.answerTexts(ctx, f, sub)
	if u := t.RedirectTo(texts); u != "" {
		out["redirectUrl"] = u
	}
	if t.Custom() {
		title, message := screen(f, texts)
		out["thankYou"] = map[string]string{"title": title, "message": message}
	}
	return out
}

// afterSubmit is where the HTML form's post of sub goes (with 303): f's redirect
// URL, or its thank-you page, which names the response when the screen pipes
// answers (thanksTexts).
// In an iframe (embed) the thank-you page stays the iframe's.
func (h *Handler) afterSubmit(ctx context.Context, f *form.Form, sub *form.Submission, embed bool) string {
	t := f.Settings.ThankYou
	page := "/f/" + f.ShareToken + "/thanks"
	query := url.Values{}
	if embed {
		query.Set("embed", "1")
	}
	switch {
	case t == nil:
	case t.RedirectURL != "":
		if u := t.RedirectTo(h.answerTexts(ctx, f, sub)); u != "" {
			return u
		}
	case t.PipesAnswers():
		query.Set("response", sub.ID)
	}
	if len(query) > 0 {
		page += "?" + query.Encode()
	}
	return page
}

// thanksTexts are the answers, as text, of the response that the thank-you
// page's query names, when it is a response of f completed less than
// thanksLinkAge ago; nil otherwise (the screen then pipes nothing).
func (h *Handler) thanksTexts(r *http.Request, f *form.Form) map[int64]string {
	id := r.URL.Query().Get("response")
	if id == "" || !f.Settings.ThankYou.PipesAnswers() {
		return nil
	}
	sub, err := h.store.GetResponse(r.Context(), f.ID, id)
	if err != nil || h.store.Now().Sub(*sub.CompletedAt) > thanksLinkAge {
		return nil
	}
	return h.answerTexts(r.Context(), f, sub)
}

// answerTexts are sub's answers as text for piping (form.AnswerTexts), a file
// answer as the file's name.
func (h *Handler) answerTexts(ctx context.Context, f *form.Form, sub *form.Submission) map[int64]string {
	return form.AnswerTexts(f.Questions, sub.Answers, func(uploadID string) string {
		u, err := h.store.GetUpload(ctx, uploadID)
		if err != nil {
			return ""
		}
		return u.Name
	})
}
