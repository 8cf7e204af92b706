package dashboard

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"forma/internal/form"
)

// ruleView is the advanced-rule editor of a question: each control offers only
// the choices that are valid where it stands. A condition reads this question
// or an earlier one (a later one is not answered yet when the rule runs), or
// the score, and compares it with the Operators of that question's type and,
// when its answers are a known set, one of them; an action acts on a later
// question (the logic ignores the others); a score rule scores a question
// whose answers are a known set.
type ruleView struct {
	FormID, Owner int64
	// Open opens the editor: it was just posted or saved.
	Open bool
	// Stored is set when the question has a rule: it may be removed.
	Stored  bool
	Summary string // the stored rule in a sentence
	Groups  []groupView
	Actions []actionView
	Scores  []scoreView
	// ShowScores offers scoring: some question's answers are a known set.
	ShowScores                    bool
	AddGroup, AddAction, AddScore button
	Error                         string // problems at no control
}

// button is an Add or Remove button of the editor: the edit it posts and what
// it says.
type button struct {
	Value, Label string
	// Show is set while the list may grow; Focus when the last post left the
	// focus here (it removed a row).
	Show, Focus bool
}

// control is a select of the editor: its field, choices and what it says when
// there is none to make; Focus when the last post added its row.
type control struct {
	Field   field
	Choices []choice
	Empty   string
	Focus   bool
}

// groupView is a condition group: its conditions and how they combine.
type groupView struct {
	Name     string // of its inputs: g0
	Number   int
	ID       string
	Operator control
	Rows     []conditionView
	Add      button
	Error    string
}

// conditionView is a condition's controls.
type conditionView struct {
	Name                        string // g0.c1
	Number                      int
	ID, For                     string
	Target, Operator, ValueType control
	// Value is chosen among its Choices, or typed when it has none, in an
	// input of InputType (Decimal: a number).
	Value     control
	InputType string
	Decimal   bool
	Score     bool // it reads the score, compared with a number
	Dynamic   bool // it compares with another question's answer
	Remove    button
	Error     string
}

// actionView is an action's controls.
type actionView struct {
	Name         string // a0
	Number       int
	Type, Target control
	Value        field
	Remove       button
	Error        string
}

// scoreView is a score rule's controls: the question, and the points of each
// of its answers.
type scoreView struct {
	Name     string // s0
	Number   int
	ID, For  string
	Question control
	Points   []pointView
	Remove   button
	Error    string
}

// pointView is the points of one answer key.
type pointView struct {
	Key, Label string
	Points     field
}

// ruleOf is the advanced-rule editor of question i of f, with the attempt a.
func ruleOf(f *form.Form, i int, a attempt) ruleView {
	qs := f.Questions
	q := &qs[i]
	v := ruleView{FormID: f.ID, Owner: q.ID}
	in, errs, focus := newRule(qs, i), fieldErrors{}, ""
	if stored := advancedOf(q); stored != nil {
		in, v.Stored = storedRule(stored), true
		v.Summary = describe(in, qs)
	}
	if a.applies("rule", q.ID) {
		in, errs, focus, v.Open = a.Rule, a.Errors, a.Focus, true
	}
	v.Open = v.Open || (a.Question == q.ID && strings.HasPrefix(a.Done, "rule"))
	d := &drawer{qs: qs, hidden: f.Settings.HiddenFields, i: i, focus: focus, errs: errs, used: map[string]bool{}}
	for g, gi := range in.Groups {
		v.Groups = append(v.Groups, d.group(g, gi))
	}
	for k, ai := range in.Actions {
		v.Actions = append(v.Actions, d.action(k, ai))
	}
	for k, si := range in.Scores {
		v.Scores = append(v.Scores, d.score(k, si))
	}
	v.ShowScores = len(v.Scores) > 0 || len(d.scorable("")) > 0
	v.AddGroup = d.add("add-group", "Add a group of conditions", len(in.Groups) < form.MaxConditionGroups)
	v.AddAction = d.add("add-action", "Add an action", len(in.Actions) < form.MaxActions)
	v.AddScore = d.add("add-score", "Score a question's answers", len(in.Scores) < form.MaxScoreRules)
	v.Error = d.rest()
	return v
}

