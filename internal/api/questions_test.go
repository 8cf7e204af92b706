package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"forma/internal/server/servertest"
	"forma/internal/store"
)

func orders(t *testing.T, env *servertest.Env, key, path string) string {
	t.Helper()
	f := env.Do("GET", path, key, nil).JSON(t)
	var parts []string
	for _, q := range f["questions"].([]any) {
		m := q.(map[string]any)
		parts = append(parts, fmt.Sprintf("%s:%v", m["question"], m["order"]))
	}
	return strings.Join(parts, " ")
}

func TestQuestionsOrderingAndReordering(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		f := createForm(t, env, key, map[string]any{"title": "O", "questions": []any{
			map[string]any{"question": "A"}, map[string]any{"question": "B"}}})
		path := "/api/v1/forms/" + id(f["id"])
		r := env.Do("POST", path+"/fields", key, map[string]any{"question": "C"})
		expectStatus(t, r, http.StatusCreated)
		c := r.JSON(t)
		if c["order"] != 3.0 || c["type"] != "text" || c["required"] != false || c["options"] != nil {
			t.Errorf("added question: %s", r.Body)
		}
		d2 := env.Do("POST", path+"/fields", key, map[string]any{"question": "D", "type": "yes_no", "required": true}).JSON(t)
		if got := orders(t, env, key, path); got != "A:1 B:2 C:3 D:4" {
			t.Fatalf("orders %s", got)
		}
		r = env.Do("PATCH", path+"/fields/"+id(d2["id"]), key, map[string]any{"order": 1})
		expectStatus(t, r, 200)
		if got := orders(t, env, key, path); got != "D:1 A:2 B:3 C:4" {
			t.Errorf("after moving D first: %s", got)
		}
		env.Do("PATCH", path+"/fields/"+id(d2["id"]), key, map[string]any{"order": 3})
		if got := orders(t, env, key, path); got != "A:1 B:2 D:3 C:4" {
			t.Errorf("after moving D to 3: %s", got)
		}
		expectError(t, env.Do("PATCH", path+"/fields/"+id(d2["id"]), key, map[string]any{"order": 5}), 400, "validation_error", "order")
		expectError(t, env.Do("PATCH", path+"/fields/"+id(d2["id"]), key, map[string]any{"order": 0}), 400, "validation_error", "order")
		r = env.Do("DELETE", path+"/fields/"+id(f["questions"].([]any)[0].(map[string]any)["id"]), key, nil)
		expectStatus(t, r, http.StatusNoContent)
		if got := orders(t, env, key, path); got != "B:1 D:2 C:3" {
			t.Errorf("after deleting A: %s", got)
		}
		expectError(t, env.Do("DELETE", path+"/fields/"+id(f["questions"].([]any)[0].(map[string]any)["id"]), key, nil), 404, "not_found", "Question not found")
	})
}

func TestUpdateQuestionSubsets(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		f := createForm(t, env, key, map[string]any{"title": "U", "questions": []any{
			map[string]any{"type": "select", "question": "Color", "options": []string{"Red", "Blue"}}}})
		qid := id(f["questions"].([]any)[0].(map[string]any)["id"])
		path := "/api/v1/forms/" + id(f["id"]) + "/fields/" + qid
		r := env.Do("PATCH", path, key, map[string]any{"required": true})
		expectStatus(t, r, 200)
		q := r.JSON(t)
		if q["required"] != true || q["question"] != "Color" || fmt.Sprint(q["options"]) != "[Red Blue]" {
			t.Errorf("required only: %s", r.Body)
		}
		q = env.Do("PATCH", path, key, map[string]any{"question": "Colour", "options": []string{"Red", "Green"}}).JSON(t)
		if q["question"] != "Colour" || fmt.Sprint(q["options"]) != "[Red Green]" || q["required"] != true {
			t.Errorf("text and options: %v", q)
		}
		q = env.Do("PATCH", path, key, map[string]any{"type": "slider", "sliderConfig": map[string]any{"min": 1, "max": 5, "step": 1}}).JSON(t)
		if q["type"] != "slider" || q["options"] != nil || q["sliderConfig"] == nil {
			t.Errorf("type change: %v", q)
		}
		expectError(t, env.Do("PATCH", path, key, map[string]any{}), 400, "validation_error", "at least one")
		expectError(t, env.Do("PATCH", path, key, map[string]any{"question": ""}), 400, "validation_error", "question")
		expectError(t, env.Do("PATCH", path, key, map[string]any{"question": strings.Repeat("x", 1001)}), 400, "validation_error", "question")
		expectError(t, env.Do("PATCH", path, key, map[string]any{"question": nil}), 400, "validation_error", "question")
		expectError(t, env.Do("PATCH", path, key, map[string]any{"type": "select"}), 400, "validation_error", "options")
		expectError(t, env.Do("PATCH", "/api/v1/forms/"+id(f["id"])+"/fields/99999", key, map[string]any{"required": true}), 404, "not_found", "Question not found")
		expectError(t, env.Do("PATCH", "/api/v1/forms/"+id(f["id"])+"/fields/abc", key, map[string]any{"required": true}), 400, "validation_error", "fieldId")
	})
}

