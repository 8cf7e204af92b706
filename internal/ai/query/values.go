package query

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"forma/internal/form"
)

// kind is how the engine treats the answers of a question type.
type kind int

const (
	kindText   kind = iota // text, textarea, email, phone, url, select, file_upload
	kindNumber             // number, currency, slider, rating
	kindBool               // yes_no
	kindMulti              // multi_select
	kindDate               // date "YYYY-MM-DD"
	kindTime               // time "HH:MM"
)

// kindOf returns the kind of a question type.
func kindOf(t form.QuestionType) kind {
	switch t {
	case form.Number, form.Currency, form.Slider, form.Rating:
		return kindNumber
	case form.YesNo:
		return kindBool
	case form.MultiSelect:
		return kindMulti
	case form.Date:
		return kindDate
	case form.Time:
		return kindTime
	}
	return kindText
}

// isFreeText reports whether answers of t are free text that sentiment applies to.
func isFreeText(t form.QuestionType) bool { return t == form.Text || t == form.Textarea }

// asNumber converts a stored or query value to a number.
func asNumber(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case float32:
		return float64(n), true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(n), 64)
		return f, err == nil
	}
	return 0, false
}

// asBool converts a stored or query value to a boolean; "yes"/"no" and
// "true"/"false" strings count.
func asBool(v any) (bool, bool) {
	switch b := v.(type) {
	case bool:
		return b, true
	case string:
		switch strings.ToLower(strings.TrimSpace(b)) {
		case "yes", "true", "y":
			return true, true
		case "no", "false", "n":
			return false, true
		}
	}
	return false, false
}

// asStrings returns the options chosen in a multi_select answer ([]any of strings
// after a JSON round trip, or []string); a plain string counts as one option.
func asStrings(v any) []string {
	switch s := v.(type) {
	case []string:
		return s
	case []any:
		out := make([]string, 0, len(s))
		for _, x := range s {
			if str, ok := x.(string); ok {
				out = append(out, str)
			}
		}
		return out
	case string:
		if strings.TrimSpace(s) != "" {
			return []string{s}
		}
	}
	return nil
}

// answered reports whether v is an answer: not nil, not a blank string, not an
// empty selection.
func answered(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case string:
		return strings.TrimSpace(x) != ""
	case []any:
		return len(x) > 0
	case []string:
		return len(x) > 0
	}
	return true
}

// asText renders an answer as text: strings as they are, numbers formatted,
// booleans as Yes/No, selections joined with ", ".
func asText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case bool:
		return yesNo(x)
	case []any, []string:
		return strings.Join(asStrings(x), ", ")
	}
	if n, ok := asNumber(v); ok {
		return Format(n)
	}
	return fmt.Sprint(v)
}

// yesNo names a boolean answer.
func yesNo(b bool) string {
	if b {
		return "Yes"
	}
	return "No"
}

// Layouts of date and time answers.
const (
	dateLayout = "2006-01-02"
	timeLayout = "15:04"
)

// asDate validates a "YYYY-MM-DD" value.
func asDate(v any) (string, bool) {
	s, ok := v.(string)
	if !ok {
		return "", false
	}
	s = strings.TrimSpace(s)
	_, err := time.Parse(dateLayout, s)
	return s, err == nil
}

// asClock validates an "HH:MM" value.
func asClock(v any) (string, bool) {
	s, ok := v.(string)
	if !ok {
		return "", false
	}
	s = strings.TrimSpace(s)
	_, err := time.Parse(timeLayout, s)
	return s, err == nil
}

// instant is a point in time, or a whole UTC day when day is set.
type instant struct {
	at  time.Time
	day bool
}

// asInstant parses an RFC 3339 time or a "YYYY-MM-DD" day.
func asInstant(v any) (instant, bool) {
	s, ok := v.(string)
	if !ok {
		return instant{}, false
	}
	s = strings.TrimSpace(s)
	if d, err := time.Parse(dateLayout, s); err == nil {
		return instant{at: d, day: true}, true
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return instant{at: t}, true
	}
	return instant{}, false
}

// end returns the first moment after the instant: the next day for a whole day.
func (i instant) end() time.Time {
	if i.day {
		return i.at.AddDate(0, 0, 1)
	}
	return i.at.Add(time.Nanosecond)
}
