package form

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func floatPtr(f float64) *float64 { return &f }

// answerQuestions holds one question of each type, as the tests use them.
var answerQuestions = map[QuestionType]*Question{
	Text:        {Type: Text},
	Textarea:    {Type: Textarea},
	Email:       {Type: Email},
	Number:      {Type: Number},
	Phone:       {Type: Phone},
	URL:         {Type: URL},
	Date:        {Type: Date},
	Time:        {Type: Time},
	Select:      {Type: Select, Options: []string{"Red", "Blue"}},
	MultiSelect: {Type: MultiSelect, Options: []string{"Red", "Green", "Blue"}},
	Rating:      {Type: Rating},
	Slider:      {Type: Slider, Slider: &SliderConfig{Min: 0, Max: 10, Step: 0.5}},
	YesNo:       {Type: YesNo},
	FileUpload:  {Type: FileUpload},
	Currency:    {Type: Currency, Currency: &CurrencyConfig{Currency: "USD", Min: floatPtr(0), Max: floatPtr(100)}},
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// validAnswers maps raw JSON answers to the value ValidateAnswer returns.
var validAnswers = map[QuestionType][]struct {
	raw  string
	want any
}{
	Text: {{`"hello"`, "hello"}, {`" padded "`, " padded "}, {`"héllo ✓"`, "héllo ✓"},
		{jsonString(strings.Repeat("é", MaxTextAnswerLen)), strings.Repeat("é", MaxTextAnswerLen)}},
	Textarea: {{`"line 1\nline 2"`, "line 1\nline 2"},
		{jsonString(strings.Repeat("a", MaxTextareaAnswerLen)), strings.Repeat("a", MaxTextareaAnswerLen)}},
	Email: {{`"ada@example.com"`, "ada@example.com"}, {`" ada@example.com "`, "ada@example.com"},
		{`"first.last+tag@mail.example.co.uk"`, "first.last+tag@mail.example.co.uk"},
		{`"o'brien@example.ie"`, "o'brien@example.ie"}, {`"josé@exämple.com"`, "josé@exämple.com"},
		{`"a@x-y.example"`, "a@x-y.example"}},
	Number: {{`42`, 42.0}, {`-1.5`, -1.5}, {`0`, 0.0}, {`1e3`, 1000.0}, {`1.7976931348623157e308`, 1.7976931348623157e308}},
	Phone: {{`"+1 (555) 123-4567"`, "+1 (555) 123-4567"}, {`"5551234"`, "5551234"},
		{`"+44 20.7946.0958"`, "+44 20.7946.0958"}, {`"123456789012345"`, "123456789012345"}},
	URL: {{`"https://example.com"`, "https://example.com"}, {`"http://example.com/a?b=c#d"`, "http://example.com/a?b=c#d"},
		{`"HTTPS://Example.com/path"`, "HTTPS://Example.com/path"}, {`"http://localhost:8080/x"`, "http://localhost:8080/x"}},
	Date:   {{`"2026-11-22"`, "2026-11-22"}, {`"2024-02-29"`, "2024-02-29"}, {`"1999-12-31"`, "1999-12-31"}},
	Time:   {{`"00:00"`, "00:00"}, {`"09:30"`, "09:30"}, {`"23:59"`, "23:59"}},
	Select: {{`"Red"`, "Red"}, {`"Blue"`, "Blue"}},
	MultiSelect: {{`["Red"]`, []string{"Red"}}, {`["Blue","Red"]`, []string{"Red", "Blue"}},
		{`["Green","Blue","Red"]`, []string{"Red", "Green", "Blue"}}},
	Rating:     {{`1`, 1.0}, {`3`, 3.0}, {`5`, 5.0}, {`4.0`, 4.0}},
	Slider:     {{`0`, 0.0}, {`10`, 10.0}, {`2.5`, 2.5}, {`7`, 7.0}},
	YesNo:      {{`true`, true}, {`false`, false}},
	FileUpload: {{`"upl_AbC-123"`, "upl_AbC-123"}, {jsonString(strings.Repeat("x", MaxUploadIDLen)), strings.Repeat("x", MaxUploadIDLen)}},
	Currency:   {{`0`, 0.0}, {`100`, 100.0}, {`19.99`, 19.99}},
}

func TestValidateAnswerValid(t *testing.T) {
	for typ, cases := range validAnswers {
		for _, c := range cases {
			got, err := ValidateAnswer(answerQuestions[typ], json.RawMessage(c.raw))
			if err != nil {
				t.Errorf("%s %s: unexpected error %v", typ, short(c.raw), err)
				continue
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("%s %s = %#v, want %#v", typ, short(c.raw), got, c.want)
			}
		}
	}
}

func short(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// invalidAnswers maps raw JSON answers to a fragment of the error message.
var invalidAnswers = map[QuestionType][]struct{ raw, msg string }{
	Text: {{`5`, "must be a string, not a number"}, {`true`, "must be a string, not true or false"},
		{`["a"]`, "must be a string, not an array"}, {`{"a":1}`, "must be a string, not an object"},
		{jsonString(strings.Repeat("a", MaxTextAnswerLen+1)), "at most 1000 characters (got 1001)"},
		{`"a\u0000b"`, "must not contain NUL"}, {`"a\u001bb"`, "control character U+001B"},
		{`"a\u0085b"`, "control character U+0085"}, {`"\u200b\ufeff"`, "visible characters"}},
	Textarea: {{`1`, "must be a string"}, {`false`, "must be a string"}, {`[]`, "must be a string"},
		{`{}`, "must be a string"}, {jsonString(strings.Repeat("a", MaxTextareaAnswerLen+1)), "at most 10000 characters"}},
	Email: {{`"plainaddress"`, "valid email"}, {`"ada@localhost"`, "valid email"}, {`"Ada <ada@example.com>"`, "valid email"},
		{`"<ada@example.com>"`, "valid email"}, {`"ada@@example.com"`, "valid email"}, {`"ada@example.com."`, "valid email"},
		{`"ada@[192.168.0.1]"`, "valid email"}, {`"ada example@example.com"`, "valid email"},
		{`"ada@example.com (Ada)"`, "valid email"}, {`"@example.com"`, "valid email"},
		{`"a..b@example.com"`, "valid email"}, {`"a@example..com"`, "valid email"}, {`"a@-example.com"`, "valid email"},
		{`"a@exa_mple.com"`, "valid email"}, {`"\"a b\"@example.com"`, "valid email"},
		{jsonString(strings.Repeat("a", 250) + "@x.io"), "at most 254"}, {`42`, "must be a string"}},
	Number: {{`"5"`, "must be a number, not a string"}, {`true`, "must be a number, not true or false"},
		{`[5]`, "must be a number, not an array"}, {`{"v":5}`, "must be a number, not an object"},
		{`1e400`, "finite number"}, {`-1e999`, "finite number"}, {`"NaN"`, "must be a number"}},
	Phone: {{`"123456"`, "7 to 15 digits"}, {`"1234567890123456"`, "7 to 15 digits"}, {`"555-CALL-NOW"`, "must be a phone number"},
		{`"+1 555 123 4567 ext 9"`, "must be a phone number"}, {`"555_123_4567"`, "must be a phone number"},
		{jsonString(strings.Repeat("(", 40) + "1234567"), "at most 40"}, {`5551234567`, "must be a string"}},
	URL: {{`"example.com"`, "http or https"}, {`"ftp://example.com"`, "http or https"}, {`"javascript:alert(1)"`, "http or https"},
		{`"https://"`, "http or https"}, {`"http:///path"`, "http or https"}, {`"https://exa mple.com"`, "without spaces"},
		{`"https://example.com/\u0007"`, "control character U+0007"}, {jsonString("https://e.com/" + strings.Repeat("a", 2000)), "at most 2000"},
		{`"mailto:ada@example.com"`, "http or https"}, {`{"url":"https://e.com"}`, "must be a string"}},
	Date: {{`"2025-02-29"`, "real calendar date"}, {`"2026-13-01"`, "real calendar date"}, {`"2026-04-31"`, "real calendar date"},
		{`"2026-1-5"`, "YYYY-MM-DD"}, {`"22/11/2026"`, "YYYY-MM-DD"}, {`"2026-11-22T10:00:00Z"`, "YYYY-MM-DD"},
		{`"２０２６-11-22"`, "YYYY-MM-DD"}, {`20261122`, "must be a string"}},
	Time: {{`"24:00"`, "HH:MM"}, {`"9:30"`, "HH:MM"}, {`"09:60"`, "HH:MM"}, {`"09:30:00"`, "HH:MM"},
		{`"9.30am"`, "HH:MM"}, {`930`, "must be a string"}},
	Select: {{`"Green"`, "must be one of: Red, Blue"}, {`"red"`, "must be one of: Red, Blue"}, {`" Red"`, "must be one of"},
		{`["Red"]`, "must be a string, not an array"}, {`1`, "must be a string"}, {`true`, "must be a string"}},
	MultiSelect: {{`"Red"`, "must be an array of options, not a string"}, {`["Purple"]`, `"Purple" is not one of: Red, Green, Blue`},
		{`["Red","Red"]`, `must not list "Red" twice`}, {`["Red",1]`, "array of strings"}, {`[null]`, "array of strings"},
		{`[["Red"]]`, "array of strings"}, {`{"Red":true}`, "not an object"}, {`true`, "not true or false"}},
	Rating: {{`4.5`, "whole number from 1 to 5"}, {`0`, "whole number from 1 to 5"}, {`6`, "whole number from 1 to 5"},
		{`-1`, "whole number"}, {`"3"`, "must be a number, not a string"}, {`true`, "must be a number"}, {`[3]`, "must be a number"}},
	Slider: {{`0.3`, "must be between 0 and 10 in steps of 0.5"}, {`-0.5`, "between 0 and 10"}, {`10.5`, "between 0 and 10"},
		{`9.99`, "steps of 0.5"}, {`"5"`, "must be a number, not a string"}, {`false`, "must be a number"}, {`{}`, "must be a number"}},
	YesNo: {{`"true"`, "must be true or false, not a string"}, {`"yes"`, "must be true or false"}, {`1`, "must be true or false, not a number"},
		{`0`, "must be true or false"}, {`[true]`, "must be true or false, not an array"}, {`{}`, "not an object"}},
	FileUpload: {{`"../etc/passwd"`, "upload id"}, {`"a b"`, "upload id"}, {`"id.with.dots"`, "upload id"},
		{jsonString(strings.Repeat("x", MaxUploadIDLen+1)), "upload id"}, {`12345`, "must be an upload id (a string), not a number"},
		{`{"name":"a.pdf","size":1,"contentType":"application/pdf","url":"https://e.com/a"}`, "not an object"}},
	Currency: {{`-0.01`, "must be between 0 and 100"}, {`100.5`, "must be between 0 and 100"}, {`"10"`, "must be a number, not a string"},
		{`"$10"`, "must be a number"}, {`true`, "must be a number"}, {`[10]`, "must be a number"}, {`1e400`, "finite"}},
}

func TestValidateAnswerInvalid(t *testing.T) {
	for typ, cases := range invalidAnswers {
		for _, c := range cases {
			got, err := ValidateAnswer(answerQuestions[typ], json.RawMessage(c.raw))
			if err == nil {
				t.Errorf("%s %s = %#v, want an error containing %q", typ, short(c.raw), got, c.msg)
				continue
			}
			if ErrorCode(err) != Invalid {
				t.Errorf("%s %s: code %s, want invalid", typ, short(c.raw), ErrorCode(err))
			}
			if msg := err.(*Error).Message; !strings.Contains(msg, c.msg) {
				t.Errorf("%s %s: message %q, want it to contain %q", typ, short(c.raw), msg, c.msg)
			}
			checkCatalogued(t, err)
		}
	}
}

// checkCatalogued checks that an answer's error is a catalogued problem whose API
// text is its message.
func checkCatalogued(t *testing.T, err error) {
	t.Helper()
	e := err.(*Error)
	if _, ok := catalogue[e.Reason.Code]; !ok || e.Reason.text() != e.Message {
		t.Errorf("%q: reason %+v is not catalogued or says %q", e.Message, e.Reason, e.Reason.text())
	}
}

func TestEveryTypeIsCovered(t *testing.T) {
	for _, typ := range QuestionTypes {
		if len(validAnswers[typ]) == 0 || len(invalidAnswers[typ]) < 5 || answerQuestions[typ] == nil {
			t.Errorf("%s: %d valid and %d invalid cases", typ, len(validAnswers[typ]), len(invalidAnswers[typ]))
		}
		if answerCheckers[typ] == nil {
			t.Errorf("%s has no answer checker", typ)
		}
	}
}

func TestValidateAnswerUnanswered(t *testing.T) {
	for _, typ := range QuestionTypes {
		raws := []string{``, `null`, ` null `}
		switch typ {
		case MultiSelect:
			raws = append(raws, `[]`)
		case Text, Textarea, Email, Phone, URL, Date, Time, Select, FileUpload:
			raws = append(raws, `""`, `"   "`)
		}
		for _, raw := range raws {
			got, err := ValidateAnswer(answerQuestions[typ], json.RawMessage(raw))
			if got != nil || err != nil {
				t.Errorf("%s %q = %#v, %v; want unanswered", typ, raw, got, err)
			}
		}
	}
}

func TestValidateAnswerMalformedAndUnknownType(t *testing.T) {
	if _, err := ValidateAnswer(&Question{Type: Text}, json.RawMessage(`"open`)); err == nil {
		t.Error("malformed JSON accepted")
	}
	_, err := ValidateAnswer(&Question{Type: "colour"}, json.RawMessage(`"red"`))
	if err == nil || err.(*Error).Message != `belongs to a question of unknown type "colour"` {
		t.Fatalf("unknown type: %v", err)
	}
	checkCatalogued(t, err)
	_, err = ValidateAnswer(&Question{Type: Text}, json.RawMessage(`"open`))
	checkCatalogued(t, err)
}

func TestSliderSteps(t *testing.T) {
	tenths := &Question{Type: Slider, Slider: &SliderConfig{Min: 0, Max: 1, Step: 0.1}}
	for _, v := range []string{`0.1`, `0.3`, `0.7`, `0.30000000000000004`, `1`} {
		if _, err := ValidateAnswer(tenths, json.RawMessage(v)); err != nil {
			t.Errorf("step 0.1, %s: %v", v, err)
		}
	}
	for _, v := range []string{`0.15`, `0.31`, `1.1`, `-0.1`} {
		_, err := ValidateAnswer(tenths, json.RawMessage(v))
		if err == nil || !strings.Contains(err.Error(), "between 0 and 1 in steps of 0.1") {
			t.Errorf("step 0.1, %s: %v", v, err)
		}
	}
	offset := &Question{Type: Slider, Slider: &SliderConfig{Min: -5, Max: 5, Step: 2}}
	for v, ok := range map[string]bool{`-5`: true, `-1`: true, `3`: true, `5`: true, `0`: false, `4`: false} {
		if _, err := ValidateAnswer(offset, json.RawMessage(v)); (err == nil) != ok {
			t.Errorf("min -5 step 2, %s: err %v, want ok %v", v, err, ok)
		}
	}
}

func TestCurrencyBounds(t *testing.T) {
	cases := []struct {
		cfg  *CurrencyConfig
		raw  string
		want string
	}{
		{nil, `-1e9`, ""},
		{&CurrencyConfig{Currency: "EUR"}, `123456789.5`, ""},
		{&CurrencyConfig{Currency: "EUR", Min: floatPtr(10)}, `9.99`, "must be at least 10"},
		{&CurrencyConfig{Currency: "EUR", Min: floatPtr(10)}, `1e12`, ""},
		{&CurrencyConfig{Currency: "EUR", Max: floatPtr(1500000)}, `1500000.01`, "must be at most 1500000"},
		{&CurrencyConfig{Currency: "EUR", Max: floatPtr(1500000)}, `-3`, ""},
		{&CurrencyConfig{Currency: "EUR", Min: floatPtr(0.5), Max: floatPtr(2.5)}, `2.5`, ""},
	}
	for _, c := range cases {
		_, err := ValidateAnswer(&Question{Type: Currency, Currency: c.cfg}, json.RawMessage(c.raw))
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%+v %s: %v, want %q", c.cfg, c.raw, err, c.want)
		}
	}
}

func TestLongOptionListsAreNotSpelledOut(t *testing.T) {
	q := &Question{Type: Select, Options: strings.Split("a b c d e f g h i j k", " ")}
	_, err := ValidateAnswer(q, json.RawMessage(`"z"`))
	if err == nil || err.(*Error).Message != "must be one of: the question's options" {
		t.Errorf("got %v", err)
	}
}

func TestParseFormValue(t *testing.T) {
	cases := []struct {
		typ    QuestionType
		values []string
		want   string
	}{
		{Text, []string{"hello"}, `"hello"`},
		{Text, nil, `null`},
		{Text, []string{""}, `null`},
		{Text, []string{"  "}, `null`},
		{Text, []string{"", "hello", ""}, `"hello"`},
		{Text, []string{"same", "same"}, `"same"`},
		{Textarea, []string{"a\r\nb\r\n"}, `"a\nb\n"`},
		{Textarea, []string{`say "hi" <b>`}, `"say \"hi\" \u003cb\u003e"`},
		{Email, []string{"ada@example.com"}, `"ada@example.com"`},
		{Date, []string{"2026-11-22"}, `"2026-11-22"`},
		{Select, []string{"Red"}, `"Red"`},
		{Number, []string{"42"}, `42`},
		{Number, []string{" -1.5 "}, `-1.5`},
		{Number, []string{"+3"}, `3`},
		{Number, []string{".5"}, `0.5`},
		{Number, []string{"1e3"}, `1000`},
		{Number, []string{""}, `null`},
		{Currency, []string{"19.99"}, `19.99`},
		{Slider, []string{"2.5"}, `2.5`},
		{Rating, []string{"4"}, `4`},
		{YesNo, []string{"true"}, `true`},
		{YesNo, []string{"yes"}, `true`},
		{YesNo, []string{"on"}, `true`},
		{YesNo, []string{"YES"}, `true`},
		{YesNo, []string{"1"}, `true`},
		{YesNo, []string{"false"}, `false`},
		{YesNo, []string{"no"}, `false`},
		{YesNo, []string{"off"}, `false`},
		{YesNo, []string{""}, `null`},
		{MultiSelect, []string{"Red", "Blue"}, `["Red","Blue"]`},
		{MultiSelect, []string{"Red"}, `["Red"]`},
		{MultiSelect, []string{"", "Red", ""}, `["Red"]`},
		{MultiSelect, []string{""}, `null`},
		{MultiSelect, nil, `null`},
	}
	for _, c := range cases {
		got, err := ParseFormValue(answerQuestions[c.typ], c.values)
		if err != nil || string(got) != c.want {
			t.Errorf("%s %q = %s, %v; want %s", c.typ, c.values, got, err, c.want)
		}
	}
}

func TestParseFormValueErrors(t *testing.T) {
	cases := []struct {
		typ    QuestionType
		values []string
		msg    string
	}{
		{FileUpload, []string{"upl_1"}, "must be uploaded as a file"},
		{Number, []string{"five"}, "must be a number"},
		{Number, []string{"1,5"}, "must be a number"},
		{Number, []string{"Inf"}, "must be a number"},
		{Number, []string{"NaN"}, "must be a number"},
		{Number, []string{"0x10"}, "must be a number"},
		{Number, []string{"1e400"}, "must be a number"},
		{Rating, []string{"four"}, "must be a number"},
		{Currency, []string{"$5"}, "must be a number"},
		{YesNo, []string{"maybe"}, "must be yes or no"},
		{Text, []string{"a", "b"}, "single value"},
		{Select, []string{"Red", "Blue"}, "single value"},
		{"colour", []string{"red"}, "unknown type"},
	}
	for _, c := range cases {
		q := answerQuestions[c.typ]
		if q == nil {
			q = &Question{Type: c.typ}
		}
		got, err := ParseFormValue(q, c.values)
		if err == nil || ErrorCode(err) != Invalid || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s %q = %s, %v; want an error containing %q", c.typ, c.values, got, err, c.msg)
			continue
		}
		checkCatalogued(t, err)
	}
}

