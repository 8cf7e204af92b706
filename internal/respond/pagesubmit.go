package respond

import (
	"bytes"
	"encoding/json"
	"errors"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"forma/internal/form"
	"forma/internal/httpx"
)

// honeypotField is a field people never see and bots fill in.
const honeypotField = "website"

// startField carries the signed time the form was shown.
const startField = "_started"

// page serves GET /f/{token}: the form, only while published. The page a
// first-time visitor gets is rendered once per version of the form, only its
// start token made per request; an address that prefills questions or carries
// hidden values (linkState) gets a page of its own.
func (h *Handler) page(w http.ResponseWriter, r *http.Request) {
	f, rd, err := h.openRendition(r)
	if err != nil {
		h.pageError(w, r, f, err)
		return
	}
	if r.URL.RawQuery != "" {
		if st, own := h.linkState(r, f); own {
			h.renderForm(w, r, http.StatusOK, f, st)
			return
		}
	}
	ahead := rd.page
	if embedded(r) {
		ahead = rd.embedPage
	}
	page := pages.Get().(*bytes.Buffer)
	defer pages.Put(page)
	page.Reset()
	page.Write(ahead.head)
	page.WriteString(h.fill.startToken(rd.shareToken, time.Now()))
	page.Write(ahead.tail)
	writeHTML(w, http.StatusOK, rd.policy, page.Bytes())
}

// pages are the buffers the page is put together in, to be sent with one write
// (a write costs a system call; copying the page costs less).
var pages = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// linkState is the state of a page opened at an address with a query: the
// values of the form's hidden fields it names, and the questions it prefills,
// each as q<questionId>=value (repeated for the choices of a multi_select). A
// value that is not a valid answer is left out, never an error: the link is not
// the respondent's to fix. own reports whether the query held any of these.
func (h *Handler) linkState(r *http.Request, f *form.Form) (st pageState, own bool) {
	query := r.URL.Query()
	st = h.freshState(r, f)
	st.Hidden = f.Settings.HiddenFrom(query, "")
	for i := range f.Questions {
		q := &f.Questions[i]
		if vals := prefill(q, query["q"+strconv.FormatInt(q.ID, 10)]); vals != nil {
			st.Values[q.ID] = vals
		}
	}
	return st, len(st.Hidden) > 0 || len(st.Values) > 0
}

// prefill is the answer to q that a link's values give, as the page's inputs
// take it, or nil when they give no valid answer (form.ValidateAnswer). Files
// cannot be prefilled.
func prefill(q *form.Question, values []string) []string {
	if len(values) == 0 || q.Type == form.FileUpload {
		return nil
	}
	raw, err := form.ParseFormValue(q, values)
	if err != nil {
		return nil
	}
	v, err := form.ValidateAnswer(q, raw)
	if err != nil {
		return nil
	}
	return inputValues(v)
}

// inputValues is a valid answer as the page's inputs hold it: the value of each
// choice, true or false for yes_no, numbers in full.
func inputValues(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case float64:
		return []string{num(x)}
	case bool:
		return []string{strconv.FormatBool(x)}
	case []string:
		return x
	}
	return nil
}

// freshState is the state of an empty page of f answering r.
func (h *Handler) freshState(r *http.Request, f *form.Form) pageState {
	return pageState{Values: map[int64][]string{}, Errors: map[int64]string{}, Files: map[int64]string{},
		StartToken: h.fill.startToken(f.ShareToken, time.Now()), Embed: embedded(r)}
}

// thanks serves GET /f/{token}/thanks: the page after a completed submission,
// also when the submission closed the form. ?response=<submission id> names the
// response whose answers its screen pipes (thanksTexts).
func (h *Handler) thanks(w http.ResponseWriter, r *http.Request) {
	c, err := h.publishedForm(r)
	if err != nil {
		h.pageError(w, r, nil, err)
		return
	}
	h.renderThanks(w, r, c.Form, h.thanksTexts(r, c.Form))
}

// pageError answers a page request of form f (nil when none was found) that
// failed: the not-found page, the closed page, or a 500 whose cause is logged
// with the request id.
func (h *Handler) pageError(w http.ResponseWriter, r *http.Request, f *form.Form, err error) {
	switch {
	case form.ErrorCode(err) == form.NotFound:
		renderNotFound(w, r, h.knownForm(r, f))
	case form.ErrorCode(err) == form.Closed && f != nil:
		renderClosed(w, r, f)
	default:
		serverError(w, r, "form page failed", err)
	}
}

// knownForm is f, or when f is nil the form of r's {token} if it exists
// unpublished (nil otherwise): the not-found page of a form taken offline is in
// the form's language.
func (h *Handler) knownForm(r *http.Request, f *form.Form) *form.Form {
	if f != nil {
		return f
	}
	if c, err := h.store.FormByShareToken(r.Context(), r.PathValue("token")); err == nil {
		return c.Form
	}
	return nil
}

