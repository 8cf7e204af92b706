package dashboard_test

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	xhtml "golang.org/x/net/html"

	"forma/internal/config"
	"forma/internal/dashboard"
	"forma/internal/form"
	"forma/internal/quota"
	"forma/internal/server/servertest"
	"forma/internal/store"
	"forma/internal/webhook"
)

// The two security sweeps of issue 10 walk the same table, routes, which must
// name every pattern the dashboard registers (TestSweepsCoverEveryRoute, which
// records them from Handler.Routes): a new route is one more line there.
//
//   - TestStoredXSSIsInert: account A's every field holds hostile markup; every
//     page and every post's answer, for A, must show it only as text, under the
//     strict Content-Security-Policy.
//   - TestOtherAccountReachesNothing: signed in as B, every route given A's ids
//     (or B's form with A's other ids) answers 404, shows nothing of A's, and
//     changes nothing of A's; signed out, it sends the browser to sign in.

// route is one request of the sweeps. Its path and values name A's objects
// through placeholders that the world fills in: {form}, {question} (its select
// question, which a rule reads), {text} (the question with the rule),
// {response}, {conversation}, {key}, {setup} (a setup link's token), and
// {receiver} (a local webhook receiver's URL).
type route struct {
	// pattern is the route as the dashboard registers it.
	pattern string
	// path is the request's path, query included.
	path string
	// values are what A posts: hostile text, so that a refusal shows it again.
	values url.Values
	// status is A's answer.
	status int
	// shows are the hostile fields (tags of world.fields, or of values) that
	// A's answer must show, escaped: proof that the page was worth checking.
	shows []string
	// out sends the request signed out: a page of the way in (sign-in, setup,
	// sign-up) or a public asset. B's sweep skips it.
	out bool
	// last marks a post that removes or ends what other rows use: A's sweep
	// sends it after the others, in table order.
	last bool
	// cross is what B posts to A's ids: a change that must not happen (nil:
	// values). A post is in B's sweep when its path or cross names A's objects.
	cross url.Values
	// crossStatus is B's answer: 0 means 404 when the path names one of A's
	// objects, else status.
	crossStatus int
}

