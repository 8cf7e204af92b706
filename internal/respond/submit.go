package respond

import (
	"context"
	"database/sql"
	"encoding/json"
	"mime"
	"net/http"
	"strconv"

	"forma/internal/form"
	"forma/internal/httpx"
	"forma/internal/logic"
)

// answersBody is the JSON body of submissions and session saves.
type answersBody struct {
	Answers map[string]json.RawMessage `json:"answers"`
}

// submit serves POST /f/{token}/submissions: JSON from scripts and embeds, or the
// HTML form's multipart post (answered with a page).
func (h *Handler) submit(w http.ResponseWriter, r *http.Request) {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt == "multipart/form-data" || mt == "application/x-www-form-urlencoded" {
		h.submitPage(w, r)
		return
	}
	cors(h.published(h.submitJSON))(w, r)
}

func (h *Handler) submitJSON(w http.ResponseWriter, r *http.Request, f *form.Form) {
	var body answersBody
	if err := httpx.DecodeJSON(w, r, &body); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if err := h.limiter.allow(h.clientKey(r, f.ID)); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	sess, err := h.createSubmission(r.Context(), f, body.Answers)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusCreated, completion(sess))
}

// completion is the body answering a completed submission.
func completion(sess *form.Submission) map[string]any {
	out := map[string]any{"id": sess.ID, "submittedAt": form.Timestamp(*sess.CompletedAt)}
	if sess.Score != nil {
		out["score"] = *sess.Score
	}
	return out
}

// createSubmission validates raw answers for completion and stores a one-shot
// submission; its webhook job (if any) is queued in the same transaction.
func (h *Handler) createSubmission(ctx context.Context, f *form.Form, raw map[string]json.RawMessage) (*form.Submission, error) {
	sub, err := h.completeAnswers(ctx, f, raw)
	if err != nil {
		return nil, err
	}
	sess := &form.Submission{ID: newID(), FormID: f.ID, Answers: sub.Answers, Score: sub.Score}
	if err := h.store.CreateSubmission(ctx, sess, h.afterComplete(f)); err != nil {
		return nil, err
	}
	h.committed()
	return sess, nil
}

func (h *Handler) committed() {
	if h.cfg.Committed != nil {
		h.cfg.Committed()
	}
}

// completeAnswers runs the authoritative completion (validation, logic, required
// questions, score) and checks that uploaded files belong to the form.
func (h *Handler) completeAnswers(ctx context.Context, f *form.Form, raw map[string]json.RawMessage) (*form.Submission, error) {
	sub, err := logic.Complete(f.Questions, raw)
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

func (h *Handler) afterComplete(f *form.Form) func(ctx context.Context, tx *sql.Tx, sess *form.Submission) error {
	if h.cfg.OnComplete == nil {
		return nil
	}
	return func(ctx context.Context, tx *sql.Tx, sess *form.Submission) error {
		return h.cfg.OnComplete(ctx, tx, f, sess)
	}
}

// startSession serves POST /f/{token}/sessions: a respondent begins filling in.
func (h *Handler) startSession(w http.ResponseWriter, r *http.Request, f *form.Form) {
	sess, err := h.store.StartSession(r.Context(), f.ID, newID())
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusCreated, map[string]any{"id": sess.ID, "startedAt": form.Timestamp(sess.StartedAt)})
}

// getSession serves GET /f/{token}/sessions/{id} (extension): the saved answers, so
// that a reload resumes where the respondent was.
func (h *Handler) getSession(w http.ResponseWriter, r *http.Request, f *form.Form) {
	sess, err := h.store.GetSession(r.Context(), f.ID, r.PathValue("id"))
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	answers := make(map[string]any, len(sess.Answers))
	for id, v := range sess.Answers {
		answers[strconv.FormatInt(id, 10)] = v
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{
		"id": sess.ID, "answers": answers, "completed": sess.CompletedAt != nil, "startedAt": form.Timestamp(sess.StartedAt),
	})
}

// saveSession serves PATCH /f/{token}/sessions/{id}: merges answers into the saved
// progress. Answers are validated one by one; a null answer removes one.
func (h *Handler) saveSession(w http.ResponseWriter, r *http.Request, f *form.Form) {
	var body answersBody
	if err := httpx.DecodeJSON(w, r, &body); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	valid, err := logic.Validate(f.Questions, body.Answers)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	sess, err := h.store.UpdateSession(r.Context(), f.ID, r.PathValue("id"), false, func(sess *form.Submission) error {
		for key := range body.Answers {
			id, _ := strconv.ParseInt(key, 10, 64)
			if v, ok := valid[id]; ok {
				sess.Answers[id] = v
			} else {
				delete(sess.Answers, id)
			}
		}
		return nil
	}, nil)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"id": sess.ID, "savedAt": form.Timestamp(sess.UpdatedAt)})
}

// completeSession serves POST /f/{token}/sessions/{id}/complete: the saved answers,
// plus any sent with the request, are completed exactly as a one-shot submission.
func (h *Handler) completeSession(w http.ResponseWriter, r *http.Request, f *form.Form) {
	var body answersBody
	if r.ContentLength != 0 {
		if err := httpx.DecodeJSON(w, r, &body); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
	}
	if err := h.limiter.allow(h.clientKey(r, f.ID)); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	sess, err := h.store.UpdateSession(r.Context(), f.ID, r.PathValue("id"), true, func(sess *form.Submission) error {
		raw, err := mergeRaw(sess.Answers, body.Answers)
		if err != nil {
			return err
		}
		sub, err := h.completeAnswers(r.Context(), f, raw)
		if err != nil {
			return err
		}
		sess.Answers, sess.Score = sub.Answers, sub.Score
		return nil
	}, h.afterComplete(f))
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	h.committed()
	httpx.WriteJSON(w, http.StatusOK, completion(sess))
}

// mergeRaw combines saved answers with those sent at completion (which win).
func mergeRaw(saved map[int64]any, sent map[string]json.RawMessage) (map[string]json.RawMessage, error) {
	raw := make(map[string]json.RawMessage, len(saved)+len(sent))
	for id, v := range saved {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		raw[strconv.FormatInt(id, 10)] = b
	}
	for k, v := range sent {
		raw[k] = v
	}
	return raw, nil
}
