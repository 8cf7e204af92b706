package api_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"forma/internal/auth"
	"forma/internal/form"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

const apiPrefix = "/api/v1"

// documentedLimitHeaders are the rate-limit and credit headers of every response to a request
// with a valid key.
var documentedLimitHeaders = []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset",
	"X-Credits-Remaining", "X-Credits-Used", "X-Monthly-Allowance"}

// loadDoc parses and validates an OpenAPI document (3.1 validation follows from its
// openapi field).
func loadDoc(t *testing.T, data []byte) *openapi3.T {
	t.Helper()
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(data)
	if err != nil {
		t.Fatalf("load OpenAPI document: %v", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		t.Fatalf("OpenAPI document is invalid: %v", err)
	}
	return doc
}

func embeddedDoc(t *testing.T) ([]byte, *openapi3.T) {
	t.Helper()
	data, err := os.ReadFile("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	return data, loadDoc(t, data)
}

// operations lists the document's operations as "METHOD /path" → operation.
func operations(doc *openapi3.T) map[string]*openapi3.Operation {
	ops := map[string]*openapi3.Operation{}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			ops[strings.ToUpper(method)+" "+path] = op
		}
	}
	return ops
}

// routedPatterns reads the patterns the package registers with a.handle.
func routedPatterns(t *testing.T) map[string]bool {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`a\.handle\("([A-Z]+ /[^"]*)"`)
	routes := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(src), -1) {
			routes[m[1]] = true
		}
	}
	if len(routes) == 0 {
		t.Fatal("found no a.handle routes in the package")
	}
	return routes
}

func TestOpenAPIDocument(t *testing.T) {
	_, doc := embeddedDoc(t)
	if doc.OpenAPI != "3.1.0" || doc.Info.Title != "Forma API" || doc.Info.Version != "1.0.0" {
		t.Errorf("openapi/info = %s %q %q", doc.OpenAPI, doc.Info.Title, doc.Info.Version)
	}
	scheme := doc.Components.SecuritySchemes["ApiKeyAuth"]
	if scheme == nil || scheme.Value.Type != "apiKey" || scheme.Value.In != "header" || scheme.Value.Name != "X-API-Key" {
		t.Errorf("ApiKeyAuth security scheme missing or wrong: %+v", scheme)
	}
	if len(doc.Security) != 1 || doc.Security[0]["ApiKeyAuth"] == nil {
		t.Errorf("ApiKeyAuth is not applied globally: %v", doc.Security)
	}

	// The document describes exactly the routed operations.
	ops := operations(doc)
	routes := routedPatterns(t)
	for r := range routes {
		if ops[r] == nil {
			t.Errorf("route %s is not in openapi.json", r)
		}
	}
	for o := range ops {
		if !routes[o] {
			t.Errorf("openapi.json describes %s, which is not routed", o)
		}
	}

	ids := map[string]bool{}
	for name, op := range ops {
		if op.OperationID == "" || ids[op.OperationID] {
			t.Errorf("%s: operationId %q missing or not unique", name, op.OperationID)
		}
		ids[op.OperationID] = true
		if op.Summary == "" || len(op.Tags) == 0 {
			t.Errorf("%s: summary or tags missing", name)
		}
		for _, status := range []string{"401", "429", "500"} {
			if op.Responses.Value(status) == nil {
				t.Errorf("%s: no %s response", name, status)
			}
		}
		for status, resp := range op.Responses.Map() {
			h := resp.Value.Headers
			if h["X-Request-Id"] == nil {
				t.Errorf("%s %s: X-Request-Id not documented", name, status)
			}
			if status == "401" || status == "500" {
				continue // no key identified (401), or possibly none (500)
			}
			for _, name2 := range documentedLimitHeaders {
				if h[name2] == nil || !h[name2].Value.Required {
					t.Errorf("%s %s: header %s not documented as required", name, status, name2)
				}
			}
		}
	}

	// Enums follow the domain package.
	schemas := doc.Components.Schemas
	var types []string
	for _, v := range schemas["Question"].Value.Properties["type"].Value.Enum {
		types = append(types, v.(string))
	}
	var want []string
	for _, qt := range form.QuestionTypes {
		want = append(want, string(qt))
	}
	if !slices.Equal(types, want) {
		t.Errorf("question type enum = %v, want %v", types, want)
	}
	currencies := map[string]bool{}
	for _, v := range schemas["CurrencyConfig"].Value.Properties["currency"].Value.Enum {
		currencies[v.(string)] = true
	}
	for a := 'A'; a <= 'Z'; a++ {
		for b := 'A'; b <= 'Z'; b++ {
			for c := 'A'; c <= 'Z'; c++ {
				code := string([]rune{a, b, c})
				if currencies[code] != form.IsCurrencyCode(code) {
					t.Errorf("currency %s: in enum %v, accepted by the server %v", code, currencies[code], form.IsCurrencyCode(code))
				}
			}
		}
	}
}