func TestConditionalLogicStoredIntactAndValidated(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		f := createForm(t, env, key, map[string]any{"title": "L", "questions": []any{
			map[string]any{"type": "rating", "question": "Rate us"},
			map[string]any{"type": "multi_select", "question": "Liked", "options": []string{"Speed", "Price"}}}})
		q1 := int64(f["questions"].([]any)[0].(map[string]any)["id"].(float64))
		q2 := int64(f["questions"].([]any)[1].(map[string]any)["id"].(float64))
		path := "/api/v1/forms/" + id(f["id"])
		logic := fmt.Sprintf(`{"showIf":{"questionId":%d,"operator":"equals","value":"5"},"advanced":{"conditionGroups":[{"id":"g1","operator":"OR","conditions":[{"id":"c1","questionId":%d,"operator":"greater_than","value":3,"valueType":"static"},{"id":"c2","questionId":%d,"operator":"contains","value":"Speed"}]}],"actions":[{"type":"show_question","targetId":%d},{"type":"set_score","value":10}],"scoreRules":[{"id":"s1","questionId":%d,"scoreMap":{"5":2,"4":1}}]}}`, q1, q1, q2, q2, q1)
		r := env.Do("POST", path+"/fields", key, `{"question":"Why?","type":"textarea","conditionalLogic":`+logic+`}`)
		expectStatus(t, r, http.StatusCreated)
		if !strings.Contains(string(r.Body), `"conditionalLogic":`+logic) {
			t.Errorf("logic not returned intact:\n%s\nwant %s", r.Body, logic)
		}
		if got := env.Do("GET", path, key, nil); !strings.Contains(string(got.Body), logic) {
			t.Errorf("GET form does not return logic intact: %s", got.Body)
		}
		bad := map[string]string{
			`{"showIf":{"questionId":999999,"operator":"equals","value":"x"}}`:                                                                                                                                                 "showIf.questionId",
			fmt.Sprintf(`{"showIf":{"questionId":%d,"operator":"like","value":"x"}}`, q1):                                                                                                                                      "showIf.operator",
			fmt.Sprintf(`{"advanced":{"conditionGroups":[{"id":"g","operator":"XOR","conditions":[{"id":"c","questionId":%d,"operator":"equals","value":"1"}]}],"actions":[]}}`, q1):                                           "conditionGroups[0].operator",
			fmt.Sprintf(`{"advanced":{"conditionGroups":[{"id":"g","operator":"AND","conditions":[{"id":"c","questionId":%d,"operator":"equals","value":"1"}]}],"actions":[{"type":"explode"}]}}`, q1):                         "actions[0].type",
			fmt.Sprintf(`{"advanced":{"conditionGroups":[{"id":"g","operator":"AND","conditions":[{"id":"c","questionId":%d,"operator":"equals","value":"1"}]}],"actions":[{"type":"hide_question","targetId":424242}]}}`, q1): "actions[0].targetId",
			fmt.Sprintf(`{"advanced":{"conditionGroups":[{"id":"g","operator":"AND","conditions":[{"id":"c","questionId":%d,"operator":"equals","value":"1","valueType":"magic"}]}],"actions":[]}}`, q1):                       "valueType",
			`{"showIf":{"questionId":1,"operator":"equals","value":"x"},"extra":true}`:                                                                                                                                         "extra",
			`{}`: "conditionalLogic",
		}
		for l, field := range bad {
			r := env.Do("POST", path+"/fields", key, `{"question":"Bad","conditionalLogic":`+l+`}`)
			expectError(t, r, 400, "validation_error", field)
		}
		// A question that logic refers to cannot be deleted.
		expectError(t, env.Do("DELETE", fmt.Sprintf("%s/fields/%d", path, q1), key, nil), http.StatusConflict, "conflict", "logic")
		if got := orders(t, env, key, path); got != "Rate us:1 Liked:2 Why?:3" {
			t.Errorf("failed adds left questions behind: %s", got)
		}
	})
}
