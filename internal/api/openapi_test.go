package api_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"forma/internal/auth"
	"forma/internal/config"
	"forma/internal/form"
	"forma/internal/server/servertest"
	"forma/internal/store"
	"forma/internal/webhook"
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

	// ---- responses; webhooks (the deliveries themselves on a second server, which
	// allows the private addresses of local receivers)
	survey := c.responsesScenario(key)
	c.webhookRefusals(key, survey)
	webhookScenario(t, c.seen)

	// ---- AI: generation, analytics and chat on a server with a small free allowance,
	// and a failing external provider on another; here, the conversations the error
	// cases below use (creating one is free)
	aiScenario(t, c.seen)
	aiProviderFailure(t, c.seen)
	conv1 := wireID(t, c.json(201, "POST", p1+"/chat", scoped, nil)["id"])
	conv2 := wireID(t, c.json(201, "POST", fmt.Sprintf("/forms/%d/chat", form2), key, nil)["id"])

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
		{"DELETE", "/forms/{id}/fields/{fieldId}"}, {"GET", "/forms/{id}/responses"},
		{"GET", "/forms/{id}/responses/export"}, {"GET", "/forms/{id}/responses/{submissionId}"},
		{"DELETE", "/forms/{id}/responses/{submissionId}"}, {"POST", "/forms/{id}/webhook/test"},
		{"GET", "/forms/{id}/webhook/logs"}, {"GET", "/forms/{id}/webhook/status"},
		{"POST", "/forms/{id}/webhook/secret"}, {"GET", "/usage"}, {"GET", "/usage/history"},
		{"POST", "/forms/generate"}, {"POST", "/forms/{id}/analytics/generate"}, {"GET", "/forms/{id}/analytics"},
		{"POST", "/forms/{id}/chat"}, {"GET", "/forms/{id}/chat"}, {"DELETE", "/forms/{id}/chat/{conversationId}"},
		{"POST", "/forms/{id}/chat/{conversationId}/messages"}, {"GET", "/forms/{id}/chat/{conversationId}/messages"},
	}
	docOps := operations(doc)
	if len(ops) != len(docOps) {
		t.Fatalf("the test drives %d operations, the document has %d", len(ops), len(docOps))
	}
	validBody := map[string]string{
		"POST /forms": `{"title": "x"}`, "PATCH /forms/{id}": `{"title": "x"}`,
		"POST /forms/{id}/fields": `{"question": "x"}`, "PATCH /forms/{id}/fields/{fieldId}": `{"required": true}`,
		"POST /forms/{id}/webhook/test":                   `{"url": "https://hooks.example.org/forma"}`,
		"POST /forms/generate":                            `{"prompt": "a contact form with name, email and message"}`,
		"POST /forms/{id}/chat/{conversationId}/messages": `{"message": "How many responses are there?"}`,
	}
	bigBody := []byte(`{"title": "` + strings.Repeat("x", 1<<20) + `"}`)
	fill := func(p string, formID, fieldID, conversationID any) string {
		return strings.NewReplacer("{id}", fmt.Sprint(formID), "{fieldId}", fmt.Sprint(fieldID),
			"{conversationId}", fmt.Sprint(conversationID), "{submissionId}", "no-such-submission").Replace(p)
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
		c.send(401, o.method, fill(o.path, form2, q2, conv2), "", ct, body)
		c.send(401, o.method, fill(o.path, form2, q2, conv2), unknownKey, ct, body)
		c.send(401, o.method, fill(o.path, form2, q2, conv2), "not-a-key", ct, body)
		if has(403) { // a form-scoped key on another form of its account (or creating one)
			c.send(403, o.method, fill(o.path, form2, q2, conv2), scoped, ct, body)
		}
		if has(404) {
			c.send(404, o.method, fill(o.path, 999999999, q2, conv2), key, ct, body)
			c.send(404, o.method, fill(o.path, formB, q2, conv2), scoped, ct, body)
			if strings.Contains(o.path, "{fieldId}") {
				c.send(404, o.method, fill(o.path, form2, 999999999, conv2), key, ct, body)
			}
			if strings.Contains(o.path, "{conversationId}") {
				c.send(404, o.method, fill(o.path, form2, q2, 999999999), key, ct, body)
				c.send(404, o.method, fill(o.path, form2, q2, conv1), key, ct, body) // another form's
			}
			if strings.Contains(o.path, "{submissionId}") {
				c.send(404, o.method, fill(o.path, form2, q2, conv2), key, ct, body)
			}
		}
		if has(400) {
			switch {
			case strings.Contains(o.path, "{fieldId}"):
				c.send(400, o.method, fill(o.path, form2, 0, conv2), key, ct, body)
				c.send(400, o.method, fill(o.path, "x", q2, conv2), key, ct, body)
			case strings.Contains(o.path, "{conversationId}"):
				c.send(400, o.method, fill(o.path, form2, q2, 0), key, ct, body)
				c.send(400, o.method, fill(o.path, form2, q2, "abc"), key, ct, body)
				c.send(400, o.method, fill(o.path, "x", q2, conv2), key, ct, body)
			case strings.Contains(o.path, "{id}"):
				c.send(400, o.method, fill(o.path, 0, 0, 0), key, ct, body)
				c.send(400, o.method, fill(o.path, "1e3", 0, 0), key, ct, body)
			}
			for _, p := range op.Parameters {
				if p.Value.Name != "limit" {
					continue
				}
				// The documented bounds and default are the server's.
				s := p.Value.Schema.Value
				maxLimit := int(*s.Max)
				listPath := fill(o.path, form1, qEmail, conv1)
				c.send(400, o.method, fmt.Sprintf("%s?limit=%d", listPath, maxLimit+1), key, "", nil)
				page := c.json(200, o.method, fmt.Sprintf("%s?limit=%d", listPath, maxLimit), key, nil)
				if page["limit"] != float64(maxLimit) {
					t.Errorf("%s: limit %d answered as %v", name, maxLimit, page["limit"])
				}
				if page := c.json(200, o.method, listPath, key, nil); page["limit"] != s.Default {
					t.Errorf("%s: default limit %v, documented %v", name, page["limit"], s.Default)
				}
			}
		}
		if has(413) {
			c.send(413, o.method, fill(o.path, form2, q2, conv2), key, "application/json", bigBody)
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
		r := c.send(429, o.method, fill(o.path, form1, qEmail, conv1), rateKey, ct, body)
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

// ---- responses and webhooks

// pngImage is a 1×1 PNG image.
func pngImage(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 1, 1))); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// uploadFile uploads a file through the public operation (multipart field "file") and
// returns the id a file_upload answer carries.
func uploadFile(t *testing.T, env *servertest.Env, share, name string, content []byte) string {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("file", name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fw.Write(content); err != nil {
		t.Fatal(err)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, env.URL+"/f/"+share+"/uploads", &body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	res := env.Send(req)
	if res.Status != http.StatusCreated {
		t.Fatalf("upload %s: status %d\n%s", name, res.Status, res.Body)
	}
	return res.JSON(t)["id"].(string)
}

// submitAnswers completes a submission through the public JSON operation and returns
// its id.
func submitAnswers(t *testing.T, env *servertest.Env, share string, answers obj) string {
	t.Helper()
	res := env.Do(http.MethodPost, "/f/"+share+"/submissions", "", obj{"answers": answers})
	if res.Status != http.StatusCreated {
		t.Fatalf("submit to %s: status %d\n%s", share, res.Status, res.Body)
	}
	return res.JSON(t)["id"].(string)
}

// listItems returns the array under key of a decoded list response.
func listItems(t *testing.T, list obj, key string) []obj {
	t.Helper()
	raw, ok := list[key].([]any)
	if !ok {
		t.Fatalf("no %s array in %v", key, list)
	}
	out := make([]obj, len(raw))
	for i, v := range raw {
		out[i] = v.(obj)
	}
	return out
}

// driftCaught checks that each change to the JSON body of the real response to GET
// path is detected by the validation.
func (c *conformance) driftCaught(path, key string, changes map[string]func(m obj)) {
	t := c.t
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, c.env.URL+apiPrefix+path, nil)
	req.Header.Set("X-API-Key", key)
	res := c.env.Send(req)
	route, params, err := c.router.FindRoute(req)
	if err != nil {
		t.Fatal(err)
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route}
	if err := c.check(in, res.Status, res.Header, res.Body); err != nil {
		t.Fatalf("GET %s: unchanged response rejected: %v", path, err)
	}
	for name, change := range changes {
		var m obj
		if err := json.Unmarshal(res.Body, &m); err != nil {
			t.Fatal(err)
		}
		change(m)
		b, _ := json.Marshal(m)
		if c.check(in, res.Status, res.Header, b) == nil {
			t.Errorf("GET %s: drift %q was not detected", path, name)
		}
	}
}

// responsesScenario lists, reads, exports and deletes the submissions of a new form
// with scoring and a file question; it returns the form's path.
func (c *conformance) responsesScenario(key string) string {
	t := c.t
	f := c.json(201, "POST", "/forms", key, obj{"title": "Order survey", "questions": []obj{
		{"type": "select", "question": "Plan", "required": true, "options": []string{"Basic", "Pro"}},
		{"question": "Name", "required": true},
		{"type": "number", "question": "Seats"},
		{"type": "multi_select", "question": "Features", "options": []string{"API", "Exports", "SSO"}},
		{"type": "rating", "question": "Rating"},
		{"type": "file_upload", "question": "Screenshot"},
		{"type": "date", "question": "Start"},
	}})
	formID := wireID(t, f["id"])
	fp := fmt.Sprintf("/forms/%d", formID)
	qs := questions(t, f)
	qid := func(i int) string { return strconv.FormatInt(wireID(t, qs[i]["id"]), 10) }
	renew := c.json(201, "POST", fp+"/fields", key, obj{"type": "yes_no", "question": "Renew?",
		"conditionalLogic": obj{"advanced": obj{"scoreRules": []obj{{"questionId": qs[0]["id"], "scoreMap": obj{"Basic": 1, "Pro": 2.5}}}}}})
	qRenew := strconv.FormatInt(wireID(t, renew["id"]), 10)
	c.json(200, "POST", fp+"/publish", key, nil)
	share := f["shareUrl"].(string)

	if l := c.json(200, "GET", fp+"/responses", key, nil); l["total"] != 0.0 || l["limit"] != 50.0 || l["hasMore"] != false || len(listItems(t, l, "responses")) != 0 {
		t.Errorf("responses before any submission: %v", l)
	}
	img := pngImage(t)
	fileID := uploadFile(t, c.env, share, "screen.png", img)
	ids := []string{submitAnswers(t, c.env, share, obj{qid(0): "Pro", qid(1): "Ada", qid(2): 12, qid(3): []string{"SSO", "API"},
		qid(4): 5, qid(5): fileID, qid(6): "2026-12-01", qRenew: true})}
	time.Sleep(5 * time.Millisecond)
	ids = append(ids, submitAnswers(t, c.env, share, obj{qid(0): "Basic", qid(1): "Bo"}))
	time.Sleep(5 * time.Millisecond)
	ids = append(ids, submitAnswers(t, c.env, share, obj{qid(0): "Pro", qid(1): "=1+2", qid(4): 3, qRenew: false}))
	// Neither a refused submission nor a started one is a response.
	if r := c.env.Do("POST", "/f/"+share+"/submissions", "", obj{"answers": obj{qid(1): "No plan"}}); r.Status != 400 {
		t.Errorf("incomplete submission: %d %s", r.Status, r.Body)
	}
	started := c.env.Do("POST", "/f/"+share+"/sessions", "", nil)
	if started.Status != 201 {
		t.Fatalf("start a session: %d %s", started.Status, started.Body)
	}

	// ---- list
	list := c.json(200, "GET", fp+"/responses", key, nil)
	subs := listItems(t, list, "responses")
	if list["total"] != 3.0 || list["hasMore"] != false || list["offset"] != 0.0 || len(subs) != 3 ||
		subs[0]["id"] != ids[2] || subs[2]["id"] != ids[0] {
		t.Fatalf("responses, newest first: %v", list)
	}
	first := subs[2]
	data := first["data"].(obj)
	file, _ := data["Screenshot"].(obj)
	if first["score"] != 2.5 || subs[1]["score"] != 1.0 || data["Seats"] != 12.0 || data["Rating"] != 5.0 ||
		data["Renew?"] != true || data["Start"] != "2026-12-01" || !reflect.DeepEqual(data["Features"], []any{"API", "SSO"}) ||
		file["name"] != "screen.png" || file["contentType"] != "image/png" || file["size"] != float64(len(img)) {
		t.Errorf("first submission: %v", first)
	}
	if _, ok := subs[1]["data"].(obj)["Seats"]; ok {
		t.Errorf("an unanswered optional question is in data: %v", subs[1])
	}
	if u, _ := file["url"].(string); u != "" {
		req, _ := http.NewRequest(http.MethodGet, u, nil)
		if dl := c.env.Send(req); dl.Status != 200 || !bytes.Equal(dl.Body, img) {
			t.Errorf("file link %s: %d, %d bytes", u, dl.Status, len(dl.Body))
		}
	}
	page := c.json(200, "GET", fp+"/responses?limit=1&offset=1&order=asc", key, nil)
	if p := listItems(t, page, "responses"); len(p) != 1 || p[0]["id"] != ids[1] || page["hasMore"] != true || page["limit"] != 1.0 {
		t.Errorf("second page, oldest first: %v", page)
	}
	second := url.QueryEscape(subs[1]["submittedAt"].(string))
	if l := c.json(200, "GET", fp+"/responses?order=desc&since="+second, key, nil); l["total"] != 2.0 {
		t.Errorf("since is inclusive: %v", l)
	}
	if l := c.json(200, "GET", fp+"/responses?until="+second, key, nil); l["total"] != 1.0 || listItems(t, l, "responses")[0]["id"] != ids[0] {
		t.Errorf("until is exclusive: %v", l)
	}
	c.json(200, "GET", fp+"/responses?since=2026-01-01T00:00:00%2B02:00&until=2999-01-01T00:00:00.5Z&limit=500&offset=0", key, nil)
	for _, q := range []string{"limit=0", "limit=501", "limit=ten", "offset=-1", "offset=1.5", "order=newest", "since=yesterday", "until=2026-13-01T00:00:00Z"} {
		if e := c.json(400, "GET", fp+"/responses?"+q, key, nil); !strings.Contains(e["message"].(string), strings.Split(q, "=")[0]) {
			t.Errorf("?%s: %v", q, e)
		}
	}

	// ---- one
	one := c.json(200, "GET", fp+"/responses/"+ids[0], key, nil)
	delete(one["data"].(obj)["Screenshot"].(obj), "url") // signed anew on every read
	delete(file, "url")
	sameJSON(t, "one response", one, first)
	c.json(200, "GET", fp+"/responses/"+ids[2], key, nil)
	if e := c.json(404, "GET", fp+"/responses/"+started.JSON(t)["id"].(string), key, nil); e["message"] != "Submission not found" {
		t.Errorf("an uncompleted session: %v", e)
	}
	c.json(404, "GET", fp+"/responses/no-such-submission", key, nil)

	// ---- export
	csvRes := c.send(200, "GET", fp+"/responses/export?format=csv&order=asc", key, "", nil)
	if ct := csvRes.Header.Get("Content-Type"); ct != "text/csv; charset=utf-8" {
		t.Errorf("CSV export Content-Type %q", ct)
	}
	if cd := csvRes.Header.Get("Content-Disposition"); cd != fmt.Sprintf(`attachment; filename="form-%d-responses.csv"`, formID) {
		t.Errorf("CSV export Content-Disposition %q", cd)
	}
	rows, err := csv.NewReader(bytes.NewReader(csvRes.Body)).ReadAll()
	if err != nil {
		t.Fatalf("CSV export: %v\n%s", err, csvRes.Body)
	}
	header := []string{"id", "submittedAt", "score", "Plan", "Name", "Seats", "Features", "Rating", "Screenshot", "Start", "Renew?"}
	if len(rows) != 4 || !slices.Equal(rows[0], header) || rows[1][0] != ids[0] || rows[1][1] != subs[2]["submittedAt"] ||
		rows[1][2] != "2.5" || rows[1][6] != "API, SSO" || !strings.Contains(rows[1][8], "/files/") || rows[1][10] != "Yes" ||
		rows[3][4] != "'=1+2" || rows[3][10] != "No" || rows[2][5] != "" {
		t.Errorf("CSV export:\n%s", csvRes.Body)
	}
	if r := c.send(200, "GET", fp+"/responses/export", key, "", nil); !strings.HasPrefix(r.Header.Get("Content-Type"), "text/csv") {
		t.Errorf("default export format: %s", r.Header.Get("Content-Type"))
	}
	c.send(200, "GET", fp+"/responses/export?format=csv&since=2999-01-01T00:00:00Z", key, "", nil)
	jsonRes := c.send(200, "GET", fp+"/responses/export?format=json&since="+second, key, "", nil)
	var exported []obj
	if err := json.Unmarshal(jsonRes.Body, &exported); err != nil {
		t.Fatalf("JSON export: %v\n%s", err, jsonRes.Body)
	}
	if len(exported) != 2 || exported[0]["id"] != ids[2] || exported[1]["score"] != 1.0 ||
		jsonRes.Header.Get("Content-Disposition") != fmt.Sprintf(`attachment; filename="form-%d-responses.json"`, formID) {
		t.Errorf("JSON export: %s %s", jsonRes.Header.Get("Content-Disposition"), jsonRes.Body)
	}
	if r := c.send(200, "GET", fp+"/responses/export?format=json&order=asc&until=2000-01-01T00:00:00Z", key, "", nil); strings.TrimSpace(string(r.Body)) != "[]" {
		t.Errorf("empty JSON export: %q", r.Body)
	}
	for _, q := range []string{"format=xml", "format=CSV", "order=up", "since=x", "until=2026-01-01"} {
		c.json(400, "GET", fp+"/responses/export?"+q, key, nil)
	}

	c.driftCaught(fp+"/responses", key, map[string]func(m obj){
		"extra item field":      func(m obj) { m["responses"].([]any)[0].(obj)["extra"] = 1 },
		"missing submittedAt":   func(m obj) { delete(m["responses"].([]any)[0].(obj), "submittedAt") },
		"score as text":         func(m obj) { m["responses"].([]any)[0].(obj)["score"] = "high" },
		"id as number":          func(m obj) { m["responses"].([]any)[0].(obj)["id"] = 5 },
		"file without url":      func(m obj) { delete(m["responses"].([]any)[2].(obj)["data"].(obj)["Screenshot"].(obj), "url") },
		"object answer":         func(m obj) { m["responses"].([]any)[0].(obj)["data"].(obj)["Name"] = obj{"x": 1} },
		"mixed array answer":    func(m obj) { m["responses"].([]any)[2].(obj)["data"].(obj)["Features"] = []any{"API", 2} },
		"hasMore missing":       func(m obj) { delete(m, "hasMore") },
		"negative total":        func(m obj) { m["total"] = -1 },
		"data not an object":    func(m obj) { m["responses"].([]any)[0].(obj)["data"] = []any{} },
		"submittedAt not dated": func(m obj) { m["responses"].([]any)[0].(obj)["submittedAt"] = 5 },
	})

	// ---- delete
	c.json(204, "DELETE", fp+"/responses/"+ids[1], key, nil)
	if e := c.json(404, "GET", fp+"/responses/"+ids[1], key, nil); e["message"] != "Submission not found" {
		t.Errorf("deleted submission: %v", e)
	}
	c.json(404, "DELETE", fp+"/responses/"+ids[1], key, nil)
	if l := c.json(200, "GET", fp+"/responses", key, nil); l["total"] != 2.0 {
		t.Errorf("after a delete: %v", l)
	}
	return fp
}

// webhookRefusals drives the webhook operations on a server that refuses private
// addresses, on a form with no webhook configured.
func (c *conformance) webhookRefusals(key, fp string) {
	t := c.t
	hook := fp + "/webhook"
	if s := c.json(200, "GET", hook+"/status", key, nil); s["enabled"] != false || s["url"] != nil || s["lastDelivery"] != nil {
		t.Errorf("status without a webhook: %v", s)
	}
	if l := c.json(200, "GET", hook+"/logs", key, nil); l["total"] != 0.0 || l["limit"] != 20.0 || len(listItems(t, l, "logs")) != 0 {
		t.Errorf("logs without deliveries: %v", l)
	}
	c.json(200, "GET", hook+"/logs?limit=100&offset=3", key, nil)
	for _, q := range []string{"limit=0", "limit=101", "limit=x", "offset=-1"} {
		c.json(400, "GET", hook+"/logs?"+q, key, nil)
	}
	// No URL given and none configured; refused URLs; bodies that are not valid.
	c.send(400, "POST", hook+"/test", key, "", nil)
	for _, body := range []string{`{}`, `{"url": ""}`, `{"url": null}`, `{"url": "http://127.0.0.1:9/hook"}`,
		`{"url": "http://localhost/hook"}`, `{"url": "http://[::1]/hook"}`, `{"url": "ftp://hooks.example.org/x"}`,
		`{"url": "https://hooks.example.org/` + strings.Repeat("a", 2000) + `"}`, `{"url": 5}`,
		`{"url": "https://hooks.example.org/x", "extra": 1}`, `{"url": "https://hooks.example.org/x"`, ` `} {
		c.send(400, "POST", hook+"/test", key, "application/json", []byte(body))
	}
	c.send(400, "POST", hook+"/test", key, "text/plain", []byte(`{"url": "https://hooks.example.org/x"}`))
	s1 := c.json(200, "POST", hook+"/secret", key, nil)
	s2 := c.json(200, "POST", hook+"/secret", key, nil)
	if s1["secret"] == s2["secret"] || !strings.HasPrefix(s1["secret"].(string), "whsec_") {
		t.Errorf("secrets %v then %v", s1, s2)
	}
}

// delivery is one request a receiver got.
type delivery struct {
	header http.Header
	body   []byte
}

// receiver is a webhook endpoint that records what it gets and answers status.
type receiver struct {
	*httptest.Server
	status atomic.Int32
	got    chan delivery
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{got: make(chan delivery, 32)}
	r.status.Store(http.StatusOK)
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		select {
		case r.got <- delivery{header: req.Header.Clone(), body: b}:
		default:
		}
		w.WriteHeader(int(r.status.Load()))
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) next(t *testing.T) delivery {
	t.Helper()
	select {
	case d := <-r.got:
		return d
	case <-time.After(15 * time.Second):
		t.Fatal("the receiver got no delivery")
		return delivery{}
	}
}

// checkDelivery validates a request a receiver got against the submissionCompleted
// webhook of the document, and its signature against secrets (newest first).
func (c *conformance) checkDelivery(d delivery, secrets ...string) obj {
	t := c.t
	t.Helper()
	item := c.doc.Webhooks["submissionCompleted"]
	if item == nil || item.Post == nil {
		t.Fatal("the document has no submissionCompleted webhook")
	}
	op := item.Post
	opts := []openapi3.SchemaValidationOption{openapi3.MultiErrors(), openapi3.EnableJSONSchema2020()}
	if ct := d.header.Get("Content-Type"); op.RequestBody.Value.Content.Get(ct) == nil {
		t.Errorf("delivery Content-Type %q is not documented", ct)
	}
	var payload any
	if err := json.Unmarshal(d.body, &payload); err != nil {
		t.Fatalf("delivery body: %v\n%s", err, d.body)
	}
	if err := op.RequestBody.Value.Content.Get("application/json").Schema.Value.VisitJSON(payload, opts...); err != nil {
		t.Errorf("delivery body does not match the document: %v\n%s", err, d.body)
	}
	for _, p := range op.Parameters {
		v := d.header.Get(p.Value.Name)
		if v == "" {
			if p.Value.Required {
				t.Errorf("delivery header %s missing", p.Value.Name)
			}
			continue
		}
		var value any = v
		if p.Value.Schema.Value.Type.Is("integer") {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Errorf("delivery header %s = %q is not an integer", p.Value.Name, v)
				continue
			}
			value = float64(n)
		}
		if err := p.Value.Schema.Value.VisitJSON(value, opts...); err != nil {
			t.Errorf("delivery header %s = %q does not match the document: %v", p.Value.Name, v, err)
		}
	}
	m, _ := payload.(obj)
	if d.header.Get("webhook-id") != m["submission_id"] {
		t.Errorf("webhook-id %q for submission %v", d.header.Get("webhook-id"), m["submission_id"])
	}
	if len(secrets) > 0 {
		ts, _ := strconv.ParseInt(d.header.Get("webhook-timestamp"), 10, 64)
		var want []string
		for _, s := range secrets {
			sig, err := webhook.Sign(s, d.header.Get("webhook-id"), time.Unix(ts, 0), d.body)
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, sig)
		}
		if got := d.header.Get("webhook-signature"); got != strings.Join(want, " ") {
			t.Errorf("webhook-signature %q, want the signatures of secrets %v", got, secrets)
		}
	}
	return m
}

