package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"forma/internal/config"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// acked is a submission the server acknowledged: its name answer and its file.
type acked struct{ name, file string }

// TestBackupDuringLoadRestores: a backup taken while clients submit with files
// restores, into an empty folder, a server that lists every submission
// acknowledged before the backup started, each with its file.
func TestBackupDuringLoadRestores(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(context.Background(), "", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	env := servertest.Start(t, st, func(c *config.Config) { c.DataDir, c.SubmitLimit = dir, 0 })
	key := env.NewKey()
	f := env.NewFileForm(t, key, nil)

	var mu sync.Mutex
	var done []acked
	stop := make(chan struct{})
	var clients sync.WaitGroup
	for c := range 4 {
		clients.Add(1)
		go func() {
			defer clients.Done()
			for i := 0; i < 500; i++ { // bounded, in case stop never comes
				select {
				case <-stop:
					return
				default:
				}
				a := acked{name: fmt.Sprintf("client%d-%d", c, i), file: fmt.Sprintf("file of client %d, submission %d", c, i)}
				if _, err := f.Submit(a.name, []byte(a.file)); err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				done = append(done, a)
				mu.Unlock()
			}
		}()
	}
	waitFor(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(done) >= 40 })
	mu.Lock()
	before := append([]acked(nil), done...)
	mu.Unlock()
	archive := filepath.Join(t.TempDir(), "forma.tar.gz")
	mustCLI(t, "backup", "--data", dir, "--to", archive)
	mu.Lock()
	during := len(done) - len(before)
	mu.Unlock()
	close(stop)
	clients.Wait()
	t.Logf("%d submissions acknowledged before the backup, %d while it ran", len(before), during)

	restored := filepath.Join(t.TempDir(), "restored")
	if out := mustCLI(t, "restore", "--from", archive, "--data", restored); !strings.Contains(out, "restored") {
		t.Errorf("restore printed %q", out)
	}
	st2, err := store.Open(context.Background(), "", restored)
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	env2 := servertest.Start(t, st2, func(c *config.Config) { c.DataDir = restored })
	files := listFiles(t, env2, key, f.ID)
	for _, a := range before {
		url, ok := files[a.name]
		if !ok {
			t.Errorf("%s was acknowledged before the backup but is not restored", a.name)
			continue
		}
		if r := env2.Send(mustRequest(t, url)); r.Status != 200 || string(r.Body) != a.file {
			t.Errorf("%s's file: %d %q", a.name, r.Status, r.Body)
		}
	}

	if _, _, err := cli(t, "restore", "--from", archive, "--data", restored); err == nil || !strings.Contains(err.Error(), "is not empty") {
		t.Errorf("restore into a non-empty folder: %v", err)
	}
	if _, _, err := cli(t, "backup", "--to", archive, "--database", "postgres://db.example/forma"); err == nil || !strings.Contains(err.Error(), "pg_dump") {
		t.Errorf("backup of PostgreSQL: %v", err)
	}
	notBackup := filepath.Join(t.TempDir(), "x.tar.gz")
	os.WriteFile(notBackup, []byte("hello"), 0o600)
	empty := filepath.Join(t.TempDir(), "new")
	if _, _, err := cli(t, "restore", "--from", notBackup, "--data", empty); err == nil || !strings.Contains(err.Error(), "not a forma backup") {
		t.Errorf("restore of a file that is no backup: %v", err)
	}
	if entries, _ := os.ReadDir(empty); len(entries) != 0 {
		t.Errorf("a failed restore left %d entries", len(entries))
	}
}

// TestBackupWithS3Blobs: with SQLite and the uploads in an S3 bucket (--blob-url
// or FORMA_BLOB_URL), forma backup refuses to write a backup that would silently
// lack the files, and says why and what to do; with --database-only it backs up
// the database alone and says, naming the bucket (never its query), that the
// files are not in it. Such a backup restores the database, and no stale file of
// the local uploads folder.
func TestBackupWithS3Blobs(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(context.Background(), "", dir)
	if err != nil {
		t.Fatal(err)
	}
	acct, err := st.CreateAccount(context.Background(), "owner@example.com", "free")
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(dir, "uploads", "0123456789abcdef0123456789abcdef")
	os.MkdirAll(filepath.Dir(stale), 0o700)
	os.WriteFile(stale, []byte("a file from before the bucket"), 0o600)
	const blobURL = "s3://forma-files/prod?endpoint=https://s3.example.com&region=eu-west-1"
	archive := filepath.Join(t.TempDir(), "forma.tar.gz")

	for name, args := range map[string][]string{"flag": {"--blob-url", blobURL}, "environment": nil} {
		t.Run(name, func(t *testing.T) {
			if args == nil {
				t.Setenv("FORMA_BLOB_URL", blobURL)
			}
			_, _, err := cli(t, append([]string{"backup", "--data", dir, "--to", archive}, args...)...)
			if err == nil || !strings.Contains(err.Error(), "s3://forma-files/prod,") || !strings.Contains(err.Error(), "--database-only") ||
				!strings.Contains(err.Error(), "versioning") || strings.Contains(err.Error(), "endpoint") {
				t.Errorf("a backup without the bucket's files: %v", err)
			}
			if _, err := os.Stat(archive); !os.IsNotExist(err) {
				t.Errorf("the refused backup wrote %s (%v)", archive, err)
			}
		})
	}

	out := mustCLI(t, "backup", "--data", dir, "--to", archive, "--blob-url", blobURL, "--database-only")
	for _, want := range []string{"WITHOUT the uploaded files", "s3://forma-files/prod,", "versioning or replication", "--blob-url"} {
		if !strings.Contains(out, want) {
			t.Errorf("backup --database-only printed %q, without %q", out, want)
		}
	}
	restored := filepath.Join(t.TempDir(), "restored")
	mustCLI(t, "restore", "--from", archive, "--data", restored)
	if _, err := os.Stat(filepath.Join(restored, "uploads", filepath.Base(stale))); !os.IsNotExist(err) {
		t.Errorf("a database-only backup restored a local upload (%v)", err)
	}
	st2, err := store.Open(context.Background(), "", restored)
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	if got, err := st2.AccountByEmail(context.Background(), acct.Email); err != nil || got.ID != acct.ID {
		t.Errorf("the restored database lacks the account: %v %v", got, err)
	}
}

