package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"
)

// healthcheck asks the local server's /healthz whether it is up, for a container's
// HEALTHCHECK (the final image has no shell or curl). The address is --addr, or
// FORMA_ADDR, as `forma serve` takes it; a bare port means localhost.
func healthcheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("healthcheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	def := os.Getenv("FORMA_ADDR")
	if def == "" {
		def = ":8080"
	}
	addr := fs.String("addr", def, "the address forma serve listens on")
	if err := fs.Parse(args); err != nil {
		return err
	}
	host, port, err := net.SplitHostPort(*addr)
	if err != nil {
		return fmt.Errorf("--addr: %w", err)
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+net.JoinHostPort(host, port)+"/healthz", nil)
	if err != nil {
		return err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("not healthy: %w", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("not healthy: /healthz answered %s", res.Status)
	}
	fmt.Fprintln(stdout, "healthy")
	return nil
}
