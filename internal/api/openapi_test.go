package api_test

import (
	"bytes"
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

	"forma/internal/auth"
	"forma/internal/config"
	"forma/internal/form"
	"forma/internal/quota"
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

// keyOperations are the operations of the API proper (under /api/v1, with a key);
// respondentOperations the public ones, which name their own server.
func keyOperations(doc *openapi3.T) map[string]*openapi3.Operation {
	return operationsWhere(doc, func(item *openapi3.PathItem) bool { return len(item.Servers) == 0 })
}

func respondentOperations(doc *openapi3.T) map[string]*openapi3.Operation {
	return operationsWhere(doc, func(item *openapi3.PathItem) bool { return len(item.Servers) > 0 })
}

func operationsWhere(doc *openapi3.T, keep func(*openapi3.PathItem) bool) map[string]*openapi3.Operation {
	ops := map[string]*openapi3.Operation{}
	for path, item := range doc.Paths.Map() {
		if keep(item) {
			for method, op := range item.Operations() {
				ops[strings.ToUpper(method)+" "+path] = op
			}
		}
	}
	return ops
}

// respondentRoutes reads the JSON operations the respond package routes (not its
// pages and assets), with their path parameters written {}.
func respondentRoutes(t *testing.T) map[string]bool {
	t.Helper()
	src, err := os.ReadFile("../respond/respond.go")
	if err != nil {
		t.Fatal(err)
	}
	// Pages and the embed script (a file, like /assets) are not operations.
	pages := map[string]bool{"GET /f/{}": true, "GET /f/{}/thanks": true, "GET /embed.js": true}
	routes := map[string]bool{}
	for _, m := range regexp.MustCompile(`mux\.HandleFunc\("([A-Z]+ /[^"]*)"`).FindAllStringSubmatch(string(src), -1) {
		r := anyParams(m[1])
		if !pages[r] && !strings.HasPrefix(r, "OPTIONS") && !strings.Contains(r, "/assets/") {
			routes[r] = true
		}
	}
	return routes
}

// anyParams writes every path parameter of a pattern as {}.
func anyParams(pattern string) string {
	return regexp.MustCompile(`\{[^}]*\}`).ReplaceAllString(pattern, "{}")
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
	checkRespondentOperations(t, doc)
	ops := keyOperations(doc)
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

// checkRespondentOperations: the document describes exactly the respondent
// operations respond routes, as public operations (no key, no limit headers) that
// name their server and their errors.
func checkRespondentOperations(t *testing.T, doc *openapi3.T) {
	ops := respondentOperations(doc)
	documented := map[string]bool{}
	for name, op := range ops {
		documented[anyParams(name)] = true
		if op.Security == nil || len(*op.Security) != 0 || !slices.Contains(op.Tags, "Respondents") {
			t.Errorf("%s: not a public operation tagged Respondents", name)
		}
		for _, status := range []string{"404"} {
			if op.Responses.Value(status) == nil {
				t.Errorf("%s: no %s response", name, status)
			}
		}
		for status, resp := range op.Responses.Map() {
			if resp.Value.Headers["X-Request-Id"] == nil {
				t.Errorf("%s %s: X-Request-Id not documented", name, status)
			}
			for _, h := range documentedLimitHeaders {
				if resp.Value.Headers[h] != nil {
					t.Errorf("%s %s: documents %s, which public operations do not send", name, status, h)
				}
			}
		}
	}
	routes := respondentRoutes(t)
	for r := range routes {
		if !documented[r] {
			t.Errorf("respondent route %s is not in openapi.json", r)
		}
	}
	for r := range documented {
		if !routes[r] {
			t.Errorf("openapi.json describes %s, which respond does not route", r)
		}
	}
}

// statuses records, per operationId, the statuses the conformance tables observed.
type statuses map[string]map[int]bool

// conformance runs scenario tables against a server (servertest validates every
// exchange against the document) and records the statuses each operation gave.
type conformance struct {
	env  *servertest.Env
	doc  *openapi3.T
	seen statuses
}

// suite is what the conformance tables of one dialect share: the document, parsed
// once, the statuses observed, and a server with the default configuration (the
// tables work each with accounts of their own).
type suite struct {
	dialect store.Dialect
	doc     *openapi3.T
	seen    statuses
	shared  *servertest.Env
}

// start connects to the shared server, or serves a fresh database configured as
// given until the test ends.
func (s *suite) start(t *testing.T, configure ...func(*config.Config)) *conformance {
	t.Helper()
	if len(configure) == 0 {
		return connect(t, s.shared.For(t), s.doc, s.seen)
	}
	return connect(t, servertest.New(t, s.dialect, configure...), s.doc, s.seen)
}

// connect runs tables against env, recording in seen the statuses observed; doc is
// the document the tables check details against.
func connect(t *testing.T, env *servertest.Env, doc *openapi3.T, seen statuses) *conformance {
	t.Helper()
	return &conformance{env: env, doc: doc, seen: seen}
}

// row is a scenario of a conformance table, built by call and the setters below.
type row servertest.Scenario

// call is a row: a request, the status it must get and the checks of its response.
func call(status int, method, path, key string, body any, cs ...check) row {
	name := method + " " + strings.TrimPrefix(path, apiPrefix)
	if s, ok := body.(string); ok {
		name += " " + clipName(s)
	}
	return row{Name: name, Method: method, Path: path, Key: key, Body: body, ExpectedStatus: status, Check: checks(cs...)}
}

// named names the row.
func (r row) named(name string) row {
	r.Name = name
	return r
}

// before sets the row's BeforeTest hook.
func (r row) before(f func(*testing.T, *scenario)) row {
	r.BeforeTest = f
	return r
}

// header sets a request header; an empty value removes the default.
func (r row) header(name, value string) row {
	r.Header = map[string]string{name: value}
	r.Name += " (" + name + ": " + value + ")"
	return r
}

// headers sets response headers the row expects.
func (r row) headers(h map[string]string) row {
	r.ExpectedHeaders = h
	return r
}

// charged expects the credit headers of a response: the charge and what remains.
func (r row) charged(used, remaining int) row {
	return r.headers(map[string]string{"X-Credits-Used": strconv.Itoa(used), "X-Credits-Remaining": strconv.Itoa(remaining)})
}

// create creates a form in a table of one row and returns it; the test ends when it
// was not created, since the next tables need it.
func (c *conformance) create(t *testing.T, key string, body obj) obj {
	t.Helper()
	var f obj
	c.run(t, []row{call(201, "POST", apiPrefix+"/forms", key, body, into(&f)).named(fmt.Sprintf("create %q", body["title"]))})
	if f == nil {
		t.Fatalf("form %q was not created", body["title"])
	}
	return f
}

// run runs the rows like servertest.Run (which validates each exchange against the
// document), recording each status before the row's own Check.
func (c *conformance) run(t *testing.T, rows []row) {
	t.Helper()
	for _, r := range rows {
		own := r.Check
		r.Check = func(t *testing.T, res *servertest.Response) {
			c.validate(t, res)
			if own != nil {
				own(t, res)
			}
		}
		servertest.Scenario(r).Test(t, c.env)
	}
}

// validate records the status of one exchange for its operation; servertest has
// checked the exchange against the document.
func (c *conformance) validate(t *testing.T, res *servertest.Response) {
	t.Helper()
	route, _, err := c.env.Route(res.Request)
	if err != nil {
		t.Errorf("%s %s: no operation in the document: %v", res.Request.Method, res.Request.URL.RequestURI(), err)
		return
	}
	op := route.Operation.OperationID
	if c.seen[op] == nil {
		c.seen[op] = map[int]bool{}
	}
	c.seen[op][res.Status] = true
}

// drift is a departure from a real response that the validation must detect.
type drift struct {
	name   string
	status int                 // replaces the status when set
	header func(h http.Header) // changes a copy of the headers
	body   func(m obj)         // changes the decoded body
	raw    string              // replaces the body when set
}

// detects checks that the response is valid as it is, and that each drift from it is
// detected.
func (c *conformance) detects(drifts ...drift) check {
	return func(t *testing.T, r *servertest.Response) {
		t.Helper()
		route, params, err := c.env.Route(r.Request)
		if err != nil {
			t.Fatal(err)
		}
		in := &openapi3filter.RequestValidationInput{Request: r.Request, PathParams: params, Route: route}
		if err := servertest.CheckResponse(in, r.Status, r.Header, r.Body); err != nil {
			t.Fatalf("unchanged response rejected: %v", err)
		}
		for _, d := range drifts {
			status, header, body := r.Status, r.Header.Clone(), r.Body
			if d.status != 0 {
				status = d.status
			}
			if d.header != nil {
				d.header(header)
			}
			if d.body != nil {
				m := r.JSON(t)
				d.body(m)
				body, _ = json.Marshal(m)
			}
			if d.raw != "" {
				body = []byte(d.raw)
			}
			if servertest.CheckResponse(in, status, header, body) == nil {
				t.Errorf("drift %q was not detected", d.name)
			}
		}
	}
}

// TestOpenAPIConformance drives every operation through scenario tables on each
// dialect, and validates every exchange against the document; at the end every
// documented status but 500 must have been produced.
func TestOpenAPIConformance(t *testing.T) {
	embedded, doc := embeddedDoc(t)
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		s := &suite{dialect: d, doc: doc, seen: statuses{}, shared: servertest.New(t, d)}
		t.Run("document", func(t *testing.T) { conformDocument(t, s.shared.For(t), embedded, doc) })
		for _, section := range []struct {
			name string
			run  func(t *testing.T, s *suite)
		}{
			{"forms", conformForms},
			{"questions", conformQuestions},
			{"responses", conformResponses},
			{"webhook refusals", conformWebhookRefusals},
			{"webhook deliveries", conformWebhookDeliveries},
			{"respondents", conformRespondents},
			{"closing", conformClosing},
			{"ai", conformAI},
			{"ai provider failure", conformAIProviderFailure},
			{"usage", conformUsage},
			{"errors of every operation", conformErrors},
			{"daily limit", conformDailyLimit},
			{"drift", conformDrift},
		} {
			t.Run(section.name, func(t *testing.T) { section.run(t, s) })
		}
		t.Run("every documented status is produced", func(t *testing.T) {
			for name, op := range operations(doc) {
				for status := range op.Responses.Map() {
					code, _ := strconv.Atoi(status)
					if code != 500 && !s.seen[op.OperationID][code] {
						t.Errorf("%s: documented status %d was never produced", name, code)
					}
				}
			}
		})
	})
}

