// Package bench is Forma's benchmark harness, `forma bench`: it starts a real
// server as a child process (`forma serve` of the same binary, so that the
// server's memory is measured apart from the load generator's) on a temporary
// data folder or a given PostgreSQL database, prepares forms through the API and
// responses through the store, loads the server with a built-in concurrent HTTP
// client, and reports throughput, latency, errors and the server's memory beside
// the targets of issue 11.
//
// The harness holds no business rule: the account and keys are made by the
// store, forms by the API, and loaded responses are completed by logic.Complete,
// the rule a respondent's submission goes through.
package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"forma/internal/store"
)

// Options are the settings of a run.
type Options struct {
	// Executable is the forma binary; the server is `Executable serve`.
	Executable string
	// DatabaseURL is a postgres:// URL; empty means SQLite in a temporary folder.
	DatabaseURL string
	// Connections is how many requests are in flight at once in the loaded rows.
	Connections int
	// Duration is how long each loaded row lasts.
	Duration time.Duration
	// Paging and AI are the response counts of the paging form and the AI form.
	Paging, AI int
	// AnalyticsCalls is how many analyses are timed; ChatMessages how many chat
	// messages after the first.
	AnalyticsCalls, ChatMessages int
	// Progress receives a line per step; nil discards them.
	Progress io.Writer
}

// Full are the options of the full run: the sizes of issue 11, a few minutes.
func Full() Options {
	return Options{Connections: 64, Duration: 10 * time.Second, Paging: 1_000_000, AI: 100_000, AnalyticsCalls: 3, ChatMessages: 5}
}

// Quick are the options of `forma bench --quick`: the same rows, smaller, in
// under 30 s on a 2-core machine.
func Quick() Options {
	return Options{Connections: 64, Duration: 2 * time.Second, Paging: 20_000, AI: 5_000, AnalyticsCalls: 2, ChatMessages: 3}
}

// Validate reports the first option that cannot work.
func (o Options) Validate() error {
	switch {
	case o.Executable == "":
		return errors.New("the forma executable is unknown")
	case o.DatabaseURL != "" && !strings.HasPrefix(o.DatabaseURL, "postgres://") && !strings.HasPrefix(o.DatabaseURL, "postgresql://"):
		return errors.New("--database must be a postgres:// URL, or empty for SQLite in a temporary folder")
	case o.Connections < 1:
		return errors.New("--connections must be at least 1")
	case o.Duration <= 0:
		return errors.New("--duration must be positive, e.g. 10s")
	case o.Paging < 10 || o.AI < 10:
		return errors.New("the paging and AI forms need at least 10 responses each")
	case o.AnalyticsCalls < 1 || o.ChatMessages < 1:
		return errors.New("at least one analytics call and one chat message after the first are needed")
	}
	return nil
}

// run is one benchmark run in progress.
type run struct {
	o      Options
	st     *store.Store
	acct   *store.Account
	keys   *keyring
	hook   *receiver
	srv    *child
	client *http.Client
	forms  benchForms
	report *Report
	// idle is the memory row measured at the start, listed last.
	idle Row
}

// Run prepares a server, measures every row and returns the report. The server,
// the receiver and the temporary folder are gone when it returns; on PostgreSQL
// the bench's forms (and their responses) are deleted, its account and keys kept.
func Run(ctx context.Context, o Options) (rep *Report, err error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if o.Progress == nil {
		o.Progress = io.Discard
	}
	dir, err := os.MkdirTemp("", "forma-bench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	r := &run{o: o, client: newClient(o.Connections), report: &Report{Dialect: "sqlite", Connections: o.Connections,
		Duration: o.Duration, Paging: o.Paging, AI: o.AI, LoadStart: loadAverage()}}
	defer func() { err = errors.Join(err, r.close(ctx)) }()
	start := time.Now()
	if err := r.start(ctx, dir); err != nil {
		return nil, err
	}
	if err := r.prepare(ctx); err != nil {
		return nil, err
	}
	if err := r.measure(ctx); err != nil {
		return nil, err
	}
	r.report.Took, r.report.LoadEnd = time.Since(start), loadAverage()
	return r.report, nil
}

// start opens the store, creates the account and its keys, and starts the
// webhook receiver and the server; the server's memory right after its start
// is the idle row.
func (r *run) start(ctx context.Context, dir string) error {
	var err error
	if r.st, err = store.Open(ctx, r.o.DatabaseURL, dir); err != nil {
		return err
	}
	r.report.Dialect = string(r.st.Dialect())
	budget := int64(apiCeiling*r.o.Duration.Seconds())*3 + 1000
	if r.acct, r.keys, err = newAccount(ctx, r.st, budget); err != nil {
		return err
	}
	if r.hook, err = startReceiver(); err != nil {
		return err
	}
	r.progress("starting %s serve", r.o.Executable)
	if r.srv, err = startServer(ctx, r.o.Executable, dir, r.o.DatabaseURL); err != nil {
		return err
	}
	time.Sleep(200 * time.Millisecond) // let the start settle
	idle, _ := r.srv.memory()
	r.idle = Row{Name: "server RSS, idle at start", Bytes: idle, Target: atMost(60)}
	return nil
}

// close stops the server and the receiver, deletes the bench's forms on
// PostgreSQL, and closes the store.
func (r *run) close(ctx context.Context) error {
	var errs []error
	if r.srv != nil {
		errs = append(errs, r.srv.stop())
	}
	if r.hook != nil {
		errs = append(errs, r.hook.close())
	}
	if r.st == nil {
		return errors.Join(errs...)
	}
	if r.st.Dialect() == store.Postgres && r.acct != nil {
		r.progress("deleting the bench's forms")
		for _, f := range r.forms.all() {
			_, err := r.st.DeleteForm(context.WithoutCancel(ctx), r.acct.ID, f.ID)
			errs = append(errs, err)
		}
	}
	return errors.Join(append(errs, r.st.Close())...)
}

// progress writes a progress line.
func (r *run) progress(format string, args ...any) {
	fmt.Fprintf(r.o.Progress, "bench: "+format+"\n", args...)
}

// call makes one API request with a bench key and decodes the answer into out
// (when not nil); any status but want is an error.
func (r *run) call(ctx context.Context, method, path string, body any, want int, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, r.srv.url+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("X-API-Key", r.keys.key())
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := r.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: status %d, want %d: %s", method, path, resp.StatusCode, want, b)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(b, out)
}

// get is a GET request of path, with a bench key when withKey.
func (r *run) get(path string, withKey bool) request {
	return func(ctx context.Context, n int64) (*http.Request, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.srv.url+path, nil)
		if err == nil && withKey {
			req.Header.Set("X-API-Key", r.keys.key())
		}
		return req, err
	}
}

// post is a POST of path with the bodies in turn (JSON; none when bodies is
// empty), with a bench key when withKey.
func (r *run) post(path string, withKey bool, bodies ...[]byte) request {
	return func(ctx context.Context, n int64) (*http.Request, error) {
		var rd io.Reader = http.NoBody
		if len(bodies) > 0 {
			rd = bytes.NewReader(bodies[n%int64(len(bodies))])
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.srv.url+path, rd)
		if err != nil {
			return nil, err
		}
		if len(bodies) > 0 {
			req.Header.Set("Content-Type", "application/json")
		}
		if withKey {
			req.Header.Set("X-API-Key", r.keys.key())
		}
		return req, nil
	}
}
