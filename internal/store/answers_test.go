package store

import (
	"encoding/json"
	"reflect"
	"testing"
)

// answersCases are stored answers as the store writes them, and odd ones it
// must read as json.Unmarshal does.
var answersCases = []string{
	`{}`, `null`, ` { } `, `{"1":"Pro","2":4,"3":true,"4":false,"5":null}`,
	`{"7":["Reports","API"],"8":[],"9":[1,"a",true,null]}`,
	`{"10":-0.5,"11":1e3,"12":2.5E-2,"13":0,"14":123456789012345678901234567890}`,
	`{"1":"caf\u00e9","2":"tab\there","3":"a \"quote\""}`, `{"1":"héllo 👍"}`,
	`{"1":{"name":"a.pdf","size":3}}`, `{"1":[["nested"]]}`, `{"+5":1}`, `{"05":"x"}`,
	`{"1":1,"1":2}`, "{\"1\":\"\xff\"}", `{"x":1}`, `{"1":01}`, `{"1":1.}`, `{"1":-}`,
	`{"1":1e400}`, `{"1":tru}`, `{"1":truex}`, `{"1":"a"`, `{"1":"a",}`, `[1]`, `{"1":"a"} x`,
	"{\n \"1\" : [ \"a\" , \"b\" ] ,\r\n\t\"2\":3 }", `{"99999999999999999999":1}`, `{"1":[1,]}`,
}

// TestDecodeAnswers: stored answers decode to what json.Unmarshal makes of them,
// errors included.
func TestDecodeAnswers(t *testing.T) {
	for _, s := range answersCases {
		checkAnswers(t, s)
	}
}

// FuzzDecodeAnswers checks decodeAnswers against json.Unmarshal on any text.
func FuzzDecodeAnswers(f *testing.F) {
	for _, s := range answersCases {
		f.Add(s)
	}
	f.Fuzz(checkAnswers)
}

// checkAnswers fails when decodeAnswers and json.Unmarshal disagree about s.
func checkAnswers(t *testing.T, s string) {
	var want map[int64]any
	wantErr := json.Unmarshal([]byte(s), &want)
	got, err := decodeAnswers(s)
	if (err != nil) != (wantErr != nil) || !reflect.DeepEqual(got, want) {
		t.Errorf("decodeAnswers(%q) = %#v, %v; json.Unmarshal: %#v, %v", s, got, err, want, wantErr)
	}
}
