package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"forma/internal/auth"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// cli runs the command in-process, with nothing on stdin, and returns stdout,
// stderr and the error.
func cli(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	return cliIn(t, "", args...)
}

// cliIn runs the command in-process with stdin as its input.
func cliIn(t *testing.T, stdin string, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), args, strings.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), err
}

func mustCLI(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut, err := cli(t, args...)
	if err != nil {
		t.Fatalf("forma %s: %v\n%s", strings.Join(args, " "), err, errOut)
	}
	return out
}

var keyRE = regexp.MustCompile(`^forma_sk_live_[0-9A-Za-z]{32}\n$`)

func TestAccountAndKeyCommands(t *testing.T) {
	data := "--data=" + t.TempDir()
	mustCLI(t, "migrate", data)
	if out := mustCLI(t, "account", "create", data, "--email", "ops@example.com", "--tier", "builder"); !strings.Contains(out, "ops@example.com") {
		t.Errorf("account create printed %q", out)
	}
	key := mustCLI(t, "key", "create", data, "--email", "ops@example.com", "--name", "ci", "--daily-limit", "500")
	if !keyRE.MatchString(key) {
		t.Fatalf("key create printed %q, want only the key", key)
	}
	mustCLI(t, "key", "create", data, "--email", "ops@example.com")
	list := mustCLI(t, "key", "list", data, "--email", "ops@example.com")
	lines := strings.Split(strings.TrimSpace(list), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "1 ") || !strings.Contains(lines[0], "ci") ||
		!strings.Contains(lines[0], "limit=500") || !strings.Contains(lines[0], key[:18]) || !strings.Contains(lines[0], "active") ||
		!strings.Contains(lines[0], "today=0") || !strings.Contains(lines[0], "never used") {
		t.Fatalf("key list:\n%s", list)
	}
	if strings.Contains(list, strings.TrimSpace(key)) {
		t.Error("key list shows the whole key")
	}
	mustCLI(t, "key", "revoke", data, "--email", "ops@example.com", "--id", "1")
	if list := mustCLI(t, "key", "list", data, "--email", "ops@example.com"); !strings.Contains(strings.Split(list, "\n")[0], "revoked") {
		t.Errorf("after revoke:\n%s", list)
	}
	mustCLI(t, "account", "set-tier", data, "--email", "ops@example.com", "--tier", "scale")

	failures := [][]string{
		{"account", "create", data, "--email", "ops@example.com"},                 // taken
		{"account", "create", data, "--email", "x@example.com", "--tier", "gold"}, // bad tier
		{"account", "set-tier", data, "--email", "nobody@example.com", "--tier", "free"},
		{"key", "create", data, "--email", "ops@example.com", "--daily-limit", "42"},
		{"key", "create", data, "--email", "ops@example.com", "--form", "7"},
		{"key", "create", data, "--email", "nobody@example.com"},
		{"key", "revoke", data, "--email", "ops@example.com", "--id", "1"}, // already revoked
		{"key", "frobnicate", data},
		{"serve", "--database", "mysql://x"},
		{"nonsense"},
	}
	for _, args := range failures {
		if out, _, err := cli(t, args...); err == nil {
			t.Errorf("forma %s succeeded: %q", strings.Join(args, " "), out)
		}
	}
}

// TestKeyNameRefused checks that key create refuses a name with control or
// invisible characters (a NUL made PostgreSQL fail) and stores no key.
func TestKeyNameRefused(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		db := []string{"--data=" + t.TempDir()}
		if u := servertest.DatabaseURL(t, d); u != "" {
			db = append(db, "--database", u)
		}
		with := func(args ...string) []string { return append(args, db...) }
		mustCLI(t, with("migrate")...)
		mustCLI(t, with("account", "create", "--email", "names@example.com")...)
		for _, name := range []string{"ci\x00", "ci\x1b[2J", "two\nlines", "\u200b", "nel\u0085"} {
			_, errOut, err := cli(t, with("key", "create", "--email", "names@example.com", "--name", name)...)
			if err == nil || !strings.Contains(err.Error(), "--name") {
				t.Errorf("key create --name %q: %v %s", name, err, errOut)
			}
		}
		if list := mustCLI(t, with("key", "list", "--email", "names@example.com")...); list != "" {
			t.Errorf("refused names left keys:\n%s", list)
		}
		mustCLI(t, with("key", "create", "--email", "names@example.com", "--name", "ci\tnightly")...)
	})
}

