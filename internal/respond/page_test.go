package respond_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"forma/internal/form"
	"forma/internal/logic"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// testForm is a form created through the API for a page test.
type testForm struct {
	ID    int64
	Share string
	// Q maps a question's text to its id.
	Q map[string]int64
}

// qid returns the id of the question whose text starts with prefix.
func (f *testForm) qid(t testing.TB, prefix string) int64 {
	t.Helper()
	for text, id := range f.Q {
		if strings.HasPrefix(text, prefix) {
			return id
		}
	}
	t.Fatalf("no question starting with %q", prefix)
	return 0
}

// field is the HTML input name of the question starting with prefix.
func (f *testForm) field(t testing.TB, prefix string) string {
	return fmt.Sprintf("q_%d", f.qid(t, prefix))
}

func mustStatus(t testing.TB, r *servertest.Response, status int) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d; body: %.2000s", r.Status, status, r.Body)
	}
}

// createForm creates a form with the API, sets logic (question text prefix ->
// logic built from the ids) and publishes it unless publish is false.
func createForm(t testing.TB, env *servertest.Env, key string, body map[string]any, logic func(f *testForm) map[string]any, publish bool) *testForm {
	t.Helper()
	r := env.Do("POST", "/api/v1/forms", key, body)
	mustStatus(t, r, http.StatusCreated)
	var created struct {
		ID        int64  `json:"id"`
		ShareURL  string `json:"shareUrl"`
		Questions []struct {
			ID       int64  `json:"id"`
			Question string `json:"question"`
		} `json:"questions"`
	}
	if err := json.Unmarshal(r.Body, &created); err != nil {
		t.Fatal(err)
	}
	f := &testForm{ID: created.ID, Share: created.ShareURL, Q: map[string]int64{}}
	for _, q := range created.Questions {
		f.Q[q.Question] = q.ID
	}
	if logic != nil {
		for prefix, l := range logic(f) {
			path := fmt.Sprintf("/api/v1/forms/%d/fields/%d", f.ID, f.qid(t, prefix))
			mustStatus(t, env.Do("PATCH", path, key, map[string]any{"conditionalLogic": l}), http.StatusOK)
		}
	}
	if publish {
		mustStatus(t, env.Do("POST", fmt.Sprintf("/api/v1/forms/%d/publish", f.ID), key, nil), http.StatusOK)
	}
	return f
}

// allTypesQuestions has one question of each of the 15 types; every text starts
// with a distinct word so that tests can find it.
func allTypesQuestions() []any {
	return []any{
		map[string]any{"type": "text", "question": "Name", "required": true},
		map[string]any{"type": "textarea", "question": "About you"},
		map[string]any{"type": "email", "question": "Email address", "required": true},
		map[string]any{"type": "number", "question": "Age"},
		map[string]any{"type": "phone", "question": "Phone number"},
		map[string]any{"type": "url", "question": "Website or portfolio"},
		map[string]any{"type": "date", "question": "Start date"},
		map[string]any{"type": "time", "question": "Best time to call"},
		map[string]any{"type": "select", "question": "Team", "options": []string{"Design", "Engineering", "Sales"}},
		map[string]any{"type": "multi_select", "question": "Languages", "options": []string{"Go", "JavaScript", "SQL"}},
		map[string]any{"type": "rating", "question": "Rating of our process"},
		map[string]any{"type": "slider", "question": "Confidence", "sliderConfig": map[string]any{"min": 0, "max": 10, "step": 1}},
		map[string]any{"type": "yes_no", "question": "Remote OK"},
		map[string]any{"type": "file_upload", "question": "CV"},
		map[string]any{"type": "currency", "question": "Expected salary", "currencyConfig": map[string]any{"currency": "EUR", "min": 1000, "max": 500000}},
	}
}