// advancedOf is q's advanced rule, or nil.
func advancedOf(q *form.Question) *form.AdvancedLogic {
	if q.Logic == nil {
		return nil
	}
	return q.Logic.Advanced
}

// drawer draws the rows of the editor of question i of qs; focus names the
// control to focus, and errs are the problems of the last post, which each
// control takes (used) so that the rest is shown for the whole rule.
type drawer struct {
	qs []form.Question
	// hidden are the form's hidden fields, which conditions may read.
	hidden []string
	i      int
	focus  string
	errs   fieldErrors
	used   map[string]bool
}

// field is the control name with value and the problem at the input key key.
func (d *drawer) field(name, value, key string) field {
	d.used[key] = true
	return field{ID: d.id(name), Name: name, Value: value, Error: d.errs[key]}
}

// id is the element id of the control name: q12-g0-c1-op.
func (d *drawer) id(name string) string {
	return "q" + strconv.FormatInt(d.qs[d.i].ID, 10) + "-" + strings.ReplaceAll(name, ".", "-")
}

// under takes the problems at key and below it (key.x, key[1]) that no
// control took.
func (d *drawer) under(key string) string {
	return d.take(func(k string) bool {
		return k == key || strings.HasPrefix(k, key+".") || strings.HasPrefix(k, key+"[")
	})
}

// rest takes every problem no control took.
func (d *drawer) rest() string {
	return d.take(func(string) bool { return true })
}

func (d *drawer) take(match func(string) bool) string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(d.errs)) {
		if !d.used[k] && match(k) {
			d.used[k] = true
			out = append(out, d.errs[k])
		}
	}
	return strings.Join(out, " ")
}

// add is an Add button, shown while its list may grow (show).
func (d *drawer) add(value, label string, show bool) button {
	return button{Value: value, Label: label, Show: show, Focus: d.focus == value}
}

// remove is the Remove button of a row, named label for screen readers.
func remove(value, label string) button {
	return button{Value: value, Label: label, Show: true}
}

// group draws group g.
func (d *drawer) group(g int, in groupInput) groupView {
	name, key := fmt.Sprintf("g%d", g), fmt.Sprintf("advanced.conditionGroups[%d]", g)
	v := groupView{Name: name, Number: g + 1, ID: in.ID, Operator: control{Field: d.field(name+".op", in.Operator, key+".operator"),
		Choices: []choice{{Value: "AND", Label: "All of these are true", Selected: in.Operator != "OR"},
			{Value: "OR", Label: "Any of these is true", Selected: in.Operator == "OR"}}}}
	for c, ci := range in.Conditions {
		v.Rows = append(v.Rows, d.condition(g, c, ci))
	}
	v.Add = d.add("add-condition:"+strconv.Itoa(g), "Add a condition", len(in.Conditions) < form.MaxConditions)
	v.Error = d.under(key)
	return v
}

// condition draws condition c of group g. Controls drawn for another question
// (or kind of value) than the one now chosen start again from its first
// comparison and no value.
func (d *drawer) condition(g, c int, in conditionInput) conditionView {
	name, key := fmt.Sprintf("g%d.c%d", g, c), conditionPath(g, c)
	t := d.question(in.Target)
	ops := operatorsOf(t, in.Target)
	if in.For != in.drawnFor() {
		in.Value = ""
		if !slices.Contains(ops, in.Operator) && len(ops) > 0 {
			in.Operator = ops[0]
		}
	}
	dynamic := in.valueType() == form.ValueDynamic
	v := conditionView{Name: name, Number: c + 1, ID: in.ID, For: in.drawnFor(), Score: in.Target == scoreTarget, Dynamic: dynamic,
		Remove: remove(fmt.Sprintf("remove-condition:%d:%d", g, c), fmt.Sprintf("condition %d", c+1)),
		Target: control{Field: d.field(name+".q", in.Target, key+".questionId"), Choices: d.readable(in.Target, true),
			Focus: d.focus == name+".q"},
		Operator: control{Field: d.field(name+".op", in.Operator, key+".operator"), Choices: operatorChoices(t, ops, in.Operator),
			Empty: "No comparison applies"},
		ValueType: control{Field: d.field(name+".vt", in.valueType(), key+".valueType"), Choices: []choice{
			{Value: form.ValueStatic, Label: "A value", Selected: !dynamic},
			{Value: form.ValueDynamic, Label: "The answer to a question", Selected: dynamic}}},
		Value: control{Field: d.field(name+".v", in.Value, key+".value")}}
	v.Value.Choices, v.InputType, v.Decimal = d.valueControl(in, t)
	v.Error = d.under(key)
	return v
}

