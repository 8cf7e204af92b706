package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"forma/internal/server/servertest"
	"forma/internal/store"
)

// cli runs the command in-process and returns stdout, stderr and the error.
func cli(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), args, &out, &errOut)
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
		!strings.Contains(lines[0], "limit=500") || !strings.Contains(lines[0], key[:18]) || !strings.Contains(lines[0], "active") {
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

// TestTwoServeProcessesShareTheDailyLimit builds the binary and runs two `forma
// serve` processes on one PostgreSQL database: 200 concurrent requests against a key
// limit of 100 get exactly 100 successes.
func TestTwoServeProcessesShareTheDailyLimit(t *testing.T) {
	if os.Getenv(servertest.DatabaseEnv) == "" {
		t.Skip("PostgreSQL tests skipped: set " + servertest.DatabaseEnv + " to run the two-process test")
	}
	dbURL := servertest.DatabaseURL(t, store.Postgres)
	bin := filepath.Join(t.TempDir(), "forma")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	forma := func(args ...string) string {
		out, err := exec.Command(bin, append(args, "--database", dbURL)...).Output()
		if err != nil {
			t.Fatalf("forma %v: %v", args, err)
		}
		return string(out)
	}
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

// startServe starts `forma serve` on a free port and waits until it answers.
func startServe(t *testing.T, bin, dbURL string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(bin, "serve", "--addr", addr, "--database", dbURL, "--data", t.TempDir())
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
	for range 100 {
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
	out.Reset()
	if err := bootstrapOwner(context.Background(), st, "http://localhost:8080", &out); err != nil || out.Len() != 0 {
		t.Fatalf("second start printed %q (err %v)", out.String(), err)
	}
}
