package api_test

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"forma/internal/config"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// TestHiddenFieldsOfForms: a form declares its hidden fields on create and
// PATCH (null clears them), every form view lists them (empty when none), and
// bad names are refused at their index.
func TestHiddenFieldsOfForms(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		f := createForm(t, env, key, obj{"title": "Signup", "hiddenFields": []string{"utm_source", "user_id"}})
		sameJSON(t, "hiddenFields", f["hiddenFields"], []string{"utm_source", "user_id"})
		path := formPath(f)
		table := []scenario{
			{Name: "read it", Method: "GET", Path: path, Key: key, ExpectedStatus: 200,
				Check: fields(obj{"hiddenFields": []string{"utm_source", "user_id"}})},
			{Name: "list it", Method: "GET", Path: apiPrefix + "/forms", Key: key, ExpectedStatus: 200,
				ExpectedContent: []string{`"hiddenFields":["utm_source","user_id"]`}},
			{Name: "change them", Method: "PATCH", Path: path, Key: key, Body: obj{"hiddenFields": []string{"ref"}}, ExpectedStatus: 200,
				Check: fields(obj{"hiddenFields": []string{"ref"}, "title": "Signup"})},
			{Name: "read the change", Method: "GET", Path: path, Key: key, ExpectedStatus: 200, Check: fields(obj{"hiddenFields": []string{"ref"}})},
			{Name: "another field leaves them", Method: "PATCH", Path: path, Key: key, Body: obj{"title": "Sign-up"}, ExpectedStatus: 200,
				Check: fields(obj{"hiddenFields": []string{"ref"}})},
			{Name: "clear them", Method: "PATCH", Path: path, Key: key, Body: obj{"hiddenFields": nil}, ExpectedStatus: 200,
				Check: fields(obj{"hiddenFields": []string{}})},
			{Name: "an empty patch names them", Method: "PATCH", Path: path, Key: key, Body: obj{}, ExpectedStatus: 400,
				Check: apiError("validation_error", "hiddenFields")},
		}
		for body, field := range map[string]string{
			`{"hiddenFields":["ok","utm source"]}`:    "hiddenFields[1]",
			`{"hiddenFields":["q3"]}`:                 "hiddenFields[0]",
			`{"hiddenFields":["ref","REF"]}`:          "hiddenFields[1]",
			`{"hiddenFields":[""]}`:                   "hiddenFields[0]",
			`{"hiddenFields":"utm_source"}`:           "hiddenFields",
			`{"hiddenFields":[1]}`:                    "hiddenFields",
			`{"hiddenFields":["<script>x</script>"]}`: "hiddenFields[0]",
		} {
			table = append(table, scenario{Name: "patch " + body, Method: "PATCH", Path: path, Key: key, Body: body,
				ExpectedStatus: 400, Check: apiError("validation_error", field)})
			table = append(table, scenario{Name: "create " + body, Method: "POST", Path: apiPrefix + "/forms", Key: key,
				Body: `{"title":"Bad",` + body[1:], ExpectedStatus: 400, Check: apiError("validation_error", field)})
		}
		table = append(table, scenario{Name: "nothing was created", Method: "GET", Path: apiPrefix + "/forms", Key: key,
			ExpectedStatus: 200, Check: fields(obj{"total": 1})})
		servertest.Run(t, env, table)
		plain := createForm(t, env, key, obj{"title": "Plain"})
		sameJSON(t, "hiddenFields of a form without", plain["hiddenFields"], []string{})
	})
}

// hookReceiver is a local webhook endpoint that keeps the payloads it gets.
type hookReceiver struct {
	*httptest.Server
	mu       sync.Mutex
	payloads map[string]obj // by submission id
}

