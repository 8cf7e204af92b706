package api_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"forma/internal/form"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// repeat returns n copies of v.
func repeat(v any, n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// logicCase is logic at one limit: at the limit and just over it.
type logicCase struct {
	name     string
	at, over func(q int64) obj
	field    string
}

// logicCases builds, for each per-question limit of logic, logic exactly at it and
// one past it, referring to question q.
func logicCases() []logicCase {
	cond := func(q int64, v string) obj { return obj{"questionId": q, "operator": "equals", "value": v} }
	group := func(q int64, n int) obj { return obj{"operator": "OR", "conditions": repeat(cond(q, "a"), n)} }
	advanced := func(a obj) obj { return obj{"advanced": a} }
	rule := func(q int64, entries int) obj {
		m := obj{}
		for i := range entries {
			m[fmt.Sprint("answer ", i)] = i
		}
		return obj{"id": "s", "questionId": q, "scoreMap": m}
	}
	x := func(n int) string { return strings.Repeat("x", n) }
	n := func(limit int) [2]int { return [2]int{limit, limit + 1} }
	var cases []logicCase
	add := func(name string, limit [2]int, field string, build func(q int64, n int) obj) {
		cases = append(cases, logicCase{name: name, field: field,
			at: func(q int64) obj { return build(q, limit[0]) }, over: func(q int64) obj { return build(q, limit[1]) }})
	}
	add("condition groups", n(form.MaxConditionGroups), "conditionalLogic.advanced.conditionGroups", func(q int64, k int) obj {
		return advanced(obj{"conditionGroups": repeat(group(q, 1), k)})
	})
	add("conditions", n(form.MaxConditions), "conditionalLogic.advanced.conditionGroups[0].conditions", func(q int64, k int) obj {
		return advanced(obj{"conditionGroups": []any{group(q, k)}})
	})
	add("actions", n(form.MaxActions), "conditionalLogic.advanced.actions", func(q int64, k int) obj {
		return advanced(obj{"conditionGroups": []any{group(q, 1)}, "actions": repeat(obj{"type": "end_form"}, k)})
	})
	add("score rules", n(form.MaxScoreRules), "conditionalLogic.advanced.scoreRules", func(q int64, k int) obj {
		return advanced(obj{"scoreRules": repeat(rule(q, 1), k)})
	})
	add("score map entries", n(form.MaxScoreMapEntries), "conditionalLogic.advanced.scoreRules[0].scoreMap", func(q int64, k int) obj {
		return advanced(obj{"scoreRules": []any{rule(q, k)}})
	})
	add("showIf value", n(form.MaxLogicTextLen), "conditionalLogic.showIf.value", func(q int64, k int) obj {
		return obj{"showIf": obj{"questionId": q, "operator": "equals", "value": x(k)}}
	})
	add("condition value", n(form.MaxLogicTextLen), "conditionalLogic.advanced.conditionGroups[0].conditions[0].value", func(q int64, k int) obj {
		return advanced(obj{"conditionGroups": []any{obj{"operator": "OR", "conditions": []any{cond(q, x(k))}}}})
	})
	add("numeric condition value", n(form.MaxLogicTextLen), "conditionalLogic.advanced.conditionGroups[0].conditions[0].value", func(q int64, k int) obj {
		return advanced(obj{"conditionGroups": []any{obj{"operator": "OR", "conditions": []any{
			obj{"questionId": q, "operator": "greater_than", "value": json.Number("1." + strings.Repeat("0", k-2))}}}}})
	})
	add("group id", n(form.MaxLogicTextLen), "conditionalLogic.advanced.conditionGroups[0].id", func(q int64, k int) obj {
		return advanced(obj{"conditionGroups": []any{obj{"id": x(k), "operator": "OR", "conditions": []any{cond(q, "a")}}}})
	})
	add("action value", n(form.MaxLogicTextLen), "conditionalLogic.advanced.actions[0].value", func(q int64, k int) obj {
		return advanced(obj{"conditionGroups": []any{group(q, 1)}, "actions": []any{obj{"type": "end_form", "value": x(k)}}})
	})
	add("score map key", n(form.MaxLogicTextLen), fmt.Sprintf("conditionalLogic.advanced.scoreRules[0].scoreMap[%q]", x(form.MaxLogicTextLen+1)), func(q int64, k int) obj {
		return advanced(obj{"scoreRules": []any{obj{"questionId": q, "scoreMap": obj{x(k): 1}}}})
	})
	return cases
}

// TestLogicLimits adds and updates questions with logic at each per-question limit
// (accepted) and one past it (400 naming the field, nothing stored).
func TestLogicLimits(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		f := createForm(t, env, key, obj{"title": "Limits", "questions": []any{obj{"question": "Base"}}})
		path := formPath(f)
		q := mustInt(id(items(t, f, "questions")[0]["id"]))
		base := fmt.Sprintf("%s/fields/%d", path, q)
		var table []scenario
		added := []string{"Base:1"}
		for _, c := range logicCases() {
			table = append(table,
				scenario{Name: "add one past the " + c.name, Method: "POST", Path: path + "/fields", Key: key,
					Body: obj{"question": c.name, "conditionalLogic": c.over(q)}, ExpectedStatus: 400, Check: namesField(c.field)},
				scenario{Name: "update one past the " + c.name, Method: "PATCH", Path: base, Key: key,
					Body: obj{"conditionalLogic": c.over(q)}, ExpectedStatus: 400, Check: namesField(c.field)},
				scenario{Name: "add at the " + c.name, Method: "POST", Path: path + "/fields", Key: key,
					Body: obj{"question": c.name, "conditionalLogic": c.at(q)}, ExpectedStatus: 201},
				scenario{Name: "update at the " + c.name, Method: "PATCH", Path: base, Key: key,
					Body: obj{"conditionalLogic": c.at(q)}, ExpectedStatus: 200})
			added = append(added, fmt.Sprintf("%s:%d", c.name, len(added)+1))
		}
		table = append(table, scenario{Name: "a number out of range", Method: "POST", Path: path + "/fields", Key: key,
			Body:           fmt.Sprintf(`{"question":"Huge","conditionalLogic":{"advanced":{"conditionGroups":[{"operator":"OR","conditions":[{"questionId":%d,"operator":"less_than","value":1e999}]}]}}}`, q),
			ExpectedStatus: 400, Check: namesField("conditionalLogic.advanced.conditionGroups[0].conditions[0].value")})
		table = append(table, scenario{Name: "only the accepted questions were added", Method: "GET", Path: path, Key: key,
			ExpectedStatus: 200, Check: orderIs(strings.Join(added, " "))})
		servertest.Run(t, env, table)
	})
}