// conformance sends requests to a running server and checks every response (and
// the request of every success) against the OpenAPI document.
type conformance struct {
	t      *testing.T
	env    *servertest.Env
	doc    *openapi3.T
	router routers.Router
	// seen records, per operationId, the statuses observed.
	seen map[string]map[int]bool
}

// send performs one request and validates it; want is the expected status.
func (c *conformance) send(want int, method, path, key, contentType string, body []byte) *servertest.Response {
	c.t.Helper()
	url := c.env.URL + apiPrefix + path
	newReq := func() *http.Request {
		var rd io.Reader
		if body != nil {
			rd = bytes.NewReader(body)
		}
		req, err := http.NewRequest(method, url, rd)
		if err != nil {
			c.t.Fatal(err)
		}
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		if key != "" {
			req.Header.Set("X-API-Key", key)
		}
		return req
	}
	res := c.env.Send(newReq())
	if res.Status != want {
		c.t.Fatalf("%s %s: status %d, want %d\n%s", method, path, res.Status, want, res.Body)
	}
	c.validate(newReq(), res)
	return res
}

// validate checks one exchange against the document.
func (c *conformance) validate(req *http.Request, res *servertest.Response) {
	c.t.Helper()
	ctx := context.Background()
	what := req.Method + " " + strings.TrimPrefix(req.URL.RequestURI(), apiPrefix)
	route, params, err := c.router.FindRoute(req)
	if err != nil {
		c.t.Errorf("%s: no operation in the document: %v", what, err)
		return
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: true,
			SkipSettingDefaults: true}} // a required field left out must count as missing, default or not
	if res.Status/100 == 2 {
		if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
			c.t.Errorf("%s: the request the server accepted does not match the document: %v", what, err)
		}
	}
	if err := c.check(in, res.Status, res.Header, res.Body); err != nil {
		c.t.Errorf("%s → %d: response does not match the document: %v\n%s", what, res.Status, err, res.Body)
	}
	op := route.Operation.OperationID
	if c.seen[op] == nil {
		c.seen[op] = map[int]bool{}
	}
	c.seen[op][res.Status] = true
}

// check validates a response (status, headers, body) for the request in in.
func (c *conformance) check(in *openapi3filter.RequestValidationInput, status int, header http.Header, body []byte) error {
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: status, Header: header,
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true}}
	out.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		return err
	}
	if resp := in.Route.Operation.Responses.Status(status); resp != nil && len(resp.Value.Content) == 0 && len(body) != 0 {
		return fmt.Errorf("documented without a body, but it has %d bytes", len(body))
	}
	return nil
}

// json sends body (nil for none) as JSON and returns the decoded response body.
func (c *conformance) json(want int, method, path, key string, body any) map[string]any {
	c.t.Helper()
	var raw []byte
	ct := ""
	if body != nil {
		var err error
		if raw, err = json.Marshal(body); err != nil {
			c.t.Fatal(err)
		}
		ct = "application/json"
	}
	res := c.send(want, method, path, key, ct, raw)
	if len(res.Body) == 0 {
		return nil
	}
	var m map[string]any
	if err := json.Unmarshal(res.Body, &m); err != nil {
		c.t.Fatalf("%s %s: body is not a JSON object: %v", method, path, err)
	}
	return m
}

type obj = map[string]any

// sameJSON reports whether got (decoded JSON) is want once encoded and decoded.
func sameJSON(t *testing.T, what string, got, want any) {
	t.Helper()
	b, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	var w any
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, w) {
		t.Errorf("%s returned as %v, sent %v", what, got, w)
	}
}

func wireID(t *testing.T, v any) int64 {
	t.Helper()
	f, ok := v.(float64)
	if !ok {
		t.Fatalf("not an id: %v", v)
	}
	return int64(f)
}

func questions(t *testing.T, f obj) []obj {
	t.Helper()
	raw, ok := f["questions"].([]any)
	if !ok {
		t.Fatalf("no questions in %v", f)
	}
	qs := make([]obj, len(raw))
	for i, q := range raw {
		qs[i] = q.(obj)
	}
	return qs
}

// checkQuestionShape checks what the schema leaves to prose: options are an array for
// choice types and null otherwise; sliderConfig only on sliders.
func checkQuestionShape(t *testing.T, q obj) {
	t.Helper()
	typ := q["type"].(string)
	opts, present := q["options"]
	if !present {
		t.Errorf("question %v: options absent", q["id"])
	}
	if choice := typ == "select" || typ == "multi_select"; choice != (opts != nil) {
		t.Errorf("question %v (%s): options = %v", q["id"], typ, opts)
	}
	if _, ok := q["sliderConfig"]; ok != (typ == "slider") {
		t.Errorf("question %v (%s): sliderConfig present = %v", q["id"], typ, ok)
	}
	if _, ok := q["currencyConfig"]; ok && typ != "currency" {
		t.Errorf("question %v (%s): currencyConfig on a non-currency question", q["id"], typ)
	}
}

