package dashboard_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"forma/internal/server/servertest"
)

// builder is a signed-in browser editing one form, and an API key of the same
// account to read what was stored.
type builder struct {
	*browser
	t    *testing.T
	env  *servertest.Env
	key  string
	id   int64
	path string // /forms/{id}
}

// newBuilder signs in as a new account and creates a form titled title through
// /forms/new.
func newBuilder(t *testing.T, env *servertest.Env, email, title string) *builder {
	t.Helper()
	acct := withPassword(t, env, email, password)
	b := &builder{browser: newBrowser(t, env), t: t, env: env, key: env.Key(acct, nil, nil)}
	b.signIn(email, password)
	if p := b.get("/forms/new"); p.Status != http.StatusOK || !strings.Contains(p.Body, `action="/forms/new"`) {
		t.Fatalf("new form page: %d\n%s", p.Status, p.Body)
	}
	p := b.post("/forms/new", url.Values{"title": {title}, "description": {"About the day"}, "displayMode": {"multi-step"}})
	if _, err := fmt.Sscanf(p.Location, "/forms/%d?done=created", &b.id); p.Status != http.StatusSeeOther || err != nil {
		t.Fatalf("create a form: %d %q\n%s", p.Status, p.Location, p.Body)
	}
	b.path = fmt.Sprintf("/forms/%d", b.id)
	return b
}

// apiForm is the form as GET /api/v1/forms/{id} answers it.
type apiFormView struct {
	Title, Description, DisplayMode string
	IsPublished                     bool
	Questions                       []struct {
		ID               int64
		Order            int
		Type, Question   string
		Required         bool
		Options          []string
		SliderConfig     map[string]float64
		ConditionalLogic json.RawMessage
	}
}

// stored reads the form through the API, and its raw body.
func (b *builder) stored() (apiFormView, string) {
	b.t.Helper()
	r := b.env.For(b.t).Do("GET", fmt.Sprintf("/api/v1/forms/%d", b.id), b.key, nil)
	if r.Status != http.StatusOK {
		b.t.Fatalf("GET the form: %d %s", r.Status, r.Body)
	}
	var f apiFormView
	if err := json.Unmarshal(r.Body, &f); err != nil {
		b.t.Fatal(err)
	}
	return f, string(r.Body)
}

// change posts vals to the editor's sub-path and expects a redirect back to it.
func (b *builder) change(sub string, vals url.Values) {
	b.t.Helper()
	p := b.post(b.path+sub, vals)
	if p.Status != http.StatusSeeOther || !strings.HasPrefix(p.Location, b.path+"?done=") {
		b.t.Fatalf("POST %s%s: %d %q\n%s", b.path, sub, p.Status, p.Location, p.Body)
	}
}

// refused posts vals and expects the editor again with a 400, each of want in
// it, and nothing stored.
func (b *builder) refused(sub string, vals url.Values, want ...string) page {
	b.t.Helper()
	_, before := b.stored()
	p := b.post(b.path+sub, vals)
	if p.Status != http.StatusBadRequest {
		b.t.Fatalf("POST %s%s %v: %d, want 400\n%s", b.path, sub, vals, p.Status, p.Body)
	}
	for _, w := range want {
		if !strings.Contains(p.Body, w) {
			b.t.Errorf("POST %s%s %v: the page lacks %q", b.path, sub, vals, w)
		}
	}
	if _, after := b.stored(); after != before {
		b.t.Errorf("POST %s%s %v changed the form:\n%s\n%s", b.path, sub, vals, before, after)
	}
	return p
}

func (b *builder) qpath(id int64, sub string) string { return fmt.Sprintf("/questions/%d%s", id, sub) }