// TestTwoServeProcessesShareTheDailyLimit builds the binary and runs two `forma
// serve` processes on one PostgreSQL database: 200 concurrent requests against a key
// limit of 100 get exactly 100 successes.
func TestTwoServeProcessesShareTheDailyLimit(t *testing.T) {
	if os.Getenv(servertest.DatabaseEnv) == "" {
		t.Skip("PostgreSQL tests skipped: set " + servertest.DatabaseEnv + " to run the two-process test")
	}
	dbURL := servertest.DatabaseURL(t, store.Postgres)
	bin := buildBinary(t)
	forma := cliFor(t, bin, dbURL)
	forma("migrate")
	forma("account", "create", "--email", "two@example.com")
	key := strings.TrimSpace(forma("key", "create", "--email", "two@example.com", "--daily-limit", "100"))
	urls := []string{startServe(t, bin, dbURL), startServe(t, bin, dbURL)}

	var mu sync.Mutex
	statuses := map[int]int{}
	var wg sync.WaitGroup
	for i := range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest("GET", urls[i%2]+"/api/v1/forms", nil)
			req.Header.Set("X-API-Key", key)
			resp, err := http.DefaultClient.Do(req)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				statuses[-1]++
				return
			}
			resp.Body.Close()
			statuses[resp.StatusCode]++
		}()
	}
	wg.Wait()
	if statuses[200] != 100 || statuses[429] != 100 {
		t.Fatalf("statuses %v, want exactly 100 × 200 and 100 × 429", statuses)
	}
}

// TestMain removes the binary built for the process tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if builtBin != "" {
		os.RemoveAll(filepath.Dir(builtBin))
	}
	os.Exit(code)
}

var (
	buildOnce sync.Once
	builtBin  string
	buildErr  error
)

// dockerBuild is how the Dockerfile builds the binary: static (no cgo), without
// local paths or symbols. The process tests run a binary built the same way, and
// TestDockerfileBuildsWhatTheTestsRun keeps the two in step.
var dockerBuild = []string{"CGO_ENABLED=0", "go", "build", "-trimpath", `-ldflags="-s -w"`}

// buildBinary builds the forma binary once per test run, as the Dockerfile does.
func buildBinary(t *testing.T) string {
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "forma-bin-")
		if err != nil {
			buildErr = err
			return
		}
		builtBin = filepath.Join(dir, "forma")
		cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", builtBin, ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtBin
}

// cliFor runs the binary's subcommands against one database and returns stdout.
func cliFor(t *testing.T, bin, dbURL string) func(args ...string) string {
	return func(args ...string) string {
		t.Helper()
		out, err := exec.Command(bin, append(args, "--database", dbURL)...).Output()
		if err != nil {
			t.Fatalf("forma %v: %v", args, err)
		}
		return string(out)
	}
}

// startServe starts `forma serve` on a free port and waits until it answers.
func startServe(t *testing.T, bin, dbURL string, extra ...string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(bin, append([]string{"serve", "--addr", addr, "--database", dbURL, "--data", t.TempDir()}, extra...)...)
	var logs bytes.Buffer
	cmd.Stderr = &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	})
	url := "http://" + addr
	// Generous: two processes may start at once on a busy machine, one waiting
	// for the other's migration lock.
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
		if resp, err := http.Get(url + "/healthz"); err == nil {
			resp.Body.Close()
			return url
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("forma serve did not start:\n%s", logs.String())
	return ""
}

func TestFirstStartPrintsOneKey(t *testing.T) {
	st := servertest.OpenStore(t, store.SQLite)
	var out bytes.Buffer
	if err := bootstrapOwner(context.Background(), st, "http://localhost:8080", &out); err != nil {
		t.Fatal(err)
	}
	key := regexp.MustCompile(`forma_sk_live_[0-9A-Za-z]{32}`).FindString(out.String())
	if key == "" || !strings.Contains(out.String(), fmt.Sprintf(`curl -s http://localhost:8080/api/v1/forms -H "X-API-Key: %s"`, key)) {
		t.Fatalf("first start printed:\n%s", out.String())
	}
	link := regexp.MustCompile(`http://localhost:8080/setup/([0-9A-Za-z]{43})\n`).FindStringSubmatch(out.String())
	if link == nil {
		t.Fatalf("first start printed no setup link:\n%s", out.String())
	}
	if acct, err := st.SetupTokenAccount(context.Background(), auth.Hash(link[1])); err != nil || acct.Email != ownerEmail {
		t.Errorf("the setup link names %+v, %v", acct, err)
	}
	out.Reset()
	if err := bootstrapOwner(context.Background(), st, "http://localhost:8080", &out); err != nil || out.Len() != 0 {
		t.Fatalf("second start printed %q (err %v)", out.String(), err)
	}
}

