package logic

import (
	"cmp"
	"regexp"
	"strconv"
	"strings"

	"forma/internal/form"
)

var (
	decimalPattern = regexp.MustCompile(`^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$`)
	datePattern    = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	timePattern    = regexp.MustCompile(`^\d{2}:\d{2}$`)
)

// ruleHolds reports whether every condition group of rule holds.
func (p *pass) ruleHolds(rule *form.AdvancedLogic) bool {
	for _, g := range rule.ConditionGroups {
		if !p.groupHolds(g) {
			return false
		}
	}
	return true
}

// groupHolds combines the conditions of g with OR when g says so, else with AND.
func (p *pass) groupHolds(g form.ConditionGroup) bool {
	or := g.Operator == "OR"
	for _, c := range g.Conditions {
		if p.conditionHolds(c) == or {
			return or
		}
	}
	return !or
}

func (p *pass) conditionHolds(c form.Condition) bool {
	var left any
	switch {
	case c.HiddenField != "":
		left = p.values[c.HiddenField]
	case c.ValueType == form.ValueScore:
		left = p.score
	default:
		left = p.answer(c.QuestionID)
	}
	switch c.Operator {
	case form.OpIsEmpty:
		return unanswered(left)
	case form.OpIsNotEmpty:
		return !unanswered(left)
	}
	right := p.conditionValue(c)
	if unanswered(left) || unanswered(right) {
		return c.Operator == form.OpNotEquals
	}
	return compare(c.Operator, left, right)
}

// conditionValue is the right side of c: the answer it names when it is dynamic,
// else its value.
func (p *pass) conditionValue(c form.Condition) any {
	if c.ValueType != form.ValueDynamic {
		return decodeValue(c.Value)
	}
	id, ok := c.DynamicQuestionID()
	if !ok {
		return nil
	}
	return p.answer(id)
}

// showIfHolds evaluates s, which compares as text only.
func (p *pass) showIfHolds(s form.ShowIf) bool {
	answer := p.answer(s.QuestionID)
	equal := !unanswered(answer) && anyItem(answer, func(v any) bool { return text(v) == s.Value })
	if s.Operator == form.OpNotEquals {
		return !equal
	}
	return equal
}

// compare applies operator op to two answered sides.
func compare(op string, left, right any) bool {
	switch op {
	case form.OpEquals:
		return anyItem(left, func(v any) bool { return equal(v, right) })
	case form.OpNotEquals:
		return !anyItem(left, func(v any) bool { return equal(v, right) })
	case form.OpContains:
		return containsText(left, right)
	case form.OpGreaterThan:
		order, ok := compareOrdered(left, right)
		return ok && order > 0
	case form.OpLessThan:
		order, ok := compareOrdered(left, right)
		return ok && order < 0
	}
	return false
}

// anyItem reports whether match holds for some item of a list, or for v itself
// when it is not a list.
func anyItem(v any, match func(any) bool) bool {
	items, ok := v.([]any)
	if !ok {
		return match(v)
	}
	for _, item := range items {
		if match(item) {
			return true
		}
	}
	return false
}

// equal compares numerically when both sides are numeric, else as text.
func equal(a, b any) bool {
	x, okA := number(a)
	y, okB := number(b)
	if okA && okB {
		return x == y
	}
	return text(a) == text(b)
}

// containsText: for a list, some item equals needle ignoring case; otherwise the
// text of haystack contains needle ignoring case. Case is folded rune by rune with
// the simple Unicode mapping (strings.ToLower), which logic.js reproduces.
func containsText(haystack, needle any) bool {
	n := strings.ToLower(text(needle))
	if items, ok := haystack.([]any); ok {
		return anyItem(items, func(v any) bool { return strings.ToLower(text(v)) == n })
	}
	return strings.Contains(strings.ToLower(text(haystack)), n)
}

// compareOrdered orders two numbers, two dates or two times; ok is false when the
// sides are not both of one of these kinds (a list never is).
func compareOrdered(a, b any) (order int, ok bool) {
	if _, isList := a.([]any); isList {
		return 0, false
	}
	if x, okA := number(a); okA {
		if y, okB := number(b); okB {
			return cmp.Compare(x, y), true
		}
	}
	s, t := text(a), text(b)
	for _, pattern := range []*regexp.Regexp{datePattern, timePattern} {
		if pattern.MatchString(s) && pattern.MatchString(t) {
			return strings.Compare(s, t), true
		}
	}
	return 0, false
}

// number returns v as a number when it is a JSON number or a decimal string.
func number(v any) (float64, bool) {
	switch v := v.(type) {
	case float64:
		return v, true
	case string:
		if !decimalPattern.MatchString(v) {
			return 0, false
		}
		f, err := strconv.ParseFloat(v, 64)
		return f, err == nil
	}
	return 0, false
}

// unanswered reports whether v is absent, null, "" or an empty list.
func unanswered(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case string:
		return v == ""
	case []any:
		return len(v) == 0
	}
	return false
}

// text is the text form of a value, as JavaScript's String would print it for
// scalars; a file object is its name and a list its items joined with ", ".
func text(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case float64:
		return formatNumber(v)
	case bool:
		return strconv.FormatBool(v)
	case map[string]any:
		name, _ := v["name"].(string)
		return name
	case []any:
		parts := make([]string, len(v))
		for i, item := range v {
			parts[i] = text(item)
		}
		return strings.Join(parts, ", ")
	}
	return ""
}

// formatNumber prints f as JavaScript's Number.prototype.toString does.
func formatNumber(f float64) string {
	if f == 0 {
		return "0"
	}
	if abs := max(f, -f); abs >= 1e-6 && abs < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	mantissa, exp, _ := strings.Cut(strconv.FormatFloat(f, 'e', -1, 64), "e")
	sign, digits := exp[:1], strings.TrimLeft(exp[1:], "0")
	return mantissa + "e" + sign + digits
}
