package dashboard_test

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"forma/internal/form"
	"forma/internal/server/servertest"
)

// survey is a published form made through the API: its id, share token, and
// question ids in order.
type survey struct {
	ID        int64
	Share     string
	Questions []int64
}

// path is the dashboard path of the survey's responses, with suffix.
func (s survey) path(suffix string) string { return fmt.Sprintf("/forms/%d/responses%s", s.ID, suffix) }

// newSurvey creates and publishes a form with questions through the API with key.
func newSurvey(t *testing.T, env *servertest.Env, key, title string, questions ...map[string]any) survey {
	t.Helper()
	r := env.For(t).Do("POST", "/api/v1/forms", key, map[string]any{"title": title, "questions": questions})
	if r.Status != http.StatusCreated {
		t.Fatalf("create form: %d %s", r.Status, r.Body)
	}
	f := r.JSON(t)
	s := survey{ID: int64(f["id"].(float64)), Share: f["shareUrl"].(string)}
	for _, q := range f["questions"].([]any) {
		s.Questions = append(s.Questions, int64(q.(map[string]any)["id"].(float64)))
	}
	if r := env.For(t).Do("POST", fmt.Sprintf("/api/v1/forms/%d/publish", s.ID), key, nil); r.Status != http.StatusOK {
		t.Fatalf("publish: %d %s", r.Status, r.Body)
	}
	return s
}

// submit sends answers (question index → value) as a respondent and returns the
// submission's id.
func (s survey) submit(t *testing.T, env *servertest.Env, answers map[int]any) string {
	t.Helper()
	return s.submitWith(t, env, answers, nil)
}

// submitWith is submit with the values of hidden fields.
func (s survey) submitWith(t *testing.T, env *servertest.Env, answers map[int]any, hidden map[string]string) string {
	t.Helper()
	byID := map[string]any{}
	for i, v := range answers {
		byID[fmt.Sprint(s.Questions[i])] = v
	}
	body := map[string]any{"answers": byID}
	if hidden != nil {
		body["hidden"] = hidden
	}
	r := env.For(t).Do("POST", "/f/"+s.Share+"/submissions", "", body)
	if r.Status != http.StatusCreated {
		t.Fatalf("submit: %d %s", r.Status, r.Body)
	}
	time.Sleep(2 * time.Millisecond) // distinct completion times
	return r.JSON(t)["id"].(string)
}

// load stores completed submissions directly, one per answer of question 0, the
// first completed at first and each later one step after the one before.
func (s survey) load(t *testing.T, env *servertest.Env, first time.Time, step time.Duration, answers ...any) {
	t.Helper()
	subs := make([]form.Submission, len(answers))
	for i, v := range answers {
		at := first.Add(time.Duration(i) * step)
		subs[i] = form.Submission{ID: fmt.Sprintf("loaded-%d-%03d", s.ID, i), FormID: s.ID, StartedAt: at, UpdatedAt: at,
			CompletedAt: &at, Answers: map[int64]any{s.Questions[0]: v}}
	}
	if err := env.Store.CreateSubmissions(t.Context(), subs); err != nil {
		t.Fatal(err)
	}
}

// signedInOwner returns a browser signed in as a new account, and an API key of it.
func signedInOwner(t *testing.T, env *servertest.Env, email string) (*browser, string) {
	t.Helper()
	acct := withPassword(t, env, email, password)
	b := newBrowser(t, env)
	b.signIn(email, password)
	return b, env.Key(acct, nil, nil)
}

var text = map[string]any{"type": "text", "question": "Comment"}

