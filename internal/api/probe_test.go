package api_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"testing"

	"forma/internal/config"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// hostile are values a careless or malicious client puts where another value
// belongs: control and format characters, numbers JSON cannot hold, wrong types,
// markup and sheer size.
var hostile = []json.RawMessage{
	json.RawMessage(`"\u0000"`), json.RawMessage(`"a\u0007b"`), json.RawMessage(`"\u009b"`),
	json.RawMessage(`"\u202e\u200b"`), json.RawMessage(`"<script>alert(1)</script>"`),
	json.RawMessage(`"` + strings.Repeat("x", 70_000) + `"`),
	json.RawMessage(`-1`), json.RawMessage(`0`), json.RawMessage(`1e400`), json.RawMessage(`9223372036854775808`),
	json.RawMessage(`1.5`), json.RawMessage(`true`), json.RawMessage(`null`),
	json.RawMessage(`[]`), json.RawMessage(`{}`), json.RawMessage(`[null]`), json.RawMessage(`{"x":1}`),
}

// malformedBodies are bodies that are not the JSON object an operation expects.
var malformedBodies = []string{
	`{`, `}`, `[]`, `null`, `"x"`, `1`, `{"a":1}}`, `{"title":"a","title":"b"}`, "{\"title\":\"\xff\xfe\"}",
	strings.Repeat("[", 100_000), `{"title":` + strings.Repeat(`{"a":`, 5000) + `1` + strings.Repeat(`}`, 5000) + `}`,
}

// garbageIDs stand in for path parameters.
var garbageIDs = []string{"0", "-1", "%2B1", "01", "99999999999999999999", "abc", "%00", "%E2%80%AE", "1.5", strings.Repeat("9", 500)}

// TestNoInputGets500 is the probe's malformed-input category as a test: every
// documented operation, of the API and of respondents, gets hostile values in each field of a valid body, malformed
// bodies, garbage path parameters and garbage query values, on both databases. No
// response may be a 500: bad input is the client's error, named as such.
func TestNoInputGets500(t *testing.T) {
	if testing.Short() {
		t.Skip("the probe sends thousands of requests")
	}
	_, doc := embeddedDoc(t)
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d, func(c *config.Config) { c.SubmitLimit, c.SessionLimit, c.SaveLimit = 0, 0, 0 })
		key := env.Key(env.Account("scale"), nil, nil)
		f := createForm(t, env, key, obj{"title": "Probe", "questions": []obj{
			{"type": "text", "question": "Name", "required": true},
			{"type": "select", "question": "Role", "options": []string{"Dev", "Ops"}},
		}})
		path := formPath(f)
		qids := questionIDs(t, f)
		expectStatus(t, env.Do("POST", path+"/publish", key, nil), 200)
		submission := submit(t, env, f["shareUrl"].(string), obj{qids[0]: "Ada"})
		conversation := id(postJSON(t, env, key, path+"/chat", nil)["id"])
		session := postJSON(t, env, "", "/f/"+f["shareUrl"].(string)+"/sessions", nil)
		params := map[string]string{"id": id(f["id"]), "fieldId": qids[1], "submissionId": submission, "conversationId": conversation,
			"shareUrl": f["shareUrl"].(string), "sessionId": session["id"].(string), "fileId": "no-such-file", "logId": "1"}
		answers := obj{"answers": obj{qids[0]: "Ada", qids[1]: "Dev"}}
		resume := map[string]string{"X-Resume-Token": session["resumeToken"].(string)}
		bases := map[string]obj{
			"POST /forms": {"title": "T", "description": "D", "displayMode": "multi-step", "questions": []obj{
				{"type": "select", "question": "Q", "required": true, "options": []string{"A", "B"}},
				{"type": "text", "question": "R", "logic": obj{"showIf": obj{"questionId": 1, "operator": "equals", "value": "A"}}}}},
			"PATCH /forms/{id}": {"title": "T", "description": "D", "webhookUrl": "https://example.com/h", "webhookEnabled": false},
			"POST /forms/import": {"formaDefinition": 1, "title": "T", "description": "D", "displayMode": "multi-step",
				"hiddenFields": []string{"utm"}, "closesAt": "2030-01-01T00:00:00Z", "maxResponses": 3, "closedMessage": "C",
				"thankYou": obj{"title": "T", "message": "You chose {{1}}"}, "questions": []obj{
					{"ref": 1, "type": "select", "question": "Q", "required": true, "options": []string{"A", "B"}},
					{"ref": 2, "type": "text", "question": "R", "conditionalLogic": obj{"showIf": obj{"questionId": 1, "operator": "equals", "value": "A"},
						"advanced": obj{"conditionGroups": []obj{{"id": "g", "operator": "AND", "conditions": []obj{
							{"questionId": 1, "operator": "equals", "value": "2", "valueType": "dynamic"}}}},
							"actions": []obj{{"type": "skip_to_question", "targetId": 2}}, "scoreRules": []obj{{"questionId": 1, "scoreMap": obj{"A": 1}}}}}}}},
			"POST /forms/{id}/fields":                          {"type": "rating", "question": "Q", "required": false, "options": []string{"1"}},
			"PATCH /forms/{id}/fields/{fieldId}":               {"question": "Q", "required": true, "options": []string{"Dev", "Ops", "QA"}},
			"POST /forms/generate":                             {"prompt": "a contact form with name and email"},
			"POST /forms/{id}/webhook/test":                    {"url": "https://example.com/h"},
			"POST /forms/{id}/chat/{conversationId}/messages":  {"message": "How many responses?"},
			"POST /f/{shareUrl}/submissions":                   answers,
			"POST /f/{shareUrl}/evaluate":                      answers,
			"PATCH /f/{shareUrl}/sessions/{sessionId}":         answers,
			"POST /f/{shareUrl}/sessions/{sessionId}/complete": answers,
		}
		respondent := respondentOperations(doc)
		var names []string
		ops := operations(doc)
		for name := range ops {
			names = append(names, name)
		}
		sort.Slice(names, func(i, j int) bool { // deletions last, so the fixtures live until then
			di, dj := strings.HasPrefix(names[i], "DELETE"), strings.HasPrefix(names[j], "DELETE")
			return di != dj && dj || di == dj && names[i] < names[j]
		})
		for _, name := range names {
			method, tmpl, _ := strings.Cut(name, " ")
			t.Run(name, func(t *testing.T) {
				env := env.For(t)
				prefix := apiPrefix
				if respondent[name] != nil {
					prefix = ""
				}
				send := func(what, p string, body any) {
					t.Helper()
					if r := sendWith(env, method, prefix+p, key, body, resume); r.Status >= 500 {
						t.Errorf("%s: %s %s → %d %s", what, method, clip(p), r.Status, clip(string(r.Body)))
					}
				}
				p := fill(tmpl, params)
				for _, q := range ops[name].Parameters {
					if q.Value.In == "query" {
						for _, g := range garbageIDs {
							send("query "+q.Value.Name, p+"?"+q.Value.Name+"="+g, nil)
						}
					}
					if q.Value.In == "path" {
						for _, g := range garbageIDs {
							send("path "+q.Value.Name, fill(tmpl, with(params, q.Value.Name, g)), nil)
						}
					}
				}
				if method == "GET" || method == "DELETE" {
					return
				}
				for _, b := range malformedBodies {
					send("malformed body", p, b)
				}
				for _, m := range mutations(bases[name]) {
					send("field "+m.path, p, m.body)
				}
			})
		}
	})
}

