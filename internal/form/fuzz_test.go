package form

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
)

// FuzzDecodeStrict decodes any input into the bodies of POST /forms, PATCH
// /forms/{id}/fields/{fieldId} and respondent submissions. It must never panic;
// what it accepts must be valid UTF-8 JSON that a decoder strict by design (the
// JSON v2 experiment: no duplicate names, case-sensitive names, valid UTF-8, here
// with unknown members refused) also accepts, and that encoding/json decodes to the
// same value. Seeds: testdata/fuzz/FuzzDecodeStrict.
func FuzzDecodeStrict(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		checkAccepted(t, data, func() any { return new(FormInput) })
		checkAccepted(t, data, func() any { return new(QuestionPatch) })
		checkAccepted(t, data, func() any { return new(answersBody) })
	})
}

// checkAccepted checks the properties of FuzzDecodeStrict for a target that fresh
// returns a new pointer to.
func checkAccepted(t *testing.T, data []byte, fresh func() any) {
	strict := fresh()
	err := DecodeStrict(data, strict)
	if err != nil {
		return
	}
	if !utf8.Valid(data) || !json.Valid(data) {
		t.Fatalf("%T: accepted %q, which is not valid UTF-8 JSON", strict, data)
	}
	if err := jsonv2.Unmarshal(data, fresh(), jsonv2.RejectUnknownMembers(true)); err != nil {
		t.Fatalf("%T: accepted %q, which JSON v2 refuses: %v", strict, data, err)
	}
	plain := fresh()
	if err := json.Unmarshal(data, plain); err != nil || !reflect.DeepEqual(strict, plain) {
		t.Fatalf("%T: %q decodes strictly to %+v, but with encoding/json to %+v (%v)", strict, data, strict, plain, err)
	}
}

// FuzzValidateAnswer validates any raw answer to a question of every type. It must
// never panic, refuse only with an Invalid *Error, and an accepted answer, encoded
// again, must validate to the same value. Seeds: testdata/fuzz/FuzzValidateAnswer.
func FuzzValidateAnswer(f *testing.F) {
	f.Fuzz(func(t *testing.T, raw []byte) {
		for _, typ := range QuestionTypes {
			q := answerQuestions[typ]
			v, err := ValidateAnswer(q, raw)
			var e *Error
			if err != nil && (!errors.As(err, &e) || e.Code != Invalid) {
				t.Fatalf("%s %q: error %v is not an Invalid *Error", typ, raw, err)
			}
			if v == nil {
				continue
			}
			again, err := json.Marshal(v)
			if err != nil {
				t.Fatalf("%s %q: value %#v does not encode: %v", typ, raw, v, err)
			}
			if w, err := ValidateAnswer(q, again); err != nil || !reflect.DeepEqual(v, w) {
				t.Fatalf("%s %q: accepted as %#v, which validates again as %#v (%v)", typ, raw, v, w, err)
			}
		}
	})
}
