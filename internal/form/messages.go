package form

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
)

// The catalogue of validation messages: every problem a respondent's answer (or
// uploaded file) can have is said here once, twice over. Field is what the API
// says after the field name ("must be a valid email address"); Sentence is what a
// respondent reads on the form page ("This answer must be a valid email
// address."). CheckText's problems are here too: answers and an owner's text obey
// the same rule (the owner's errors carry only the Field text). Both take the same parameter values through {name} placeholders, so
// the server's page and the page script (which gets the sentences from the server,
// see respond's catalogue.js) render a problem the same way.

// MessageCode names an entry of the catalogue. Respondent endpoints send it as the
// `code` of each item of `fields`; it is stable, unlike the English text.
type MessageCode string

// The codes of the catalogue.
const (
	// MsgInvalid is the fallback: what a page says of a problem with no code.
	MsgInvalid MessageCode = "invalid"

	MsgRequired        MessageCode = "required"
	MsgUnknownQuestion MessageCode = "unknown_question"

	// The answers object as a whole.
	MsgTooManyAnswers  MessageCode = "too_many_answers"
	MsgAnswersTooLarge MessageCode = "answers_too_large"

	// ValidateAnswer and ParseFormValue.
	MsgMalformed       MessageCode = "malformed_json"
	MsgUnknownType     MessageCode = "unknown_type"
	MsgWrongKind       MessageCode = "wrong_kind"
	MsgNUL             MessageCode = "nul_character"
	MsgControl         MessageCode = "control_character"
	MsgLineBreak       MessageCode = "line_break"
	MsgInvisible       MessageCode = "invisible_only"
	MsgTextTooLong     MessageCode = "text_too_long"
	MsgTooLong         MessageCode = "too_long"
	MsgEmail           MessageCode = "email"
	MsgPhoneCharacters MessageCode = "phone_characters"
	MsgPhoneDigits     MessageCode = "phone_digits"
	MsgURLSpaces       MessageCode = "url_spaces"
	MsgURL             MessageCode = "url"
	MsgDateFormat      MessageCode = "date_format"
	MsgDateCalendar    MessageCode = "date_calendar"
	MsgTimeFormat      MessageCode = "time_format"
	MsgOption          MessageCode = "option"
	MsgOptionStrings   MessageCode = "option_strings"
	MsgOptionUnknown   MessageCode = "option_unknown"
	MsgOptionTwice     MessageCode = "option_twice"
	MsgUploadID        MessageCode = "upload_id"
	MsgFiniteNumber    MessageCode = "finite_number"
	MsgBetween         MessageCode = "between"
	MsgAtLeast         MessageCode = "at_least"
	MsgAtMost          MessageCode = "at_most"
	MsgSliderStep      MessageCode = "slider_step"
	MsgRating          MessageCode = "rating"
	MsgUploadAsFile    MessageCode = "upload_as_file"
	MsgSingleValue     MessageCode = "single_value"
	MsgNumber          MessageCode = "number"
	MsgYesNo           MessageCode = "yes_no"

	// Uploads.
	MsgUploadUnknown  MessageCode = "upload_unknown"
	MsgFileMultipart  MessageCode = "file_multipart"
	MsgFileMissing    MessageCode = "file_missing"
	MsgFileEmpty      MessageCode = "file_empty"
	MsgFileType       MessageCode = "file_type"
	MsgFileTooLarge   MessageCode = "file_too_large"
	MsgFileUnreadable MessageCode = "file_unreadable"
	MsgFileNotTaken   MessageCode = "file_not_taken"
	MsgUploadTaken    MessageCode = "upload_taken"
)

// Message is an entry of the catalogue.
type Message struct {
	// Field is what the API says, after the field name.
	Field string
	// Sentence is what a respondent reads on the form page.
	Sentence string
	// Params names the placeholders, in the order NewReason takes their values.
	Params []string
}

