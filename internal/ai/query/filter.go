package query

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
)

// predicate tells whether the response at an index of the dataset matches.
type predicate func(i int) bool

// valueTest tells whether an answered value matches.
type valueTest func(v any) bool

// compileAll compiles filters into one predicate that ANDs them; nil when there are
// none.
func (e *Engine) compileAll(fs []Filter) (predicate, error) {
	preds := make([]predicate, 0, len(fs))
	for i, f := range fs {
		p, err := e.compile(f)
		if err != nil {
			return nil, fmt.Errorf("filter %d: %w", i+1, err)
		}
		preds = append(preds, p)
	}
	return and(preds), nil
}

// and combines predicates; nil when there are none.
func and(preds []predicate) predicate {
	switch len(preds) {
	case 0:
		return nil
	case 1:
		return preds[0]
	}
	return func(i int) bool {
		for _, p := range preds {
			if !p(i) {
				return false
			}
		}
		return true
	}
}

// compile turns one filter into a predicate.
func (e *Engine) compile(f Filter) (predicate, error) {
	if f.HiddenField != "" {
		return e.compileHidden(f)
	}
	switch f.Field {
	case FieldSubmittedAt:
		return e.compileSubmitted(f)
	case FieldScore:
		return e.compileScore(f)
	case "":
	default:
		return nil, fmt.Errorf("unknown field %q (use %q or %q)", f.Field, FieldSubmittedAt, FieldScore)
	}
	if f.Op == In {
		return e.compileIn(f)
	}
	q, err := e.question(f.Question)
	if err != nil {
		return nil, err
	}
	col := e.column(q.ID)
	if f.Op == IsEmpty || f.Op == IsNotEmpty {
		want := f.Op == IsNotEmpty
		return func(i int) bool { return col.ans[i] == want }, nil
	}
	if kindOf(q.Type) == kindNumber && f.Op != SentimentOp {
		return numberPredicate(col, f)
	}
	test, err := e.valueTest(kindOf(q.Type), f)
	if err != nil {
		return nil, fmt.Errorf("question %d (%s): %w", q.ID, q.Type, err)
	}
	return func(i int) bool { return col.ans[i] && test(col.vals[i]) }, nil
}

// numberPredicate compiles a filter on the answers of a numeric question, which
// col holds as numbers: an answer that is no number matches no operator.
func numberPredicate(col *column, f Filter) (predicate, error) {
	lo, hi, err := bounds(f, asNumber, "a number")
	if err != nil {
		return nil, fmt.Errorf("question %d (%s): %w", col.q.ID, col.q.Type, err)
	}
	num, isNum := col.numbers()
	return func(i int) bool {
		m, _ := ordered(f.Op, num[i], lo, hi)
		return isNum[i] && m
	}, nil
}

// valueTest compiles a filter on answers of kind k (but kindNumber, which
// numberPredicate compiles).
func (e *Engine) valueTest(k kind, f Filter) (valueTest, error) {
	if f.Op == SentimentOp {
		return e.sentimentTest(k, f.Value)
	}
	switch k {
	case kindBool:
		return boolTest(f)
	case kindMulti:
		return multiTest(f)
	case kindDate:
		return stringOrderTest(f, asDate, "a date YYYY-MM-DD")
	case kindTime:
		return stringOrderTest(f, asClock, "a time HH:MM")
	}
	return textTest(f)
}

// errOp is the error of an operator that does not apply.
func errOp(op Op) error { return fmt.Errorf("operator %q does not apply to this question", op) }

// errValue is the error of a missing or ill-typed operand.
func errValue(op Op, want string) error { return fmt.Errorf("operator %q needs %s as value", op, want) }

// ordered evaluates the ordering operators for comparable operands.
func ordered[T cmp.Ordered](op Op, v, lo, hi T) (match, ok bool) {
	switch op {
	case Equals:
		return v == lo, true
	case NotEquals:
		return v != lo, true
	case GT, After:
		return v > lo, true
	case GTE:
		return v >= lo, true
	case LT, Before:
		return v < lo, true
	case LTE:
		return v <= lo, true
	case Between:
		return v >= lo && v <= hi, true
	}
	return false, false
}

