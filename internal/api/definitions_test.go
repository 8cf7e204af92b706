package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"forma/internal/form"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// richForm is a form made through the API with a question of each of the 15
// types, showIf logic, advanced rules with every action type, every condition
// value type and score rules (one rule reading its own question), a webhook
// with a signing secret, and settings (hidden fields, closing, a thank-you
// screen piping answers, email notifications with a confirmation). Its secrets are what no definition may show.
type richForm struct {
	path    string
	id      int64
	qids    []int64
	secrets []string
}

// webhookURL is the rich form's webhook: the definition leaves it out.
const webhookURL = "https://hooks.example.org/private-receiver-path"

// newRichForm makes the rich form with the key.
func newRichForm(t *testing.T, env *servertest.Env, key string) richForm {
	t.Helper()
	f := createForm(t, env, key, fullForm)
	rf := richForm{path: formPath(f), id: wireID(t, f["id"])}
	for _, q := range items(t, f, "questions") {
		rf.qids = append(rf.qids, wireID(t, q["id"]))
	}
	q := rf.qids
	showIf := obj{"showIf": obj{"questionId": q[0], "operator": "equals", "value": "A friend"}}
	advanced := obj{"advanced": obj{
		"conditionGroups": []obj{{"id": "g1", "operator": "AND", "conditions": []obj{
			{"id": "c1", "questionId": q[0], "operator": "equals", "value": "Search", "valueType": "static"},
			{"id": "c2", "questionId": q[2], "operator": "is_not_empty"},
			{"id": "c3", "questionId": q[1], "operator": "not_equals", "value": strconv.FormatInt(q[2], 10), "valueType": "dynamic"},
			{"id": "c4", "operator": "greater_than", "value": 3, "valueType": "score"},
		}}, {"id": "g2", "operator": "OR", "conditions": []obj{
			{"questionId": q[3], "operator": "contains", "value": "A"}, {"questionId": q[13], "operator": "less_than", "value": 18},
		}}},
		"actions": []obj{{"type": "show_question", "targetId": q[5]}, {"type": "hide_question", "targetId": q[6]},
			{"type": "skip_to_section", "targetId": strconv.FormatInt(q[8], 10)}, {"type": "skip_to_question", "targetId": q[9]},
			{"type": "end_form"}, {"type": "set_score", "value": 7}},
		"scoreRules": []obj{{"id": "r1", "questionId": q[0], "scoreMap": obj{"A friend": 2, "Search": 1.5}},
			{"id": "r2", "questionId": q[3], "scoreMap": obj{"A": 1, "B": -2}}},
	}}
	own := obj{"advanced": obj{"conditionGroups": []obj{{"id": "own", "operator": "AND", "conditions": []obj{
		{"questionId": q[9], "operator": "equals", "value": "true"}}}}, "actions": []obj{{"type": "end_form"}}}}
	for field, logic := range map[int64]obj{q[1]: showIf, q[4]: advanced, q[9]: own} {
		r := env.For(t).Do("PATCH", rf.path+"/fields/"+strconv.FormatInt(field, 10), key, obj{"conditionalLogic": logic})
		expectStatus(t, r, 200)
	}
	expectStatus(t, env.For(t).Do("PATCH", rf.path, key, obj{"webhookUrl": webhookURL, "webhookEnabled": true}), 200)
	secret := env.For(t).Do("POST", rf.path+"/webhook/secret", key, nil)
	expectStatus(t, secret, 200)
	rf.secrets = []string{webhookURL, "hooks.example.org", secret.JSON(t)["secret"].(string), f["shareUrl"].(string)}
	settings := obj{"hiddenFields": []string{"utm_source", "user_id"}, "closesAt": "2030-06-01T12:30:00Z", "maxResponses": 250,
		"closedMessage": "Sold out, see you next year", "language": "de-AT", "frameAncestors": []string{"https://shop.example.com"},
		"thankYou": obj{"title": "Thanks!", "message": fmt.Sprintf("We will write to {{%d}} about {{ %d }}.", q[2], q[3])},
		"notifications": obj{"recipients": []string{"owner@example.com"}, "confirmation": obj{"enabled": true,
			"emailQuestionId": q[2], "subject": fmt.Sprintf("Thanks, {{%d}}", q[1]), "message": "You chose {{" + strconv.FormatInt(q[3], 10) + "}}."}}}
	expectStatus(t, env.For(t).Do("PATCH", rf.path, key, settings), 200)
	return rf
}

