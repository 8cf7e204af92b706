package ops_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"forma/internal/config"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// node is a server over a store the test opened itself, so that it can reach
// the database behind the store's back.
type node struct {
	*servertest.Env
	dataDir string
	dbURL   string // "" on SQLite
}

func startNode(t *testing.T, d store.Dialect, dbURL string, configure ...func(*config.Config)) *node {
	t.Helper()
	dir := t.TempDir()
	st, err := store.Open(context.Background(), dbURL, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &node{Env: servertest.Start(t, st, configure...), dataDir: dir, dbURL: dbURL}
}

// exec runs SQL on the node's database through a connection of its own.
func (n *node) exec(t *testing.T, query string) {
	t.Helper()
	driver, dsn := "pgx", n.dbURL
	if dsn == "" {
		driver, dsn = "sqlite", filepath.Join(n.dataDir, "forma.db")
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(query); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

func get(t *testing.T, u string, header ...string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", u, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func expectReady(t *testing.T, n *node, status int, failing string) {
	t.Helper()
	code, body := get(t, n.URL+"/readyz")
	if code != status || !strings.Contains(body, `"failing":[`+failing+`]`) {
		t.Fatalf("/readyz = %d %s, want %d failing [%s]", code, body, status, failing)
	}
}

// TestHealthAndReadiness: /healthz says ok; /readyz is 200 with every check ok,
// and 503 naming the check when the blob store cannot be written or the database
// has a migration this binary does not know (another node runs a newer forma).
func TestHealthAndReadiness(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		n := startNode(t, d, servertest.DatabaseURL(t, d))
		if code, body := get(t, n.URL+"/healthz"); code != 200 || body != "ok\n" {
			t.Errorf("/healthz = %d %q", code, body)
		}
		code, body := get(t, n.URL+"/readyz")
		if code != 200 || body != `{"status":"ready","checks":{"blobs":"ok","database":"ok","migrations":"ok"},"failing":[]}`+"\n" {
			t.Errorf("/readyz = %d %s", code, body)
		}

		uploads := filepath.Join(n.Config.DataDir, "uploads")
		if err := os.Rename(uploads, uploads+".away"); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(uploads, nil, 0o600); err != nil { // a file where the folder was
			t.Fatal(err)
		}
		expectReady(t, n, 503, `"blobs"`)
		os.Remove(uploads)
		os.Rename(uploads+".away", uploads)
		expectReady(t, n, 200, ``)

		n.exec(t, `INSERT INTO goose_db_version (version_id, is_applied) VALUES (99999, true)`)
		expectReady(t, n, 503, `"migrations"`)
		if !strings.Contains(n.Logs(), "check=migrations") || !strings.Contains(n.Logs(), "this forma knows migrations up to") {
			t.Errorf("the failing check's reason is not logged:\n%s", n.Logs())
		}
		_, err := store.Open(context.Background(), n.dbURL, n.dataDir)
		if !errors.Is(err, store.ErrNewerDatabase) || !strings.Contains(err.Error(), "the database is at migration 99999") {
			t.Errorf("opening a newer database: %v", err)
		}
	})
}

// TestReadinessWhenTheDatabaseIsGone: /readyz answers 503 naming the database,
// within the check's timeout, when the database goes away under a running
// server: the SQLite file moved away, the PostgreSQL database dropped (its
// connections ended).
func TestReadinessWhenTheDatabaseIsGone(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		var n *node
		if d == store.SQLite {
			n = startNode(t, d, "")
		} else {
			n = startNode(t, d, freshDatabase(t))
		}
		expectReady(t, n, 200, ``)
		if d == store.SQLite {
			db := filepath.Join(n.dataDir, "forma.db")
			if err := os.Rename(db, db+".moved"); err != nil {
				t.Fatal(err)
			}
		} else {
			u, _ := url.Parse(n.dbURL)
			dropDatabase(t, strings.TrimPrefix(u.Path, "/"))
		}
		code, body := get(t, n.URL+"/readyz")
		if code != 503 || !strings.Contains(body, `"database":"failed"`) || !strings.Contains(body, `"status":"unavailable"`) {
			t.Errorf("/readyz = %d %s", code, body)
		}
		if code, _ := get(t, n.URL+"/healthz"); code != 200 {
			t.Errorf("/healthz = %d: the process is still up", code)
		}
	})
}

// freshDatabase creates a PostgreSQL database of its own (not a schema: the test
// drops it under the server) and returns its URL.
func freshDatabase(t *testing.T) string {
	base := os.Getenv(servertest.DatabaseEnv)
	name := fmt.Sprintf("forma_ready_%d", time.Now().UnixNano())
	admin, err := pgx.Connect(context.Background(), base)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(context.Background())
	if _, err := admin.Exec(context.Background(), "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dropDatabase(t, name) })
	u, _ := url.Parse(base)
	u.Path = "/" + name
	return u.String()
}

// dropDatabase ends every connection to the named database and drops it.
func dropDatabase(t *testing.T, name string) {
	admin, err := pgx.Connect(context.Background(), os.Getenv(servertest.DatabaseEnv))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(context.Background())
	if _, err := admin.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
		t.Fatal(err)
	}
}