// question is the question of the form whose id is the text id, or nil.
func (d *drawer) question(id string) *form.Question { return findText(d.qs, id) }

// findText is the question of qs whose id is the text id, or nil.
func findText(qs []form.Question, id string) *form.Question {
	n, ok := form.ParseID(id)
	if !ok {
		return nil
	}
	return find(qs, n)
}

// choices are the questions of the form that offer says a control may name
// (by their index and themselves), and selected wherever it is.
func (d *drawer) choices(selected string, offer func(j int, q *form.Question) bool) []choice {
	var out []choice
	for j := range d.qs {
		q := &d.qs[j]
		id := strconv.FormatInt(q.ID, 10)
		if offer(j, q) || id == selected {
			label := questionLabel(q)
			if j == d.i {
				label += " (this one)"
			}
			out = append(out, choice{Value: id, Label: label, Selected: id == selected})
		}
	}
	return out
}

// readable are the questions a condition may read: this one and the earlier
// ones (a later one is not answered when the rule runs); condition adds what
// else a condition's left side may read: the score and the hidden fields (a
// hidden field the form no longer declares only when it is selected).
func (d *drawer) readable(selected string, condition bool) []choice {
	out := d.choices(selected, func(j int, _ *form.Question) bool { return j <= d.i })
	if !condition {
		return out
	}
	out = append(out, choice{Value: scoreTarget, Label: "The score", Selected: selected == scoreTarget})
	names := d.hidden
	if name, ok := strings.CutPrefix(selected, hiddenTarget); ok && !slices.Contains(names, name) {
		names = append(slices.Clip(names), name)
	}
	for _, name := range names {
		out = append(out, choice{Value: hiddenTarget + name, Label: "Hidden field " + name, Selected: selected == hiddenTarget+name})
	}
	return out
}

// valueControl is how a condition's value is chosen: among values, or typed in
// an input of a type (decimal: a number).
func (d *drawer) valueControl(in conditionInput, t *form.Question) (values []choice, inputType string, decimal bool) {
	switch {
	case in.valueType() == form.ValueDynamic:
		return d.readable(in.Value, false), "", false
	case in.Target == scoreTarget:
		return nil, "text", true
	case t == nil:
		return nil, "text", false
	}
	if vs := valueChoices(t, in.Value); vs != nil {
		return vs, "", false
	}
	switch t.Type {
	case form.Date:
		return nil, "date", false
	case form.Time:
		return nil, "time", false
	}
	return nil, "text", numeric(t.Type)
}

// operatorsOf are the operators of a condition reading target: question t, the
// score or a hidden field.
func operatorsOf(t *form.Question, target string) []string {
	switch {
	case target == scoreTarget:
		return form.ScoreOperators
	case strings.HasPrefix(target, hiddenTarget):
		return form.HiddenOperators
	case t == nil:
		return nil
	}
	return t.Type.Operators()
}

// operatorChoices are ops as choices, selected the one; a selected operator
// that is not one of them (set through the API, which accepts every operator
// on every type) is kept, marked, so that saving the rule does not change it.
func operatorChoices(t *form.Question, ops []string, selected string) []choice {
	var out []choice
	for _, op := range ops {
		out = append(out, choice{Value: op, Label: operatorLabel(t, op), Selected: op == selected})
	}
	if selected != "" && !slices.Contains(ops, selected) {
		out = append(out, choice{Value: selected, Label: operatorLabel(t, selected) + " (unusual for this question)", Selected: true})
	}
	return out
}