// contentType checks the start of the response's Content-Type.
func contentType(prefix string) check {
	return func(t *testing.T, r *servertest.Response) {
		t.Helper()
		if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, prefix) {
			t.Errorf("Content-Type %q, want %s…", ct, prefix)
		}
	}
}

// conformDocument checks the document as served, without a key and with this
// server's URL, and the reference page that lists every operation.
func conformDocument(t *testing.T, env *servertest.Env, embedded []byte, doc *openapi3.T) {
	servertest.Run(t, env, []scenario{{
		Name: "the document", Method: "GET", Path: apiPrefix + "/openapi.json", ExpectedStatus: 200,
		Check: checks(contentType("application/json"), func(t *testing.T, r *servertest.Response) {
			served := r.JSON(t)
			servers, _ := served["servers"].([]any)
			if len(servers) != 1 || servers[0].(obj)["url"] != env.URL+apiPrefix {
				t.Errorf("served servers = %v, want the url %s", served["servers"], env.URL+apiPrefix)
			}
			var file obj
			if err := json.Unmarshal(embedded, &file); err != nil {
				t.Fatal(err)
			}
			for i, doc := range []obj{file, served} {
				delete(doc, "servers")
				for path, item := range doc["paths"].(obj) {
					if item := item.(obj); item["servers"] != nil {
						if i == 1 && fmt.Sprint(item["servers"]) != fmt.Sprint([]any{obj{"url": env.URL, "description": "This Forma server's public address"}}) {
							t.Errorf("served %s names the server %v, want %s", path, item["servers"], env.URL)
						}
						delete(item, "servers")
					}
				}
			}
			if !reflect.DeepEqual(file, served) {
				t.Error("the served document differs from openapi.json beyond servers")
			}
			loadDoc(t, r.Body)
		}),
	}, {
		Name: "the reference page", Method: "GET", Path: "/docs", ExpectedStatus: 200,
		Check: checks(contentType("text/html"), func(t *testing.T, r *servertest.Response) {
			for name, op := range keyOperations(doc) {
				method, path, _ := strings.Cut(name, " ")
				line := fmt.Sprintf(`<span class="m">%s</span><code>%s</code> — %s`, method, path, op.Summary)
				if !bytes.Contains(r.Body, []byte(line)) {
					t.Errorf("GET /docs does not list %s (%s)", name, op.Summary)
				}
			}
		}),
	}})
}

// fullForm has a question of every type, with every kind of configuration.
var fullForm = obj{"title": "Customer feedback", "description": "How are we doing?", "displayMode": "multi-step",
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

// inOrder checks the questions of a form body: their shape, and orders 1, 2, 3…
func inOrder(t *testing.T, r *servertest.Response) {
	t.Helper()
	for i, q := range items(t, r.JSON(t), "questions") {
		checkQuestionShape(t, q)
		if wireID(t, q["order"]) != int64(i+1) {
			t.Errorf("question %d has order %v", i, q["order"])
		}
	}
}

func conformForms(t *testing.T, s *suite) {
	c := s.start(t)
	acct := c.env.Account("free")
	key := c.env.Key(acct, nil, nil)
	otherKey := c.env.Key(c.env.Account("builder"), nil, nil)
	forms := apiPrefix + "/forms"

	// ---- create
	var f1, f2, fb obj
	create := []row{
		call(201, "POST", forms, key, fullForm, into(&f1), inOrder, func(t *testing.T, r *servertest.Response) {
			if qs := items(t, f1, "questions"); len(qs) != 17 || qs[1]["type"] != "text" || f1["isPublished"] != false || f1["publishedAt"] != nil {
				t.Errorf("created form: %v", f1)
			}
		}).named("create a form with every question type"),
		call(201, "POST", forms, key, obj{"title": "Second", "questions": []obj{{"question": "Only one"}}}, into(&f2)).named("create a second form"),
		call(201, "POST", forms, otherKey, obj{"title": "Another account's"}, into(&fb)).named("another account creates a form"),
	}
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
		create = append(create, call(400, "POST", forms, key, body))
	}
	c.run(t, append(create,
		call(400, "POST", forms, key, `{"title": "x"}`).header("Content-Type", "text/plain"),
		call(400, "POST", forms, key, `{"title": "x"}`).header("Content-Type", ""),
		call(201, "POST", forms, key, `{"title": "Charset"}`).header("Content-Type", "application/json; charset=utf-8")))
	if f1 == nil || f2 == nil || fb == nil {
		t.Fatal("the forms the next tables use were not created")
	}
	form1, form2, formB := formPath(f1), formPath(f2), formPath(fb)
	form1ID := wireID(t, f1["id"])
	scoped := c.env.Key(acct, nil, &form1ID)

	// ---- list, get
	table := []row{
		call(200, "GET", forms, key, nil, fields(obj{"total": 3, "limit": 50, "offset": 0, "hasMore": false})),
		call(200, "GET", forms+"?limit=1&offset=1", key, nil, fields(obj{"hasMore": true}), itemCount("forms", 1)),
		call(200, "GET", forms+"?limit=100&offset=10", key, nil),
	}
	for _, q := range []string{"limit=0", "limit=101", "limit=abc", "offset=-1", "offset=x", "limit=1.5"} {
		table = append(table, call(400, "GET", forms+"?"+q, key, nil))
	}
	table = append(table,
		call(200, "GET", forms, scoped, nil, fields(obj{"total": 1}), func(t *testing.T, r *servertest.Response) {
			if l := items(t, r.JSON(t), "forms"); len(l) != 1 || l[0]["id"] != f1["id"] {
				t.Errorf("scoped list: %v", l)
			}
		}).named("list with a form-scoped key"),
		call(200, "GET", forms, otherKey, nil, fields(obj{"total": 1})).named("list another account's"),
		call(200, "GET", form1, scoped, nil, itemCount("questions", 17)).named("get with a form-scoped key"),
		call(404, "GET", formB, key, nil).named("get another account's form"),
		call(404, "GET", formB, scoped, nil).named("get another account's form with a form-scoped key"),
		call(400, "GET", forms+"/abc", key, nil))

	// ---- update
	for _, body := range []string{
		`{}`, `{"webhookEnabled": true}`, `{"title": null}`, `{"title": ""}`, `{"displayMode": "wizard"}`,
		`{"displayMode": null}`, `{"webhookEnabled": null}`, `{"webhookUrl": "http://127.0.0.1/hook"}`,
		`{"webhookUrl": "http://localhost:9000/hook"}`, `{"webhookUrl": "ftp://files.example.org/x"}`,
		`{"webhookUrl": "https://hooks.example.org/` + strings.Repeat("a", 2000) + `"}`, `{"isPublished": true}`,
		`{"description": "` + strings.Repeat("d", 5001) + `"}`,
	} {
		table = append(table, call(400, "PATCH", form2, key, body))
	}
	webhook := func(enabled bool, url any) check { return fields(obj{"webhook": obj{"enabled": enabled, "url": url}}) }
	table = append(table,
		call(200, "PATCH", form2, key, obj{"title": "Renamed", "description": nil, "displayMode": "multi-step"},
			fields(obj{"title": "Renamed", "description": "", "questions": nil})).named("rename"),
		call(200, "PATCH", form2, key, obj{"webhookUrl": "https://hooks.example.org/forma", "webhookEnabled": true},
			webhook(true, "https://hooks.example.org/forma")).named("webhook on"),
		call(200, "PATCH", form2, key, obj{"webhookEnabled": false}, webhook(false, "https://hooks.example.org/forma")).named("webhook off"),
		call(200, "PATCH", form2, key, obj{"webhookEnabled": true}).named("webhook on again"),
		call(200, "PATCH", form2, key, obj{"webhookUrl": ""}, webhook(false, nil)).named("webhook cleared"),
		call(200, "PATCH", form2, key, obj{"webhookUrl": nil}).named("webhook cleared with null"))

	// ---- publish, unpublish
	var published, definition obj
	table = append(table,
		call(200, "POST", form1+"/publish", scoped, nil, into(&published)).named("publish"),
		call(200, "POST", form1+"/publish", key, nil, func(t *testing.T, r *servertest.Response) {
			if again := r.JSON(t); published["publishedAt"] == nil || again["publishedAt"] != published["publishedAt"] || published["url"] != f1["url"] {
				t.Errorf("publish: %v then %v", published, again)
			}
		}).named("publish again"),
		call(200, "GET", form1, key, nil, func(t *testing.T, r *servertest.Response) {
			fields(obj{"isPublished": true, "publishedAt": published["publishedAt"]})(t, r)
		}).named("the published form"),
		call(400, "POST", form1+"/unpublish", key, `{}`, apiError("validation_error", "body: must be empty")),
		call(200, "POST", form1+"/unpublish", key, ``),
		call(200, "POST", form1+"/unpublish", key, nil),
		call(200, "POST", form1+"/publish", key, nil).named("publish once more"),

		// ---- duplicate, export, import
		call(201, "POST", form1+"/duplicate", key, nil, inOrder, fields(obj{"title": "Copy of Customer feedback"})).named("duplicate"),
		call(200, "GET", form1+"/definition", key, nil, into(&definition)).named("export the definition"),
		call(201, "POST", forms+"/import", key, nil, inOrder, fields(obj{"title": "Customer feedback"})).named("import the definition").
			before(func(_ *testing.T, s *scenario) { s.Body = definition }),
		call(400, "POST", forms+"/import", key, `{"formaDefinition": 2, "title": "x"}`, apiError("validation_error", "formaDefinition")),
		call(400, "POST", forms+"/import", key, `{"formaDefinition": 1, "title": "x", "questions": [{"ref": 1, "question": "q", `+
			`"conditionalLogic": {"showIf": {"questionId": 2, "operator": "equals", "value": "a"}}}]}`,
			apiError("validation_error", "questions[0].conditionalLogic.showIf.questionId")),

		// ---- deletes
		call(404, "DELETE", formB, key, nil).named("delete another account's form"),
		call(204, "DELETE", form2+"/fields/"+id(items(t, f2, "questions")[0]["id"]), key, nil),
		call(204, "DELETE", form2, key, nil).named("delete"),
		call(404, "GET", form2, key, nil).named("get the deleted form"),
		call(404, "DELETE", form2, key, nil).named("delete again"))
	c.run(t, table)
}