// catalogue holds every message. A {name} that is not a parameter is literal text.
var catalogue = map[MessageCode]Message{
	MsgInvalid:         {"is not valid", "This answer is not valid.", nil},
	MsgRequired:        {"is required", "Please answer this question.", nil},
	MsgUnknownQuestion: {"is not a question of this form", "This answer is to a question that is not in this form.", nil},

	MsgTooManyAnswers:  {"must have at most {max} entries, one per question of the form", "There are more answers than this form has questions. Please reload the page and try again.", []string{"max"}},
	MsgAnswersTooLarge: {"must be at most {max} KiB as JSON", "Your answers are too long to be saved together. Please shorten the longest ones.", []string{"max"}},

	MsgMalformed:       {"must be valid JSON", "This answer could not be read. Please enter it again.", nil},
	MsgUnknownType:     {"belongs to a question of unknown type {type}", "This question cannot be answered on this page.", []string{"type"}},
	MsgWrongKind:       {"must be {want}, not {got}", "This answer must be {want}, not {got}.", []string{"want", "got"}},
	MsgNUL:             {"must not contain NUL characters", "This answer must not contain NUL characters.", nil},
	MsgControl:         {"must not contain the control character {char}", "This answer must not contain the invisible control character {char}.", []string{"char"}},
	MsgLineBreak:       {"must be a single line (no line breaks)", "This answer must be a single line.", nil},
	MsgInvisible:       {"must contain visible characters, not only invisible or formatting ones", "This answer must contain visible characters.", nil},
	MsgTextTooLong:     {"must be at most {max} characters (got {length})", "This answer must be at most {max} characters (it has {length}).", []string{"max", "length"}},
	MsgTooLong:         {"must be at most {max} characters", "This answer must be at most {max} characters.", []string{"max"}},
	MsgEmail:           {"must be a valid email address", "This answer must be a valid email address.", nil},
	MsgPhoneCharacters: {"must be a phone number: digits, optionally with + ( ) - . and spaces", "This answer must be a phone number: digits, optionally with + ( ) - . and spaces.", nil},
	MsgPhoneDigits:     {"must have {min} to {max} digits", "This answer must have {min} to {max} digits.", []string{"min", "max"}},
	MsgURLSpaces:       {"must be a URL without spaces", "This answer must be a URL without spaces.", nil},
	MsgURL:             {"must be an http or https URL, such as https://example.com", "This answer must be an http or https URL, such as https://example.com.", nil},
	MsgDateFormat:      {"must be a date as YYYY-MM-DD", "This answer must be a date as YYYY-MM-DD.", nil},
	MsgDateCalendar:    {"must be a real calendar date ({date} is not)", "This answer must be a real calendar date ({date} is not).", []string{"date"}},
	MsgTimeFormat:      {"must be a time as HH:MM (24-hour, 00:00 to 23:59)", "This answer must be a time as HH:MM (24-hour, 00:00 to 23:59).", nil},
	MsgOption:          {"must be one of: {options}", "This answer must be one of: {options}.", []string{"options"}},
	MsgOptionStrings:   {"must be an array of strings", "This answer must be a list of the question's options.", nil},
	MsgOptionUnknown:   {"{choice} is not one of: {options}", "{choice} is not one of: {options}.", []string{"choice", "options"}},
	MsgOptionTwice:     {"must not list {choice} twice", "This answer must not list {choice} twice.", []string{"choice"}},
	MsgUploadID:        {"must be an upload id (as returned by the upload endpoint)", "The file of this answer was not uploaded properly. Please choose it again.", nil},
	MsgFiniteNumber:    {"must be a finite number", "This answer must be a finite number.", nil},
	MsgBetween:         {"must be between {min} and {max}", "This answer must be between {min} and {max}.", []string{"min", "max"}},
	MsgAtLeast:         {"must be at least {min}", "This answer must be at least {min}.", []string{"min"}},
	MsgAtMost:          {"must be at most {max}", "This answer must be at most {max}.", []string{"max"}},
	MsgSliderStep:      {"must be between {min} and {max} in steps of {step}", "This answer must be between {min} and {max} in steps of {step}.", []string{"min", "max", "step"}},
	MsgRating:          {"must be a whole number from {min} to {max}", "Please choose from {min} to {max} stars.", []string{"min", "max"}},
	MsgUploadAsFile:    {"must be uploaded as a file", "This answer must be uploaded as a file.", nil},
	MsgSingleValue:     {"must have a single value", "Please give only one answer.", nil},
	MsgNumber:          {"must be a number", "This answer must be a number.", nil},
	MsgYesNo:           {"must be yes or no", "This answer must be yes or no.", nil},

	MsgUploadUnknown:  {"names no file uploaded to this form; upload it with POST /f/{shareUrl}/uploads first", "The file of this answer was not found. Please choose it again.", nil},
	MsgFileMultipart:  {`send the file as multipart/form-data in the field "file"`, "The file could not be sent. Please try again.", nil},
	MsgFileMissing:    {"is required", "Please choose a file.", nil},
	MsgFileEmpty:      {"is empty", "This file is empty. Please choose another one.", nil},
	MsgFileType:       {"type {type} is not accepted; upload a PDF, an image (PNG, JPEG, GIF, WebP), plain text or an office document", "Files of type {type} are not accepted. Please upload a PDF, an image (PNG, JPEG, GIF, WebP), plain text or an office document.", []string{"type"}},
	MsgFileTooLarge:   {"larger than the {max} MiB limit", "This file is larger than the {max} MiB limit.", []string{"max"}},
	MsgFileUnreadable: {"could not be read: {reason}", "This file could not be read. Please try again.", []string{"reason"}},
	MsgFileNotTaken:   {"this form takes no files", "This form takes no files.", nil},
	MsgUploadTaken:    {"this file belongs to another submission", "This file belongs to another submission. Please choose it again.", nil},
}

