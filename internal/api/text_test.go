package api_test

import (
	"net/http"
	"testing"

	"forma/internal/server/servertest"
	"forma/internal/store"
)

// namesField checks a 400 validation error that lists field among its fields.
func namesField(field string) check {
	return func(t *testing.T, r *servertest.Response) {
		t.Helper()
		apiError("validation_error", field)(t, r)
		for _, f := range items(t, r.JSON(t), "fields") {
			if f["field"] == field {
				return
			}
		}
		t.Errorf("fields do not name %s", field)
	}
}

// TestOwnerTextRefused sends control and invisible characters in every text field
// an owner writes, on every route that takes it: each is a 400 naming the field,
// and nothing is stored. On PostgreSQL a NUL was a 500 before.
func TestOwnerTextRefused(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		f := createForm(t, env, key, obj{"title": "Base", "questions": []any{
			obj{"type": "select", "question": "Pick", "options": []string{"a", "b"}}}})
		path := formPath(f)
		q := id(items(t, f, "questions")[0]["id"])
		field := path + "/fields/" + q
		conv := env.For(t).Do("POST", path+"/chat", key, nil)
		expectStatus(t, conv, http.StatusCreated)
		messages := path + "/chat/" + id(conv.JSON(t)["id"]) + "/messages"

		refused := func(name, method, path, body, field string) scenario {
			return scenario{Name: name, Method: method, Path: path, Key: key, Body: body,
				ExpectedStatus: 400, Check: namesField(field)}
		}
		logic := func(l string) string { return `{"question":"L","conditionalLogic":` + l + `}` }
		cond := func(c string) string {
			return `{"advanced":{"conditionGroups":[{"id":"g","operator":"AND","conditions":[` + c + `]}]}}`
		}
		table := []scenario{
			refused("NUL in a title", "POST", apiPrefix+"/forms", `{"title":"a\u0000b"}`, "title"),
			refused("invisible title", "POST", apiPrefix+"/forms", `{"title":"\u200b\u200b"}`, "title"),
			refused("BOM and marks only", "POST", apiPrefix+"/forms", `{"title":" \ufeff\u200e\u2060 "}`, "title"),
			refused("title on two lines", "POST", apiPrefix+"/forms", `{"title":"two\nlines"}`, "title"),
			refused("escape in a title", "POST", apiPrefix+"/forms", `{"title":"red\u001b[31m"}`, "title"),
			refused("C1 in a title", "POST", apiPrefix+"/forms", `{"title":"a\u0085b"}`, "title"),
			refused("DEL in a description", "POST", apiPrefix+"/forms", `{"title":"T","description":"a\u007f"}`, "description"),
			refused("NUL in a description", "POST", apiPrefix+"/forms", `{"title":"T","description":"a\u0000"}`, "description"),
			refused("lone CR in a description", "POST", apiPrefix+"/forms", `{"title":"T","description":"a\rb"}`, "description"),
			refused("NUL in a question", "POST", apiPrefix+"/forms",
				`{"title":"T","questions":[{"question":"A"},{"question":"B"},{"question":"C\u0000"}]}`, "questions[2].question"),
			refused("NUL in an option", "POST", apiPrefix+"/forms",
				`{"title":"T","questions":[{"type":"select","question":"Q","options":["ok","b\u0000"]}]}`, "questions[0].options[1]"),
			refused("patch a NUL title", "PATCH", path, `{"title":"\u0000"}`, "title"),
			refused("patch an invisible title", "PATCH", path, `{"title":"\u2060"}`, "title"),
			refused("patch a NUL description", "PATCH", path, `{"description":"x\u0000"}`, "description"),
			refused("webhook URL with C1", "PATCH", path, `{"webhookUrl":"https://example.com/\u0085"}`, "webhookUrl"),
			refused("webhook URL with a C1 CSI", "PATCH", path, `{"webhookUrl":"https://example.com/\u009b"}`, "webhookUrl"),
			refused("test URL with a C1 NEL", "POST", path+"/webhook/test", `{"url":"https://example.com/\u0085"}`, "url"),
			refused("add a NUL question", "POST", path+"/fields", `{"question":"a\u0000"}`, "question"),
			refused("add a two-line question", "POST", path+"/fields", `{"question":"a\nb"}`, "question"),
			refused("add a NUL option", "POST", path+"/fields", `{"type":"select","question":"S","options":["a","\u0000"]}`, "options[1]"),
			refused("patch a NUL question", "PATCH", field, `{"question":"\u0000"}`, "question"),
			refused("patch an invisible option", "PATCH", field, `{"options":["a","\u200b"]}`, "options[1]"),
			refused("patch an option ending in CRLF", "PATCH", field, `{"options":["a","b\r\n"]}`, "options[1]"),
			refused("NUL in showIf.value", "POST", path+"/fields",
				logic(`{"showIf":{"questionId":`+q+`,"operator":"equals","value":"a\u0000"}}`), "conditionalLogic.showIf.value"),
			refused("control in a condition id", "POST", path+"/fields",
				logic(cond(`{"id":"c\u0001","questionId":`+q+`,"operator":"equals","value":"a"}`)),
				"conditionalLogic.advanced.conditionGroups[0].conditions[0].id"),
			refused("NUL in a condition value", "PATCH", field,
				`{"conditionalLogic":`+cond(`{"id":"c","questionId":`+q+`,"operator":"equals","value":"\u0000"}`)+`}`,
				"conditionalLogic.advanced.conditionGroups[0].conditions[0].value"),
			refused("NUL in a group id", "POST", path+"/fields",
				logic(`{"advanced":{"conditionGroups":[{"id":"\u0000","operator":"AND","conditions":[{"questionId":`+q+`,"operator":"is_empty"}]}]}}`),
				"conditionalLogic.advanced.conditionGroups[0].id"),
			refused("NUL in an action value", "POST", path+"/fields",
				logic(`{"advanced":{"conditionGroups":[{"operator":"AND","conditions":[{"questionId":`+q+`,"operator":"is_empty"}]}],"actions":[{"type":"end_form","value":"\u0000"}]}}`),
				"conditionalLogic.advanced.actions[0].value"),
			refused("NUL in a score rule id", "POST", path+"/fields",
				logic(`{"advanced":{"scoreRules":[{"id":"\u0000","questionId":`+q+`,"scoreMap":{"a":1}}]}}`),
				"conditionalLogic.advanced.scoreRules[0].id"),
			refused("NUL in a score map key", "POST", path+"/fields",
				logic(`{"advanced":{"scoreRules":[{"id":"s","questionId":`+q+`,"scoreMap":{"a\u0000":1}}]}}`),
				`conditionalLogic.advanced.scoreRules[0].scoreMap["a\x00"]`),
			refused("NUL in a chat message", "POST", messages, `{"message":"how many?\u0000"}`, "message"),
			refused("invisible chat message", "POST", messages, `{"message":"\u200b"}`, "message"),
			refused("NUL in a prompt", "POST", apiPrefix+"/forms/generate", `{"prompt":"a contact form\u0000"}`, "prompt"),

			{Name: "no form was created", Method: "GET", Path: apiPrefix + "/forms", Key: key, ExpectedStatus: 200,
				Check: fields(obj{"total": 1})},
			{Name: "the form is unchanged", Method: "GET", Path: path, Key: key, ExpectedStatus: 200,
				Check: checks(fields(obj{"title": "Base", "description": "", "webhook": obj{"enabled": false, "url": nil}}),
					orderIs("Pick:1"), func(t *testing.T, r *servertest.Response) {
						sameJSON(t, "options", items(t, r.JSON(t), "questions")[0]["options"], []string{"a", "b"})
					})},
			{Name: "no message was stored", Method: "GET", Path: messages, Key: key, ExpectedStatus: 200,
				Check: fields(obj{"total": 0})},

			{Name: "tab, CRLF and format characters inside text are kept", Method: "POST", Path: apiPrefix + "/forms", Key: key,
				Body:           `{"title":"Caf\u00e9\tmenu \ud83d\udc69\u200d\ud83d\udcbb","description":"line one\r\nline two\n\tindented"}`,
				ExpectedStatus: 201,
				Check:          fields(obj{"title": "Café\tmenu 👩\u200d💻", "description": "line one\r\nline two\n\tindented"})},
		}
		servertest.Run(t, env, table)
	})
}
