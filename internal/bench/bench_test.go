package bench

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRunTiny runs the whole harness in a tiny mode against a forma binary built
// from this tree, on SQLite: every row must have a figure and no errors. It
// checks the harness, never the timings (performance goals are never timed tests).
func TestRunTiny(t *testing.T) {
	if testing.Short() {
		t.Skip("the harness builds forma and runs a server for a few seconds; skipped with -short")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH: cannot build forma for the harness")
	}
	exe := filepath.Join(t.TempDir(), "forma")
	if out, err := exec.Command(goTool, "build", "-o", exe, "forma/cmd/forma").CombinedOutput(); err != nil {
		t.Fatalf("build forma: %v\n%s", err, out)
	}
	var progress bytes.Buffer
	rep, err := Run(context.Background(), Options{Executable: exe, Connections: 4, Duration: 200 * time.Millisecond,
		Paging: 500, AI: 200, AnalyticsCalls: 1, ChatMessages: 1, Progress: &progress})
	if err != nil {
		t.Fatalf("run: %v\n%s", err, progress.String())
	}
	if rep.Dialect != "sqlite" {
		t.Errorf("dialect %q, want sqlite", rep.Dialect)
	}
	for _, want := range []string{"one-shot submissions", "GET /f/{s} (", "GET /f/{s}/definition", "GET /api/v1/forms/{id}",
		"responses page of 100, offset 0 of", "responses page of 100, offset 450 of", "webhook deliveries", "analytics over",
		"chat message over 200 responses, the first", "chat message over 200 responses, later", "server RSS, idle",
		"server RSS, peak under submissions"} {
		if !hasRow(rep, want) {
			t.Errorf("no row %q", want)
		}
	}
	for _, r := range rep.Rows {
		if r.N == 0 && r.Bytes <= 0 || r.N > 0 && r.Rate <= 0 {
			t.Errorf("%s: no figure (n %d, rate %v, bytes %d)", r.Name, r.N, r.Rate, r.Bytes)
		}
		if r.Errors != 0 {
			t.Errorf("%s: %d errors\n%s", r.Name, r.Errors, progress.String())
		}
	}
	var out bytes.Buffer
	if err := rep.Print(&out); err != nil || !strings.Contains(out.String(), "webhook deliveries") {
		t.Errorf("print: %v\n%s", err, out.String())
	}
}

func hasRow(rep *Report, prefix string) bool {
	for _, r := range rep.Rows {
		if strings.HasPrefix(r.Name, prefix) {
			return true
		}
	}
	return false
}
