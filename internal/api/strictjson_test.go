package api_test

import (
	pathpkg "path"
	"strings"
	"testing"

	"forma/internal/server/servertest"
	"forma/internal/store"
)

// refusedAs is a scenario refusing body with 400, the message naming the field and
// saying what is wrong with it.
func refusedAs(method, path, key, body, field, fault string) scenario {
	return scenario{Name: method + " …/" + pathpkg.Base(path) + " " + clipName(body), Method: method, Path: path, Key: key, Body: body,
		ExpectedStatus: 400, Check: apiError("validation_error", field+": "+fault)}
}

// TestStrictJSONBodies sends every JSON-reading operation bodies that encoding/json
// would take: data after the value, duplicate keys, case variants of field names,
// invalid UTF-8; each is refused, naming the field by its path, and nothing is
// stored.
func TestStrictJSONBodies(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		path, token, q := publishedForm(t, env, key, obj{"title": "Strict", "questions": []obj{
			{"question": "Name"}, {"type": "multi_select", "question": "Tags", "options": []string{"a", "b"}}}})
		started := postJSON(t, env, "", "/f/"+token+"/sessions", nil)
		session := "/f/" + token + "/sessions/" + started["id"].(string)
		resume := map[string]string{"X-Resume-Token": started["resumeToken"].(string)}
		forms, field := apiPrefix+"/forms", path+"/fields/"+q[0]
		qs := func(s string) string { return `{"title":"T","questions":[` + s + `]}` }
		table := []scenario{
			refusedAs("POST", forms, key, `{"title":"x"}}`, "body", "has data after the JSON value"),
			refusedAs("POST", forms, key, `{"title":"a"} {"title":"b"}`, "body", "has data after the JSON value"),
			refusedAs("POST", forms, key, `{"title":"a","title":"b"}`, "title", "appears more than once"),
			refusedAs("POST", forms, key, qs(`{"question":"a","question":"b"}`), "questions[0].question", "appears more than once"),
			refusedAs("POST", forms, key, `{"Title":"x"}`, "Title", "is not a known field"),
			refusedAs("POST", forms, key, `{"TITLE":"x"}`, "TITLE", "is not a known field"),
			refusedAs("POST", forms, key, qs(`{"Question":"Q"}`), "questions[0].Question", "is not a known field"),
			refusedAs("POST", forms, key, qs(`{"question":"Q","id":3}`), "questions[0].id", "is not a known field"),
			refusedAs("POST", forms, key, qs(`{"question":"Q","type":"slider","sliderConfig":{"min":0,"max":1,"step":1,"foo":1}}`),
				"questions[0].sliderConfig.foo", "is not a known field"),
			refusedAs("POST", forms, key, "{\"title\":\"caf\xe9\"}", "title", "is not valid UTF-8"),
			refusedAs("POST", forms, key, `{"title":"\ud800"}`, "title", "is not valid UTF-8"),
			refusedAs("PATCH", path, key, `{"title":"a","title":"b"}`, "title", "appears more than once"),
			refusedAs("PATCH", path, key, `{"Title":"x"}`, "Title", "is not a known field"),
			refusedAs("PATCH", path, key, `{"title":"x"}}`, "body", "has data after the JSON value"),
			refusedAs("POST", path+"/fields", key, `{"question":"Q","Required":true}`, "Required", "is not a known field"),
			refusedAs("POST", path+"/fields", key, "{\"question\":\"\xff\"}", "question", "is not valid UTF-8"),
			refusedAs("PATCH", field, key, `{"sliderConfig":{"min":0,"Max":1}}`, "sliderConfig.Max", "is not a known field"),
			refusedAs("PATCH", field, key, `{"required":true,"required":false}`, "required", "appears more than once"),
			refusedAs("PATCH", field, key, `{"conditionalLogic":{"showIf":{"questionId":1,"Operator":"equals"}}}`,
				"conditionalLogic.showIf.Operator", "is not a known field"),
			refusedAs("POST", forms+"/generate", key, `{"prompt":"a","prompt":"b"}`, "prompt", "appears more than once"),
			refusedAs("POST", path+"/webhook/test", key, `{"URL":"https://hooks.example.org/x"}`, "URL", "is not a known field"),
		}
		for _, p := range []struct{ method, path string }{{"POST", "/f/" + token + "/submissions"}, {"PATCH", session}} {
			answer := func(a string) string { return `{"answers":{` + a + `}}` }
			rows := []scenario{
				refusedAs(p.method, p.path, "", answer(`"`+q[0]+`":"a"`)+`}`, "body", "has data after the JSON value"),
				refusedAs(p.method, p.path, "", answer(`"`+q[0]+`":"a"`)+` {}`, "body", "has data after the JSON value"),
				refusedAs(p.method, p.path, "", answer(`"`+q[0]+`":"a","`+q[0]+`":"b"`), "answers."+q[0], "appears more than once"),
				refusedAs(p.method, p.path, "", `{"Answers":{}}`, "Answers", "is not a known field"),
				refusedAs(p.method, p.path, "", `{"answers":{},"ANSWERS":{}}`, "ANSWERS", "is not a known field"),
				refusedAs(p.method, p.path, "", answer(`"`+q[0]+"\":\"Ana\xc3\""), "answers."+q[0], "is not valid UTF-8"),
				refusedAs(p.method, p.path, "", answer(`"`+q[1]+"\":[\"a\",\"\xff\"]"), "answers."+q[1]+"[1]", "is not valid UTF-8"),
				refusedAs(p.method, p.path, "", answer(`"`+q[0]+`":"\udc00"`), "answers."+q[0], "is not valid UTF-8"),
			}
			for _, r := range rows {
				if p.method == "PATCH" {
					r.Header = resume
				}
				table = append(table, r)
			}
		}
		table = append(table,
			scenario{Name: "no form was created", Method: "GET", Path: forms, Key: key, ExpectedStatus: 200, Check: itemCount("forms", 1)},
			scenario{Name: "the form was not changed", Method: "GET", Path: path, Key: key, ExpectedStatus: 200,
				ExpectedContent: []string{`"title":"Strict"`, `"question":"Name","required":false`}},
			scenario{Name: "no answer was saved", Method: "GET", Path: session, Header: resume, ExpectedStatus: 200, ExpectedContent: []string{`"answers":{}`}},
			scenario{Name: "nothing was submitted", Method: "GET", Path: path + "/responses", Key: key, ExpectedStatus: 200,
				Check: itemCount("responses", 0)},
		)
		servertest.Run(t, env, table)
	})
}

