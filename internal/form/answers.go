package form

import (
	"bytes"
	"encoding/json"
	"math"
	"net/mail"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Limits on answers.
const (
	MaxTextAnswerLen     = 1000  // characters of a text answer
	MaxTextareaAnswerLen = 10000 // characters of a textarea answer
	MaxEmailAnswerLen    = 254   // characters of an email answer
	MaxURLAnswerLen      = 2000  // characters of a url answer
	MaxPhoneAnswerLen    = 40    // characters of a phone answer, separators included
	MaxUploadIDLen       = 64    // characters of an upload id
	MinPhoneDigits       = 7     // digits of the shortest phone number
	MaxPhoneDigits       = 15    // digits of the longest phone number (E.164)
	MinRating            = 1     // lowest rating
	MaxRating            = 5     // highest rating
)

var (
	datePattern     = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	timePattern     = regexp.MustCompile(`^([01]\d|2[0-3]):[0-5]\d$`)
	uploadIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
	decimalPattern  = regexp.MustCompile(`^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$`)
)

// answerChecker validates the raw JSON answer to q (never null or empty).
type answerChecker func(q *Question, raw json.RawMessage) (any, error)

// answerCheckers holds the checker of every question type.
var answerCheckers = map[QuestionType]answerChecker{
	Text:        stringAnswer(false, checkText),
	Textarea:    stringAnswer(false, checkText),
	Email:       stringAnswer(true, checkEmail),
	Phone:       stringAnswer(true, checkPhone),
	URL:         stringAnswer(true, checkURL),
	Date:        stringAnswer(true, checkDate),
	Time:        stringAnswer(true, checkTime),
	Select:      stringAnswer(false, checkSelect),
	FileUpload:  uploadAnswer,
	Number:      numberAnswer(func(*Question, float64) error { return nil }),
	Currency:    numberAnswer(checkCurrency),
	Slider:      numberAnswer(checkSlider),
	Rating:      numberAnswer(checkRating),
	YesNo:       boolAnswer,
	MultiSelect: multiSelectAnswer,
}

// ValidateAnswer validates one raw JSON answer to q and returns the value to store:
// a string for text, textarea, email, phone, url, date, time and select (and the
// upload id of a file_upload); a float64 for number, currency, slider and rating; a
// bool for yes_no; a []string in option order for multi_select. It returns
// (nil, nil) when the answer counts as unanswered: absent, null, a blank string or
// an empty array. An error is an Invalid *Error whose Message says what is wrong,
// meant to follow the field name ("must be a valid email address").
func ValidateAnswer(q *Question, raw json.RawMessage) (any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if !json.Valid(raw) {
		return nil, invalidAnswer(MsgMalformed)
	}
	check, ok := answerCheckers[q.Type]
	if !ok {
		return nil, invalidAnswer(MsgUnknownType, strconv.Quote(string(q.Type)))
	}
	return check(q, raw)
}

// invalidAnswer returns the error of an invalid answer: the catalogued problem
// code with its parameter values.
func invalidAnswer(code MessageCode, values ...string) error {
	return Refuse(Invalid, "", NewReason(code, values...))
}

// wrongKind is the error of a JSON value of the wrong kind.
func wrongKind(want string, raw json.RawMessage) error {
	names := map[string]string{"string": "a string", "number": "a number", "bool": "true or false",
		"array": "an array", "object": "an object"}
	return invalidAnswer(MsgWrongKind, want, names[jsonKind(raw)])
}

// stringAnswer returns a checker of JSON string answers: blank strings are
// unanswered, trim removes surrounding white space before check.
func stringAnswer(trim bool, check func(q *Question, s string) error) answerChecker {
	return func(q *Question, raw json.RawMessage) (any, error) {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil, wrongKind("a string", raw)
		}
		if strings.TrimSpace(s) == "" {
			return nil, nil
		}
		if trim {
			s = strings.TrimSpace(s)
		}
		if r, ok := CheckText(s, MultiLine); !ok {
			return nil, Refuse(Invalid, "", r)
		}
		if err := check(q, s); err != nil {
			return nil, err
		}
		return s, nil
	}
}

func checkText(q *Question, s string) error {
	limit := MaxTextAnswerLen
	if q.Type == Textarea {
		limit = MaxTextareaAnswerLen
	}
	if n := utf8.RuneCountInString(s); n > limit {
		return invalidAnswer(MsgTextTooLong, strconv.Itoa(limit), strconv.Itoa(n))
	}
	return nil
}