func allTypesForm(t testing.TB, env *servertest.Env, key string, mode string) *testForm {
	return createForm(t, env, key, map[string]any{
		"title": "Job application", "description": "Tell us about you.\nIt takes two minutes.",
		"displayMode": mode, "questions": allTypesQuestions(),
	}, nil, true)
}

func getPage(t testing.TB, env *servertest.Env, share string) (*servertest.Response, string) {
	t.Helper()
	r := env.Do("GET", "/f/"+share, "", nil)
	return r, string(r.Body)
}

var startedRE = regexp.MustCompile(`name="_started" value="([^"]+)"`)

// startToken reads the _started value of a rendered page.
func startToken(t testing.TB, page string) string {
	t.Helper()
	m := startedRE.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no _started input in the page")
	}
	return html.UnescapeString(m[1])
}

// upload is a file posted with the form.
type upload struct {
	field, name string
	body        []byte
}

// postPage posts the HTML form as a browser without JavaScript does.
func postPage(t testing.TB, env *servertest.Env, share string, values [][2]string, files ...upload) *servertest.Response {
	t.Helper()
	return env.Send(pageRequest(t, env, share, values, files...))
}

// pageRequest is the HTML form's post of values and files.
func pageRequest(t testing.TB, env *servertest.Env, share string, values [][2]string, files ...upload) *http.Request {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, kv := range values {
		if err := mw.WriteField(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range files {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename=%q`, f.field, f.name))
		h.Set("Content-Type", "application/octet-stream")
		part, err := mw.CreatePart(h)
		if err != nil {
			t.Fatal(err)
		}
		part.Write(f.body)
	}
	mw.Close()
	req, err := http.NewRequest("POST", env.URL+"/f/"+share+"/submissions", &buf)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return req
}

// responses lists the completed submissions of a form.
func responses(t testing.TB, env *servertest.Env, formID int64) []form.Submission {
	t.Helper()
	list, _, err := env.Store.ListResponses(context.Background(), formID, store.ResponseFilter{}, 10, 0)
	if err != nil {
		t.Fatal(err)
	}
	return list
}

func mustContain(t testing.TB, body string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(body, w) {
			t.Errorf("page lacks %s", w)
		}
	}
}

func mustMatch(t testing.TB, body string, patterns ...string) {
	t.Helper()
	for _, p := range patterns {
		if !regexp.MustCompile(p).MatchString(body) {
			t.Errorf("page does not match %s", p)
		}
	}
}

func TestPageRendersEveryType(t *testing.T) {
	env := servertest.New(t, store.SQLite)
	f := allTypesForm(t, env, env.NewKey(), "single-page")
	r, page := getPage(t, env, f.Share)
	mustStatus(t, r, http.StatusOK)
	if ct := r.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	csp := r.Header.Get("Content-Security-Policy")
	for _, want := range []string{"script-src 'self'", "default-src 'none'", "frame-ancestors *", "form-action 'self'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %s", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe-inline") || r.Header.Get("X-Frame-Options") != "" {
		t.Errorf("CSP %q / X-Frame-Options %q", csp, r.Header.Get("X-Frame-Options"))
	}
	if r.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("Cache-Control %q", r.Header.Get("Cache-Control"))
	}
	if regexp.MustCompile(`<script>|<script [^>]*>[^<]`).MatchString(page) || strings.Contains(page, " style=") {
		t.Error("page has an inline script or style")
	}

	mustContain(t, page,
		`<h1 id="form-title">Job application</h1>`,
		`<p class="description">Tell us about you.`+"\n"+`It takes two minutes.</p>`,
		`action="/f/`+f.Share+`/submissions" enctype="multipart/form-data"`,
		`<input type="hidden" name="_started" value="`,
		`name="website" value="" tabindex="-1" autocomplete="off"`,
	)
	mustMatch(t, page, `<div class="hp" aria-hidden="true">`)
	mustContain(t, page, `<html lang="en" dir="ltr">`, `<meta name="viewport" content="width=device-width, initial-scale=1">`)

	// The definition form.js runs the logic on is in a data- attribute.
	m := regexp.MustCompile(`data-definition="([^"]*)"`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no data-definition")
	}
	var def struct {
		DisplayMode string           `json:"displayMode"`
		Questions   []map[string]any `json:"questions"`
	}
	if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &def); err != nil || len(def.Questions) != 15 || def.DisplayMode != "single-page" {
		t.Errorf("data-definition: %v %+v", err, def)
	}

	// Single-control questions: the right control, tied to a label.
	single := map[string]string{
		"Name":                 `<input class="input" type="text" id="%[1]s" name="%[1]s" value="" maxlength="1000" required`,
		"About you":            `<textarea class="input" id="%[1]s" name="%[1]s" rows="5"`,
		"Email address":        `<input class="input" type="email" id="%[1]s" name="%[1]s" value="" maxlength="254" inputmode="email" autocomplete="email" required`,
		"Age":                  `<input class="input" type="number" id="%[1]s" name="%[1]s" value="" inputmode="decimal" step="any"`,
		"Phone number":         `<input class="input" type="tel" id="%[1]s" name="%[1]s"`,
		"Website or portfolio": `<input class="input" type="url" id="%[1]s" name="%[1]s"`,
		"Start date":           `<input class="input" type="date" id="%[1]s" name="%[1]s"`,
		"Best time to call":    `<input class="input" type="time" id="%[1]s" name="%[1]s"`,
		"Team":                 `<select class="input" id="%[1]s" name="%[1]s"`,
		"Confidence":           `<input type="range" class="range" id="%[1]s" name="%[1]s" min="0" max="10" step="1"`,
		"CV":                   `<input type="file" class="file" id="%[1]s" name="%[1]s" accept=".pdf,`,
		"Expected salary":      `<input type="number" class="input" id="%[1]s" name="%[1]s" step="any" inputmode="decimal" min="1000" max="500000"`,
	}
	for text, control := range single {
		name := f.field(t, text)
		mustContain(t, page, fmt.Sprintf(control, name), fmt.Sprintf(`<label class="q-label" for="%s" id="%s-label">`, name, name))
	}
	mustContain(t, page, `<span class="affix prefix" aria-hidden="true">€</span>`, `<span class="affix suffix" aria-hidden="true">EUR</span>`,
		"Amount in EUR, from 1000 to 500000.", "From 0 to 10 in steps of 1.")
	mustContain(t, page, `<option value="">Choose an option…</option>`, `<option value="Engineering">Engineering</option>`)

	// Groups: a fieldset with a legend, each choice with its own label.
	for _, text := range []string{"Languages", "Rating", "Remote OK"} {
		name := f.field(t, text)
		mustContain(t, page, fmt.Sprintf(`<legend class="q-label" id="%s-label">`, name))
	}
	langs := f.field(t, "Languages")
	for i, o := range []string{"Go", "JavaScript", "SQL"} {
		mustContain(t, page, fmt.Sprintf(`<input type="checkbox" id="%[1]s_%[2]d" name="%[1]s" value="%[3]s"><label for="%[1]s_%[2]d">%[3]s</label>`, langs, i, o))
	}
	rating := f.field(t, "Rating")
	for i := 1; i <= 5; i++ {
		mustMatch(t, page, fmt.Sprintf(`<label class="star" for="%[1]s_%[2]d"><input type="radio" id="%[1]s_%[2]d" name="%[1]s" value="%[3]d">.*?<span class="vh">%[3]d of 5 stars</span></label>`, rating, i-1, i))
	}
	yes := f.field(t, "Remote OK")
	mustContain(t, page,
		fmt.Sprintf(`<input type="radio" id="%[1]s_0" name="%[1]s" value="true"><label for="%[1]s_0">Yes</label>`, yes),
		fmt.Sprintf(`<input type="radio" id="%[1]s_1" name="%[1]s" value="false"><label for="%[1]s_1">No</label>`, yes))

	// Required markers and hints tied to their inputs.
	name := f.field(t, "Name")
	mustContain(t, page, `<span class="req" aria-hidden="true"> *</span>`, "Questions marked with")
	mustMatch(t, page, fmt.Sprintf(`id="%[1]s" name="%[1]s"[^>]* aria-describedby="%[1]s-hint"`, f.field(t, "Phone number")))
	if !strings.Contains(page, fmt.Sprintf(`id="%s-error" hidden`, name)) {
		t.Error("an error paragraph without error must be hidden")
	}

	// Every control with an id has a label for it, or sits in a labelled group.
	ids := regexp.MustCompile(`<(?:input|select|textarea) [^>]*id="(q_\d+(?:_\d+)?)"`).FindAllStringSubmatch(page, -1)
	if len(ids) < 15 {
		t.Fatalf("found %d controls", len(ids))
	}
	for _, m := range ids {
		if !strings.Contains(page, `for="`+m[1]+`"`) {
			t.Errorf("control %s has no label", m[1])
		}
	}

	// The assets the page names are served, versioned and cacheable.
	assetRE := regexp.MustCompile(`(?:src|href)="(/assets/([a-z.]+)\?v=([0-9a-f]+))"`)
	found := assetRE.FindAllStringSubmatch(page, -1)
	if len(found) != 3 {
		t.Fatalf("assets %v", found)
	}
	for _, m := range found {
		a := env.Do("GET", html.UnescapeString(m[1]), "", nil)
		mustStatus(t, a, http.StatusOK)
		if cc := a.Header.Get("Cache-Control"); !strings.Contains(cc, "immutable") {
			t.Errorf("%s Cache-Control %q", m[2], cc)
		}
		etag := a.Header.Get("ETag")
		if etag != `"`+m[3]+`"` {
			t.Errorf("%s ETag %q, want the hash %s", m[2], etag, m[3])
		}
		req, _ := http.NewRequest("GET", env.URL+"/assets/"+m[2], nil)
		req.Header.Set("If-None-Match", etag)
		if again := env.Send(req); again.Status != http.StatusNotModified {
			t.Errorf("%s revalidation: %d", m[2], again.Status)
		}
		if m[2] == "logic.js" && !bytes.Equal(a.Body, logic.Script) {
			t.Error("/assets/logic.js is not logic.Script")
		}
	}
	if r := env.Do("GET", "/assets/nope.js", "", nil); r.Status != http.StatusNotFound {
		t.Errorf("unknown asset: %d", r.Status)
	}
	checkModules(t, env, page)
}

// checkModules checks the page script's ES modules: the entry is a module script,
// the others are preloaded, all from one versioned folder and cacheable for a
// year; a page of an older version still gets them, revalidated.
func checkModules(t *testing.T, env *servertest.Env, page string) {
	t.Helper()
	mustMatch(t, page, `<script type="module" src="/assets/form/[0-9a-f]+/main\.js"></script>`)
	found := regexp.MustCompile(`(?:<script type="module" src|<link rel="modulepreload" href)="/assets/form/([0-9a-f]+)/([a-z]+\.js)"`).FindAllStringSubmatch(page, -1)
	names := map[string]bool{}
	for _, m := range found {
		if m[1] != found[0][1] {
			t.Errorf("modules from two versions: %s and %s", found[0][1], m[1])
		}
		names[m[2]] = true
		a := env.Do("GET", "/assets/form/"+m[1]+"/"+m[2], "", nil)
		mustStatus(t, a, http.StatusOK)
		if ct, cc := a.Header.Get("Content-Type"), a.Header.Get("Cache-Control"); ct != "text/javascript; charset=utf-8" || !strings.Contains(cc, "immutable") {
			t.Errorf("%s: Content-Type %q, Cache-Control %q", m[2], ct, cc)
		}
		if old := env.Do("GET", "/assets/form/0123456789abcdef/"+m[2], "", nil); old.Status != http.StatusOK ||
			old.Header.Get("Cache-Control") != "public, no-cache" || !bytes.Equal(old.Body, a.Body) {
			t.Errorf("%s under another version: %d, Cache-Control %q", m[2], old.Status, old.Header.Get("Cache-Control"))
		}
	}
	for _, want := range []string{"main.js", "words.js", "frame.js", "messages.js", "state.js", "steps.js", "uploads.js", "visibility.js"} {
		if !names[want] {
			t.Errorf("the page does not load the module %s (it loads %v)", want, names)
		}
	}
	if r := env.Do("GET", "/assets/form/"+found[0][1]+"/nope.js", "", nil); r.Status != http.StatusNotFound {
		t.Errorf("unknown module: %d", r.Status)
	}
}

func TestPageNotFound(t *testing.T) {
	env := servertest.New(t, store.SQLite)
	key := env.NewKey()
	f := createForm(t, env, key, map[string]any{"title": "Draft", "questions": []any{map[string]any{"question": "Q"}}}, nil, false)
	for _, share := range []string{f.Share, "doesnotexist123"} {
		r, page := getPage(t, env, share)
		mustStatus(t, r, http.StatusNotFound)
		if !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
			t.Errorf("Content-Type %q", r.Header.Get("Content-Type"))
		}
		mustContain(t, page, "<title>Form not found</title>", "<h1 id=\"nf-title\">Form not found</h1>")
		if strings.Contains(page, "Draft") {
			t.Error("the 404 page shows the unpublished form's title")
		}
	}
	// Published, then unpublished again: 404.
	mustStatus(t, env.Do("POST", fmt.Sprintf("/api/v1/forms/%d/publish", f.ID), key, nil), http.StatusOK)
	if r, _ := getPage(t, env, f.Share); r.Status != http.StatusOK {
		t.Fatalf("published: %d", r.Status)
	}
	mustStatus(t, env.Do("POST", fmt.Sprintf("/api/v1/forms/%d/unpublish", f.ID), key, nil), http.StatusOK)
	if r, _ := getPage(t, env, f.Share); r.Status != http.StatusNotFound {
		t.Fatalf("unpublished: %d", r.Status)
	}
	if r := postPage(t, env, f.Share, [][2]string{{"website", ""}}); r.Status != http.StatusNotFound || !strings.Contains(string(r.Body), "Form not found") {
		t.Errorf("post to an unpublished form: %d", r.Status)
	}
}

