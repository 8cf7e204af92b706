package generate_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode"

	"forma/internal/ai"
	"forma/internal/ai/generate"
	"forma/internal/form"
)

func mustForm(t *testing.T, prompt string) form.FormInput {
	t.Helper()
	in, err := generate.Form(prompt)
	if err != nil {
		t.Fatalf("Form(%q): %v", prompt, err)
	}
	if _, err := form.NewForm(in); err != nil {
		t.Fatalf("Form(%q) is not a valid form: %v", prompt, err)
	}
	return in
}

// question returns the first question whose text contains keyword.
func question(t *testing.T, in form.FormInput, keyword string) form.QuestionInput {
	t.Helper()
	for _, q := range in.Questions {
		if strings.Contains(strings.ToLower(*q.Question), strings.ToLower(keyword)) {
			return q
		}
	}
	t.Fatalf("no question about %q in %s", keyword, summary(in))
	return form.QuestionInput{}
}

func TestBadPrompts(t *testing.T) {
	for _, p := range []string{"", "   \n\t ", "!!!", "12345", "asdfgh qwerty", "a form", "hi", "x", "?? -- ??",
		"qwerty asdf zxcvbnm", "please make a form"} {
		_, err := generate.Form(p)
		var fe *form.Error
		if !errors.As(err, &fe) || fe.Code != form.Invalid {
			t.Errorf("Form(%q) = %v, want an Invalid *form.Error", p, err)
			continue
		}
		if len(fe.Fields) != 1 || fe.Fields[0].Field != "prompt" || !strings.HasPrefix(fe.Message, "prompt: ") {
			t.Errorf("Form(%q): error %+v does not name the field prompt", p, fe)
		}
		if !strings.Contains(fe.Message, "for example: 'a contact form with name, email and message'") {
			t.Errorf("Form(%q): message %q gives no example", p, fe.Message)
		}
	}
}

func TestInvalidUTF8(t *testing.T) {
	_, err := generate.Form("a contact form with name, email and \xab message")
	var fe *form.Error
	if !errors.As(err, &fe) || fe.Code != form.Invalid || fe.Fields[0].Field != "prompt" {
		t.Fatalf("got %v, want an Invalid error about the prompt", err)
	}
}

func TestPromptLength(t *testing.T) {
	long := strings.Repeat("name, email, ", 400)
	_, err := generate.Form(long)
	var fe *form.Error
	if !errors.As(err, &fe) || fe.Code != form.Invalid || fe.Fields[0].Field != "prompt" ||
		!strings.Contains(fe.Message, "at most 5000 characters") {
		t.Fatalf("Form(%d characters) = %v, want a length error", len(long), err)
	}
	limit := "a contact form with " + strings.Repeat("x", ai.MaxPromptLen-len("a contact form with "))
	in := mustForm(t, limit)
	for _, q := range in.Questions {
		if n := len([]rune(*q.Question)); n > form.MaxQuestionLen {
			t.Errorf("question of %d characters", n)
		}
	}
}