// checkEmail accepts a bare address (no display name, comment or angle brackets)
// whose domain is a dotted host name.
func checkEmail(_ *Question, s string) error {
	if len(s) > MaxEmailAnswerLen {
		return invalidAnswer(MsgTooLong, strconv.Itoa(MaxEmailAnswerLen))
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Name != "" || a.Address != s || !hostName(s[strings.LastIndexByte(s, '@')+1:]) {
		return invalidAnswer(MsgEmail)
	}
	return nil
}

// hostName reports whether domain is a dotted host name: two or more labels of
// letters (any script), digits and inner hyphens.
func hostName(domain string) bool {
	labels := strings.Split(domain, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		if strings.IndexFunc(l, func(r rune) bool { return r != '-' && !unicode.IsLetter(r) && !unicode.IsDigit(r) }) >= 0 {
			return false
		}
	}
	return true
}

// checkPhone accepts digits with the separators + ( ) - . and spaces.
func checkPhone(_ *Question, s string) error {
	if len(s) > MaxPhoneAnswerLen {
		return invalidAnswer(MsgTooLong, strconv.Itoa(MaxPhoneAnswerLen))
	}
	digits := 0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case !strings.ContainsRune("+ -.()", r):
			return invalidAnswer(MsgPhoneCharacters)
		}
	}
	if digits < MinPhoneDigits || digits > MaxPhoneDigits {
		return invalidAnswer(MsgPhoneDigits, strconv.Itoa(MinPhoneDigits), strconv.Itoa(MaxPhoneDigits))
	}
	return nil
}

// checkURL accepts an absolute http or https URL with a host and no white space.
func checkURL(_ *Question, s string) error {
	if n := utf8.RuneCountInString(s); n > MaxURLAnswerLen {
		return invalidAnswer(MsgTooLong, strconv.Itoa(MaxURLAnswerLen))
	}
	if strings.IndexFunc(s, unicode.IsSpace) >= 0 {
		return invalidAnswer(MsgURLSpaces)
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return invalidAnswer(MsgURL)
	}
	return nil
}

func checkDate(_ *Question, s string) error {
	if !datePattern.MatchString(s) {
		return invalidAnswer(MsgDateFormat)
	}
	if _, err := time.Parse(time.DateOnly, s); err != nil {
		return invalidAnswer(MsgDateCalendar, s)
	}
	return nil
}

func checkTime(_ *Question, s string) error {
	if !timePattern.MatchString(s) {
		return invalidAnswer(MsgTimeFormat)
	}
	return nil
}

func checkSelect(q *Question, s string) error {
	if !slices.Contains(q.Options, s) {
		return invalidAnswer(MsgOption, optionList(q.Options))
	}
	return nil
}

// optionList names the options in a message, or describes them when they are too
// many or too long to list.
func optionList(options []string) string {
	joined := strings.Join(options, ", ")
	if len(options) > 10 || utf8.RuneCountInString(joined) > 200 {
		return "the question's options"
	}
	return joined
}

// uploadAnswer accepts an upload id; whether the upload exists is checked by the
// caller.
func uploadAnswer(_ *Question, raw json.RawMessage) (any, error) {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return nil, wrongKind("an upload id (a string)", raw)
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	if !uploadIDPattern.MatchString(s) {
		return nil, invalidAnswer(MsgUploadID)
	}
	return s, nil
}

// numberAnswer returns a checker of JSON number answers.
func numberAnswer(check func(q *Question, f float64) error) answerChecker {
	return func(q *Question, raw json.RawMessage) (any, error) {
		if jsonKind(raw) != "number" {
			return nil, wrongKind("a number", raw)
		}
		var f float64
		if json.Unmarshal(raw, &f) != nil || !finite(f) {
			return nil, invalidAnswer(MsgFiniteNumber)
		}
		if err := check(q, f); err != nil {
			return nil, err
		}
		return f, nil
	}
}

func checkCurrency(q *Question, f float64) error {
	c := q.Currency
	if c == nil {
		return nil
	}
	switch {
	case c.Min != nil && c.Max != nil && (f < *c.Min || f > *c.Max):
		return invalidAnswer(MsgBetween, formatNum(*c.Min), formatNum(*c.Max))
	case c.Min != nil && f < *c.Min:
		return invalidAnswer(MsgAtLeast, formatNum(*c.Min))
	case c.Max != nil && f > *c.Max:
		return invalidAnswer(MsgAtMost, formatNum(*c.Max))
	}
	return nil
}

// checkSlider accepts min, max and the values min + k*step between them, with a
// tolerance for floating-point error (0.1 + 0.2 is on a 0.1 step).
func checkSlider(q *Question, f float64) error {
	s := q.Slider
	if s == nil || s.Step <= 0 {
		return nil
	}
	tolerance := s.Step * 1e-9
	k := (f - s.Min) / s.Step
	onStep := math.Abs(k-math.Round(k)) <= 1e-9*math.Max(1, math.Abs(k))
	if f < s.Min-tolerance || f > s.Max+tolerance || !onStep {
		return invalidAnswer(MsgSliderStep, formatNum(s.Min), formatNum(s.Max), formatNum(s.Step))
	}
	return nil
}