func TestPageEscapesUserText(t *testing.T) {
	env := servertest.New(t, store.SQLite)
	const evil = `<script>alert("x")</script>'"&`
	f := createForm(t, env, env.NewKey(), map[string]any{
		"title": "Title " + evil, "description": "Description " + evil,
		"questions": []any{
			map[string]any{"type": "text", "question": "Text " + evil, "required": true},
			map[string]any{"type": "select", "question": "Pick " + evil, "options": []string{"Option " + evil, "Plain"}},
			map[string]any{"type": "multi_select", "question": "Many " + evil, "options": []string{"Choice " + evil, "Other"}},
			map[string]any{"type": "textarea", "question": "Long", "required": true},
		},
	}, nil, true)
	r, page := getPage(t, env, f.Share)
	mustStatus(t, r, http.StatusOK)
	checkEscaped := func(page string) {
		t.Helper()
		if strings.Contains(page, "<script>alert") || strings.Contains(page, `alert("x")`) {
			t.Errorf("user text rendered as HTML:\n%s", page)
		}
	}
	checkEscaped(page)
	esc := `&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&#39;&#34;&amp;`
	mustContain(t, page, "<title>Title "+esc+"</title>", `<h1 id="form-title">Title `+esc, "Description "+esc,
		"Text "+esc, `<option value="Option `+esc+`">Option `+esc+`</option>`, `value="Choice `+esc+`"`)

	// Values posted back are escaped too, in inputs and textareas.
	typed := `"><script>alert("x")</script>`
	resp := postPage(t, env, f.Share, [][2]string{
		{"_started", startToken(t, page)}, {"website", ""},
		{f.field(t, "Pick"), "Option " + evil}, {f.field(t, "Many"), "Choice " + evil},
		{f.field(t, "Long"), "</textarea>" + typed},
	})
	mustStatus(t, resp, http.StatusBadRequest)
	body := string(resp.Body)
	checkEscaped(body)
	if strings.Contains(body, "</textarea><script") || strings.Contains(body, `"><script`) {
		t.Error("a posted value broke out of its element")
	}
	mustContain(t, body, `&lt;/textarea&gt;&#34;&gt;&lt;script&gt;`,
		`<option value="Option `+esc+`" selected>`, `value="Choice `+esc+`" checked>`)
}

