package respond_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"forma/internal/config"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// published creates and publishes a form and returns its id, share token and the
// ids of its questions.
func published(t testing.TB, env *servertest.Env, key string, body string) (int64, string, []int64) {
	t.Helper()
	r := env.Do("POST", "/api/v1/forms", key, body)
	if r.Status != 201 {
		t.Fatalf("create form: %d %s", r.Status, r.Body)
	}
	f := r.JSON(t)
	id := int64(f["id"].(float64))
	var qids []int64
	for _, q := range f["questions"].([]any) {
		qids = append(qids, int64(q.(map[string]any)["id"].(float64)))
	}
	if r := env.Do("POST", fmt.Sprintf("/api/v1/forms/%d/publish", id), key, nil); r.Status != 200 {
		t.Fatalf("publish: %d %s", r.Status, r.Body)
	}
	return id, f["shareUrl"].(string), qids
}

func expect(t *testing.T, r *servertest.Response, status int, fragments ...string) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d: %s", r.Status, status, r.Body)
	}
	for _, f := range fragments {
		if !strings.Contains(string(r.Body), f) {
			t.Errorf("body lacks %s: %s", f, r.Body)
		}
	}
}

const contactForm = `{"title":"Contact","questions":[
 {"type":"text","question":"Name","required":true},
 {"type":"email","question":"Email","required":true},
 {"type":"rating","question":"Rate us"},
 {"type":"multi_select","question":"Topics","options":["Sales","Support"]}]}`

func TestOneShotSubmission(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		formID, token, q := published(t, env, key, contactForm)
		base := "/f/" + token
		expect(t, env.Do("GET", base+"/definition", "", nil), 200, `"title":"Contact"`, `"displayMode":"single-page"`, fmt.Sprintf(`"id":%d`, q[0]))

		r := env.Do("POST", base+"/submissions", "", fmt.Sprintf(`{"answers":{"%d":"Ana","%d":"ana@example.com","%d":4,"%d":["Support"]}}`, q[0], q[1], q[2], q[3]))
		expect(t, r, 201, `"submittedAt":"`)
		sub := r.JSON(t)
		if id, _ := sub["id"].(string); len(id) < 16 || strings.ContainsAny(id, "+/=") {
			t.Errorf("submission id %q is not an opaque URL-safe id", id)
		}
		if _, ok := sub["score"]; ok {
			t.Error("score on a form without scoring")
		}
		if r.Header.Get("Access-Control-Allow-Origin") != "*" {
			t.Error("no CORS header on the public submission")
		}

		bad := env.Do("POST", base+"/submissions", "", fmt.Sprintf(`{"answers":{"%d":"not-an-email","%d":9,"99999":"x"}}`, q[1], q[2]))
		expect(t, bad, 400, `"validation_error"`, fmt.Sprintf(`"answers.%d"`, q[0]), fmt.Sprintf(`"answers.%d"`, q[1]), fmt.Sprintf(`"answers.%d"`, q[2]), `"answers.99999"`)
		expect(t, env.Do("POST", base+"/submissions", "", `{"answers":{},"extra":1}`), 400, "extra")
		expect(t, env.Do("POST", base+"/submissions", "", `not json`), 400, "malformed")

		list, total, err := env.Store.ListResponses(t.Context(), formID, store.ResponseFilter{}, 10, 0)
		if err != nil || total != 1 || list[0].ID != sub["id"] {
			t.Fatalf("stored: %v %d %v", list, total, err)
		}

		env.Do("POST", fmt.Sprintf("/api/v1/forms/%d/unpublish", formID), key, nil)
		expect(t, env.Do("GET", base+"/definition", "", nil), 404, `"not_found"`)
		expect(t, env.Do("POST", base+"/submissions", "", `{"answers":{}}`), 404, `"not_found"`)
		expect(t, env.Do("GET", "/f/nonexistent-token/definition", "", nil), 404, `"not_found"`)
	})
}