// export reads a form's definition.
func export(t *testing.T, env *servertest.Env, key, path string) []byte {
	t.Helper()
	r := env.For(t).Do("GET", path+"/definition", key, nil)
	expectStatus(t, r, 200)
	return r.Body
}

// TestFormDefinitionShape: a definition is the form's details, settings and
// questions, with refs 1, 2, … in place of question ids in the logic (a string
// id stays a string), and nothing of the server's: no id, share token, dates,
// publication or webhook, neither its URL nor its secret. A form-scoped key
// reads its own form's; another form of its account is 403, another account's
// form 404.
func TestFormDefinitionShape(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		acct := env.Account("free")
		key := env.Key(acct, nil, nil)
		rf := newRichForm(t, env, key)
		expectStatus(t, env.Do("POST", rf.path+"/publish", key, nil), 200)
		body := export(t, env, key, rf.path)
		for _, s := range rf.secrets {
			if bytes.Contains(body, []byte(s)) {
				t.Errorf("the definition shows %q: %s", s, body)
			}
		}
		var def obj
		if err := json.Unmarshal(body, &def); err != nil {
			t.Fatal(err)
		}
		keys := slices.Sorted(maps.Keys(def))
		want := []string{"closedMessage", "closesAt", "description", "displayMode", "formaDefinition",
			"frameAncestors", "hiddenFields", "language", "maxResponses", "notifications", "questions", "thankYou", "title"}
		if !slices.Equal(keys, want) {
			t.Errorf("definition fields %v, want %v", keys, want)
		}
		fields(obj{"formaDefinition": 1, "title": "Customer feedback", "displayMode": "multi-step", "closesAt": "2030-06-01T12:30:00Z",
			"hiddenFields": []string{"utm_source", "user_id"}, "maxResponses": 250,
			"language": "de-AT", "frameAncestors": []string{"https://shop.example.com"},
			"thankYou": obj{"title": "Thanks!", "message": "We will write to {{3}} about {{4}}."},
			"notifications": obj{"recipients": []string{"owner@example.com"}, "confirmation": obj{"enabled": true,
				"emailQuestionId": 3, "subject": "Thanks, {{2}}", "message": "You chose {{4}}."}}})(t, &servertest.Response{Body: body})
		qs := items(t, def, "questions")
		if len(qs) != 17 {
			t.Fatalf("%d questions", len(qs))
		}
		for i, q := range qs {
			if q["ref"] != float64(i+1) || q["id"] != nil || q["order"] != nil {
				t.Errorf("question %d: ref %v, id %v, order %v", i, q["ref"], q["id"], q["order"])
			}
		}
		sameJSON(t, "showIf", qs[1]["conditionalLogic"], obj{"showIf": obj{"questionId": 1, "operator": "equals", "value": "A friend"}})
		adv := qs[4]["conditionalLogic"].(obj)["advanced"].(obj)
		sameJSON(t, "a dynamic condition", items(t, items(t, adv, "conditionGroups")[0], "conditions")[2],
			obj{"id": "c3", "questionId": 2, "operator": "not_equals", "value": "3", "valueType": "dynamic"})
		sameJSON(t, "actions", adv["actions"], []obj{{"type": "show_question", "targetId": 6}, {"type": "hide_question", "targetId": 7},
			{"type": "skip_to_section", "targetId": "9"}, {"type": "skip_to_question", "targetId": 10}, {"type": "end_form"},
			{"type": "set_score", "value": 7}})
		sameJSON(t, "score rules", adv["scoreRules"], []obj{{"id": "r1", "questionId": 1, "scoreMap": obj{"A friend": 2, "Search": 1.5}},
			{"id": "r2", "questionId": 4, "scoreMap": obj{"A": 1, "B": -2}}})

		own := rf.id
		scoped := env.Key(acct, nil, &own)
		if again := export(t, env, scoped, rf.path); !bytes.Equal(again, body) {
			t.Errorf("a form-scoped key reads another definition:\n%s\n%s", again, body)
		}
		second := formPath(createForm(t, env, key, obj{"title": "Second"}))
		servertest.Run(t, env, []scenario{
			{Name: "another form of a scoped key's account", Method: "GET", Path: second + "/definition", Key: scoped,
				ExpectedStatus: 403, Check: apiError("forbidden", "limited to form")},
			{Name: "another account's form", Method: "GET", Path: rf.path + "/definition", Key: env.NewKey(),
				ExpectedStatus: 404, Check: apiError("not_found", "Form not found")},
		})
	})
}