func TestPageNoJSErrorsKeepAnswers(t *testing.T) {
	env := servertest.New(t, store.SQLite)
	f := allTypesForm(t, env, env.NewKey(), "single-page")
	_, page := getPage(t, env, f.Share)
	resp := postPage(t, env, f.Share, [][2]string{
		{"_started", startToken(t, page)}, {"website", ""},
		{f.field(t, "Email"), "not-an-email"},
		{f.field(t, "About"), "Line one\r\nLine two"},
		{f.field(t, "Age"), "42"},
		{f.field(t, "Team"), "Sales"},
		{f.field(t, "Languages"), "Go"}, {f.field(t, "Languages"), "SQL"},
		{f.field(t, "Rating"), "4"},
		{f.field(t, "Confidence"), "7"},
		{f.field(t, "Remote"), "false"},
		{f.field(t, "Expected"), "50"},
	}, upload{f.field(t, "CV"), "cv.txt", []byte("My CV, in plain text.\n")})
	mustStatus(t, resp, http.StatusBadRequest)
	body := string(resp.Body)
	name, email, salary := f.field(t, "Name"), f.field(t, "Email"), f.field(t, "Expected")

	// Error summary with links, inline errors tied to the inputs.
	mustContain(t, body, "<title>Error: Job application</title>",
		`<div class="error-summary" id="error-summary" role="alert" tabindex="-1"`,
		"Please correct the highlighted answers.",
		`<a href="#`+name+`">Name: Please answer this question.</a>`,
		`<a href="#`+email+`">Email address: This answer must be a valid email address`,
		`<a href="#`+salary+`">Expected salary: This answer must be between 1000 and 500000.</a>`,
		`<p class="error-message" id="`+name+`-error"><span class="vh">Error: </span><span class="error-text">Please answer this question.</span></p>`,
	)
	mustMatch(t, body,
		`id="`+name+`" name="`+name+`" value=""[^>]* aria-describedby="`+name+`-error" aria-invalid="true"`,
		`id="`+email+`" name="`+email+`" value="not-an-email"[^>]* aria-describedby="`+email+`-error" aria-invalid="true"`,
	)
	if n := strings.Count(body, `class="error-message" id=`) - strings.Count(body, `-error" hidden>`); n != 3 {
		t.Errorf("%d visible errors, want 3", n)
	}

	// Every answer is kept.
	mustContain(t, body,
		">\nLine one", "Line two</textarea>",
		`name="`+f.field(t, "Age")+`" value="42"`,
		`<option value="Sales" selected>`,
		`name="`+f.field(t, "Languages")+`" value="Go" checked>`,
		`name="`+f.field(t, "Languages")+`" value="SQL" checked>`,
		`name="`+f.field(t, "Rating")+`" value="4" checked>`,
		`value="7" data-answered`,
		`name="`+f.field(t, "Remote")+`" value="false" checked>`,
		`max="500000" value="50"`,
		`Uploaded: <strong class="file-name">cv.txt</strong>`,
	)
	if strings.Contains(body, `value="JavaScript" checked`) || strings.Contains(body, `value="true" checked`) {
		t.Error("an unchosen option came back checked")
	}
	cv := f.field(t, "CV")
	m := regexp.MustCompile(`<input type="hidden" name="` + cv + `" value="([A-Za-z0-9_-]+)" data-upload-id>`).FindStringSubmatch(body)
	if m == nil {
		t.Fatal("the uploaded file is not kept for the next attempt")
	}
	uploadID := m[1]

	// A second failed attempt (the file is re-posted by id only) still names the file.
	resp = postPage(t, env, f.Share, [][2]string{
		{"_started", startToken(t, body)}, {"website", ""}, {cv, uploadID}, {email, "still wrong"},
	})
	mustStatus(t, resp, http.StatusBadRequest)
	mustContain(t, string(resp.Body), `Uploaded: <strong class="file-name">cv.txt</strong>`, `value="`+uploadID+`" data-upload-id>`)

	// The corrected post completes, with the file kept from the first attempt.
	resp = postPage(t, env, f.Share, [][2]string{
		{"_started", startToken(t, body)}, {"website", ""}, {cv, uploadID},
		{name, "Ada"}, {email, "ada@example.com"}, {salary, "52000"},
	})
	mustStatus(t, resp, http.StatusOK)
	mustContain(t, string(resp.Body), "<title>Thank you: Job application</title>", "Thank you!")
	list := responses(t, env, f.ID)
	if len(list) != 1 {
		t.Fatalf("%d responses", len(list))
	}
	a := list[0].Answers
	if a[f.qid(t, "Name")] != "Ada" || a[f.qid(t, "CV")] != uploadID || a[f.qid(t, "Expected")] != 52000.0 {
		t.Errorf("answers %v", a)
	}
}