// operatorLabels say the operators as the editor reads them.
var operatorLabels = map[string]string{
	form.OpEquals: "is", form.OpNotEquals: "is not", form.OpContains: "contains",
	form.OpGreaterThan: "is more than", form.OpLessThan: "is less than",
	form.OpIsEmpty: "is not answered", form.OpIsNotEmpty: "is answered",
}

// operatorLabel says op for a condition reading t (nil: the score): dates and
// times are after and before, a checkbox answer includes its choices.
func operatorLabel(t *form.Question, op string) string {
	if t != nil {
		switch {
		case (t.Type == form.Date || t.Type == form.Time) && op == form.OpGreaterThan:
			return "is after"
		case (t.Type == form.Date || t.Type == form.Time) && op == form.OpLessThan:
			return "is before"
		case t.Type == form.MultiSelect && op == form.OpEquals:
			return "includes"
		case t.Type == form.MultiSelect && op == form.OpNotEquals:
			return "does not include"
		case t.Type == form.MultiSelect && op == form.OpContains:
			return "includes (any case)"
		}
	}
	if l, ok := operatorLabels[op]; ok {
		return l
	}
	return op
}

// action draws action k.
func (d *drawer) action(k int, in actionInput) actionView {
	name, key := fmt.Sprintf("a%d", k), actionPath(k)
	v := actionView{Name: name, Number: k + 1, Remove: remove("remove-action:"+strconv.Itoa(k), fmt.Sprintf("action %d", k+1)),
		Type: control{Field: d.field(name+".type", in.Type, key+".type"), Choices: actionChoices(in.Type),
			Focus: d.focus == name+".type"},
		Target: control{Field: d.field(name+".q", in.Target, key+".targetId"), Choices: d.later(in.Target),
			Empty: "No question after this one"},
		Value: d.field(name+".v", in.Value, key+".value")}
	v.Error = d.under(key)
	return v
}

// actionTypes are the actions the editor offers, with their labels.
var actionTypes = []choice{
	{Value: form.ActionShow, Label: "Show question"}, {Value: form.ActionHide, Label: "Hide question"},
	{Value: form.ActionSkipToQuestion, Label: "Skip to question"}, {Value: form.ActionEndForm, Label: "End the form"},
	{Value: form.ActionSetScore, Label: "Set the score to"},
}

// actionChoices are actionTypes, selected the one; another type (such as
// skip_to_section, set through the API) is kept.
func actionChoices(selected string) []choice {
	out := slices.Clone(actionTypes)
	found := false
	for i := range out {
		out[i].Selected = out[i].Value == selected
		found = found || out[i].Selected
	}
	if !found && selected != "" {
		out = append(out, choice{Value: selected, Label: actionLabel(selected), Selected: true})
	}
	return out
}

// actionLabel says an action type.
func actionLabel(t string) string {
	for _, c := range actionTypes {
		if c.Value == t {
			return c.Label
		}
	}
	if t == form.ActionSkipToSection {
		return "Skip to the section starting at"
	}
	return t
}

// later are the questions an action may act on: those after this one (the
// logic ignores the others).
func (d *drawer) later(selected string) []choice {
	return d.choices(selected, func(j int, _ *form.Question) bool { return j > d.i })
}

// score draws score rule k; a new one scores the first question it may.
func (d *drawer) score(k int, in scoreInput) scoreView {
	name, key := fmt.Sprintf("s%d", k), scorePath(k)
	questions := d.scorable(in.Question)
	if in.Question == "" && len(questions) > 0 {
		in.Question, in.For, questions[0].Selected = questions[0].Value, questions[0].Value, true
	}
	v := scoreView{Name: name, Number: k + 1, ID: in.ID, For: in.Question,
		Remove: remove("remove-score:"+strconv.Itoa(k), fmt.Sprintf("scoring %d", k+1)),
		Question: control{Field: d.field(name+".q", in.Question, key+".questionId"), Choices: questions,
			Empty: "No question to score", Focus: d.focus == name+".q"}}
	v.Points = d.points(name, in)
	v.Error = d.under(key)
	return v
}