// serverError answers an unexpected failure of a page with a plain 500 that names
// only the request id, and logs its cause with that id (httpx.LogError).
func serverError(w http.ResponseWriter, r *http.Request, what string, err error) {
	httpx.LogError(r.Context(), what, err)
	http.Error(w, "Something went wrong on our side. Please try again in a moment. Request id: "+httpx.RequestID(r.Context()),
		http.StatusInternalServerError)
}

// submitPage handles the HTML form's post (multipart/form-data, or url-encoded when
// there is no file): a thank-you page, or the form again with the errors and the
// answers kept.
func (h *Handler) submitPage(w http.ResponseWriter, r *http.Request) {
	c, err := h.publishedForm(r)
	if err != nil {
		h.pageError(w, r, nil, err)
		return
	}
	f := c.Form
	if err := h.checkOpen(r.Context(), f); err != nil {
		h.pageError(w, r, f, err)
		return
	}
	if err := h.sameOrigin.Check(r); err != nil {
		renderForbidden(w, r, f)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, h.maxPageBody(f))
	if err := parsePost(r); err != nil {
		h.unreadablePost(w, r, f, err)
		return
	}
	defer func() {
		if r.MultipartForm != nil {
			_ = r.MultipartForm.RemoveAll()
		}
	}()
	st := h.postedState(r, f)
	if msg, status := h.screen(r, f); msg != "" {
		st.Message = msg
		h.renderForm(w, r, status, f, st)
		return
	}
	raw, err := h.collectAnswers(r, f, &st)
	if err != nil {
		h.pageError(w, r, f, err)
		return
	}
	if len(st.Errors) == 0 && h.completePage(w, r, f, raw, &st) {
		return
	}
	st.Message = localeOf(f.Settings).word("fixAnswers")
	h.renderForm(w, r, http.StatusBadRequest, f, st)
}

// unreadablePost answers a post that could not be parsed with the empty form: 413
// when it was too large, else 400 (a broken or malformed multipart body).
func (h *Handler) unreadablePost(w http.ResponseWriter, r *http.Request, f *form.Form, err error) {
	st := h.freshState(r, f)
	l := localeOf(f.Settings)
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) || errors.Is(err, multipart.ErrMessageTooLarge) {
		st.Message = l.word("tooLarge", "max", strconv.FormatInt(h.cfg.MaxUploadBytes>>20, 10))
		h.renderForm(w, r, http.StatusRequestEntityTooLarge, f, st)
		return
	}
	st.Message = l.word("unreadable")
	h.renderForm(w, r, http.StatusBadRequest, f, st)
}

// maxPageBody bounds a page post: every file at its limit plus the text fields.
func (h *Handler) maxPageBody(f *form.Form) int64 {
	n := int64(1 << 20)
	for _, q := range f.Questions {
		if q.Type == form.FileUpload {
			n += h.cfg.MaxUploadBytes
		}
	}
	return n
}

func parsePost(r *http.Request) error {
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/") {
		return r.ParseMultipartForm(8 << 20)
	}
	return r.ParseForm()
}

// postedState keeps what the respondent sent, to show it again, and the hidden
// values the page carried (invalid ones are left out, as from its address).
func (h *Handler) postedState(r *http.Request, f *form.Form) pageState {
	st := h.freshState(r, f)
	st.Hidden = f.Settings.HiddenFrom(r.PostForm, hiddenInputPrefix)
	for _, q := range f.Questions {
		if v := r.PostForm[fieldName(q.ID)]; len(v) > 0 {
			st.Values[q.ID] = v
		}
	}
	return st
}

// screen applies the anti-abuse checks of the HTML form: honeypot, start token
// (signed, at most maxFillAge old), minimum fill time, per-client rate. It
// returns the message to show and the status, or "".
// The page says each in the form's language: "expired" when the start token is
// too old or was used already (the answers are kept: submitting again is one
// click).
func (h *Handler) screen(r *http.Request, f *form.Form) (string, int) {
	l := localeOf(f.Settings)
	if r.PostForm.Get(honeypotField) != "" {
		return l.word("automated"), http.StatusBadRequest
	}
	opened, err := h.fill.openedAt(f.ShareToken, r.PostForm.Get(startField))
	switch {
	case err != nil:
		return l.word("tokenInvalid"), http.StatusBadRequest
	case time.Since(opened) > maxFillAge:
		return l.word("expired"), http.StatusBadRequest
	case time.Since(opened) < h.cfg.MinFillTime:
		return l.word("tooQuick"), http.StatusBadRequest
	}
	if err := h.limiter.allow(r.Context(), h.clientKey(r, f.ID)); err != nil {
		return l.word("rateLimited"), http.StatusTooManyRequests
	}
	return "", 0
}