func TestOpenAPIConformance(t *testing.T) {
	embedded, _ := embeddedDoc(t)
	env := servertest.New(t, store.SQLite)

	// The document is served without a key, with this server's URL.
	res := env.Do(http.MethodGet, apiPrefix+"/openapi.json", "", nil)
	if res.Status != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("GET /api/v1/openapi.json: %d %s", res.Status, res.Header.Get("Content-Type"))
	}
	served := res.JSON(t)
	servers, _ := served["servers"].([]any)
	if len(servers) != 1 || servers[0].(obj)["url"] != env.URL+apiPrefix {
		t.Errorf("served servers = %v, want the url %s", served["servers"], env.URL+apiPrefix)
	}
	var file obj
	if err := json.Unmarshal(embedded, &file); err != nil {
		t.Fatal(err)
	}
	delete(file, "servers")
	delete(served, "servers")
	if !reflect.DeepEqual(file, served) {
		t.Error("the served document differs from openapi.json beyond servers")
	}
	doc := loadDoc(t, res.Body)
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	c := &conformance{t: t, env: env, doc: doc, router: router, seen: map[string]map[int]bool{}}

	// The reference page lists every operation.
	page := env.Do(http.MethodGet, "/docs", "", nil)
	if page.Status != http.StatusOK || !strings.HasPrefix(page.Header.Get("Content-Type"), "text/html") {
		t.Errorf("GET /docs: %d %s", page.Status, page.Header.Get("Content-Type"))
	}
	for name, op := range operations(doc) {
		method, path, _ := strings.Cut(name, " ")
		line := fmt.Sprintf(`<span class="m">%s</span><code>%s</code> — %s`, method, path, op.Summary)
		if !bytes.Contains(page.Body, []byte(line)) {
			t.Errorf("GET /docs does not list %s (%s)", name, op.Summary)
		}
	}

	acct := env.Account("free")
	key := env.Key(acct, nil, nil)
	other := env.Account("builder")
	otherKey := env.Key(other, nil, nil)

	// ---- create
	full := obj{"title": "Customer feedback", "description": "How are we doing?", "displayMode": "multi-step",
		"questions": []obj{
			{"type": "select", "question": "How did you hear about us?", "required": true, "options": []string{"Search", "A friend", "Social media"}},
			{"question": "Your name"},
			{"type": "email", "question": "Email", "required": true},
			{"type": "multi_select", "question": "Which products?", "options": []string{"A", "B"}},
			{"type": "slider", "question": "How likely are you to recommend us?", "sliderConfig": obj{"min": 0, "max": 10, "step": 1}},
			{"type": "currency", "question": "Budget", "currencyConfig": obj{"currency": "EUR", "min": 0, "max": 1000}},
			{"type": "currency", "question": "Price", "currencyConfig": obj{"currency": "JPY"}},
			{"type": "currency", "question": "Amount", "options": nil},
			{"type": "rating", "question": "Rating"}, {"type": "yes_no", "question": "Again?"},
			{"type": "date", "question": "Date"}, {"type": "time", "question": "Time"},
			{"type": "file_upload", "question": "Screenshot"}, {"type": "number", "question": "Age"},
			{"type": "phone", "question": "Phone"}, {"type": "url", "question": "Website"},
			{"type": "textarea", "question": "Anything else?", "options": []string{}},
		}}
	f1 := c.json(201, "POST", "/forms", key, full)
	form1 := wireID(t, f1["id"])
	qs := questions(t, f1)
	if len(qs) != 17 || qs[1]["type"] != "text" || f1["isPublished"] != false || f1["publishedAt"] != nil {
		t.Errorf("created form: %v", f1)
	}
	for i, q := range qs {
		checkQuestionShape(t, q)
		if wireID(t, q["order"]) != int64(i+1) {
			t.Errorf("question %d has order %v", i, q["order"])
		}
	}
	qSelect, qText, qEmail, qMulti, qSlider := wireID(t, qs[0]["id"]), wireID(t, qs[1]["id"]), wireID(t, qs[2]["id"]), wireID(t, qs[3]["id"]), wireID(t, qs[4]["id"])
	qPrice, qURL := wireID(t, qs[6]["id"]), wireID(t, qs[15]["id"])

	f2 := c.json(201, "POST", "/forms", key, obj{"title": "Second", "questions": []obj{{"question": "Only one"}}})
	form2, q2 := wireID(t, f2["id"]), wireID(t, questions(t, f2)[0]["id"])
	fb := c.json(201, "POST", "/forms", otherKey, obj{"title": "Another account's"})
	formB := wireID(t, fb["id"])
	scoped := env.Key(acct, nil, &form1)

	for _, body := range []string{
		`{}`, `{"title": ""}`, `{"title": "   "}`, `{"title": 5}`, `{"title": "x", "colour": "red"}`, `{"title": "x"`,
		`{"title": "x"} {}`, `[]`, `{"title": "x", "displayMode": "wizard"}`,
		`{"title": "x", "questions": [{"question": "q", "conditionalLogic": {"showIf": {"questionId": 1, "operator": "equals", "value": "a"}}}]}`,
		`{"title": "x", "questions": [{"type": "select", "question": "q"}]}`,
		`{"title": "x", "questions": [{"type": "text", "question": "q", "options": ["a"]}]}`,
		`{"title": "x", "questions": [{"type": "slider", "question": "q", "sliderConfig": {"min": 5, "max": 1, "step": 1}}]}`,
		`{"title": "x", "questions": [{"type": "currency", "question": "q", "currencyConfig": {"currency": "usd"}}]}`,
		`{"title": "` + strings.Repeat("x", 501) + `"}`,
	} {
		c.send(400, "POST", "/forms", key, "application/json", []byte(body))
	}
	c.send(400, "POST", "/forms", key, "text/plain", []byte(`{"title": "x"}`))
	c.send(400, "POST", "/forms", key, "", []byte(`{"title": "x"}`))
	c.send(201, "POST", "/forms", key, "application/json; charset=utf-8", []byte(`{"title": "Charset"}`))

	// ---- list
	list := c.json(200, "GET", "/forms", key, nil)
	if list["total"] != 3.0 || list["limit"] != 50.0 || list["offset"] != 0.0 || list["hasMore"] != false {
		t.Errorf("list: %v", list)
	}
	list = c.json(200, "GET", "/forms?limit=1&offset=1", key, nil)
	if list["hasMore"] != true || len(list["forms"].([]any)) != 1 {
		t.Errorf("list page: %v", list)
	}
	c.json(200, "GET", "/forms?limit=100&offset=10", key, nil)
	for _, q := range []string{"limit=0", "limit=101", "limit=abc", "offset=-1", "offset=x", "limit=1.5"} {
		c.json(400, "GET", "/forms?"+q, key, nil)
	}
	if l := c.json(200, "GET", "/forms", scoped, nil); l["total"] != 1.0 || wireID(t, l["forms"].([]any)[0].(obj)["id"]) != form1 {
		t.Errorf("scoped list: %v", l)
	}
	if l := c.json(200, "GET", "/forms", otherKey, nil); l["total"] != 1.0 {
		t.Errorf("other account's list: %v", l)
	}

	// ---- get
	got := c.json(200, "GET", fmt.Sprintf("/forms/%d", form1), scoped, nil)
	if len(questions(t, got)) != 17 {
		t.Errorf("get: %v", got)
	}
	c.json(404, "GET", fmt.Sprintf("/forms/%d", formB), key, nil)
	c.json(404, "GET", fmt.Sprintf("/forms/%d", formB), scoped, nil)
	c.json(400, "GET", "/forms/abc", key, nil)

	// ---- update
	f1p := fmt.Sprintf("/forms/%d", form2)
	for _, body := range []string{
		`{}`, `{"webhookEnabled": true}`, `{"title": null}`, `{"title": ""}`, `{"displayMode": "wizard"}`,
		`{"displayMode": null}`, `{"webhookEnabled": null}`, `{"webhookUrl": "http://127.0.0.1/hook"}`,
		`{"webhookUrl": "http://localhost:9000/hook"}`, `{"webhookUrl": "ftp://files.example.org/x"}`,
		`{"webhookUrl": "https://hooks.example.org/` + strings.Repeat("a", 2000) + `"}`, `{"isPublished": true}`,
		`{"description": "` + strings.Repeat("d", 5001) + `"}`,
	} {
		c.send(400, "PATCH", f1p, key, "application/json", []byte(body))
	}
	up := c.json(200, "PATCH", f1p, key, obj{"title": "Renamed", "description": nil, "displayMode": "multi-step"})
	if up["title"] != "Renamed" || up["description"] != "" || up["questions"] != nil {
		t.Errorf("update: %v", up)
	}
	up = c.json(200, "PATCH", f1p, key, obj{"webhookUrl": "https://hooks.example.org/forma", "webhookEnabled": true})
	if wh := up["webhook"].(obj); wh["enabled"] != true || wh["url"] != "https://hooks.example.org/forma" {
		t.Errorf("webhook on: %v", up)
	}
	up = c.json(200, "PATCH", f1p, key, obj{"webhookEnabled": false})
	if wh := up["webhook"].(obj); wh["enabled"] != false || wh["url"] != "https://hooks.example.org/forma" {
		t.Errorf("webhook off: %v", up)
	}
	c.json(200, "PATCH", f1p, key, obj{"webhookEnabled": true})
	up = c.json(200, "PATCH", f1p, key, obj{"webhookUrl": ""})
	if wh := up["webhook"].(obj); wh["enabled"] != false || wh["url"] != nil {
		t.Errorf("webhook cleared: %v", up)
	}
	c.json(200, "PATCH", f1p, key, obj{"webhookUrl": nil})

	// ---- publish, unpublish
	p1 := fmt.Sprintf("/forms/%d", form1)
	pub := c.json(200, "POST", p1+"/publish", scoped, nil)
	again := c.json(200, "POST", p1+"/publish", key, nil)
	if pub["publishedAt"] == nil || again["publishedAt"] != pub["publishedAt"] || pub["url"] != f1["url"] {
		t.Errorf("publish: %v then %v", pub, again)
	}
	if g := c.json(200, "GET", p1, key, nil); g["isPublished"] != true || g["publishedAt"] != pub["publishedAt"] {
		t.Errorf("published form: %v", g)
	}
	c.send(200, "POST", p1+"/unpublish", key, "application/json", []byte(`{}`))
	c.json(200, "POST", p1+"/unpublish", key, nil)
	c.json(200, "POST", p1+"/publish", key, nil)

	// ---- questions
	fields := p1 + "/fields"
	friend := c.json(201, "POST", fields, key, obj{"question": "Which friend?",
		"conditionalLogic": obj{"showIf": obj{"questionId": qSelect, "operator": "equals", "value": "A friend"}}})
	qFriend := wireID(t, friend["id"])
	sameJSON(t, "showIf logic", friend["conditionalLogic"], obj{"showIf": obj{"questionId": qSelect, "operator": "equals", "value": "A friend"}})
	if friend["order"] != 18.0 || friend["type"] != "text" || friend["options"] != nil {
		t.Errorf("added question: %v", friend)
	}
	advanced := obj{"advanced": obj{
		"conditionGroups": []obj{{"id": "g1", "operator": "AND", "conditions": []obj{
			{"id": "c1", "questionId": qSlider, "operator": "less_than", "value": 5, "valueType": "static"},
			{"id": "c2", "operator": "greater_than", "value": 3, "valueType": "score"},
			{"id": "c3", "questionId": qText, "operator": "equals", "value": strconv.FormatInt(qEmail, 10), "valueType": "dynamic"},
			{"questionId": qMulti, "operator": "is_not_empty"},
		}}, {"operator": "OR", "conditions": []obj{{"questionId": qSelect, "operator": "contains", "value": "friend"}}}},
		"actions": []obj{{"type": "show_question", "targetId": qText}, {"type": "skip_to_question", "targetId": strconv.FormatInt(qEmail, 10)},
			{"type": "set_score", "value": 10}, {"type": "end_form"}},
		"scoreRules": []obj{{"id": "r1", "questionId": qSelect, "scoreMap": obj{"A friend": 2, "Search": 1.5}}},
	}}
	adv := c.json(201, "POST", fields, key, obj{"type": "textarea", "question": "What went wrong?", "required": true, "conditionalLogic": advanced})
	sameJSON(t, "advanced logic", adv["conditionalLogic"], advanced)
	scoreRules := obj{"advanced": obj{"scoreRules": []obj{{"questionId": qMulti, "scoreMap": obj{"A": 1, "B": 2}}}}}
	scoreOnly := c.json(201, "POST", fields, key, obj{"type": "yes_no", "question": "Subscribe?", "conditionalLogic": scoreRules})
	sameJSON(t, "score rules", scoreOnly["conditionalLogic"], scoreRules)
	qScoreOnly := wireID(t, scoreOnly["id"])
	c.json(201, "POST", fields, key, obj{"type": "slider", "question": "Percent", "sliderConfig": obj{"min": 1, "max": 100, "step": 0.5}})
	c.json(201, "POST", fields, key, obj{"type": "currency", "question": "Tip", "required": false, "currencyConfig": obj{"currency": "CHF", "max": 50}})
	for _, body := range []string{
		`{}`, `{"question": ""}`, `{"question": "` + strings.Repeat("q", 1001) + `"}`, `{"question": "x", "type": "bogus"}`,
		`{"question": "x", "conditionalLogic": {"showIf": {"questionId": 999999, "operator": "equals", "value": "a"}}}`,
		`{"question": "x", "conditionalLogic": {"showIf": {"questionId": ` + strconv.FormatInt(qSelect, 10) + `, "operator": "contains", "value": "a"}}}`,
		`{"question": "x", "conditionalLogic": {}}`, `{"question": "x", "conditionalLogic": {"advanced": {"conditionGroups": []}}}`,
		`{"type": "slider", "question": "x"}`, `{"type": "slider", "question": "x", "sliderConfig": {"min": 0, "max": 1, "step": 2}}`,
		`{"type": "select", "question": "x", "options": ["a", "a"]}`, `{"type": "select", "question": "x", "options": [""]}`,
		`{"type": "currency", "question": "x", "currencyConfig": {"currency": "EUR", "min": 10, "max": 1}}`,
		`{"question": 5}`, `{"question": "x", "colour": "red"}`, `{"question": "x", "conditionalLogic": {"showIf": {"questionId": 1, "operator": "equals", "extra": 1}}}`,
	} {
		c.send(400, "POST", fields, key, "application/json", []byte(body))
	}

	field := func(q int64) string { return fmt.Sprintf("%s/%d", fields, q) }
	if u := c.json(200, "PATCH", field(qSelect), key, obj{"question": "Where did you hear about us?"}); u["question"] != "Where did you hear about us?" {
		t.Errorf("update question: %v", u)
	}
	if u := c.json(200, "PATCH", field(qFriend), key, obj{"order": 1}); u["order"] != 1.0 {
		t.Errorf("move question: %v", u)
	}
	if u := c.json(200, "PATCH", field(qFriend), key, obj{"conditionalLogic": nil}); u["conditionalLogic"] != nil {
		t.Errorf("clear logic: %v", u)
	}
	if u := c.json(200, "PATCH", field(qText), key, obj{"type": "select", "options": []string{"x", "y"}, "required": true}); u["type"] != "select" {
		t.Errorf("retype question: %v", u)
	}
	c.json(200, "PATCH", field(qSlider), key, obj{"sliderConfig": obj{"min": -5, "max": 5, "step": 0.25}})
	c.json(200, "PATCH", field(qPrice), key, obj{"currencyConfig": nil})
	c.json(200, "PATCH", field(qScoreOnly), key, obj{"conditionalLogic": obj{"showIf": obj{"questionId": qEmail, "operator": "not_equals", "value": ""}}})
	own := obj{"advanced": obj{"conditionGroups": []obj{{"operator": "OR", "conditions": []obj{{"questionId": qEmail, "operator": "equals", "value": "a@example.org"}}}},
		"actions": []obj{{"type": "skip_to_question", "targetId": qMulti}}}}
	sameJSON(t, "logic on its own question", c.json(200, "PATCH", field(qEmail), key, obj{"conditionalLogic": own})["conditionalLogic"], own)
	for _, body := range []string{
		`{}`, `{"order": 0}`, `{"order": 9999}`, `{"question": ""}`, `{"question": null}`, `{"required": null}`,
		`{"type": "slider"}`, `{"options": ["a"]}`, `{"colour": "red"}`, `{"conditionalLogic": {"showIf": {"questionId": 999999, "operator": "equals"}}}`,
	} {
		c.send(400, "PATCH", field(qEmail), key, "application/json", []byte(body))
	}
	c.json(404, "PATCH", field(q2), key, obj{"required": true}) // a question of another form

	c.json(409, "DELETE", field(qSelect), key, nil) // used by the advanced logic
	c.json(204, "DELETE", field(qURL), key, nil)
	c.json(404, "DELETE", field(qURL), key, nil)
	final := c.json(200, "GET", p1, key, nil)
	for i, q := range questions(t, final) {
		checkQuestionShape(t, q)
		if wireID(t, q["order"]) != int64(i+1) {
			t.Errorf("after moves and deletes, question %d has order %v", i, q["order"])
		}
	}

	// ---- usage
	u := c.json(200, "GET", "/usage", key, nil)
	if u["tier"] != "free" || u["rateLimitDaily"] != 1000.0 || u["creditsRemaining"] != 100.0 {
		t.Errorf("usage: %v", u)
	}
	c.json(200, "GET", "/usage", scoped, nil)
	if h := c.json(200, "GET", "/usage/history", key, nil); h["limit"] != 20.0 || h["total"] != 0.0 {
		t.Errorf("history: %v", h)
	}
	c.json(200, "GET", "/usage/history?limit=100&offset=5", scoped, nil)
	for _, q := range []string{"limit=0", "limit=101", "offset=-1", "limit=x"} {
		c.json(400, "GET", "/usage/history?"+q, key, nil)
	}

	// ---- the error cases of every operation
	ops := []struct{ method, path string }{
		{"POST", "/forms"}, {"GET", "/forms"}, {"GET", "/forms/{id}"}, {"PATCH", "/forms/{id}"},
		{"DELETE", "/forms/{id}"}, {"POST", "/forms/{id}/publish"}, {"POST", "/forms/{id}/unpublish"},
		{"POST", "/forms/{id}/fields"}, {"PATCH", "/forms/{id}/fields/{fieldId}"},
		{"DELETE", "/forms/{id}/fields/{fieldId}"}, {"GET", "/usage"}, {"GET", "/usage/history"},
	}
	docOps := operations(doc)
	if len(ops) != len(docOps) {
		t.Fatalf("the test drives %d operations, the document has %d", len(ops), len(docOps))
	}
	validBody := map[string]string{
		"POST /forms": `{"title": "x"}`, "PATCH /forms/{id}": `{"title": "x"}`,
		"POST /forms/{id}/fields": `{"question": "x"}`, "PATCH /forms/{id}/fields/{fieldId}": `{"required": true}`,
	}
	bigBody := []byte(`{"title": "` + strings.Repeat("x", 1<<20) + `"}`)
	fill := func(p string, formID, fieldID any) string {
		return strings.NewReplacer("{id}", fmt.Sprint(formID), "{fieldId}", fmt.Sprint(fieldID)).Replace(p)
	}
	unknownKey, _, _, err := auth.NewKey()
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range ops {
		name := o.method + " " + o.path
		op := docOps[name]
		if op == nil {
			t.Fatalf("%s is not in the document", name)
		}
		has := func(status int) bool { return op.Responses.Status(status) != nil }
		body := []byte(nil)
		ct := ""
		if b, ok := validBody[name]; ok {
			body, ct = []byte(b), "application/json"
		}
		c.send(401, o.method, fill(o.path, form2, q2), "", ct, body)
		c.send(401, o.method, fill(o.path, form2, q2), unknownKey, ct, body)
		c.send(401, o.method, fill(o.path, form2, q2), "not-a-key", ct, body)
		if has(403) { // a form-scoped key on another form of its account
			c.send(403, o.method, fill(o.path, form2, q2), scoped, ct, body)
		}
		if has(404) {
			c.send(404, o.method, fill(o.path, 999999999, q2), key, ct, body)
			c.send(404, o.method, fill(o.path, formB, q2), scoped, ct, body)
			if strings.Contains(o.path, "{fieldId}") {
				c.send(404, o.method, fill(o.path, form2, 999999999), key, ct, body)
			}
		}
		if has(400) {
			switch {
			case strings.Contains(o.path, "{fieldId}"):
				c.send(400, o.method, fill(o.path, form2, 0), key, ct, body)
				c.send(400, o.method, fill(o.path, "x", q2), key, ct, body)
			case strings.Contains(o.path, "{id}"):
				c.send(400, o.method, fill(o.path, 0, 0), key, ct, body)
				c.send(400, o.method, fill(o.path, "1e3", 0), key, ct, body)
			}
			for _, p := range op.Parameters {
				if p.Value.Name != "limit" {
					continue
				}
				// The documented bounds and default are the server's.
				s := p.Value.Schema.Value
				maxLimit := int(*s.Max)
				c.send(400, o.method, fmt.Sprintf("%s?limit=%d", o.path, maxLimit+1), key, "", nil)
				page := c.json(200, o.method, fmt.Sprintf("%s?limit=%d", o.path, maxLimit), key, nil)
				if page["limit"] != float64(maxLimit) {
					t.Errorf("%s: limit %d answered as %v", name, maxLimit, page["limit"])
				}
				if page := c.json(200, o.method, o.path, key, nil); page["limit"] != s.Default {
					t.Errorf("%s: default limit %v, documented %v", name, page["limit"], s.Default)
				}
			}
		}
		if has(413) {
			c.send(413, o.method, fill(o.path, form2, q2), key, "application/json", bigBody)
		}
	}
	c.send(400, "POST", "/forms/"+strconv.FormatInt(form1, 10)+"/fields", key, "application/json", []byte(`{"question": "x"`))

	// ---- deletes
	c.json(404, "DELETE", fmt.Sprintf("/forms/%d", formB), key, nil)
	c.json(204, "DELETE", fmt.Sprintf("/forms/%d/fields/%d", form2, q2), key, nil)
	c.json(204, "DELETE", fmt.Sprintf("/forms/%d", form2), key, nil)
	c.json(404, "GET", fmt.Sprintf("/forms/%d", form2), key, nil)
	c.json(404, "DELETE", fmt.Sprintf("/forms/%d", form2), key, nil)

	// ---- the daily limit: a key limited to 100 requests
	limited := 100
	rateKey := env.Key(env.Account("scale"), &limited, nil)
	for i := range limited {
		r := c.send(200, "GET", "/usage", rateKey, "", nil)
		if got := r.Header.Get("X-RateLimit-Remaining"); got != strconv.Itoa(limited-i-1) {
			t.Fatalf("request %d: X-RateLimit-Remaining %s", i+1, got)
		}
	}
	for _, o := range ops {
		body := []byte(nil)
		ct := ""
		if b, ok := validBody[o.method+" "+o.path]; ok {
			body, ct = []byte(b), "application/json"
		}
		r := c.send(429, o.method, fill(o.path, form1, qEmail), rateKey, ct, body)
		if r.Header.Get("X-RateLimit-Remaining") != "0" {
			t.Errorf("429 with X-RateLimit-Remaining %s", r.Header.Get("X-RateLimit-Remaining"))
		}
		if b := r.JSON(t); b["tier"] != "scale" || b["upgradeUrl"] != "/settings/billing" {
			t.Errorf("429 body: %v", b)
		}
	}

	// Every documented status but 500 was observed, for every operation.
	for name, op := range docOps {
		for status := range op.Responses.Map() {
			code, _ := strconv.Atoi(status)
			if code != 500 && !c.seen[op.OperationID][code] {
				t.Errorf("%s: documented status %d was never produced", name, code)
			}
		}
	}

	c.checkDriftIsCaught(p1, key)
}

