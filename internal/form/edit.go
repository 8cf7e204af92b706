package form

import (
	"strconv"
	"time"
)

// The rules of changing a form that every caller shares: the API and the dashboard
// both build, patch and publish through these functions, so they never disagree
// on what is valid.

// NewQuestion validates in as a question to add to a form whose questions are
// existing (its logic may name them) and returns it, without id or order. Its
// errors are Invalid *Errors naming the fields (question, options[1],
// conditionalLogic.showIf.value, …), including the bound on the form's logic.
func NewQuestion(in QuestionInput, existing []Question) (Question, error) {
	var p Problems
	q := in.Build(questionIDs(existing), "", &p)
	if err := p.Err(); err != nil {
		return q, err
	}
	return q, CheckFormLogic(&q, existing)
}

// ApplyQuestionPatch changes q as p says (all but its order: see MoveTo) and
// validates the result; others are the form's other questions. A question's own
// logic may read its own answer ("if this is X, skip to …"). Its errors are those
// of NewQuestion.
func ApplyQuestionPatch(p QuestionPatch, q *Question, others []Question) error {
	known := questionIDs(others)
	known[q.ID] = true
	if err := p.Apply(q, known); err != nil {
		return err
	}
	return CheckFormLogic(q, others)
}

// MoveTo is the 1-based position the patch moves its question to, or nil.
func (p QuestionPatch) MoveTo() *int {
	if p.Order.Set && !p.Order.Null {
		return &p.Order.Value
	}
	return nil
}

// questionIDs returns the ids of qs, which logic may reference.
func questionIDs(qs []Question) map[int64]bool {
	known := make(map[int64]bool, len(qs))
	for _, q := range qs {
		known[q.ID] = true
	}
	return known
}

// SetPublished publishes the form at now, or unpublishes it. Publishing a
// published form keeps its first publication time.
func (f *Form) SetPublished(published bool, now time.Time) {
	switch {
	case published && f.PublishedAt == nil:
		f.PublishedAt = &now
	case !published:
		f.PublishedAt = nil
	}
}

// ShareURL is the address of the form's public page under publicURL, the
// server's public base URL.
func (f *Form) ShareURL(publicURL string) string {
	return publicURL + "/f/" + f.ShareToken
}

// ShowIfValues are the values a showIf naming q can match, as logic compares
// them (as text): the options of a choice question, "true" and "false" for
// yes_no, the ratings for rating. It is nil when the answer is free (any text).
func (q *Question) ShowIfValues() []string {
	switch q.Type {
	case Select, MultiSelect:
		return q.Options
	case YesNo:
		return []string{"true", "false"}
	case Rating:
		var vs []string
		for r := MinRating; r <= MaxRating; r++ {
			vs = append(vs, strconv.Itoa(r))
		}
		return vs
	}
	return nil
}