// numberTest compiles a filter on numeric answers.
func numberTest(f Filter) (valueTest, error) { return orderTest(f, asNumber, "a number") }

// orderTest compiles a comparison of answers that parse reads as ordered values;
// want names such a value in errors.
func orderTest[T cmp.Ordered](f Filter, parse func(any) (T, bool), want string) (valueTest, error) {
	lo, hi, err := bounds(f, parse, want)
	if err != nil {
		return nil, err
	}
	return func(v any) bool {
		x, ok := parse(v)
		m, _ := ordered(f.Op, x, lo, hi)
		return ok && m
	}, nil
}

// bounds returns the operands of an ordering filter, parsed (hi is lo but for
// between); an error when they do not parse or the operator does not order.
func bounds[T cmp.Ordered](f Filter, parse func(any) (T, bool), want string) (lo, hi T, err error) {
	lo, ok := parse(f.Value)
	if !ok {
		return lo, hi, errValue(f.Op, want)
	}
	hi = lo
	if f.Op == Between {
		if hi, ok = parse(f.To); !ok {
			return lo, hi, errValue(f.Op, want+" and "+want+" in to")
		}
	}
	if _, ok := ordered(f.Op, lo, lo, hi); !ok {
		return lo, hi, errOp(f.Op)
	}
	return lo, hi, nil
}

// boolTest compiles a filter on yes_no answers.
func boolTest(f Filter) (valueTest, error) {
	want, ok := asBool(f.Value)
	if !ok {
		return nil, errValue(f.Op, "true or false")
	}
	if f.Op != Equals && f.Op != NotEquals {
		return nil, errOp(f.Op)
	}
	eq := f.Op == Equals
	return func(v any) bool {
		b, ok := v.(bool)
		return ok && (b == want) == eq
	}, nil
}

// operand returns a filter's value as trimmed text.
func operand(f Filter) (string, error) {
	s, ok := f.Value.(string)
	if !ok || strings.TrimSpace(s) == "" {
		return "", errValue(f.Op, "a non-empty string")
	}
	return strings.TrimSpace(s), nil
}

// multiTest compiles a filter on multi_select answers: equals and contains test the
// chosen options one by one.
func multiTest(f Filter) (valueTest, error) {
	s, err := operand(f)
	if err != nil {
		return nil, err
	}
	var one func(string) bool
	switch f.Op {
	case Equals, NotEquals:
		one = func(o string) bool { return strings.EqualFold(strings.TrimSpace(o), s) }
	case Contains:
		low := strings.ToLower(s)
		one = func(o string) bool { return strings.Contains(strings.ToLower(o), low) }
	default:
		return nil, errOp(f.Op)
	}
	want := f.Op != NotEquals
	return func(v any) bool {
		for _, o := range asStrings(v) {
			if one(o) {
				return want
			}
		}
		return !want
	}, nil
}

// textTest compiles a filter on text-like answers.
func textTest(f Filter) (valueTest, error) {
	s, err := operand(f)
	if err != nil {
		return nil, err
	}
	switch f.Op {
	case Equals, NotEquals:
		want := f.Op == Equals
		return func(v any) bool {
			return strings.EqualFold(strings.TrimSpace(asText(v)), s) == want
		}, nil
	case Contains:
		low := strings.ToLower(s)
		return func(v any) bool { return strings.Contains(strings.ToLower(asText(v)), low) }, nil
	}
	return nil, errOp(f.Op)
}

// stringOrderTest compiles a filter on date or time answers, which order as strings.
func stringOrderTest(f Filter, parse func(any) (string, bool), want string) (valueTest, error) {
	if f.Op == Contains {
		s, err := operand(f)
		if err != nil {
			return nil, err
		}
		return func(v any) bool { return strings.Contains(asText(v), s) }, nil
	}
	return orderTest(f, parse, want)
}

