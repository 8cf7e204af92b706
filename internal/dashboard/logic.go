package dashboard

import (
	"strconv"
	"unicode/utf8"

	"forma/internal/form"
)

// logicView is the showIf editor of a question: "Show this question only if
// [question] [is / is not] [value]", offering the earlier questions and, for a
// question whose answers are a known set, only those values.
type logicView struct {
	// None is set when there is nothing to offer: the first question, without
	// a rule.
	None    bool
	Summary string // the rule in a sentence; "" when there is none
	Targets []choice
	// For is the question the value control was drawn for: a post that names
	// another question is shown again with that question's values.
	For       string
	Operators []choice
	Values    []choice // nil: the value is typed
	Value     field
	Target    field // its id, name and problem
	Operator  field
	Error     string
}

// logicOf is the showIf editor of question i of qs, with the attempt a.
func logicOf(qs []form.Question, i int, a attempt) logicView {
	q := qs[i]
	prefix := "q" + strconv.FormatInt(q.ID, 10) + "-logic-"
	v := logicView{Target: field{ID: prefix + "target"}, Operator: field{ID: prefix + "operator"},
		Value: field{ID: prefix + "value"}}
	target, op := int64(0), form.OpEquals
	if i > 0 {
		target = qs[i-1].ID
	}
	if s := showIf(&q); s != nil {
		target, op, v.Value.Value = s.QuestionID, s.Operator, s.Value
		v.Summary = summary(qs, s)
	}
	if a.applies("logic", q.ID) {
		target, _ = form.ParseID(a.Values.Get("target"))
		op, v.Value.Value = a.Values.Get("operator"), a.Values.Get("value")
		v.Target.Error, v.Operator.Error = a.Errors["showIf.questionId"], a.Errors["showIf.operator"]
		v.Value.Error = a.Errors["showIf.value"]
		v.Error = a.Errors.other("showIf.questionId", "showIf.operator", "showIf.value")
	}
	v.Targets = targets(qs, i, target)
	if len(v.Targets) == 0 {
		return logicView{None: true}
	}
	v.For = strconv.FormatInt(target, 10)
	v.Operators = []choice{{Value: form.OpEquals, Label: "is", Selected: op != form.OpNotEquals},
		{Value: form.OpNotEquals, Label: "is not", Selected: op == form.OpNotEquals}}
	if t := find(qs, target); t != nil {
		v.Values = valueChoices(t, v.Value.Value)
	}
	return v
}

// showIf is q's simple rule, or nil.
func showIf(q *form.Question) *form.ShowIf {
	if q.Logic == nil {
		return nil
	}
	return q.Logic.ShowIf
}

// targets are the questions a rule of question i may read: the earlier ones,
// and the one it reads now wherever it is; selected is marked.
func targets(qs []form.Question, i int, selected int64) []choice {
	var out []choice
	for j, q := range qs {
		if j < i || (q.ID == selected && j != i) {
			out = append(out, choice{Value: strconv.FormatInt(q.ID, 10), Label: questionLabel(&q),
				Selected: q.ID == selected})
		}
	}
	return out
}

// questionLabel names q in a list: its number and the start of its text.
func questionLabel(q *form.Question) string {
	text := q.Text
	if utf8.RuneCountInString(text) > 60 {
		text = string([]rune(text)[:59]) + "…"
	}
	return strconv.Itoa(q.Order) + ". " + text
}

// find is the question of qs with id, or nil.
func find(qs []form.Question, id int64) *form.Question {
	for i := range qs {
		if qs[i].ID == id {
			return &qs[i]
		}
	}
	return nil
}

// valueChoices are the values a rule reading t may compare with (nil when t's
// answer is free text), current selected; a current value that is not one of
// them (set through the API) is kept as a choice.
func valueChoices(t *form.Question, current string) []choice {
	values := t.ShowIfValues()
	if values == nil {
		return nil
	}
	var out []choice
	found := false
	for _, val := range values {
		out = append(out, choice{Value: val, Label: valueLabel(t, val), Selected: val == current})
		found = found || val == current
	}
	if !found && current != "" {
		out = append(out, choice{Value: current, Label: current + " (not one of the answers)", Selected: true})
	}
	return out
}

// valueLabel is how a value of t's answers reads: yes_no's true is Yes.
func valueLabel(t *form.Question, v string) string {
	if t.Type == form.YesNo {
		switch v {
		case "true":
			return "Yes"
		case "false":
			return "No"
		}
	}
	return v
}

// summary is s as a sentence.
func summary(qs []form.Question, s *form.ShowIf) string {
	name, value := "a deleted question", s.Value
	if t := find(qs, s.QuestionID); t != nil {
		name, value = "“"+questionLabel(t)+"”", valueLabel(t, s.Value)
	}
	verb := "is"
	if s.Operator == form.OpNotEquals {
		verb = "is not"
	}
	return "Shown only if " + name + " " + verb + " “" + value + "”."
}