// webhookScenario delivers real submissions to local receivers, on a server that
// allows private webhook addresses, and drives logs, status, test and secret.
func webhookScenario(t *testing.T, seen map[string]map[int]bool) {
	env := servertest.New(t, store.SQLite, func(cfg *config.Config) { cfg.AllowPrivateWebhooks = true })
	doc := loadDoc(t, env.Do(http.MethodGet, apiPrefix+"/openapi.json", "", nil).Body)
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	c := &conformance{t: t, env: env, doc: doc, router: router, seen: seen}
	key := env.NewKey()
	recv := newReceiver(t)
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "broken", http.StatusInternalServerError)
	}))
	t.Cleanup(failing.Close)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String() + "/hook"
	l.Close()

	f := c.json(201, "POST", "/forms", key, obj{"title": "Hooked", "questions": []obj{
		{"question": "Name", "required": true}, {"type": "file_upload", "question": "Attachment"}, {"type": "yes_no", "question": "Agree?"}}})
	fp := fmt.Sprintf("/forms/%d", wireID(t, f["id"]))
	hook := fp + "/webhook"
	qs := questions(t, f)
	qid := func(i int) string { return strconv.FormatInt(wireID(t, qs[i]["id"]), 10) }
	share := f["shareUrl"].(string)
	c.json(200, "POST", fp+"/publish", key, nil)
	secret1 := c.json(200, "POST", hook+"/secret", key, nil)["secret"].(string)
	c.json(200, "PATCH", fp, key, obj{"webhookUrl": recv.URL + "/hook", "webhookEnabled": true})
	if s := c.json(200, "GET", hook+"/status", key, nil); s["enabled"] != true || s["url"] != recv.URL+"/hook" || s["lastDelivery"] != nil {
		t.Errorf("status before the first delivery: %v", s)
	}

	// waitLogs waits until the log has n entries and returns its first page.
	waitLogs := func(n int) []obj {
		t.Helper()
		for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if r := env.Do(http.MethodGet, apiPrefix+hook+"/logs", key, nil); r.Status == 200 && r.JSON(t)["total"] == float64(n) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the delivery log never reached %d entries", n)
			}
		}
		l := c.json(200, "GET", hook+"/logs", key, nil)
		return listItems(t, l, "logs")
	}

	// A delivery the receiver accepts.
	fileID := uploadFile(t, env, share, "proof.png", pngImage(t))
	sid1 := submitAnswers(t, env, share, obj{qid(0): "Ada", qid(1): fileID, qid(2): true})
	p := c.checkDelivery(recv.next(t), secret1)
	data, _ := p["data"].(obj)
	file, _ := data["Attachment"].(obj)
	if p["submission_id"] != sid1 || p["form_name"] != "Hooked" || p["form_id"] != f["id"] || data["Name"] != "Ada" ||
		data["Agree?"] != true || file["name"] != "proof.png" {
		t.Errorf("payload: %v", p)
	}
	logs := waitLogs(1)
	if e := logs[0]; e["status"] != "success" || e["responseCode"] != 200.0 || e["errorMessage"] != nil ||
		e["sessionId"] != sid1 || e["webhookUrl"] != recv.URL+"/hook" {
		t.Errorf("log entry of a success: %v", e)
	}
	if s := c.json(200, "GET", hook+"/status", key, nil); s["lastDelivery"] == nil || s["lastDelivery"].(obj)["status"] != "success" ||
		s["lastDelivery"].(obj)["responseCode"] != 200.0 || s["lastDelivery"].(obj)["error"] != nil {
		t.Errorf("status after a success: %v", s)
	}
	if r := c.json(200, "GET", fp+"/responses", key, nil); len(listItems(t, r, "responses")) != 1 {
		t.Errorf("responses: %v", r)
	} else if _, ok := listItems(t, r, "responses")[0]["score"]; ok {
		t.Errorf("score on a form without scoring: %v", r)
	}

	// A receiver that answers 500: failed.
	recv.status.Store(http.StatusInternalServerError)
	sid2 := submitAnswers(t, env, share, obj{qid(0): "Bo"})
	c.checkDelivery(recv.next(t), secret1)
	if e := waitLogs(2)[0]; e["status"] != "failed" || e["responseCode"] != 500.0 || e["errorMessage"] == nil || e["sessionId"] != sid2 {
		t.Errorf("log entry of a failure: %v", e)
	}
	recv.status.Store(http.StatusOK)

	// No HTTP answer: error, without a response code.
	c.json(200, "PATCH", fp, key, obj{"webhookUrl": closed})
	submitAnswers(t, env, share, obj{qid(0): "Cy"})
	if e := waitLogs(3)[0]; e["status"] != "error" || e["responseCode"] != 0.0 || e["errorMessage"] == nil || e["webhookUrl"] != closed {
		t.Errorf("log entry of an error: %v", e)
	}
	s := c.json(200, "GET", hook+"/status", key, nil)
	if last, _ := s["lastDelivery"].(obj); last["status"] != "error" || last["responseCode"] != 0.0 || last["error"] == nil || s["url"] != closed {
		t.Errorf("status after an error: %v", s)
	}
	if l := c.json(200, "GET", hook+"/logs?limit=1&offset=1", key, nil); l["hasMore"] != true || l["total"] != 3.0 ||
		listItems(t, l, "logs")[0]["sessionId"] != sid2 {
		t.Errorf("second page of the log: %v", l)
	}
	c.driftCaught(hook+"/logs", key, map[string]func(m obj){
		"unknown status":        func(m obj) { m["logs"].([]any)[0].(obj)["status"] = "pending" },
		"response code as text": func(m obj) { m["logs"].([]any)[1].(obj)["responseCode"] = "500" },
		"errorMessage missing":  func(m obj) { delete(m["logs"].([]any)[2].(obj), "errorMessage") },
		"extra field":           func(m obj) { m["logs"].([]any)[0].(obj)["duration"] = 3 },
	})
	c.driftCaught(hook+"/status", key, map[string]func(m obj){
		"lastDelivery as text": func(m obj) { m["lastDelivery"] = "never" },
		"attemptedAt missing":  func(m obj) { delete(m["lastDelivery"].(obj), "attemptedAt") },
		"enabled missing":      func(m obj) { delete(m, "enabled") },
	})

	// Test deliveries: success, a receiver's failure, no answer; none is logged.
	res := c.json(200, "POST", hook+"/test", key, obj{"url": recv.URL + "/test"})
	if res["success"] != true || res["statusCode"] != 200.0 || res["error"] != nil {
		t.Errorf("test delivery to a working receiver: %v", res)
	}
	if tp := c.checkDelivery(recv.next(t), secret1); !strings.HasPrefix(fmt.Sprint(tp["submission_id"]), "test_") || tp["form_id"] != f["id"] {
		t.Errorf("test payload: %v", tp)
	}
	if res := c.json(200, "POST", hook+"/test", key, obj{"url": failing.URL}); res["success"] != false || res["statusCode"] != 500.0 || res["error"] == nil {
		t.Errorf("test delivery to a failing receiver: %v", res)
	}
	if res := c.json(200, "POST", hook+"/test", key, nil); res["success"] != false || res["statusCode"] != 0.0 || res["error"] == nil {
		t.Errorf("test delivery to the configured, closed port: %v", res)
	}
	c.json(200, "POST", hook+"/test", key, obj{})
	c.send(200, "POST", hook+"/test", key, "application/json; charset=utf-8", []byte(`{"url": null}`))
	c.json(400, "POST", hook+"/test", key, obj{"url": "gopher://127.0.0.1/x"})
	if l := c.json(200, "GET", hook+"/logs", key, nil); l["total"] != 3.0 {
		t.Errorf("test deliveries were logged: %v", l)
	}
	if s := c.json(200, "GET", hook+"/status", key, nil); s["lastDelivery"].(obj)["status"] != "error" {
		t.Errorf("a test delivery changed lastDelivery: %v", s)
	}

	// After a rotation the previous secret signs too.
	secret2 := c.json(200, "POST", hook+"/secret", key, nil)["secret"].(string)
	c.json(200, "POST", hook+"/test", key, obj{"url": recv.URL + "/rotated"})
	c.checkDelivery(recv.next(t), secret2, secret1)
}