func newHookReceiver(t *testing.T) *hookReceiver {
	rc := &hookReceiver{payloads: map[string]obj{}}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var p obj
		if err := json.NewDecoder(r.Body).Decode(&p); err == nil {
			rc.mu.Lock()
			rc.payloads[fmt.Sprint(p["submission_id"])] = p
			rc.mu.Unlock()
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(rc.Close)
	return rc
}

// wait returns the payloads once n have arrived (failing after five seconds).
func (rc *hookReceiver) wait(t *testing.T, n int) map[string]obj {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		rc.mu.Lock()
		got := len(rc.payloads)
		rc.mu.Unlock()
		if got >= n {
			break
		}
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if len(rc.payloads) != n {
		t.Fatalf("%d webhook deliveries, want %d", len(rc.payloads), n)
	}
	return rc.payloads
}

var hiddenInputRE = regexp.MustCompile(`<input type="hidden" name="(h_[^"]+)" value="([^"]*)"`)

// postPageWith posts the form page at link as a browser without JavaScript
// would: its hidden inputs (start token, hidden values) and the answers given.
func postPageWith(t *testing.T, env *servertest.Env, link string, answers map[string]string) *servertest.Response {
	t.Helper()
	page := env.Do("GET", link, "", nil)
	expectStatus(t, page, 200)
	token := regexp.MustCompile(`name="_started" value="([^"]+)"`).FindSubmatch(page.Body)
	if token == nil {
		t.Fatalf("no start token in the page of %s", link)
	}
	values := url.Values{"_started": {html.UnescapeString(string(token[1]))}, "website": {""}}
	for _, m := range hiddenInputRE.FindAllSubmatch(page.Body, -1) {
		values.Set(string(m[1]), html.UnescapeString(string(m[2])))
	}
	for k, v := range answers {
		values.Set(k, v)
	}
	share := strings.TrimPrefix(strings.SplitN(link, "?", 2)[0], "/f/")
	req := env.NewRequest("POST", "/f/"+share+"/submissions", "", nil)
	req.Body = io.NopCloser(strings.NewReader(values.Encode()))
	req.ContentLength = int64(len(values.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return env.Send(req)
}

// TestHiddenValuesTravelWithSubmissions: hidden values sent with a one-shot
// JSON submission, with a session (at its start, a save and its completion) and
// carried by the page's post from its address are stored; responses, the
// response, both exports and the webhook payload show them beside data, and
// leave them out for a submission without; unknown names and bad values are
// refused, naming hidden.<name>; and logic may read them.
func TestHiddenValuesTravelWithSubmissions(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d, func(c *config.Config) { c.AllowPrivateWebhooks, c.SubmitLimit = true, 0 })
		key := env.NewKey()
		rc := newHookReceiver(t)
		f := createForm(t, env, key, obj{"title": "Signup", "hiddenFields": []string{"utm_source", "user_id"},
			"questions": []obj{{"question": "Name", "required": true}, {"question": "utm_source"}}})
		path, share, q := formPath(f), f["shareUrl"].(string), questionIDs(t, f)
		expectStatus(t, env.Do("PATCH", path, key, obj{"webhookUrl": rc.URL, "webhookEnabled": true}), 200)
		expectStatus(t, env.Do("POST", path+"/publish", key, nil), 200)
		fp := "/f/" + share
		name := func(v string) obj { return obj{q[0]: v} }

		var ids []string
		keep := func(t *testing.T, r *servertest.Response) { ids = append(ids, r.JSON(t)["id"].(string)) }
		var session obj
		resume := func(suffix string) func(*testing.T, *scenario) {
			return func(_ *testing.T, s *scenario) {
				s.Path = fp + "/sessions/" + session["id"].(string) + suffix
				s.Header = map[string]string{"X-Resume-Token": session["resumeToken"].(string)}
			}
		}
		servertest.Run(t, env, []scenario{
			{Name: "the definition lists them", Method: "GET", Path: fp + "/definition", ExpectedStatus: 200,
				ExpectedContent: []string{`"hiddenFields":["utm_source","user_id"]`}},
			{Name: "one-shot", Method: "POST", Path: fp + "/submissions", ExpectedStatus: 201, Check: keep,
				Body: obj{"answers": name("Ada"), "hidden": obj{"utm_source": "newsletter", "user_id": "u-1"}}},
			{Name: "an unknown name", Method: "POST", Path: fp + "/submissions", ExpectedStatus: 400,
				Body:  obj{"answers": name("Eve"), "hidden": obj{"campaign": "x"}},
				Check: checks(apiError("validation_error", "hidden.campaign"), hasField("hidden.campaign"))},
			{Name: "a value on two lines", Method: "POST", Path: fp + "/submissions", ExpectedStatus: 400,
				Body: obj{"answers": name("Eve"), "hidden": obj{"user_id": "u\nx"}}, Check: hasField("hidden.user_id")},
			{Name: "a value too long", Method: "POST", Path: fp + "/submissions", ExpectedStatus: 400,
				Body: obj{"answers": name("Eve"), "hidden": obj{"user_id": strings.Repeat("x", 501)}}, Check: hasField("hidden.user_id")},
			{Name: "a value that is no string", Method: "POST", Path: fp + "/submissions", ExpectedStatus: 400,
				Body: `{"answers":{"` + q[0] + `":"Eve"},"hidden":{"user_id":7}}`, Check: apiError("validation_error", "hidden")},
			{Name: "start a session with a value", Method: "POST", Path: fp + "/sessions", ExpectedStatus: 201,
				Body: obj{"hidden": obj{"utm_source": "ads"}}, Check: into(&session)},
			{Name: "save another", Method: "PATCH", ExpectedStatus: 200, BeforeTest: resume(""),
				Body: obj{"answers": name("Bo"), "hidden": obj{"user_id": "u-2"}}},
			{Name: "save an unknown one", Method: "PATCH", ExpectedStatus: 400, BeforeTest: resume(""),
				Body: obj{"answers": obj{}, "hidden": obj{"nope": "x"}}, Check: hasField("hidden.nope")},
			{Name: "complete", Method: "POST", ExpectedStatus: 200, BeforeTest: resume("/complete"), Body: obj{}, Check: keep},
			{Name: "a plain one", Method: "POST", Path: fp + "/submissions", ExpectedStatus: 201, Body: obj{"answers": name("Cy")}, Check: keep},
		})
		if len(ids) != 3 {
			t.Fatalf("submissions %v", ids)
		}
		// A session started without them takes those its completion sends.
		started := env.Do("POST", fp+"/sessions", "", nil).JSON(t)
		req := env.NewRequest("POST", fp+"/sessions/"+started["id"].(string)+"/complete", "",
			obj{"answers": name("Di"), "hidden": obj{"utm_source": "qr"}})
		req.Header.Set("X-Resume-Token", started["resumeToken"].(string))
		done := env.Send(req)
		expectStatus(t, done, 200)
		ids = append(ids, done.JSON(t)["id"].(string))
		// The page keeps the values of its address through its post; a value
		// it cannot keep (two lines) is left out.
		link := fp + "?utm_source=" + url.QueryEscape(`<script>alert("x")</script>`) + "&user_id=u%0A5&unrelated=1"
		page := env.Do("GET", link, "", nil)
		if !strings.Contains(string(page.Body), `name="h_utm_source" value="&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;"`) ||
			strings.Contains(string(page.Body), "h_user_id") || strings.Contains(string(page.Body), "<script>alert") {
			t.Errorf("the page does not carry the hidden values safely:\n%s", hiddenInputRE.FindAll(page.Body, -1))
		}
		expectStatus(t, postPageWith(t, env, link, map[string]string{"q_" + q[0]: "Eve"}), 200)

		want := map[string]any{
			ids[0]: obj{"utm_source": "newsletter", "user_id": "u-1"},
			ids[1]: obj{"utm_source": "ads", "user_id": "u-2"},
			ids[2]: nil,
			ids[3]: obj{"utm_source": "qr"},
		}
		list := env.Do("GET", path+"/responses", key, nil).JSON(t)
		for _, r := range items(t, list, "responses") {
			id := r["id"].(string)
			if _, known := want[id]; !known {
				want[id] = obj{"utm_source": `<script>alert("x")</script>`}
			}
			h, present := r["hidden"]
			if want[id] == nil && present {
				t.Errorf("%s: hidden %v, want none (no key)", id, h)
			}
			if want[id] != nil {
				sameJSON(t, "hidden of "+id, h, want[id])
			}
			if data := r["data"].(obj); len(data) != 1 || data["Name"] == nil {
				t.Errorf("%s: data %v holds more than the answer", id, data)
			}
		}
		if len(want) != 5 {
			t.Fatalf("responses %v, want the page's submission too", want)
		}
		one := env.Do("GET", path+"/responses/"+ids[1], key, nil).JSON(t)
		sameJSON(t, "hidden of one response", one["hidden"], want[ids[1]])

		exported := env.Do("GET", path+"/responses/export?format=json", key, nil)
		var rows []obj
		if err := json.Unmarshal(exported.Body, &rows); err != nil || len(rows) != 5 {
			t.Fatalf("JSON export: %v, %s", err, exported.Body)
		}
		for _, r := range rows {
			if want[r["id"].(string)] != nil {
				sameJSON(t, "exported hidden", r["hidden"], want[r["id"].(string)])
			}
		}
		csvBody := env.Do("GET", path+"/responses/export?format=csv", key, nil).Body
		records, err := csv.NewReader(strings.NewReader(string(csvBody))).ReadAll()
		if err != nil || len(records) != 6 {
			t.Fatalf("CSV export: %v\n%s", err, csvBody)
		}
		if got := strings.Join(records[0], "|"); got != "id|submittedAt|score|Name|utm_source|utm_source (hidden field)|user_id" {
			t.Errorf("CSV header %q: a hidden field named like a question must be told apart", got)
		}
		for _, r := range records[1:] {
			w, _ := want[r[0]].(obj)
			if r[5] != fmt.Sprint(valueOr(w["utm_source"])) || r[6] != fmt.Sprint(valueOr(w["user_id"])) {
				t.Errorf("CSV row %v, want hidden values %v", r, w)
			}
		}

		payloads := rc.wait(t, 5)
		for id, p := range payloads {
			h, present := p["hidden"]
			if want[id] == nil && present || want[id] != nil && !present {
				t.Errorf("webhook of %s: hidden %v, want %v", id, h, want[id])
			}
			if want[id] != nil {
				sameJSON(t, "webhook hidden", h, want[id])
			}
		}
	})
}