// Catalogue returns a copy of the catalogue, keyed by code.
func Catalogue() map[MessageCode]Message {
	return maps.Clone(catalogue)
}

// Reason is a catalogued problem: its code and its parameter values. The zero
// Reason is no reason (uncatalogued), which a page says as MsgInvalid.
type Reason struct {
	Code   MessageCode       `json:"code,omitempty"`
	Params map[string]string `json:"params,omitempty"`
}

// NewReason returns the problem code with its parameter values, given in the order
// of the entry's Params. An unknown code or a wrong number of values is a
// programming error: it panics (the tests go through every use).
func NewReason(code MessageCode, values ...string) Reason {
	m, ok := catalogue[code]
	if !ok || len(values) != len(m.Params) {
		panic(fmt.Sprintf("form: message %q takes %d values, got %d (known: %v)", code, len(m.Params), len(values), ok))
	}
	r := Reason{Code: code}
	if len(values) > 0 {
		r.Params = make(map[string]string, len(values))
		for i, name := range m.Params {
			r.Params[name] = values[i]
		}
	}
	return r
}

// text is what the API says of r, after the field name.
func (r Reason) text() string {
	m, ok := catalogue[r.Code]
	if !ok {
		m = catalogue[MsgInvalid]
	}
	return fill(m.Field, r.Params)
}

// Sentence is what a respondent reads of r on the form page.
func (r Reason) Sentence() string {
	m, ok := catalogue[r.Code]
	if !ok {
		m = catalogue[MsgInvalid]
	}
	return fill(m.Sentence, r.Params)
}

// placeholder is a {name} in a message; the page script (messages.js) fills them
// with the same pattern, so both sides render the same text.
var placeholder = regexp.MustCompile(`\{(\w+)\}`)

// fill replaces each {name} of template that params has with its value, in one
// pass (a value is never filled in again).
func fill(template string, params map[string]string) string {
	if len(params) == 0 {
		return template
	}
	return placeholder.ReplaceAllStringFunc(template, func(m string) string {
		if v, ok := params[m[1:len(m)-1]]; ok {
			return v
		}
		return m
	})
}

// Refuse returns an error of the given code for a catalogued problem. With a
// field, its Message names the field ("file: is empty") and Fields holds it;
// without, Message is the problem alone, meant to follow a field name the caller
// knows (ValidateAnswer's errors).
func Refuse(code Code, field string, r Reason) *Error {
	msg := r.text()
	e := &Error{Code: code, Message: msg, Reason: r}
	if field != "" {
		e.Message = field + ": " + msg
		e.Fields = []FieldError{{Field: field, Message: msg, Reason: r}}
	}
	return e
}

// AddReason records that field has the catalogued problem r.
func (p *Problems) AddReason(field string, r Reason) {
	*p = append(*p, FieldError{Field: field, Message: r.text(), Reason: r})
}

// AddError records err's problem under field: its message, and its reason when
// it is a catalogued *Error.
func (p *Problems) AddError(field string, err error) {
	fe := FieldError{Field: field, Message: err.Error()}
	var e *Error
	if errors.As(err, &e) {
		fe.Message, fe.Reason = e.Message, e.Reason
	}
	*p = append(*p, fe)
}

// Sentence is what a respondent reads about err on a form page: the sentence of
// its reason, or of its first field's, or MsgInvalid's when it has neither.
func Sentence(err error) string {
	var e *Error
	if !errors.As(err, &e) {
		return Reason{}.Sentence()
	}
	if e.Reason.Code == "" && len(e.Fields) > 0 {
		return e.Fields[0].Sentence()
	}
	return e.Reason.Sentence()
}