// listFiles pages through the form's responses and maps each name to its file's link.
func listFiles(t *testing.T, env *servertest.Env, key string, formID int64) map[string]string {
	files := map[string]string{}
	for offset := 0; ; offset += 500 {
		r := env.Do("GET", fmt.Sprintf("/api/v1/forms/%d/responses?limit=500&offset=%d", formID, offset), key, nil)
		if r.Status != 200 {
			t.Fatalf("list responses: %d %s", r.Status, r.Body)
		}
		page := r.JSON(t)
		for _, x := range page["responses"].([]any) {
			data := x.(map[string]any)["data"].(map[string]any)
			files[data["Name"].(string)] = data["File"].(map[string]any)["url"].(string)
		}
		if page["hasMore"] != true {
			return files
		}
	}
}

func mustRequest(t *testing.T, url string) *http.Request {
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	return req
}

// waitFor polls cond for up to 30 seconds.
func waitFor(t *testing.T, cond func() bool) {
	for range 300 {
		if cond() {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("timed out")
}

// TestOlderBinaryRefusesNewerDatabase: a database migrated past this binary's
// newest migration (by a newer forma) is refused at start with a message that
// says so, and is left as it was; a data folder that cannot be written is named.
func TestOlderBinaryRefusesNewerDatabase(t *testing.T) {
	dir := t.TempDir()
	mustCLI(t, "migrate", "--data", dir)
	db, err := sql.Open("sqlite", filepath.Join(dir, "forma.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`INSERT INTO goose_db_version (version_id, is_applied) VALUES (99999, 1)`); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range [][]string{{"migrate", "--data", dir}, {"serve", "--data", dir, "--addr", "127.0.0.1:0"}} {
		_, _, err := cli(t, cmd...)
		if err == nil || !strings.Contains(err.Error(), "the database is at migration 99999, this forma knows migrations up to") {
			t.Errorf("forma %s: %v", cmd[0], err)
		}
	}
	var n int
	db.QueryRow(`SELECT COUNT(*) FROM goose_db_version WHERE version_id = 99999`).Scan(&n)
	if n != 1 {
		t.Error("the newer database was changed")
	}

	file := filepath.Join(t.TempDir(), "a-file")
	os.WriteFile(file, nil, 0o600)
	if _, _, err := cli(t, "serve", "--data", file, "--addr", "127.0.0.1:0"); err == nil || !strings.Contains(err.Error(), "--data (FORMA_DATA_DIR) "+file) {
		t.Errorf("serve on a data folder that is a file: %v", err)
	}
	if _, _, err := cli(t, "serve", "--data", dir, "--addr", "nohost"); err == nil || !strings.Contains(err.Error(), "--addr (FORMA_ADDR) must be host:port") {
		t.Errorf("serve --addr nohost: %v", err)
	}
}

// TestMetricsListener: with --metrics-addr, /metrics answers on that address, and
// the main address answers it 404 (no token is set).
func TestMetricsListener(t *testing.T) {
	main, metrics := freePort(t), freePort(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--data", t.TempDir(), "--addr", main, "--metrics-addr", metrics, "--log-format", "text"},
			strings.NewReader(""), io.Discard, io.Discard)
	}()
	defer func() { cancel(); <-done }()
	waitFor(t, func() bool {
		resp, err := http.Get("http://" + main + "/healthz")
		if err == nil {
			resp.Body.Close()
		}
		return err == nil
	})
	resp, err := http.Get("http://" + metrics + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "forma_http_requests_total{route=\"GET /healthz\",status=\"200\"}") {
		t.Errorf("metrics listener: %d\n%.400s", resp.StatusCode, body)
	}
	if resp, err := http.Get("http://" + main + "/metrics"); err != nil || resp.StatusCode != 404 {
		t.Errorf("/metrics on the main address: %v %v", resp.StatusCode, err)
	}
}

func freePort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}
