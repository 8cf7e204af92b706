package dashboard

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"forma/internal/form"
)

// The advanced-rule editor of a question (form.AdvancedLogic) is one plain form
// whose fields are named by position: g0.c1.op is the comparison of the second
// condition of the first group, a0.type the first action, s0.pts the points of
// the first score rule. Its Add and Remove buttons post the whole form to draw it
// again with a row more or less, saving nothing; Save builds the rule and applies
// it through form.ApplyQuestionPatch, as the API does, so the domain decides
// what is valid and its errors come back at their fields.

// ruleInput is an advanced rule as its editor holds it: the text of each
// control, row by row, posted or drawn from the stored rule.
type ruleInput struct {
	Groups  []groupInput
	Actions []actionInput
	Scores  []scoreInput
}

// groupInput is a condition group; Operator is AND or OR.
type groupInput struct {
	ID, Operator string
	Conditions   []conditionInput
}

// conditionInput is a condition. Target is the id of the question it reads, or
// scoreTarget. For is what its comparison and value controls were drawn for
// (drawnFor): when the question or the kind of value changed since, the post
// draws them again instead of saving.
type conditionInput struct {
	ID, Target, Operator, ValueType, Value, For string
}

// actionInput is an action: Target is a question id, Value the score of
// set_score.
type actionInput struct {
	Type, Target, Value string
}

// scoreInput is a score rule: the points (text) of each answer key of its
// question. For is the question its points were drawn for.
type scoreInput struct {
	ID, Question, For string
	Keys, Points      []string
}

// scoreTarget is the Target of a condition on the running score.
const scoreTarget = "score"

// hiddenTarget starts the Target of a condition on a hidden field:
// hidden:utm_source.
const hiddenTarget = "hidden:"

// hiddenField is the hidden field c reads, or "".
func (c conditionInput) hiddenField() string {
	if name, ok := strings.CutPrefix(c.Target, hiddenTarget); ok {
		return name
	}
	return ""
}

// drawnFor is what c's controls depend on: its question and kind of value.
func (c conditionInput) drawnFor() string {
	return c.Target + ":" + c.valueType()
}

// valueType is c's value type as the domain names it.
func (c conditionInput) valueType() string {
	switch {
	case c.Target == scoreTarget:
		return form.ValueScore
	case c.ValueType == form.ValueDynamic:
		return form.ValueDynamic
	}
	return form.ValueStatic
}

// needsValue reports whether c's operator compares with a value.
func (c conditionInput) needsValue() bool {
	return c.Operator != form.OpIsEmpty && c.Operator != form.OpIsNotEmpty
}

// parseRule reads the rule a post of the editor carries. The number of rows of
// each list comes from a hidden count, bounded one past the domain's limit (which
// then refuses it) so that a forged count costs nothing.
func parseRule(v url.Values) ruleInput {
	var r ruleInput
	for i := range postedCount(v, "groups", form.MaxConditionGroups) {
		g := fmt.Sprintf("g%d.", i)
		gi := groupInput{ID: v.Get(g + "id"), Operator: v.Get(g + "op")}
		for j := range postedCount(v, g+"n", form.MaxConditions) {
			c := fmt.Sprintf("%sc%d.", g, j)
			gi.Conditions = append(gi.Conditions, conditionInput{ID: v.Get(c + "id"), Target: v.Get(c + "q"),
				Operator: v.Get(c + "op"), ValueType: v.Get(c + "vt"), Value: v.Get(c + "v"), For: v.Get(c + "for")})
		}
		r.Groups = append(r.Groups, gi)
	}
	for i := range postedCount(v, "actions", form.MaxActions) {
		a := fmt.Sprintf("a%d.", i)
		r.Actions = append(r.Actions, actionInput{Type: v.Get(a + "type"), Target: v.Get(a + "q"), Value: v.Get(a + "v")})
	}
	for i := range postedCount(v, "scores", form.MaxScoreRules) {
		s := fmt.Sprintf("s%d.", i)
		keys, points := v[s+"key"], v[s+"pts"]
		n := min(len(keys), len(points), form.MaxScoreMapEntries+1)
		r.Scores = append(r.Scores, scoreInput{ID: v.Get(s + "id"), Question: v.Get(s + "q"), For: v.Get(s + "for"),
			Keys: keys[:n], Points: points[:n]})
	}
	return r
}