// TestFormDefinitionRoundTrip: a definition imported and exported again is the
// same, byte for byte; the imported form is a new draft whose logic names its
// own questions, answered as GET /forms/{id} shows it. A duplicate's definition
// is the original's, "Copy of" before its title.
func TestFormDefinitionRoundTrip(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		acct := env.Account("free")
		key := env.Key(acct, nil, nil)
		rf := newRichForm(t, env, key)
		first := export(t, env, key, rf.path)

		r := env.Do("POST", apiPrefix+"/forms/import", key, first)
		expectStatus(t, r, 201)
		imported := r.JSON(t)
		fields(obj{"isPublished": false, "publishedAt": nil, "webhook": obj{"enabled": false, "url": nil}})(t, r)
		path := formPath(imported)
		if got := env.Do("GET", path, key, nil); !bytes.Equal(got.Body, r.Body) {
			t.Errorf("import answered\n%s\nGET shows\n%s", r.Body, got.Body)
		}
		ids := map[int64]bool{}
		for _, q := range items(t, imported, "questions") {
			ids[wireID(t, q["id"])] = true
		}
		for _, q := range items(t, imported, "questions") {
			if q["conditionalLogic"] == nil {
				continue
			}
			var l form.ConditionalLogic
			raw, _ := json.Marshal(q["conditionalLogic"])
			if err := json.Unmarshal(raw, &l); err != nil {
				t.Fatal(err)
			}
			for _, ref := range l.References() {
				if !ids[ref] {
					t.Errorf("question %v: its logic names %d, not a question of the imported form", q["id"], ref)
				}
			}
		}
		if again := export(t, env, key, path); !bytes.Equal(again, first) {
			t.Errorf("export → import → export differs:\n%s\n%s", first, again)
		}

		r = env.Do("POST", rf.path+"/duplicate", key, nil)
		expectStatus(t, r, 201)
		copied := formPath(r.JSON(t))
		if got := env.Do("GET", copied, key, nil); !bytes.Equal(got.Body, r.Body) {
			t.Errorf("duplicate answered\n%s\nGET shows\n%s", r.Body, got.Body)
		}
		want := bytes.Replace(first, []byte(`"title":"Customer feedback"`), []byte(`"title":"Copy of Customer feedback"`), 1)
		if got := export(t, env, key, copied); !bytes.Equal(got, want) {
			t.Errorf("the copy's definition\n%s\nwant\n%s", got, want)
		}
	})
}