// routes are the sweeps' requests, every dashboard pattern at least once. A new
// route gets a line: its pattern, a path with A's ids, A's status and the
// hostile fields A's answer shows; for a post, the values A sends (typed text
// that a refusal shows again) and, in cross, a change B would make to A's data
// if let through. A post that deletes or ends something is marked last.
var routes = []route{
	{pattern: "GET /{$}", path: "/", status: 200, shows: []string{"email", "title"}},
	{pattern: "GET /forms", path: "/forms", status: 200, shows: []string{"title"}},
	{pattern: "GET /forms", path: "/forms?page=" + url.QueryEscape(hostile("page")), status: 400},
	{pattern: "GET /keys", path: "/keys", status: 200, shows: []string{"key", "title"}},
	{pattern: "GET /keys/{id}/revoke", path: "/keys/{key}/revoke", status: 200, shows: []string{"key"}},
	{pattern: "GET /usage", path: "/usage", status: 200, shows: []string{"key", "title"}},
	{pattern: "GET /forms/new", path: "/forms/new", status: 200},
	{pattern: "GET /forms/{id}", path: "/forms/{form}", status: 200,
		shows: []string{"title", "desc", "q-select", "option", "q-text", "q-rating", "q-url", "q-file"}},
	{pattern: "GET /forms/{id}", path: "/forms/{form}?done=" + url.QueryEscape(hostile("done")) + "&q={question}", status: 200},
	{pattern: "GET /forms/{id}/preview", path: "/forms/{form}/preview", status: 200,
		shows: []string{"title", "desc", "q-select", "option", "q-text"}},
	{pattern: "GET /forms/{id}/qr.svg", path: "/forms/{form}/qr.svg", status: 200},
	{pattern: "GET /forms/{id}/definition.json", path: "/forms/{form}/definition.json", status: 200},
	{pattern: "GET /forms/{id}/delete", path: "/forms/{form}/delete", status: 200, shows: []string{"title"}},
	{pattern: "GET /forms/{id}/questions/{qid}/delete", path: "/forms/{form}/questions/{question}/delete", status: 200,
		shows: []string{"title", "q-select"}},
	{pattern: "GET /forms/{id}/responses", path: "/forms/{form}/responses", status: 200,
		shows: []string{"title", "answer", "option", "file", "url", "hidden"}},
	{pattern: "GET /forms/{id}/responses", path: "/forms/{form}/responses?field=q{text}&op=contains&q=" + url.QueryEscape(hostile("search")) +
		"&value=" + url.QueryEscape(hostile("filter")), status: 200, shows: []string{"search", "filter"}},
	{pattern: "GET /forms/{id}/responses", path: "/forms/{form}/responses?field=" + url.QueryEscape(hostile("field")) + "&op=eq&value=x",
		status: 200, shows: []string{"title"}},
	{pattern: "GET /forms/{id}/responses/export.csv", path: "/forms/{form}/responses/export.csv", status: 200},
	{pattern: "GET /forms/{id}/responses/export.json", path: "/forms/{form}/responses/export.json", status: 200},
	{pattern: "GET /forms/{id}/responses/{submissionId}", path: "/forms/{form}/responses/{response}", status: 200,
		shows: []string{"answer", "option", "file", "url", "hidden"}},
	{pattern: "GET /forms/{id}/responses/{submissionId}/delete", path: "/forms/{form}/responses/{response}/delete", status: 200,
		shows: []string{"title"}},
	{pattern: "GET /forms/{id}/summary", path: "/forms/{form}/summary", status: 200, shows: []string{"q-select", "option", "q-rating"}},
	{pattern: "GET /forms/{id}/analytics", path: "/forms/{form}/analytics", status: 200, shows: []string{"title", "q-rating"}},
	{pattern: "GET /forms/{id}/chat", path: "/forms/{form}/chat", status: 200, shows: []string{"chat"}},
	{pattern: "GET /forms/{id}/chat/{cid}", path: "/forms/{form}/chat/{conversation}", status: 200, shows: []string{"chat"}},
	{pattern: "GET /forms/{id}/chat/{cid}/delete", path: "/forms/{form}/chat/{conversation}/delete", status: 200,
		shows: []string{"chat"}},
	{pattern: "GET /forms/{id}/webhook", path: "/forms/{form}/webhook", status: 200, shows: []string{"hook"}},
	{pattern: "GET /forms/{id}/webhook/rotate", path: "/forms/{form}/webhook/rotate", status: 200, shows: []string{"title"}},
	{pattern: "GET /forms/{id}/email", path: "/forms/{form}/email", status: 200, shows: []string{"title", "q-text"}},
	{pattern: "GET /forms/{id}/settings", path: "/forms/{form}/settings", status: 200,
		shows: []string{"title", "q-select", "q-text", "closed", "thanks", "thanks-msg"}},
	{pattern: "GET /settings", path: "/settings", status: 200, shows: []string{"email"}},
	{pattern: "GET /signin", path: "/signin", status: 200, out: true},
	{pattern: "GET /signin", path: "/signin?next=" + url.QueryEscape("/"+hostile("next")), status: 200, out: true,
		shows: []string{"next"}},
	{pattern: "GET /signin", path: "/signin?next=javascript:alert(1)", status: 200, out: true},
	{pattern: "GET /setup/{token}", path: "/setup/{setup}", status: 200, out: true, shows: []string{"email"}},
	{pattern: "GET /signup", path: "/signup", status: 200, out: true},
	{pattern: "GET /assets/dashboard/{name}", path: "/assets/dashboard/dashboard.js", status: 200, out: true},

	{pattern: "POST /forms/new", path: "/forms/new", status: 400, shows: []string{"new", "new-desc"},
		values: url.Values{"title": {hostile("new") + "\x01"}, "description": {hostile("new-desc")}}},
	{pattern: "POST /forms/{id}", path: "/forms/{form}", status: 400, shows: []string{"edit", "edit-desc"},
		values: url.Values{"title": {hostile("edit") + "\x01"}, "description": {hostile("edit-desc")}, "displayMode": {"single-page"}},
		cross:  url.Values{"title": {"Taken by B"}, "description": {""}, "displayMode": {"single-page"}}},
	{pattern: "POST /forms/{id}/unpublish", path: "/forms/{form}/unpublish", status: 303},
	{pattern: "POST /forms/{id}/hidden-fields", path: "/forms/{form}/hidden-fields", status: 400, shows: []string{"hidden-name"},
		values: url.Values{"hiddenFields": {"src\n" + hostile("hidden-name")}}, cross: url.Values{"hiddenFields": {"b_field"}}},
	{pattern: "POST /forms/{id}/publish", path: "/forms/{form}/publish", status: 303},
	{pattern: "POST /forms/{id}/questions", path: "/forms/{form}/questions", status: 400, shows: []string{"add", "add-option"},
		values: url.Values{"type": {"select"}, "question": {hostile("add") + "\x01"}, "options": {hostile("add-option")}},
		cross:  url.Values{"type": {"text"}, "question": {"Injected by B"}}},
	{pattern: "POST /forms/{id}/questions/{qid}", path: "/forms/{form}/questions/{question}", status: 400,
		shows:  []string{"save", "save-option"},
		values: url.Values{"type": {"select"}, "question": {hostile("save") + "\x01"}, "options": {hostile("save-option")}},
		cross:  url.Values{"type": {"select"}, "question": {"Changed by B"}, "options": {"B1\nB2"}}},
	{pattern: "POST /forms/{id}/questions/{qid}/move", path: "/forms/{form}/questions/{question}/move", status: 400,
		values: url.Values{"to": {hostile("move")}}, cross: url.Values{"to": {"3"}}},
	{pattern: "POST /forms/{id}/questions/{qid}/logic", path: "/forms/{form}/questions/{text}/logic", status: 400,
		values: url.Values{"for": {"{question}"}, "target": {"{question}"}, "operator": {"greater_than"}, "value": {hostile("rule")},
			"action": {"save"}},
		cross: url.Values{"action": {"clear"}}},
	{pattern: "POST /forms/{id}/questions/{qid}/rule", path: "/forms/{form}/questions/{text}/rule", status: 200,
		shows: []string{"title", "q-select"}, values: url.Values{"edit": {"add-group"}}, cross: url.Values{"edit": {"delete"}}},
	{pattern: "POST /forms/generate", path: "/forms/generate", status: 400, shows: []string{"prompt"},
		values: url.Values{"prompt": {hostile("prompt") + "\x01"}}},
	{pattern: "POST /forms/{id}/duplicate", path: "/forms/{form}/duplicate", status: 303},
	{pattern: "POST /forms/import", path: "/forms/import", status: 400, values: url.Values{"definition": {hostile("import")}}},
	{pattern: "POST /forms/{id}/questions/{qid}/delete", path: "/forms/{form}/questions/{question}/delete", status: 409,
		shows: []string{"title", "q-select"}},
	{pattern: "POST /forms/{id}/analytics", path: "/forms/{form}/analytics", status: 303},
	{pattern: "POST /forms/{id}/chat", path: "/forms/{form}/chat", status: 303},
	{pattern: "POST /forms/{id}/chat/{cid}", path: "/forms/{form}/chat/{conversation}", status: 400, shows: []string{"ask", "chat"},
		values: url.Values{"message": {hostile("ask") + "\x01"}}, cross: url.Values{"message": {"How many responses are there?"}}},
	{pattern: "POST /forms/{id}/webhook", path: "/forms/{form}/webhook", status: 400,
		values: url.Values{"webhookUrl": {"javascript:alert(1)"}, "webhookEnabled": {"on"}},
		cross:  url.Values{"webhookUrl": {"https://evil.example.com/b"}, "webhookEnabled": {"on"}}},
	{pattern: "POST /forms/{id}/webhook", path: "/forms/{form}/webhook", status: 400, shows: []string{"bad-hook"},
		values: url.Values{"webhookUrl": {"https://" + hostile("bad-hook") + ".example/"}}},
	{pattern: "POST /forms/{id}/webhook/test", path: "/forms/{form}/webhook/test", status: 400,
		values: url.Values{"url": {"javascript:alert(1)"}}, cross: url.Values{"url": {"https://evil.example.com/b"}}},
	{pattern: "POST /forms/{id}/webhook/test", path: "/forms/{form}/webhook/test", status: 200, shows: []string{"hook", "test-hook"},
		values: url.Values{"url": {"{receiver}/" + hostile("test-hook")}}},
	{pattern: "POST /forms/{id}/settings/closing", path: "/forms/{form}/settings/closing", status: 400, shows: []string{"closing"},
		values: url.Values{"closedMessage": {hostile("closing") + "\x01"}, "maxResponses": {"5"}, "closesAt": {"2999-01-01T00:00"}},
		cross:  url.Values{"maxResponses": {"1"}, "closedMessage": {"Closed by B"}}},
	{pattern: "POST /forms/{id}/settings/thankyou", path: "/forms/{form}/settings/thankyou", status: 400, shows: []string{"ty", "ty-msg"},
		values: url.Values{"kind": {"screen"}, "title": {hostile("ty") + "\x01"}, "message": {hostile("ty-msg")}},
		cross:  url.Values{"kind": {"redirect"}, "redirectUrl": {"https://evil.example.com/"}}},
	{pattern: "POST /forms/{id}/settings/page", path: "/forms/{form}/settings/page", status: 400, shows: []string{"lang", "frame"},
		values: url.Values{"language": {hostile("lang")}, "frameAncestors": {"https://ok.example.com\n" + hostile("frame")}},
		cross:  url.Values{"language": {"de"}, "frameAncestors": {"https://evil.example.com"}}},
	{pattern: "POST /forms/{id}/webhook/secret", path: "/forms/{form}/webhook/secret", status: 200, shows: []string{"hook"}},
	{pattern: "POST /forms/{id}/email", path: "/forms/{form}/email", status: 400, shows: []string{"mail", "mail-subject"},
		values: url.Values{"recipients": {hostile("mail")}, "subject": {hostile("mail-subject")}},
		cross:  url.Values{"recipients": {"b@example.com"}}},
	{pattern: "POST /forms/{id}/webhook/logs/{logId}/redeliver", path: "/forms/{form}/webhook/logs/999999/redeliver", status: 404},
	{pattern: "POST /forms/{id}/webhook/rotate", path: "/forms/{form}/webhook/rotate", status: 200, shows: []string{"hook"}},
	{pattern: "POST /keys", path: "/keys", status: 400, shows: []string{"new-key"},
		values: url.Values{"name": {hostile("new-key") + "\x01"}},
		cross:  url.Values{"name": {"B's key"}, "formId": {"{form}"}}, crossStatus: 400},
	{pattern: "POST /settings/password", path: "/settings/password", status: 400, shows: []string{"email"},
		values: url.Values{"current": {password}, "password": {"a new long password"}, "confirm": {"another long password"}}},
	{pattern: "POST /signin", path: "/signin", status: 401, out: true, shows: []string{"signin"},
		values: url.Values{"email": {hostile("signin")}, "password": {"wrong password"}, "next": {"javascript:alert(1)"}}},
	{pattern: "POST /setup/{token}", path: "/setup/{setup}", status: 400, out: true, shows: []string{"email"},
		values: url.Values{"password": {"a new long password"}, "confirm": {"another long password"}}},
	{pattern: "POST /signup", path: "/signup", status: 400, out: true, shows: []string{"signup"},
		values: url.Values{"email": {hostile("signup")}, "password": {"a new long password"}, "confirm": {"a new long password"}}},
	{pattern: "POST /forms/{id}/responses/{submissionId}/delete", path: "/forms/{form}/responses/{response}/delete", status: 303,
		last: true},
	{pattern: "POST /forms/{id}/chat/{cid}/delete", path: "/forms/{form}/chat/{conversation}/delete", status: 303, last: true},
	{pattern: "POST /keys/{id}/revoke", path: "/keys/{key}/revoke", status: 303, last: true},
	{pattern: "POST /forms/{id}/delete", path: "/forms/{form}/delete", status: 303, last: true},
	{pattern: "POST /signout/everywhere", path: "/signout/everywhere", status: 303, last: true},
	{pattern: "POST /signout", path: "/signout", status: 303, last: true},
}