// postedCount is the whole number posted as name, between 0 and limit+1.
func postedCount(v url.Values, name string, limit int) int {
	n, _ := strconv.Atoi(v.Get(name))
	return min(max(n, 0), limit+1)
}

// storedRule is the editor's copy of a stored rule.
func storedRule(a *form.AdvancedLogic) ruleInput {
	var r ruleInput
	for _, g := range a.ConditionGroups {
		gi := groupInput{ID: g.ID, Operator: g.Operator}
		for _, c := range g.Conditions {
			ci := conditionInput{ID: c.ID, Target: strconv.FormatInt(c.QuestionID, 10), Operator: c.Operator,
				ValueType: c.ValueType, Value: rawText(c.Value)}
			switch {
			case c.HiddenField != "":
				ci.Target = hiddenTarget + c.HiddenField
			case c.ValueType == form.ValueScore:
				ci.Target = scoreTarget
			}
			ci.For = ci.drawnFor()
			gi.Conditions = append(gi.Conditions, ci)
		}
		r.Groups = append(r.Groups, gi)
	}
	for _, a := range a.Actions {
		ai := actionInput{Type: a.Type, Value: rawText(a.Value)}
		if id, ok := a.TargetQuestionID(); ok {
			ai.Target = strconv.FormatInt(id, 10)
		}
		r.Actions = append(r.Actions, ai)
	}
	for _, s := range a.ScoreRules {
		q := strconv.FormatInt(s.QuestionID, 10)
		si := scoreInput{ID: s.ID, Question: q, For: q}
		for _, k := range slices.Sorted(maps.Keys(s.ScoreMap)) {
			si.Keys, si.Points = append(si.Keys, k), append(si.Points, num(s.ScoreMap[k]))
		}
		r.Scores = append(r.Scores, si)
	}
	return r
}

// rawText is a JSON value of logic as an input shows it: a string's text, any
// other value's JSON.
func rawText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// newCondition is the condition an editor of question owner starts with: one on
// the owner's own answer.
func newCondition(owner *form.Question) conditionInput {
	c := conditionInput{Target: strconv.FormatInt(owner.ID, 10), Operator: owner.Type.Operators()[0]}
	c.For = c.drawnFor()
	return c
}

// newAction is the action a rule starts with: show the next question, when
// there is one.
func newAction(qs []form.Question, i int) actionInput {
	if i+1 < len(qs) {
		return actionInput{Type: form.ActionShow, Target: strconv.FormatInt(qs[i+1].ID, 10)}
	}
	return actionInput{Type: form.ActionEndForm}
}

// newRule is the blank rule of question i of qs: one condition on its answer
// and one action.
func newRule(qs []form.Question, i int) ruleInput {
	return ruleInput{Groups: []groupInput{{Operator: "AND", Conditions: []conditionInput{newCondition(&qs[i])}}},
		Actions: []actionInput{newAction(qs, i)}}
}

