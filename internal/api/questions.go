package api

import (
	"net/http"

	"forma/internal/form"
	"forma/internal/httpx"
)

// knownIDs returns the ids of qs, which logic may reference.
func knownIDs(qs []form.Question) map[int64]bool {
	known := make(map[int64]bool, len(qs))
	for _, q := range qs {
		known[q.ID] = true
	}
	return known
}

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
		var p form.Problems
		q := in.Build(knownIDs(existing), "", &p)
		if err := p.Err(); err != nil {
			return q, err
		}
		return q, form.CheckFormLogic(&q, existing)
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
	var moveTo *int
	if patch.Order.Set && !patch.Order.Null {
		moveTo = &patch.Order.Value
	}
	q, err := a.store.UpdateQuestion(r.Context(), caller(r).account.ID, formID, questionID, moveTo,
		func(q *form.Question, others []form.Question) error {
			// A question's own logic may read its own answer ("if this is X, skip to …").
			known := knownIDs(others)
			known[q.ID] = true
			if err := patch.Apply(q, known); err != nil {
				return err
			}
			return form.CheckFormLogic(q, others)
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
