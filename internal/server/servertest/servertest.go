// Package servertest starts real Forma servers for tests: on a fresh SQLite file, or
// on a fresh PostgreSQL schema when FORMA_TEST_DATABASE_URL is set, through the same
// wiring as `forma serve`. Run drives a table of Scenarios (request, expected status,
// fragments, headers) against one, each as a subtest.
package servertest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"forma/internal/auth"
	"forma/internal/config"
	"forma/internal/server"
	"forma/internal/store"
)

// DatabaseEnv names the variable that points the tests at a PostgreSQL server.
const DatabaseEnv = "FORMA_TEST_DATABASE_URL"

// Dialects are the databases every behaviour test runs against.
var Dialects = []store.Dialect{store.SQLite, store.Postgres}

// ForEachDialect runs fn as a subtest per dialect; the PostgreSQL one is skipped,
// saying how to enable it, when FORMA_TEST_DATABASE_URL is not set.
func ForEachDialect(t *testing.T, fn func(t *testing.T, d store.Dialect)) {
	for _, d := range Dialects {
		t.Run(string(d), func(t *testing.T) {
			if d == store.Postgres && os.Getenv(DatabaseEnv) == "" {
				t.Skip("PostgreSQL tests skipped: set " + DatabaseEnv + "=postgres://user@127.0.0.1:5432/db to run them")
			}
			fn(t, d)
		})
	}
}

// BenchEachDialect is ForEachDialect for benchmarks.
func BenchEachDialect(b *testing.B, fn func(b *testing.B, d store.Dialect)) {
	for _, d := range Dialects {
		b.Run(string(d), func(b *testing.B) {
			if d == store.Postgres && os.Getenv(DatabaseEnv) == "" {
				b.Skip("PostgreSQL benchmarks skipped: set " + DatabaseEnv + " to run them")
			}
			fn(b, d)
		})
	}
}

