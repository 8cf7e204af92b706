package api_test

import (
	"fmt"
	"strings"
	"testing"

	"forma/internal/server/servertest"
	"forma/internal/store"
)

// orderIs checks a form body's questions, as "text:order" in order.
func orderIs(want string) check {
	return func(t *testing.T, r *servertest.Response) {
		t.Helper()
		var parts []string
		for _, q := range items(t, r.JSON(t), "questions") {
			parts = append(parts, fmt.Sprintf("%s:%v", q["question"], q["order"]))
		}
		if got := strings.Join(parts, " "); got != want {
			t.Errorf("questions %s, want %s", got, want)
		}
	}
}

// TestQuestionsOrderingAndReordering is a sequence: each scenario starts from the
// questions the previous left.
func TestQuestionsOrderingAndReordering(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		f := createForm(t, env, key, obj{"title": "O", "questions": []any{obj{"question": "A"}, obj{"question": "B"}}})
		path := formPath(f)
		firstField := path + "/fields/" + id(items(t, f, "questions")[0]["id"])
		var added obj
		moveD := pathFrom(func() string { return path + "/fields/" + id(added["id"]) })
		read := func(name, want string) scenario {
			return scenario{Name: name, Method: "GET", Path: path, Key: key, ExpectedStatus: 200, Check: orderIs(want)}
		}
		servertest.Run(t, env, []scenario{
			{Name: "add a question", Method: "POST", Path: path + "/fields", Key: key, Body: obj{"question": "C"}, ExpectedStatus: 201,
				Check: fields(obj{"order": 3, "type": "text", "required": false, "options": nil})},
			{Name: "add another", Method: "POST", Path: path + "/fields", Key: key, Body: obj{"question": "D", "type": "yes_no", "required": true},
				ExpectedStatus: 201, Check: into(&added)},
			read("added at the end", "A:1 B:2 C:3 D:4"),
			{Name: "move D first", Method: "PATCH", Key: key, Body: obj{"order": 1}, ExpectedStatus: 200,
				BeforeTest: moveD},
			read("after moving D first", "D:1 A:2 B:3 C:4"),
			{Name: "move D to 3", Method: "PATCH", Key: key, Body: obj{"order": 3}, ExpectedStatus: 200,
				BeforeTest: moveD},
			read("after moving D to 3", "A:1 B:2 D:3 C:4"),
			{Name: "order past the end", Method: "PATCH", Key: key, Body: obj{"order": 5}, ExpectedStatus: 400,
				BeforeTest: moveD, Check: apiError("validation_error", "order")},
			{Name: "order 0", Method: "PATCH", Key: key, Body: obj{"order": 0}, ExpectedStatus: 400,
				BeforeTest: moveD, Check: apiError("validation_error", "order")},
			{Name: "delete A", Method: "DELETE", Path: firstField, Key: key, ExpectedStatus: 204},
			read("after deleting A", "B:1 D:2 C:3"),
			{Name: "delete A again", Method: "DELETE", Path: firstField, Key: key, ExpectedStatus: 404,
				Check: apiError("not_found", "Question not found")},
		})
	})
}

// TestUpdateQuestionSubsets is a sequence: each update starts from the question the
// previous left.
func TestUpdateQuestionSubsets(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		f := createForm(t, env, key, obj{"title": "U", "questions": []any{
			obj{"type": "select", "question": "Color", "options": []string{"Red", "Blue"}}}})
		path := formPath(f) + "/fields/" + id(items(t, f, "questions")[0]["id"])
		update := func(name string, body any, c check) scenario {
			return scenario{Name: name, Method: "PATCH", Path: path, Key: key, Body: body, ExpectedStatus: 200, Check: c}
		}
		refused := func(name, path string, body any, status int, code, mentions string) scenario {
			return scenario{Name: name, Method: "PATCH", Path: path, Key: key, Body: body, ExpectedStatus: status,
				Check: apiError(code, mentions)}
		}
		servertest.Run(t, env, []scenario{
			update("required only", obj{"required": true},
				fields(obj{"required": true, "question": "Color", "options": []string{"Red", "Blue"}})),
			update("text and options", obj{"question": "Colour", "options": []string{"Red", "Green"}},
				fields(obj{"required": true, "question": "Colour", "options": []string{"Red", "Green"}})),
			update("type", obj{"type": "slider", "sliderConfig": obj{"min": 1, "max": 5, "step": 1}},
				checks(fields(obj{"type": "slider", "options": nil}), func(t *testing.T, r *servertest.Response) {
					if r.JSON(t)["sliderConfig"] == nil {
						t.Error("no sliderConfig")
					}
				})),
			refused("no field", path, obj{}, 400, "validation_error", "at least one"),
			refused("empty text", path, obj{"question": ""}, 400, "validation_error", "question"),
			refused("text too long", path, obj{"question": strings.Repeat("x", 1001)}, 400, "validation_error", "question"),
			refused("null text", path, obj{"question": nil}, 400, "validation_error", "question"),
			refused("select without options", path, obj{"type": "select"}, 400, "validation_error", "options"),
			refused("unknown question", formPath(f)+"/fields/99999", obj{"required": true}, 404, "not_found", "Question not found"),
			refused("question id not a number", formPath(f)+"/fields/abc", obj{"required": true}, 400, "validation_error", "fieldId"),
		})
	})
}