// logicOfSize returns logic of exactly n bytes of compact JSON, every condition of
// which reads question q, within the per-question limits.
func logicOfSize(t *testing.T, q string, n int) string {
	cond := func(k int) string {
		return `{"questionId":` + q + `,"operator":"equals","value":"` + strings.Repeat("x", k) + `"}`
	}
	wrap := func(cs []string) string {
		var groups []string
		for i := 0; i < len(cs); i += form.MaxConditions {
			groups = append(groups, `{"operator":"OR","conditions":[`+strings.Join(cs[i:min(i+form.MaxConditions, len(cs))], ",")+`]}`)
		}
		return `{"advanced":{"conditionGroups":[` + strings.Join(groups, ",") + `]}}`
	}
	var cs []string
	for {
		cs = append(cs, cond(0))
		gap := n - len(wrap(cs))
		if gap < 0 {
			t.Fatalf("cannot make logic of %d bytes", n)
		}
		k := gap
		if gap > form.MaxLogicTextLen {
			k = min(form.MaxLogicTextLen, gap-100) // room for the next condition
		}
		cs[len(cs)-1] = cond(k)
		if k == gap {
			return wrap(cs)
		}
	}
}

// TestFormLogicTotal checks the limit on the logic of a whole form: questions added
// or updated later count with those already there.
func TestFormLogicTotal(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		f := createForm(t, env, key, obj{"title": "Total", "questions": []any{obj{"question": "Base"}}})
		path := formPath(f)
		q := id(items(t, f, "questions")[0]["id"])
		first := 40000
		rest := form.MaxFormLogicBytes - first
		var second obj
		secondPath := pathFrom(func() string { return path + "/fields/" + id(second["id"]) })
		withLogic := func(text, logic string) string { return `{"question":"` + text + `","conditionalLogic":` + logic + `}` }
		servertest.Run(t, env, []scenario{
			{Name: "one question's logic alone over the total", Method: "POST", Path: path + "/fields", Key: key,
				Body: withLogic("Alone", logicOfSize(t, q, form.MaxFormLogicBytes+1)), ExpectedStatus: 400, Check: namesField("conditionalLogic")},
			{Name: "a first question with logic", Method: "POST", Path: path + "/fields", Key: key,
				Body: withLogic("First", logicOfSize(t, q, first)), ExpectedStatus: 201},
			{Name: "a second question one byte past the total", Method: "POST", Path: path + "/fields", Key: key,
				Body: withLogic("Second", logicOfSize(t, q, rest+1)), ExpectedStatus: 400, Check: namesField("conditionalLogic")},
			{Name: "a second question exactly at the total", Method: "POST", Path: path + "/fields", Key: key,
				Body: withLogic("Second", logicOfSize(t, q, rest)), ExpectedStatus: 201, Check: into(&second)},
			{Name: "updating it one byte past the total", Method: "PATCH", Key: key, BeforeTest: secondPath,
				Body: `{"conditionalLogic":` + logicOfSize(t, q, rest+1) + `}`, ExpectedStatus: 400, Check: namesField("conditionalLogic")},
			{Name: "updating it at the total", Method: "PATCH", Key: key, BeforeTest: secondPath,
				Body: `{"question":"Second again","conditionalLogic":` + logicOfSize(t, q, rest) + `}`, ExpectedStatus: 200},
			{Name: "logic on the base question past the total", Method: "PATCH", Path: path + "/fields/" + q, Key: key,
				Body:           `{"conditionalLogic":{"showIf":{"questionId":` + q + `,"operator":"equals","value":"x"}}}`,
				ExpectedStatus: 400, Check: namesField("conditionalLogic")},
			{Name: "the refused changes stored nothing", Method: "GET", Path: path, Key: key, ExpectedStatus: 200,
				Check: orderIs("Base:1 First:2 Second again:3")},
		})
	})
}