// DatabaseURL returns a database URL for d: "" (SQLite) or a fresh PostgreSQL schema
// that is dropped when the test ends.
func DatabaseURL(t testing.TB, d store.Dialect) string {
	if d == store.SQLite {
		return ""
	}
	base := os.Getenv(DatabaseEnv)
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("connect to %s: %v", DatabaseEnv, err)
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	schema := "forma_test_" + hex.EncodeToString(b)
	if _, err := admin.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("create test schema: %v", err)
	}
	t.Cleanup(func() {
		_, _ = admin.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE")
		admin.Close(ctx)
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// OpenStore opens a migrated store on a fresh database of dialect d.
func OpenStore(t testing.TB, d store.Dialect) *store.Store {
	st, err := store.Open(context.Background(), DatabaseURL(t, d), t.TempDir())
	if err != nil {
		t.Fatalf("open %s store: %v", d, err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// OpenStores opens n migrated stores over one fresh PostgreSQL database: the
// stores of n nodes of one deployment. (A SQLite file serves one process, so
// SQLite has no such deployment.)
func OpenStores(t testing.TB, n int) []*store.Store {
	if os.Getenv(DatabaseEnv) == "" {
		t.Skip("several-node tests need PostgreSQL: set " + DatabaseEnv + " (see README, Development)")
	}
	url := DatabaseURL(t, store.Postgres)
	stores := make([]*store.Store, n)
	for i := range stores {
		st, err := store.Open(context.Background(), url, t.TempDir())
		if err != nil {
			t.Fatalf("open node %d: %v", i, err)
		}
		t.Cleanup(func() { st.Close() })
		stores[i] = st
	}
	return stores
}

// Env is a running server and a client for it.
type Env struct {
	t      testing.TB
	URL    string
	Store  *store.Store
	Config config.Config
	Server *server.Server
	logs   *logBuffer
	// contract validates every exchange Send makes against the OpenAPI document.
	contract *contract
}

// Logs returns what the server has logged: at warning level and above, as text,
// unless StartLogging chose otherwise.
func (e *Env) Logs() string { return e.logs.String() }

// logBuffer is a bytes.Buffer safe for the server's concurrent writes.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Start serves a Forma over st on a loopback port until the test ends. configure,
// when given, adjusts the configuration first.
func Start(t testing.TB, st *store.Store, configure ...func(*config.Config)) *Env {
	warnings := func(w io.Writer) slog.Handler {
		return slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelWarn})
	}
	return StartLogging(t, st, warnings, configure...)
}

// StartLogging is Start with the server logging through the handler newHandler
// makes, writing to what Logs returns.
func StartLogging(t testing.TB, st *store.Store, newHandler func(io.Writer) slog.Handler, configure ...func(*config.Config)) *Env {
	logs := &logBuffer{}
	log := slog.New(newHandler(logs))
	srv := httptest.NewUnstartedServer(nil)
	cfg := config.Defaults()
	cfg.PublicURL, cfg.DataDir, cfg.MinFillSeconds = "http://"+srv.Listener.Addr().String(), t.TempDir(), 0
	for _, c := range configure {
		c(&cfg)
	}
	s, err := server.New(context.Background(), cfg, st, log)
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = s.Handler()
	srv.Start()
	ctx, stop := context.WithCancel(context.Background())
	workers := make(chan struct{})
	go func() { s.RunWorkers(ctx, 2*time.Second); close(workers) }()
	t.Cleanup(func() {
		stop()
		<-workers
		srv.Close()
	})
	return &Env{t: t, URL: srv.URL, Store: st, Config: cfg, Server: s, logs: logs, contract: newContract(t, srv.URL)}
}

// New opens a fresh store of dialect d and starts a server on it.
func New(t testing.TB, d store.Dialect, configure ...func(*config.Config)) *Env {
	return Start(t, OpenStore(t, d), configure...)
}

// Account creates an account on the given tier.
func (e *Env) Account(tier string) *store.Account {
	e.t.Helper()
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	a, err := e.Store.CreateAccount(context.Background(), hex.EncodeToString(b)+"@example.com", tier)
	if err != nil {
		e.t.Fatal(err)
	}
	return a
}

// Key creates a key for the account; limit and formID are optional.
func (e *Env) Key(acct *store.Account, limit *int, formID *int64) string {
	e.t.Helper()
	key, err := e.Store.IssueKey(context.Background(), acct.ID, auth.KeySettings{Name: "test", DailyLimit: limit, FormID: formID})
	if err != nil {
		e.t.Fatal(err)
	}
	return key
}

// NewKey creates a free account and an unscoped key for it.
func (e *Env) NewKey() string {
	return e.Key(e.Account("free"), nil, nil)
}

// For returns a copy of e that reports its failures to t: the way to make requests
// (and create accounts and keys) from a subtest, such as a scenario's hooks.
func (e *Env) For(t testing.TB) *Env {
	c := *e
	c.t = t
	return &c
}

// Response is a finished request.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
	// Request is the request answered; its GetBody, when set, gives its body again.
	Request *http.Request
}

// JSON decodes the body as an object (failing the test when it is not one).
func (r *Response) JSON(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("response is not a JSON object: %v\n%s", err, r.Body)
	}
	return m
}

// Do sends a request to path (relative to the server) with the key (if any) and a
// body: nil, a string sent as is, or a value encoded as JSON. JSON Content-Type is
// set whenever there is a body.
func (e *Env) Do(method, path, key string, body any) *Response {
	e.t.Helper()
	return e.Send(e.NewRequest(method, path, key, body))
}

// NewRequest prepares the request Do sends, for a caller that adjusts it first.
func (e *Env) NewRequest(method, path, key string, body any) *http.Request {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, e.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("X-API-Key", key)
	}
	return req
}

// Send performs a prepared request and reads the whole response. The exchange must
// match the OpenAPI document when it is a documented operation: the test fails
// otherwise.
func (e *Env) Send(req *http.Request) *Response {
	e.t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	r := &Response{Status: resp.StatusCode, Header: resp.Header, Body: b, Request: req}
	if err := e.contract.validate(req.Clone(context.Background()), r); err != nil {
		e.t.Errorf("%s: not as documented: %v", describe(req, r.Status), err)
	}
	return r
}
