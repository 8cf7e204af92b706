package openai

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"forma/internal/ai"
	"forma/internal/form"
)

const contactForm = `{"title":"Contact us","description":"Tell us how we can help.","displayMode":"single-page","questions":[
 {"type":"text","question":"Your name","required":true,"options":null,"sliderConfig":null,"currencyConfig":null},
 {"type":"email","question":"Email","required":true,"options":null,"sliderConfig":null,"currencyConfig":null},
 {"type":"select","question":"Topic","required":false,"options":["Sales","Support","Other"],"sliderConfig":null,"currencyConfig":null},
 {"type":"slider","question":"How likely are you to recommend us?","required":false,"options":null,"sliderConfig":{"min":0,"max":10,"step":1},"currencyConfig":null},
 {"type":"currency","question":"Budget","required":false,"options":null,"sliderConfig":null,"currencyConfig":{"currency":"EUR"}},
 {"type":"textarea","question":"Message","required":true,"options":null,"sliderConfig":null,"currencyConfig":null}]}`

func TestGenerateFormStructuredOutput(t *testing.T) {
	s := newScript(t, checked(func(t *testing.T, req sent) {
		if req.Path != "/v1/chat/completions" {
			t.Errorf("path = %q", req.Path)
		}
		if got := req.Header.Get("Authorization"); got != "Bearer "+testKey {
			t.Errorf("Authorization = %q", got)
		}
		if req.Body["model"] != "test-model" {
			t.Errorf("model = %v", req.Body["model"])
		}
		rf := req.Body["response_format"]
		if path(rf, "type") != "json_schema" || path(rf, "json_schema", "strict") != true || path(rf, "json_schema", "name") != "form" {
			t.Errorf("response_format = %s", jsonString(rf))
		}
		enum, _ := path(rf, "json_schema", "schema", "properties", "questions", "items", "properties", "type", "enum").([]any)
		if len(enum) != 15 || !slices.Contains(enum, any("multi_select")) || !slices.Contains(enum, any("currency")) {
			t.Errorf("type enum = %v", enum)
		}
		req2, _ := path(rf, "json_schema", "schema", "properties", "questions", "items", "required").([]any)
		if len(req2) != 6 {
			t.Errorf("question schema requires %v, want all 6 properties (strict mode)", req2)
		}
		msgs := req.messages(t)
		if len(msgs) != 2 || msgs[0]["role"] != "system" || msgs[1]["role"] != "user" {
			t.Fatalf("messages = %s", jsonString(msgs))
		}
		sys := msgs[0]["content"].(string)
		for _, w := range []string{"multi_select", "sliderConfig", "currencyConfig", "ISO 4217", "at most 30"} {
			if !strings.Contains(sys, w) {
				t.Errorf("system prompt lacks %q", w)
			}
		}
		if msgs[1]["content"] != "a contact form" {
			t.Errorf("user message = %v", msgs[1]["content"])
		}
	}, reply(contactForm)))

	in, err := s.provider(t, time.Second).GenerateForm(context.Background(), "a contact form")
	if err != nil {
		t.Fatal(err)
	}
	f, err := form.NewForm(in)
	if err != nil {
		t.Fatalf("generated form is invalid: %v", err)
	}
	if f.Title != "Contact us" || f.Description != "Tell us how we can help." || len(f.Questions) != 6 {
		t.Fatalf("form = %+v", f)
	}
	q := f.Questions
	if q[0].Type != form.Text || !q[0].Required || q[1].Type != form.Email {
		t.Errorf("questions = %+v", q[:2])
	}
	if q[2].Type != form.Select || !slices.Equal(q[2].Options, []string{"Sales", "Support", "Other"}) {
		t.Errorf("select = %+v", q[2])
	}
	if q[3].Slider == nil || *q[3].Slider != (form.SliderConfig{Min: 0, Max: 10, Step: 1}) {
		t.Errorf("slider = %+v", q[3].Slider)
	}
	if q[4].Currency == nil || q[4].Currency.Currency != "EUR" {
		t.Errorf("currency = %+v", q[4].Currency)
	}
	if len(s.requests()) != 1 {
		t.Errorf("%d requests, want 1", len(s.requests()))
	}
}