// method is the route's method.
func (r route) method() string { return strings.Fields(r.pattern)[0] }

// namesA reports whether the route's path or B's values name one of A's objects.
func (r route) namesA() bool {
	if strings.Contains(r.path, "{") {
		return true
	}
	for _, vs := range r.crossValues() {
		if slices.ContainsFunc(vs, func(v string) bool { return strings.Contains(v, "{") }) {
			return true
		}
	}
	return false
}

// crossValues are what B posts.
func (r route) crossValues() url.Values {
	if r.cross != nil {
		return r.cross
	}
	return r.values
}

// inCross reports whether B's sweep sends the route: every signed-in page, and
// every post that names A's objects.
func (r route) inCross() bool {
	return !r.out && (r.method() == http.MethodGet || r.namesA())
}

// wantCross is B's expected status.
func (r route) wantCross() int {
	switch {
	case r.crossStatus != 0:
		return r.crossStatus
	case strings.Contains(r.path, "{"):
		return http.StatusNotFound
	}
	return r.status
}

// recorder is a dashboard.Mux that keeps the patterns registered on it.
type recorder struct{ patterns []string }

// HandleFunc records pattern.
func (r *recorder) HandleFunc(pattern string, _ func(http.ResponseWriter, *http.Request)) {
	r.patterns = append(r.patterns, pattern)
}