// valueOr is v, or "" for nil.
func valueOr(v any) any {
	if v == nil {
		return ""
	}
	return v
}

// hasField checks that a validation error lists field in its fields.
func hasField(field string) check {
	return func(t *testing.T, r *servertest.Response) {
		t.Helper()
		if !strings.Contains(string(r.Body), `"field":"`+field+`"`) {
			t.Errorf("fields do not name %s: %s", field, r.Body)
		}
	}
}

// TestLogicReadsHiddenFields: a question shown only to respondents who came
// with a hidden value is answered by them and dropped (never required) for the
// others, on the server as in the page.
func TestLogicReadsHiddenFields(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		f := createForm(t, env, key, obj{"title": "Partners", "hiddenFields": []string{"ref"},
			"questions": []obj{{"question": "Name"}, {"question": "Partner code", "required": true}}})
		path, share, q := formPath(f), f["shareUrl"].(string), questionIDs(t, f)
		rule := obj{"advanced": obj{"conditionGroups": []obj{{"id": "g", "operator": "AND", "conditions": []obj{
			{"id": "c", "hiddenField": "ref", "operator": "equals", "value": "partner"}}}},
			"actions": []obj{{"type": "show_question", "targetId": mustInt(q[1])}}}}
		servertest.Run(t, env, []scenario{
			{Name: "a rule on a hidden field", Method: "PATCH", Path: path + "/fields/" + q[0], Key: key,
				Body: obj{"conditionalLogic": rule}, ExpectedStatus: 200, ExpectedContent: []string{`"hiddenField":"ref"`}},
			{Name: "a malformed name", Method: "PATCH", Path: path + "/fields/" + q[0], Key: key, ExpectedStatus: 400,
				Body: obj{"conditionalLogic": obj{"advanced": obj{"conditionGroups": []obj{{"id": "g", "operator": "AND", "conditions": []obj{
					{"id": "c", "hiddenField": "a b", "operator": "is_empty"}}}}, "actions": []obj{{"type": "end_form"}}}}},
				Check: apiError("validation_error", "hiddenField")},
			{Name: "publish", Method: "POST", Path: path + "/publish", Key: key, ExpectedStatus: 200},
			{Name: "a partner must answer", Method: "POST", Path: "/f/" + share + "/submissions", ExpectedStatus: 400,
				Body: obj{"answers": obj{q[0]: "Ada"}, "hidden": obj{"ref": "partner"}}, Check: hasField("answers." + q[1])},
			{Name: "a partner answers", Method: "POST", Path: "/f/" + share + "/submissions", ExpectedStatus: 201,
				Body: obj{"answers": obj{q[0]: "Ada", q[1]: "P-7"}, "hidden": obj{"ref": "partner"}}},
			{Name: "anyone else is not asked", Method: "POST", Path: "/f/" + share + "/submissions", ExpectedStatus: 201,
				Body: obj{"answers": obj{q[0]: "Bo", q[1]: "guessed"}, "hidden": obj{"ref": "friend"}}},
			{Name: "what was kept", Method: "GET", Path: path + "/responses", Key: key, ExpectedStatus: 200,
				ExpectedContent: []string{`"data":{"Name":"Bo"}`, `"data":{"Name":"Ada","Partner code":"P-7"}`}},
			{Name: "the evaluation sees it", Method: "POST", Path: "/f/" + share + "/evaluate", ExpectedStatus: 200,
				Body: obj{"answers": obj{}, "hidden": obj{"ref": "partner"}}, Check: fields(obj{"visible": []int64{mustInt(q[0]), mustInt(q[1])}})},
		})
	})
}