// TestResponsesTable: the table shows each answer under its question, newest
// first, 25 a page, with a validated page number; the forms page links to it; a
// form without responses says what to do.
func TestResponsesTable(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		b, key := signedInOwner(t, env, "ada@example.com")
		empty := newSurvey(t, env, key, "Quiet form", text)
		if p := b.get(empty.path("")); p.Status != http.StatusOK || !strings.Contains(p.Body, "No responses yet — share the form") ||
			!strings.Contains(p.Body, env.URL+"/f/"+empty.Share) {
			t.Fatalf("empty responses page: %d\n%s", p.Status, p.Body)
		}
		s := newSurvey(t, env, key, "Busy form", text, map[string]any{"type": "yes_no", "question": "Again?"})
		var answers []any
		for i := range 30 {
			answers = append(answers, fmt.Sprintf("Person %02d", i))
		}
		s.load(t, env, time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC), time.Minute, answers...)
		if p := b.get("/forms"); !strings.Contains(p.Body, `href="`+s.path("")+`">Responses (30)</a>`) {
			t.Errorf("the forms page has no link to the responses:\n%s", p.Body)
		}
		p := b.get(s.path(""))
		if p.Status != http.StatusOK {
			t.Fatalf("responses page: %d\n%s", p.Status, p.Body)
		}
		for _, want := range []string{`<th scope="col">Comment</th>`, `<th scope="col">Again?</th>`, "<td>Person 29</td>",
			"Responses 1–25 of 30", "1\u00a0Nov\u00a02026, 09:29\u00a0UTC", s.path("?page=2"), s.path("/export.csv")} {
			if !strings.Contains(p.Body, want) {
				t.Errorf("the responses page lacks %q", want)
			}
		}
		if rows := strings.Count(p.Body, `<th scope="row">`); rows != 25 {
			t.Errorf("%d rows on page 1, want 25", rows)
		}
		if i, j := strings.Index(p.Body, "Person 29"), strings.Index(p.Body, "Person 05"); i < 0 || j < i ||
			strings.Contains(p.Body, "Person 04") {
			t.Errorf("page 1 is not the 25 newest, newest first")
		}
		p = b.get(s.path("?page=2"))
		if rows := strings.Count(p.Body, `<th scope="row">`); rows != 5 || !strings.Contains(p.Body, "Person 00") ||
			!strings.Contains(p.Body, "Responses 26–30 of 30") {
			t.Errorf("page 2 has %d rows:\n%s", rows, p.Body)
		}
		for _, bad := range []string{"0", "-1", "x", "1.5"} {
			if p := b.get(s.path("?page=" + bad)); p.Status != http.StatusBadRequest {
				t.Errorf("page=%s: status %d, want 400", bad, p.Status)
			}
		}
		if p := b.get(s.path("?page=3")); p.Status != http.StatusOK || !strings.Contains(p.Body, "no responses on this page") {
			t.Errorf("a page past the end: %d", p.Status)
		}
	})
}

// TestResponsesOfUnknownForms: the responses pages of an id that names no form
// are 404 pages. (Other accounts' forms: security_test.go.)
func TestResponsesOfUnknownForms(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		b, _ := signedInOwner(t, env, "ada@example.com")
		for _, path := range []string{"/forms/x/responses", "/forms/99999/summary", "/forms/99999/responses/export.csv"} {
			if p := b.get(path); p.Status != http.StatusNotFound {
				t.Errorf("GET %s: %d", path, p.Status)
			}
		}
	})
}

// TestDeleteResponse: the detail shows answers and the file's signed link; delete
// asks first, refuses a cross-site post, then removes the response (the API no
// longer finds it) and its stored file.
func TestDeleteResponse(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		b, key := signedInOwner(t, env, "ada@example.com")
		s := newSurvey(t, env, key, "Applications", text, map[string]any{"type": "file_upload", "question": "CV"})
		id := s.submit(t, env, map[int]any{0: "Hire me", 1: upload(t, env, s.Share, "cv.txt", []byte("my life"))})
		uploads := filepath.Join(env.Config.DataDir, "uploads")
		if n := countFiles(t, uploads); n != 1 {
			t.Fatalf("%d stored files before the delete", n)
		}
		p := b.get(s.path("/" + id))
		link := regexp.MustCompile(`<a class="file" href="([^"]+)">cv.txt</a>`).FindStringSubmatch(p.Body)
		if p.Status != http.StatusOK || link == nil || !strings.Contains(p.Body, "Hire me") || !strings.Contains(p.Body, "Comment") {
			t.Fatalf("detail: %d\n%s", p.Status, p.Body)
		}
		if got := b.get(strings.TrimPrefix(strings.ReplaceAll(link[1], "&amp;", "&"), env.URL)); got.Body != "my life" {
			t.Errorf("the signed link serves %d %q", got.Status, got.Body)
		}
		if p := b.get(s.path("/" + id + "/delete")); p.Status != http.StatusOK || !strings.Contains(p.Body, `method="post"`) {
			t.Fatalf("confirmation: %d\n%s", p.Status, p.Body)
		}
		if p := b.post(s.path("/"+id+"/delete"), nil, "Sec-Fetch-Site", "cross-site"); p.Status != http.StatusForbidden {
			t.Errorf("cross-site delete: %d", p.Status)
		}
		api := fmt.Sprintf("/api/v1/forms/%d/responses/%s", s.ID, id)
		if r := env.For(t).Do("GET", api, key, nil); r.Status != http.StatusOK {
			t.Fatalf("the response is gone after a refused delete: %d", r.Status)
		}
		p = b.post(s.path("/"+id+"/delete"), nil, "Sec-Fetch-Site", "same-origin")
		if p.Status != http.StatusSeeOther || p.Location != s.path("?deleted=1") {
			t.Fatalf("delete: %d %s\n%s", p.Status, p.Location, p.Body)
		}
		if p := b.get(p.Location); !strings.Contains(p.Body, "response and its files were deleted") {
			t.Errorf("no notice after the delete")
		}
		if r := env.For(t).Do("GET", api, key, nil); r.Status != http.StatusNotFound {
			t.Errorf("the API still finds the deleted response: %d", r.Status)
		}
		if n := countFiles(t, uploads); n != 0 {
			t.Errorf("%d stored files after the delete", n)
		}
		if p := b.get(s.path("/" + id)); p.Status != http.StatusNotFound {
			t.Errorf("detail of a deleted response: %d", p.Status)
		}
	})
}