// TestDuplicateFormAccess: duplicating creates a form, which form-scoped keys
// may not do (403), even from their own form; another account's form is not
// found (404); a body is refused. The copy is a draft without webhook.
func TestDuplicateFormAccess(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		acct := env.Account("free")
		key := env.Key(acct, nil, nil)
		path, _, _ := publishedForm(t, env, key, obj{"title": "Original", "questions": []obj{{"question": "Name"}}})
		expectStatus(t, env.Do("PATCH", path, key, obj{"webhookUrl": webhookURL, "webhookEnabled": true}), 200)
		f := createForm(t, env, key, obj{"title": "Other"})
		own := mustInt(strings.TrimPrefix(path, apiPrefix+"/forms/"))
		scoped := env.Key(acct, nil, &own)
		servertest.Run(t, env, []scenario{
			{Name: "a form-scoped key, its own form", Method: "POST", Path: path + "/duplicate", Key: scoped,
				ExpectedStatus: 403, Check: apiError("forbidden", "cannot create forms")},
			{Name: "a form-scoped key, another form", Method: "POST", Path: formPath(f) + "/duplicate", Key: scoped,
				ExpectedStatus: 403, Check: apiError("forbidden", "limited to form")},
			{Name: "another account's form", Method: "POST", Path: path + "/duplicate", Key: env.NewKey(),
				ExpectedStatus: 404, Check: apiError("not_found", "Form not found")},
			{Name: "a body", Method: "POST", Path: path + "/duplicate", Key: key, Body: `{"title": "x"}`,
				ExpectedStatus: 400, Check: apiError("validation_error", "body")},
			{Name: "the owner", Method: "POST", Path: path + "/duplicate", Key: key, ExpectedStatus: 201,
				Check: fields(obj{"title": "Copy of Original", "isPublished": false, "publishedAt": nil,
					"webhook": obj{"enabled": false, "url": nil}})},
			{Name: "the forms", Method: "GET", Path: apiPrefix + "/forms", Key: key, ExpectedStatus: 200,
				Check: fields(obj{"total": 3})},
		})
	})
}