func TestPageNoJSValidSubmission(t *testing.T) {
	env := servertest.New(t, store.SQLite)
	f := allTypesForm(t, env, env.NewKey(), "multi-step")
	r, page := getPage(t, env, f.Share)
	mustStatus(t, r, http.StatusOK)
	// Without JavaScript a multi-step form is one page with every question.
	if n := strings.Count(page, `<div class="q q-`); n != 15 {
		t.Errorf("%d questions rendered, want 15", n)
	}
	mustContain(t, page, `class="forma-form multi-step"`, `<div class="progress" id="forma-progress" hidden>`)
	resp := postPage(t, env, f.Share, [][2]string{
		{"_started", startToken(t, page)}, {"website", ""},
		{f.field(t, "Name"), "Grace"}, {f.field(t, "Email"), "grace@example.com"},
		{f.field(t, "Languages"), "Go"}, {f.field(t, "Remote"), "true"}, {f.field(t, "Rating"), "5"},
		{f.field(t, "Start date"), "2027-01-04"}, {f.field(t, "Best time"), "09:30"},
	})
	mustStatus(t, resp, http.StatusOK)
	mustContain(t, string(resp.Body), `<h1 id="thanks-title" tabindex="-1">Thank you!</h1>`, "Your response to <strong>Job application</strong> has been recorded.")
	list := responses(t, env, f.ID)
	if len(list) != 1 {
		t.Fatalf("%d responses", len(list))
	}
	got, _ := json.Marshal(list[0].Answers)
	want, _ := json.Marshal(map[int64]any{
		f.qid(t, "Name"): "Grace", f.qid(t, "Email"): "grace@example.com", f.qid(t, "Languages"): []string{"Go"},
		f.qid(t, "Remote"): true, f.qid(t, "Rating"): 5, f.qid(t, "Start date"): "2027-01-04", f.qid(t, "Best time"): "09:30",
	})
	if string(got) != string(want) {
		t.Errorf("answers %s, want %s", got, want)
	}
}