// TestTwoServeProcessesDeliverEachWebhookOnce runs two `forma serve` processes on one
// PostgreSQL database: 1,000 completions spread over both make exactly 1,000
// deliveries, none twice.
func TestTwoServeProcessesDeliverEachWebhookOnce(t *testing.T) {
	if os.Getenv(servertest.DatabaseEnv) == "" {
		t.Skip("PostgreSQL tests skipped: set " + servertest.DatabaseEnv + " to run the two-process delivery test")
	}
	dbURL := servertest.DatabaseURL(t, store.Postgres)
	bin := buildBinary(t)
	forma := cliFor(t, bin, dbURL)
	forma("migrate")
	forma("account", "create", "--email", "hooks@example.com", "--tier", "scale")
	key := strings.TrimSpace(forma("key", "create", "--email", "hooks@example.com"))
	var mu sync.Mutex
	seen := map[string]int{}
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var p struct {
			SubmissionID string `json:"submission_id"`
		}
		json.NewDecoder(r.Body).Decode(&p)
		mu.Lock()
		seen[p.SubmissionID]++
		mu.Unlock()
		w.WriteHeader(204)
	}))
	defer receiver.Close()
	flags := []string{"--allow-private-webhooks", "--submit-limit", "0"}
	urls := []string{startServe(t, bin, dbURL, flags...), startServe(t, bin, dbURL, flags...)}
	token, qid := hookedFormVia(t, urls[0], key, receiver.URL)

	const n = 1000
	var wg sync.WaitGroup
	sem := make(chan struct{}, 16)
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			body := fmt.Sprintf(`{"answers":{"%d":"respondent %d"}}`, qid, i)
			resp, err := http.Post(urls[i%2]+"/f/"+token+"/submissions", "application/json", strings.NewReader(body))
			if err != nil || resp.StatusCode != 201 {
				t.Errorf("submission %d: %v %v", i, err, resp)
				return
			}
			resp.Body.Close()
		}()
	}
	wg.Wait()
	deadline := time.Now().Add(90 * time.Second)
	for {
		mu.Lock()
		got := len(seen)
		mu.Unlock()
		if got >= n || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(time.Second) // let any duplicate arrive
	mu.Lock()
	defer mu.Unlock()
	twice, total := 0, 0
	for _, c := range seen {
		total += c
		if c > 1 {
			twice++
		}
	}
	if len(seen) != n || total != n || twice != 0 {
		t.Fatalf("%d distinct deliveries, %d in all, %d delivered twice; want %d, %d, 0", len(seen), total, twice, n, n)
	}
}

// hookedFormVia creates, hooks and publishes a one-question form through the API of
// the server at base, and returns its share token and question id.
func hookedFormVia(t *testing.T, base, key, hook string) (string, int64) {
	t.Helper()
	call := func(method, path, body string) map[string]any {
		req, _ := http.NewRequest(method, base+"/api/v1"+path, strings.NewReader(body))
		req.Header.Set("X-API-Key", key)
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]any
		json.NewDecoder(resp.Body).Decode(&m)
		if resp.StatusCode >= 300 {
			t.Fatalf("%s %s: %d %v", method, path, resp.StatusCode, m)
		}
		return m
	}
	f := call("POST", "/forms", `{"title":"Hooks","questions":[{"question":"Name","required":true}]}`)
	id := int64(f["id"].(float64))
	call("PATCH", fmt.Sprintf("/forms/%d", id), fmt.Sprintf(`{"webhookUrl":%q,"webhookEnabled":true}`, hook))
	call("POST", fmt.Sprintf("/forms/%d/publish", id), "")
	q := f["questions"].([]any)[0].(map[string]any)
	return f["shareUrl"].(string), int64(q["id"].(float64))
}

// TestAccountSetPassword sets a password from stdin (never a flag), refuses a
// short one, and signs the account's dashboard sessions out.
func TestAccountSetPassword(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		db := []string{"--data=" + t.TempDir()}
		if u := servertest.DatabaseURL(t, d); u != "" {
			db = append(db, "--database", u)
		}
		with := func(args ...string) []string { return append(args, db...) }
		mustCLI(t, with("account", "create", "--email", "pw@example.com")...)
		if _, _, err := cliIn(t, "short\n", with("account", "set-password", "--email", "pw@example.com")...); err == nil ||
			!strings.Contains(err.Error(), "at least 10") {
			t.Errorf("short password: %v", err)
		}
		if _, _, err := cliIn(t, "long enough password\n", with("account", "set-password", "--email", "nobody@example.com")...); err == nil {
			t.Error("set-password for an unknown account succeeded")
		}
		if _, _, err := cliIn(t, "", with("account", "set-password", "--email", "pw@example.com", "--password", "x")...); err == nil {
			t.Error("set-password took a --password flag")
		}
		out, errOut, err := cliIn(t, "long enough password\r\n", with("account", "set-password", "--email", "pw@example.com")...)
		if err != nil || !strings.Contains(out, "password set for pw@example.com") {
			t.Fatalf("set-password: %v %q %s", err, out, errOut)
		}
		st, err := store.Open(context.Background(), databaseArg(db), db[0][len("--data="):])
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		_, hash, err := st.AccountPassword(context.Background(), "pw@example.com")
		if err != nil || !auth.CheckPassword(hash, "long enough password") {
			t.Errorf("stored hash %q does not match: %v", hash, err)
		}
	})
}

// databaseArg is the --database value of a test's arguments ("" for SQLite).
func databaseArg(args []string) string {
	for i, a := range args {
		if a == "--database" && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}