// fill puts the parameters into a path template.
func fill(tmpl string, params map[string]string) string {
	for k, v := range params {
		tmpl = strings.ReplaceAll(tmpl, "{"+k+"}", v)
	}
	return tmpl
}

// with returns a copy of params with name set to value.
func with(params map[string]string, name, value string) map[string]string {
	c := map[string]string{}
	for k, v := range params {
		c[k] = v
	}
	c[name] = value
	return c
}

// mutation is a body with one value replaced.
type mutation struct {
	path string
	body json.RawMessage
}

// mutations replaces each value of base, at every depth, by each hostile value.
func mutations(base obj) []mutation {
	if base == nil {
		return nil
	}
	var out []mutation
	var walk func(path string, v any, set func(any))
	root := roundTripValue(base)
	walk = func(path string, v any, set func(any)) {
		for _, h := range hostile {
			set(h)
			b, err := json.Marshal(root)
			if err != nil {
				panic(err)
			}
			out = append(out, mutation{path: path, body: b})
		}
		set(v)
		switch c := v.(type) {
		case map[string]any:
			for k, child := range c {
				walk(path+"."+k, child, func(n any) { c[k] = n })
			}
		case []any:
			for i, child := range c {
				walk(fmt.Sprintf("%s[%d]", path, i), child, func(n any) { c[i] = n })
			}
		}
	}
	for k, child := range root {
		walk(k, child, func(n any) { root[k] = n })
	}
	return out
}

// roundTripValue returns base as plain decoded JSON (maps, slices, strings…).
func roundTripValue(base obj) map[string]any {
	b, _ := json.Marshal(base)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return m
}

// clip shortens text for a failure message.
func clip(s string) string {
	if u, err := url.PathUnescape(s); err == nil {
		s = u
	}
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