// TestParseFormValueFeedsValidateAnswer checks that posted strings validate to the
// same values as the JSON answers.
func TestParseFormValueFeedsValidateAnswer(t *testing.T) {
	cases := []struct {
		typ    QuestionType
		values []string
		want   any
	}{
		{Number, []string{"7"}, 7.0},
		{Rating, []string{"5"}, 5.0},
		{Slider, []string{"2.5"}, 2.5},
		{YesNo, []string{"on"}, true},
		{MultiSelect, []string{"Blue", "Red"}, []string{"Red", "Blue"}},
		{Phone, []string{"+1 555 123 4567"}, "+1 555 123 4567"},
		{Text, []string{""}, nil},
	}
	for _, c := range cases {
		q := answerQuestions[c.typ]
		raw, err := ParseFormValue(q, c.values)
		if err != nil {
			t.Fatalf("%s: %v", c.typ, err)
		}
		got, err := ValidateAnswer(q, raw)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %q = %#v, %v; want %#v", c.typ, c.values, got, err, c.want)
		}
	}
	if _, err := ValidateAnswer(answerQuestions[Rating], mustParse(t, Rating, "4.5")); err == nil {
		t.Error("posted rating 4.5 accepted")
	}
}

func mustParse(t *testing.T, typ QuestionType, v string) json.RawMessage {
	t.Helper()
	raw, err := ParseFormValue(answerQuestions[typ], []string{v})
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