func conformQuestions(t *testing.T, s *suite) {
	c := s.start(t)
	key := c.env.NewKey()
	f1 := createForm(t, c.env, key, fullForm)
	p1 := formPath(f1)
	expectStatus(t, c.env.Do("POST", p1+"/publish", key, nil), 200)
	f2 := createForm(t, c.env, key, obj{"title": "Second", "questions": []obj{{"question": "Only one"}}})
	q2 := wireID(t, items(t, f2, "questions")[0]["id"])
	qs := items(t, f1, "questions")
	qSelect, qText, qEmail, qMulti, qSlider := wireID(t, qs[0]["id"]), wireID(t, qs[1]["id"]), wireID(t, qs[2]["id"]), wireID(t, qs[3]["id"]), wireID(t, qs[4]["id"])
	qPrice, qURL := wireID(t, qs[6]["id"]), wireID(t, qs[15]["id"])
	fieldsPath := p1 + "/fields"
	field := func(q int64) string { return fmt.Sprintf("%s/%d", fieldsPath, q) }
	logicIs := func(want obj) check {
		return func(t *testing.T, r *servertest.Response) {
			sameJSON(t, "conditionalLogic", r.JSON(t)["conditionalLogic"], want)
		}
	}

	// ---- add
	showIf := obj{"showIf": obj{"questionId": qSelect, "operator": "equals", "value": "A friend"}}
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
	scoreRules := obj{"advanced": obj{"scoreRules": []obj{{"questionId": qMulti, "scoreMap": obj{"A": 1, "B": 2}}}}}
	var friend, scoreOnly obj
	add := []row{
		call(201, "POST", fieldsPath, key, obj{"question": "Which friend?", "conditionalLogic": showIf}, into(&friend), logicIs(showIf),
			fields(obj{"order": 18, "type": "text", "options": nil})).named("add with showIf logic"),
		call(201, "POST", fieldsPath, key, obj{"type": "textarea", "question": "What went wrong?", "required": true, "conditionalLogic": advanced},
			logicIs(advanced)).named("add with advanced logic"),
		call(201, "POST", fieldsPath, key, obj{"type": "yes_no", "question": "Subscribe?", "conditionalLogic": scoreRules},
			into(&scoreOnly), logicIs(scoreRules)).named("add with score rules only"),
		call(201, "POST", fieldsPath, key, obj{"type": "slider", "question": "Percent", "sliderConfig": obj{"min": 1, "max": 100, "step": 0.5}}).named("add a slider"),
		call(201, "POST", fieldsPath, key, obj{"type": "currency", "question": "Tip", "required": false, "currencyConfig": obj{"currency": "CHF", "max": 50}}).named("add a currency"),
	}
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
		add = append(add, call(400, "POST", fieldsPath, key, body))
	}
	c.run(t, add)
	if friend == nil || scoreOnly == nil {
		t.Fatal("the questions the next table uses were not added")
	}
	qFriend, qScoreOnly := wireID(t, friend["id"]), wireID(t, scoreOnly["id"])

	// ---- update, delete
	own := obj{"advanced": obj{"conditionGroups": []obj{{"operator": "OR", "conditions": []obj{{"questionId": qEmail, "operator": "equals", "value": "a@example.org"}}}},
		"actions": []obj{{"type": "skip_to_question", "targetId": qMulti}}}}
	update := []row{
		call(200, "PATCH", field(qSelect), key, obj{"question": "Where did you hear about us?"}, fields(obj{"question": "Where did you hear about us?"})).named("update the text"),
		call(200, "PATCH", field(qFriend), key, obj{"order": 1}, fields(obj{"order": 1})).named("move"),
		call(200, "PATCH", field(qFriend), key, obj{"conditionalLogic": nil}, fields(obj{"conditionalLogic": nil})).named("clear the logic"),
		call(200, "PATCH", field(qText), key, obj{"type": "select", "options": []string{"x", "y"}, "required": true}, fields(obj{"type": "select"})).named("retype"),
		call(200, "PATCH", field(qSlider), key, obj{"sliderConfig": obj{"min": -5, "max": 5, "step": 0.25}}).named("change a sliderConfig"),
		call(200, "PATCH", field(qPrice), key, obj{"currencyConfig": nil}).named("clear a currencyConfig"),
		call(200, "PATCH", field(qScoreOnly), key, obj{"conditionalLogic": obj{"showIf": obj{"questionId": qEmail, "operator": "not_equals", "value": ""}}}).named("replace score rules by showIf"),
		call(200, "PATCH", field(qEmail), key, obj{"conditionalLogic": own}, logicIs(own)).named("logic on its own question"),
	}
	for _, body := range []string{
		`{}`, `{"order": 0}`, `{"order": 9999}`, `{"question": ""}`, `{"question": null}`, `{"required": null}`,
		`{"type": "slider"}`, `{"options": ["a"]}`, `{"colour": "red"}`, `{"conditionalLogic": {"showIf": {"questionId": 999999, "operator": "equals"}}}`,
	} {
		update = append(update, call(400, "PATCH", field(qEmail), key, body))
	}
	c.run(t, append(update,
		call(404, "PATCH", field(q2), key, obj{"required": true}).named("a question of another form"),
		call(409, "DELETE", field(qSelect), key, nil).named("delete a question the advanced logic uses"),
		call(204, "DELETE", field(qURL), key, nil).named("delete"),
		call(404, "DELETE", field(qURL), key, nil).named("delete again"),
		call(200, "GET", p1, key, nil, inOrder).named("orders after moves and deletes")))
}

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
	res := env.For(t).Send(req)
	expectStatus(t, res, http.StatusCreated)
	return res.JSON(t)["id"].(string)
}

