package form

import (
	"encoding/json"
	"errors"
	"io"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// answersBody is the body of respondent submissions and session saves.
type answersBody struct {
	Answers map[string]json.RawMessage `json:"answers"`
}

func TestDecodeStrictRefuses(t *testing.T) {
	q := func(s string) string { return `{"title":"T","questions":[` + s + `]}` }
	cases := []struct {
		name, body   string
		into         any
		field, fault string
	}{
		{"trailing brace", `{"title":"x"}}`, &FormInput{}, "body", "has data after the JSON value"},
		{"two values", `{"title":"a"} {"title":"b"}`, &FormInput{}, "body", "has data after the JSON value"},
		{"trailing garbage", `{"title":"x"} x`, &FormInput{}, "body", "has data after the JSON value"},
		{"duplicate key", `{"title":"a","title":"b"}`, &FormInput{}, "title", "appears more than once"},
		{"duplicate by escape", `{"title":"a","\u0074itle":"b"}`, &FormInput{}, "title", "appears more than once"},
		{"nested duplicate", q(`{"question":"a","question":"b"}`), &FormInput{}, "questions[0].question", "appears more than once"},
		{"duplicate in config", q(`{"question":"Q","sliderConfig":{"min":0,"min":1}}`), &FormInput{}, "questions[0].sliderConfig.min", "appears more than once"},
		{"duplicate answer", `{"answers":{"1":"a","1":"b"}}`, &answersBody{}, "answers.1", "appears more than once"},
		{"duplicate inside an answer", `{"answers":{"1":[{"a":1,"a":2}]}}`, &answersBody{}, "answers.1[0].a", "appears more than once"},
		{"capitalised key", `{"Title":"x"}`, &FormInput{}, "Title", "is not a known field"},
		{"upper-case key", `{"TITLE":"x"}`, &FormInput{}, "TITLE", "is not a known field"},
		{"case variant nested", q(`{"Question":"Q"}`), &FormInput{}, "questions[0].Question", "is not a known field"},
		{"case variant of answers", `{"Answers":{}}`, &answersBody{}, "Answers", "is not a known field"},
		{"nested unknown", q(`{"question":"Q","id":3}`), &FormInput{}, "questions[0].id", "is not a known field"},
		{"unknown in config", q(`{"question":"Q","currencyConfig":{"currency":"USD","foo":1}}`), &FormInput{}, "questions[0].currencyConfig.foo", "is not a known field"},
		{"unknown in a patch value", `{"sliderConfig":{"min":0,"Max":1}}`, &QuestionPatch{}, "sliderConfig.Max", "is not a known field"},
		{"unknown in logic", `{"conditionalLogic":{"showIf":{"questionId":1,"op":"x"}}}`, &QuestionPatch{}, "conditionalLogic.showIf.op", "is not a known field"},
		{"invalid UTF-8 in a value", "{\"title\":\"a\xffb\"}", &FormInput{}, "title", "is not valid UTF-8"},
		{"invalid UTF-8 in a key", "{\"ti\xc3tle\":\"x\"}", &FormInput{}, "ti\uFFFDtle", "is not valid UTF-8"},
		{"invalid UTF-8 in an answer", "{\"answers\":{\"1\":[\"\xed\xa0\x80\"]}}", &answersBody{}, "answers.1[0]", "is not valid UTF-8"},
		{"lone high surrogate", `{"title":"\ud800"}`, &FormInput{}, "title", "is not valid UTF-8"},
		{"lone low surrogate", `{"answers":{"1":"x\udc00"}}`, &answersBody{}, "answers.1", "is not valid UTF-8"},
		{"reversed surrogates", `{"title":"\udc00\ud800"}`, &FormInput{}, "title", "is not valid UTF-8"},
		{"high surrogate then a letter", `{"title":"\ud800\u0041"}`, &FormInput{}, "title", "is not valid UTF-8"},
		{"invalid UTF-8 at the top", "\"\xff\"", new(string), "body", "is not valid UTF-8"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := DecodeStrict([]byte(c.body), c.into)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("DecodeStrict(%q) = %v, want a validation error", c.body, err)
			}
			if len(e.Fields) != 1 || e.Fields[0].Field != c.field || e.Fields[0].Message != c.fault {
				t.Errorf("DecodeStrict(%q) = %+v, want %s: %s", c.body, e.Fields, c.field, c.fault)
			}
		})
	}
}

