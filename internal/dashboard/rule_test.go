package dashboard_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"forma/internal/server/servertest"
)

// ruleForm builds a form for the rule editor: a select, a number, a yes/no, a
// textarea and a date question; it returns their ids in that order.
func ruleForm(t *testing.T, env *servertest.Env) (*builder, [5]int64) {
	t.Helper()
	b := newBuilder(t, env, "ada@example.com", "Dinner")
	for _, v := range []url.Values{
		{"type": {"select"}, "question": {"Meal"}, "options": {"Fish\nMeat\nVegan"}},
		{"type": {"number"}, "question": {"Age"}},
		{"type": {"yes_no"}, "question": {"Staying?"}},
		{"type": {"textarea"}, "question": {"Diet notes"}},
		{"type": {"date"}, "question": {"Arrival"}},
	} {
		b.change("/questions", v)
	}
	f, _ := b.stored()
	var ids [5]int64
	for i, q := range f.Questions {
		ids[i] = q.ID
	}
	return b, ids
}

// options are the values of the options of the select with id in body.
func options(t *testing.T, body, id string) []string {
	t.Helper()
	m := regexp.MustCompile(`(?s)<select[^>]* id="` + regexp.QuoteMeta(id) + `"[^>]*>(.*?)</select>`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no select %s", id)
	}
	var out []string
	for _, o := range regexp.MustCompile(`<option value="([^"]*)"`).FindAllStringSubmatch(m[1], -1) {
		out = append(out, o[1])
	}
	return out
}

// ruleBlock is the rule editor of question q in body.
func ruleBlock(t *testing.T, body string, q int64) string {
	t.Helper()
	m := regexp.MustCompile(`(?s)<details class="rule" id="q` + fmt.Sprint(q) + `-rule".*?</details>`).FindString(body)
	if m == "" {
		t.Fatalf("no rule editor of question %d", q)
	}
	return m
}

// ruleOn is a post of a rule editor that saves: the fields given (counts
// included), and each condition drawn for what it reads (its .for) unless given.
func ruleOn(fields map[string]string) url.Values {
	v := url.Values{"edit": {"save"}}
	for k, val := range fields {
		v.Set(k, val)
	}
	for k := range fields {
		if c, ok := strings.CutSuffix(k, ".q"); ok && strings.Contains(c, ".c") && v.Get(c+".for") == "" {
			vt := v.Get(c + ".vt")
			if v.Get(k) == "score" {
				vt = "score"
			}
			v.Set(c+".for", v.Get(k)+":"+vt)
		}
	}
	return v
}