// TestResponseFilters: filter= (each operator, on questions and hidden fields,
// repeated or comma-separated, values with commas and colons), q= and from/to
// select the list, its total and hasMore, its offset pages and cursor walks,
// and both exports; bad filters are a 400 naming the parameter.
func TestResponseFilters(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d, func(c *config.Config) { c.SubmitLimit = 0 })
		key := env.NewKey()
		f := createForm(t, env, key, obj{"title": "Dinner", "hiddenFields": []string{"utm_source"}, "questions": []obj{
			{"question": "Country"}, {"type": "number", "question": "Guests"},
			{"type": "multi_select", "question": "Days", "options": []string{"Friday", "Saturday"}},
			{"type": "yes_no", "question": "Dinner"}, {"type": "textarea", "question": "Notes"}}})
		path, share, q := formPath(f), f["shareUrl"].(string), questionIDs(t, f)
		expectStatus(t, env.Do("POST", path+"/publish", key, nil), 200)
		country, guests, days, dinner, notes := "q"+q[0], "q"+q[1], "q"+q[2], "q"+q[3], "q"+q[4]
		var s []string
		for _, body := range []obj{
			{"answers": obj{q[0]: "Germany", q[1]: 2, q[2]: []string{"Friday"}, q[3]: true, q[4]: "Arriving late, around 22:00"}, "hidden": obj{"utm_source": "newsletter"}},
			{"answers": obj{q[0]: "France", q[1]: 5, q[2]: []string{"Saturday"}, q[3]: false}, "hidden": obj{"utm_source": "ads"}},
			{"answers": obj{q[0]: "germany", q[1]: 8, q[2]: []string{"Friday", "Saturday"}, q[4]: "Vegan: yes"}},
			{"answers": obj{q[0]: "Spain", q[3]: true, q[4]: "late"}, "hidden": obj{"utm_source": "newsletter"}},
		} {
			r := env.Do("POST", "/f/"+share+"/submissions", "", body)
			expectStatus(t, r, 201)
			s = append(s, r.JSON(t)["id"].(string))
			time.Sleep(3 * time.Millisecond)
		}
		list := path + "/responses"
		ids := func(want ...int) check {
			return func(t *testing.T, r *servertest.Response) {
				t.Helper()
				var got, exp []string
				for _, it := range items(t, r.JSON(t), "responses") {
					got = append(got, it["id"].(string))
				}
				for _, i := range want {
					exp = append(exp, s[i])
				}
				if strings.Join(got, ",") != strings.Join(exp, ",") {
					t.Errorf("responses %v, want %v", got, exp)
				}
			}
		}
		filtered := func(query string, want ...int) scenario {
			return scenario{Name: query, Method: "GET", Path: list + "?" + query, Key: key, ExpectedStatus: 200,
				Check: checks(fields(obj{"total": len(want), "hasMore": false}), ids(want...))}
		}
		esc := url.QueryEscape
		today := time.Now().UTC().Format(time.DateOnly)
		var cursor string
		next := func(t *testing.T, r *servertest.Response) { cursor, _ = r.JSON(t)["nextCursor"].(string) }
		table := []scenario{
			filtered("filter="+country+":eq:GERMANY", 2, 0),
			filtered("filter="+guests+":gt:3", 2, 1),
			filtered("filter="+guests+":lt:5", 0),
			filtered("filter="+guests+":eq:5.0", 1),
			filtered("filter="+days+":eq:saturday", 2, 1),
			filtered("filter="+dinner+":eq:yes", 3, 0),
			filtered("filter="+notes+":contains:LATE", 3, 0),
			filtered("filter="+guests+":empty", 3),
			filtered("filter="+notes+":notempty", 3, 2, 0),
			filtered("filter=utm_source:eq:newsletter", 3, 0),
			filtered("filter=utm_source:empty", 2),
			filtered("filter="+country+":eq:germany&filter="+guests+":lt:5", 0),
			filtered("filter="+esc(country+":eq:germany,"+guests+":gt:5"), 2),
			filtered("filter="+esc(notes+`:contains:late\, around 22:00`), 0),
			filtered("filter="+esc(notes+":contains:Vegan: yes"), 2),
			filtered("q=VEGAN", 2),
			filtered("q=newsletter", 3, 0),
			filtered("q=friday&filter=utm_source:notempty", 0),
			filtered("from="+today+"&to="+today, 3, 2, 1, 0),
			filtered("to=2000-01-01"),
			filtered("from=" + esc(time.Now().Add(time.Hour).UTC().Format(time.RFC3339))),
			filtered("order=asc&filter="+country+":eq:germany", 0, 2),
			{Name: "a page of the filtered list", Method: "GET", Path: list + "?limit=1&filter=utm_source:eq:newsletter", Key: key,
				ExpectedStatus: 200, Check: checks(fields(obj{"total": 2, "hasMore": true}), ids(3), next)},
			{Name: "its second page", Method: "GET", Path: list + "?limit=1&offset=1&filter=utm_source:eq:newsletter", Key: key,
				ExpectedStatus: 200, Check: checks(fields(obj{"total": 2, "hasMore": false}), ids(0))},
			{Name: "the page after its cursor", Method: "GET", Key: key, ExpectedStatus: 200,
				BeforeTest: pathFrom(func() string { return list + "?limit=1&filter=utm_source:eq:newsletter&cursor=" + cursor }),
				Check:      checks(fields(obj{"total": 2, "hasMore": false}), ids(0), next)},
			{Name: "nothing after the last", Method: "GET", Key: key, ExpectedStatus: 200,
				BeforeTest: pathFrom(func() string { return list + "?limit=1&filter=utm_source:eq:newsletter&cursor=" + cursor }),
				Check:      checks(fields(obj{"total": 2, "hasMore": false}), ids())},
			{Name: "the JSON export", Method: "GET", Path: list + "/export?format=json&filter=utm_source:eq:newsletter", Key: key,
				ExpectedStatus: 200, Check: func(t *testing.T, r *servertest.Response) {
					var rows []obj
					if err := json.Unmarshal(r.Body, &rows); err != nil || len(rows) != 2 || rows[0]["id"] != s[3] || rows[1]["id"] != s[0] {
						t.Errorf("export %v: %s", err, r.Body)
					}
				}},
			{Name: "the CSV export", Method: "GET", Path: list + "/export?format=csv&q=vegan", Key: key, ExpectedStatus: 200,
				Check: func(t *testing.T, r *servertest.Response) {
					if lines := strings.Split(strings.TrimSpace(string(r.Body)), "\n"); len(lines) != 2 || !strings.HasPrefix(lines[1], s[2]) {
						t.Errorf("export: %s", r.Body)
					}
				}},
		}
		for query, param := range map[string]string{
			"filter=q999:eq:x":                 "filter",
			"filter=" + country + ":like:x":    "filter",
			"filter=" + guests + ":gt:many":    "filter",
			"filter=" + country + ":gt:3":      "filter",
			"filter=" + dinner + ":eq:maybe":   "filter",
			"filter=campaign:eq:x":             "filter",
			"filter=" + country + ":eq":        "filter",
			"filter=" + esc(country+`:eq:a\b`): "filter",
			"filter=" + country + ":empty:x":   "filter",
			"from=yesterday":                   "from",
			"to=2026-13-01":                    "to",
			"q=" + strings.Repeat("x", 201):    "q",
			"filter=" + strings.Repeat(country+":empty,", 21) + country + ":empty": "filter",
		} {
			for _, p := range []string{list, list + "/export"} {
				table = append(table, scenario{Name: p + "?" + query, Method: "GET", Path: p + "?" + query, Key: key,
					ExpectedStatus: 400, Check: apiError("validation_error", param)})
			}
		}
		servertest.Run(t, env, table)
	})
}
