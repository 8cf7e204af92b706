package form

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

func TestHiddenFieldNames(t *testing.T) {
	for _, c := range []struct {
		names []string
		field string // "" when valid
	}{
		{[]string{"utm_source", "user-id", "A1"}, ""},
		{nil, ""},
		{[]string{""}, "hiddenFields[0]"},
		{[]string{"ok", "utm source"}, "hiddenFields[1]"},
		{[]string{"q3"}, "hiddenFields[0]"},
		{[]string{"q"}, ""},
		{[]string{"q_3"}, ""},
		{[]string{"ref", "REF"}, "hiddenFields[1]"},
		{[]string{strings.Repeat("a", MaxHiddenNameLen+1)}, "hiddenFields[0]"},
		{[]string{"é"}, "hiddenFields[0]"},
		{make([]string, MaxHiddenFields+1), "hiddenFields"},
	} {
		var p Problems
		validateHiddenFields(c.names, &p)
		got := ""
		if len(p) > 0 {
			got = p[0].Field
		}
		if got != c.field {
			t.Errorf("%q: problem at %q (%v), want %q", c.names, got, p, c.field)
		}
	}
}

func TestFormPatchSetsAndClearsHiddenFields(t *testing.T) {
	f := &Form{Title: "T", DisplayMode: SinglePage}
	var p FormPatch
	if err := DecodeStrict([]byte(`{"hiddenFields": ["utm_source", "uid"]}`), &p); err != nil {
		t.Fatal(err)
	}
	if err := p.ApplyPatch(f); err != nil || strings.Join(f.Settings.HiddenFields, ",") != "utm_source,uid" {
		t.Fatalf("set: %v, %v", err, f.Settings.HiddenFields)
	}
	p = FormPatch{}
	if err := DecodeStrict([]byte(`{"hiddenFields": null}`), &p); err != nil {
		t.Fatal(err)
	}
	if err := p.ApplyPatch(f); err != nil || f.Settings.HiddenFields != nil {
		t.Fatalf("clear: %v, %v", err, f.Settings.HiddenFields)
	}
	err := FormPatch{}.ApplyPatch(f)
	if err == nil || !strings.Contains(err.Error(), "hiddenFields") {
		t.Errorf("empty patch: %v, want a message listing hiddenFields", err)
	}
}

func TestCheckHidden(t *testing.T) {
	s := Settings{HiddenFields: []string{"utm_source", "uid"}}
	got, err := s.CheckHidden(map[string]string{"utm_source": "news", "uid": ""})
	if err != nil || len(got) != 1 || got["utm_source"] != "news" {
		t.Fatalf("valid: %v, %v (an empty value is no value)", got, err)
	}
	for sent, field := range map[string]string{
		`{"campaign": "x"}`:     "hidden.campaign",
		`{"uid": "two\nlines"}`: "hidden.uid",
		`{"uid": "` + strings.Repeat("x", MaxHiddenValueLen+1) + `"}`: "hidden.uid",
	} {
		var m map[string]string
		if err := json.Unmarshal([]byte(sent), &m); err != nil {
			t.Fatal(err)
		}
		_, err := s.CheckHidden(m)
		var fe *Error
		if e, ok := err.(*Error); ok {
			fe = e
		}
		if fe == nil || fe.Fields[0].Field != field {
			t.Errorf("%s: %v, want a problem at %s", sent, err, field)
		}
	}
}

func TestHiddenFromDropsWhatItCannotKeep(t *testing.T) {
	s := Settings{HiddenFields: []string{"src", "uid", "ref"}}
	q, _ := url.ParseQuery("src=news&src=other&uid=%0Aevil&ref=&campaign=x&h_ref=posted")
	got := s.HiddenFrom(q, "")
	if len(got) != 1 || got["src"] != "news" {
		t.Errorf("from a query: %v, want only src=news (the first of two)", got)
	}
	if got := s.HiddenFrom(q, "h_"); len(got) != 1 || got["ref"] != "posted" {
		t.Errorf("from a post: %v, want ref=posted", got)
	}
	bad := url.Values{"src": {"\xff"}}
	if got := s.HiddenFrom(bad, ""); len(got) != 0 {
		t.Errorf("invalid UTF-8 kept: %v", got)
	}
}

func TestHiddenConditionValidation(t *testing.T) {
	known := map[int64]bool{1: true}
	for cond, field := range map[string]string{
		`{"id":"c","hiddenField":"utm_source","operator":"equals","value":"x"}`:                     "",
		`{"id":"c","hiddenField":"utm_source","operator":"equals","valueType":"dynamic","value":1}`: "",
		`{"id":"c","hiddenField":"utm source","operator":"equals","value":"x"}`:                     "c.hiddenField",
		`{"id":"c","hiddenField":"utm_source","questionId":1,"operator":"equals","value":"x"}`:      "c.questionId",
		`{"id":"c","hiddenField":"utm_source","operator":"equals","valueType":"score","value":1}`:   "c.valueType",
	} {
		var c Condition
		if err := DecodeStrict([]byte(cond), &c); err != nil {
			t.Fatal(err)
		}
		var p Problems
		validateCondition(c, known, "c", &p)
		got := ""
		if len(p) > 0 {
			got = p[0].Field
		}
		if got != field {
			t.Errorf("%s: problem at %q (%v), want %q", cond, got, p, field)
		}
	}
}

func TestHiddenConditionsAreNotQuestionReferences(t *testing.T) {
	var l ConditionalLogic
	raw := `{"advanced":{"conditionGroups":[{"id":"g","operator":"AND","conditions":[{"id":"c","hiddenField":"src","operator":"is_empty"}]}],"actions":[{"type":"hide_question","targetId":2}]}}`
	if err := DecodeStrict([]byte(raw), &l); err != nil {
		t.Fatal(err)
	}
	if refs := l.References(); len(refs) != 1 || refs[0] != 2 {
		t.Errorf("references %v, want only the action's target 2", refs)
	}
	c := l.Remap(map[int64]int64{0: 9, 2: 7}).Advanced.ConditionGroups[0].Conditions[0]
	if c.HiddenField != "src" || c.QuestionID != 0 {
		t.Errorf("remapped to %+v, want the hidden field kept and no question", c)
	}
}
