package form

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// AnswerFilter selects completed submissions by what they hold: conditions on
// answers and hidden values, which must all hold, and a text searched for.
// It is the filter= and q= of the responses list and its exports, written
//
//	filter=<field>:<operator>[:<value>]
//
// where field is q<questionId> or the name of a hidden field, and operator one
// of eq, contains, gt, lt, empty, notempty (FilterOperators). Everything after
// the second colon is the value, colons included. Several conditions are
// given by repeating filter= or by separating them with commas within one; a
// comma inside a value is written \, and a backslash \\.
type AnswerFilter struct {
	conditions []filterCondition
	search     string // lower case; "" when none
	// searched are the questions whose answers the search reads.
	searched []*Question
}

// The operators of an AnswerFilter condition.
const (
	FilterEquals   = "eq"       // the same answer: text ignoring case, numbers as numbers, a chosen option, yes/no
	FilterContains = "contains" // the text contains the value, ignoring case; a chosen option does
	FilterGreater  = "gt"       // a larger number, a later date or time
	FilterLess     = "lt"       // a smaller number, an earlier date or time
	FilterEmpty    = "empty"    // not answered (no value)
	FilterNotEmpty = "notempty" // answered (a value)
)

// FilterOperators lists the operators of an AnswerFilter condition.
var FilterOperators = []string{FilterEquals, FilterContains, FilterGreater, FilterLess, FilterEmpty, FilterNotEmpty}

// Limits of an AnswerFilter.
const (
	MaxFilterConditions = 20
	MaxFilterValueLen   = 500 // characters of a condition's value
	MaxSearchLen        = 200 // characters of the searched text
)

// filterCondition is one parsed condition: on the answer to question, or on
// the hidden field hidden when question is nil.
type filterCondition struct {
	question *Question
	hidden   string
	op       string
	text     string  // the value, lower case for eq and contains on text
	number   float64 // the value as a number, for numeric comparisons
	truth    bool    // the value of eq on a yes_no question
}

// ParseAnswerFilter reads the filter parameters and the searched text of a
// request for the responses of a form with questions (deleted ones included)
// and hiddenFields. It returns nil when they select nothing (no condition, no
// text), so that callers keep their unfiltered path. Problems are Invalid
// *Errors naming filter or q.
func ParseAnswerFilter(params []string, search string, questions []Question, hiddenFields []string) (*AnswerFilter, error) {
	f := &AnswerFilter{}
	for _, param := range params {
		parts, err := splitConditions(param)
		if err != nil {
			return nil, err
		}
		for _, part := range parts {
			c, err := parseCondition(part, questions, hiddenFields)
			if err != nil {
				return nil, err
			}
			f.conditions = append(f.conditions, c)
		}
	}
	if len(f.conditions) > MaxFilterConditions {
		return nil, FieldInvalid("filter", "must have at most %d conditions (got %d)", MaxFilterConditions, len(f.conditions))
	}
	if err := f.setSearch(search, questions); err != nil {
		return nil, err
	}
	if len(f.conditions) == 0 && f.search == "" {
		return nil, nil
	}
	return f, nil
}

