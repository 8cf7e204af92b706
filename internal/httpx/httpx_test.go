package httpx

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"forma/internal/form"
)

// chunked makes a request body of unknown length, as a chunked upload has.
type chunked struct{ io.Reader }

func TestRequireEmptyBody(t *testing.T) {
	cases := []struct {
		name string
		body io.Reader
		want form.Code // "" when the body passes
	}{
		{"no body", nil, ""},
		{"empty", strings.NewReader(""), ""},
		{"empty, chunked", chunked{strings.NewReader("")}, ""},
		{"a space", strings.NewReader(" "), form.Invalid},
		{"an object, chunked", chunked{strings.NewReader("{}")}, form.Invalid},
		{"malformed", strings.NewReader(`{"a":`), form.Invalid},
		{"over the limit, chunked", chunked{strings.NewReader(strings.Repeat("x", MaxBodyBytes+1))}, form.TooLarge},
	}
	for _, c := range cases {
		r := httptest.NewRequest("POST", "/forms/1/publish", c.body)
		err := RequireEmptyBody(httptest.NewRecorder(), r)
		if got := form.ErrorCode(err); (c.want == "" && err != nil) || (c.want != "" && got != c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// TestDecodeErrorsNameTheField checks that the strict decoder's errors reach the
// client as they are, and encoding/json's are described.
func TestDecodeErrorsNameTheField(t *testing.T) {
	cases := []struct{ body, message string }{
		{`{"title":"x"}}`, "body: has data after the JSON value"},
		{`{"title":"a","title":"b"}`, "title: appears more than once"},
		{`{"Title":"x"}`, "Title: is not a known field"},
		{`{"title":`, "body: malformed JSON (unexpected end)"},
		{`{"title" 1}`, "body: malformed JSON at byte 9"},
		{`{"title":1}`, "title: must be a string, not number"},
	}
	for _, c := range cases {
		r := httptest.NewRequest("POST", "/forms", strings.NewReader(c.body))
		r.Header.Set("Content-Type", "application/json")
		var in form.FormInput
		err := DecodeJSON(httptest.NewRecorder(), r, &in)
		if e, ok := err.(*form.Error); !ok || e.Message != c.message {
			t.Errorf("%s: %v, want %q", c.body, err, c.message)
		}
	}
}