// TestRuleEditorChoices: each control of a blank rule offers only what is valid
// where it stands: a condition reads this question or an earlier one, or the
// score, with the operators of that question's type and its answers where they
// are a known set; an action acts on a later question.
func TestRuleEditorChoices(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		b, q := ruleForm(t, env)
		p := b.get(b.path)
		id := func(n int, suffix string) string { return fmt.Sprintf("q%d-%s", q[n], suffix) }
		ids := func(ns ...int) []string {
			var out []string
			for _, n := range ns {
				out = append(out, fmt.Sprint(q[n]))
			}
			return out
		}
		checks := []struct {
			select_ string
			want    []string
		}{
			{id(2, "g0-c0-q"), append(ids(0, 1, 2), "score")},
			{id(2, "g0-c0-op"), []string{"equals", "not_equals", "is_empty", "is_not_empty"}},
			{id(2, "g0-c0-v"), []string{"true", "false"}},
			{id(2, "a0-q"), ids(3, 4)},
			{id(2, "a0-type"), []string{"show_question", "hide_question", "skip_to_question", "end_form", "set_score"}},
			{id(1, "g0-c0-op"), []string{"equals", "not_equals", "greater_than", "less_than", "is_empty", "is_not_empty"}},
			{id(0, "g0-c0-op"), []string{"equals", "not_equals", "contains", "is_empty", "is_not_empty"}},
			{id(0, "g0-c0-v"), []string{"Fish", "Meat", "Vegan"}},
			{id(0, "g0-c0-vt"), []string{"static", "dynamic"}},
		}
		for _, c := range checks {
			if got := options(t, p.Body, c.select_); !slices.Equal(got, c.want) {
				t.Errorf("%s offers %v, want %v", c.select_, got, c.want)
			}
		}
		for _, want := range []string{
			`<option value="true">Yes</option>`, ">is after</option>", // dates are after and before
			`<input class="input" type="date" id="` + id(4, "g0-c0-v") + `"`,
			`<input class="input" type="text" id="` + id(1, "g0-c0-v") + `" name="g0.c0.v" value="" inputmode="decimal"`,
			`<option value="">No question after this one</option>`, // the last question acts on none
		} {
			if !strings.Contains(p.Body, want) {
				t.Errorf("the editor lacks %q", want)
			}
		}
		// Adding a score rule offers the questions whose answers are a known set,
		// with one points input per answer.
		p = b.post(b.path+b.qpath(q[1], "/rule"), url.Values{"groups": {"0"}, "edit": {"add-score"}})
		if p.Status != http.StatusOK || !strings.Contains(p.Body, `id="`+id(1, "s0-q")+`" name="s0.q" autofocus`) {
			t.Fatalf("add a score rule: %d", p.Status)
		}
		if got := options(t, p.Body, id(1, "s0-q")); !slices.Equal(got, ids(0, 2)) {
			t.Errorf("a score rule may score %v", got)
		}
		for _, want := range []string{`name="s0.key" value="Fish"`, `name="s0.key" value="Vegan"`, `<label for="` + id(1, "s0-p2") + `">Vegan</label>`} {
			if !strings.Contains(p.Body, want) {
				t.Errorf("the score rule lacks %q", want)
			}
		}
	})
}