// conformResponses lists, reads, exports and deletes the submissions of a form with
// scoring and a file question.
func conformResponses(t *testing.T, s *suite) {
	c := s.start(t)
	key := c.env.NewKey()
	f := c.create(t, key, obj{"title": "Order survey", "questions": []obj{
		{"type": "select", "question": "Plan", "required": true, "options": []string{"Basic", "Pro"}},
		{"question": "Name", "required": true},
		{"type": "number", "question": "Seats"},
		{"type": "multi_select", "question": "Features", "options": []string{"API", "Exports", "SSO"}},
		{"type": "rating", "question": "Rating"},
		{"type": "file_upload", "question": "Screenshot"},
		{"type": "date", "question": "Start"},
	}})
	fp := formPath(f)
	list := fp + "/responses"
	q := questionIDs(t, f)
	var renew obj
	c.run(t, []row{
		call(201, "POST", fp+"/fields", key, obj{"type": "yes_no", "question": "Renew?",
			"conditionalLogic": obj{"advanced": obj{"scoreRules": []obj{{"questionId": mustInt(q[0]), "scoreMap": obj{"Basic": 1, "Pro": 2.5}}}}}},
			into(&renew)).named("add a scored question"),
		call(200, "POST", fp+"/publish", key, nil),
		call(200, "GET", list, key, nil, fields(obj{"total": 0, "limit": 50, "hasMore": false}), itemCount("responses", 0)).named("no responses yet"),
	})
	if renew == nil {
		t.Fatal("no scored question")
	}
	qRenew := id(renew["id"])
	share := f["shareUrl"].(string)
	img := pngImage(t)
	fileID := uploadFile(t, c.env, share, "screen.png", img)
	ids := []string{submit(t, c.env, share, obj{q[0]: "Pro", q[1]: "Ada", q[2]: 12, q[3]: []string{"SSO", "API"},
		q[4]: 5, q[5]: fileID, q[6]: "2026-12-01", qRenew: true})}
	time.Sleep(5 * time.Millisecond)
	ids = append(ids, submit(t, c.env, share, obj{q[0]: "Basic", q[1]: "Bo"}))
	time.Sleep(5 * time.Millisecond)
	ids = append(ids, submit(t, c.env, share, obj{q[0]: "Pro", q[1]: "=1+2", q[4]: 3, qRenew: false}))
	// Neither a refused submission nor a started one is a response.
	servertest.Run(t, c.env, []scenario{{Name: "an incomplete submission", Method: "POST", Path: "/f/" + share + "/submissions",
		Body: obj{"answers": obj{q[1]: "No plan"}}, ExpectedStatus: 400}})
	started := c.env.Do("POST", "/f/"+share+"/sessions", "", nil)
	expectStatus(t, started, 201)
	startedID := started.JSON(t)["id"].(string)

	// ---- list
	var subs []obj
	c.run(t, []row{call(200, "GET", list, key, nil, fields(obj{"total": 3, "hasMore": false, "offset": 0}), func(t *testing.T, r *servertest.Response) {
		subs = items(t, r.JSON(t), "responses")
		if len(subs) != 3 || subs[0]["id"] != ids[2] || subs[2]["id"] != ids[0] {
			t.Fatalf("responses, newest first: %v", subs)
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
	}).named("newest first")})
	if len(subs) != 3 {
		t.Fatal("the next tables need the three responses")
	}
	first := subs[2]
	if u, _ := first["data"].(obj)["Screenshot"].(obj)["url"].(string); u != "" {
		// The file link (a public route, not an API operation) serves the upload.
		servertest.Run(t, c.env, []scenario{{Name: "the file link", Method: "GET", Path: strings.TrimPrefix(u, c.env.URL), ExpectedStatus: 200,
			Check: func(t *testing.T, r *servertest.Response) {
				if !bytes.Equal(r.Body, img) {
					t.Errorf("file link %s: %d bytes", u, len(r.Body))
				}
			}}})
	}
	second := url.QueryEscape(subs[1]["submittedAt"].(string))
	table := []row{
		call(200, "GET", list+"?limit=1&offset=1&order=asc", key, nil, fields(obj{"hasMore": true, "limit": 1}), func(t *testing.T, r *servertest.Response) {
			if p := items(t, r.JSON(t), "responses"); len(p) != 1 || p[0]["id"] != ids[1] {
				t.Errorf("second page, oldest first: %v", p)
			}
		}),
		call(200, "GET", list+"?order=desc&since="+second, key, nil, fields(obj{"total": 2})).named("since is inclusive"),
		call(200, "GET", list+"?until="+second, key, nil, fields(obj{"total": 1}), func(t *testing.T, r *servertest.Response) {
			if p := items(t, r.JSON(t), "responses"); len(p) != 1 || p[0]["id"] != ids[0] {
				t.Errorf("until is exclusive: %v", p)
			}
		}).named("until is exclusive"),
		call(200, "GET", list+"?since=2026-01-01T00:00:00%2B02:00&until=2999-01-01T00:00:00.5Z&limit=500&offset=0", key, nil),
	}
	for _, q := range []string{"limit=0", "limit=501", "limit=ten", "offset=-1", "offset=1.5", "order=newest", "since=yesterday", "until=2026-13-01T00:00:00Z"} {
		table = append(table, call(400, "GET", list+"?"+q, key, nil, apiError("validation_error", strings.Split(q, "=")[0])))
	}

	// ---- one
	table = append(table,
		call(200, "GET", list+"/"+ids[0], key, nil, func(t *testing.T, r *servertest.Response) {
			one, want := r.JSON(t), roundTrip(t, first).(obj)
			// The file link is signed anew on every read.
			delete(one["data"].(obj)["Screenshot"].(obj), "url")
			delete(want["data"].(obj)["Screenshot"].(obj), "url")
			sameJSON(t, "one response", one, want)
		}).named("one is as in the list"),
		call(200, "GET", list+"/"+ids[2], key, nil),
		call(404, "GET", list+"/"+startedID, key, nil, fields(obj{"message": "Submission not found"})).named("an uncompleted session"),
		call(404, "GET", list+"/no-such-submission", key, nil))

	// ---- export
	export := list + "/export"
	disposition := func(ext string) string {
		return fmt.Sprintf(`attachment; filename="form-%d-responses.%s"`, wireID(t, f["id"]), ext)
	}
	table = append(table,
		call(200, "GET", export+"?format=csv&order=asc", key, nil, func(t *testing.T, r *servertest.Response) {
			rows, err := csv.NewReader(bytes.NewReader(r.Body)).ReadAll()
			if err != nil {
				t.Fatalf("CSV export: %v", err)
			}
			header := []string{"id", "submittedAt", "score", "Plan", "Name", "Seats", "Features", "Rating", "Screenshot", "Start", "Renew?"}
			if len(rows) != 4 || !slices.Equal(rows[0], header) || rows[1][0] != ids[0] || rows[1][1] != first["submittedAt"] ||
				rows[1][2] != "2.5" || rows[1][6] != "API, SSO" || !strings.Contains(rows[1][8], "/files/") || rows[1][10] != "Yes" ||
				rows[3][4] != "'=1+2" || rows[3][10] != "No" || rows[2][5] != "" {
				t.Errorf("CSV export:\n%s", r.Body)
			}
		}).headers(map[string]string{"Content-Type": "text/csv; charset=utf-8", "Content-Disposition": disposition("csv")}).named("CSV"),
		call(200, "GET", export, key, nil, contentType("text/csv")).named("CSV is the default format"),
		call(200, "GET", export+"?format=csv&since=2999-01-01T00:00:00Z", key, nil),
		call(200, "GET", export+"?format=json&since="+second, key, nil, func(t *testing.T, r *servertest.Response) {
			var exported []obj
			if err := json.Unmarshal(r.Body, &exported); err != nil {
				t.Fatalf("JSON export: %v", err)
			}
			if len(exported) != 2 || exported[0]["id"] != ids[2] || exported[1]["score"] != 1.0 {
				t.Errorf("JSON export: %v", exported)
			}
		}).headers(map[string]string{"Content-Disposition": disposition("json")}).named("JSON"),
		call(200, "GET", export+"?format=json&order=asc&until=2000-01-01T00:00:00Z", key, nil, func(t *testing.T, r *servertest.Response) {
			if strings.TrimSpace(string(r.Body)) != "[]" {
				t.Errorf("empty JSON export: %q", r.Body)
			}
		}).named("empty JSON"))
	for _, q := range []string{"format=xml", "format=CSV", "order=up", "since=x", "until=2026-01-01"} {
		table = append(table, call(400, "GET", export+"?"+q, key, nil))
	}
	response := func(i int, m obj) obj { return m["responses"].([]any)[i].(obj) }
	table = append(table, call(200, "GET", list, key, nil, c.detects(
		drift{name: "extra item field", body: func(m obj) { response(0, m)["extra"] = 1 }},
		drift{name: "missing submittedAt", body: func(m obj) { delete(response(0, m), "submittedAt") }},
		drift{name: "score as text", body: func(m obj) { response(0, m)["score"] = "high" }},
		drift{name: "id as number", body: func(m obj) { response(0, m)["id"] = 5 }},
		drift{name: "file without url", body: func(m obj) { delete(response(2, m)["data"].(obj)["Screenshot"].(obj), "url") }},
		drift{name: "object answer", body: func(m obj) { response(0, m)["data"].(obj)["Name"] = obj{"x": 1} }},
		drift{name: "mixed array answer", body: func(m obj) { response(2, m)["data"].(obj)["Features"] = []any{"API", 2} }},
		drift{name: "hasMore missing", body: func(m obj) { delete(m, "hasMore") }},
		drift{name: "negative total", body: func(m obj) { m["total"] = -1 }},
		drift{name: "data not an object", body: func(m obj) { response(0, m)["data"] = []any{} }},
		drift{name: "submittedAt not dated", body: func(m obj) { response(0, m)["submittedAt"] = 5 }},
	)).named("drift from the list is detected"))

	// ---- delete
	c.run(t, append(table,
		call(204, "DELETE", list+"/"+ids[1], key, nil).named("delete"),
		call(404, "GET", list+"/"+ids[1], key, nil, fields(obj{"message": "Submission not found"})).named("get the deleted"),
		call(404, "DELETE", list+"/"+ids[1], key, nil).named("delete again"),
		call(200, "GET", list, key, nil, fields(obj{"total": 2})).named("the list after a delete")))
}

// conformWebhookRefusals drives the webhook operations on a server that refuses
// private addresses, on a form with no webhook configured.
func conformWebhookRefusals(t *testing.T, s *suite) {
	c := s.start(t)
	key := c.env.NewKey()
	hook := formPath(createForm(t, c.env, key, obj{"title": "No webhook"})) + "/webhook"
	table := []row{
		call(200, "GET", hook+"/status", key, nil, fields(obj{"enabled": false, "url": nil, "lastDelivery": nil})).named("status without a webhook"),
		call(200, "GET", hook+"/logs", key, nil, fields(obj{"total": 0, "limit": 20}), itemCount("logs", 0)).named("logs without deliveries"),
		call(200, "GET", hook+"/logs?limit=100&offset=3", key, nil),
	}
	for _, q := range []string{"limit=0", "limit=101", "limit=x", "offset=-1"} {
		table = append(table, call(400, "GET", hook+"/logs?"+q, key, nil))
	}
	// No URL given and none configured; refused URLs; bodies that are not valid.
	table = append(table, call(400, "POST", hook+"/test", key, nil).named("test with no URL configured"))
	for _, body := range []string{`{}`, `{"url": ""}`, `{"url": null}`, `{"url": "http://127.0.0.1:9/hook"}`,
		`{"url": "http://localhost/hook"}`, `{"url": "http://[::1]/hook"}`, `{"url": "ftp://hooks.example.org/x"}`,
		`{"url": "https://hooks.example.org/` + strings.Repeat("a", 2000) + `"}`, `{"url": 5}`,
		`{"url": "https://hooks.example.org/x", "extra": 1}`, `{"url": "https://hooks.example.org/x"`, ` `} {
		table = append(table, call(400, "POST", hook+"/test", key, body))
	}
	var secret string
	c.run(t, append(table,
		call(400, "POST", hook+"/test", key, `{"url": "https://hooks.example.org/x"}`).header("Content-Type", "text/plain"),
		call(200, "POST", hook+"/secret", key, nil, func(t *testing.T, r *servertest.Response) { secret, _ = r.JSON(t)["secret"].(string) }).named("a secret"),
		call(200, "POST", hook+"/secret", key, nil, func(t *testing.T, r *servertest.Response) {
			if again := r.JSON(t)["secret"]; again == secret || !strings.HasPrefix(secret, "whsec_") {
				t.Errorf("secrets %v then %v", secret, again)
			}
		}).named("another secret")))
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
func (c *conformance) checkDelivery(t *testing.T, d delivery, secrets ...string) obj {
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

// conformWebhookDeliveries delivers real submissions to local receivers, on a server
// that allows private webhook addresses, and drives logs, status, test and secret.
// Its table is a sequence: each delivery adds to the log.
func conformWebhookDeliveries(t *testing.T, s *suite) {
	c := s.start(t, func(cfg *config.Config) { cfg.AllowPrivateWebhooks = true })
	key := c.env.NewKey()
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

	f := c.create(t, key, obj{"title": "Hooked", "questions": []obj{
		{"question": "Name", "required": true}, {"type": "file_upload", "question": "Attachment"}, {"type": "yes_no", "question": "Agree?"}}})
	fp := formPath(f)
	hook := fp + "/webhook"
	q := questionIDs(t, f)
	share := f["shareUrl"].(string)

	// deliver submits answers, checks the delivery the receiver gets (unless received
	// is nil: nothing reaches it) and waits until the log has n entries.
	var secret1 string
	deliver := func(t *testing.T, n int, answers obj, received func(sid string, payload obj)) {
		sid := submit(t, c.env, share, answers)
		if received != nil {
			received(sid, c.checkDelivery(t, recv.next(t), secret1))
		}
		for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if r := c.env.For(t).Do(http.MethodGet, hook+"/logs", key, nil); r.Status == 200 && r.JSON(t)["total"] == float64(n) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the delivery log never reached %d entries", n)
			}
		}
	}
	var sid1, sid2 string
	logs := func(t *testing.T, r *servertest.Response) obj { return items(t, r.JSON(t), "logs")[0] }
	last := func(t *testing.T, r *servertest.Response) obj { l, _ := r.JSON(t)["lastDelivery"].(obj); return l }
	entry := func(i int, m obj) obj { return m["logs"].([]any)[i].(obj) }
	var secret2 string
	c.run(t, []row{
		call(200, "POST", fp+"/publish", key, nil),
		call(200, "POST", hook+"/secret", key, nil, func(t *testing.T, r *servertest.Response) { secret1, _ = r.JSON(t)["secret"].(string) }),
		call(200, "PATCH", fp, key, obj{"webhookUrl": recv.URL + "/hook", "webhookEnabled": true}).named("configure the webhook"),
		call(200, "GET", hook+"/status", key, nil, fields(obj{"enabled": true, "url": recv.URL + "/hook", "lastDelivery": nil})).named("status before the first delivery"),

		call(200, "GET", hook+"/logs", key, nil, func(t *testing.T, r *servertest.Response) {
			if e := logs(t, r); e["status"] != "success" || e["responseCode"] != 200.0 || e["errorMessage"] != nil ||
				e["sessionId"] != sid1 || e["webhookUrl"] != recv.URL+"/hook" {
				t.Errorf("log entry of a success: %v", e)
			}
		}).before(func(t *testing.T, _ *scenario) {
			fileID := uploadFile(t, c.env, share, "proof.png", pngImage(t))
			deliver(t, 1, obj{q[0]: "Ada", q[1]: fileID, q[2]: true}, func(sid string, p obj) {
				sid1 = sid
				data, _ := p["data"].(obj)
				file, _ := data["Attachment"].(obj)
				if p["submission_id"] != sid1 || p["form_name"] != "Hooked" || p["form_id"] != f["id"] || data["Name"] != "Ada" ||
					data["Agree?"] != true || file["name"] != "proof.png" {
					t.Errorf("payload: %v", p)
				}
			})
		}).named("a delivery the receiver accepts"),
		call(200, "GET", hook+"/status", key, nil, func(t *testing.T, r *servertest.Response) {
			if l := last(t, r); l == nil || l["status"] != "success" || l["responseCode"] != 200.0 || l["error"] != nil {
				t.Errorf("lastDelivery after a success: %v", l)
			}
		}).named("status after a success"),
		call(200, "GET", fp+"/responses", key, nil, itemCount("responses", 1), func(t *testing.T, r *servertest.Response) {
			if l := items(t, r.JSON(t), "responses"); len(l) == 1 {
				if _, ok := l[0]["score"]; ok {
					t.Errorf("score on a form without scoring: %v", l[0])
				}
			}
		}).named("the response has no score"),

		call(200, "GET", hook+"/logs", key, nil, func(t *testing.T, r *servertest.Response) {
			if e := logs(t, r); e["status"] != "failed" || e["responseCode"] != 500.0 || e["errorMessage"] == nil || e["sessionId"] != sid2 {
				t.Errorf("log entry of a failure: %v", e)
			}
		}).before(func(t *testing.T, _ *scenario) {
			recv.status.Store(http.StatusInternalServerError)
			defer recv.status.Store(http.StatusOK)
			deliver(t, 2, obj{q[0]: "Bo"}, func(sid string, _ obj) { sid2 = sid })
		}).named("a receiver that answers 500"),

		call(200, "PATCH", fp, key, obj{"webhookUrl": closed}).named("a URL nothing answers"),
		call(200, "GET", hook+"/logs", key, nil, func(t *testing.T, r *servertest.Response) {
			if e := logs(t, r); e["status"] != "error" || e["responseCode"] != 0.0 || e["errorMessage"] == nil || e["webhookUrl"] != closed {
				t.Errorf("log entry of an error: %v", e)
			}
		}).before(func(t *testing.T, _ *scenario) { deliver(t, 3, obj{q[0]: "Cy"}, nil) }).named("no HTTP answer"),
		call(200, "GET", hook+"/status", key, nil, fields(obj{"url": closed}), func(t *testing.T, r *servertest.Response) {
			if l := last(t, r); l["status"] != "error" || l["responseCode"] != 0.0 || l["error"] == nil {
				t.Errorf("lastDelivery after an error: %v", l)
			}
		}).named("status after an error"),
		call(200, "GET", hook+"/logs?limit=1&offset=1", key, nil, fields(obj{"hasMore": true, "total": 3}), func(t *testing.T, r *servertest.Response) {
			if e := logs(t, r); e["sessionId"] != sid2 {
				t.Errorf("second page of the log: %v", e)
			}
		}),
		call(200, "GET", hook+"/logs", key, nil, c.detects(
			drift{name: "unknown status", body: func(m obj) { entry(0, m)["status"] = "pending" }},
			drift{name: "response code as text", body: func(m obj) { entry(1, m)["responseCode"] = "500" }},
			drift{name: "errorMessage missing", body: func(m obj) { delete(entry(2, m), "errorMessage") }},
			drift{name: "extra field", body: func(m obj) { entry(0, m)["duration"] = 3 }},
		)).named("drift from the log is detected"),
		call(200, "GET", hook+"/status", key, nil, c.detects(
			drift{name: "lastDelivery as text", body: func(m obj) { m["lastDelivery"] = "never" }},
			drift{name: "attemptedAt missing", body: func(m obj) { delete(m["lastDelivery"].(obj), "attemptedAt") }},
			drift{name: "enabled missing", body: func(m obj) { delete(m, "enabled") }},
		)).named("drift from the status is detected"),

		// Test deliveries: success, a receiver's failure, no answer; none is logged.
		call(200, "POST", hook+"/test", key, obj{"url": recv.URL + "/test"}, fields(obj{"success": true, "statusCode": 200, "error": nil}),
			func(t *testing.T, r *servertest.Response) {
				if p := c.checkDelivery(t, recv.next(t), secret1); !strings.HasPrefix(fmt.Sprint(p["submission_id"]), "test_") || p["form_id"] != f["id"] {
					t.Errorf("test payload: %v", p)
				}
			}).named("test a working receiver"),
		call(200, "POST", hook+"/test", key, obj{"url": failing.URL}, fields(obj{"success": false, "statusCode": 500}), func(t *testing.T, r *servertest.Response) {
			if r.JSON(t)["error"] == nil {
				t.Error("no error")
			}
		}).named("test a failing receiver"),
		call(200, "POST", hook+"/test", key, nil, fields(obj{"success": false, "statusCode": 0}), func(t *testing.T, r *servertest.Response) {
			if r.JSON(t)["error"] == nil {
				t.Error("no error")
			}
		}).named("test the configured, closed port"),
		call(200, "POST", hook+"/test", key, obj{}),
		call(200, "POST", hook+"/test", key, `{"url": null}`).header("Content-Type", "application/json; charset=utf-8"),
		call(400, "POST", hook+"/test", key, obj{"url": "gopher://127.0.0.1/x"}),
		call(200, "GET", hook+"/logs", key, nil, fields(obj{"total": 3})).named("test deliveries are not logged"),
		call(200, "GET", hook+"/status", key, nil, func(t *testing.T, r *servertest.Response) {
			if l := last(t, r); l["status"] != "error" {
				t.Errorf("a test delivery changed lastDelivery: %v", l)
			}
		}).named("test deliveries leave lastDelivery"),

		// After a rotation the previous secret signs too.
		call(200, "POST", hook+"/secret", key, nil, func(t *testing.T, r *servertest.Response) { secret2, _ = r.JSON(t)["secret"].(string) }).named("rotate the secret"),
		call(200, "POST", hook+"/test", key, obj{"url": recv.URL + "/rotated"}, func(t *testing.T, r *servertest.Response) {
			c.checkDelivery(t, recv.next(t), secret2, secret1)
		}).named("both secrets sign"),

		// Redelivery: the failed delivery (the second entry) again, to the URL it
		// went to, which now accepts it; a new entry, the old one kept.
		call(200, "POST", hook+"/logs/0/redeliver", key, nil, func(t *testing.T, r *servertest.Response) {
			e := r.JSON(t)
			if e["status"] != "success" || e["responseCode"] != 200.0 || e["sessionId"] != sid2 || e["webhookUrl"] != recv.URL+"/hook" {
				t.Errorf("the redelivery's entry: %v", e)
			}
			d := recv.next(t)
			if p := c.checkDelivery(t, d, secret2, secret1); p["submission_id"] != sid2 || d.header.Get("webhook-id") != sid2 {
				t.Errorf("redelivered payload %v, webhook-id %q", p, d.header.Get("webhook-id"))
			}
		}).before(func(t *testing.T, sc *scenario) {
			r := c.env.For(t).Do(http.MethodGet, hook+"/logs", key, nil)
			sc.Path = fmt.Sprintf("%s/logs/%v/redeliver", hook, entry(1, r.JSON(t))["id"])
		}).named("redeliver a failed delivery"),
		call(200, "GET", hook+"/logs", key, nil, fields(obj{"total": 4}), func(t *testing.T, r *servertest.Response) {
			if e := logs(t, r); e["status"] != "success" || e["sessionId"] != sid2 {
				t.Errorf("newest entry after the redelivery: %v", e)
			}
		}).named("the redelivery is a new log entry"),
		call(404, "POST", hook+"/logs/999999/redeliver", key, nil).named("redeliver an unknown entry"),
	})
}

// conformAI drives generation, analytics and chat with the built-in provider on a
// server whose free plan has 21 credits: one generation (5), one analysis (10) and
// three chat messages (2 each) use them up, after which every AI operation is
// refused with 402 and nothing is charged, created or stored. Its tables are a
// sequence: each charge spends credits.
func conformAI(t *testing.T, s *suite) {
	c := s.start(t, withAllowances("free=21"))
	acct := c.env.Account("free")
	key := c.env.Key(acct, nil, nil)
	generate := apiPrefix + "/forms/generate"

	// ---- generate
	prompt := obj{"prompt": "a job application form asking for name, email, phone, years of experience, a resume upload and how they heard about us (LinkedIn, a friend, a job board)"}
	var g obj
	c.run(t, []row{
		call(201, "POST", generate, key, prompt, into(&g), fields(obj{"isPublished": false, "publishedAt": nil}), func(t *testing.T, r *servertest.Response) {
			qs := items(t, g, "questions")
			if g["title"] == "" || len(qs) < 5 {
				t.Errorf("generated form: %v", g)
			}
			for _, q := range qs {
				checkQuestionShape(t, q)
			}
		}).charged(5, 16).named("generate a form"),
	})
	if g == nil {
		t.Fatal("no form was generated")
	}
	f := c.create(t, key, obj{"title": "Café feedback", "questions": []obj{
		{"type": "select", "question": "How did you hear about us?", "required": true, "options": []string{"Search", "A friend"}},
		{"type": "rating", "question": "Rating", "required": true},
		{"type": "textarea", "question": "Comments"},
	}})
	generated, fp := formPath(g), formPath(f)
	table := []row{call(200, "GET", generated, key, nil, func(t *testing.T, r *servertest.Response) {
		sameJSON(t, "generated form", r.JSON(t), g)
	}).named("the generated form as stored")}
	for _, body := range []string{
		`{}`, `{"prompt": null}`, `{"prompt": ""}`, `{"prompt": "   "}`, `{"prompt": "asdf qwer"}`, `{"prompt": "?!"}`,
		`{"prompt": 5}`, `{"prompt": "a contact form", "title": "x"}`, `{"prompt": "a contact form"`, `[]`, ` `,
		`{"prompt": "a contact form with ` + strings.Repeat("x ", 2500) + `"}`,
	} {
		table = append(table, call(400, "POST", generate, key, body).charged(0, 16))
	}
	gID := wireID(t, g["id"])
	c.run(t, append(table,
		call(400, "POST", generate, key, `{"prompt": "a contact form"}`).header("Content-Type", "text/plain"),
		call(400, "POST", generate, key, nil).named("generate without a body"),
		call(403, "POST", generate, c.env.Key(acct, nil, &gID), prompt).named("generate with a form-scoped key"),
		call(200, "POST", fp+"/publish", key, nil)))

	// ---- three completed submissions and one started session
	q := questionIDs(t, f)
	share := f["shareUrl"].(string)
	submit(t, c.env, share, obj{q[0]: "Search", q[1]: 5, q[2]: "Great coffee and lovely staff"})
	submit(t, c.env, share, obj{q[0]: "A friend", q[1]: 4, q[2]: "Good, but the service was slow"})
	submit(t, c.env, share, obj{q[0]: "Search", q[1]: 2})
	expectStatus(t, c.env.Do("POST", "/f/"+share+"/sessions", "", nil), 201)

	// ---- analytics, and the conversations
	var a, first, second obj
	chat := fp + "/chat"
	insights := func(m obj) obj { return m["insights"].(obj) }
	c.run(t, []row{
		call(404, "GET", fp+"/analytics", key, nil, func(t *testing.T, r *servertest.Response) {
			if msg, _ := r.JSON(t)["message"].(string); !strings.Contains(msg, "generate") {
				t.Errorf("message %q", msg)
			}
		}).named("analytics before the first generation"),
		call(200, "POST", fp+"/analytics/generate", key, nil, into(&a), fields(obj{"formId": f["id"], "totalResponses": 3, "completionRate": 75}),
			func(t *testing.T, r *servertest.Response) {
				ins, _ := a["insights"].(obj)
				km, _ := ins["keyMetrics"].(obj)
				if ins["summary"] == "" || !strings.Contains(fmt.Sprint(km["responseRate"]), "75") ||
					!strings.Contains(fmt.Sprint(km["topAnswer"]), "Search") || km["sentiment"] == nil {
					t.Errorf("analytics: %v", a)
				}
			}).charged(10, 6).named("generate analytics"),
		call(200, "GET", fp+"/analytics", key, nil, func(t *testing.T, r *servertest.Response) { sameJSON(t, "stored analytics", r.JSON(t), a) }).named("the stored analytics"),
		call(404, "GET", generated+"/analytics", key, nil).named("analytics never generated"),
		call(200, "GET", fp+"/analytics", key, nil, c.detects(
			drift{name: "completionRate as text", body: func(m obj) { m["completionRate"] = "75%" }},
			drift{name: "completionRate over 100", body: func(m obj) { m["completionRate"] = 750 }},
			drift{name: "sentiment missing", body: func(m obj) { delete(insights(m)["keyMetrics"].(obj), "sentiment") }},
			drift{name: "key metric as a number", body: func(m obj) { insights(m)["keyMetrics"].(obj)["startedSessions"] = 4 }},
			drift{name: "insights as text", body: func(m obj) { insights(m)["insights"] = "none" }},
			drift{name: "lastAnalyzed missing", body: func(m obj) { delete(m, "lastAnalyzed") }},
			drift{name: "extra field", body: func(m obj) { m["model"] = "builtin" }},
		)).named("drift from the analytics is detected"),
		call(200, "GET", chat, key, nil, fields(obj{"total": 0, "limit": 20, "hasMore": false}), itemCount("conversations", 0)).named("conversations before the first"),
		call(201, "POST", chat, key, nil, into(&first), func(t *testing.T, r *servertest.Response) {
			if first["formId"] != f["id"] || first["createdAt"] != first["updatedAt"] {
				t.Errorf("new conversation: %v", first)
			}
		}).named("start a conversation"),
		call(201, "POST", chat, key, ``, into(&second)).before(func(*testing.T, *scenario) { time.Sleep(5 * time.Millisecond) }).named("start another"),
	})
	if first == nil || second == nil {
		t.Fatal("the conversations the next table uses were not started")
	}
	firstPath := fmt.Sprintf("%s/%d", chat, wireID(t, first["id"]))
	secondPath := fmt.Sprintf("%s/%d", chat, wireID(t, second["id"]))

	// ---- messages
	var ex1, ex2 obj
	ask := func(question string, remaining int, cs ...check) row {
		exchange := func(t *testing.T, r *servertest.Response) {
			ex := r.JSON(t)
			u, _ := ex["userMessage"].(obj)
			as, _ := ex["assistantMessage"].(obj)
			if u["role"] != "user" || u["message"] != question || as["role"] != "assistant" || as["message"] == "" || wireID(t, as["id"]) <= wireID(t, u["id"]) {
				t.Errorf("exchange: %v", ex)
			}
		}
		return call(201, "POST", firstPath+"/messages", key, obj{"message": question}, append([]check{exchange}, cs...)...).
			charged(2, remaining).named("ask " + clipName(question))
	}
	swap := func(m obj) { m["userMessage"], m["assistantMessage"] = m["assistantMessage"], m["userMessage"] }
	message := func(i int, m obj) obj { return m["messages"].([]any)[i].(obj) }
	conversation := func(i int, m obj) obj { return m["conversations"].([]any)[i].(obj) }
	table = []row{
		ask("How many responses are there?", 4, into(&ex1), func(t *testing.T, r *servertest.Response) {
			if answer, _ := ex1["assistantMessage"].(obj)["message"].(string); !strings.Contains(answer, "3") {
				t.Errorf("answer about the number of responses: %q", answer)
			}
		}, c.detects(drift{name: "swapped roles", body: swap})).before(func(*testing.T, *scenario) { time.Sleep(5 * time.Millisecond) }),
		ask("What is the average rating?", 2, into(&ex2)),
		ask(strings.Repeat("é", 5000), 0), // 5000 characters, 10000 bytes
	}
	for _, body := range []string{
		`{}`, `{"message": null}`, `{"message": ""}`, `{"message": 5}`, `{"message": "` + strings.Repeat("é", 5001) + `"}`,
		`{"message": "hi", "extra": 1}`, `{"message": "hi"`, ` `, `[]`,
	} {
		table = append(table, call(400, "POST", firstPath+"/messages", key, body).charged(0, 0))
	}
	table = append(table,
		call(400, "POST", firstPath+"/messages", key, `{"message": "hi"}`).header("Content-Type", "text/plain"),
		call(400, "POST", firstPath+"/messages", key, nil).named("ask without a body"),
		call(200, "GET", firstPath+"/messages", key, nil, fields(obj{"total": 6, "limit": 50, "offset": 0, "hasMore": false}), func(t *testing.T, r *servertest.Response) {
			list := items(t, r.JSON(t), "messages")
			if len(list) != 6 {
				t.Fatalf("%d messages", len(list))
			}
			for i, m := range list {
				if want := []string{"user", "assistant"}[i%2]; m["role"] != want || i > 0 && wireID(t, m["id"]) <= wireID(t, list[i-1]["id"]) {
					t.Errorf("messages are not chronological: %v", list)
					break
				}
			}
			sameJSON(t, "first message", list[0], ex1["userMessage"])
			sameJSON(t, "fourth message", list[3], ex2["assistantMessage"])
		}).named("the messages"),
		call(200, "GET", firstPath+"/messages?limit=2&offset=2", key, nil, fields(obj{"hasMore": true, "limit": 2}), func(t *testing.T, r *servertest.Response) {
			if p := items(t, r.JSON(t), "messages"); len(p) != 2 || p[0]["id"] != ex2["userMessage"].(obj)["id"] {
				t.Errorf("second page of messages: %v", p)
			}
		}),
		call(200, "GET", firstPath+"/messages?limit=100&offset=6", key, nil),
		call(200, "GET", secondPath+"/messages", key, nil, fields(obj{"total": 0}), itemCount("messages", 0)).named("the messages of an empty conversation"))
	for _, q := range []string{"limit=0", "limit=101", "limit=x", "offset=-1", "offset=1.5"} {
		table = append(table, call(400, "GET", firstPath+"/messages?"+q, key, nil))
	}
	table = append(table,
		call(200, "GET", chat, key, nil, fields(obj{"total": 2}), func(t *testing.T, r *servertest.Response) {
			convs := items(t, r.JSON(t), "conversations")
			if len(convs) != 2 || convs[0]["id"] != first["id"] || convs[1]["id"] != second["id"] ||
				convs[0]["updatedAt"].(string) <= convs[1]["updatedAt"].(string) || convs[0]["createdAt"] != first["createdAt"] {
				t.Errorf("conversations, most recently updated first: %v", convs)
			}
		}).named("the conversations"),
		call(200, "GET", chat+"?limit=1&offset=1", key, nil, fields(obj{"hasMore": false}), func(t *testing.T, r *servertest.Response) {
			if p := items(t, r.JSON(t), "conversations"); len(p) != 1 || p[0]["id"] != second["id"] {
				t.Errorf("second page of conversations: %v", p)
			}
		}),
		call(200, "GET", chat+"?limit=1", key, nil, fields(obj{"hasMore": true})),
		call(200, "GET", chat+"?limit=50&offset=0", key, nil))
	for _, q := range []string{"limit=0", "limit=51", "limit=x", "offset=-1"} {
		table = append(table, call(400, "GET", chat+"?"+q, key, nil))
	}
	table = append(table,
		call(200, "GET", chat, key, nil, c.detects(
			drift{name: "updatedAt missing", body: func(m obj) { delete(conversation(0, m), "updatedAt") }},
			drift{name: "formId as text", body: func(m obj) { conversation(1, m)["formId"] = "7" }},
			drift{name: "total missing", body: func(m obj) { delete(m, "total") }},
		)).named("drift from the conversations is detected"),
		call(200, "GET", firstPath+"/messages", key, nil, c.detects(
			drift{name: "unknown role", body: func(m obj) { message(0, m)["role"] = "system" }},
			drift{name: "message missing", body: func(m obj) { delete(message(1, m), "message") }},
			drift{name: "extra field", body: func(m obj) { message(2, m)["tokens"] = 12 }},
			drift{name: "id as text", body: func(m obj) { message(3, m)["id"] = "m4" }},
		)).named("drift from the messages is detected"))

	// ---- out of credits: every AI operation is refused before any work
	for _, x := range []struct {
		path string
		body any
	}{{generate, prompt}, {fp + "/analytics/generate", nil}, {firstPath + "/messages", obj{"message": "And now?"}}} {
		table = append(table, call(402, "POST", x.path, key, x.body, apiError("insufficient_credits", "credits")).charged(0, 0).
			named("out of credits: POST "+strings.TrimPrefix(x.path, apiPrefix)))
	}
	table = append(table,
		call(200, "GET", apiPrefix+"/usage/history", key, nil, func(t *testing.T, r *servertest.Response) {
			var endpoints []string
			for _, e := range items(t, r.JSON(t), "history") {
				endpoints = append(endpoints, e["endpoint"].(string))
			}
			if want := []string{"chat.message", "chat.message", "chat.message", "analytics.generate", "forms.generate"}; !slices.Equal(endpoints, want) {
				t.Errorf("charges %v, want %v", endpoints, want)
			}
		}).named("the charges"),
		call(200, "GET", apiPrefix+"/usage", key, nil, fields(obj{"creditsRemaining": 0, "creditsMonthlyAllowance": 21})).named("no credits left"),
		call(200, "GET", apiPrefix+"/forms", key, nil, fields(obj{"total": 2})).named("no form for a refused generation"),
		call(200, "GET", firstPath+"/messages", key, nil, fields(obj{"total": 6})).named("no message for a refused one"),
		call(200, "GET", fp+"/analytics", key, nil, func(t *testing.T, r *servertest.Response) {
			sameJSON(t, "analytics after a refused generation", r.JSON(t), a)
		}).named("the analytics after a refused generation"),

		// ---- delete a conversation
		call(204, "DELETE", secondPath, key, nil).named("delete a conversation"),
		call(404, "GET", secondPath+"/messages", key, nil, fields(obj{"message": "Conversation not found"})).named("the deleted conversation"),
		call(404, "DELETE", secondPath, key, nil).named("delete it again"),
		call(404, "POST", secondPath+"/messages", key, obj{"message": "Hello?"}).named("ask in it"),
		call(200, "GET", chat, key, nil, fields(obj{"total": 1})).named("the conversations after a delete"))
	// A conversation is reached only through its form.
	elsewhere := fmt.Sprintf("%s/chat/%d", generated, wireID(t, first["id"]))
	c.run(t, append(table,
		call(404, "GET", elsewhere+"/messages", key, nil).named("a conversation through another form"),
		call(404, "DELETE", elsewhere, key, nil).named("delete a conversation through another form")))
}

// conformAIProviderFailure drives the AI operations on a server whose external
// provider answers every call with HTTP 500: each is a 502, and nothing is charged
// or stored.
func conformAIProviderFailure(t *testing.T, s *suite) {
	var calls atomic.Int32
	provider := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, `{"error": {"message": "the model crashed", "type": "server_error"}}`)
	}))
	t.Cleanup(provider.Close)
	c := s.start(t, func(cfg *config.Config) {
		cfg.AIProvider, cfg.AIBaseURL, cfg.AIModel, cfg.SubmitLimit = "openai", provider.URL+"/v1", "test", 0
	})
	key := c.env.NewKey()
	failed := func(r row) row {
		return r.charged(0, 100).named("provider down: " + r.Name)
	}
	providerError := apiError("ai_provider_error", "500")

	c.run(t, []row{
		failed(call(502, "POST", apiPrefix+"/forms/generate", key, obj{"prompt": "a contact form with name, email and message"}, providerError)),
		call(400, "POST", apiPrefix+"/forms/generate", key, obj{"prompt": " "}).named("a blank prompt is refused before the provider is asked"),
	})
	f := c.create(t, key, obj{"title": "Provider down", "questions": []obj{{"question": "Name", "required": true}}})
	fp := formPath(f)
	c.run(t, []row{call(200, "POST", fp+"/publish", key, nil)})
	submit(t, c.env, f["shareUrl"].(string), obj{questionIDs(t, f)[0]: "Ada"})
	var conv obj
	c.run(t, []row{
		failed(call(502, "POST", fp+"/analytics/generate", key, nil, providerError)),
		call(404, "GET", fp+"/analytics", key, nil).named("no analytics stored"),
		call(201, "POST", fp+"/chat", key, nil, into(&conv)),
	})
	if conv == nil {
		t.Fatal("no conversation")
	}
	messages := fmt.Sprintf("%s/chat/%d/messages", fp, wireID(t, conv["id"]))
	c.run(t, []row{
		failed(call(502, "POST", messages, key, obj{"message": "How many responses are there?"}, providerError)),
		call(200, "GET", messages, key, nil, fields(obj{"total": 0})).named("no message stored"),
		call(200, "GET", apiPrefix+"/forms", key, nil, fields(obj{"total": 1})).named("no form stored"),
		call(200, "GET", apiPrefix+"/usage/history", key, nil, fields(obj{"total": 0})).named("nothing charged"),
	})
	if n := calls.Load(); n < 3 {
		t.Errorf("the provider was called %d times, want at least 3", n)
	}
}

