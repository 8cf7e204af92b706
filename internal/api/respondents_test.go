package api_test

import (
	"bytes"
	"mime/multipart"
	"strings"
	"testing"

	"forma/internal/config"
)

var respondentQuestions = []obj{{"type": "text", "question": "Name", "required": true}, {"type": "file_upload", "question": "CV"}}

// conformRespondents drives the respondent operations through every status they
// document but 500; servertest checks each exchange against the document.
func conformRespondents(t *testing.T, s *suite) {
	c := s.start(t, func(cfg *config.Config) {
		cfg.SubmitLimit, cfg.SessionLimit, cfg.SaveLimit, cfg.MaxUploadMB = 0, 0, 0, 1
	})
	key := c.env.NewKey()
	path, share, q := publishedForm(t, c.env, key, obj{"title": "Apply", "questions": respondentQuestions})
	hidden := createForm(t, c.env, key, obj{"title": "Draft"})["shareUrl"].(string)
	f, none := "/f/"+share, "/f/"+hidden
	name := func(v string) obj { return obj{"answers": obj{q[0]: v}} }
	big := `{"answers":{"` + q[0] + `":"` + strings.Repeat("x", 1<<20) + `"}}`
	var session, second, upload, response obj
	sessionPath := func(s *obj, suffix string) func(*testing.T, *scenario) {
		return func(_ *testing.T, sc *scenario) {
			sc.Path = f + "/sessions/" + (*s)["id"].(string) + suffix
			if sc.Header == nil {
				sc.Header = map[string]string{"X-Resume-Token": (*s)["resumeToken"].(string)}
			}
		}
	}
	withoutToken := func(r row) row {
		r.Header = map[string]string{"X-Resume-Token": ""}
		return r.named(r.Name + " without the token")
	}
	c.run(t, []row{
		call(200, "GET", f+"/definition", "", nil),
		call(404, "GET", none+"/definition", "", nil),
		call(201, "POST", f+"/submissions", "", name("Ada")),
		call(400, "POST", f+"/submissions", "", obj{"answers": obj{}}),
		call(404, "POST", none+"/submissions", "", name("Ada")),
		call(413, "POST", f+"/submissions", "", big),
		call(201, "POST", f+"/sessions", "", nil, into(&session)),
		call(201, "POST", f+"/sessions", "", nil, into(&second)),
		call(201, "POST", f+"/sessions", "", obj{"hidden": obj{}}).named("start with no hidden values"),
		call(400, "POST", f+"/sessions", "", obj{"hidden": obj{"campaign": "spring"}}).named("start with a hidden field the form lacks"),
		call(413, "POST", f+"/sessions", "", `{"hidden":{"x":"`+strings.Repeat("x", 1<<20)+`"}}`).named("start with too much"),
		call(404, "POST", none+"/sessions", "", nil),
		call(200, "GET", "", "", nil).named("read the session").before(sessionPath(&session, "")),
		withoutToken(call(404, "GET", "", "", nil)).before(sessionPath(&session, "")),
		call(200, "PATCH", "", "", name("Grace")).named("save").before(sessionPath(&session, "")),
		call(400, "PATCH", "", "", obj{"answers": obj{"999999": "x"}}).named("save an unknown answer").before(sessionPath(&session, "")),
		call(413, "PATCH", "", "", big).named("save too much").before(sessionPath(&session, "")),
		withoutToken(call(404, "PATCH", "", "", name("Eve"))).before(sessionPath(&session, "")),
		call(400, "POST", "", "", obj{}).named("complete without the required answer").before(sessionPath(&second, "/complete")),
		call(413, "POST", "", "", big).named("complete with too much").before(sessionPath(&second, "/complete")),
		withoutToken(call(404, "POST", "", "", obj{})).before(sessionPath(&session, "/complete")),
		call(200, "POST", "", "", obj{}).named("complete").before(sessionPath(&session, "/complete")),
		call(409, "POST", "", "", obj{}).named("complete again").before(sessionPath(&session, "/complete")),
		call(409, "PATCH", "", "", name("Mallory")).named("save after completion").before(sessionPath(&session, "")),
		call(200, "POST", f+"/evaluate", "", name("Ada")),
		call(400, "POST", f+"/evaluate", "", obj{"answers": obj{"x": 1}}),
		call(404, "POST", none+"/evaluate", "", name("Ada")),
		call(413, "POST", f+"/evaluate", "", big),
	})
	c.run(t, []row{
		uploadRow(t, 201, f, "cv.png", pngImage(t)).named("upload a file").withCheck(into(&upload)),
		uploadRow(t, 400, f, "page.html", []byte("<html><script>alert(1)</script></html>")),
		uploadRow(t, 404, none, "cv.png", pngImage(t)),
		uploadRow(t, 413, f, "big.txt", bytes.Repeat([]byte("a"), 1<<20+10)),
	})
	if upload == nil {
		t.Fatal("no upload for the download rows")
	}
	var submitted obj
	c.run(t, []row{call(201, "POST", f+"/submissions", "", obj{"answers": obj{q[0]: "Ada", q[1]: upload["id"]}}, into(&submitted))})
	if submitted == nil {
		t.Fatal("no submission with a file")
	}
	c.run(t, []row{call(200, "GET", path+"/responses/"+submitted["id"].(string), key, nil, into(&response))})
	link := response["data"].(obj)["CV"].(obj)["url"].(string)
	local := strings.TrimPrefix(link, c.env.URL)
	c.run(t, []row{
		call(200, "GET", local, "", nil).named("download the file"),
		call(404, "GET", local+"x", "", nil).named("download with a tampered signature"),
	})
	conformRespondentLimits(t, s)
}