// ---- AI

// connect returns a conformance checker for env, with the document env serves,
// recording the statuses it sees in seen.
func connect(t *testing.T, env *servertest.Env, seen map[string]map[int]bool) *conformance {
	t.Helper()
	doc := loadDoc(t, env.Do(http.MethodGet, apiPrefix+"/openapi.json", "", nil).Body)
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	return &conformance{t: t, env: env, doc: doc, router: router, seen: seen}
}

// call sends body (nil for none) as JSON and returns the validated response.
func (c *conformance) call(want int, method, path, key string, body any) *servertest.Response {
	c.t.Helper()
	if body == nil {
		return c.send(want, method, path, key, "", nil)
	}
	raw, err := json.Marshal(body)
	if err != nil {
		c.t.Fatal(err)
	}
	return c.send(want, method, path, key, "application/json", raw)
}

// charged checks the credit headers of a response: the charge and what remains.
func charged(t *testing.T, r *servertest.Response, used, remaining int) {
	t.Helper()
	if r.Header.Get("X-Credits-Used") != strconv.Itoa(used) || r.Header.Get("X-Credits-Remaining") != strconv.Itoa(remaining) {
		t.Errorf("X-Credits-Used %q and X-Credits-Remaining %q, want %d and %d\n%s",
			r.Header.Get("X-Credits-Used"), r.Header.Get("X-Credits-Remaining"), used, remaining, r.Body)
	}
}