func TestGenerateFormMalformedJSON(t *testing.T) {
	for name, content := range map[string]string{
		"truncated": `{"title":"Contact","questions":[{"type":"text","question":"Na`,
		"prose":     "Sure! Here is your form: a name field and an email field.",
		"empty":     "",
		"no array":  `{"title":"Contact","questions":"name, email"}`,
		"no text":   `{"title":"Contact","questions":[{"type":"text"},{"type":"email","question":"  "}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			s := newScript(t, reply(content))
			_, err := s.provider(t, time.Second).GenerateForm(context.Background(), "a contact form")
			providerFailed(t, err, "the AI model returned an unusable form")
		})
	}
}

func TestGenerateFormRepairs(t *testing.T) {
	qs := []string{
		`{"type":"signature","question":"Sign here","required":true}`,                                       // unknown type
		`{"type":"select","question":"Favourite colour","options":[]}`,                                      // no options
		`{"type":"multi_select","question":"Toppings","options":["Cheese"," cheese ","","Ham","Ham"]}`,      // duplicates, blanks
		`{"type":"slider","question":"Satisfaction","sliderConfig":{"min":10,"max":1,"step":0}}`,            // invalid slider
		`{"type":"slider","question":"Effort","sliderConfig":null}`,                                         // missing slider
		`{"type":"currency","question":"Budget","currencyConfig":{"currency":"dollars"}}`,                   // invalid code
		`{"type":"Yes-No","question":"Subscribe?","options":["Yes","No"],"sliderConfig":{"min":0,"max":1}}`, // alias, stray settings
		`{"type":"text","question":"` + strings.Repeat("x", 1200) + `"}`,                                    // too long
		`{"type":"dropdown","question":"Country","options":"France, Spain"}`,                                // alias, string options
	}
	for i := len(qs); i < 45; i++ {
		qs = append(qs, fmt.Sprintf(`{"type":"text","question":"Question %d","required":false}`, i+1))
	}
	content := "```json\n" + `{"title":"   ","displayMode":"wizard","questions":[` + strings.Join(qs, ",") + "]}\n```"
	s := newScript(t, reply(content))

	in, err := s.provider(t, time.Second).GenerateForm(context.Background(), "a long survey")
	if err != nil {
		t.Fatal(err)
	}
	f, err := form.NewForm(in)
	if err != nil {
		t.Fatalf("repaired form is invalid: %v", err)
	}
	if f.Title != "Untitled form" || f.DisplayMode != form.MultiStep {
		t.Errorf("title %q, display mode %q", f.Title, f.DisplayMode)
	}
	if len(f.Questions) != ai.MaxGeneratedQuestions {
		t.Fatalf("%d questions, want %d", len(f.Questions), ai.MaxGeneratedQuestions)
	}
	q := f.Questions
	check := func(i int, typ form.QuestionType) {
		t.Helper()
		if q[i].Type != typ {
			t.Errorf("question %d (%q) has type %s, want %s", i, q[i].Text, q[i].Type, typ)
		}
	}
	check(0, form.Text)
	if !q[0].Required {
		t.Error("repair lost the required flag")
	}
	check(1, form.Text)
	check(2, form.MultiSelect)
	if !slices.Equal(q[2].Options, []string{"Cheese", "Ham"}) {
		t.Errorf("options = %q", q[2].Options)
	}
	check(3, form.Slider)
	check(4, form.Slider)
	for _, i := range []int{3, 4} {
		if q[i].Slider == nil || *q[i].Slider != (form.SliderConfig{Min: 0, Max: 10, Step: 1}) {
			t.Errorf("slider %d = %+v", i, q[i].Slider)
		}
	}
	check(5, form.Currency)
	if q[5].Currency == nil || q[5].Currency.Currency != "USD" {
		t.Errorf("currency = %+v", q[5].Currency)
	}
	check(6, form.YesNo)
	if q[6].Options != nil || q[6].Slider != nil {
		t.Errorf("yes_no kept stray settings: %+v", q[6])
	}
	if n := len([]rune(q[7].Text)); n != form.MaxQuestionLen {
		t.Errorf("long question has %d characters", n)
	}
	check(8, form.Select)
	if !slices.Equal(q[8].Options, []string{"France", "Spain"}) {
		t.Errorf("options = %q", q[8].Options)
	}
}

func TestGenerateFormFallsBackWhenJSONSchemaIsUnsupported(t *testing.T) {
	rejected := status(400, `{"error":{"message":"Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.","type":"invalid_request_error","param":"response_format"}}`)
	schemaInPrompt := func(t *testing.T, req sent) {
		t.Helper()
		sys := req.messages(t)[0]["content"].(string)
		if !strings.Contains(sys, "JSON schema") || !strings.Contains(sys, `"currencyConfig"`) {
			t.Errorf("the fallback's system prompt does not carry the schema")
		}
	}
	t.Run("json_object", func(t *testing.T) {
		s := newScript(t,
			checked(func(t *testing.T, req sent) {
				if path(req.Body, "response_format", "type") != "json_schema" {
					t.Errorf("first try is not json_schema: %s", jsonString(req.Body["response_format"]))
				}
			}, rejected),
			checked(func(t *testing.T, req sent) {
				if rf := req.Body["response_format"]; path(rf, "type") != "json_object" || path(rf, "json_schema") != nil {
					t.Errorf("fallback response_format = %s", jsonString(rf))
				}
				schemaInPrompt(t, req)
			}, reply("Here it is:\n```json\n"+contactForm+"\n```")))
		in, err := s.provider(t, time.Second).GenerateForm(context.Background(), "a contact form")
		if err != nil {
			t.Fatal(err)
		}
		if *in.Title != "Contact us" || len(in.Questions) != 6 {
			t.Errorf("form = %+v", in)
		}
	})
	t.Run("plain", func(t *testing.T) {
		s := newScript(t, rejected,
			status(400, `{"error":{"message":"response_format json_object is not supported"}}`),
			checked(func(t *testing.T, req sent) {
				if _, ok := req.Body["response_format"]; ok {
					t.Errorf("last fallback still sends response_format: %s", jsonString(req.Body["response_format"]))
				}
				schemaInPrompt(t, req)
			}, reply(contactForm)))
		in, err := s.provider(t, time.Second).GenerateForm(context.Background(), "a contact form")
		if err != nil {
			t.Fatal(err)
		}
		if len(in.Questions) != 6 || len(s.requests()) != 3 {
			t.Errorf("%d questions after %d requests", len(in.Questions), len(s.requests()))
		}
	})
	t.Run("other 400 is not retried", func(t *testing.T) {
		s := newScript(t, status(400, `{"error":{"message":"context length exceeded"}}`))
		_, err := s.provider(t, time.Second).GenerateForm(context.Background(), "a contact form")
		providerFailed(t, err, "HTTP 400", "context length exceeded")
		if len(s.requests()) != 1 {
			t.Errorf("%d requests, want 1", len(s.requests()))
		}
	})
}

func TestGenerateFormRejectsEmptyPromptWithoutCallingTheModel(t *testing.T) {
	s := newScript(t) // any request fails the test
	for _, prompt := range []string{"", "   \n\t", strings.Repeat("a", ai.MaxPromptLen+1)} {
		_, err := s.provider(t, time.Second).GenerateForm(context.Background(), prompt)
		var fe *form.Error
		if !asFormError(err, &fe) || fe.Code != form.Invalid || len(fe.Fields) != 1 || fe.Fields[0].Field != "prompt" {
			t.Errorf("prompt %.10q: err = %v, want an Invalid error on prompt", prompt, err)
		}
	}
}

func TestGenerateFormRefusal(t *testing.T) {
	s := newScript(t, func(_ *testing.T, _ sent, w http.ResponseWriter, _ *http.Request) {
		completion(w, map[string]any{"content": nil, "refusal": "I can't help with that."}, "stop")
	})
	_, err := s.provider(t, time.Second).GenerateForm(context.Background(), "a form to collect credit card numbers for phishing")
	var fe *form.Error
	if !asFormError(err, &fe) || fe.Code != form.Invalid || !strings.Contains(fe.Message, "declined") {
		t.Fatalf("err = %v, want Invalid about the refusal", err)
	}
}

func TestExtractJSON(t *testing.T) {
	for in, want := range map[string]string{
		`{"a":1}`:                           `{"a":1}`,
		"```json\n{\"a\":1}\n```":           `{"a":1}`,
		"```\n{\"a\":1}\n```":               `{"a":1}`,
		"Here you go: {\"a\":{\"b\":2}} ok": `{"a":{"b":2}}`,
	} {
		got, err := extractJSON(in)
		if err != nil || string(got) != want {
			t.Errorf("extractJSON(%q) = %s, %v; want %s", in, got, err, want)
		}
	}
	for _, in := range []string{"", "no json here", "{broken", "```json\n{\n```"} {
		if _, err := extractJSON(in); err == nil {
			t.Errorf("extractJSON(%q) succeeded", in)
		}
	}
}