func TestConditionalLogicStoredIntactAndValidated(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		f := createForm(t, env, key, obj{"title": "L", "questions": []any{
			obj{"type": "rating", "question": "Rate us"},
			obj{"type": "multi_select", "question": "Liked", "options": []string{"Speed", "Price"}}}})
		qs := items(t, f, "questions")
		q1, q2 := id(qs[0]["id"]), id(qs[1]["id"])
		path := formPath(f)
		logic := fmt.Sprintf(`{"showIf":{"questionId":%s,"operator":"equals","value":"5"},"advanced":{"conditionGroups":[{"id":"g1","operator":"OR","conditions":[{"id":"c1","questionId":%s,"operator":"greater_than","value":3,"valueType":"static"},{"id":"c2","questionId":%s,"operator":"contains","value":"Speed"}]}],"actions":[{"type":"show_question","targetId":%s},{"type":"set_score","value":10}],"scoreRules":[{"id":"s1","questionId":%s,"scoreMap":{"5":2,"4":1}}]}}`, q1, q1, q2, q2, q1)
		table := []scenario{
			{Name: "add with logic", Method: "POST", Path: path + "/fields", Key: key, ExpectedStatus: 201,
				Body: `{"question":"Why?","type":"textarea","conditionalLogic":` + logic + `}`, ExpectedContent: []string{`"conditionalLogic":` + logic}},
			{Name: "the form returns the logic intact", Method: "GET", Path: path, Key: key, ExpectedStatus: 200, ExpectedContent: []string{logic}},
		}
		for _, bad := range []struct{ logic, field string }{
			{`{"showIf":{"questionId":999999,"operator":"equals","value":"x"}}`, "showIf.questionId"},
			{`{"showIf":{"questionId":` + q1 + `,"operator":"like","value":"x"}}`, "showIf.operator"},
			{`{"advanced":{"conditionGroups":[{"id":"g","operator":"XOR","conditions":[{"id":"c","questionId":` + q1 + `,"operator":"equals","value":"1"}]}],"actions":[]}}`, "conditionGroups[0].operator"},
			{`{"advanced":{"conditionGroups":[{"id":"g","operator":"AND","conditions":[{"id":"c","questionId":` + q1 + `,"operator":"equals","value":"1"}]}],"actions":[{"type":"explode"}]}}`, "actions[0].type"},
			{`{"advanced":{"conditionGroups":[{"id":"g","operator":"AND","conditions":[{"id":"c","questionId":` + q1 + `,"operator":"equals","value":"1"}]}],"actions":[{"type":"hide_question","targetId":424242}]}}`, "actions[0].targetId"},
			{`{"advanced":{"conditionGroups":[{"id":"g","operator":"AND","conditions":[{"id":"c","questionId":` + q1 + `,"operator":"equals","value":"1","valueType":"magic"}]}],"actions":[]}}`, "valueType"},
			{`{"showIf":{"questionId":1,"operator":"equals","value":"x"},"extra":true}`, "extra"},
			{`{}`, "conditionalLogic"},
		} {
			table = append(table, scenario{Name: "refuse bad " + bad.field, Method: "POST", Path: path + "/fields", Key: key,
				Body: `{"question":"Bad","conditionalLogic":` + bad.logic + `}`, ExpectedStatus: 400, Check: apiError("validation_error", bad.field)})
		}
		table = append(table,
			// A question that logic refers to cannot be deleted.
			scenario{Name: "delete a question logic uses", Method: "DELETE", Path: path + "/fields/" + q1, Key: key,
				ExpectedStatus: 409, Check: apiError("conflict", "logic")},
			scenario{Name: "failed adds left no question behind", Method: "GET", Path: path, Key: key, ExpectedStatus: 200,
				Check: orderIs("Rate us:1 Liked:2 Why?:3")})
		servertest.Run(t, env, table)
	})
}
