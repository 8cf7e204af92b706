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
	sub, err := h.createSubmission(r.Context(), f, body.Answers)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusCreated, completion(sub))
}

// completion is the body answering a completed submission.
func completion(sub *form.Submission) map[string]any {
	out := map[string]any{"id": sub.ID, "submittedAt": form.Timestamp(*sub.CompletedAt)}
	if sub.Score != nil {
		out["score"] = *sub.Score
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
	if err := h.storeSubmission(ctx, f, sub); err != nil {
		return nil, err
	}
	return sub, nil
}

// storeSubmission stores a completed one-shot submission of f under a new id.
func (h *Handler) storeSubmission(ctx context.Context, f *form.Form, sub *form.Submission) error {
	sub.ID, sub.FormID = newID(), f.ID
	if err := h.store.CreateSubmission(ctx, sub); err != nil {
		return err
	}
	h.committed()
	return nil
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

// startSession serves POST /f/{token}/sessions: a respondent begins filling in.
func (h *Handler) startSession(w http.ResponseWriter, r *http.Request, f *form.Form) {
	sub, err := h.store.StartSession(r.Context(), f.ID, newID())
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusCreated, map[string]any{"id": sub.ID, "startedAt": form.Timestamp(sub.StartedAt)})
}

// getSession serves GET /f/{token}/sessions/{id} (extension): the saved answers, so
// that a reload resumes where the respondent was.
func (h *Handler) getSession(w http.ResponseWriter, r *http.Request, f *form.Form) {
	sub, err := h.store.GetSession(r.Context(), f.ID, r.PathValue("id"))
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	answers := make(map[string]any, len(sub.Answers))
	for id, v := range sub.Answers {
		answers[strconv.FormatInt(id, 10)] = v
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{
		"id": sub.ID, "answers": answers, "completed": sub.CompletedAt != nil, "startedAt": form.Timestamp(sub.StartedAt),
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
	sub, err := h.store.UpdateSession(r.Context(), f.ID, r.PathValue("id"), func(saved *form.Submission) error {
		for key := range body.Answers {
			id, _ := strconv.ParseInt(key, 10, 64)
			if v, ok := valid[id]; ok {
				saved.Answers[id] = v
			} else {
				delete(saved.Answers, id)
			}
		}
		return nil
	})
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"id": sub.ID, "savedAt": form.Timestamp(sub.UpdatedAt)})
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
	sub, err := h.store.CompleteSession(r.Context(), f.ID, r.PathValue("id"), func(saved *form.Submission) error {
		raw, err := mergeRaw(saved.Answers, body.Answers)
		if err != nil {
			return err
		}
		done, err := h.completeAnswers(r.Context(), f, raw)
		if err != nil {
			return err
		}
		saved.Answers, saved.Score = done.Answers, done.Score
		return nil
	})
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	h.committed()
	httpx.WriteJSON(w, http.StatusOK, completion(sub))
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