func TestOptionsFromPrompt(t *testing.T) {
	cases := []struct {
		prompt, keyword string
		typ             form.QuestionType
		options         []string
	}{
		{"a job application form asking for name, email and how they heard about us (LinkedIn, a friend, a job board)",
			"hear", form.Select, []string{"LinkedIn", "a friend", "a job board"}},
		{"a form asking for favourite programming language between Go, Rust and Zig, and their email",
			"language", form.Select, []string{"Go", "Rust", "Zig"}},
		{"an order form with name, cake flavour such as chocolate, vanilla or red velvet, and their phone",
			"flavour", form.Select, []string{"chocolate", "vanilla", "red velvet"}},
		{"a survey with name, shirt size (S/M/L) and email", "size", form.Select, []string{"S", "M", "L"}},
		{"a survey with name, favourite colour (e.g. red, green, blue, etc.) and email", "colour", form.Select,
			[]string{"red", "green", "blue", "Other"}},
		{"rsvp form: name, meal: beef, salmon or vegetarian, email", "meal", form.Select,
			[]string{"beef", "salmon", "vegetarian"}},
		{"booking form: name, preferred day (Monday to Friday), email", "day", form.Select,
			[]string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday"}},
		{"lead form: name, email, company size (1-10, 11-50, 200+)", "company size", form.Select,
			[]string{"1-10", "11-50", "200+"}},
		{"signup form: name, interests (music, sport, travel), email", "interests", form.MultiSelect,
			[]string{"music", "sport", "travel"}},
		{"survey: name, which days suit you? Monday, Wednesday or Friday", "days", form.MultiSelect,
			[]string{"Monday", "Wednesday", "Friday"}},
		{"housing survey: name, do you own or rent?, email", "own or rent", form.Select, []string{"Own", "Rent"}},
		{"camp registration: name, photo consent (yes/no), email", "consent", form.YesNo, nil},
		{"a survey: name, do you have any allergies or intolerances?", "allergies", form.YesNo, nil},
		{"a survey with name, satisfaction (1-5), email", "satisfaction", form.Rating, nil},
	}
	for _, c := range cases {
		q := question(t, mustForm(t, c.prompt), c.keyword)
		if q.Type != c.typ || !reflect.DeepEqual(q.Options, c.options) {
			t.Errorf("%q: %q is %s %q, want %s %q", c.prompt, *q.Question, q.Type, q.Options, c.typ, c.options)
		}
	}
}

func TestDefaultOptions(t *testing.T) {
	q := question(t, mustForm(t, "a job application form with name, email and how did you hear about us"), "hear")
	want := []string{"Search engine", "Social media", "Friend or colleague", "Advertisement", "Other"}
	if q.Type != form.Select || !reflect.DeepEqual(q.Options, want) {
		t.Errorf("got %s %q, want select %q", q.Type, q.Options, want)
	}
}

func TestCurrency(t *testing.T) {
	cases := []struct{ prompt, keyword, currency string }{
		{"a lead form with name, email and budget in euros", "budget", "EUR"},
		{"a lead form with name, email and budget ($)", "budget", "USD"},
		{"a job application with name, email and salary expectation in pounds", "salary", "GBP"},
		{"a donation form with name, email and donation amount in £", "donation", "GBP"},
		{"a booking form with name, email, date and price per person in yen", "price", "JPY"},
		{"a booking form with name, email and price in ¥", "price", "JPY"},
		{"a lost item report with name, email and estimated value in CAD", "value", "CAD"},
		{"a quote form with name, email and budget in canadian dollars", "budget", "CAD"},
		{"a job application with name, email and expected salary", "salary", "USD"},
		{"All prices are in euros. An order form with name, email and price", "price", "EUR"},
		{"a survey with name, weight in pounds and ALL of your budget", "budget", "USD"},
	}
	for _, c := range cases {
		q := question(t, mustForm(t, c.prompt), c.keyword)
		if q.Type != form.Currency || q.CurrencyConfig == nil || q.CurrencyConfig.Currency != c.currency {
			t.Errorf("%q: %q is %s %+v, want currency %s", c.prompt, *q.Question, q.Type, q.CurrencyConfig, c.currency)
		}
		if strings.Contains(strings.ToLower(*q.Question), " in ") {
			t.Errorf("%q: question text %q keeps the currency", c.prompt, *q.Question)
		}
	}
	q := question(t, mustForm(t, "a survey with name, weight in pounds and email"), "weight")
	if q.Type != form.Number {
		t.Errorf("weight in pounds is %s, want number", q.Type)
	}
}

func TestDeterministic(t *testing.T) {
	for _, c := range suiteCases(t) {
		a, errA := generate.Form(c.Prompt)
		b, errB := generate.Form(c.Prompt)
		if !reflect.DeepEqual(a, b) || !reflect.DeepEqual(errA, errB) {
			t.Errorf("Form(%s) differs between two calls", c.name)
		}
	}
}

func TestQuestionCap(t *testing.T) {
	var fields []string
	for i := 1; i <= 45; i++ {
		fields = append(fields, fmt.Sprintf("favourite thing number %d", i))
	}
	in := mustForm(t, "a survey asking for "+strings.Join(fields, ", "))
	if len(in.Questions) != ai.MaxGeneratedQuestions {
		t.Fatalf("got %d questions, want %d", len(in.Questions), ai.MaxGeneratedQuestions)
	}
	if got := *in.Questions[29].Question; got != "Favourite thing number 30" {
		t.Errorf("the cap keeps the first questions; the last is %q", got)
	}
}

func TestDuplicatesDropped(t *testing.T) {
	in := mustForm(t, "a contact form with name, email, your name, e-mail address, email, message and message")
	var texts []string
	for _, q := range in.Questions {
		texts = append(texts, *q.Question)
	}
	want := []string{"Full name", "Email address", "Message"}
	if len(texts) != 3 || !(texts[0] == want[0] && texts[2] == want[2]) {
		t.Errorf("got %q, want %q", texts, want)
	}
}

func TestDisplayMode(t *testing.T) {
	for p, want := range map[string]form.DisplayMode{
		"a multi-step contact form":                                     form.MultiStep,
		"a feedback form, step by step":                                 form.MultiStep,
		"a job application, one question at a time":                     form.MultiStep,
		"a wizard for onboarding with company name, website, team size": form.MultiStep,
		"a contact form with name, email and message":                   form.SinglePage,
	} {
		if got := mustForm(t, p).DisplayMode; got != want {
			t.Errorf("%q: display mode %q, want %q", p, got, want)
		}
	}
}

func TestRequired(t *testing.T) {
	in := mustForm(t, "a contact form with name, email, phone (optional), company (required) and message")
	for keyword, want := range map[string]bool{"name": true, "email": true, "phone": false, "company": true, "message": true} {
		if got := question(t, in, keyword).Required; got != want {
			t.Errorf("%s required = %v, want %v", keyword, got, want)
		}
	}
	job := mustForm(t, "a job application form asking for name, email, phone and a resume upload")
	if !question(t, job, "resume").Required || question(t, job, "phone").Required {
		t.Errorf("job application: resume must be required and phone optional: %s", summary(job))
	}
}

func TestTemplates(t *testing.T) {
	for _, p := range []string{"contact form", "feedback form", "NPS survey", "event registration", "RSVP",
		"job application", "order form", "book an appointment", "bug report", "lead capture form", "quiz",
		"newsletter signup", "customer satisfaction survey"} {
		in := mustForm(t, p)
		if n := len(in.Questions); n < 4 || n > 10 {
			t.Errorf("%q: template has %d questions, want 4 to 10", p, n)
		}
	}
}

func TestThinPromptIsEnriched(t *testing.T) {
	in := mustForm(t, "a contact form with a field for their company")
	question(t, in, "company")
	if question(t, in, "message").Type != form.Textarea || len(in.Questions) < 4 {
		t.Errorf("a thin contact prompt should get the contact template: %s", summary(in))
	}
	only := mustForm(t, "a contact form with only name and email")
	if len(only.Questions) != 2 {
		t.Errorf("\"only\" should keep the listed fields: %s", summary(only))
	}
}

func TestTitleAndWording(t *testing.T) {
	in := mustForm(t, "a job application form asking for name, email, phone, years of experience, a resume upload and how they heard about us (LinkedIn, a friend, a job board)")
	if *in.Title != "Job Application" {
		t.Errorf("title %q", *in.Title)
	}
	if d := *in.Description; d == "" || !strings.HasSuffix(d, ".") || strings.Count(d, ". ") > 0 {
		t.Errorf("description %q is not one sentence", d)
	}
	if got := *question(t, in, "hear").Question; got != "How did you hear about us?" {
		t.Errorf("question %q, want %q", got, "How did you hear about us?")
	}
	if got := *mustForm(t, "a feedback form for my yoga class").Title; got != "Yoga Class Feedback" {
		t.Errorf("title %q, want %q", got, "Yoga Class Feedback")
	}
}

func TestWording(t *testing.T) {
	in := mustForm(t, "a survey with state, city, zip code, rate our app?, whether they've used it before, "+
		"which features they use (search, sharing) and what they liked most")
	for _, want := range []string{"State", "City", "Zip code", "How would you rate our app?",
		"Have you used it before?", "Which features do you use?", "What did you like most?"} {
		if got := *question(t, in, want).Question; got != want {
			t.Errorf("question %q, want %q", got, want)
		}
	}
}

// TestWellFormed checks every form of the suites for tidy text: capitalised
// question texts without surrounding space, trimmed options. (Refused prompts
// count as misses in the quality tests.)
func TestWellFormed(t *testing.T) {
	for _, c := range suiteCases(t) {
		in, err := generate.Form(c.Prompt)
		if err != nil {
			continue
		}
		for _, q := range in.Questions {
			text := *q.Question
			if first := []rune(text)[0]; text != strings.TrimSpace(text) || unicode.IsLower(first) {
				t.Errorf("%s: untidy question text", c.name)
			}
			for _, o := range q.Options {
				if o != strings.TrimSpace(o) || o == "" {
					t.Errorf("%s: untidy option", c.name)
				}
			}
		}
	}
}

// FuzzForm checks that any prompt gives either an Invalid error about the
// prompt or a valid form of at most 30 questions.
func FuzzForm(f *testing.F) {
	for _, s := range []string{"a contact form", "name, email (a, b", "((((", "rate x, y and z from 1 to 5",
		"how they ? (a) b?", "- a\n- b\n1. c", "budget in $$ €", "x: y: z:", "whether if whether",
		"yes/no/maybe", "Monday to Sunday", "select all that apply", "€€€", "a - b - c - d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, prompt string) {
		in, err := generate.Form(prompt)
		if err != nil {
			var fe *form.Error
			if !errors.As(err, &fe) || fe.Code != form.Invalid || fe.Fields[0].Field != "prompt" {
				t.Fatalf("Form(%q): %v", prompt, err)
			}
			return
		}
		if _, err := form.NewForm(in); err != nil {
			t.Fatalf("Form(%q) is not valid: %v", prompt, err)
		}
		if len(in.Questions) > ai.MaxGeneratedQuestions {
			t.Fatalf("Form(%q) has %d questions", prompt, len(in.Questions))
		}
	})
}