func TestLogicDropsHiddenAnswersAndScores(t *testing.T) {
	env := servertest.New(t, store.SQLite)
	key := env.NewKey()
	formID, token, q := published(t, env, key, `{"title":"Quiz","questions":[
		{"type":"yes_no","question":"Own a car?","required":true},
		{"type":"text","question":"Which model?","required":true},
		{"type":"select","question":"Capital of France","options":["Paris","Lyon"]}]}`)
	logic := fmt.Sprintf(`{"showIf":{"questionId":%d,"operator":"equals","value":"true"}}`, q[0])
	if r := env.Do("PATCH", fmt.Sprintf("/api/v1/forms/%d/fields/%d", formID, q[1]), key, `{"conditionalLogic":`+logic+`}`); r.Status != 200 {
		t.Fatalf("set logic: %s", r.Body)
	}
	score := fmt.Sprintf(`{"advanced":{"conditionGroups":[],"actions":[],"scoreRules":[{"id":"s","questionId":%d,"scoreMap":{"Paris":10,"Lyon":0}}]}}`, q[2])
	if r := env.Do("PATCH", fmt.Sprintf("/api/v1/forms/%d/fields/%d", formID, q[2]), key, `{"conditionalLogic":`+score+`}`); r.Status != 200 {
		t.Fatalf("set score: %s", r.Body)
	}
	// "No car": the required model question is hidden, so not required, and an answer
	// to it is dropped.
	r := env.Do("POST", "/f/"+token+"/submissions", "", fmt.Sprintf(`{"answers":{"%d":false,"%d":"Tesla","%d":"Paris"}}`, q[0], q[1], q[2]))
	expect(t, r, 201, `"score":10`)
	sess, err := env.Store.GetResponse(t.Context(), formID, r.JSON(t)["id"].(string))
	if err != nil {
		t.Fatal(err)
	}
	if _, kept := sess.Answers[q[1]]; kept || sess.Answers[q[0]] != false {
		t.Errorf("stored answers %v: the hidden answer must be dropped", sess.Answers)
	}
	// "Car": now the model is visible and required.
	expect(t, env.Do("POST", "/f/"+token+"/submissions", "", fmt.Sprintf(`{"answers":{"%d":true}}`, q[0])), 400, fmt.Sprintf(`"answers.%d"`, q[1]), "required")
}

// startSession starts a session of the form shared as token and returns its id
// and resume token.
func startSession(t *testing.T, env *servertest.Env, token string) (string, string) {
	t.Helper()
	r := env.Do("POST", "/f/"+token+"/sessions", "", nil)
	expect(t, r, 201, `"id":"`, `"resumeToken":"`)
	b := r.JSON(t)
	return b["id"].(string), b["resumeToken"].(string)
}

// resumed sends a session operation with a resume token (none when "").
func resumed(env *servertest.Env, method, path, resume string, body any) *servertest.Response {
	req := env.NewRequest(method, path, "", body)
	if resume != "" {
		req.Header.Set("X-Resume-Token", resume)
	}
	return env.Send(req)
}