// edit changes r as the editor's button edit says (add-condition:0,
// remove-action:1, …) for question i of qs, and returns the name of the control
// (or the value of the button) to focus when the editor is drawn again; "" when
// edit is none of them.
func (r *ruleInput) edit(edit string, qs []form.Question, i int) string {
	verb, at, _ := strings.Cut(edit, ":")
	g, c := indexes(at)
	switch {
	case verb == "add-group":
		r.Groups = append(r.Groups, groupInput{Operator: "AND", Conditions: []conditionInput{newCondition(&qs[i])}})
		return fmt.Sprintf("g%d.c0.q", len(r.Groups)-1)
	case verb == "add-condition" && g < len(r.Groups):
		r.Groups[g].Conditions = append(r.Groups[g].Conditions, newCondition(&qs[i]))
		return fmt.Sprintf("g%d.c%d.q", g, len(r.Groups[g].Conditions)-1)
	case verb == "remove-condition" && g < len(r.Groups) && c < len(r.Groups[g].Conditions):
		r.Groups[g].Conditions = slices.Delete(r.Groups[g].Conditions, c, c+1)
		if len(r.Groups[g].Conditions) == 0 {
			r.Groups = slices.Delete(r.Groups, g, g+1)
			return "add-group"
		}
		return "add-condition:" + strconv.Itoa(g)
	case verb == "add-action":
		r.Actions = append(r.Actions, newAction(qs, i))
		return fmt.Sprintf("a%d.type", len(r.Actions)-1)
	case verb == "remove-action" && g < len(r.Actions):
		r.Actions = slices.Delete(r.Actions, g, g+1)
		return "add-action"
	case verb == "add-score":
		r.Scores = append(r.Scores, scoreInput{})
		return fmt.Sprintf("s%d.q", len(r.Scores)-1)
	case verb == "remove-score" && g < len(r.Scores):
		r.Scores = slices.Delete(r.Scores, g, g+1)
		return "add-score"
	}
	return ""
}

// indexes reads "2" or "2:1" as two indexes; a missing or malformed one is
// math.MaxInt, which no list reaches.
func indexes(s string) (int, int) {
	first, second, _ := strings.Cut(s, ":")
	parse := func(t string) int {
		n, err := strconv.Atoi(t)
		if err != nil || n < 0 {
			return math.MaxInt
		}
		return n
	}
	return parse(first), parse(second)
}

// stale is, by field, the sentence of each condition and score rule whose
// question (or kind of value) was changed since its controls were drawn: the
// post draws them again for it instead of saving.
func (r ruleInput) stale() fieldErrors {
	errs := fieldErrors{}
	for i, g := range r.Groups {
		for j, c := range g.Conditions {
			if c.For != c.drawnFor() {
				errs[conditionPath(i, j)+".value"] = chooseValue
			}
		}
	}
	for i, s := range r.Scores {
		if s.For != s.Question {
			errs[scorePath(i)+".scoreMap"] = choosePoints
		}
	}
	return errs
}

// choosePoints is what stale says at a score rule whose question changed.
const choosePoints = "Now enter the points for this question's answers, then save the rule."

// conditionPath is the input key (inputOf) of condition j of group i.
func conditionPath(i, j int) string {
	return fmt.Sprintf("advanced.conditionGroups[%d].conditions[%d]", i, j)
}

// actionPath is the input key of action i.
func actionPath(i int) string { return fmt.Sprintf("advanced.actions[%d]", i) }

// scorePath is the input key of score rule i.
func scorePath(i int) string { return fmt.Sprintf("advanced.scoreRules[%d]", i) }

// logic is r as the domain's rule, reading the questions of the form by id in
// known (a number is sent as a JSON number where the question's answers are
// numbers). Blank ids get fresh ones. Its only error is points that are not
// numbers; the rest is for form.ApplyQuestionPatch to judge.
func (r ruleInput) logic(known map[int64]*form.Question) (*form.AdvancedLogic, error) {
	ids := newIDs(r)
	a := &form.AdvancedLogic{ConditionGroups: []form.ConditionGroup{}, Actions: []form.Action{}}
	for _, g := range r.Groups {
		cg := form.ConditionGroup{ID: ids.or(g.ID, "g"), Operator: g.Operator, Conditions: []form.Condition{}}
		for _, c := range g.Conditions {
			cg.Conditions = append(cg.Conditions, c.condition(ids.or(c.ID, "c"), known))
		}
		a.ConditionGroups = append(a.ConditionGroups, cg)
	}
	for _, act := range r.Actions {
		a.Actions = append(a.Actions, act.action())
	}
	var p form.Problems
	for i, s := range r.Scores {
		a.ScoreRules = append(a.ScoreRules, s.rule(ids.or(s.ID, "s"), "conditionalLogic."+scorePath(i)+".scoreMap", &p))
	}
	return a, p.Err()
}

