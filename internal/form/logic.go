package form

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// ConditionalLogic is the logic a question owns: a simple showIf condition, an
// advanced rule, or both. It is stored and returned as the client sent it.
type ConditionalLogic struct {
	ShowIf   *ShowIf        `json:"showIf,omitempty"`
	Advanced *AdvancedLogic `json:"advanced,omitempty"`
	// raw is the JSON the client sent (compacted), returned as is.
	raw json.RawMessage
}

// logicFields is ConditionalLogic without its methods, for decoding.
type logicFields struct {
	ShowIf   *ShowIf        `json:"showIf,omitempty"`
	Advanced *AdvancedLogic `json:"advanced,omitempty"`
}

// UnmarshalJSON decodes strictly (unknown fields are errors) and keeps the original
// JSON so that it is returned exactly as sent.
func (l *ConditionalLogic) UnmarshalJSON(b []byte) error {
	var f logicFields
	if err := DecodeStrict(b, &f); err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return err
	}
	*l = ConditionalLogic{ShowIf: f.ShowIf, Advanced: f.Advanced, raw: buf.Bytes()}
	return nil
}

// MarshalJSON returns the JSON the logic was decoded from, or encodes its fields
// when it was built in code.
func (l ConditionalLogic) MarshalJSON() ([]byte, error) {
	if l.raw != nil {
		return l.raw, nil
	}
	return json.Marshal(logicFields{ShowIf: l.ShowIf, Advanced: l.Advanced})
}

// ShowIf shows its question only when another question's answer matches Value.
type ShowIf struct {
	QuestionID int64  `json:"questionId"`
	Operator   string `json:"operator"`
	Value      string `json:"value"`
}

// AdvancedLogic is a rule: when every condition group holds, the actions apply.
// Score rules add to the form's running score.
type AdvancedLogic struct {
	ConditionGroups []ConditionGroup `json:"conditionGroups"`
	Actions         []Action         `json:"actions"`
	ScoreRules      []ScoreRule      `json:"scoreRules,omitempty"`
}

// ConditionGroup combines its conditions with Operator (AND or OR).
type ConditionGroup struct {
	ID         string      `json:"id"`
	Operator   string      `json:"operator"`
	Conditions []Condition `json:"conditions"`
}

// Condition compares an answer (or the score, or a hidden field's value) with a
// value.
type Condition struct {
	ID         string `json:"id"`
	QuestionID int64  `json:"questionId"`
	// HiddenField, an extension, names a hidden field of the form whose value
	// the condition compares instead of an answer (questionId is then absent).
	HiddenField string          `json:"hiddenField,omitempty"`
	Operator    string          `json:"operator"`
	Value       json.RawMessage `json:"value,omitempty"`
	ValueType   string          `json:"valueType,omitempty"`
}

// Action is what a rule does when it holds.
type Action struct {
	Type     string          `json:"type"`
	TargetID json.RawMessage `json:"targetId,omitempty"`
	Value    json.RawMessage `json:"value,omitempty"`
}

// ScoreRule maps the answers of one question to points.
type ScoreRule struct {
	ID         string             `json:"id"`
	QuestionID int64              `json:"questionId"`
	ScoreMap   map[string]float64 `json:"scoreMap"`
}

// Limits on conditional logic. The public definition and page of a form carry all
// of its logic, so it is bounded; the bounds are generous, far above what a real
// form needs (the AI generator makes no logic at all). The OpenAPI document states
// the same numbers (a test compares them).
const (
	// MaxConditionGroups is the most condition groups of one advanced rule.
	MaxConditionGroups = 20
	// MaxConditions is the most conditions of one condition group.
	MaxConditions = 20
	// MaxActions is the most actions of one advanced rule.
	MaxActions = 20
	// MaxScoreRules is the most score rules of one advanced rule (one question).
	MaxScoreRules = 50
	// MaxScoreMapEntries is the most entries of one score map: as many as the
	// options a question may have.
	MaxScoreMapEntries = MaxOptions
	// MaxLogicTextLen is the most characters of any string of logic (ids, values,
	// score map keys), and the most bytes of the JSON of a value that is not a
	// string (a number, or any JSON an action's value holds).
	MaxLogicTextLen = 500
	// MaxFormLogicBytes is the most bytes of the conditional logic of all the
	// questions of a form together, as stored and served (compacted JSON).
	MaxFormLogicBytes = 64 << 10
)