// TestOperationsWithoutBodyRefuseOne sends bodies to the operations that take
// none: any byte is refused (400 naming body), over 1 MiB is 413, and no body or an
// empty one, with or without a Content-Type, works.
func TestOperationsWithoutBodyRefuseOne(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.Key(env.Account("scale"), nil, nil)
		path := formPath(createForm(t, env, key, obj{"title": "No body", "questions": []obj{{"question": "Name"}}}))
		big := `{"title":"` + strings.Repeat("x", 1<<20) + `"}`
		var table []scenario
		for _, op := range []struct {
			suffix string
			status int
		}{{"/publish", 200}, {"/unpublish", 200}, {"/chat", 201}, {"/analytics/generate", 200}, {"/webhook/secret", 200}} {
			p := path + op.suffix
			table = append(table,
				refusedAs("POST", p, key, `{}`, "body", "must be empty"),
				refusedAs("POST", p, key, ` `, "body", "must be empty"),
				refusedAs("POST", p, key, `{"title":`, "body", "must be empty"),
				scenario{Name: "POST " + op.suffix + " over 1 MiB", Method: "POST", Path: p, Key: key, Body: big,
					ExpectedStatus: 413, Check: apiError("payload_too_large", "bytes")},
				scenario{Name: "POST " + op.suffix + " with no body", Method: "POST", Path: p, Key: key, ExpectedStatus: op.status},
				scenario{Name: "POST " + op.suffix + " with an empty body", Method: "POST", Path: p, Key: key, Body: "",
					ExpectedStatus: op.status},
				scenario{Name: "POST " + op.suffix + " with an empty body and no Content-Type", Method: "POST", Path: p, Key: key,
					Body: "", Header: map[string]string{"Content-Type": ""}, ExpectedStatus: op.status},
			)
		}
		servertest.Run(t, env, table)
	})
}