// TestImportFormRefusals: a definition of another version, or with a field
// that is not one, a bad ref, logic naming a ref the document does not have, or
// anything POST /forms refuses is a 400 naming the field, and nothing is
// created; form-scoped keys cannot import.
func TestImportFormRefusals(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		acct := env.Account("free")
		key := env.Key(acct, nil, nil)
		f := createForm(t, env, key, obj{"title": "Existing"})
		fid := wireID(t, f["id"])
		imports := apiPrefix + "/forms/import"
		two := `{"ref": 1, "type": "select", "question": "Pick", "options": ["a", "b"]}, {"ref": 2, "question": "Why?", "conditionalLogic": `
		var table []scenario
		for _, c := range []struct{ body, field string }{
			{`{"title": "x"}`, "formaDefinition: must be 1"},
			{`{"formaDefinition": 2, "title": "x", "sections": []}`, "formaDefinition: must be 1"},
			{`{"formaDefinition": "1", "title": "x"}`, "formaDefinition"},
			{`{"formaDefinition": 1.0, "title": "x"}`, "formaDefinition"},
			{`{"formaDefinition": null, "title": "x"}`, "formaDefinition"},
			{`[]`, "body"},
			{`{"formaDefinition": 1, "title": "x", "webhookUrl": "https://example.org/h"}`, "webhookUrl: is not a known field"},
			{`{"formaDefinition": 1, "title": "x", "id": 7}`, "id: is not a known field"},
			{`{"formaDefinition": 1, "title": ""}`, "title"},
			{`{"formaDefinition": 1, "title": "a\u0000b"}`, "title"},
			{`{"formaDefinition": 1, "title": "x", "displayMode": "wizard"}`, "displayMode"},
			{`{"formaDefinition": 1, "title": "x", "questions": [{"question": "No ref"}]}`, "questions[0].ref: must be a positive integer"},
			{`{"formaDefinition": 1, "title": "x", "questions": [{"ref": 0, "question": "Zero"}]}`, "questions[0].ref"},
			{`{"formaDefinition": 1, "title": "x", "questions": [{"ref": 1.5, "question": "Half"}]}`, "ref"},
			{`{"formaDefinition": 1, "title": "x", "questions": [{"ref": 3, "question": "a"}, {"ref": 3, "question": "b"}]}`, "questions[1].ref: duplicates ref 3"},
			{`{"formaDefinition": 1, "title": "x", "questions": [{"ref": 1, "id": 5, "question": "a"}]}`, "questions[0].id: is not a known field"},
			{`{"formaDefinition": 1, "title": "x", "questions": [{"ref": 1, "type": "bogus", "question": "a"}]}`, "questions[0].type"},
			{`{"formaDefinition": 1, "title": "x", "questions": [{"ref": 1, "type": "select", "question": "a"}]}`, "questions[0].options"},
			{`{"formaDefinition": 1, "title": "x", "questions": [{"ref": 1, "type": "slider", "question": "a"}]}`, "questions[0].sliderConfig"},
			{`{"formaDefinition": 1, "title": "x", "questions": [` + two + `{"showIf": {"questionId": 3, "operator": "equals", "value": "a"}}}]}`,
				"questions[1].conditionalLogic.showIf.questionId: question 3 is not in this form"},
			{`{"formaDefinition": 1, "title": "x", "questions": [` + two + `{"advanced": {"conditionGroups": [{"operator": "AND", "conditions": [` +
				`{"questionId": 1, "operator": "equals", "value": "9", "valueType": "dynamic"}]}]}}}]}`,
				"questions[1].conditionalLogic.advanced.conditionGroups[0].conditions[0].value"},
			{`{"formaDefinition": 1, "title": "x", "questions": [` + two + `{"advanced": {"conditionGroups": [{"operator": "AND", "conditions": [` +
				`{"questionId": 1, "operator": "equals", "value": "a"}]}], "actions": [{"type": "skip_to_question", "targetId": "4"}]}}}]}`,
				"questions[1].conditionalLogic.advanced.actions[0].targetId"},
			{`{"formaDefinition": 1, "title": "x", "questions": [` + two + `{"advanced": {"scoreRules": [{"questionId": 5, "scoreMap": {"a": 1}}]}}}]}`,
				"questions[1].conditionalLogic.advanced.scoreRules[0].questionId"},
			{`{"formaDefinition": 1, "title": "x", "questions": [` + two + `{"showIf": {"questionId": 1, "operator": "contains", "value": "a"}}}]}`,
				"questions[1].conditionalLogic.showIf.operator"},
			{`{"formaDefinition": 1, "title": "x", "thankYou": {"message": "You chose {{3}}"}, "questions": [{"ref": 1, "question": "a"}]}`,
				"thankYou.message"},
			{`{"formaDefinition": 1, "title": "x", "thankYou": {"redirectUrl": "javascript:alert(1)"}}`, "thankYou.redirectUrl"},
			{`{"formaDefinition": 1, "title": "x", "maxResponses": 0}`, "maxResponses"},
			{`{"formaDefinition": 1, "title": "x", "hiddenFields": ["a b"]}`, "hiddenFields[0]"},
			{`{"formaDefinition": 1, "title": "x", "theme": "dark"}`, "theme: is not a known field"},
			{`{"formaDefinition": 1, "title": "x", "language": "xx"}`, "language: must be a BCP 47 language tag"},
			{`{"formaDefinition": 1, "title": "x", "frameAncestors": ["https://a.example/path"]}`, "frameAncestors[0]: must be an origin"},
		} {
			table = append(table, scenario{Method: "POST", Path: imports, Key: key, Body: c.body, ExpectedStatus: 400,
				Check: apiError("validation_error", c.field)})
		}
		own := fid
		table = append(table,
			scenario{Name: "a form-scoped key", Method: "POST", Path: imports, Key: env.Key(acct, nil, &own),
				Body: `{"formaDefinition": 1, "title": "x"}`, ExpectedStatus: 403, Check: apiError("forbidden", "cannot create forms")},
			scenario{Name: "nothing was created", Method: "GET", Path: apiPrefix + "/forms", Key: key, ExpectedStatus: 200,
				Check: fields(obj{"total": 1})},
			scenario{Name: "a minimal definition", Method: "POST", Path: imports, Key: key, Body: `{"formaDefinition": 1, "title": "Minimal"}`,
				ExpectedStatus: 201, Check: fields(obj{"title": "Minimal", "description": "", "displayMode": "single-page", "questions": []any{}})},
			scenario{Name: "settings naming refs", Method: "POST", Path: imports, Key: key,
				Body: `{"formaDefinition": 1, "title": "Refs", "thankYou": {"redirectUrl": "https://example.com/done", ` +
					`"redirectParams": [{"questionId": 7, "name": "day"}]}, "questions": [{"ref": 7, "question": "Day?"}]}`,
				ExpectedStatus: 201, Check: func(t *testing.T, r *servertest.Response) {
					f := r.JSON(t)
					want := obj{"redirectUrl": "https://example.com/done", "redirectParams": []obj{{"questionId": wireID(t, items(t, f, "questions")[0]["id"]), "name": "day"}}}
					sameJSON(t, "thankYou", f["thankYou"], want)
				}},
			scenario{Name: "markup is text", Method: "POST", Path: imports, Key: key,
				Body:           `{"formaDefinition": 1, "title": "<script>alert(1)</script>", "questions": [{"ref": 1, "question": "<img src=x onerror=alert(1)>"}]}`,
				ExpectedStatus: 201, NotExpectedContent: []string{"<script>", "<img"},
				ExpectedContent: []string{`"title":"\u003cscript\u003ealert(1)\u003c/script\u003e"`}},
		)
		servertest.Run(t, env, table)
	})
}

