package respond

import (
	"context"
	"encoding/json"
	"mime"
	"net/http"
	"strconv"

	"forma/internal/form"
	"forma/internal/httpx"
	"forma/internal/logic"
)

// answersBody is the JSON body of submissions and session saves: the answers
// and the values of hidden fields.
type answersBody struct {
	Answers map[string]json.RawMessage `json:"answers"`
	Hidden  map[string]string          `json:"hidden"`
}

// submit serves POST /f/{token}/submissions: JSON from scripts and embeds, or the
// HTML form's multipart post (answered with a page).
func (h *Handler) submit(w http.ResponseWriter, r *http.Request) {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt == "multipart/form-data" || mt == "application/x-www-form-urlencoded" {
		h.submitPage(w, r)
		return
	}
	cors(h.published(h.accepting(h.submitJSON)))(w, r)
}

func (h *Handler) submitJSON(w http.ResponseWriter, r *http.Request, f *form.Form) {
	body, err := h.readAnswers(w, r, f, h.limiter, false)
	var hidden form.HiddenValues
	if err == nil {
		hidden, err = f.Settings.CheckHidden(body.Hidden)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	sub, err := h.createSubmission(r.Context(), f, body.Answers, hidden)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusCreated, h.completion(r.Context(), f, sub))
}

// readAnswers decodes the answers (and hidden values) a request sends and counts
// the request in lim (once it is well-formed: a malformed request costs
// nothing). With optional, no body at all is no answers (a completion may add
// none to the saved ones).
func (h *Handler) readAnswers(w http.ResponseWriter, r *http.Request, f *form.Form, lim *limiter, optional bool) (answersBody, error) {
	var body answersBody
	if !optional || r.ContentLength != 0 {
		if err := decodeAnswers(w, r, &body, optional); err != nil {
			return body, err
		}
	}
	return body, lim.allow(r.Context(), h.clientKey(r, f.ID))
}

// decodeAnswers reads a body of answers; unless optional, it must have them (an
// object, not null).
func decodeAnswers(w http.ResponseWriter, r *http.Request, body *answersBody, optional bool) error {
	if err := httpx.DecodeJSON(w, r, body); err != nil {
		return err
	}
	if body.Answers == nil && !optional {
		return form.FieldInvalid("answers", "is required (an object of answers by question id)")
	}
	return nil
}

// createSubmission validates raw answers for completion and stores a one-shot
// submission with its hidden values; its webhook job (if any) is queued in the
// same transaction.
func (h *Handler) createSubmission(ctx context.Context, f *form.Form, raw map[string]json.RawMessage, hidden form.HiddenValues) (*form.Submission, error) {
	sub, err := h.completeAnswers(ctx, f, raw, hidden)
	if err != nil {
		return nil, err
	}
	if err := h.storeSubmission(ctx, f, sub); err != nil {
		return nil, err
	}
	return sub, nil
}

// storeSubmission stores a completed one-shot submission of f under a new id;
// Closed, with f's message, when f's responses are full by then.
func (h *Handler) storeSubmission(ctx context.Context, f *form.Form, sub *form.Submission) error {
	sub.ID, sub.FormID = newID(), f.ID
	if err := h.store.CreateSubmission(ctx, sub, f.Settings.MaxResponses); err != nil {
		return closedAs(f, err)
	}
	h.committed()
	return nil
}

func (h *Handler) committed() {
	if h.cfg.Committed != nil {
		h.cfg.Committed()
	}
}

// maxAnswersKiB bounds the JSON of one answers object (keys and values as sent):
// far above what people type into a form (a text answer is at most
// form.MaxTextAnswerLen characters, a long one form.MaxTextareaAnswerLen), far
// below what would make a session a free store of data.
const maxAnswersKiB = 256

// boundAnswers refuses an answers object with more entries than the form has
// questions, or larger than maxAnswersKiB, before any answer is looked at: every
// answers object a respondent sends (a one-shot submission, a session save, a
// completion and what it completes) goes through it.
func boundAnswers(f *form.Form, raw map[string]json.RawMessage) error {
	if len(raw) > len(f.Questions) {
		return form.Refuse(form.Invalid, "answers", form.NewReason(form.MsgTooManyAnswers, strconv.Itoa(len(f.Questions))))
	}
	size := 0
	for k, v := range raw {
		size += len(k) + len(v)
	}
	if size > maxAnswersKiB<<10 {
		return form.Refuse(form.Invalid, "answers", form.NewReason(form.MsgAnswersTooLarge, strconv.Itoa(maxAnswersKiB)))
	}
	return nil
}

// completeAnswers runs the authoritative completion (validation, logic, required
// questions, score) with the submission's hidden values and checks that uploaded
// files belong to the form.
func (h *Handler) completeAnswers(ctx context.Context, f *form.Form, raw map[string]json.RawMessage, hidden form.HiddenValues) (*form.Submission, error) {
	if err := boundAnswers(f, raw); err != nil {
		return nil, err
	}
	sub, err := logic.Complete(f.Questions, raw, hidden)
	if err != nil {
		return nil, err
	}
	if err := h.checkUploads(ctx, f, sub.Answers); err != nil {
		return nil, err
	}
	return sub, nil
}

// checkUploads refuses file answers that name no upload of this form.
func (h *Handler) checkUploads(ctx context.Context, f *form.Form, answers map[int64]any) error {
	var p form.Problems
	for _, q := range f.Questions {
		id, ok := answers[q.ID].(string)
		if q.Type != form.FileUpload || !ok {
			continue
		}
		u, err := h.store.GetUpload(ctx, id)
		if form.ErrorCode(err) == form.NotFound || (err == nil && u.FormID != f.ID) {
			p.AddReason("answers."+strconv.FormatInt(q.ID, 10), form.NewReason(form.MsgUploadUnknown))
			continue
		}
		if err != nil {
			return err
		}
	}
	return p.Err()
}