// Operators, value types and action types of conditional logic.
const (
	OpEquals      = "equals"
	OpNotEquals   = "not_equals"
	OpContains    = "contains"
	OpGreaterThan = "greater_than"
	OpLessThan    = "less_than"
	OpIsEmpty     = "is_empty"
	OpIsNotEmpty  = "is_not_empty"

	ValueStatic  = "static"
	ValueDynamic = "dynamic"
	ValueScore   = "score"

	ActionShow           = "show_question"
	ActionHide           = "hide_question"
	ActionSkipToSection  = "skip_to_section"
	ActionSkipToQuestion = "skip_to_question"
	ActionEndForm        = "end_form"
	ActionSetScore       = "set_score"
)

var (
	conditionOperators = []string{OpEquals, OpNotEquals, OpContains, OpGreaterThan, OpLessThan, OpIsEmpty, OpIsNotEmpty}
	valueTypes         = []string{ValueStatic, ValueDynamic, ValueScore}
	actionTypes        = []string{ActionShow, ActionHide, ActionSkipToSection, ActionSkipToQuestion, ActionEndForm, ActionSetScore}
)

func oneOf(v string, allowed []string) bool {
	for _, a := range allowed {
		if v == a {
			return true
		}
	}
	return false
}

// TargetQuestionID returns the question id an action targets; targetId may be a
// JSON integer or a string holding one.
func (a Action) TargetQuestionID() (int64, bool) {
	return rawID(a.TargetID)
}

// DynamicQuestionID returns the question id a dynamic condition's value names.
func (c Condition) DynamicQuestionID() (int64, bool) {
	return rawID(c.Value)
}

func rawID(raw json.RawMessage) (int64, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return 0, false
	}
	var n int64
	if json.Unmarshal(raw, &n) == nil {
		return n, true
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return ParseID(s)
	}
	return 0, false
}

// jsonKind returns "string", "number", "null", "bool", "array", "object" or "" for raw.
func jsonKind(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '"':
		return "string"
	case 'n':
		return "null"
	case 't', 'f':
		return "bool"
	case '[':
		return "array"
	case '{':
		return "object"
	}
	return "number"
}

// ValidateLogic checks the structure of l: enums, required parts, the per-question
// limits above, that every question it references is in known (the ids of the
// form's other questions), and its strings (CheckText): ids are SingleLine;
// values and score map keys, which are compared with answers, are MultiLine.
// Problems are recorded under prefix (such as "conditionalLogic").
func ValidateLogic(l *ConditionalLogic, known map[int64]bool, prefix string, p *Problems) {
	if l.ShowIf == nil && l.Advanced == nil {
		p.Add(prefix, "must have showIf or advanced")
		return
	}
	if s := l.ShowIf; s != nil {
		f := prefix + ".showIf"
		if s.Operator != OpEquals && s.Operator != OpNotEquals {
			p.Add(f+".operator", "must be equals or not_equals")
		}
		checkRef(s.QuestionID, known, f+".questionId", p)
		checkOwnerText(s.Value, MultiLine, 0, MaxLogicTextLen, f+".value", p)
	}
	if a := l.Advanced; a != nil {
		validateAdvanced(a, known, prefix+".advanced", p)
	}
}