func conformUsage(t *testing.T, s *suite) {
	c := s.start(t)
	acct := c.env.Account("free")
	key := c.env.Key(acct, nil, nil)
	formID := wireID(t, createForm(t, c.env, key, obj{"title": "Scoped"})["id"])
	scoped := c.env.Key(acct, nil, &formID)
	history := apiPrefix + "/usage/history"
	table := []row{
		call(200, "GET", apiPrefix+"/usage", key, nil, fields(obj{"tier": "free", "rateLimitDaily": 1000, "creditsRemaining": 100})),
		call(200, "GET", apiPrefix+"/usage", scoped, nil).named("usage with a form-scoped key"),
		call(200, "GET", history, key, nil, fields(obj{"limit": 20, "total": 0})),
		call(200, "GET", history+"?limit=100&offset=5", scoped, nil),
	}
	for _, q := range []string{"limit=0", "limit=101", "offset=-1", "limit=x"} {
		table = append(table, call(400, "GET", history+"?"+q, key, nil))
	}
	c.run(t, table)
}

// everyOperation lists the operations the error tables drive; it must match the
// document.
var everyOperation = []struct{ method, path string }{
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
	{"POST", "/forms/{id}/duplicate"}, {"GET", "/forms/{id}/definition"}, {"POST", "/forms/import"},
	{"POST", "/forms/{id}/webhook/logs/{logId}/redeliver"}, {"GET", "/forms/{id}/notifications/logs"},
}