// registered lists the patterns the dashboard registers, in order.
func registered() []string {
	var r recorder
	dashboard.New(nil, dashboard.Config{}).Routes(&r)
	return r.patterns
}

// TestSweepsCoverEveryRoute: every pattern the dashboard registers is in the
// sweeps' table, and B's sweep reaches every route that takes an id; the table
// names no route that is gone; every hostile field of A's is on some page the
// XSS sweep checks.
func TestSweepsCoverEveryRoute(t *testing.T) {
	for _, p := range uncovered(registered(), routes) {
		t.Error(p)
	}
	for _, f := range fields {
		if !slices.ContainsFunc(routes, func(r route) bool { return slices.Contains(r.shows, f) }) {
			t.Errorf("no line of routes in security_test.go shows A's field %q", f)
		}
	}
}

// uncovered says which patterns of reg the table misses, and which of its rows
// name a pattern that is not registered.
func uncovered(reg []string, table []route) []string {
	var problems []string
	for _, p := range reg {
		i := slices.IndexFunc(table, func(r route) bool { return r.pattern == p })
		switch {
		case i < 0:
			problems = append(problems, fmt.Sprintf("the dashboard registers %q, which the security sweeps do not visit: "+
				"add a line for it to routes in security_test.go", p))
		case wildcard.MatchString(p) && !crossCovered(p, table):
			problems = append(problems, fmt.Sprintf("%q takes an id, but no line of routes in security_test.go sends it "+
				"with A's ids (a placeholder in its path) to account B", p))
		}
	}
	for _, r := range table {
		if !slices.Contains(reg, r.pattern) {
			problems = append(problems, fmt.Sprintf("routes in security_test.go names %q, which the dashboard does not register", r.pattern))
		}
	}
	return problems
}

// wildcard finds a wildcard in a pattern ({id}, {rest...}; not {$}).
var wildcard = regexp.MustCompile(`\{\w+(\.\.\.)?\}`)

// crossCovered reports whether B's sweep sends pattern with A's ids, or the
// table says it is a page of the way in (out), which has no account's objects.
func crossCovered(pattern string, table []route) bool {
	return slices.ContainsFunc(table, func(r route) bool {
		return r.pattern == pattern && (r.out || r.inCross() && strings.Contains(r.path, "{"))
	})
}

// fill replaces the placeholders of s by ids.
func fill(s string, ids map[string]string) string {
	var pairs []string
	for k, v := range ids {
		pairs = append(pairs, "{"+k+"}", v)
	}
	return strings.NewReplacer(pairs...).Replace(s)
}

// fillValues is vals with its placeholders replaced by ids.
func fillValues(vals url.Values, ids map[string]string) url.Values {
	out := url.Values{}
	for k, vs := range vals {
		for _, v := range vs {
			out.Add(k, fill(v, ids))
		}
	}
	return out
}

// send makes the route's request with b, with ids and the values given.
func send(b *browser, r route, ids map[string]string, vals url.Values) page {
	b.t.Helper()
	path := fill(r.path, ids)
	if r.method() == http.MethodGet {
		return b.get(path)
	}
	return b.post(path, fillValues(vals, ids))
}

// eachSweep is each with a server suited to the sweeps: sign-up on, and
// private webhook targets allowed so that tests and deliveries reach a local
// receiver.
func eachSweep(t *testing.T, fn func(t *testing.T, env *servertest.Env)) {
	each(t, fn, allowPrivate, func(c *config.Config) { c.Signup = true })
}

// hostile is the text A types into the field tagged tag: the tag (to find the
// field on a page), a template action that must stay text, and markup that
// breaks out of an attribute, out of a textarea, and into text. It is 97
// characters and the tag's.
func hostile(tag string) string {
	return "XSS-" + tag + `{{.}}"><img src=x onerror=alert(1)></textarea><svg onload=alert(1)><script>alert(1)</script>`
}

// shown is how a page shows the field tagged tag as text: html/template leaves
// the tag and the template action as they are, in text and in attributes.
func shown(tag string) string { return "XSS-" + tag + "{{.}}" }

// live are the pieces of the hostile texts that must never reach a page as
// markup.
var live = []string{"<img src=x onerror=alert(1)>", "<svg onload=alert(1)>", "<svg/onload=alert(1)>", "<script>alert(1)</script>"}

// fields are the tags of A's stored fields: the account's email, the form's
// title and description, its questions' text and choices, a response's
// answers (text, choice, URL, a file's name), an API key's name, a chat
// message, the webhook URL, the closed message and the thank-you screen. The
// analysis and the AI's replies are made of them.
var fields = []string{"email", "title", "desc", "q-select", "option", "q-text", "q-rating", "q-url", "q-file",
	"answer", "url", "file", "hidden", "key", "chat", "hook", "closed", "thanks", "thanks-msg"}