func TestSessions(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		formID, token, q := published(t, env, key, contactForm)
		base := "/f/" + token + "/sessions"
		sid, rt := startSession(t, env, token)
		expect(t, resumed(env, "PATCH", base+"/"+sid, rt, fmt.Sprintf(`{"answers":{"%d":"Ana"}}`, q[0])), 200, `"savedAt"`)
		expect(t, resumed(env, "PATCH", base+"/"+sid, rt, fmt.Sprintf(`{"answers":{"%d":"nope"}}`, q[1])), 400, fmt.Sprintf(`"answers.%d"`, q[1]))
		expect(t, resumed(env, "GET", base+"/"+sid, rt, nil), 200, fmt.Sprintf(`"%d":"Ana"`, q[0]))
		// Started but not completed: not in the responses.
		if _, total, _ := env.Store.ListResponses(t.Context(), formID, store.ResponseFilter{}, 10, 0); total != 0 {
			t.Errorf("an open session is listed as a response")
		}
		expect(t, resumed(env, "POST", base+"/"+sid+"/complete", rt, nil), 400, fmt.Sprintf(`"answers.%d"`, q[1]), "required")
		expect(t, resumed(env, "POST", base+"/"+sid+"/complete", rt, fmt.Sprintf(`{"answers":{"%d":"ana@example.com"}}`, q[1])), 200, `"submittedAt"`)
		expect(t, resumed(env, "POST", base+"/"+sid+"/complete", rt, nil), 409, `"already_completed"`)
		expect(t, resumed(env, "PATCH", base+"/"+sid, rt, fmt.Sprintf(`{"answers":{"%d":"Bo"}}`, q[0])), 409, `"already_completed"`)
		list, total, _ := env.Store.ListResponses(t.Context(), formID, store.ResponseFilter{}, 10, 0)
		if total != 1 || list[0].Answers[q[0]] != "Ana" || list[0].Answers[q[1]] != "ana@example.com" {
			t.Errorf("completed session: %+v", list)
		}
		started, completed, _ := env.Store.SessionCounts(t.Context(), formID)
		if started != 1 || completed != 1 {
			t.Errorf("counts %d/%d", started, completed)
		}
		expect(t, resumed(env, "PATCH", base+"/unknown-session", rt, `{"answers":{}}`), 404, `"not_found"`)
		// Preflight for embeds: the resume token is a header they may send.
		pre := env.Do("OPTIONS", base, "", nil)
		if pre.Status != 204 || !strings.Contains(pre.Header.Get("Access-Control-Allow-Methods"), "PATCH") ||
			!strings.Contains(pre.Header.Get("Access-Control-Allow-Headers"), "X-Resume-Token") {
			t.Errorf("preflight %d %v", pre.Status, pre.Header)
		}
	})
}