// conformRespondentLimits runs out the per-client budgets of a form, on a server
// with small ones: sessions, saves, and submissions with uploads (which share one).
func conformRespondentLimits(t *testing.T, s *suite) {
	c := s.start(t, func(cfg *config.Config) { cfg.SubmitLimit, cfg.SessionLimit, cfg.SaveLimit = 4, 2, 2 })
	_, limited, lq := publishedForm(t, c.env, c.env.NewKey(), obj{"title": "Limited", "questions": respondentQuestions})
	lf := "/f/" + limited
	var l1 obj
	lname := obj{"answers": obj{lq[0]: "Ada"}}
	c.run(t, []row{
		call(201, "POST", lf+"/sessions", "", nil, into(&l1)),
		call(201, "POST", lf+"/sessions", "", nil),
		call(429, "POST", lf+"/sessions", "", nil).named("a third session"),
		call(200, "PATCH", "", "", lname).named("save").before(limitedSession(&l1, lf, "")),
		call(200, "PATCH", "", "", lname).named("save again").before(limitedSession(&l1, lf, "")),
		call(429, "PATCH", "", "", lname).named("a third save").before(limitedSession(&l1, lf, "")),
		call(429, "POST", lf+"/evaluate", "", lname).named("an evaluation past the save limit"),
		call(201, "POST", lf+"/submissions", "", lname),
		call(201, "POST", lf+"/submissions", "", lname),
		call(201, "POST", lf+"/submissions", "", lname),
		uploadRow(t, 201, lf, "cv.png", pngImage(t)),
		call(429, "POST", lf+"/submissions", "", lname).named("a fifth submission"),
		uploadRow(t, 429, lf, "cv.png", pngImage(t)).named("an upload past the limit"),
		call(429, "POST", "", "", lname).named("complete past the limit").before(limitedSession(&l1, lf, "/complete")),
	})
}

// limitedSession sets a row's path and token to the session s of the form at f.
func limitedSession(s *obj, f, suffix string) func(*testing.T, *scenario) {
	return func(_ *testing.T, sc *scenario) {
		sc.Path = f + "/sessions/" + (*s)["id"].(string) + suffix
		sc.Header = map[string]string{"X-Resume-Token": (*s)["resumeToken"].(string)}
	}
}

// uploadRow uploads a file to the form at f (a "/f/<shareUrl>" path).
func uploadRow(t *testing.T, status int, f, filename string, content []byte) row {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("file", filename)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(content)
	mw.Close()
	r := call(status, "POST", f+"/uploads", "", body.Bytes()).named("upload " + filename + " to " + f)
	r.Header = map[string]string{"Content-Type": mw.FormDataContentType()}
	return r
}

// withCheck sets the row's own check.
func (r row) withCheck(c check) row {
	r.Check = c
	return r
}