// world is the sweeps' data: account A's form, response, file, key,
// conversation, analysis and webhook, every field of them hostile, and an
// account B with a form, a response and a file of its own.
type world struct {
	env          *servertest.Env
	a, b         *browser
	acctA, acctB *store.Account
	// ids are A's objects by placeholder.
	ids map[string]string
	// made are A's answers while the world was built, to check as pages.
	made []made
	// bForm is B's form id, for paths that pair it with A's other ids; bFile
	// is the signed link to B's file.
	bForm, bFile string
	// secrets are strings of A's that B must never see.
	secrets []string
}

// made is an answer A got while the world was built, and the fields it shows.
type made struct {
	what  string
	page  page
	shows []string
}

// buildWorld makes A's hostile world and B's plain one.
func buildWorld(t *testing.T, env *servertest.Env) *world {
	t.Helper()
	w := &world{env: env, ids: map[string]string{}}
	rc := newReceiver(t, http.StatusOK)
	w.ids["receiver"] = rc.URL
	acctA := withPassword(t, env, hostile("email")+"@example.com", password)
	w.acctA, w.a = acctA, newBrowser(t, env)
	w.a.signIn(acctA.Email, password)
	s := w.hostileForm(t, env.Key(acctA, nil, nil))
	w.connect(t, s, rc)
	w.respond(t, s)
	w.useAI(t, s)
	w.createKey(t)
	setup := setupLink(t, env, acctA, time.Hour)
	w.ids["setup"] = strings.TrimPrefix(setup, "/setup/")
	w.plainB(t)
	w.secrets = w.secretsOfA(t, s)
	return w
}

// hostileForm creates and publishes A's form through the API: hostile title,
// description, questions and choices, and a rule on the text question that
// reads the choice (so that deleting the select question is refused).
func (w *world) hostileForm(t *testing.T, key string) survey {
	t.Helper()
	s := newSurvey(t, w.env, key, hostile("title"),
		map[string]any{"type": "select", "question": hostile("q-select"), "options": []string{hostile("option"), "Plain"}, "required": true},
		map[string]any{"type": "text", "question": hostile("q-text")},
		map[string]any{"type": "rating", "question": hostile("q-rating")},
		map[string]any{"type": "url", "question": hostile("q-url")},
		map[string]any{"type": "file_upload", "question": hostile("q-file")})
	w.ids["form"], w.ids["question"], w.ids["text"] = fmt.Sprint(s.ID), fmt.Sprint(s.Questions[0]), fmt.Sprint(s.Questions[1])
	e := w.env.For(t)
	if r := e.Do("PATCH", fmt.Sprintf("/api/v1/forms/%d", s.ID), key, map[string]any{"description": hostile("desc") + "\nSecond line",
		"closedMessage": hostile("closed"), "thankYou": map[string]any{"title": hostile("thanks"), "message": hostile("thanks-msg")},
		"hiddenFields": []string{"src"}}); r.Status != http.StatusOK {
		t.Fatalf("describe the form: %d %s", r.Status, r.Body)
	}
	rule := map[string]any{"showIf": map[string]any{"questionId": s.Questions[0], "operator": "equals", "value": hostile("option")}}
	if r := e.Do("PATCH", fmt.Sprintf("/api/v1/forms/%d/fields/%d", s.ID, s.Questions[1]), key,
		map[string]any{"conditionalLogic": rule}); r.Status != http.StatusOK {
		t.Fatalf("set the rule: %d %s", r.Status, r.Body)
	}
	return s
}

// connect sets A's webhook, through the page, to a hostile path on rc.
func (w *world) connect(t *testing.T, s survey, rc *receiver) {
	t.Helper()
	p := w.a.post(s.webhookPath(""), url.Values{"webhookUrl": {rc.URL + "/" + hostile("hook")}, "webhookEnabled": {"on"}})
	if p.Status != http.StatusSeeOther {
		t.Fatalf("set the webhook: %d\n%s", p.Status, p.Body)
	}
}