func validateAdvanced(a *AdvancedLogic, known map[int64]bool, prefix string, p *Problems) {
	if len(a.ConditionGroups) == 0 && len(a.ScoreRules) == 0 {
		p.Add(prefix+".conditionGroups", "must have at least one group (or scoreRules)")
	}
	if len(a.Actions) > 0 && len(a.ConditionGroups) == 0 {
		p.Add(prefix+".conditionGroups", "actions need at least one condition group")
	}
	if withinLimit(len(a.ConditionGroups), MaxConditionGroups, prefix+".conditionGroups", "condition groups", p) {
		for i, g := range a.ConditionGroups {
			validateGroup(g, known, fmt.Sprintf("%s.conditionGroups[%d]", prefix, i), p)
		}
	}
	if withinLimit(len(a.Actions), MaxActions, prefix+".actions", "actions", p) {
		for i, act := range a.Actions {
			validateAction(act, known, fmt.Sprintf("%s.actions[%d]", prefix, i), p)
		}
	}
	if withinLimit(len(a.ScoreRules), MaxScoreRules, prefix+".scoreRules", "score rules", p) {
		for i, r := range a.ScoreRules {
			validateScoreRule(r, known, fmt.Sprintf("%s.scoreRules[%d]", prefix, i), p)
		}
	}
}

// withinLimit reports whether a list of n items is within max, recording the
// problem under field when it is not (its items are then not checked one by one).
func withinLimit(n, max int, field, items string, p *Problems) bool {
	if n > max {
		p.Add(field, "must have at most %d %s (got %d)", max, items, n)
		return false
	}
	return true
}

func validateGroup(g ConditionGroup, known map[int64]bool, f string, p *Problems) {
	checkOwnerText(g.ID, SingleLine, 0, MaxLogicTextLen, f+".id", p)
	if g.Operator != "AND" && g.Operator != "OR" {
		p.Add(f+".operator", "must be AND or OR")
	}
	if len(g.Conditions) == 0 {
		p.Add(f+".conditions", "must have at least one condition")
	}
	if withinLimit(len(g.Conditions), MaxConditions, f+".conditions", "conditions", p) {
		for j, c := range g.Conditions {
			validateCondition(c, known, fmt.Sprintf("%s.conditions[%d]", f, j), p)
		}
	}
}

func validateScoreRule(r ScoreRule, known map[int64]bool, f string, p *Problems) {
	checkOwnerText(r.ID, SingleLine, 0, MaxLogicTextLen, f+".id", p)
	checkRef(r.QuestionID, known, f+".questionId", p)
	if r.ScoreMap == nil {
		p.Add(f+".scoreMap", "is required")
	}
	if withinLimit(len(r.ScoreMap), MaxScoreMapEntries, f+".scoreMap", "entries", p) {
		for _, k := range slices.Sorted(maps.Keys(r.ScoreMap)) {
			checkOwnerText(k, MultiLine, 0, MaxLogicTextLen, fmt.Sprintf("%s.scoreMap[%q]", f, k), p)
		}
	}
}

// checkLogicValue checks a JSON value of logic: a string as MultiLine text of at
// most MaxLogicTextLen characters, anything else by the length of its JSON; a
// number must also be within the range of float64, which clients decode it into.
func checkLogicValue(raw json.RawMessage, field string, p *Problems) {
	var s string
	switch kind := jsonKind(raw); {
	case kind == "string" && json.Unmarshal(raw, &s) == nil:
		checkOwnerText(s, MultiLine, 0, MaxLogicTextLen, field, p)
		return
	case kind == "number" && json.Unmarshal(raw, new(float64)) != nil:
		p.Add(field, "must be a finite number within the range of a 64-bit float")
		return
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) == nil && buf.Len() > MaxLogicTextLen {
		p.Add(field, "must be at most %d bytes of JSON (got %d)", MaxLogicTextLen, buf.Len())
	}
}

func validateCondition(c Condition, known map[int64]bool, f string, p *Problems) {
	checkOwnerText(c.ID, SingleLine, 0, MaxLogicTextLen, f+".id", p)
	checkLogicValue(c.Value, f+".value", p)
	if !oneOf(c.Operator, conditionOperators) {
		p.Add(f+".operator", "must be one of equals, not_equals, contains, greater_than, less_than, is_empty, is_not_empty")
	}
	vt := c.ValueType
	if vt == "" {
		vt = ValueStatic
	}
	if !oneOf(vt, valueTypes) {
		p.Add(f+".valueType", "must be static, dynamic or score")
		return
	}
	switch {
	case c.HiddenField != "":
		checkHiddenCondition(c, vt, f, p)
	case vt != ValueScore:
		checkRef(c.QuestionID, known, f+".questionId", p)
	}
	kind := jsonKind(c.Value)
	needsValue := c.Operator != OpIsEmpty && c.Operator != OpIsNotEmpty
	switch {
	case kind != "" && kind != "string" && kind != "number":
		p.Add(f+".value", "must be a string or a number")
	case needsValue && kind == "":
		p.Add(f+".value", "is required for operator %s", c.Operator)
	case vt == ValueDynamic && kind != "":
		id, ok := c.DynamicQuestionID()
		if !ok {
			p.Add(f+".value", "must be a question id when valueType is dynamic")
		} else {
			checkRef(id, known, f+".value", p)
		}
	case vt == ValueScore && needsValue && kind != "number":
		p.Add(f+".value", "must be a number when valueType is score")
	}
}

