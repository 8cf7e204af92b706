package respond_test

import (
	"fmt"
	"maps"
	"net/url"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"forma/internal/form"
)

// xssValue is a hidden value that would run if the page rendered it as HTML.
const xssValue = `"><img src=x onerror="document.title='pwned'"><script>document.title='pwned'</script>`

// testPrefill opens a form at an address that prefills questions (valid values
// are shown, invalid ones ignored without any error) and carries hidden
// values, among them an XSS attempt, which the post stores as text.
func (b *browserEnv) testPrefill(t *testing.T) {
	f := createForm(t, b.env, b.key, map[string]any{"title": "Job application", "questions": allTypesQuestions(),
		"hiddenFields": []string{"utm_source", "note"}}, nil, true)
	q := func(prefix string) string { return fmt.Sprintf("q%d", f.qid(t, prefix)) }
	query := url.Values{
		q("Name"): {"Ada"}, q("Team"): {"Engineering"}, q("Languages"): {"Go", "SQL"}, q("Remote"): {"yes"},
		q("Rating"): {"4"}, q("Age"): {"forty"}, q("Start"): {"2026-02-30"}, q("Email"): {"not-an-email"},
		q("Team") + "x": {"Sales"}, "q999999": {"x"}, "utm_source": {"newsletter"}, "note": {xssValue},
	}
	ctx := b.tab(t)
	run(t, ctx, chromedp.Navigate(b.env.URL+"/f/"+f.Share+"?"+query.Encode()), chromedp.WaitReady(chromedp.ID("forma-form")))
	state := eval[map[string]any](t, ctx, `(function () {
		function val(id) { return document.getElementById(id).value; }
		function on(id) { return document.getElementById(id).checked; }
		return {name: val("`+f.field(t, "Name")+`"), team: val("`+f.field(t, "Team")+`"),
			go: on("`+f.field(t, "Languages")+`_0"), js: on("`+f.field(t, "Languages")+`_1"), sql: on("`+f.field(t, "Languages")+`_2"),
			yes: on("`+f.field(t, "Remote")+`_0"), four: on("`+f.field(t, "Rating")+`_3"),
			age: val("`+f.field(t, "Age")+`"), start: val("`+f.field(t, "Start")+`"), email: val("`+f.field(t, "Email")+`"),
			errors: document.querySelectorAll(".has-error, #error-summary").length,
			images: document.images.length, title: document.title,
			note: document.querySelector("input[data-hidden-field=note]").value};
	})()`)
	want := map[string]any{"name": "Ada", "team": "Engineering", "go": true, "js": false, "sql": true, "yes": true, "four": true,
		"age": "", "start": "", "email": "", "errors": 0.0, "images": 0.0, "title": "Job application", "note": xssValue}
	for k, w := range want {
		if state[k] != w {
			t.Errorf("%s = %v, want %v", k, state[k], w)
		}
	}
	run(t, ctx, chromedp.SendKeys(chromedp.ID(f.field(t, "Email")), "ada@example.com"), chromedp.Click(chromedp.ID("forma-next")))
	waitThanks(t, ctx)
	sub := checkAnswers(t, b.env, f.ID, 1, map[int64]any{
		f.qid(t, "Name"): "Ada", f.qid(t, "Email"): "ada@example.com", f.qid(t, "Team"): "Engineering",
		f.qid(t, "Languages"): []string{"Go", "SQL"}, f.qid(t, "Rating"): 4, f.qid(t, "Remote"): true,
	})
	if want := (form.HiddenValues{"utm_source": "newsletter", "note": xssValue}); !maps.Equal(sub.Hidden, want) {
		t.Errorf("stored hidden values %v, want %v", sub.Hidden, want)
	}
}

// partnerForm has a second question that only respondents who came with
// ref=partner are asked (a rule on the hidden field ref).
func (b *browserEnv) partnerForm(t *testing.T, mode string) *testForm {
	return createForm(t, b.env, b.key, map[string]any{"title": "Partners", "displayMode": mode, "hiddenFields": []string{"ref"},
		"questions": []any{
			map[string]any{"type": "text", "question": "Name", "required": true},
			map[string]any{"type": "text", "question": "Partner code", "required": true},
		}}, func(f *testForm) map[string]any {
		return map[string]any{"Name": map[string]any{"advanced": map[string]any{
			"conditionGroups": []any{map[string]any{"id": "g", "operator": "AND", "conditions": []any{
				map[string]any{"id": "c", "hiddenField": "ref", "operator": "equals", "value": "partner"}}}},
			"actions": []any{map[string]any{"type": "show_question", "targetId": f.qid(t, "Partner")}}}}}
	}, true)
}

// testHiddenFieldsMultiStep: a multi-step form carries the hidden value of its
// address through its session, and its page script shows the question that a
// rule on that value shows; without the value, the question is skipped.
func (b *browserEnv) testHiddenFieldsMultiStep(t *testing.T) {
	f := b.partnerForm(t, "multi-step")
	name, code := f.qid(t, "Name"), f.qid(t, "Partner")
	next := chromedp.Click(chromedp.ID("forma-next"))

	ctx := b.tab(t)
	run(t, ctx, chromedp.Navigate(b.env.URL+"/f/"+f.Share+"?ref=partner"), chromedp.WaitReady(chromedp.ID("forma-form")))
	step(t, ctx, name, "Step 1 of 2", "Next")
	run(t, ctx, chromedp.SendKeys(chromedp.ID(f.field(t, "Name")), "Ada"), next)
	step(t, ctx, code, "Step 2 of 2", "Submit")
	run(t, ctx, chromedp.SendKeys(chromedp.ID(f.field(t, "Partner")), "P-7"), next)
	waitThanks(t, ctx)
	sub := checkAnswers(t, b.env, f.ID, 1, map[int64]any{name: "Ada", code: "P-7"})
	if !maps.Equal(sub.Hidden, form.HiddenValues{"ref": "partner"}) {
		t.Errorf("stored hidden values %v", sub.Hidden)
	}

	ctx = b.tab(t)
	b.open(t, ctx, f)
	step(t, ctx, name, "Step 1 of 1", "Submit")
	run(t, ctx, chromedp.SendKeys(chromedp.ID(f.field(t, "Name")), "Bo"), next)
	waitThanks(t, ctx)
	sub = checkAnswers(t, b.env, f.ID, 2, map[int64]any{name: "Bo"})
	if len(sub.Hidden) != 0 {
		t.Errorf("hidden values %v stored for a respondent who came without", sub.Hidden)
	}
}

// testHiddenFieldsWithoutJavaScript: without the page script, the form's post
// carries the hidden value and a prefilled answer of its address.
func (b *browserEnv) testHiddenFieldsWithoutJavaScript(t *testing.T) {
	f := b.partnerForm(t, "single-page")
	ctx := b.tab(t)
	if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatal(err)
	}
	link := fmt.Sprintf("%s/f/%s?ref=partner&q%d=Grace", b.env.URL, f.Share, f.qid(t, "Name"))
	run(t, ctx, chromedp.Navigate(link), chromedp.WaitReady(chromedp.ID("forma-form")),
		chromedp.SendKeys(chromedp.ID(f.field(t, "Partner")), "P-9"), chromedp.Click(chromedp.ID("forma-next")))
	waitThanks(t, ctx)
	sub := checkAnswers(t, b.env, f.ID, 1, map[int64]any{f.qid(t, "Name"): "Grace", f.qid(t, "Partner"): "P-9"})
	if !maps.Equal(sub.Hidden, form.HiddenValues{"ref": "partner"}) {
		t.Errorf("stored hidden values %v", sub.Hidden)
	}
}