// compileHidden compiles a filter on the value of a hidden field: text, compared
// as numbers by the ordering operators.
func (e *Engine) compileHidden(f Filter) (predicate, error) {
	if e.ds.Form == nil || !slices.Contains(e.ds.Form.Settings.HiddenFields, f.HiddenField) {
		return nil, fmt.Errorf("the form has no hidden field %q", f.HiddenField)
	}
	rs := e.ds.Responses
	value := func(i int) string { return rs[i].Hidden[f.HiddenField] }
	if f.Op == IsEmpty || f.Op == IsNotEmpty {
		want := f.Op == IsNotEmpty
		return func(i int) bool { return (value(i) != "") == want }, nil
	}
	test, err := textTest(f)
	switch f.Op {
	case GT, GTE, LT, LTE, Between:
		test, err = numberTest(f)
	}
	if err != nil {
		return nil, fmt.Errorf("hidden field %s: %w", f.HiddenField, err)
	}
	return func(i int) bool { return value(i) != "" && test(value(i)) }, nil
}

// compileScore compiles a filter on the submission score.
func (e *Engine) compileScore(f Filter) (predicate, error) {
	rs := e.ds.Responses
	if f.Op == IsEmpty || f.Op == IsNotEmpty {
		want := f.Op == IsNotEmpty
		return func(i int) bool { return (rs[i].Score != nil) == want }, nil
	}
	test, err := numberTest(f)
	if err != nil {
		return nil, fmt.Errorf("score: %w", err)
	}
	return func(i int) bool { return rs[i].Score != nil && test(*rs[i].Score) }, nil
}

// compileSubmitted compiles a filter on the submission time; a date operand stands
// for the whole UTC day.
func (e *Engine) compileSubmitted(f Filter) (predicate, error) {
	rs := e.ds.Responses
	switch f.Op {
	case IsNotEmpty:
		return func(int) bool { return true }, nil
	case IsEmpty:
		return func(int) bool { return false }, nil
	}
	lo, ok := asInstant(f.Value)
	if !ok {
		return nil, fmt.Errorf("submittedAt: %w", errValue(f.Op, "a date YYYY-MM-DD or an RFC 3339 time"))
	}
	hi := lo
	if f.Op == Between {
		if hi, ok = asInstant(f.To); !ok {
			return nil, fmt.Errorf("submittedAt: %w", errValue(f.Op, "a date or time, and another in to"))
		}
	}
	test, err := timeTest(f.Op, lo, hi)
	if err != nil {
		return nil, fmt.Errorf("submittedAt: %w", err)
	}
	return func(i int) bool { return test(rs[i].SubmittedAt()) }, nil
}

// timeTest compiles a comparison of times against instants.
func timeTest(op Op, lo, hi instant) (func(time.Time) bool, error) {
	start, end := lo.at, lo.end()
	switch op {
	case Equals:
		return func(t time.Time) bool { return !t.Before(start) && t.Before(end) }, nil
	case NotEquals:
		return func(t time.Time) bool { return t.Before(start) || !t.Before(end) }, nil
	case GT, After:
		return func(t time.Time) bool { return !t.Before(end) }, nil
	case GTE:
		return func(t time.Time) bool { return !t.Before(start) }, nil
	case LT, Before:
		return func(t time.Time) bool { return t.Before(start) }, nil
	case LTE:
		return func(t time.Time) bool { return t.Before(end) }, nil
	case Between:
		last := hi.end()
		return func(t time.Time) bool { return !t.Before(start) && t.Before(last) }, nil
	}
	return nil, errOp(op)
}

// compileIn compiles "in": an equals filter for each value of the list, ORed.
func (e *Engine) compileIn(f Filter) (predicate, error) {
	vals, ok := f.Value.([]any)
	if !ok || len(vals) == 0 {
		return nil, errValue(In, "a non-empty list")
	}
	preds := make([]predicate, len(vals))
	for k, v := range vals {
		one := f
		one.Op, one.Value = Equals, v
		p, err := e.compile(one)
		if err != nil {
			return nil, err
		}
		preds[k] = p
	}
	return func(i int) bool {
		for _, p := range preds {
			if p(i) {
				return true
			}
		}
		return false
	}, nil
}