// checkDriftIsCaught proves that the validation fails when a response departs from
// the document: an extra field, a missing header, a wrong type, an undocumented
// status or error code.
func (c *conformance) checkDriftIsCaught(formPath, key string) {
	t := c.t
	req, _ := http.NewRequest("GET", c.env.URL+apiPrefix+formPath, nil)
	req.Header.Set("X-API-Key", key)
	res := c.env.Send(req)
	route, params, err := c.router.FindRoute(req)
	if err != nil {
		t.Fatal(err)
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route}
	if err := c.check(in, res.Status, res.Header, res.Body); err != nil {
		t.Fatalf("unchanged response rejected: %v", err)
	}
	mutate := func(change func(m obj)) []byte {
		var m obj
		if err := json.Unmarshal(res.Body, &m); err != nil {
			t.Fatal(err)
		}
		change(m)
		b, _ := json.Marshal(m)
		return b
	}
	noLimit := res.Header.Clone()
	noLimit.Del("X-RateLimit-Limit")
	badHeader := res.Header.Clone()
	badHeader.Set("X-Credits-Used", "many")
	drifts := []struct {
		name   string
		status int
		header http.Header
		body   []byte
	}{
		{"extra field", 200, res.Header, mutate(func(m obj) { m["extra"] = 1 })},
		{"missing field", 200, res.Header, mutate(func(m obj) { delete(m, "shareUrl") })},
		{"questions missing", 200, res.Header, mutate(func(m obj) { delete(m, "questions") })},
		{"wrong type", 200, res.Header, mutate(func(m obj) { m["isPublished"] = "yes" })},
		{"wrong enum", 200, res.Header, mutate(func(m obj) { m["displayMode"] = "wizard" })},
		{"options absent", 200, res.Header, mutate(func(m obj) { delete(m["questions"].([]any)[0].(obj), "options") })},
		{"null logic", 200, res.Header, mutate(func(m obj) { m["questions"].([]any)[0].(obj)["conditionalLogic"] = nil })},
		{"missing header", 200, noLimit, res.Body},
		{"bad header", 200, badHeader, res.Body},
		{"undocumented status", 418, res.Header, res.Body},
		{"wrong error code", 404, res.Header, []byte(`{"error": "missing", "message": "Form not found"}`)},
		{"error without message", 404, res.Header, []byte(`{"error": "not_found"}`)},
	}
	for _, d := range drifts {
		if c.check(in, d.status, d.header, d.body) == nil {
			t.Errorf("drift %q was not detected", d.name)
		}
	}
}