// scorable are the questions a score rule may score: those whose answers are a
// known set (score maps are keyed by answer).
func (d *drawer) scorable(selected string) []choice {
	return d.choices(selected, func(_ int, q *form.Question) bool { return q.ShowIfValues() != nil })
}

// points are the points inputs of score rule in: one per answer of its
// question, then one per other key it already has (unless its question was
// just changed).
func (d *drawer) points(name string, in scoreInput) []pointView {
	given := map[string]string{}
	for k, key := range in.Keys {
		given[key] = in.Points[k]
	}
	var out []pointView
	add := func(key, label string) {
		out = append(out, pointView{Key: key, Label: label, Points: field{
			ID: d.id(fmt.Sprintf("%s.p%d", name, len(out))), Name: name + ".pts", Value: given[key]}})
		delete(given, key)
	}
	if q := d.question(in.Question); q != nil {
		for _, val := range q.ShowIfValues() {
			add(val, valueLabel(q, val))
		}
	}
	if in.For == in.Question {
		for _, key := range in.Keys {
			if _, left := given[key]; left {
				add(key, "“"+key+"” (not one of the answers)")
			}
		}
	}
	return out
}

// describe says the stored rule r of a question of qs in a sentence or two.
func describe(r ruleInput, qs []form.Question) string {
	var parts []string
	if len(r.Groups) > 0 {
		var groups, acts []string
		for _, g := range r.Groups {
			groups = append(groups, groupText(g, qs, len(r.Groups) > 1))
		}
		for _, a := range r.Actions {
			acts = append(acts, actionText(a, qs))
		}
		then := "nothing happens"
		if len(acts) > 0 {
			then = strings.Join(acts, ", then ")
		}
		parts = append(parts, "If "+strings.Join(groups, " and ")+": "+then+".")
	}
	for _, s := range r.Scores {
		parts = append(parts, "Scores the answers to "+named(qs, s.Question)+".")
	}
	return strings.Join(parts, " ")
}

// groupText says a group's conditions, in brackets among other groups.
func groupText(g groupInput, qs []form.Question, bracket bool) string {
	var conds []string
	for _, c := range g.Conditions {
		conds = append(conds, conditionText(c, qs))
	}
	joiner := " and "
	if g.Operator == "OR" {
		joiner = " or "
	}
	text := strings.Join(conds, joiner)
	if bracket && len(conds) > 1 {
		return "(" + text + ")"
	}
	return text
}

// conditionText says a condition: “2. Age” is more than “17”.
func conditionText(c conditionInput, qs []form.Question) string {
	left, t := "the score", (*form.Question)(nil)
	switch name := c.hiddenField(); {
	case name != "":
		left = "the hidden field “" + name + "”"
	case c.Target != scoreTarget:
		left, t = named(qs, c.Target), findText(qs, c.Target)
	}
	text := left + " " + operatorLabel(t, c.Operator)
	switch {
	case !c.needsValue():
		return text
	case c.valueType() == form.ValueDynamic:
		return text + " the answer to " + named(qs, c.Value)
	case t != nil:
		return text + " “" + valueLabel(t, c.Value) + "”"
	}
	return text + " " + c.Value
}

// actionText says an action: show “4. Diet”.
func actionText(a actionInput, qs []form.Question) string {
	switch a.Type {
	case form.ActionShow:
		return "show " + named(qs, a.Target)
	case form.ActionHide:
		return "hide " + named(qs, a.Target)
	case form.ActionSkipToQuestion, form.ActionSkipToSection:
		return "skip to " + named(qs, a.Target)
	case form.ActionEndForm:
		return "end the form"
	case form.ActionSetScore:
		return "set the score to " + a.Value
	}
	return a.Type
}

// named names the question of qs whose id is the text id.
func named(qs []form.Question, id string) string {
	if q := findText(qs, id); q != nil {
		return "“" + questionLabel(q) + "”"
	}
	return "a question not in this form"
}