// TestRuleEditorSaves: a rule posted through the editor is stored as the API
// stores the same JSON and read back by the API exactly; the editor then states
// it and draws it again; it can be removed, keeping the showIf rule.
func TestRuleEditorSaves(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		b, q := ruleForm(t, env)
		meal, age, stay, notes := q[0], q[1], q[2], q[3]
		ids := func(n int64) string { return fmt.Sprint(n) }
		b.change(b.qpath(age, "/logic"), url.Values{"for": {ids(meal)}, "target": {ids(meal)}, "operator": {"not_equals"}, "value": {"Fish"}})
		post := ruleOn(map[string]string{"groups": "2", "actions": "2", "scores": "1",
			"g0.op": "AND", "g0.n": "2",
			"g0.c0.q": ids(age), "g0.c0.op": "greater_than", "g0.c0.vt": "static", "g0.c0.v": " 17 ",
			"g0.c1.q": ids(meal), "g0.c1.op": "equals", "g0.c1.vt": "static", "g0.c1.v": "Vegan",
			"g1.op": "OR", "g1.n": "2",
			"g1.c0.q": "score", "g1.c0.op": "greater_than", "g1.c0.v": "2.5",
			"g1.c1.q": ids(age), "g1.c1.op": "is_empty", "g1.c1.vt": "static", "g1.c1.v": "ignored",
			"a0.type": "show_question", "a0.q": ids(notes), "a0.v": "ignored",
			"a1.type": "set_score", "a1.q": ids(stay), "a1.v": "5",
			"s0.q": ids(meal), "s0.for": ids(meal),
		})
		post["s0.key"], post["s0.pts"] = []string{"Fish", "Meat", "Vegan"}, []string{"1", "", "-0.5"}
		b.change(b.qpath(age, "/rule"), post)
		rule := fmt.Sprintf(`{"conditionGroups":[{"id":"g1","operator":"AND","conditions":[`+
			`{"id":"c1","questionId":%[1]d,"operator":"greater_than","value":17,"valueType":"static"},`+
			`{"id":"c2","questionId":%[2]d,"operator":"equals","value":"Vegan","valueType":"static"}]},`+
			`{"id":"g2","operator":"OR","conditions":[{"id":"c3","questionId":0,"operator":"greater_than","value":2.5,"valueType":"score"},`+
			`{"id":"c4","questionId":%[1]d,"operator":"is_empty","valueType":"static"}]}],`+
			`"actions":[{"type":"show_question","targetId":%[3]d},{"type":"set_score","value":5}],`+
			`"scoreRules":[{"id":"s1","questionId":%[2]d,"scoreMap":{"Fish":1,"Vegan":-0.5}}]}`, age, meal, notes)
		want := fmt.Sprintf(`{"showIf":{"questionId":%d,"operator":"not_equals","value":"Fish"},"advanced":%s}`, meal, rule)
		f, _ := b.stored()
		if got := string(f.Questions[1].ConditionalLogic); got != want {
			t.Fatalf("stored\n%s\nwant\n%s", got, want)
		}
		// The API takes the same rule and gives it back unchanged.
		r := env.For(t).Do("PATCH", fmt.Sprintf("/api/v1/forms/%d/fields/%d", b.id, stay), b.key, json.RawMessage(`{"conditionalLogic":{"advanced":`+rule+`}}`))
		if r.Status != http.StatusOK {
			t.Fatalf("PATCH the same rule: %d %s", r.Status, r.Body)
		}
		if f, _ = b.stored(); string(f.Questions[2].ConditionalLogic) != `{"advanced":`+rule+`}` {
			t.Errorf("the API stored %s", f.Questions[2].ConditionalLogic)
		}

		p := b.get(b.path)
		for _, want := range []string{
			"If (“2. Age” is more than “17” and “1. Meal” is “Vegan”) and (the score is more than 2.5 or “2. Age” is not answered): show “4. Diet notes”, then set the score to 5. Scores the answers to “1. Meal”.",
			fmt.Sprintf(`id="q%d-g0-c1-v" name="g0.c1.v">`, age), `<option value="Vegan" selected>Vegan</option>`,
			fmt.Sprintf(`id="q%d-s0-p2" name="s0.pts" value="-0.5"`, age), `name="g1.c0.v" value="2.5" inputmode="decimal"`,
			`value="delete">Remove the rule</button>`,
		} {
			if !strings.Contains(p.Body, want) {
				t.Errorf("the editor lacks %q", want)
			}
		}
		// Saving it again as drawn changes nothing; removing it keeps the showIf rule.
		b.change(b.qpath(age, "/rule"), post)
		if f, _ = b.stored(); string(f.Questions[1].ConditionalLogic) != want {
			t.Errorf("saved again: %s", f.Questions[1].ConditionalLogic)
		}
		b.change(b.qpath(age, "/rule"), url.Values{"edit": {"delete"}})
		if f, _ = b.stored(); string(f.Questions[1].ConditionalLogic) != fmt.Sprintf(`{"showIf":{"questionId":%d,"operator":"not_equals","value":"Fish"}}`, meal) {
			t.Errorf("after removing the rule: %s", f.Questions[1].ConditionalLogic)
		}
		// Saving the showIf rule keeps the advanced one.
		b.change(b.qpath(stay, "/logic"), url.Values{"for": {ids(meal)}, "target": {ids(meal)}, "operator": {"equals"}, "value": {"Meat"}})
		if f, _ = b.stored(); !strings.HasSuffix(string(f.Questions[2].ConditionalLogic), `"advanced":`+rule+`}`) {
			t.Errorf("the showIf post dropped the advanced rule: %s", f.Questions[2].ConditionalLogic)
		}
	})
}

