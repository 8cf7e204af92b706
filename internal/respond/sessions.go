package respond

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"

	"forma/internal/form"
	"forma/internal/httpx"
	"forma/internal/logic"
)

// resumeTokenHeader carries a session's resume token: the secret, given only to
// the browser that started the session, without which nobody can read, save or
// complete it. A header keeps it out of URLs and request logs.
const resumeTokenHeader = "X-Resume-Token"

// hashResumeToken is what the store keeps of a resume token (SHA-256 is enough
// for a 128-bit random secret).
func hashResumeToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// resumeHash is the hash of the request's resume token. The store finds a session
// only by its id and this hash together, so a missing or wrong token is the
// NotFound of an unknown id.
func resumeHash(r *http.Request) string {
	return hashResumeToken(r.Header.Get(resumeTokenHeader))
}

// startBody is the optional JSON body of a session's start: the values of the
// form's hidden fields, taken from the page's address.
type startBody struct {
	Hidden map[string]string `json:"hidden"`
}

// startSession serves POST /f/{token}/sessions: a respondent begins filling in,
// with the hidden values of an optional body. The answer holds the session's
// resume token, which nothing else ever shows.
func (h *Handler) startSession(w http.ResponseWriter, r *http.Request, f *form.Form) {
	var body startBody
	var hidden form.HiddenValues
	var err error
	if r.ContentLength != 0 {
		err = httpx.DecodeJSON(w, r, &body)
	}
	if err == nil {
		hidden, err = f.Settings.CheckHidden(body.Hidden)
	}
	if err == nil {
		err = h.starts.allow(r.Context(), h.clientKey(r, f.ID))
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	secret := newID()
	sub, err := h.store.StartSession(r.Context(), f.ID, newID(), hashResumeToken(secret), hidden)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusCreated, map[string]any{
		"id": sub.ID, "resumeToken": secret, "startedAt": form.Timestamp(sub.StartedAt),
	})
}

// getSession serves GET /f/{token}/sessions/{id} (extension): the saved answers of
// a session in progress, so that a reload resumes where the respondent was. A
// completed submission is not found: its answers are for the form's owner.
func (h *Handler) getSession(w http.ResponseWriter, r *http.Request, f *form.Form) {
	sub, err := h.store.GetSession(r.Context(), f.ID, r.PathValue("id"), resumeHash(r))
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store") // a respondent's answers, for that browser only
	answers := make(map[string]any, len(sub.Answers))
	for id, v := range sub.Answers {
		answers[strconv.FormatInt(id, 10)] = v
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{
		"id": sub.ID, "answers": answers, "startedAt": form.Timestamp(sub.StartedAt),
	})
}

// saveSession serves PATCH /f/{token}/sessions/{id}: merges answers and hidden
// values into the saved progress. Answers are validated one by one; a null
// answer removes one. Both what is sent and what is saved after the merge are
// bounded (boundAnswers).
func (h *Handler) saveSession(w http.ResponseWriter, r *http.Request, f *form.Form) {
	body, err := h.readAnswers(w, r, f, h.saves, false)
	if err == nil {
		err = boundAnswers(f, body.Answers)
	}
	var hidden form.HiddenValues
	if err == nil {
		hidden, err = f.Settings.CheckHidden(body.Hidden)
	}
	var valid map[int64]any
	if err == nil {
		valid, err = logic.Validate(f.Questions, body.Answers)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	sub, err := h.store.UpdateSession(r.Context(), f.ID, r.PathValue("id"), resumeHash(r), func(saved *form.Submission) error {
		saved.Hidden = saved.Hidden.Merge(hidden)
		return mergeValid(f, saved, body.Answers, valid)
	})
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"id": sub.ID, "savedAt": form.Timestamp(sub.UpdatedAt)})
}

// mergeValid applies a save to the saved answers: each key sent takes its valid
// value, or is removed (a null answer). The result must stay within bounds.
func mergeValid(f *form.Form, saved *form.Submission, sent map[string]json.RawMessage, valid map[int64]any) error {
	for key := range sent {
		id, _ := strconv.ParseInt(key, 10, 64)
		if v, ok := valid[id]; ok {
			saved.Answers[id] = v
		} else {
			delete(saved.Answers, id)
		}
	}
	raw, err := mergeRaw(saved.Answers, nil)
	if err != nil {
		return err
	}
	return boundAnswers(f, raw)
}

// completeSession serves POST /f/{token}/sessions/{id}/complete: the saved answers
// and hidden values, plus any sent with the request, are completed exactly as a
// one-shot submission.
func (h *Handler) completeSession(w http.ResponseWriter, r *http.Request, f *form.Form) {
	sent, err := h.readAnswers(w, r, f, h.limiter, true)
	var hidden form.HiddenValues
	if err == nil {
		hidden, err = f.Settings.CheckHidden(sent.Hidden)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	sub, err := h.store.CompleteSession(r.Context(), f.ID, r.PathValue("id"), resumeHash(r), f.Settings.MaxResponses, func(saved *form.Submission) error {
		raw, err := mergeRaw(saved.Answers, sent.Answers)
		if err != nil {
			return err
		}
		done, err := h.completeAnswers(r.Context(), f, raw, saved.Hidden.Merge(hidden))
		if err != nil {
			return err
		}
		saved.Answers, saved.Score, saved.Hidden = done.Answers, done.Score, done.Hidden
		return nil
	})
	if err != nil {
		httpx.WriteError(w, r, closedAs(f, err))
		return
	}
	h.committed()
	httpx.WriteJSON(w, http.StatusOK, h.completion(r.Context(), f, sub))
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