// validBodies are bodies the operations that take one accept.
var validBodies = map[string]string{
	"POST /forms": `{"title": "x"}`, "PATCH /forms/{id}": `{"title": "x"}`,
	"POST /forms/{id}/fields": `{"question": "x"}`, "PATCH /forms/{id}/fields/{fieldId}": `{"required": true}`,
	"POST /forms/{id}/webhook/test":                   `{"url": "https://hooks.example.org/forma"}`,
	"POST /forms/generate":                            `{"prompt": "a contact form with name, email and message"}`,
	"POST /forms/{id}/chat/{conversationId}/messages": `{"message": "How many responses are there?"}`,
	"POST /forms/import":                              `{"formaDefinition": 1, "title": "x"}`,
}

// operationCall is a row for the operation on the path it fills in, with a valid body
// for the operations that take one.
func operationCall(status int, method, pattern, key string, formID, fieldID, conversationID any) row {
	path := apiPrefix + strings.NewReplacer("{id}", fmt.Sprint(formID), "{fieldId}", fmt.Sprint(fieldID),
		"{conversationId}", fmt.Sprint(conversationID), "{submissionId}", "no-such-submission",
		"{logId}", fmt.Sprint(fieldID)).Replace(pattern)
	var body any
	if b, ok := validBodies[method+" "+pattern]; ok {
		body = b
	}
	return call(status, method, path, key, body).named(fmt.Sprintf("%s %s → %d", method, strings.TrimPrefix(path, apiPrefix), status))
}

