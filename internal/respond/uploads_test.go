package respond_test

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"forma/internal/server/servertest"
	"forma/internal/store"
)

// TestUploadNeedsAFileQuestion: a form without a file question takes no files.
func TestUploadNeedsAFileQuestion(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		_, token, _ := published(t, env, env.NewKey(), `{"title":"No files","questions":[{"question":"Name"}]}`)
		r := uploadFile(t, env, token, "cv.png", pngBytes(t))
		expect(t, r, 400, `"validation_error"`, `"field":"file"`, "this form takes no files")
	})
}

// TestUploadBelongsToOneSubmission: an upload is bound to the first submission
// that uses it; another submission naming it is refused, a session may save it
// again, and deleting a submission deletes only its own files.
func TestUploadBelongsToOneSubmission(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		formID, token, q := published(t, env, key, `{"title":"CV","questions":[{"type":"file_upload","question":"Resume"}]}`)
		id := uploadFile(t, env, token, "cv.png", pngBytes(t)).JSON(t)["id"].(string)
		answer := fmt.Sprintf(`{"answers":{"%d":%q}}`, q[0], id)
		taken := []string{fmt.Sprintf(`"field":"answers.%d"`, q[0]), "this file belongs to another submission", `"code":"upload_taken"`}

		first := env.Do("POST", "/f/"+token+"/submissions", "", answer)
		expect(t, first, 201)
		expect(t, env.Do("POST", "/f/"+token+"/submissions", "", answer), 400, taken...)
		sid, resume := startSession(t, env, token)
		expect(t, resumed(env, "PATCH", "/f/"+token+"/sessions/"+sid, resume, answer), 400, taken...)

		// A session's own upload may be saved again, and completed with.
		own := uploadFile(t, env, token, "own.png", pngBytes(t)).JSON(t)["id"].(string)
		ownAnswer := fmt.Sprintf(`{"answers":{"%d":%q}}`, q[0], own)
		expect(t, resumed(env, "PATCH", "/f/"+token+"/sessions/"+sid, resume, ownAnswer), 200)
		expect(t, resumed(env, "PATCH", "/f/"+token+"/sessions/"+sid, resume, ownAnswer), 200)
		expect(t, resumed(env, "POST", "/f/"+token+"/sessions/"+sid+"/complete", resume, ownAnswer), 200)
		expect(t, env.Do("POST", "/f/"+token+"/submissions", "", ownAnswer), 400, taken...)

		// Deleting the session leaves the first submission's file alone.
		expect(t, env.Do("DELETE", fmt.Sprintf("/api/v1/forms/%d/responses/%s", formID, sid), key, nil), 204)
		if _, err := env.Store.GetUpload(t.Context(), own); err == nil {
			t.Error("the deleted submission's file is still recorded")
		}
		if _, err := env.Store.GetUpload(t.Context(), id); err != nil {
			t.Errorf("the first submission's file is gone: %v", err)
		}
	})
}

// TestUploadNames: the stored name ends with an extension of the sniffed type and
// holds no control or format characters.
func TestUploadNames(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		_, token, _ := published(t, env, env.NewKey(), `{"title":"CV","questions":[{"type":"file_upload","question":"Resume"}]}`)
		for sent, want := range map[string]string{
			"invoice.pdf.exe":                  "invoice.pdf.png",
			"x.html":                           "x.png",
			"photo":                            "photo.png",
			"J. Smith":                         "J. Smith.png",
			"shot.PNG":                         "shot.PNG",
			"gpj\u202e.exe":                    "gpj.png",
			"a\u200bb\u200fc\u2066d\ufeff.png": "abcd.png",
			"c1\u0085con\u009btrol.png":        "c1control.png",
			".html":                            "file.png",
		} {
			r := uploadFile(t, env, token, sent, pngBytes(t))
			if r.Status != 201 {
				t.Fatalf("%q: %d %s", sent, r.Status, r.Body)
			}
			if got := r.JSON(t)["name"]; got != want {
				t.Errorf("%q is stored as %q, want %q", sent, got, want)
			}
		}
		r := uploadFile(t, env, token, "notes.html", []byte("plain words, no markup"))
		expect(t, r, 201, `"name":"notes.txt"`)
	})
}

// TestUploadBadMultipart: a body that does not match its boundary is the
// client's 400.
func TestUploadBadMultipart(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		_, token, _ := published(t, env, env.NewKey(), `{"title":"CV","questions":[{"type":"file_upload","question":"Resume"}]}`)
		for _, ctype := range []string{"multipart/form-data; boundary=nothere", "multipart/form-data", "multipart/form-data; boundary=\"unclosed"} {
			body := "--zzz\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n\r\nhello\r\n--zzz--\r\n"
			req, _ := http.NewRequest("POST", env.URL+"/f/"+token+"/uploads", strings.NewReader(body))
			req.Header.Set("Content-Type", ctype)
			expect(t, env.Send(req), 400, `"validation_error"`, `"field":"file"`)
		}
	})
}

// TestUploadFailuresAreInternal: a blob store that cannot write, or a database
// that refuses the record, is a 500 that names nothing of the server, logged with
// the request id.
func TestUploadFailuresAreInternal(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		dir, url := t.TempDir(), servertest.DatabaseURL(t, d)
		st, err := store.Open(context.Background(), url, dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		env := servertest.Start(t, st)
		_, token, _ := published(t, env, env.NewKey(), `{"title":"CV","questions":[{"type":"file_upload","question":"Resume"}]}`)

		failTrigger(t, d, url, dir)
		internal(t, env, uploadFile(t, env, token, "cv.png", pngBytes(t)), "boom")

		uploads := filepath.Join(env.Config.DataDir, "uploads")
		breakDir(t, uploads)
		internal(t, env, uploadFile(t, env, token, "cv.png", pngBytes(t)), uploads)
	})
}

// internal checks a 500 that reveals neither secret nor the data folder, and that
// the request id is logged with the cause.
func internal(t *testing.T, env *servertest.Env, r *servertest.Response, cause string) {
	t.Helper()
	expect(t, r, 500, `"internal_error"`)
	if body := string(r.Body); strings.Contains(body, cause) || strings.Contains(body, env.Config.DataDir) {
		t.Errorf("the 500 reveals %q: %s", cause, body)
	}
	id := r.Header.Get("X-Request-Id")
	if logs := env.Logs(); !strings.Contains(logs, "request_id="+id) || !strings.Contains(logs, cause) {
		t.Errorf("the failure is not logged with request id %s and %q:\n%s", id, cause, logs)
	}
}

// breakDir makes dir unwritable: mode 0500, or, for root (whom modes do not
// stop), a file in its place.
func breakDir(t *testing.T, dir string) {
	t.Helper()
	if os.Geteuid() != 0 {
		if err := os.Chmod(dir, 0o500); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o700) })
		return
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
}

// failTrigger makes every insert into uploads fail with "boom", through a
// connection of its own to the store's database.
func failTrigger(t *testing.T, d store.Dialect, url, dir string) {
	t.Helper()
	driver, dsn, stmts := "sqlite", filepath.Join(dir, "forma.db"),
		[]string{`CREATE TRIGGER boom BEFORE INSERT ON uploads BEGIN SELECT RAISE(ABORT, 'boom'); END`}
	if d == store.Postgres {
		driver, dsn, stmts = "pgx", url, []string{
			`CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'boom'; END $$`,
			`CREATE TRIGGER boom BEFORE INSERT ON uploads FOR EACH ROW EXECUTE FUNCTION boom()`}
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
}
