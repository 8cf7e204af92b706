package api

import (
	"net/http"

	"forma/internal/form"
	"forma/internal/httpx"
)

// addQuestion serves POST /forms/{id}/fields: the question goes last.
func (a *API) addQuestion(w http.ResponseWriter, r *http.Request) {
	id, err := a.formID(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	var in form.QuestionInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	q, err := a.store.AddQuestion(r.Context(), caller(r).account.ID, id, func(existing []form.Question) (form.Question, error) {
		return form.NewQuestion(in, existing)
	})
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusCreated, q.JSON())
}

// updateQuestion serves PATCH /forms/{id}/fields/{fieldId}: any non-empty subset of
// its fields, including order to move the question.
func (a *API) updateQuestion(w http.ResponseWriter, r *http.Request) {
	formID, questionID, err := a.questionIDs(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	var patch form.QuestionPatch
	if err := httpx.DecodeJSON(w, r, &patch); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	q, err := a.store.UpdateQuestion(r.Context(), caller(r).account.ID, formID, questionID, patch.MoveTo(),
		func(q *form.Question, others []form.Question) error {
			return form.ApplyQuestionPatch(patch, q, others)
		})
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, q.JSON())
}

// deleteQuestion serves DELETE /forms/{id}/fields/{fieldId} (extension).
func (a *API) deleteQuestion(w http.ResponseWriter, r *http.Request) {
	formID, questionID, err := a.questionIDs(r)
	if err == nil {
		err = a.store.DeleteQuestion(r.Context(), caller(r).account.ID, formID, questionID)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (a *API) questionIDs(r *http.Request) (formID, questionID int64, err error) {
	if formID, err = a.formID(r); err != nil {
		return 0, 0, err
	}
	questionID, err = pathID(r, "fieldId")
	return formID, questionID, err
}