// conformErrors produces the error statuses every operation documents: 401 for
// missing, unknown and malformed keys, 403 for a form-scoped key on another form,
// 404 for what does not exist or belongs to another account, 400 for malformed ids
// and out-of-range limits, 413 for bodies over 1 MiB.
func conformErrors(t *testing.T, s *suite) {
	c := s.start(t)
	acct := c.env.Account("free")
	key := c.env.Key(acct, nil, nil)
	otherKey := c.env.Key(c.env.Account("builder"), nil, nil)
	f1 := createForm(t, c.env, key, obj{"title": "First", "questions": []obj{{"type": "email", "question": "Email"}}})
	f2 := createForm(t, c.env, key, obj{"title": "Second", "questions": []obj{{"question": "Only one"}}})
	form1, form2, formB := wireID(t, f1["id"]), wireID(t, f2["id"]), wireID(t, createForm(t, c.env, otherKey, obj{"title": "Another account's"})["id"])
	qEmail, q2 := wireID(t, items(t, f1, "questions")[0]["id"]), wireID(t, items(t, f2, "questions")[0]["id"])
	scoped := c.env.Key(acct, nil, &form1)
	var conv1, conv2 obj
	c.run(t, []row{
		call(201, "POST", formPath(f1)+"/chat", scoped, nil, into(&conv1)).named("a conversation on the first form"),
		call(201, "POST", formPath(f2)+"/chat", key, nil, into(&conv2)).named("a conversation on the second form"),
	})
	if conv1 == nil || conv2 == nil {
		t.Fatal("the conversations the next table uses were not started")
	}
	c1, c2 := wireID(t, conv1["id"]), wireID(t, conv2["id"])
	docOps := keyOperations(c.doc)
	if len(everyOperation) != len(docOps) {
		t.Fatalf("the test drives %d operations, the document has %d", len(everyOperation), len(docOps))
	}
	unknownKey, _, _, err := auth.NewKey()
	if err != nil {
		t.Fatal(err)
	}
	bigBody := []byte(`{"title": "` + strings.Repeat("x", 1<<20) + `"}`)
	var table []row
	for _, o := range everyOperation {
		name := o.method + " " + o.path
		op := docOps[name]
		if op == nil {
			t.Fatalf("%s is not in the document", name)
		}
		has := func(status int) bool { return op.Responses.Status(status) != nil }
		on := func(status int, key string, formID, fieldID, conversationID any) {
			table = append(table, operationCall(status, o.method, o.path, key, formID, fieldID, conversationID))
		}
		on(401, "", form2, q2, c2)
		on(401, unknownKey, form2, q2, c2)
		on(401, "not-a-key", form2, q2, c2)
		if has(403) { // a form-scoped key on another form of its account (or creating one)
			on(403, scoped, form2, q2, c2)
		}
		if has(404) {
			on(404, key, 999999999, q2, c2)
			on(404, scoped, formB, q2, c2)
			if strings.Contains(o.path, "{fieldId}") || strings.Contains(o.path, "{logId}") {
				on(404, key, form2, 999999999, c2)
			}
			if strings.Contains(o.path, "{conversationId}") {
				on(404, key, form2, q2, 999999999)
				on(404, key, form2, q2, c1) // another form's
			}
			if strings.Contains(o.path, "{submissionId}") {
				on(404, key, form2, q2, c2)
			}
		}
		if has(400) {
			switch {
			case strings.Contains(o.path, "{fieldId}"):
				on(400, key, form2, 0, c2)
				on(400, key, "x", q2, c2)
			case strings.Contains(o.path, "{logId}"): // the log entry's id fills in as fieldId's
				on(400, key, form2, "x", c2)
				on(400, key, "x", 1, c2)
			case strings.Contains(o.path, "{conversationId}"):
				on(400, key, form2, q2, 0)
				on(400, key, form2, q2, "abc")
				on(400, key, "x", q2, c2)
			case strings.Contains(o.path, "{id}"):
				on(400, key, 0, 0, 0)
				on(400, key, "1e3", 0, 0)
			}
			for _, p := range op.Parameters {
				if p.Value.Name != "limit" {
					continue
				}
				// The documented bounds and default are the server's.
				schema := p.Value.Schema.Value
				maxLimit := int(*schema.Max)
				path := operationCall(200, o.method, o.path, key, form1, qEmail, c1).Path
				table = append(table,
					call(400, o.method, fmt.Sprintf("%s?limit=%d", path, maxLimit+1), key, nil),
					call(200, o.method, fmt.Sprintf("%s?limit=%d", path, maxLimit), key, nil, fields(obj{"limit": maxLimit})),
					call(200, o.method, path, key, nil, fields(obj{"limit": schema.Default})).named(name+" has the documented default limit"))
			}
		}
		if has(413) {
			r := operationCall(413, o.method, o.path, key, form2, q2, c2)
			r.Body = bigBody
			table = append(table, r.named(name+" with a body over 1 MiB"))
		}
	}
	c.run(t, append(table, call(400, "POST", formPath(f1)+"/fields", key, `{"question": "x"`)))
}

