// Command forma is the Forma form service: `forma serve` runs it, and the account,
// key and migrate subcommands administer it. Run `forma help` for the list.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

const usage = `forma — a self-hostable form service

Usage:
  forma serve [--addr :8080] [--data ./data] [--database URL] [--public-url URL] [--allow-private-webhooks]
              [--log-format json|text] [--metrics-addr 127.0.0.1:9090]
  forma migrate [--data DIR] [--database URL]
  forma backup --to FILE [--data DIR]      (SQLite: a consistent copy while the server runs)
  forma restore --from FILE --data DIR     (into an empty folder)
  forma account create --email E [--tier free|builder|scale]
  forma account set-tier --email E --tier T
  forma account set-password --email E    (the password from stdin, or a prompt)
  forma key create --email E [--name N] [--daily-limit 100|500|1000|5000|10000] [--form ID]
  forma key list --email E
  forma key revoke --email E --id ID
  forma healthcheck [--addr :8080]       (exit status 0 when the local server answers /healthz)
  forma bench [--quick] [--database URL] [--connections 64] [--duration 10s]

Every subcommand but bench takes --data and --database (env FORMA_DATA_DIR, FORMA_DATABASE_URL);
bench runs its own server on a temporary folder, or on the --database it is given.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "forma:", err)
		}
		os.Exit(1)
	}
}

// run dispatches a command line; it is main without the process around it.
// stdin is read only by account set-password.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("a subcommand is required")
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "serve":
		return serve(ctx, rest, stdout, stderr)
	case "migrate":
		return migrate(ctx, rest, stdout, stderr)
	case "account":
		return sub(ctx, "account", rest, stdout, stderr, map[string]command{
			"create": accountCreate, "set-tier": accountSetTier,
			"set-password": func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
				return accountSetPassword(ctx, args, stdin, stdout, stderr)
			}})
	case "key":
		return sub(ctx, "key", rest, stdout, stderr, map[string]command{"create": keyCreate, "list": keyList, "revoke": keyRevoke})
	case "bench":
		return benchmark(ctx, rest, stdout, stderr)
	case "healthcheck":
		return healthcheck(ctx, rest, stdout, stderr)
	case "backup":
		return backupData(ctx, rest, stdout, stderr)
	case "restore":
		return restoreData(ctx, rest, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown subcommand %q", cmd)
}

// command is one leaf subcommand.
type command func(ctx context.Context, args []string, stdout, stderr io.Writer) error

func sub(ctx context.Context, group string, args []string, stdout, stderr io.Writer, cmds map[string]command) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("%s needs a subcommand", group)
	}
	c, ok := cmds[args[0]]
	if !ok {
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("unknown subcommand %q %q", group, args[0])
	}
	return c(ctx, args[1:], stdout, stderr)
}
