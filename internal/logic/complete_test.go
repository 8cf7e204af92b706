package logic

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"forma/internal/form"
)

// completeForm is a small form with logic and scoring:
//
//	1 name (text, required)
//	2 subscribed (yes_no, required)
//	3 email (email, required, shown only when 2 is true)
//	4 colour (select, optional, scores Red 2 / Blue 5)
//	5 extras (multi_select, optional, scores each option 1)
//	6 rating (rating, required)
func completeForm(t *testing.T) []form.Question {
	t.Helper()
	return []form.Question{
		{ID: 1, Order: 1, Type: form.Text, Text: "Name", Required: true},
		{ID: 2, Order: 2, Type: form.YesNo, Text: "Subscribe?", Required: true},
		{ID: 3, Order: 3, Type: form.Email, Text: "Email", Required: true,
			Logic: logicJSON(t, `{"showIf":{"questionId":2,"operator":"equals","value":"true"}}`)},
		{ID: 4, Order: 4, Type: form.Select, Text: "Colour", Options: []string{"Red", "Blue"},
			Logic: logicJSON(t, `{"advanced":{"conditionGroups":[],"actions":[],
				"scoreRules":[{"id":"s1","questionId":4,"scoreMap":{"Red":2,"Blue":5}}]}}`)},
		{ID: 5, Order: 5, Type: form.MultiSelect, Text: "Extras", Options: []string{"A", "B", "C"},
			Logic: logicJSON(t, `{"advanced":{"conditionGroups":[],"actions":[],
				"scoreRules":[{"id":"s2","questionId":5,"scoreMap":{"A":1,"B":1,"C":1}}]}}`)},
		{ID: 6, Order: 6, Type: form.Rating, Text: "Rating", Required: true},
	}
}

func logicJSON(t *testing.T, s string) *form.ConditionalLogic {
	t.Helper()
	var l form.ConditionalLogic
	if err := json.Unmarshal([]byte(s), &l); err != nil {
		t.Fatal(err)
	}
	return &l
}

// rawAnswers turns a JSON object into the raw answers Complete takes.
func rawAnswers(t *testing.T, s string) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// fieldsOf returns the field errors of err, which must be an Invalid *form.Error.
func fieldsOf(t *testing.T, err error) []form.FieldError {
	t.Helper()
	var e *form.Error
	if !errors.As(err, &e) || e.Code != form.Invalid {
		t.Fatalf("error %v, want an invalid *form.Error", err)
	}
	return e.Fields
}

// fe is the field error of a catalogued problem: the API message it must keep, and
// its reason.
func fe(field, message string, code form.MessageCode, values ...string) form.FieldError {
	return form.FieldError{Field: field, Message: message, Reason: form.NewReason(code, values...)}
}

func TestCompleteAccepts(t *testing.T) {
	score := func(f float64) *float64 { return &f }
	cases := []struct {
		name    string
		answers string
		want    map[int64]any
		score   *float64
	}{
		{"all answered", `{"1":"Ada","2":true,"3":"ada@example.com","4":"Blue","5":["C","A"],"6":4}`,
			map[int64]any{1: "Ada", 2: true, 3: "ada@example.com", 4: "Blue", 5: []string{"A", "C"}, 6: 4.0}, score(7)},
		{"required but hidden, answer dropped", `{"1":"Ada","2":false,"3":"ada@example.com","6":5}`,
			map[int64]any{1: "Ada", 2: false, 6: 5.0}, score(0)},
		{"required but hidden, invalid answer dropped", `{"1":"Ada","2":false,"3":"not an email","6":5}`,
			map[int64]any{1: "Ada", 2: false, 6: 5.0}, score(0)},
		{"optional unanswered", `{"1":"Ada","2":false,"4":null,"5":[],"6":1}`,
			map[int64]any{1: "Ada", 2: false, 6: 1.0}, score(0)},
		{"score from select only", `{"1":"Ada","2":false,"4":"Red","6":3}`,
			map[int64]any{1: "Ada", 2: false, 4: "Red", 6: 3.0}, score(2)},
		{"score from multi_select", `{"1":"Ada","2":false,"5":["A","B","C"],"6":3}`,
			map[int64]any{1: "Ada", 2: false, 5: []string{"A", "B", "C"}, 6: 3.0}, score(3)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sub, err := Complete(completeForm(t), rawAnswers(t, c.answers), nil)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(sub.Answers, c.want) {
				t.Errorf("answers = %#v, want %#v", sub.Answers, c.want)
			}
			if sub.Score == nil || *sub.Score != *c.score {
				t.Errorf("score = %v, want %v", sub.Score, *c.score)
			}
		})
	}
}