// TestRuleEditorRefuses: what the domain refuses comes back at its field with
// nothing stored: an operator that is none of the contract's, points that
// are not numbers, an action without its question; a question changed since its
// controls were drawn draws them again instead of saving; Add and Remove draw
// the editor again with a row more or less.
func TestRuleEditorRefuses(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		b, q := ruleForm(t, env)
		meal, stay := q[0], q[2]
		ids := func(n int64) string { return fmt.Sprint(n) }
		path := b.qpath(stay, "/rule")
		base := map[string]string{"groups": "1", "g0.op": "AND", "g0.n": "1", "g0.c0.q": ids(stay), "g0.c0.op": "equals",
			"g0.c0.vt": "static", "g0.c0.v": "true", "actions": "1", "a0.type": "end_form"}
		with := func(changes map[string]string) url.Values {
			m := map[string]string{}
			for k, v := range base {
				m[k] = v
			}
			for k, v := range changes {
				m[k] = v
			}
			return ruleOn(m)
		}
		op := fmt.Sprintf("q%d-g0-c0-op", stay)
		b.refused(path, with(map[string]string{"g0.c0.op": "between"}),
			`id="`+op+`-error" role="alert">The comparison must be one of`,
			`aria-invalid="true" aria-describedby="`+op+`-error"`, `<option value="between" selected>`)
		b.refused(path, with(map[string]string{"a0.type": "skip_to_question", "a0.q": ""}),
			"The question it acts on must be a question id.")
		p := b.refused(path, with(map[string]string{"scores": "1", "s0.q": ids(meal), "s0.for": ids(meal), "s0.key": "Fish", "s0.pts": "lots"}),
			"The points must be numbers, such as 2 or -0.5 (or left empty).")
		if !strings.Contains(p.Body, fmt.Sprintf(`id="q%d-rule" open`, stay)) {
			t.Error("the refused rule's editor is not open")
		}

		// The condition now reads the meal: its comparisons and values are drawn
		// for it, and nothing is saved.
		_, before := b.stored()
		stale := with(map[string]string{"g0.c0.q": ids(meal)})
		stale.Set("g0.c0.for", ids(stay)+":static")
		p = b.post(b.path+path, stale)
		if p.Status != http.StatusOK || !strings.Contains(p.Body, "Now choose the value for this question, then save the rule.") {
			t.Errorf("a condition whose question changed: %d", p.Status)
		}
		if got := options(t, p.Body, fmt.Sprintf("q%d-g0-c0-v", stay)); !slices.Equal(got, []string{"Fish", "Meat", "Vegan"}) {
			t.Errorf("values drawn again: %v", got)
		}
		if _, after := b.stored(); after != before {
			t.Error("the redraw saved")
		}

		p = b.post(b.path+path, with(map[string]string{"edit": "add-condition:0"}))
		if p.Status != http.StatusOK || !strings.Contains(p.Body, `name="g0.c1.q" autofocus`) || !strings.Contains(p.Body, `name="g0.n" value="2"`) {
			t.Errorf("add a condition: %d", p.Status)
		}
		p = b.post(b.path+path, with(map[string]string{"edit": "remove-action:0"}))
		if rule := ruleBlock(t, p.Body, stay); p.Status != http.StatusOK || strings.Contains(rule, `name="a0.type"`) ||
			!strings.Contains(rule, `value="add-action" autofocus`) || strings.Count(p.Body, "autofocus") != 1 {
			t.Errorf("remove an action: %d\n%s", p.Status, rule)
		}
		if _, after := b.stored(); after != before {
			t.Error("an Add or Remove saved")
		}

		// A rule set through the API with a comparison the editor does not offer
		// for the type (the API accepts every one) is drawn with it kept, marked.
		b.change(path, with(map[string]string{"g0.c0.q": ids(meal), "g0.c0.op": "contains", "g0.c0.v": "ea"}))
		b.change(b.qpath(meal, ""), url.Values{"type": {"yes_no"}, "question": {"Meal"}})
		if p := b.get(b.path); !strings.Contains(ruleBlock(t, p.Body, stay), `<option value="contains" selected>contains (unusual for this question)</option>`) {
			t.Errorf("the kept comparison is not drawn:\n%s", ruleBlock(t, p.Body, stay))
		}
	})
}
