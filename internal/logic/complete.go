package logic

import (
	"encoding/json"
	"slices"
	"strconv"
	"unicode/utf8"

	"forma/internal/form"
)

// Complete validates a respondent's answers and completes them authoritatively: it
// returns a submission holding the valid answers to visible questions, the
// form's score (nil without scoring) and hidden, the submission's hidden-field
// values (validated by the caller: form.Settings.CheckHidden), which conditions
// may read; the caller gives it its identity and times.
// raw maps question ids (decimal strings) to JSON answers. Every answer is checked
// with form.ValidateAnswer, the form's logic then decides which questions are
// visible on the valid answers, answers to hidden questions are dropped (invalid
// ones too, since the respondent cannot see them), and every visible required
// question must be answered. The error is a form.Invalid *form.Error listing every
// problem in form order, each under the field "answers.<questionId>"; keys that are
// not questions of the form come last.
func Complete(questions []form.Question, raw map[string]json.RawMessage, hidden form.HiddenValues) (*form.Submission, error) {
	ordered := form.InOrder(questions)
	answers, invalid := validateAll(ordered, raw)
	result := Evaluate(questions, logicAnswers(answers), hidden)
	var p form.Problems
	for _, q := range ordered {
		switch {
		case !result.Visible[q.ID]:
			delete(answers, q.ID)
		case invalid[q.ID] != nil:
			p.AddError(answerField(q.ID), invalid[q.ID])
		case q.Required && answers[q.ID] == nil:
			p.AddReason(answerField(q.ID), form.NewReason(form.MsgRequired))
		}
	}
	addUnknownKeys(ordered, raw, &p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	sub := &form.Submission{Answers: answers}
	if len(hidden) > 0 {
		sub.Hidden = hidden
	}
	if result.HasScore {
		score := result.Score
		sub.Score = &score
	}
	return sub, nil
}

// Validate checks answers as Complete does, without the required check and without
// dropping the answers of hidden questions: it is how partial progress is saved.
// It returns the valid, non-empty answers keyed by question id.
func Validate(questions []form.Question, raw map[string]json.RawMessage) (map[int64]any, error) {
	ordered := form.InOrder(questions)
	answers, invalid := validateAll(ordered, raw)
	var p form.Problems
	for _, q := range ordered {
		if err := invalid[q.ID]; err != nil {
			p.AddError(answerField(q.ID), err)
		}
	}
	addUnknownKeys(ordered, raw, &p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	return answers, nil
}

// Visibility evaluates the logic on a respondent's answers in progress and
// hidden-field values, as Complete would: invalid answers count as unanswered,
// but an answer to no question of the form is an error. It returns, for every
// question id, whether the question is shown.
func Visibility(questions []form.Question, raw map[string]json.RawMessage, hidden form.HiddenValues) (map[int64]bool, error) {
	var p form.Problems
	addUnknownKeys(questions, raw, &p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	answers, _ := validateAll(form.InOrder(questions), raw)
	return Evaluate(questions, logicAnswers(answers), hidden).Visible, nil
}

// validateAll validates the answer to each question that raw holds. It returns the
// valid, non-empty answers and the error of each invalid one.
func validateAll(questions []form.Question, raw map[string]json.RawMessage) (map[int64]any, map[int64]error) {
	answers := make(map[int64]any, len(raw))
	invalid := map[int64]error{}
	for i := range questions {
		q := &questions[i]
		value, ok := raw[answerKey(q.ID)]
		if !ok {
			continue
		}
		v, err := form.ValidateAnswer(q, value)
		switch {
		case err != nil:
			invalid[q.ID] = err
		case v != nil:
			answers[q.ID] = v
		}
	}
	return answers, invalid
}

// addUnknownKeys records every key of raw that is not the id of a question, in
// sorted order.
func addUnknownKeys(questions []form.Question, raw map[string]json.RawMessage, p *form.Problems) {
	known := make(map[string]bool, len(questions))
	for _, q := range questions {
		known[answerKey(q.ID)] = true
	}
	var unknown []string
	for k := range raw {
		if !known[k] {
			unknown = append(unknown, k)
		}
	}
	slices.Sort(unknown)
	for _, k := range unknown {
		p.AddReason("answers."+shorten(k), form.NewReason(form.MsgUnknownQuestion))
	}
}

// logicAnswers converts stored answers to the shape Evaluate takes, that of
// encoding/json: a multi_select's []string becomes []any.
func logicAnswers(answers map[int64]any) Answers {
	out := make(Answers, len(answers))
	for id, v := range answers {
		if items, ok := v.([]string); ok {
			list := make([]any, len(items))
			for i, s := range items {
				list[i] = s
			}
			v = list
		}
		out[id] = v
	}
	return out
}

func answerKey(id int64) string { return strconv.FormatInt(id, 10) }

func answerField(id int64) string { return "answers." + answerKey(id) }

// shorten cuts a client-sent key to 40 characters for a field name.
func shorten(s string) string {
	if utf8.RuneCountInString(s) <= 40 {
		return s
	}
	return string([]rune(s)[:40]) + "…"
}