// TestBuilderJourney builds a form through the builder's posts and checks each
// step through the API: questions of five types, an edit, a move, a deletion
// with confirmation, a showIf rule, publication.
func TestBuilderJourney(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		b := newBuilder(t, env, "ada@example.com", "Team offsite")
		f, _ := b.stored()
		if f.Title != "Team offsite" || f.Description != "About the day" || f.DisplayMode != "multi-step" || len(f.Questions) != 0 {
			t.Fatalf("created form: %+v", f)
		}
		adds := []url.Values{
			{"type": {"text"}, "question": {"Your name"}, "required": {"on"}},
			{"type": {"email"}, "question": {"Email"}},
			{"type": {"select"}, "question": {"Meal"}, "options": {"Fish\r\n\r\n Meat \nVegan\n"}, "required": {"on"}},
			{"type": {"file_upload"}, "question": {"Dietary certificate"}},
			{"type": {"yes_no"}, "question": {"Staying overnight?"}},
		}
		for _, v := range adds {
			b.change("/questions", v)
		}
		f, _ = b.stored()
		if len(f.Questions) != 5 || f.Questions[2].Type != "select" || strings.Join(f.Questions[2].Options, "|") != "Fish|Meat|Vegan" ||
			!f.Questions[0].Required || f.Questions[1].Required || f.Questions[3].Type != "file_upload" {
			t.Fatalf("after adding: %+v", f.Questions)
		}
		email, meal, cert, stay := f.Questions[1].ID, f.Questions[2].ID, f.Questions[3].ID, f.Questions[4].ID

		// A slider needs its range: the first post shows its fields with the problem.
		p := b.refused("/questions", url.Values{"type": {"slider"}, "question": {"How excited?"}},
			"The slider&#39;s range is required for slider questions.", `name="sliderMin"`)
		if !strings.Contains(p.Body, `value="How excited?"`) {
			t.Errorf("the refused question's text is not kept")
		}
		b.change("/questions", url.Values{"type": {"slider"}, "question": {"How excited?"}, "sliderMin": {"0"}, "sliderMax": {"10"}, "sliderStep": {"0.5"}})

		b.change(b.qpath(email, ""), url.Values{"type": {"email"}, "question": {"Work email"}, "required": {"on"}})
		b.change(b.qpath(meal, "/move"), url.Values{"to": {"2"}})
		if p := b.get(b.path + b.qpath(stay, "/delete")); p.Status != http.StatusOK || !strings.Contains(p.Body, "Delete this question?") {
			t.Fatalf("delete confirmation: %d\n%s", p.Status, p.Body)
		}
		b.change(b.qpath(stay, "/delete"), nil)

		f, _ = b.stored()
		var order []string
		for _, q := range f.Questions {
			order = append(order, fmt.Sprintf("%d:%s:%v", q.Order, q.Question, q.Required))
		}
		if got := strings.Join(order, " "); got != "1:Your name:true 2:Meal:true 3:Work email:true 4:Dietary certificate:false 5:How excited?:false" {
			t.Errorf("questions after edit, move and delete: %s", got)
		}
		if s := f.Questions[4].SliderConfig; s["min"] != 0 || s["max"] != 10 || s["step"] != 0.5 {
			t.Errorf("slider config: %v", s)
		}

		checkLogic(t, b, meal, cert, email)

		b.change("/publish", nil)
		if f, _ := b.stored(); !f.IsPublished {
			t.Fatal("not published")
		}
		p = b.get(b.path)
		share := env.URL + "/f/"
		for _, want := range []string{`id="share-link" value="` + share, "data-forma-embed=&#34;", "data-forma-popup=&#34;", ">Preview<", "Unpublish"} {
			if !strings.Contains(p.Body, want) {
				t.Errorf("the published editor lacks %q", want)
			}
		}
		b.change("/unpublish", nil)
		if f, _ := b.stored(); f.IsPublished {
			t.Fatal("still published")
		}
		b.change("", url.Values{"title": {"Team offsite 2027"}, "description": {""}, "displayMode": {"single-page"}})
		if f, _ := b.stored(); f.Title != "Team offsite 2027" || f.Description != "" || f.DisplayMode != "single-page" {
			t.Errorf("details: %+v", f)
		}
	})
}

// checkLogic sets a showIf rule on cert reading meal through the editor, and
// checks that the API stores exactly what it would store if sent the same rule;
// then it is cleared. The choice of another question first shows its values.
func checkLogic(t *testing.T, b *builder, meal, cert, email int64) {
	t.Helper()
	p := b.get(b.path)
	for _, want := range []string{"Show this question only if", `<option value="Vegan">Vegan</option>`, "The first question is always shown."} {
		if !strings.Contains(p.Body, want) {
			t.Errorf("the editor lacks %q", want)
		}
	}
	ids := func(id int64) string { return fmt.Sprint(id) }
	// Choosing another question shows its values; nothing is saved yet.
	p = b.post(b.path+b.qpath(cert, "/logic"), url.Values{"for": {ids(email)}, "target": {ids(meal)}, "operator": {"equals"},
		"value": {"x@example.com"}, "action": {"save"}})
	if p.Status != http.StatusOK || !strings.Contains(p.Body, "Now choose the value for this question") {
		t.Errorf("changing the rule's question: %d", p.Status)
	}
	b.change(b.qpath(cert, "/logic"), url.Values{"for": {ids(meal)}, "target": {ids(meal)}, "operator": {"equals"},
		"value": {"Vegan"}, "action": {"save"}})
	f, _ := b.stored()
	want := fmt.Sprintf(`{"showIf":{"questionId":%d,"operator":"equals","value":"Vegan"}}`, meal)
	if got := string(f.Questions[3].ConditionalLogic); got != want {
		t.Errorf("stored logic %s, want %s", got, want)
	}
	// The API stores the same rule the same way.
	r := b.env.For(t).Do("PATCH", fmt.Sprintf("/api/v1/forms/%d/fields/%d", b.id, email), b.key,
		json.RawMessage(fmt.Sprintf(`{"conditionalLogic":{"showIf":{"questionId":%d,"operator":"equals","value":"Vegan"}}}`, meal)))
	if r.Status != http.StatusOK {
		t.Fatalf("PATCH logic: %d %s", r.Status, r.Body)
	}
	f, _ = b.stored()
	if api := string(f.Questions[2].ConditionalLogic); api != want {
		t.Errorf("the API stored %s, the builder %s", api, want)
	}
	if p := b.get(b.path); !strings.Contains(p.Body, "Shown only if “2. Meal” is “Vegan”.") {
		t.Errorf("the editor does not state the rule")
	}
	b.refused(b.qpath(cert, "/logic"), url.Values{"for": {ids(meal)}, "target": {ids(meal)}, "operator": {"contains"},
		"value": {"Vegan"}, "action": {"save"}}, `aria-describedby="q`+ids(cert)+`-logic-operator-error"`, "The comparison")
	b.change(b.qpath(cert, "/logic"), url.Values{"action": {"clear"}})
	b.change(b.qpath(email, "/logic"), url.Values{"action": {"clear"}})
	f, _ = b.stored()
	if f.Questions[3].ConditionalLogic != nil || f.Questions[2].ConditionalLogic != nil {
		t.Errorf("Always show left logic: %s", f.Questions[3].ConditionalLogic)
	}
}

