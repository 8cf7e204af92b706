package api_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"forma/internal/config"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// failingDB reaches a test server's database beside the store, to make writes to
// one table fail the way a full disk, a lost connection or a constraint would.
type failingDB struct {
	db      *sql.DB
	dialect store.Dialect
}

// openFailingDB opens a store on a fresh database of dialect d and a second
// connection to the same database.
func openFailingDB(t *testing.T, d store.Dialect) (*store.Store, *failingDB) {
	url, dir := servertest.DatabaseURL(t, d), t.TempDir()
	st, err := store.Open(context.Background(), url, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	driver, dsn := "pgx", url
	if d == store.SQLite {
		driver, dsn = "sqlite", "file:"+filepath.Join(dir, "forma.db")+"?_pragma=busy_timeout(10000)"
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if d == store.Postgres {
		_, err = db.Exec(`CREATE FUNCTION injected_failure() RETURNS trigger LANGUAGE plpgsql AS $$
			BEGIN RAISE EXCEPTION 'injected failure'; END $$`)
		if err != nil {
			t.Fatal(err)
		}
	}
	return st, &failingDB{db: db, dialect: d}
}

// failWrites makes every insert, update and delete on table fail until the returned
// function is called.
func (f *failingDB) failWrites(t *testing.T, table string) (restore func()) {
	t.Helper()
	var stmts []string
	for _, op := range []string{"INSERT", "UPDATE", "DELETE"} {
		name := fmt.Sprintf("fail_%s_%s", strings.ToLower(op), table)
		if f.dialect == store.SQLite {
			stmts = append(stmts, fmt.Sprintf(`CREATE TRIGGER %s BEFORE %s ON %s BEGIN SELECT RAISE(ABORT, 'injected failure'); END`, name, op, table))
		} else {
			stmts = append(stmts, fmt.Sprintf(`CREATE TRIGGER %s BEFORE %s ON %s FOR EACH ROW EXECUTE FUNCTION injected_failure()`, name, op, table))
		}
	}
	for _, s := range stmts {
		if _, err := f.db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return func() {
		for _, op := range []string{"insert", "update", "delete"} {
			drop := fmt.Sprintf("DROP TRIGGER fail_%s_%s", op, table)
			if f.dialect == store.Postgres {
				drop += " ON " + table
			}
			if _, err := f.db.Exec(drop); err != nil {
				t.Fatalf("%s: %v", drop, err)
			}
		}
	}
}

// failedWrite is a request whose write the database refuses.
type failedWrite struct {
	name   string
	table  string // the table whose writes fail
	method string
	path   string
	body   any
	// probes are GETs (with the key) whose bodies must be the same before and after.
	probes []string
	// header is sent with the request and the probes.
	header map[string]string
	// send, when set, makes the request instead of method, path and body.
	send func(env *servertest.Env) *servertest.Response
}

// TestStoreFailureAcknowledgesNothing: when the database refuses a write, every
// create, update and submit route answers an error, and nothing it was asked to do
// is visible afterwards. Before the fix, POST /forms answered 201 {"id":0} for a form
// it had not saved.
func TestStoreFailureAcknowledgesNothing(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, db := openFailingDB(t, d)
		receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
		t.Cleanup(receiver.Close)
		env := servertest.Start(t, st, func(c *config.Config) { c.AllowPrivateWebhooks, c.SubmitLimit = true, 0 })
		key := env.Key(env.Account("builder"), nil, nil)
		questions := []obj{{"type": "text", "question": "Name", "required": true}, {"type": "number", "question": "Age"}}
		path, share, qids := publishedForm(t, env, key, obj{"title": "Live", "questions": questions})
		expectStatus(t, env.Do("PATCH", path, key, obj{"webhookUrl": receiver.URL, "webhookEnabled": true}), http.StatusOK)
		draft := formPath(createForm(t, env, key, obj{"title": "Draft"}))
		answers := obj{qids[0]: "Ada", qids[1]: 36}
		response := submit(t, env, share, answers)
		conversation := id(postJSON(t, env, key, path+"/chat", nil)["id"])
		started := postJSON(t, env, "", "/f/"+share+"/sessions", nil)
		session := "/f/" + share + "/sessions/" + started["id"].(string)
		resume := map[string]string{"X-Resume-Token": started["resumeToken"].(string)}

		forms, live, responses := apiPrefix+"/forms", path, path+"/responses"
		usage, chats := apiPrefix+"/usage", path+"/chat"
		messages := chats + "/" + conversation + "/messages"
		cases := []failedWrite{
			{name: "create a form", table: "forms", method: "POST", path: forms, body: obj{"title": "New"}, probes: []string{forms}},
			{name: "create a form with questions", table: "questions", method: "POST", path: forms,
				body: obj{"title": "New", "questions": questions}, probes: []string{forms}},
			{name: "count the request", table: "request_counts", method: "POST", path: forms, body: obj{"title": "New"}, probes: []string{forms}},
			{name: "rename a form", table: "forms", method: "PATCH", path: live, body: obj{"title": "Renamed"}, probes: []string{live}},
			{name: "publish", table: "forms", method: "POST", path: draft + "/publish", probes: []string{draft}},
			{name: "unpublish", table: "forms", method: "POST", path: live + "/unpublish", probes: []string{live}},
			{name: "delete a form", table: "forms", method: "DELETE", path: draft, probes: []string{draft, forms}},
			{name: "duplicate a form", table: "questions", method: "POST", path: live + "/duplicate", probes: []string{forms}},
			{name: "import a form", table: "questions", method: "POST", path: forms + "/import",
				body: obj{"formaDefinition": 1, "title": "Imported", "questions": []obj{{"ref": 1, "question": "Name"}}}, probes: []string{forms}},
			{name: "add a question", table: "questions", method: "POST", path: live + "/fields",
				body: obj{"type": "email", "question": "Email"}, probes: []string{live}},
			{name: "edit a question", table: "questions", method: "PATCH", path: live + "/fields/" + qids[1],
				body: obj{"question": "Years"}, probes: []string{live}},
			{name: "delete a question", table: "questions", method: "DELETE", path: live + "/fields/" + qids[1], probes: []string{live}},
			{name: "rotate the webhook secret", table: "forms", method: "POST", path: live + "/webhook/secret", probes: []string{live + "/webhook/status"}},
			{name: "generate a form", table: "forms", method: "POST", path: forms + "/generate",
				body: obj{"prompt": "an RSVP form with name, email and dietary needs"}, probes: []string{forms, usage}},
			{name: "charge for a generated form", table: "credit_ledger", method: "POST", path: forms + "/generate",
				body: obj{"prompt": "an RSVP form with name, email and dietary needs"}, probes: []string{forms, usage}},
			{name: "generate analytics", table: "analytics", method: "POST", path: live + "/analytics/generate", probes: []string{live + "/analytics", usage}},
			{name: "start a conversation", table: "conversations", method: "POST", path: chats, probes: []string{chats}},
			{name: "send a chat message", table: "messages", method: "POST", path: messages,
				body: obj{"message": "How many responses are there?"}, probes: []string{messages, usage}},
			{name: "delete a response", table: "sessions", method: "DELETE", path: responses + "/" + response, probes: []string{responses}},
			{name: "submit", table: "sessions", method: "POST", path: "/f/" + share + "/submissions",
				body: obj{"answers": answers}, probes: []string{responses}},
			{name: "submit, queueing the webhook", table: "webhook_jobs", method: "POST", path: "/f/" + share + "/submissions",
				body: obj{"answers": answers}, probes: []string{responses}},
			{name: "start a session", table: "sessions", method: "POST", path: "/f/" + share + "/sessions", probes: []string{responses}},
			{name: "save a session", table: "sessions", method: "PATCH", path: session, header: resume,
				body: obj{"answers": obj{qids[0]: "Grace"}}, probes: []string{session}},
			{name: "complete a session", table: "sessions", method: "POST", path: session + "/complete", header: resume,
				body: obj{"answers": answers}, probes: []string{responses, session}},
			{name: "submit the HTML form", table: "sessions", probes: []string{responses},
				send: func(env *servertest.Env) *servertest.Response { return postPage(t, env, share, qids[0], "Ada") }},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				env := env.For(t)
				before := probe(env, key, c.header, c.probes)
				restore := db.failWrites(t, c.table)
				var r *servertest.Response
				if c.send != nil {
					r = c.send(env)
				} else {
					r = sendWith(env, c.method, c.path, key, c.body, c.header)
				}
				restore()
				if r.Status != http.StatusInternalServerError {
					t.Errorf("status %d, want 500; body %s", r.Status, r.Body)
				}
				if bytes.Contains(r.Body, []byte("injected failure")) {
					t.Errorf("the response reveals the database's error: %s", r.Body)
				}
				if after := probe(env, key, c.header, c.probes); after != before {
					t.Errorf("the failed request changed what readers see:\nbefore %s\nafter  %s", before, after)
				}
			})
		}
	})
}

