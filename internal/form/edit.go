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
	q := in.Build(questionsByID(existing), "", &p)
	if err := p.Err(); err != nil {
		return q, err
	}
	return q, CheckFormLogic(&q, existing)
}

// ApplyQuestionPatch changes q as p says (all but its order: see MoveTo) and
// validates the result; others are the form's other questions. A question's own
// logic may read its own answer ("if this is X, skip to …"). Its errors are those
// of NewQuestion, and an Invalid error at type when a condition of another
// question's rule reads q with an operator its new type does not offer.
func ApplyQuestionPatch(p QuestionPatch, q *Question, others []Question) error {
	before := q.Type
	known := questionsByID(others)
	known[q.ID] = q // as patched: its own logic is checked against its new type
	if err := p.Apply(q, known); err != nil {
		return err
	}
	if q.Type != before {
		if err := checkReaders(q, others); err != nil {
			return err
		}
	}
	return CheckFormLogic(q, others)
}

// checkReaders refuses q's type when a condition of another question's rule
// reads q's answer with an operator that type does not offer (Operators).
func checkReaders(q *Question, others []Question) error {
	for _, o := range others {
		if o.Logic == nil || o.Logic.Advanced == nil {
			continue
		}
		for _, g := range o.Logic.Advanced.ConditionGroups {
			for _, c := range g.Conditions {
				if c.ValueType != ValueScore && c.QuestionID == q.ID && !oneOf(c.Operator, q.Type.Operators()) {
					return FieldInvalid("type", "cannot be %s while the rule of question %d compares this answer with %s; change that rule first",
						q.Type, o.Order, c.Operator)
				}
			}
		}
	}
	return nil
}

// MoveTo is the 1-based position the patch moves its question to, or nil.
func (p QuestionPatch) MoveTo() *int {
	if p.Order.Set && !p.Order.Null {
		return &p.Order.Value
	}
	return nil
}

// questionsByID indexes qs by id: the questions logic may reference.
func questionsByID(qs []Question) map[int64]*Question {
	known := make(map[int64]*Question, len(qs))
	for i := range qs {
		known[qs[i].ID] = &qs[i]
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