// TestBuilderInvalid: what the domain refuses is a 400 editor with the problem
// at its field, the values kept, nothing stored.
func TestBuilderInvalid(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		b := newBuilder(t, env, "ada@example.com", "Checks")
		b.refused("/questions", url.Values{"type": {"text"}, "question": {""}},
			`id="new-question-error" role="alert">The question must not be empty.`, `aria-describedby="new-question-error"`)
		b.refused("/questions", url.Values{"type": {"text"}, "question": {"Name\x01?"}},
			`id="new-question-error" role="alert">The question`, `value="Name`)
		b.refused("/questions", url.Values{"type": {"select"}, "question": {"Colour"}, "options": {"Red\nBlue\nRed"}},
			`id="new-options-error" role="alert">Choice 3 duplicates option &#34;Red&#34;.`, ">Red\nBlue\nRed</textarea>", `value="Colour"`)
		b.refused("", url.Values{"title": {" "}, "displayMode": {"single-page"}}, `id="title-error" role="alert">The title must not be blank.`)
		if p := b.post("/forms/new", url.Values{"title": {""}}); p.Status != http.StatusBadRequest || !strings.Contains(p.Body, "The title must not be empty.") {
			t.Errorf("an empty new form: %d", p.Status)
		}
		b.change("/questions", url.Values{"type": {"select"}, "question": {"Colour"}, "options": {"Red\nBlue"}})
		f, _ := b.stored()
		q := f.Questions[0].ID
		b.refused(b.qpath(q, ""), url.Values{"type": {"select"}, "question": {"Colour"}, "options": {""}},
			"The list of choices is required", `aria-invalid="true"`)
		b.refused(b.qpath(q, "/move"), url.Values{"to": {"5"}}, "The position must be between 1 and 1.")
		// A question another one's rule reads is not deleted.
		b.change("/questions", url.Values{"type": {"text"}, "question": {"Why red?"}})
		f, _ = b.stored()
		b.change(b.qpath(f.Questions[1].ID, "/logic"), url.Values{"for": {fmt.Sprint(q)}, "target": {fmt.Sprint(q)}, "operator": {"equals"}, "value": {"Red"}})
		if p := b.post(b.path+b.qpath(q, "/delete"), nil); p.Status != http.StatusConflict || !strings.Contains(p.Body, "Change or remove that rule first") {
			t.Errorf("deleting a question a rule reads: %d", p.Status)
		}
	})
}

// TestBuilderUnknownFormAndCrossSite: a form id that names no form of the
// account is a 404 page; a cross-site post is refused. (Other accounts' forms,
// and markup in every field: security_test.go.)
func TestBuilderUnknownFormAndCrossSite(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		a := newBuilder(t, env, "ada@example.com", "Private")
		for _, path := range []string{"/forms/999999", "/forms/x", a.path + "/questions/999999/delete"} {
			if p := a.get(path); p.Status != http.StatusNotFound {
				t.Errorf("GET %s: %d", path, p.Status)
			}
		}
		p := a.post(a.path+"/publish", nil, "Sec-Fetch-Site", "cross-site")
		if p.Status != http.StatusForbidden {
			t.Errorf("a cross-site publish: %d", p.Status)
		}
		if f, _ := a.stored(); f.IsPublished {
			t.Error("a cross-site post published the form")
		}
	})
}
