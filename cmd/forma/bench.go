package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"forma/internal/bench"
)

// benchmark runs `forma bench`: the harness of internal/bench against a server
// started from this very binary.
func benchmark(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench", stderr)
	quick := fs.Bool("quick", false, "smaller data and 2 s rows: the whole run in under 30 s")
	database := fs.String("database", "", "postgres:// URL of a database made for the bench (it is filled, and its forms deleted at the end); empty: SQLite in a temporary folder")
	conns := fs.Int("connections", 64, "requests in flight at once in the loaded rows")
	duration := fs.Duration("duration", 0, "length of each loaded row (default 10s, 2s with --quick)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	opts := bench.Full()
	if *quick {
		opts = bench.Quick()
	}
	opts.DatabaseURL, opts.Connections, opts.Progress = *database, *conns, stderr
	if *duration != 0 {
		opts.Duration = *duration
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find the forma executable: %w", err)
	}
	opts.Executable = exe
	start := time.Now()
	rep, err := bench.Run(ctx, opts)
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	fmt.Fprintf(stderr, "bench: done in %s\n", time.Since(start).Round(time.Second))
	return rep.Print(stdout)
}