// completePage completes and stores the answers of a screened post, claiming its
// start token in between: single-use, so that a successful post cannot be
// replayed. True when it answered (the thank-you redirect; the form again with
// the "expired" message when the token was used already; a 500); false when the answers
// have errors, which it put in st.
func (h *Handler) completePage(w http.ResponseWriter, r *http.Request, f *form.Form, raw map[string]json.RawMessage, st *pageState) bool {
	sub, err := h.completeAnswers(r.Context(), f, raw, st.Hidden)
	if err == nil {
		err = h.claimStart(r, f)
	}
	if err == nil {
		err = h.storeSubmission(r.Context(), f, sub)
	}
	switch {
	case err == nil:
		// Post/redirect/get: reloading the thank-you page must not submit again.
		http.Redirect(w, r, h.afterSubmit(r.Context(), f, sub, st.Embed), http.StatusSeeOther)
	case errors.Is(err, errStartUsed):
		st.Message = localeOf(f.Settings).word("expired")
		h.renderForm(w, r, http.StatusBadRequest, f, *st)
	case !fieldErrors(err, st, localeOf(f.Settings)):
		h.pageError(w, r, f, err)
	default:
		return false
	}
	return true
}

// errStartUsed is a start token presented again.
var errStartUsed = errors.New("start token used already")

// claimStart records the post's start token as used, until it expires anyway;
// errStartUsed when it was used already.
func (h *Handler) claimStart(r *http.Request, f *form.Form) error {
	token := r.PostForm.Get(startField)
	opened, err := h.fill.openedAt(f.ShareToken, token)
	if err != nil {
		return err
	}
	fresh, err := h.store.UsePageToken(r.Context(), token, opened.Add(maxFillAge))
	if err == nil && !fresh {
		err = errStartUsed
	}
	return err
}

// collectAnswers converts the posted fields into JSON answers, storing any uploaded
// files; problems with answers go into st.Errors, and an unexpected failure (a
// file that could not be stored) is the error.
func (h *Handler) collectAnswers(r *http.Request, f *form.Form, st *pageState) (map[string]json.RawMessage, error) {
	raw := map[string]json.RawMessage{}
	l := localeOf(f.Settings)
	for i := range f.Questions {
		q := &f.Questions[i]
		key := strconv.FormatInt(q.ID, 10)
		if q.Type == form.FileUpload {
			id, err := h.postedFile(r, f, q, st)
			switch {
			case err != nil && form.ErrorCode(err) == form.Internal:
				return nil, err
			case err != nil:
				st.Errors[q.ID] = l.errorSentence(err)
			case id != "":
				raw[key], _ = json.Marshal(id)
			}
			continue
		}
		v, err := form.ParseFormValue(q, st.Values[q.ID])
		if err != nil {
			st.Errors[q.ID] = l.errorSentence(err)
			continue
		}
		raw[key] = v
	}
	return raw, nil
}

// postedFile stores a newly posted file, or keeps the upload id of one posted with
// an earlier, failed attempt; "" when there is none.
func (h *Handler) postedFile(r *http.Request, f *form.Form, q *form.Question, st *pageState) (string, error) {
	var files []*multipart.FileHeader
	if r.MultipartForm != nil {
		files = r.MultipartForm.File[fieldName(q.ID)]
	}
	if len(files) == 0 || files[0].Size == 0 {
		if prev := st.Values[q.ID]; len(prev) > 0 && prev[0] != "" {
			return prev[0], nil
		}
		return "", nil
	}
	file, err := files[0].Open()
	if err != nil {
		return "", h.uploadError(err)
	}
	defer file.Close()
	u, err := h.storeFile(r.Context(), f, files[0].Filename, file)
	if err != nil {
		return "", h.uploadError(err)
	}
	st.Values[q.ID] = []string{u.ID}
	st.Files[q.ID] = u.Name
	return u.ID, nil
}

// fieldErrors copies the sentences (in the words of l) of per-answer validation
// errors into st; false when err is not a validation error.
func fieldErrors(err error, st *pageState, l *locale) bool {
	var fe *form.Error
	if !errors.As(err, &fe) || fe.Code != form.Invalid {
		return false
	}
	for _, p := range fe.Fields {
		id, convErr := strconv.ParseInt(strings.TrimPrefix(p.Field, "answers."), 10, 64)
		if convErr != nil {
			st.Message = fe.Message
			continue
		}
		st.Errors[id] = l.sentence(p.Reason)
	}
	return true
}

// fieldName is the name of a question's input in the HTML form.
func fieldName(id int64) string { return "q_" + strconv.FormatInt(id, 10) }
