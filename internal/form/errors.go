package form

import (
	"errors"
	"fmt"
)

// Code classifies an Error; the HTTP layer maps each code to one status and one
// wire error string.
type Code string

// The error codes of the domain.
const (
	Invalid             Code = "invalid"
	NotFound            Code = "not_found"
	Forbidden           Code = "forbidden"
	Conflict            Code = "conflict"
	AlreadyCompleted    Code = "already_completed"
	Closed              Code = "form_closed"
	Unauthorized        Code = "unauthorized"
	RateLimited         Code = "rate_limited"
	InsufficientCredits Code = "insufficient_credits"
	TooLarge            Code = "payload_too_large"
	ProviderFailed      Code = "ai_provider_error"
	Internal            Code = "internal"
)

// FieldError names one invalid field of a request and says what is wrong with it.
// A catalogued problem (messages.go) also carries its Reason: respondent endpoints
// send its code and params, from which a page picks the respondent's sentence. No
// /api/v1 error is catalogued, so their bodies stay {field, message}.
type FieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
	Reason
}

// Error is the one error type of the domain: a code, a message that is safe to show
// to the caller, and the fields it concerns.
type Error struct {
	Code    Code
	Message string
	Fields  []FieldError
	// Extra holds additional body fields where the contract defines them (429).
	Extra map[string]any
	// Reason is the catalogued problem Message says, when it is one (Refuse).
	Reason Reason
}

// Error implements the error interface.
func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// Errorf returns an Error with the given code and a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// FieldInvalid returns an Invalid error about one field; the message names the field.
func FieldInvalid(field, format string, args ...any) *Error {
	msg := fmt.Sprintf(format, args...)
	return &Error{Code: Invalid, Message: field + ": " + msg, Fields: []FieldError{{Field: field, Message: msg}}}
}

// ErrorCode returns the code of err, or Internal when err is not an *Error.
func ErrorCode(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return Internal
}

// Problems collects field errors during validation of one request.
type Problems []FieldError

// Add records that field is invalid.
func (p *Problems) Add(field, format string, args ...any) {
	*p = append(*p, FieldError{Field: field, Message: fmt.Sprintf(format, args...)})
}

// MaxListedFields bounds the fields one error lists: a request that is wrong in
// many places (such as thousands of unknown answer keys) must not get an answer
// larger than itself. No real form page has that many problems at once.
const MaxListedFields = 20

// Err returns nil when nothing was recorded, else an Invalid error that names the
// first field in its message, says how many more there are, and lists the first
// MaxListedFields.
func (p Problems) Err() error {
	if len(p) == 0 {
		return nil
	}
	msg := p[0].Field + ": " + p[0].Message
	if len(p) > 1 {
		msg += fmt.Sprintf(" (and %d more)", len(p)-1)
	}
	return &Error{Code: Invalid, Message: msg, Fields: p[:min(len(p), MaxListedFields)]}
}