// aiScenario drives generation, analytics and chat with the built-in provider on a
// server whose free plan has 21 credits: one generation (5), one analysis (10) and
// three chat messages (2 each) use them up, after which every AI operation is
// refused with 402 and nothing is charged, created or stored.
func aiScenario(t *testing.T, seen map[string]map[int]bool) {
	env := servertest.New(t, store.SQLite, func(cfg *config.Config) { cfg.Allowances = "free=21"; cfg.SubmitLimit = 0 })
	c := connect(t, env, seen)
	acct := env.Account("free")
	key := env.Key(acct, nil, nil)

	// ---- generate
	prompt := obj{"prompt": "a job application form asking for name, email, phone, years of experience, a resume upload and how they heard about us (LinkedIn, a friend, a job board)"}
	r := c.call(201, "POST", "/forms/generate", key, prompt)
	charged(t, r, 5, 16)
	g := r.JSON(t)
	if g["isPublished"] != false || g["publishedAt"] != nil || g["title"] == "" || len(questions(t, g)) < 5 {
		t.Errorf("generated form: %v", g)
	}
	for _, q := range questions(t, g) {
		checkQuestionShape(t, q)
	}
	generated := fmt.Sprintf("/forms/%d", wireID(t, g["id"]))
	sameJSON(t, "generated form", c.json(200, "GET", generated, key, nil), g)
	for _, body := range []string{
		`{}`, `{"prompt": null}`, `{"prompt": ""}`, `{"prompt": "   "}`, `{"prompt": "asdf qwer"}`, `{"prompt": "?!"}`,
		`{"prompt": 5}`, `{"prompt": "a contact form", "title": "x"}`, `{"prompt": "a contact form"`, `[]`, ` `,
		`{"prompt": "a contact form with ` + strings.Repeat("x ", 2500) + `"}`,
	} {
		charged(t, c.send(400, "POST", "/forms/generate", key, "application/json", []byte(body)), 0, 16)
	}
	c.send(400, "POST", "/forms/generate", key, "text/plain", []byte(`{"prompt": "a contact form"}`))
	c.send(400, "POST", "/forms/generate", key, "", nil)
	formID := wireID(t, g["id"])
	c.call(403, "POST", "/forms/generate", env.Key(acct, nil, &formID), prompt)

	// ---- a form with three completed submissions and one started session
	f := c.json(201, "POST", "/forms", key, obj{"title": "Café feedback", "questions": []obj{
		{"type": "select", "question": "How did you hear about us?", "required": true, "options": []string{"Search", "A friend"}},
		{"type": "rating", "question": "Rating", "required": true},
		{"type": "textarea", "question": "Comments"},
	}})
	fp := fmt.Sprintf("/forms/%d", wireID(t, f["id"]))
	qs := questions(t, f)
	qid := func(i int) string { return strconv.FormatInt(wireID(t, qs[i]["id"]), 10) }
	c.json(200, "POST", fp+"/publish", key, nil)
	share := f["shareUrl"].(string)
	submitAnswers(t, env, share, obj{qid(0): "Search", qid(1): 5, qid(2): "Great coffee and lovely staff"})
	submitAnswers(t, env, share, obj{qid(0): "A friend", qid(1): 4, qid(2): "Good, but the service was slow"})
	submitAnswers(t, env, share, obj{qid(0): "Search", qid(1): 2})
	if r := env.Do("POST", "/f/"+share+"/sessions", "", nil); r.Status != 201 {
		t.Fatalf("start a session: %d %s", r.Status, r.Body)
	}

	// ---- analytics
	if e := c.json(404, "GET", fp+"/analytics", key, nil); !strings.Contains(e["message"].(string), "generate") {
		t.Errorf("analytics before the first generation: %v", e)
	}
	r = c.send(200, "POST", fp+"/analytics/generate", key, "", nil)
	charged(t, r, 10, 6)
	a := r.JSON(t)
	ins, _ := a["insights"].(obj)
	km, _ := ins["keyMetrics"].(obj)
	if a["formId"] != f["id"] || a["totalResponses"] != 3.0 || a["completionRate"] != 75.0 || ins["summary"] == "" ||
		!strings.Contains(fmt.Sprint(km["responseRate"]), "75") || !strings.Contains(fmt.Sprint(km["topAnswer"]), "Search") || km["sentiment"] == nil {
		t.Errorf("analytics: %v", a)
	}
	sameJSON(t, "stored analytics", c.json(200, "GET", fp+"/analytics", key, nil), a)
	c.json(404, "GET", generated+"/analytics", key, nil)
	c.driftCaught(fp+"/analytics", key, map[string]func(m obj){
		"completionRate as text":  func(m obj) { m["completionRate"] = "75%" },
		"completionRate over 100": func(m obj) { m["completionRate"] = 750 },
		"sentiment missing":       func(m obj) { delete(m["insights"].(obj)["keyMetrics"].(obj), "sentiment") },
		"key metric as a number":  func(m obj) { m["insights"].(obj)["keyMetrics"].(obj)["startedSessions"] = 4 },
		"insights as text":        func(m obj) { m["insights"].(obj)["insights"] = "none" },
		"lastAnalyzed missing":    func(m obj) { delete(m, "lastAnalyzed") },
		"extra field":             func(m obj) { m["model"] = "builtin" },
	})

	// ---- chat
	chat := fp + "/chat"
	if l := c.json(200, "GET", chat, key, nil); l["total"] != 0.0 || l["limit"] != 20.0 || l["hasMore"] != false || len(listItems(t, l, "conversations")) != 0 {
		t.Errorf("conversations before the first: %v", l)
	}
	first := c.json(201, "POST", chat, key, nil)
	if first["formId"] != f["id"] || first["createdAt"] != first["updatedAt"] {
		t.Errorf("new conversation: %v", first)
	}
	time.Sleep(5 * time.Millisecond)
	second := c.send(201, "POST", chat, key, "application/json", []byte(`{}`)).JSON(t)
	firstPath := fmt.Sprintf("%s/%d", chat, wireID(t, first["id"]))
	secondPath := fmt.Sprintf("%s/%d", chat, wireID(t, second["id"]))
	time.Sleep(5 * time.Millisecond)
	ask := func(question string, remaining int) (*servertest.Response, obj) {
		t.Helper()
		r := c.call(201, "POST", firstPath+"/messages", key, obj{"message": question})
		charged(t, r, 2, remaining)
		ex := r.JSON(t)
		u, _ := ex["userMessage"].(obj)
		as, _ := ex["assistantMessage"].(obj)
		if u["role"] != "user" || u["message"] != question || as["role"] != "assistant" || as["message"] == "" || wireID(t, as["id"]) <= wireID(t, u["id"]) {
			t.Errorf("exchange: %v", ex)
		}
		return r, ex
	}
	r1, ex1 := ask("How many responses are there?", 4)
	if answer := ex1["assistantMessage"].(obj)["message"].(string); !strings.Contains(answer, "3") {
		t.Errorf("answer about the number of responses: %q", answer)
	}
	_, ex2 := ask("What is the average rating?", 2)
	ask(strings.Repeat("é", 5000), 0) // 5000 characters, 10000 bytes
	for _, body := range []string{
		`{}`, `{"message": null}`, `{"message": ""}`, `{"message": 5}`, `{"message": "` + strings.Repeat("é", 5001) + `"}`,
		`{"message": "hi", "extra": 1}`, `{"message": "hi"`, ` `, `[]`,
	} {
		charged(t, c.send(400, "POST", firstPath+"/messages", key, "application/json", []byte(body)), 0, 0)
	}
	c.send(400, "POST", firstPath+"/messages", key, "text/plain", []byte(`{"message": "hi"}`))
	c.send(400, "POST", firstPath+"/messages", key, "", nil)

	// The exchange's roles are part of the document.
	req, _ := http.NewRequest(http.MethodPost, env.URL+apiPrefix+firstPath+"/messages", nil)
	route, params, err := c.router.FindRoute(req)
	if err != nil {
		t.Fatal(err)
	}
	swapped, _ := json.Marshal(obj{"userMessage": ex1["assistantMessage"], "assistantMessage": ex1["userMessage"]})
	if c.check(&openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route}, 201, r1.Header, swapped) == nil {
		t.Error("an exchange with swapped roles was not detected")
	}

	msgs := c.json(200, "GET", firstPath+"/messages", key, nil)
	items := listItems(t, msgs, "messages")
	if msgs["total"] != 6.0 || msgs["limit"] != 50.0 || msgs["offset"] != 0.0 || msgs["hasMore"] != false || len(items) != 6 {
		t.Fatalf("messages: %v", msgs)
	}
	for i, m := range items {
		if want := []string{"user", "assistant"}[i%2]; m["role"] != want || i > 0 && wireID(t, m["id"]) <= wireID(t, items[i-1]["id"]) {
			t.Errorf("messages are not chronological: %v", msgs)
			break
		}
	}
	sameJSON(t, "first message", items[0], ex1["userMessage"])
	sameJSON(t, "fourth message", items[3], ex2["assistantMessage"])
	page := c.json(200, "GET", firstPath+"/messages?limit=2&offset=2", key, nil)
	if p := listItems(t, page, "messages"); len(p) != 2 || page["hasMore"] != true || page["limit"] != 2.0 || p[0]["id"] != ex2["userMessage"].(obj)["id"] {
		t.Errorf("second page of messages: %v", page)
	}
	c.json(200, "GET", firstPath+"/messages?limit=100&offset=6", key, nil)
	if l := c.json(200, "GET", secondPath+"/messages", key, nil); l["total"] != 0.0 || len(listItems(t, l, "messages")) != 0 {
		t.Errorf("messages of an empty conversation: %v", l)
	}
	for _, q := range []string{"limit=0", "limit=101", "limit=x", "offset=-1", "offset=1.5"} {
		c.json(400, "GET", firstPath+"/messages?"+q, key, nil)
	}

	l := c.json(200, "GET", chat, key, nil)
	convs := listItems(t, l, "conversations")
	if l["total"] != 2.0 || len(convs) != 2 || convs[0]["id"] != first["id"] || convs[1]["id"] != second["id"] ||
		convs[0]["updatedAt"].(string) <= convs[1]["updatedAt"].(string) || convs[0]["createdAt"] != first["createdAt"] {
		t.Errorf("conversations, most recently updated first: %v", l)
	}
	if p := c.json(200, "GET", chat+"?limit=1&offset=1", key, nil); p["hasMore"] != false || listItems(t, p, "conversations")[0]["id"] != second["id"] {
		t.Errorf("second page of conversations: %v", p)
	}
	if p := c.json(200, "GET", chat+"?limit=1", key, nil); p["hasMore"] != true {
		t.Errorf("first page of conversations: %v", p)
	}
	c.json(200, "GET", chat+"?limit=50&offset=0", key, nil)
	for _, q := range []string{"limit=0", "limit=51", "limit=x", "offset=-1"} {
		c.json(400, "GET", chat+"?"+q, key, nil)
	}
	c.driftCaught(chat, key, map[string]func(m obj){
		"updatedAt missing": func(m obj) { delete(m["conversations"].([]any)[0].(obj), "updatedAt") },
		"formId as text":    func(m obj) { m["conversations"].([]any)[1].(obj)["formId"] = "7" },
		"total missing":     func(m obj) { delete(m, "total") },
	})
	c.driftCaught(firstPath+"/messages", key, map[string]func(m obj){
		"unknown role":    func(m obj) { m["messages"].([]any)[0].(obj)["role"] = "system" },
		"message missing": func(m obj) { delete(m["messages"].([]any)[1].(obj), "message") },
		"extra field":     func(m obj) { m["messages"].([]any)[2].(obj)["tokens"] = 12 },
		"id as text":      func(m obj) { m["messages"].([]any)[3].(obj)["id"] = "m4" },
	})

	// ---- out of credits: every AI operation is refused before any work
	for _, x := range []struct {
		path string
		body any
	}{{"/forms/generate", prompt}, {fp + "/analytics/generate", nil}, {firstPath + "/messages", obj{"message": "And now?"}}} {
		r := c.call(402, "POST", x.path, key, x.body)
		charged(t, r, 0, 0)
		if e := r.JSON(t); e["error"] != "insufficient_credits" || !strings.Contains(e["message"].(string), "credits") {
			t.Errorf("POST %s without credits: %v", x.path, e)
		}
	}
	h := c.json(200, "GET", "/usage/history", key, nil)
	var endpoints []string
	for _, e := range listItems(t, h, "history") {
		endpoints = append(endpoints, e["endpoint"].(string))
	}
	if want := []string{"chat.message", "chat.message", "chat.message", "analytics.generate", "forms.generate"}; !slices.Equal(endpoints, want) {
		t.Errorf("charges %v, want %v", endpoints, want)
	}
	if u := c.json(200, "GET", "/usage", key, nil); u["creditsRemaining"] != 0.0 || u["creditsMonthlyAllowance"] != 21.0 {
		t.Errorf("usage: %v", u)
	}
	if n := c.json(200, "GET", "/forms", key, nil)["total"]; n != 2.0 {
		t.Errorf("%v forms after a refused generation", n)
	}
	if n := c.json(200, "GET", firstPath+"/messages", key, nil)["total"]; n != 6.0 {
		t.Errorf("%v messages after a refused one", n)
	}
	sameJSON(t, "analytics after a refused generation", c.json(200, "GET", fp+"/analytics", key, nil), a)

	// ---- delete a conversation
	c.json(204, "DELETE", secondPath, key, nil)
	if e := c.json(404, "GET", secondPath+"/messages", key, nil); e["message"] != "Conversation not found" {
		t.Errorf("deleted conversation: %v", e)
	}
	c.json(404, "DELETE", secondPath, key, nil)
	c.call(404, "POST", secondPath+"/messages", key, obj{"message": "Hello?"})
	if l := c.json(200, "GET", chat, key, nil); l["total"] != 1.0 {
		t.Errorf("conversations after a delete: %v", l)
	}
	// A conversation is reached only through its form.
	elsewhere := fmt.Sprintf("%s/chat/%d", generated, wireID(t, first["id"]))
	c.json(404, "GET", elsewhere+"/messages", key, nil)
	c.json(404, "DELETE", elsewhere, key, nil)
}