// TestOpenAPIUsageHistoryEntries checks history entries (which only AI operations
// create) against the document, with charges written straight into the database.
func TestOpenAPIUsageHistoryEntries(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(context.Background(), "", dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	env := servertest.Start(t, st)
	acct := env.Account("builder")
	key := env.Key(acct, nil, nil)

	res := env.Do("GET", apiPrefix+"/openapi.json", "", nil)
	doc := loadDoc(t, res.Body)
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	c := &conformance{t: t, env: env, doc: doc, router: router, seen: map[string]map[int]bool{}}
	f := c.json(201, "POST", "/forms", key, obj{"title": "Charged"})

	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "forma.db")+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	now := time.Now().UnixMilli()
	for i, e := range []struct {
		endpoint string
		credits  int
		formID   any
	}{{"forms.generate", 5, wireID(t, f["id"])}, {"analytics.generate", 10, nil}, {"chat.message", 2, wireID(t, f["id"])}} {
		if _, err := db.Exec(`INSERT INTO credit_ledger (account_id, endpoint, credits, form_id, form_name, created_at)
			VALUES (?, ?, ?, ?, ?, ?)`, acct.ID, e.endpoint, e.credits, e.formID, "Charged", now+int64(i)); err != nil {
			t.Fatal(err)
		}
	}
	h := c.json(200, "GET", "/usage/history?limit=2", key, nil)
	entries := h["history"].([]any)
	if h["total"] != 3.0 || h["hasMore"] != true || len(entries) != 2 || entries[0].(obj)["endpoint"] != "chat.message" || entries[1].(obj)["formId"] != nil {
		t.Errorf("history: %v", h)
	}
	c.json(200, "GET", "/usage/history?offset=2", key, nil)
	if u := c.json(200, "GET", "/usage", key, nil); u["creditsRemaining"] != 983.0 {
		t.Errorf("usage: %v", u)
	}
}