func checkRating(_ *Question, f float64) error {
	if f != math.Trunc(f) || f < MinRating || f > MaxRating {
		return invalidAnswer(MsgRating, strconv.Itoa(MinRating), strconv.Itoa(MaxRating))
	}
	return nil
}

// formatNum prints f for a message: 0.5, 10, 1500000 (1e+21 when huge).
func formatNum(f float64) string {
	if math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func boolAnswer(_ *Question, raw json.RawMessage) (any, error) {
	var b bool
	if json.Unmarshal(raw, &b) != nil {
		return nil, wrongKind("true or false", raw)
	}
	return b, nil
}

// multiSelectAnswer accepts an array of distinct options and returns them in the
// order of the question's options; an empty array is unanswered.
func multiSelectAnswer(q *Question, raw json.RawMessage) (any, error) {
	var items []any
	if jsonKind(raw) != "array" || json.Unmarshal(raw, &items) != nil {
		return nil, wrongKind("an array of options", raw)
	}
	if len(items) == 0 {
		return nil, nil
	}
	chosen := make(map[string]bool, len(items))
	for _, item := range items {
		s, ok := item.(string)
		switch {
		case !ok:
			return nil, invalidAnswer(MsgOptionStrings)
		case !slices.Contains(q.Options, s):
			return nil, invalidAnswer(MsgOptionUnknown, quoteShort(s), optionList(q.Options))
		case chosen[s]:
			return nil, invalidAnswer(MsgOptionTwice, quoteShort(s))
		}
		chosen[s] = true
	}
	out := make([]string, 0, len(chosen))
	for _, o := range q.Options {
		if chosen[o] {
			out = append(out, o)
		}
	}
	return out, nil
}

// quoteShort quotes s for a message, cut to 50 characters.
func quoteShort(s string) string {
	if utf8.RuneCountInString(s) > 50 {
		s = string([]rune(s)[:50]) + "…"
	}
	return strconv.Quote(s)
}

// ParseFormValue converts the strings an HTML form posted for q (url-encoded or
// multipart) into the JSON answer that ValidateAnswer takes: null when nothing
// but empty strings was posted; an array of the non-empty values for
// multi_select; a number for number, currency, slider and rating; a boolean for
// yes_no (true, yes, on, 1 / false, no, off, 0, in any case); a string otherwise
// (text and textarea with CRLF line breaks turned into LF). Several different
// non-empty values for a single-value question are an error. File uploads are not
// form values: the caller stores the file and answers with its upload id, and
// ParseFormValue returns an error for a file_upload question.
func ParseFormValue(q *Question, values []string) (json.RawMessage, error) {
	switch {
	case q.Type == FileUpload:
		return nil, invalidAnswer(MsgUploadAsFile)
	case !q.Type.Valid():
		return nil, invalidAnswer(MsgUnknownType, strconv.Quote(string(q.Type)))
	case q.Type == MultiSelect:
		return multiFormValue(values)
	}
	v, err := singleFormValue(values)
	if err != nil {
		return nil, err
	}
	if v == "" {
		return json.RawMessage("null"), nil
	}
	return convertFormValue(q.Type, v)
}

// singleFormValue returns the one non-blank value posted ("" when there is none).
func singleFormValue(values []string) (string, error) {
	var v string
	for _, s := range values {
		if strings.TrimSpace(s) == "" || s == v {
			continue
		}
		if v != "" {
			return "", invalidAnswer(MsgSingleValue)
		}
		v = s
	}
	return v, nil
}

func multiFormValue(values []string) (json.RawMessage, error) {
	items := []string{}
	for _, s := range values {
		if strings.TrimSpace(s) != "" {
			items = append(items, s)
		}
	}
	if len(items) == 0 {
		return json.RawMessage("null"), nil
	}
	return json.Marshal(items)
}

// convertFormValue converts a non-blank posted value for a question of type t.
func convertFormValue(t QuestionType, v string) (json.RawMessage, error) {
	switch t {
	case Number, Currency, Slider, Rating:
		return formNumber(strings.TrimSpace(v))
	case YesNo:
		return formBool(strings.TrimSpace(v))
	case Text, Textarea:
		v = strings.ReplaceAll(v, "\r\n", "\n")
	}
	return json.Marshal(v)
}

func formNumber(v string) (json.RawMessage, error) {
	f, err := strconv.ParseFloat(v, 64)
	if !decimalPattern.MatchString(v) || err != nil {
		return nil, invalidAnswer(MsgNumber)
	}
	return json.Marshal(f)
}

func formBool(v string) (json.RawMessage, error) {
	switch strings.ToLower(v) {
	case "true", "yes", "on", "1":
		return json.RawMessage("true"), nil
	case "false", "no", "off", "0":
		return json.RawMessage("false"), nil
	}
	return nil, invalidAnswer(MsgYesNo)
}