// TestExportIsTheAPIs: the dashboard's downloads are the API's exports, byte for
// byte, formula neutralisation included.
func TestExportIsTheAPIs(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		b, key := signedInOwner(t, env, "ada@example.com")
		s := newSurvey(t, env, key, "Export", text, map[string]any{"type": "number", "question": "=Score"})
		for i, v := range []string{"=HYPERLINK(\"http://evil\")", "plain, with comma", "-2+3"} {
			s.submit(t, env, map[int]any{0: v, 1: i - 1})
		}
		for _, format := range []string{"csv", "json"} {
			mine := b.get(s.path("/export." + format))
			theirs := env.For(t).Do("GET", fmt.Sprintf("/api/v1/forms/%d/responses/export?format=%s", s.ID, format), key, nil)
			if mine.Status != http.StatusOK || mine.Body != string(theirs.Body) || !strings.Contains(mine.Body, "HYPERLINK") {
				t.Errorf("%s export: %d\n%s\nthe API's:\n%s", format, mine.Status, mine.Body, theirs.Body)
			}
			for _, h := range []string{"Content-Type", "Content-Disposition"} {
				if mine.Header.Get(h) != theirs.Header.Get(h) {
					t.Errorf("%s %s: %q, the API's %q", format, h, mine.Header.Get(h), theirs.Header.Get(h))
				}
			}
		}
		if csv := b.get(s.path("/export.csv")).Body; !strings.Contains(csv, `"'=HYPERLINK(""http://evil"")"`) || !strings.Contains(csv, "'=Score") {
			t.Errorf("formulas are not neutralised:\n%s", csv)
		}
	})
}

// TestSummaryFigures: the summary's figures for a known data set, in its charts'
// descriptions and tables: counts and shares of choices, the distribution and
// average of a rating, and responses per day.
func TestSummaryFigures(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		b, key := signedInOwner(t, env, "ada@example.com")
		s := newSurvey(t, env, key, "Team survey",
			map[string]any{"type": "select", "question": "Team", "options": []string{"Dev", "Ops"}, "required": true},
			map[string]any{"type": "rating", "question": "Mood"}, text)
		summary := fmt.Sprintf("/forms/%d/summary", s.ID)
		if p := b.get(summary); p.Status != http.StatusOK || !strings.Contains(p.Body, "No responses yet") {
			t.Fatalf("empty summary: %d\n%s", p.Status, p.Body)
		}
		for _, a := range []map[int]any{{0: "Dev", 1: 5}, {0: "Dev", 1: 4}, {0: "Dev", 2: "fine"}, {0: "Ops", 1: 3}} {
			s.submit(t, env, a)
		}
		p := b.get(summary)
		if p.Status != http.StatusOK {
			t.Fatalf("summary: %d\n%s", p.Status, p.Body)
		}
		day := time.Now().UTC().Format("2006-01-02")
		for _, want := range []string{
			"Dev: 3 (75%); Ops: 1 (25%).",
			`<th scope="row" class="wrap">Dev</th><td>3</td><td>75%</td>`,
			`<th scope="row" class="wrap">Ops</th><td>1</td><td>25%</td>`,
			"1: 0 (0%); 2: 0 (0%); 3: 1 (25%); 4: 1 (25%); 5: 1 (25%).",
			"3 answers · Average 4 out of 5 · median 4 out of 5",
			"1 answer", // the text question
			`<th scope="row" class="wrap">` + day + `</th><td>4</td><td>100%</td>`,
			`role="img" aria-labelledby="per-day-title per-day-desc"`, "<title id=\"q0-title\">Answers to “Team”</title>",
		} {
			if !strings.Contains(p.Body, want) {
				t.Errorf("the summary lacks %q", want)
			}
		}
	})
}

// upload sends a file as a respondent of the form share and returns its upload id.
func upload(t *testing.T, env *servertest.Env, share, name string, content []byte) string {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("file", name)
	if err == nil {
		_, err = fw.Write(content)
	}
	if err == nil {
		err = mw.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, env.URL+"/f/"+share+"/uploads", &body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	r := env.For(t).Send(req)
	if r.Status != http.StatusCreated {
		t.Fatalf("upload: %d %s", r.Status, r.Body)
	}
	return r.JSON(t)["id"].(string)
}

// countFiles counts the files under dir.
func countFiles(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return err
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return n
}