func TestCompleteRejects(t *testing.T) {
	cases := []struct {
		name    string
		answers string
		fields  []form.FieldError
	}{
		{"nothing", `{}`, []form.FieldError{
			fe("answers.1", "is required", form.MsgRequired), fe("answers.2", "is required", form.MsgRequired),
			fe("answers.6", "is required", form.MsgRequired)}},
		{"required visible missing", `{"1":"Ada","2":true,"6":5}`, []form.FieldError{
			fe("answers.3", "is required", form.MsgRequired)}},
		{"blank is missing", `{"1":"  ","2":false,"6":5}`, []form.FieldError{
			fe("answers.1", "is required", form.MsgRequired)}},
		{"unknown question", `{"1":"Ada","2":false,"6":5,"99":"x"}`, []form.FieldError{
			fe("answers.99", "is not a question of this form", form.MsgUnknownQuestion)}},
		{"key not a number", `{"1":"Ada","2":false,"6":5,"name":"x","01":"y"}`, []form.FieldError{
			fe("answers.01", "is not a question of this form", form.MsgUnknownQuestion),
			fe("answers.name", "is not a question of this form", form.MsgUnknownQuestion)}},
		{"all problems in form order", `{"zz":1,"6":4.5,"4":"Green","2":true,"1":5,"3":"nope","5":["A","A"]}`, []form.FieldError{
			fe("answers.1", "must be a string, not a number", form.MsgWrongKind, "a string", "a number"),
			fe("answers.3", "must be a valid email address", form.MsgEmail),
			fe("answers.4", "must be one of: Red, Blue", form.MsgOption, "Red, Blue"),
			fe("answers.5", `must not list "A" twice`, form.MsgOptionTwice, `"A"`),
			fe("answers.6", "must be a whole number from 1 to 5", form.MsgRating, "1", "5"),
			fe("answers.zz", "is not a question of this form", form.MsgUnknownQuestion)}},
		{"invalid visible answer reported once", `{"1":"Ada","2":"yes","6":5}`, []form.FieldError{
			fe("answers.2", "must be true or false, not a string", form.MsgWrongKind, "true or false", "a string")}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sub, err := Complete(completeForm(t), rawAnswers(t, c.answers), nil)
			if err == nil {
				t.Fatalf("accepted: %#v", sub)
			}
			if got := fieldsOf(t, err); !reflect.DeepEqual(got, c.fields) {
				t.Errorf("fields = %v\nwant     %v", got, c.fields)
			}
			first := c.fields[0]
			if msg := err.(*form.Error).Message; !strings.HasPrefix(msg, first.Field+": "+first.Message) {
				t.Errorf("message %q does not name %s first", msg, first.Field)
			}
		})
	}
}

func TestCompleteWithoutScoring(t *testing.T) {
	qs := []form.Question{{ID: 10, Order: 1, Type: form.Number, Text: "n", Required: true}}
	sub, err := Complete(qs, rawAnswers(t, `{"10":3}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if sub.Score != nil || !reflect.DeepEqual(sub.Answers, map[int64]any{10: 3.0}) {
		t.Errorf("got %#v, score %v", sub.Answers, sub.Score)
	}
	sub, err = Complete(nil, nil, nil)
	if err != nil || sub.Answers == nil || len(sub.Answers) != 0 {
		t.Errorf("empty form: %#v, %v", sub, err)
	}
}

// TestCompleteUsesQuestionOrder checks that questions given out of order are
// evaluated and reported in form order.
func TestCompleteUsesQuestionOrder(t *testing.T) {
	qs := completeForm(t)
	qs[0], qs[5] = qs[5], qs[0]
	_, err := Complete(qs, rawAnswers(t, `{}`), nil)
	fields := fieldsOf(t, err)
	if len(fields) != 3 || fields[0].Field != "answers.1" || fields[2].Field != "answers.6" {
		t.Errorf("fields = %v", fields)
	}
}

// TestCompleteHiddenByAdvancedLogic covers skip and set_score actions driven by
// validated answers (a multi_select's []string must reach the engine as a list).
func TestCompleteHiddenByAdvancedLogic(t *testing.T) {
	qs := []form.Question{
		{ID: 1, Order: 1, Type: form.MultiSelect, Text: "Pick", Options: []string{"x", "y"}, Required: true,
			Logic: logicJSON(t, `{"advanced":{"conditionGroups":[{"id":"g","operator":"AND","conditions":[
				{"id":"c","questionId":1,"operator":"contains","value":"y"}]}],
				"actions":[{"type":"skip_to_question","targetId":3},{"type":"set_score","value":10}]}}`)},
		{ID: 2, Order: 2, Type: form.Text, Text: "Why not y?", Required: true},
		{ID: 3, Order: 3, Type: form.Text, Text: "Done"},
	}
	sub, err := Complete(qs, rawAnswers(t, `{"1":["y"],"2":"skipped anyway"}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := sub.Answers[2]; ok || sub.Score == nil || *sub.Score != 10 {
		t.Errorf("answers %#v, score %v", sub.Answers, sub.Score)
	}
	_, err = Complete(qs, rawAnswers(t, `{"1":["x"]}`), nil)
	if f := fieldsOf(t, err); len(f) != 1 || f[0].Field != "answers.2" {
		t.Errorf("fields = %v", f)
	}
}

func TestValidatePartial(t *testing.T) {
	got, err := Validate(completeForm(t), rawAnswers(t, `{"2":false,"3":" ada@example.com ","5":["B","A"],"4":null}`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64]any{2: false, 3: "ada@example.com", 5: []string{"A", "B"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v, want %#v (no required check, hidden answers kept)", got, want)
	}
	_, err = Validate(completeForm(t), rawAnswers(t, `{"x":1,"6":9,"2":false,"3":"bad"}`))
	want2 := []form.FieldError{
		fe("answers.3", "must be a valid email address", form.MsgEmail),
		fe("answers.6", "must be a whole number from 1 to 5", form.MsgRating, "1", "5"),
		fe("answers.x", "is not a question of this form", form.MsgUnknownQuestion),
	}
	if got := fieldsOf(t, err); !reflect.DeepEqual(got, want2) {
		t.Errorf("fields = %v, want %v", got, want2)
	}
}