// condition is c as the domain's condition with the id id.
func (c conditionInput) condition(id string, known map[int64]*form.Question) form.Condition {
	out := form.Condition{ID: id, Operator: c.Operator, ValueType: c.valueType()}
	switch name := c.hiddenField(); {
	case name != "":
		out.HiddenField = name
	case c.Target != scoreTarget:
		out.QuestionID, _ = form.ParseID(c.Target)
	}
	if !c.needsValue() || strings.TrimSpace(c.Value) == "" {
		return out
	}
	out.Value = textJSON(c.Value)
	if t := known[out.QuestionID]; out.ValueType != form.ValueStatic || (t != nil && numeric(t.Type)) {
		out.Value = numberOrText(c.Value) // a question id, the score, a number
	}
	return out
}

// action is a as the domain's action.
func (a actionInput) action() form.Action {
	out := form.Action{Type: a.Type}
	switch a.Type {
	case form.ActionShow, form.ActionHide, form.ActionSkipToQuestion, form.ActionSkipToSection:
		if a.Target != "" {
			out.TargetID = numberOrText(a.Target)
		}
	case form.ActionSetScore:
		if strings.TrimSpace(a.Value) != "" {
			out.Value = numberOrText(a.Value)
		}
	}
	return out
}

// rule is s as the domain's score rule with the id id; points that are not
// numbers are recorded at field. Blank points are no entry.
func (s scoreInput) rule(id, field string, p *form.Problems) form.ScoreRule {
	out := form.ScoreRule{ID: id, ScoreMap: map[string]float64{}}
	out.QuestionID, _ = form.ParseID(s.Question)
	for k, key := range s.Keys {
		text := strings.TrimSpace(s.Points[k])
		if text == "" {
			continue
		}
		n, ok := parseNumber(text)
		if !ok {
			p.Add(field, "must be numbers, such as 2 or -0.5 (or left empty)")
			continue
		}
		out.ScoreMap[key] = n
	}
	return out
}

// numeric reports whether the answers to questions of type t are numbers.
func numeric(t form.QuestionType) bool {
	return t == form.Number || t == form.Currency || t == form.Slider || t == form.Rating
}

// numberOrText is s as a JSON number when it is one, else as a JSON string (for
// the domain to refuse where a number is needed).
func numberOrText(s string) json.RawMessage {
	if n, ok := parseNumber(s); ok {
		return json.RawMessage(strconv.FormatFloat(n, 'f', -1, 64))
	}
	return textJSON(s)
}

// parseNumber reads s as a finite decimal number.
func parseNumber(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if strings.ContainsAny(s, "xX_") { // hexadecimal and digit separators are no decimal
		return 0, false
	}
	n, err := strconv.ParseFloat(s, 64)
	return n, err == nil && !math.IsInf(n, 0) && !math.IsNaN(n)
}

// textJSON is s as a JSON string.
func textJSON(s string) json.RawMessage {
	b, _ := json.Marshal(s) // a string always encodes
	return b
}

// ruleIDs hands out the ids of new groups, conditions and score rules: the
// first of g1, g2, … (c1, …; s1, …) that no part of the rule has.
type ruleIDs map[string]bool

func newIDs(r ruleInput) ruleIDs {
	ids := ruleIDs{}
	for _, g := range r.Groups {
		ids[g.ID] = true
		for _, c := range g.Conditions {
			ids[c.ID] = true
		}
	}
	for _, s := range r.Scores {
		ids[s.ID] = true
	}
	return ids
}

// or is id, or a fresh id starting with prefix when id is blank.
func (ids ruleIDs) or(id, prefix string) string {
	if id != "" {
		return id
	}
	for n := 1; ; n++ {
		if fresh := prefix + strconv.Itoa(n); !ids[fresh] {
			ids[fresh] = true
			return fresh
		}
	}
}