// respond sends A's response, with a file, and waits for its delivery in the log.
func (w *world) respond(t *testing.T, s survey) {
	t.Helper()
	file := upload(t, w.env, s.Share, `XSS-file{{.}}"><img src=x onerror=alert(1)><svg onload=alert(1)>.txt`, []byte("A's private file"))
	w.ids["upload"] = file
	w.ids["response"] = s.submitWith(t, w.env, map[int]any{0: hostile("option"), 1: hostile("answer"), 2: 4,
		3: `https://x.example/XSS-url{{.}}"><svg/onload=alert(1)><script>alert(1)</script>`, 4: file},
		map[string]string{"src": hostile("hidden")})
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, n, err := w.env.Store.WebhookLogs(t.Context(), s.ID, 1, 0)
		if err != nil || n > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the response's webhook delivery was never logged")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// useAI generates A's analysis and asks a hostile question in a conversation.
func (w *world) useAI(t *testing.T, s survey) {
	t.Helper()
	if p := w.a.post(s.aiPath("/analytics"), nil); p.Status != http.StatusSeeOther {
		t.Fatalf("generate the analysis: %d\n%s", p.Status, p.Body)
	}
	chat := newConversation(t, w.a, s)
	w.ids["conversation"] = chat[strings.LastIndex(chat, "/")+1:]
	p := w.a.post(chat, url.Values{"message": {hostile("chat")}})
	if p.Status != http.StatusSeeOther {
		t.Fatalf("ask: %d\n%s", p.Status, p.Body)
	}
}

// createKey creates A's hostile key, scoped to the form, through the page that
// shows it once.
func (w *world) createKey(t *testing.T) {
	t.Helper()
	p := w.a.post("/keys", url.Values{"name": {hostile("key")}, "formId": {w.ids["form"]}})
	if p.Status != http.StatusCreated {
		t.Fatalf("create the key: %d\n%s", p.Status, p.Body)
	}
	w.made = append(w.made, made{"POST /keys (created)", p, []string{"key"}})
	for _, k := range keysOf(t, w.env, w.acctA) {
		if k.Name == hostile("key") {
			w.ids["key"] = fmt.Sprint(k.ID)
		}
	}
}

// plainB signs in as B, with a form, a response and a file of B's own.
func (w *world) plainB(t *testing.T) {
	t.Helper()
	var key string
	w.b, key = signedInOwner(t, w.env, "bob@example.com")
	w.acctB = mustAccount(t, w.env, "bob@example.com")
	s := newSurvey(t, w.env, key, "Bob's form", text, map[string]any{"type": "file_upload", "question": "CV"})
	w.bForm = fmt.Sprint(s.ID)
	id := s.submit(t, w.env, map[int]any{0: "Bob", 1: upload(t, w.env, s.Share, "bob.txt", []byte("Bob's file"))})
	m := regexp.MustCompile(`<a class="file" href="([^"]+)">`).FindStringSubmatch(w.b.get(s.path("/" + id)).Body)
	if m == nil {
		t.Fatal("B's response shows no file link")
	}
	w.bFile = strings.TrimPrefix(html.UnescapeString(m[1]), w.env.URL)
}

// secretsOfA are the strings of A's that no answer to B may contain: every
// stored field, the key's prefixes, the webhook's secret, the share token, the
// file's id and content.
func (w *world) secretsOfA(t *testing.T, s survey) []string {
	t.Helper()
	var out []string
	for _, f := range fields {
		out = append(out, "XSS-"+f)
	}
	for _, k := range keysOf(t, w.env, w.acctA) {
		out = append(out, k.Prefix)
	}
	secrets, err := w.env.Store.WebhookSecrets(t.Context(), s.ID, webhook.NewSecret)
	if err != nil {
		t.Fatal(err)
	}
	return append(append(out, secrets...), s.Share, w.ids["upload"], "A's private file")
}

// TestStoredXSSIsInert: with every field of account A hostile, every dashboard
// route A visits or posts to (refusals that show the typed values again
// included, and the pages redirects lead to) answers a page that shows the
// fields only as text, under the strict Content-Security-Policy; downloads are
// never HTML.
func TestStoredXSSIsInert(t *testing.T) {
	eachSweep(t, func(t *testing.T, env *servertest.Env) {
		w := buildWorld(t, env)
		for _, m := range w.made {
			checkPage(t, m.what, m.page, m.shows)
		}
		for _, r := range inOrder(routes) {
			b := w.a
			if r.out {
				b = newBrowser(t, env)
			}
			what := describeRoute(r, w.ids)
			p := send(b, r, w.ids, r.values)
			if p.Status != r.status {
				t.Errorf("%s: status %d, want %d\n%s", what, p.Status, r.status, clip(p.Body))
			}
			checkPage(t, what, p, r.shows)
			follow(t, b, what, p)
		}
	})
}

// inOrder is table in the order A's sweep sends it: GETs, posts, then the posts
// marked last.
func inOrder(table []route) []route {
	out := slices.Clone(table)
	rank := func(r route) int {
		switch {
		case r.last:
			return 2
		case r.method() == http.MethodGet:
			return 0
		}
		return 1
	}
	slices.SortStableFunc(out, func(a, b route) int { return rank(a) - rank(b) })
	return out
}

// describeRoute names a request in failure messages.
func describeRoute(r route, ids map[string]string) string {
	return fmt.Sprintf("%s %s (route %q)", r.method(), fill(r.path, ids), r.pattern)
}

// follow checks the page a redirect leads to, when it is a page of this server.
func follow(t *testing.T, b *browser, what string, p page) {
	t.Helper()
	if p.Status/100 == 3 && localTarget(p.Location) {
		checkPage(t, what+" → "+p.Location, b.get(p.Location), nil)
	}
}

// localTarget reports whether a redirect stays on this server.
func localTarget(loc string) bool {
	return strings.HasPrefix(loc, "/") && !strings.HasPrefix(loc, "//") && !strings.Contains(loc, `\`)
}

// checkPage fails t for what makes p unsafe, and for each field of shows that p
// does not show as text.
func checkPage(t *testing.T, what string, p page, shows []string) {
	t.Helper()
	for _, problem := range pageProblems(p) {
		t.Errorf("%s: %s", what, problem)
	}
	for _, tag := range shows {
		if !strings.Contains(p.Body, shown(tag)) {
			t.Errorf("%s does not show the hostile %s as text (%q), so the sweep checks nothing there\n%s", what, tag, shown(tag), clip(p.Body))
		}
	}
}

// pageProblems lists what makes an answer unsafe: a redirect off the server; a
// download a browser could sniff as HTML; a page (HTML, SVG) without the strict
// CSP, with a hostile text as markup, or with anything that runs script.
func pageProblems(p page) []string {
	switch {
	case p.Status/100 == 3:
		if !localTarget(p.Location) {
			return []string{fmt.Sprintf("redirects off the server, to %q", p.Location)}
		}
		return nil
	case !markup(p.Header.Get("Content-Type")):
		if p.Header.Get("X-Content-Type-Options") != "nosniff" {
			return []string{fmt.Sprintf("a %s answer without X-Content-Type-Options: nosniff", p.Header.Get("Content-Type"))}
		}
		return nil
	}
	problems := cspProblems(p.Header.Get("Content-Security-Policy"))
	for _, l := range live {
		if i := strings.Index(p.Body, l); i >= 0 {
			problems = append(problems, fmt.Sprintf("hostile markup %q is live: …%s…", l, p.Body[max(i-80, 0):min(i+80, len(p.Body))]))
		}
	}
	return append(problems, liveMarkup(p.Body)...)
}

// markup reports whether a browser renders content of type ct as a document
// that can run script: HTML, SVG or XML.
func markup(ct string) bool {
	mt, _, _ := mime.ParseMediaType(ct)
	return mt == "text/html" || mt == "image/svg+xml" || strings.HasSuffix(mt, "xml")
}

// cspProblems says how csp falls short of the strict policy: scripts from this
// server only, nothing inline, nothing evaluated.
func cspProblems(csp string) []string {
	if csp == "" {
		return []string{"no Content-Security-Policy header"}
	}
	var problems []string
	if strings.Contains(csp, "'unsafe-") {
		problems = append(problems, fmt.Sprintf("the CSP allows unsafe sources: %q", csp))
	}
	directives := map[string]string{}
	for _, d := range strings.Split(csp, ";") {
		if name, sources, _ := strings.Cut(strings.TrimSpace(d), " "); name != "" {
			directives[name] = strings.TrimSpace(sources)
		}
	}
	script, ok := directives["script-src"]
	if !ok {
		script = directives["default-src"]
	}
	if script != "'self'" && script != "'none'" {
		problems = append(problems, fmt.Sprintf("the CSP's scripts are %q, not only 'self': %q", script, csp))
	}
	return problems
}

// urlAttributes are the attributes a browser follows or loads as a URL.
var urlAttributes = []string{"href", "src", "action", "formaction", "xlink:href", "poster", "cite", "background", "ping", "data"}

// liveMarkup parses body and lists what in it could run script: an inline
// script or one from elsewhere, an event-handler attribute, a script URL, a
// frame, plug-in or base element, a refresh.
func liveMarkup(body string) []string {
	var problems []string
	z := xhtml.NewTokenizer(strings.NewReader(body))
	inScript := false
	for {
		switch z.Next() {
		case xhtml.ErrorToken:
			return problems
		case xhtml.TextToken:
			if text := strings.TrimSpace(string(z.Text())); inScript && text != "" {
				problems = append(problems, fmt.Sprintf("inline script %.80q", text))
			}
		case xhtml.StartTagToken, xhtml.SelfClosingTagToken:
			tok := z.Token()
			inScript = tok.Data == "script"
			problems = append(problems, tagProblems(tok)...)
		case xhtml.EndTagToken:
			inScript = false
		}
	}
}

// ownPreview is the one frame the dashboard draws: the builder's preview of
// the form (served by the dashboard itself, under the same policy).
var ownPreview = regexp.MustCompile(`^/forms/\d+/preview$`)

// tagProblems lists what in one start tag could run script.
func tagProblems(tok xhtml.Token) []string {
	var problems []string
	switch tok.Data {
	case "iframe":
		if !ownPreview.MatchString(attr(tok, "src")) {
			problems = append(problems, fmt.Sprintf("a frame of something but the form's own preview: %s", tok))
		}
	case "frame", "object", "embed", "applet", "base":
		problems = append(problems, fmt.Sprintf("a <%s> element: %s", tok.Data, tok))
	case "script":
		if src := attr(tok, "src"); !strings.HasPrefix(src, "/assets/") {
			problems = append(problems, fmt.Sprintf("a script not from /assets: %s", tok))
		}
	case "meta":
		if strings.EqualFold(attr(tok, "http-equiv"), "refresh") {
			problems = append(problems, fmt.Sprintf("a refresh: %s", tok))
		}
	}
	for _, a := range tok.Attr {
		key := strings.ToLower(a.Key)
		v := strings.ToLower(strings.Map(dropSpace, a.Val))
		switch {
		case strings.HasPrefix(key, "on"), key == "srcdoc":
			problems = append(problems, fmt.Sprintf("an attribute that runs script, %s: %s", key, tok))
		case slices.Contains(urlAttributes, key) && (strings.HasPrefix(v, "javascript:") || strings.HasPrefix(v, "vbscript:") ||
			strings.HasPrefix(v, "data:") && v != "data:,"):
			problems = append(problems, fmt.Sprintf("a script URL in %s: %s", key, tok))
		}
	}
	return problems
}

// attr is the value of tok's attribute key ("" when it has none).
func attr(tok xhtml.Token, key string) string {
	for _, a := range tok.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// dropSpace drops what a browser ignores in a URL's scheme: spaces and
// control characters.
func dropSpace(r rune) rune {
	if r <= ' ' || r == 0x7f {
		return -1
	}
	return r
}

// clip shortens a body for a failure message.
func clip(body string) string {
	const most = 1500
	if len(body) > most {
		return body[:most] + "…"
	}
	return body
}

// TestOtherAccountReachesNothing: signed in as B, every dashboard route given
// A's ids (or B's form with A's question, response or conversation) answers
// 404, and its answer shows nothing of A's; B's own pages list nothing of A's;
// B's posts change nothing of A's (or B's) in the store; A's file is not
// served without its own signed link. Without an account at all, every route
// of a signed-in page sends the browser to sign in, shows nothing and changes
// nothing.
func TestOtherAccountReachesNothing(t *testing.T) {
	eachSweep(t, func(t *testing.T, env *servertest.Env) {
		w := buildWorld(t, env)
		for _, r := range routes {
			if r.inCross() {
				for _, ids := range w.crossIDs(r) {
					p := w.try(t, "as B, "+describeRoute(r, ids), w.b, r, ids)
					if want := r.wantCross(); p.Status != want {
						t.Errorf("as B, %s: status %d, want %d\n%s", describeRoute(r, ids), p.Status, want, clip(p.Body))
					}
				}
			}
			if !r.out {
				w.tryAsStranger(t, r)
			}
		}
		w.tryFile(t)
	})
}

// crossIDs are the ids B tries on r: A's; and, when the path (not the query)
// pairs a form with another object, B's own form with A's object.
func (w *world) crossIDs(r route) []map[string]string {
	out := []map[string]string{w.ids}
	if path, _, _ := strings.Cut(r.path, "?"); strings.Contains(path, "{form}") && strings.Count(path, "{") > 1 {
		mixed := maps.Clone(w.ids)
		mixed["form"] = w.bForm
		out = append(out, mixed)
	}
	return out
}

// tryAsStranger sends r with A's ids from a browser that is not signed in: it
// must be sent to sign in.
func (w *world) tryAsStranger(t *testing.T, r route) {
	t.Helper()
	what := "signed out, " + describeRoute(r, w.ids)
	p := w.try(t, what, newBrowser(t, w.env), r, w.ids)
	if p.Status != http.StatusSeeOther || !strings.HasPrefix(p.Location, "/signin") {
		t.Errorf("%s: %d %q, want a redirect to /signin\n%s", what, p.Status, p.Location, clip(p.Body))
	}
}

// try sends r with b and ids, posting B's values, and fails t when the answer
// shows anything of A's or the store changed; it returns the answer.
func (w *world) try(t *testing.T, what string, b *browser, r route, ids map[string]string) page {
	t.Helper()
	before := w.state(t)
	p := send(b, r, ids, r.crossValues())
	for _, s := range w.secrets {
		if strings.Contains(p.Body, s) {
			t.Errorf("%s shows A's %q", what, s)
		}
	}
	after := w.state(t)
	for _, k := range slices.Sorted(maps.Keys(before)) {
		if before[k] != after[k] {
			t.Errorf("%s changed %s:\nbefore %s\nafter  %s", what, k, before[k], after[k])
		}
	}
	return p
}

// tryFile asks for A's file as B without its signed link: bare, and with the
// expiry and signature of B's own file's link.
func (w *world) tryFile(t *testing.T) {
	t.Helper()
	_, query, _ := strings.Cut(w.bFile, "?")
	for _, path := range []string{"/files/" + w.ids["upload"], "/files/" + w.ids["upload"] + "?" + query} {
		if p := w.b.get(path); p.Status == http.StatusOK || strings.Contains(p.Body, "A's private file") {
			t.Errorf("as B, GET %s: %d, A's file is served", path, p.Status)
		}
	}
	if p := w.b.get(w.bFile); p.Status != http.StatusOK || p.Body != "Bob's file" {
		t.Errorf("B's own link serves %d %q: the check above proves nothing", p.Status, p.Body)
	}
}

// state is what the store holds of A (its forms; the form with its questions,
// responses, webhook settings, secrets and log, conversations and messages,
// analysis; keys and credit history) and of B (forms, keys, credit history),
// each part as JSON.
func (w *world) state(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for name, read := range w.stateParts(t) {
		v, err := read()
		if err != nil && form.ErrorCode(err) != form.NotFound {
			t.Fatalf("read %s: %v", name, err)
		}
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = string(raw)
	}
	return out
}

// stateParts are the readers of state, by name.
func (w *world) stateParts(t *testing.T) map[string]func() (any, error) {
	ctx, st := t.Context(), w.env.Store
	id, _ := form.ParseID(w.ids["form"])
	day := quota.Day(st.Now())
	return map[string]func() (any, error){
		"A's forms":       func() (any, error) { return st.ListForms(ctx, w.acctA.ID, nil, 100, 0) },
		"B's forms":       func() (any, error) { return st.ListForms(ctx, w.acctB.ID, nil, 100, 0) },
		"A's form":        func() (any, error) { return st.GetForm(ctx, w.acctA.ID, id) },
		"A's questions":   func() (any, error) { return st.AllQuestions(ctx, id) },
		"A's responses":   func() (any, error) { return listed(st.ListResponses(ctx, id, store.ResponseFilter{}, 100, 0)) },
		"A's secrets":     func() (any, error) { return st.WebhookSecrets(ctx, id, webhook.NewSecret) },
		"A's webhook log": func() (any, error) { return listed(st.WebhookLogs(ctx, id, 100, 0)) },
		"A's chats":       func() (any, error) { return conversations(ctx, st, id) },
		"A's analysis":    func() (any, error) { return st.GetAnalytics(ctx, id) },
		"A's keys":        func() (any, error) { return st.ListKeys(ctx, w.acctA.ID, day) },
		"A's credits":     func() (any, error) { return listed(st.UsageHistory(ctx, w.acctA.ID, nil, 100, 0)) },
		"B's keys":        func() (any, error) { return st.ListKeys(ctx, w.acctB.ID, day) },
		"B's credits":     func() (any, error) { return listed(st.UsageHistory(ctx, w.acctB.ID, nil, 100, 0)) },
		"stored files":    func() (any, error) { return countFiles(t, filepath.Join(w.env.Config.DataDir, "uploads")), nil },
	}
}

// listed is a page of a store's list without its total.
func listed[T any](list []T, _ int, err error) (any, error) { return list, err }

// conversations are the conversations of form id with their messages.
func conversations(ctx context.Context, st *store.Store, id int64) (any, error) {
	list, _, err := st.ListConversations(ctx, id, 100, 0)
	var out []any
	for i := 0; err == nil && i < len(list); i++ {
		var msgs []store.Message
		msgs, _, err = st.Messages(ctx, list[i].ID, 100, 0)
		out = append(out, list[i], msgs)
	}
	return out, err
}