func TestPageHoneypot(t *testing.T) {
	env := servertest.New(t, store.SQLite)
	f := createForm(t, env, env.NewKey(), map[string]any{"title": "Contact",
		"questions": []any{map[string]any{"question": "Message", "required": true}}}, nil, true)
	_, page := getPage(t, env, f.Share)
	resp := postPage(t, env, f.Share, [][2]string{
		{"_started", startToken(t, page)}, {"website", "http://spam.example"}, {f.field(t, "Message"), "Buy now"},
	})
	mustStatus(t, resp, http.StatusBadRequest)
	body := string(resp.Body)
	mustContain(t, body, "This submission looks automated and was not accepted.", `role="alert"`,
		`value="Buy now"`, `name="website" value=""`)
	if n := len(responses(t, env, f.ID)); n != 0 {
		t.Errorf("%d responses stored", n)
	}
	// Without the start token the post is refused too, with the answers kept.
	resp = postPage(t, env, f.Share, [][2]string{{"website", ""}, {f.field(t, "Message"), "Hello"}})
	mustStatus(t, resp, http.StatusBadRequest)
	mustContain(t, string(resp.Body), "This form has expired or was changed.", `value="Hello"`)
}

func TestPageHidesLogicHiddenQuestionsWithScriptOnly(t *testing.T) {
	env := servertest.New(t, store.SQLite)
	f := createForm(t, env, env.NewKey(), map[string]any{"title": "Logic", "questions": []any{
		map[string]any{"type": "select", "question": "Contact by", "options": []string{"Email", "Phone"}},
		map[string]any{"type": "email", "question": "Your email", "required": true},
	}}, func(f *testForm) map[string]any {
		return map[string]any{"Your email": map[string]any{"showIf": map[string]any{"questionId": f.qid(t, "Contact"), "operator": "equals", "value": "Email"}}}
	}, true)
	_, page := getPage(t, env, f.Share)
	// Marked for the script (no flash), but in the page for browsers without it.
	mustContain(t, page, fmt.Sprintf(`<div class="q q-input logic-hidden" id="question-%d"`, f.qid(t, "Your email")),
		"Depends on your earlier answers: answer only if it applies to you.")
	// A no-JS post that leaves the hidden required question empty completes.
	resp := postPage(t, env, f.Share, [][2]string{{"_started", startToken(t, page)}, {"website", ""}, {f.field(t, "Contact"), "Phone"}})
	mustStatus(t, resp, http.StatusOK)
}