// conformDailyLimit spends the 100 requests of a limited key, each answer counting
// down, then gets 429 from every operation.
func conformDailyLimit(t *testing.T, s *suite) {
	c := s.start(t)
	key := c.env.NewKey()
	f := createForm(t, c.env, key, obj{"title": "Limited", "questions": []obj{{"type": "email", "question": "Email"}}})
	conv := c.env.Do("POST", formPath(f)+"/chat", key, nil)
	expectStatus(t, conv, 201)
	limited := 100
	rateKey := c.env.Key(c.env.Account("scale"), &limited, nil)
	formID, fieldID, conversationID := f["id"], items(t, f, "questions")[0]["id"], conv.JSON(t)["id"]
	var table []row
	for i := range limited {
		table = append(table, call(200, "GET", apiPrefix+"/usage", rateKey, nil).
			headers(map[string]string{"X-RateLimit-Remaining": strconv.Itoa(limited - i - 1)}).named(fmt.Sprintf("request %d", i+1)))
	}
	for _, o := range everyOperation {
		r := operationCall(429, o.method, o.path, rateKey, formID, fieldID, conversationID)
		r.Check = fields(obj{"tier": "scale", "upgradeUrl": "/settings/billing"})
		table = append(table, r.headers(map[string]string{"X-RateLimit-Remaining": "0"}))
	}
	c.run(t, table)
}

// conformDrift proves that the validation fails when a response departs from the
// document: an extra field, a missing header, a wrong type, an undocumented status
// or error code.
func conformDrift(t *testing.T, s *suite) {
	c := s.start(t)
	key := c.env.NewKey()
	path := formPath(createForm(t, c.env, key, fullForm))
	question := func(m obj) obj { return m["questions"].([]any)[0].(obj) }
	c.run(t, []row{call(200, "GET", path, key, nil, c.detects(
		drift{name: "extra field", body: func(m obj) { m["extra"] = 1 }},
		drift{name: "missing field", body: func(m obj) { delete(m, "shareUrl") }},
		drift{name: "questions missing", body: func(m obj) { delete(m, "questions") }},
		drift{name: "wrong type", body: func(m obj) { m["isPublished"] = "yes" }},
		drift{name: "wrong enum", body: func(m obj) { m["displayMode"] = "wizard" }},
		drift{name: "options absent", body: func(m obj) { delete(question(m), "options") }},
		drift{name: "null logic", body: func(m obj) { question(m)["conditionalLogic"] = nil }},
		drift{name: "missing header", header: func(h http.Header) { h.Del("X-RateLimit-Limit") }},
		drift{name: "bad header", header: func(h http.Header) { h.Set("X-Credits-Used", "many") }},
		drift{name: "undocumented status", status: 418},
		drift{name: "wrong error code", status: 404, raw: `{"error": "missing", "message": "Form not found"}`},
		drift{name: "error without message", status: 404, raw: `{"error": "not_found"}`},
	)).named("drift from a form is detected")})
}

// TestOpenAPIUsageHistoryEntries checks history entries (which only AI operations
// create) against the document, with charges recorded through the store as the AI
// operations record them, one of them without a form.
func TestOpenAPIUsageHistoryEntries(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		acct := env.Account("builder")
		key := env.Key(acct, nil, nil)
		_, doc := embeddedDoc(t)
		c := connect(t, env, doc, statuses{})
		f := c.create(t, key, obj{"title": "Charged"})
		formID := wireID(t, f["id"])
		plan, err := quota.DefaultPlans().For("builder")
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range []struct {
			endpoint string
			credits  int
			formID   *int64
		}{{"forms.generate", 5, &formID}, {"analytics.generate", 10, nil}, {"chat.message", 2, &formID}} {
			charge := &store.Charge{AccountID: acct.ID, Endpoint: e.endpoint, Credits: e.credits, FormID: e.formID,
				FormName: "Charged", Plan: plan}
			rec := &store.AnalyticsRecord{FormID: formID, Insights: "{}"}
			if err := env.Store.SaveAnalytics(t.Context(), rec, charge); err != nil {
				t.Fatal(err)
			}
		}
		c.run(t, []row{
			call(200, "GET", apiPrefix+"/usage/history?limit=2", key, nil, fields(obj{"total": 3, "hasMore": true}), func(t *testing.T, r *servertest.Response) {
				if e := items(t, r.JSON(t), "history"); len(e) != 2 || e[0]["endpoint"] != "chat.message" || e[1]["formId"] != nil {
					t.Errorf("history: %v", e)
				}
			}),
			call(200, "GET", apiPrefix+"/usage/history?offset=2", key, nil),
			call(200, "GET", apiPrefix+"/usage", key, nil, fields(obj{"creditsRemaining": 983})),
		})
	})
}

func wireID(t *testing.T, v any) int64 {
	t.Helper()
	f, ok := v.(float64)
	if !ok {
		t.Fatalf("not an id: %v", v)
	}
	return int64(f)
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