// probe concatenates the status and body of a GET of each path, sent with the
// header.
func probe(env *servertest.Env, key string, header map[string]string, paths []string) string {
	var b strings.Builder
	for _, p := range paths {
		r := sendWith(env, "GET", p, key, nil, header)
		fmt.Fprintf(&b, "%s %d %s\n", p, r.Status, r.Body)
	}
	return b.String()
}

// sendWith sends a request with extra headers.
func sendWith(env *servertest.Env, method, path, key string, body any, header map[string]string) *servertest.Response {
	req := env.NewRequest(method, path, key, body)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	return env.Send(req)
}

// postJSON POSTs body and returns the decoded 201 answer.
func postJSON(t testing.TB, env *servertest.Env, key, path string, body any) obj {
	t.Helper()
	r := env.For(t).Do("POST", path, key, body)
	expectStatus(t, r, http.StatusCreated)
	return r.JSON(t)
}

var startedRE = regexp.MustCompile(`name="_started" value="([^"]+)"`)

// postPage submits the HTML form of a published form as a browser without
// JavaScript does: it loads the page, then posts one answer as multipart/form-data.
func postPage(t testing.TB, env *servertest.Env, share, qid, answer string) *servertest.Response {
	t.Helper()
	page := env.Do("GET", "/f/"+share, "", nil)
	started := startedRE.FindSubmatch(page.Body)
	if started == nil {
		t.Fatalf("no _started input in the page: %s", page.Body)
	}
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for name, value := range map[string]string{"q_" + qid: answer, "_started": string(started[1]), "website": ""} {
		if err := mw.WriteField(name, value); err != nil {
			t.Fatal(err)
		}
	}
	mw.Close()
	req := env.NewRequest("POST", "/f/"+share+"/submissions", "", buf.Bytes())
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return env.Send(req)
}