// TestPageStorageFailure: when a posted file cannot be stored, the page answers a
// 500 that names only the request id, the cause is logged with it, and nothing is
// recorded.
func TestPageStorageFailure(t *testing.T) {
	env := servertest.New(t, store.SQLite)
	f := createForm(t, env, env.NewKey(), map[string]any{"title": "CV", "questions": []any{
		map[string]any{"type": "file_upload", "question": "Resume"}}}, nil, true)
	_, page := getPage(t, env, f.Share)
	uploads := filepath.Join(env.Config.DataDir, "uploads")
	if err := os.RemoveAll(uploads); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(uploads, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	resp := postPage(t, env, f.Share, [][2]string{{"_started", startToken(t, page)}, {"website", ""}},
		upload{field: f.field(t, "Resume"), name: "cv.pdf", body: []byte("%PDF-1.4 a resume")})
	mustStatus(t, resp, http.StatusInternalServerError)
	id := resp.Header.Get("X-Request-Id")
	mustContain(t, string(resp.Body), "Request id: "+id)
	if strings.Contains(string(resp.Body), env.Config.DataDir) {
		t.Errorf("the 500 page reveals a server path: %s", resp.Body)
	}
	if logs := env.Logs(); !strings.Contains(logs, "request_id="+id) || !strings.Contains(logs, uploads) {
		t.Errorf("the failure is not logged with request id %s and its cause:\n%s", id, logs)
	}
	if n := len(responses(t, env, f.ID)); n != 0 {
		t.Errorf("%d responses recorded", n)
	}
}