// splitConditions splits one filter parameter at its unescaped commas and
// unescapes \, and \\.
func splitConditions(param string) ([]string, error) {
	var parts []string
	var cur strings.Builder
	for i := 0; i < len(param); i++ {
		switch c := param[i]; {
		case c == '\\' && i+1 < len(param) && (param[i+1] == ',' || param[i+1] == '\\'):
			cur.WriteByte(param[i+1])
			i++
		case c == '\\':
			return nil, FieldInvalid("filter", `a backslash must be followed by a comma or another backslash (write \, for a comma in a value and \\ for a backslash)`)
		case c == ',':
			parts = append(parts, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	return append(parts, cur.String()), nil
}

// parseCondition reads one condition, field:operator[:value].
func parseCondition(s string, questions []Question, hiddenFields []string) (filterCondition, error) {
	field, rest, _ := strings.Cut(s, ":")
	op, value, hasValue := strings.Cut(rest, ":")
	c := filterCondition{op: op}
	if err := c.setField(field, questions, hiddenFields); err != nil {
		return c, err
	}
	if !slices.Contains(FilterOperators, op) {
		return c, FieldInvalid("filter", "%q: the operator must be one of %s (as in q3:eq:Saturday)", shortName(s), strings.Join(FilterOperators, ", "))
	}
	if op == FilterEmpty || op == FilterNotEmpty {
		if hasValue {
			return c, FieldInvalid("filter", "%q: %s takes no value", shortName(s), op)
		}
		return c, nil
	}
	switch n := utf8.RuneCountInString(value); {
	case !utf8.ValidString(value):
		return c, FieldInvalid("filter", "%q: the value must be valid UTF-8", shortName(s))
	case n == 0:
		return c, FieldInvalid("filter", "%q: %s needs a value after a second colon (use empty to find unanswered ones)", shortName(s), op)
	case n > MaxFilterValueLen:
		return c, FieldInvalid("filter", "%q: the value must be at most %d characters", shortName(s), MaxFilterValueLen)
	}
	if problem := c.setValue(value); problem != "" {
		return c, FieldInvalid("filter", "%q: %s", shortName(s), problem)
	}
	return c, nil
}

// setField sets what c reads: the question of q<id>, or a hidden field.
func (c *filterCondition) setField(field string, questions []Question, hiddenFields []string) error {
	if id, ok := strings.CutPrefix(field, "q"); ok && prefillName.MatchString(field) {
		for i := range questions {
			if strconv.FormatInt(questions[i].ID, 10) == id {
				c.question = &questions[i]
				return nil
			}
		}
		return FieldInvalid("filter", "%s: the form has no question %s", field, id)
	}
	if !slices.Contains(hiddenFields, field) {
		return FieldInvalid("filter", "%q must start with q<questionId> or the name of a hidden field of the form", shortName(field))
	}
	c.hidden = field
	return nil
}

// setValue reads value for c's operator and what it reads; the problem when it
// does not apply ("" when it does).
func (c *filterCondition) setValue(value string) string {
	kind := c.kind()
	switch {
	case (c.op == FilterGreater || c.op == FilterLess) && kind == orderedText:
		return c.setOrdered(value)
	case c.op == FilterGreater || c.op == FilterLess || c.op == FilterEquals && kind == numeric:
		return c.setNumber(value, kind)
	case c.op == FilterContains && (kind == numeric || kind == truth || kind == file):
		return "contains applies to text, choices, dates, times and hidden fields"
	case kind == truth:
		return c.setTruth(value)
	case kind == file:
		return "a file answer is only empty or notempty"
	}
	c.text = strings.ToLower(value)
	if kind == orderedText {
		c.text = value
	}
	return ""
}

// setNumber reads the number that eq, gt and lt compare numeric answers (or a
// hidden field's value) with.
func (c *filterCondition) setNumber(value string, k answerKind) string {
	if k != numeric && k != hiddenText {
		return c.op + " applies to numbers, ratings, sliders, amounts, dates, times and hidden fields holding numbers"
	}
	n, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
	if err != nil || !finite(n) {
		return c.op + " needs a number as value"
	}
	c.number = n
	return ""
}

// setOrdered reads the date or time that gt and lt compare a date or time
// question's answers with.
func (c *filterCondition) setOrdered(value string) string {
	switch {
	case c.question.Type == Date && checkDate(nil, value) != nil:
		return c.op + " needs a date YYYY-MM-DD as value"
	case c.question.Type == Time && checkTime(nil, value) != nil:
		return c.op + " needs a time HH:MM as value"
	}
	c.text = value
	return ""
}

// setTruth reads the yes or no that eq compares a yes_no answer with.
func (c *filterCondition) setTruth(value string) string {
	v, err := formBool(strings.TrimSpace(value))
	if err != nil {
		return "a yes/no answer is eq to yes or no"
	}
	c.truth = string(v) == "true"
	return ""
}

// answerKind groups what a condition reads by how it compares.
type answerKind int

const (
	textual     answerKind = iota // text-like answers and choices
	numeric                       // numbers, ratings, sliders, amounts
	orderedText                   // dates and times: text that orders as time does
	truth                         // yes_no
	file                          // file_upload
	hiddenText                    // a hidden field: text, or a number when it is one
)

// kind is how c's values compare.
func (c *filterCondition) kind() answerKind {
	if c.question == nil {
		return hiddenText
	}
	switch c.question.Type {
	case Number, Currency, Slider, Rating:
		return numeric
	case Date, Time:
		return orderedText
	case YesNo:
		return truth
	case FileUpload:
		return file
	}
	return textual
}

// setSearch sets the searched text and the questions whose answers are text.
func (f *AnswerFilter) setSearch(search string, questions []Question) error {
	if search == "" {
		return nil
	}
	if n := utf8.RuneCountInString(search); !utf8.ValidString(search) || n > MaxSearchLen {
		return FieldInvalid("q", "must be valid UTF-8 text of at most %d characters", MaxSearchLen)
	}
	f.search = strings.ToLower(search)
	for i := range questions {
		switch questions[i].Type {
		case Text, Textarea, Email, Phone, URL, Select, MultiSelect:
			f.searched = append(f.searched, &questions[i])
		}
	}
	return nil
}

// Match reports whether sub holds: every condition, and the searched text in
// one of its text answers (text, textarea, email, phone, url, and the chosen
// options of select and multi_select) or hidden values.
func (f *AnswerFilter) Match(sub *Submission) bool {
	for i := range f.conditions {
		if !f.conditions[i].holds(sub) {
			return false
		}
	}
	return f.search == "" || f.found(sub)
}

// found reports whether sub holds the searched text, ignoring case.
func (f *AnswerFilter) found(sub *Submission) bool {
	for _, q := range f.searched {
		for _, s := range answerStrings(sub.Answers[q.ID]) {
			if strings.Contains(strings.ToLower(s), f.search) {
				return true
			}
		}
	}
	for _, v := range sub.Hidden {
		if strings.Contains(strings.ToLower(v), f.search) {
			return true
		}
	}
	return false
}

// holds reports whether c holds for sub.
func (c *filterCondition) holds(sub *Submission) bool {
	var v any
	if c.question != nil {
		v = sub.Answers[c.question.ID]
	} else if s, ok := sub.Hidden[c.hidden]; ok {
		v = s
	}
	values := answerStrings(v)
	switch c.op {
	case FilterEmpty:
		return len(values) == 0
	case FilterNotEmpty:
		return len(values) > 0
	}
	return slices.ContainsFunc(values, func(s string) bool { return c.compare(v, s) })
}

// compare applies c to one answered value: v as stored, s one of its texts.
func (c *filterCondition) compare(v any, s string) bool {
	switch k := c.kind(); {
	case k == truth:
		b, ok := v.(bool)
		return ok && b == c.truth
	case k == orderedText && c.op != FilterContains:
		return c.order(strings.Compare(s, c.text))
	case k == numeric || k == hiddenText && (c.op == FilterGreater || c.op == FilterLess):
		n, err := strconv.ParseFloat(s, 64)
		return err == nil && c.order(cmp.Compare(n, c.number))
	case c.op == FilterContains:
		return strings.Contains(strings.ToLower(s), c.text)
	}
	return strings.ToLower(s) == c.text
}

// order applies an ordering operator (or eq) to a comparison's result.
func (c *filterCondition) order(result int) bool {
	switch c.op {
	case FilterGreater:
		return result > 0
	case FilterLess:
		return result < 0
	}
	return result == 0
}

// ParseRange reads the from/to range of completion times that selects
// responses beside an AnswerFilter: from is the first moment (an RFC 3339
// date-time, or a date YYYY-MM-DD for the start of that UTC day), to the last
// (a date-time, or a date for the whole of that UTC day), both inclusive; ""
// leaves a side open. It returns the start and the exclusive end (the moment
// after to: the next day, or the next millisecond, as times are stored), nil
// for an open side, or an Invalid *Error naming from or to.
func ParseRange(from, to string) (start, end *time.Time, err error) {
	if start, err = rangeBound("from", from, 0, 0); err != nil {
		return nil, nil, err
	}
	end, err = rangeBound("to", to, 24*time.Hour, time.Millisecond)
	return start, end, err
}

// rangeBound reads the bound of a range named name, moved forward by afterDate
// when it is a date and by afterTime when it is a date-time.
func rangeBound(name, v string, afterDate, afterTime time.Duration) (*time.Time, error) {
	if v == "" {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339, v)
	step := afterTime
	if err != nil {
		t, err = time.Parse(time.DateOnly, v)
		step = afterDate
	}
	if err != nil {
		return nil, FieldInvalid(name, "must be a date YYYY-MM-DD or an RFC 3339 date-time such as 2026-11-22T09:30:00Z")
	}
	t = t.Add(step)
	return &t, nil
}

// FilterCondition writes one condition of a filter parameter, field:op:value
// (without the value for empty and notempty), its value's commas and
// backslashes escaped so that it reads back as given.
func FilterCondition(field, op, value string) string {
	if op == FilterEmpty || op == FilterNotEmpty {
		return field + ":" + op
	}
	return field + ":" + op + ":" + strings.NewReplacer(`\`, `\\`, ",", `\,`).Replace(value)
}

// answerStrings is a stored answer as texts: one for a scalar, one per chosen
// option of a multi_select, none when unanswered.
func answerStrings(v any) []string {
	switch x := v.(type) {
	case string:
		if x == "" {
			return nil
		}
		return []string{x}
	case float64:
		return []string{strconv.FormatFloat(x, 'f', -1, 64)}
	case bool:
		return []string{strconv.FormatBool(x)}
	case []string:
		return x
	case []any:
		out := make([]string, 0, len(x))
		for _, item := range x {
			if s, ok := item.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}