// checkHiddenCondition checks a condition on a hidden field: a well-formed name
// (any name: a field the form does not declare never has a value), no question
// beside it, and a value type that reads a left side (not score).
func checkHiddenCondition(c Condition, valueType, f string, p *Problems) {
	checkHiddenName(c.HiddenField, f+".hiddenField", p)
	if c.QuestionID != 0 {
		p.Add(f+".questionId", "must be absent when hiddenField is set")
	}
	if valueType == ValueScore {
		p.Add(f+".valueType", "cannot be score when hiddenField is set")
	}
}

func validateAction(a Action, known map[int64]bool, f string, p *Problems) {
	checkLogicValue(a.TargetID, f+".targetId", p)
	checkLogicValue(a.Value, f+".value", p)
	if !oneOf(a.Type, actionTypes) {
		p.Add(f+".type", "must be one of show_question, hide_question, skip_to_section, skip_to_question, end_form, set_score")
		return
	}
	switch a.Type {
	case ActionShow, ActionHide, ActionSkipToQuestion, ActionSkipToSection:
		id, ok := a.TargetQuestionID()
		if !ok {
			p.Add(f+".targetId", "must be a question id")
			return
		}
		checkRef(id, known, f+".targetId", p)
	case ActionSetScore:
		if jsonKind(a.Value) != "number" {
			p.Add(f+".value", "must be a number for set_score")
		}
	}
}

func checkRef(id int64, known map[int64]bool, field string, p *Problems) {
	if !known[id] {
		p.Add(field, "question %d is not in this form", id)
	}
}

// References returns the ids of the questions l refers to.
func (l *ConditionalLogic) References() []int64 {
	var ids []int64
	if l.ShowIf != nil {
		ids = append(ids, l.ShowIf.QuestionID)
	}
	if a := l.Advanced; a != nil {
		for _, g := range a.ConditionGroups {
			for _, c := range g.Conditions {
				if c.ValueType != ValueScore && c.HiddenField == "" {
					ids = append(ids, c.QuestionID)
				}
				if c.ValueType == ValueDynamic {
					if id, ok := c.DynamicQuestionID(); ok {
						ids = append(ids, id)
					}
				}
			}
		}
		for _, act := range a.Actions {
			if id, ok := act.TargetQuestionID(); ok {
				ids = append(ids, id)
			}
		}
		for _, r := range a.ScoreRules {
			ids = append(ids, r.QuestionID)
		}
	}
	return ids
}

// CheckFormLogic returns nil, or an Invalid *Error naming conditionalLogic when
// the logic of q makes the logic of its form (q with the others, as stored) larger
// than MaxFormLogicBytes. others may include q itself (by id), counted once.
func CheckFormLogic(q *Question, others []Question) error {
	if q.Logic == nil {
		return nil
	}
	total := logicSize(q.Logic)
	for i := range others {
		if others[i].ID != q.ID {
			total += logicSize(others[i].Logic)
		}
	}
	if total > MaxFormLogicBytes {
		return FieldInvalid("conditionalLogic", "makes the conditional logic of the form %d bytes in all; at most %d bytes are allowed for all its questions together",
			total, MaxFormLogicBytes)
	}
	return nil
}

// logicSize is the length of l's JSON as stored; 0 for no logic.
func logicSize(l *ConditionalLogic) int {
	if l == nil {
		return 0
	}
	b, _ := l.MarshalJSON()
	return len(b)
}