func pngBytes(t *testing.T) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	img.Set(1, 1, color.RGBA{R: 255, A: 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func uploadFile(t *testing.T, env *servertest.Env, token, name string, content []byte) *servertest.Response {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", name)
	fw.Write(content)
	mw.Close()
	req, _ := http.NewRequest("POST", env.URL+"/f/"+token+"/uploads", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return env.Send(req)
}

func TestUploads(t *testing.T) {
	env := servertest.Start(t, servertest.OpenStore(t, store.SQLite), func(c *config.Config) { c.MaxUploadMB = 1 })
	key := env.NewKey()
	formID, token, q := published(t, env, key, `{"title":"CV","questions":[{"type":"file_upload","question":"Resume","required":true}]}`)
	_, otherToken, _ := published(t, env, key, `{"title":"Other","questions":[{"type":"file_upload","question":"F"}]}`)

	expect(t, uploadFile(t, env, token, "big.txt", bytes.Repeat([]byte("a"), 1<<20+10)), 413, `"payload_too_large"`)
	expect(t, uploadFile(t, env, token, "page.html", []byte("<html><script>alert(1)</script></html>")), 400, `"file"`, "not accepted")
	expect(t, uploadFile(t, env, token, "run.exe", append([]byte("MZ\x90\x00"), make([]byte, 100)...)), 400, "not accepted")
	expect(t, uploadFile(t, env, token, "empty.txt", nil), 400, "empty")
	// A PNG declared as .txt is stored with its real type, and named for it.
	r := uploadFile(t, env, token, `..\..\evil"name.txt`, pngBytes(t))
	expect(t, r, 201, `"contentType":"image/png"`, `"name":"evilname.png"`)
	uploadID := r.JSON(t)["id"].(string)
	other := uploadFile(t, env, otherToken, "x.png", pngBytes(t)).JSON(t)["id"].(string)

	expect(t, env.Do("POST", "/f/"+token+"/submissions", "", fmt.Sprintf(`{"answers":{"%d":%q}}`, q[0], other)), 400, "no file uploaded to this form")
	expect(t, env.Do("POST", "/f/"+token+"/submissions", "", fmt.Sprintf(`{"answers":{"%d":%q}}`, q[0], uploadID)), 201)

	list := env.Do("GET", fmt.Sprintf("/api/v1/forms/%d/responses", formID), key, nil)
	expect(t, list, 200, `"contentType":"image/png"`, `"size":`)
	file := list.JSON(t)["responses"].([]any)[0].(map[string]any)["data"].(map[string]any)["Resume"].(map[string]any)
	url := file["url"].(string)
	if !strings.HasPrefix(url, env.URL+"/files/"+uploadID+"?") {
		t.Fatalf("file url %s", url)
	}
	req, _ := http.NewRequest("GET", url, nil)
	dl := env.Send(req)
	if dl.Status != 200 || !bytes.Equal(dl.Body, pngBytes(t)) {
		t.Fatalf("download: %d", dl.Status)
	}
	for h, want := range map[string]string{"X-Content-Type-Options": "nosniff", "Content-Type": "image/png",
		"Content-Security-Policy": "default-src 'none'; sandbox"} {
		if dl.Header.Get(h) != want {
			t.Errorf("%s = %q, want %q", h, dl.Header.Get(h), want)
		}
	}
	if !strings.HasPrefix(dl.Header.Get("Content-Disposition"), "attachment;") {
		t.Errorf("Content-Disposition %q", dl.Header.Get("Content-Disposition"))
	}
	req, _ = http.NewRequest("GET", strings.Replace(url, "sig=", "sig=x", 1), nil)
	expect(t, env.Send(req), 404, "expired")
}

func TestSubmissionRateLimitPerClient(t *testing.T) {
	env := servertest.Start(t, servertest.OpenStore(t, store.SQLite), func(c *config.Config) { c.SubmitLimit = 3 })
	key := env.NewKey()
	_, token, q := published(t, env, key, `{"title":"R","questions":[{"question":"Q"}]}`)
	body := fmt.Sprintf(`{"answers":{"%d":"x"}}`, q[0])
	for range 3 {
		expect(t, env.Do("POST", "/f/"+token+"/submissions", "", body), 201)
	}
	expect(t, env.Do("POST", "/f/"+token+"/submissions", "", body), 429, "Too many submissions")
	// Another form is counted on its own.
	_, token2, q2 := published(t, env, key, `{"title":"R2","questions":[{"question":"Q"}]}`)
	expect(t, env.Do("POST", "/f/"+token2+"/submissions", "", fmt.Sprintf(`{"answers":{"%d":"x"}}`, q2[0])), 201)
}

// TestUploadFailures: a body the client broke off is the client's 400; a store that
// cannot write is a 500 that names nothing of the server, logged with the request
// id.
func TestUploadFailures(t *testing.T) {
	env := servertest.Start(t, servertest.OpenStore(t, store.SQLite))
	key := env.NewKey()
	_, token, _ := published(t, env, key, `{"title":"CV","questions":[{"type":"file_upload","question":"Resume"}]}`)

	truncated := "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n\r\nhello, wor"
	req, _ := http.NewRequest("POST", env.URL+"/f/"+token+"/uploads", strings.NewReader(truncated))
	req.Header.Set("Content-Type", "multipart/form-data; boundary=b")
	expect(t, env.Send(req), 400, `"field":"file"`, "could not be read")

	// The uploads folder becomes a file: every write of the disk store fails.
	uploads := filepath.Join(env.Config.DataDir, "uploads")
	if err := os.RemoveAll(uploads); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(uploads, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	r := uploadFile(t, env, token, "cv.png", pngBytes(t))
	expect(t, r, 500, `"internal_error"`)
	if strings.Contains(string(r.Body), env.Config.DataDir) || strings.Contains(string(r.Body), "uploads") {
		t.Errorf("the 500 reveals server paths: %s", r.Body)
	}
	id := r.Header.Get("X-Request-Id")
	if logs := env.Logs(); !strings.Contains(logs, "request_id="+id) || !strings.Contains(logs, uploads) {
		t.Errorf("the failure is not logged with request id %s and its cause:\n%s", id, logs)
	}
}

// fieldItems returns the items of a 400 (or 413) answer's fields, by field.
func fieldItems(t *testing.T, r *servertest.Response) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	fields, _ := r.JSON(t)["fields"].([]any)
	for _, f := range fields {
		item := f.(map[string]any)
		out[item["field"].(string)] = item
	}
	return out
}

// TestRespondentErrorsCarryCodes checks that each refused answer or file names its
// catalogued problem (code and params) beside the API message, so that a page
// picks the respondent's sentence without reading the English text.
func TestRespondentErrorsCarryCodes(t *testing.T) {
	env := servertest.Start(t, servertest.OpenStore(t, store.SQLite), func(c *config.Config) { c.MaxUploadMB = 1 })
	key := env.NewKey()
	_, token, q := published(t, env, key, `{"title":"Codes","questions":[
		{"type":"text","question":"Name","required":true},
		{"type":"email","question":"Email"},
		{"type":"currency","question":"Budget","currencyConfig":{"currency":"EUR","min":1000,"max":500000}},
		{"type":"select","question":"Size","options":["S","M"]},
		{"type":"file_upload","question":"File"}]}`)
	_, other, _ := published(t, env, key, `{"title":"Other","questions":[{"type":"file_upload","question":"F"}]}`)
	foreign := uploadFile(t, env, other, "x.png", pngBytes(t)).JSON(t)["id"].(string)
	want := func(item map[string]any, message, code string, params map[string]any) {
		t.Helper()
		got, _ := json.Marshal(item)
		w, _ := json.Marshal(map[string]any{"field": item["field"], "message": message, "code": code, "params": params})
		if params == nil {
			w, _ = json.Marshal(map[string]any{"field": item["field"], "message": message, "code": code})
		}
		if string(got) != string(w) {
			t.Errorf("got  %s\nwant %s", got, w)
		}
	}
	field := func(i int) string { return fmt.Sprintf("answers.%d", q[i]) }

	r := env.Do("POST", "/f/"+token+"/submissions", "", fmt.Sprintf(`{"answers":{"%d":"ada@","%d":50,"%d":"XL","nope":1}}`, q[1], q[2], q[3]))
	expect(t, r, 400)
	items := fieldItems(t, r)
	want(items[field(0)], "is required", "required", nil)
	want(items[field(1)], "must be a valid email address", "email", nil)
	want(items[field(2)], "must be between 1000 and 500000", "between", map[string]any{"min": "1000", "max": "500000"})
	want(items[field(3)], "must be one of: S, M", "option", map[string]any{"options": "S, M"})
	want(items["answers.nope"], "is not a question of this form", "unknown_question", nil)

	// Session saves say the same.
	sid, rt := startSession(t, env, token)
	r = resumed(env, "PATCH", "/f/"+token+"/sessions/"+sid, rt, fmt.Sprintf(`{"answers":{"%d":50}}`, q[2]))
	expect(t, r, 400)
	want(fieldItems(t, r)[field(2)], "must be between 1000 and 500000", "between", map[string]any{"min": "1000", "max": "500000"})

	r = env.Do("POST", "/f/"+token+"/submissions", "", fmt.Sprintf(`{"answers":{"%d":"Ada","%d":%q}}`, q[0], q[4], foreign))
	expect(t, r, 400)
	want(fieldItems(t, r)[field(4)], "names no file uploaded to this form; upload it with POST /f/{shareUrl}/uploads first", "upload_unknown", nil)

	r = uploadFile(t, env, token, "page.html", []byte("<html><script>alert(1)</script></html>"))
	expect(t, r, 400)
	want(fieldItems(t, r)["file"], "type text/html; charset=utf-8 is not accepted; upload a PDF, an image (PNG, JPEG, GIF, WebP), plain text or an office document",
		"file_type", map[string]any{"type": "text/html; charset=utf-8"})
	r = uploadFile(t, env, token, "empty.txt", nil)
	expect(t, r, 400)
	want(fieldItems(t, r)["file"], "is empty", "file_empty", nil)
	r = uploadFile(t, env, token, "big.txt", bytes.Repeat([]byte("a"), 1<<20+10))
	expect(t, r, 413, `"message":"file: larger than the 1 MiB limit"`)
	want(fieldItems(t, r)["file"], "larger than the 1 MiB limit", "file_too_large", map[string]any{"max": "1"})
}