// aiProviderFailure drives the AI operations on a server whose external provider
// answers every call with HTTP 500: each is a 502, and nothing is charged or stored.
func aiProviderFailure(t *testing.T, seen map[string]map[int]bool) {
	var calls atomic.Int32
	provider := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, `{"error": {"message": "the model crashed", "type": "server_error"}}`)
	}))
	t.Cleanup(provider.Close)
	env := servertest.New(t, store.SQLite, func(cfg *config.Config) {
		cfg.AIProvider, cfg.AIBaseURL, cfg.AIModel, cfg.SubmitLimit = "openai", provider.URL+"/v1", "test", 0
	})
	c := connect(t, env, seen)
	key := env.NewKey()
	failed := func(r *servertest.Response) {
		t.Helper()
		charged(t, r, 0, 100)
		if e := r.JSON(t); e["error"] != "ai_provider_error" || !strings.Contains(e["message"].(string), "500") {
			t.Errorf("provider failure: %v", e)
		}
	}

	failed(c.call(502, "POST", "/forms/generate", key, obj{"prompt": "a contact form with name, email and message"}))
	c.call(400, "POST", "/forms/generate", key, obj{"prompt": " "}) // refused before the provider is asked

	f := c.json(201, "POST", "/forms", key, obj{"title": "Provider down", "questions": []obj{{"question": "Name", "required": true}}})
	fp := fmt.Sprintf("/forms/%d", wireID(t, f["id"]))
	c.json(200, "POST", fp+"/publish", key, nil)
	submitAnswers(t, env, f["shareUrl"].(string), obj{strconv.FormatInt(wireID(t, questions(t, f)[0]["id"]), 10): "Ada"})
	failed(c.send(502, "POST", fp+"/analytics/generate", key, "", nil))
	c.json(404, "GET", fp+"/analytics", key, nil)

	conv := c.json(201, "POST", fp+"/chat", key, nil)
	messages := fmt.Sprintf("%s/chat/%d/messages", fp, wireID(t, conv["id"]))
	failed(c.call(502, "POST", messages, key, obj{"message": "How many responses are there?"}))
	if l := c.json(200, "GET", messages, key, nil); l["total"] != 0.0 {
		t.Errorf("messages after a failed answer: %v", l)
	}
	if l := c.json(200, "GET", "/forms", key, nil); l["total"] != 1.0 {
		t.Errorf("forms after a failed generation: %v", l)
	}
	if h := c.json(200, "GET", "/usage/history", key, nil); h["total"] != 0.0 {
		t.Errorf("charges after failures: %v", h)
	}
	if n := calls.Load(); n < 3 {
		t.Errorf("the provider was called %d times, want at least 3", n)
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