func TestDecodeStrictAccepts(t *testing.T) {
	cases := []struct {
		body string
		into any
	}{
		{`{"title":"T","questions":[{"question":"Q","type":"slider","sliderConfig":{"min":0,"max":1,"step":1}}]}`, &FormInput{}},
		{` {"title":"\ud83d\ude00 caf\u00e9 ✓"} ` + "\n", &FormInput{}},
		{`{"title":"back\\u0000slash \\ud800"}`, &FormInput{}}, // escaped backslashes, not escapes
		{`{"answers":{"1":{"Title":1,"title":2},"2":[1e400,"x"],"3":null}}`, &answersBody{}},
		{`{"conditionalLogic":{"advanced":{"conditionGroups":[],"actions":[{"type":"end_form","value":{"A":1,"a":1}}],"scoreRules":[{"id":"r","questionId":1,"scoreMap":{"Yes":1,"yes":2}}]}}}`, &QuestionPatch{}},
		{`{"question":null,"order":2}`, &QuestionPatch{}},
	}
	for _, c := range cases {
		if err := DecodeStrict([]byte(c.body), c.into); err != nil {
			t.Errorf("DecodeStrict(%q) = %v", c.body, err)
		}
	}
}

func TestDecodeStrictBoundsNesting(t *testing.T) {
	deep := strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1)
	err := DecodeStrict([]byte(`{"answers":{"1":`+deep+`}}`), &answersBody{})
	var e *Error
	if !errors.As(err, &e) || !strings.HasPrefix(e.Message, "answers.1[0][0]") || !strings.HasSuffix(e.Message, "is nested more than 10000 levels deep") {
		t.Errorf("DecodeStrict of %d nested arrays = %v", maxDepth+1, err)
	}
}

// TestDecodeStrictLeavesTypeErrors checks that malformed JSON and values of the
// wrong type remain encoding/json's errors, which httpx describes.
func TestDecodeStrictLeavesTypeErrors(t *testing.T) {
	var syntax *json.SyntaxError
	for _, truncated := range []string{``, `{"title":`, `{"title":"x"`, `[1,`} {
		if err := DecodeStrict([]byte(truncated), &FormInput{}); !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("truncated JSON %q: %v, want io.ErrUnexpectedEOF", truncated, err)
		}
	}
	if err := DecodeStrict([]byte(`{"title" 1}`), &FormInput{}); !errors.As(err, &syntax) {
		t.Errorf("malformed JSON: %v, want a syntax error", err)
	}
	var typ *json.UnmarshalTypeError
	if err := DecodeStrict([]byte(`{"title":1}`), &FormInput{}); !errors.As(err, &typ) {
		t.Errorf("wrong type: %v, want a type error", err)
	}
}

func TestStructFieldsFollowEncodingJSON(t *testing.T) {
	type inner struct {
		Promoted string `json:"promoted"`
	}
	type outer struct {
		inner
		Named    int `json:"named,omitempty"`
		Plain    int
		Skipped  int `json:"-"`
		Dash     int `json:"-,"`
		private  int
		Embedded *SliderConfig `json:"embedded"`
	}
	names := slices.Sorted(maps.Keys(structFields(reflect.TypeFor[outer]())))
	if want := []string{"-", "Plain", "embedded", "named", "promoted"}; !slices.Equal(names, want) {
		t.Errorf("fields %v, want %v", names, want)
	}
}

// BenchmarkDecodeStrictAnswers decodes the body of BenchmarkSubmitJSON (respond).
func BenchmarkDecodeStrictAnswers(b *testing.B) {
	body := []byte(`{"answers":{"1":"Ana","2":"ana@example.com","3":"+1 555 123 4567","4":42,"5":"2026-11-22",
		"6":5,"7":true,"8":"Pro","9":["a","c"],"10":"Great service, would use again."}}`)
	b.ReportAllocs()
	for b.Loop() {
		var v answersBody
		if err := DecodeStrict(body, &v); err != nil {
			b.Fatal(err)
		}
	}
}
