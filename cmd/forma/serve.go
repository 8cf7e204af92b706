package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"time"

	"forma/internal/auth"
	"forma/internal/config"
	"forma/internal/server"
	"forma/internal/store"
)

// ownerEmail names the account created on the very first start.
const ownerEmail = "owner@localhost"

func serve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg := config.Defaults()
	fs := newFlagSet("serve", stderr)
	cfg.ServeFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	log := newLogger(cfg.LogFormat, stderr)
	st, err := openChecked(ctx, cfg)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := bootstrapOwner(ctx, st, cfg.PublicURL, stdout); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("--addr (FORMA_ADDR): cannot listen on %s: %w", cfg.Addr, err)
	}
	srv, err := server.New(ctx, cfg, st, log)
	if err != nil {
		ln.Close()
		return err
	}
	if cfg.MetricsAddr != "" {
		mln, err := net.Listen("tcp", cfg.MetricsAddr)
		if err != nil {
			ln.Close()
			return fmt.Errorf("--metrics-addr (FORMA_METRICS_ADDR): cannot listen on %s: %w", cfg.MetricsAddr, err)
		}
		log.Info("metrics listening", "addr", mln.Addr().String())
		go serveMetrics(ctx, mln, srv.Metrics, log)
	}
	log.Info("forma listening", "addr", ln.Addr().String(), "public_url", cfg.PublicURL, "database", string(st.Dialect()))
	return srv.Serve(ctx, ln)
}

// newLogger writes log lines to w as JSON or as text (the config's LogFormat).
func newLogger(format string, w io.Writer) *slog.Logger {
	if format == "text" {
		return slog.New(slog.NewTextHandler(w, nil))
	}
	return slog.New(slog.NewJSONHandler(w, nil))
}

// openChecked checks that the data folder takes files, then opens and migrates the
// database, saying which setting to look at when either fails.
func openChecked(ctx context.Context, cfg config.Config) (*store.Store, error) {
	if err := checkWritable(cfg.DataDir); err != nil {
		return nil, fmt.Errorf("--data (FORMA_DATA_DIR) %s: %w", cfg.DataDir, err)
	}
	st, err := store.Open(ctx, cfg.DatabaseURL, cfg.DataDir)
	switch {
	case err == nil:
		return st, nil
	case errors.Is(err, store.ErrNewerDatabase):
		return nil, err
	case cfg.DatabaseURL != "":
		return nil, fmt.Errorf("--database (FORMA_DATABASE_URL) %s: %w", redact(cfg.DatabaseURL), err)
	}
	return nil, fmt.Errorf("--data (FORMA_DATA_DIR) %s: %w", cfg.DataDir, err)
}

// checkWritable creates dir if needed and writes and removes a file in it.
func checkWritable(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("cannot be created: %w", err)
	}
	f, err := os.CreateTemp(dir, ".write-check-*")
	if err != nil {
		return fmt.Errorf("is not writable: %w", err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// redact hides a database URL's password, for messages.
func redact(databaseURL string) string {
	u, err := url.Parse(databaseURL)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}

// serveMetrics answers /metrics (and nothing else) on ln until ctx ends.
func serveMetrics(ctx context.Context, ln net.Listener, metrics http.Handler, log *slog.Logger) {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", metrics)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Error("metrics listener stopped", "error", err.Error())
	}
}

// bootstrapOwner creates the owner account and its first key when the database has
// no account yet, and prints the key once with a ready-to-paste curl line, and a
// one-time link where the owner sets the dashboard password.
func bootstrapOwner(ctx context.Context, st *store.Store, publicURL string, stdout io.Writer) error {
	n, err := st.CountAccounts(ctx)
	if err != nil || n > 0 {
		return err
	}
	acct, err := st.CreateAccount(ctx, ownerEmail, "free")
	if err != nil {
		return err
	}
	key, err := st.IssueKey(ctx, acct.ID, auth.KeySettings{Name: "first key"})
	if err != nil {
		return err
	}
	token, hash, err := auth.NewToken()
	if err != nil {
		return err
	}
	if err := st.CreateSetupToken(ctx, acct.ID, hash, st.Now().Add(setupLinkLifetime)); err != nil {
		return err
	}
	fmt.Fprintf(stdout, `
First start: created the account %s and its API key. It is shown only this once:

    %s

Try it:

    curl -s %s/api/v1/forms -H "X-API-Key: %s"

Set the account's dashboard password here (the link works once, for 24 hours):

    %s/setup/%s

`, ownerEmail, key, publicURL, key, publicURL, token)
	return nil
}

// setupLinkLifetime is how long the first start's setup link works.
const setupLinkLifetime = 24 * time.Hour

func migrate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	st, err := openStore(ctx, "migrate", args, stderr, nil, nil)
	if err != nil {
		return err
	}
	defer st.Close()
	fmt.Fprintln(stdout, "migrations applied")
	return nil
}

func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// openStore parses the storage flags (and any extra ones define registers), runs
// check (when given) on the parsed flags, opens the database and applies migrations.
func openStore(ctx context.Context, name string, args []string, stderr io.Writer, define func(*flag.FlagSet), check func() error) (*store.Store, error) {
	cfg := config.Defaults()
	fs := newFlagSet(name, stderr)
	cfg.StorageFlags(fs)
	if define != nil {
		define(fs)
	}
	if err := parseStorage(fs, &cfg, args); err != nil {
		return nil, err
	}
	if check != nil {
		if err := check(); err != nil {
			return nil, err
		}
	}
	return store.Open(ctx, cfg.DatabaseURL, cfg.DataDir)
}

// parseStorage parses args with fs, which holds cfg's storage flags, refuses
// extra arguments, and validates the storage settings.
func parseStorage(fs *flag.FlagSet, cfg *config.Config, args []string) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	return cfg.ValidateStorage()
}