// TestImportTakesTheSettingsAsCreate: the import checks and keeps each setting
// as POST /forms does. Every field of form.Settings gets hostile values and
// plausible ones (in cases and spaces a check may normalize) in both; where
// POST /forms answers (201, or a 400 naming the field), the import answers the
// same, and the forms they create show the same value. It is skipped while
// POST /forms takes no setting.
func TestImportTakesTheSettingsAsCreate(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.Key(env.Account("scale"), nil, nil)
		plausible := []json.RawMessage{json.RawMessage(`"DE"`), json.RawMessage(`" Sold out "`), json.RawMessage(`25`),
			json.RawMessage(`"2030-01-01T10:00:00+02:00"`), json.RawMessage(`["utm_source", "utm_source"]`),
			json.RawMessage(`["https://Example.com/"]`), json.RawMessage(`{"recipients": ["Ana@Example.com"]}`),
			json.RawMessage(`{"title": " Thanks ", "message": "See you"}`)}
		compared := 0
		for _, name := range settingNames() {
			for _, v := range append(slices.Clone(hostile), plausible...) {
				if string(v) == "null" {
					continue // a definition leaves out a setting that is not set
				}
				create := sendWith(env.For(t), "POST", apiPrefix+"/forms", key, obj{"title": "x", name: v}, nil)
				if bytes.Contains(create.Body, []byte(name+": is not a known field")) {
					continue // POST /forms does not take it (yet)
				}
				compared++
				imported := sendWith(env.For(t), "POST", apiPrefix+"/forms/import", key,
					obj{"formaDefinition": 1, "title": "x", name: v}, nil)
				if imported.Status != create.Status {
					t.Errorf("%s = %s: POST /forms answers %d, the import %d %s", name, clip(string(v)), create.Status,
						imported.Status, clip(string(imported.Body)))
				} else if create.Status == 201 && !reflect.DeepEqual(create.JSON(t)[name], imported.JSON(t)[name]) {
					t.Errorf("%s = %s: POST /forms keeps %v, the import %v", name, clip(string(v)), create.JSON(t)[name],
						imported.JSON(t)[name])
				}
			}
		}
		if compared == 0 {
			t.Skip("POST /forms takes no setting yet: nothing to compare")
		}
	})
}

// settingNames are the JSON names of the fields of form.Settings.
func settingNames() []string {
	var names []string
	for f := range reflect.TypeFor[form.Settings]().Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		names = append(names, name)
	}
	return names
}
