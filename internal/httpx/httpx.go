// Package httpx is the HTTP plumbing every handler shares: strict JSON decoding, the
// one error writer, request ids, request logs, panic recovery and security headers.
package httpx

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"forma/internal/form"
)

// MaxBodyBytes is the largest JSON request body accepted.
const MaxBodyBytes = 1 << 20

// status maps each domain error code to its HTTP status and wire error string.
var status = map[form.Code]struct {
	code int
	wire string
}{
	form.Invalid:             {http.StatusBadRequest, "validation_error"},
	form.Unauthorized:        {http.StatusUnauthorized, "unauthorized"},
	form.InsufficientCredits: {http.StatusPaymentRequired, "insufficient_credits"},
	form.Forbidden:           {http.StatusForbidden, "forbidden"},
	form.NotFound:            {http.StatusNotFound, "not_found"},
	form.Conflict:            {http.StatusConflict, "conflict"},
	form.AlreadyCompleted:    {http.StatusConflict, "already_completed"},
	form.Closed:              {http.StatusGone, "form_closed"},
	form.TooLarge:            {http.StatusRequestEntityTooLarge, "payload_too_large"},
	form.RateLimited:         {http.StatusTooManyRequests, "rate_limit_exceeded"},
	form.ProviderFailed:      {http.StatusBadGateway, "ai_provider_error"},
}

// WriteJSON writes v as a JSON response with the given status. A value that
// cannot be encoded (a programming error) leaves the body empty.
func WriteJSON(w http.ResponseWriter, code int, v any) {
	body, _ := EncodeJSON(v)
	WriteRawJSON(w, code, body)
}

// EncodeJSON encodes v as WriteJSON sends it, for a body that is encoded once
// and sent many times with WriteRawJSON.
func EncodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(true)
	err := enc.Encode(v)
	return buf.Bytes(), err
}

// WriteRawJSON writes body, JSON that EncodeJSON made, as a response with the
// given status.
func WriteRawJSON(w http.ResponseWriter, code int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(code)
	_, _ = w.Write(body)
}

// WriteError writes err as `{error, message}` (plus `fields` for validation errors and
// any extra fields the error carries) with the status of its code. Errors that are
// not domain errors are logged with the request id and answered 500 with no details.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	var e *form.Error
	if !errors.As(err, &e) || e.Code == form.Internal {
		LogError(r.Context(), "request failed", err)
		writeProblem(w, http.StatusInternalServerError, "internal_error", "An unexpected error occurred; it has been logged. Request id: "+RequestID(r.Context()), nil)
		return
	}
	s, ok := status[e.Code]
	if !ok {
		s.code, s.wire = http.StatusInternalServerError, "internal_error"
	}
	body := map[string]any{}
	for k, v := range e.Extra {
		body[k] = v
	}
	if len(e.Fields) > 0 {
		body["fields"] = e.Fields
	}
	writeProblem(w, s.code, s.wire, e.Message, body)
}

// LogError logs an unexpected error with the request id, to the logger the
// request is served with (Observe). WriteError logs through it; handlers call it
// for errors that do not change the response, or that they answer themselves
// (the public pages answer with HTML).
func LogError(ctx context.Context, what string, err error) {
	logger(ctx).ErrorContext(ctx, what, "err", err, "request_id", RequestID(ctx))
}

// WriteProblem writes an error body for a status that has no domain code (404 for an
// unknown route, 405).
func WriteProblem(w http.ResponseWriter, code int, wire, message string) {
	writeProblem(w, code, wire, message, nil)
}

func writeProblem(w http.ResponseWriter, code int, wire, message string, extra map[string]any) {
	body := map[string]any{"error": wire, "message": message}
	for k, v := range extra {
		body[k] = v
	}
	WriteJSON(w, code, body)
}

// DecodeJSON reads the request body into v strictly (form.DecodeStrict): the
// Content-Type must be application/json, the body at most MaxBodyBytes (else a
// TooLarge error); unknown, case-variant and duplicate keys, invalid UTF-8 and
// trailing data are refused, and every error names the offending field.
func DecodeJSON(w http.ResponseWriter, r *http.Request, v any) error {
	if err := requireJSON(r); err != nil {
		return err
	}
	body, err := readBody(w, r)
	if err != nil {
		return err
	}
	return DecodeBytes(body, v)
}

// DecodeBytes decodes the JSON in b into v as DecodeJSON decodes a request
// body, for JSON that comes another way (an uploaded file): strictly, every
// error naming the offending field, "body" for the whole.
func DecodeBytes(b []byte, v any) error {
	if len(strings.TrimSpace(string(b))) == 0 {
		return form.FieldInvalid("body", "is required (a JSON object)")
	}
	if err := form.DecodeStrict(b, v); err != nil {
		return describeDecodeError(err)
	}
	return nil
}

// RequireEmptyBody refuses a request body on an operation that takes none: a
// TooLarge error over MaxBodyBytes, else an Invalid error naming body when it has
// any byte. A request without a body, or with an empty one, passes whatever its
// Content-Type.
func RequireEmptyBody(w http.ResponseWriter, r *http.Request) error {
	body, err := readBody(w, r)
	if err == nil && len(body) > 0 {
		err = form.FieldInvalid("body", "must be empty: this operation takes no request body")
	}
	return err
}

// readBody reads the request body, at most MaxBodyBytes of it.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, form.Errorf(form.TooLarge, "request body exceeds %d bytes", MaxBodyBytes)
		}
		return nil, form.FieldInvalid("body", "could not be read")
	}
	return body, nil
}

func requireJSON(r *http.Request) error {
	ct := r.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if ct == "" || err != nil || mt != "application/json" {
		return form.FieldInvalid("Content-Type", "must be application/json")
	}
	return nil
}

// describeDecodeError turns encoding/json errors into validation errors that name
// the field and the expected type; the domain errors of form.DecodeStrict name
// theirs already.
func describeDecodeError(err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var domain *form.Error
	switch {
	case errors.As(err, &domain):
		return domain
	case errors.As(err, &syntax):
		return form.FieldInvalid("body", "malformed JSON at byte %d", syntax.Offset)
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "body"
		}
		return form.FieldInvalid(field, "must be %s, not %s", jsonType(typ.Type.Kind().String()), typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return form.FieldInvalid("body", "malformed JSON (unexpected end)")
	}
	return form.FieldInvalid("body", "%s", strings.TrimPrefix(err.Error(), "json: "))
}

func jsonType(kind string) string {
	switch {
	case kind == "string":
		return "a string"
	case kind == "bool":
		return "a boolean"
	case strings.HasPrefix(kind, "int"), strings.HasPrefix(kind, "uint"):
		return "an integer"
	case strings.HasPrefix(kind, "float"):
		return "a number"
	case kind == "slice", kind == "array":
		return "an array"
	case kind == "struct", kind == "map", kind == "ptr":
		return "an object"
	}
	return fmt.Sprintf("of type %s", kind)
}
