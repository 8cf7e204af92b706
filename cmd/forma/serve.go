package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
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
	log := slog.New(slog.NewJSONHandler(stderr, nil))
	st, err := store.Open(ctx, cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := bootstrapOwner(ctx, st, cfg.PublicURL, stdout); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	log.Info("forma listening", "addr", ln.Addr().String(), "public_url", cfg.PublicURL, "database", string(st.Dialect()))
	srv, err := server.New(ctx, cfg, st, log)
	if err != nil {
		return err
	}
	return srv.Serve(ctx, ln)
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
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if err := cfg.ValidateStorage(); err != nil {
		return nil, err
	}
	if check != nil {
		if err := check(); err != nil {
			return nil, err
		}
	}
	return store.Open(ctx, cfg.DatabaseURL, cfg.DataDir)
}
