package storetest_test

import (
	"bytes"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"forma/internal/auth"
	"forma/internal/form"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// sameKey fails unless got equals want in every field.
func sameKey(t *testing.T, got, want *store.APIKey) {
	t.Helper()
	eqInt := func(a, b *int) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
	eqID := func(a, b *int64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
	eqTime := (got.RevokedAt == nil) == (want.RevokedAt == nil) && (got.RevokedAt == nil || got.RevokedAt.Equal(*want.RevokedAt))
	if got.ID != want.ID || got.AccountID != want.AccountID || got.Hash != want.Hash || got.Prefix != want.Prefix ||
		got.Name != want.Name || !eqInt(got.DailyLimit, want.DailyLimit) || !eqID(got.FormID, want.FormID) ||
		!got.CreatedAt.Equal(want.CreatedAt) || !eqTime {
		t.Errorf("key = %s, want %s", jsonString(got), jsonString(want))
	}
}

func TestKeyRoundTrip(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, c := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		f := newForm(t, st, acct, "Scoped")

		key, hash, prefix, err := auth.NewKey()
		must(t, err)
		k := &store.APIKey{AccountID: acct.ID, Hash: hash, Prefix: prefix, Name: "Zapier – prod", DailyLimit: ptr(250), FormID: &f.ID}
		must(t, st.CreateKey(ctx, k))
		if k.ID == 0 || !k.CreatedAt.Equal(c.Last()) {
			t.Fatalf("CreateKey set id %d and created %v, want an id and %v", k.ID, k.CreatedAt, c.Last())
		}

		got, owner, err := st.KeyByHash(ctx, auth.Hash(key))
		must(t, err)
		sameKey(t, got, k)
		sameAccount(t, owner, acct)

		// An unscoped key without its own limit comes back with both unset.
		_, plain := newKey(t, st, acct, "", nil, nil)
		got, _, err = st.KeyByHash(ctx, plain.Hash)
		must(t, err)
		sameKey(t, got, plain)
		if got.DailyLimit != nil || got.FormID != nil {
			t.Fatalf("unscoped key came back with limit %v and form %v, want both nil", got.DailyLimit, got.FormID)
		}

		_, _, err = st.KeyByHash(ctx, auth.Hash(key+"x"))
		wantCode(t, err, form.NotFound)
		_, _, err = st.KeyByHash(ctx, key) // the key itself is not its hash
		wantCode(t, err, form.NotFound)
	})
}

func TestDuplicateKeyHashIsConflict(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		other := newAccount(t, st, "bob@example.com")
		_, k := newKey(t, st, acct, "first", nil, nil)
		dup := &store.APIKey{AccountID: other.ID, Hash: k.Hash, Prefix: k.Prefix, Name: "second"}
		wantCode(t, st.CreateKey(ctx, dup), form.Conflict)

		_, owner, err := st.KeyByHash(ctx, k.Hash)
		must(t, err)
		sameAccount(t, owner, acct)
		keys, err := st.ListKeys(ctx, other.ID, 0)
		must(t, err)
		if len(keys) != 0 {
			t.Fatalf("the refused key was stored: %s", jsonString(keys))
		}
	})
}

func TestListKeys(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, c := open(t, d)
		ada := newAccount(t, st, "ada@example.com")
		bob := newAccount(t, st, "bob@example.com")
		carol := newAccount(t, st, "carol@example.com")
		f := newForm(t, st, ada, "Scoped")

		_, k1 := newKey(t, st, ada, "one", nil, nil)
		_, bobKey := newKey(t, st, bob, "bob's", ptr(10), nil)
		_, k2 := newKey(t, st, ada, "two", ptr(5), &f.ID)
		_, k3 := newKey(t, st, ada, "three", nil, nil)
		must(t, st.RevokeKey(ctx, ada.ID, k2.ID))
		k2.RevokedAt = ptr(c.Last())

		keys, err := st.ListKeys(ctx, ada.ID, 0)
		must(t, err)
		if len(keys) != 3 {
			t.Fatalf("ListKeys returned %d keys, want 3 (revoked ones included): %s", len(keys), jsonString(keys))
		}
		for i, want := range []*store.APIKey{k1, k2, k3} { // oldest first
			sameKey(t, &keys[i].APIKey, want)
		}

		keys, err = st.ListKeys(ctx, bob.ID, 0)
		must(t, err)
		if len(keys) != 1 {
			t.Fatalf("bob has %d keys, want 1: %s", len(keys), jsonString(keys))
		}
		sameKey(t, &keys[0].APIKey, bobKey)

		keys, err = st.ListKeys(ctx, carol.ID, 0)
		must(t, err)
		if len(keys) != 0 {
			t.Fatalf("an account without keys lists %s", jsonString(keys))
		}
	})
}

func TestRevokeKey(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, c := open(t, d)
		ada := newAccount(t, st, "ada@example.com")
		bob := newAccount(t, st, "bob@example.com")
		adaKey, k := newKey(t, st, ada, "revoke me", nil, nil)
		_, keep := newKey(t, st, ada, "keep me", nil, nil)
		_, bobs := newKey(t, st, bob, "bob's", nil, nil)

		must(t, st.RevokeKey(ctx, ada.ID, k.ID))
		revokedAt := c.Last()
		_, _, err := st.KeyByHash(ctx, auth.Hash(adaKey))
		wantCode(t, err, form.NotFound)
		wantCode(t, st.RevokeKey(ctx, ada.ID, k.ID), form.NotFound)
		wantCode(t, st.RevokeKey(ctx, ada.ID, k.ID+1000), form.NotFound)

		// The second revoke did not move the revocation time.
		keys, err := st.ListKeys(ctx, ada.ID, 0)
		must(t, err)
		if keys[0].ID != k.ID || keys[0].RevokedAt == nil || !keys[0].RevokedAt.Equal(revokedAt) {
			t.Fatalf("revoked key lists as %s, want revoked at %v", jsonString(keys[0]), revokedAt)
		}

		// Ada's other key still works.
		_, _, err = st.KeyByHash(ctx, keep.Hash)
		must(t, err)

		// Ada cannot revoke Bob's key, and trying leaves it working.
		wantCode(t, st.RevokeKey(ctx, ada.ID, bobs.ID), form.NotFound)
		_, owner, err := st.KeyByHash(ctx, bobs.Hash)
		must(t, err)
		sameAccount(t, owner, bob)
	})
}

// TestDatabaseDumpHoldsNoKey reads every column of every table through a separate
// connection (what a stolen dump would show) and checks that a stored key appears
// only as its hash. On SQLite it also scans the raw database files.
func TestDatabaseDumpHoldsNoKey(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		url, dir := servertest.DatabaseURL(t, d), t.TempDir()
		st, err := store.Open(ctx, url, dir)
		must(t, err)
		t.Cleanup(func() { st.Close() })

		acct := newAccount(t, st, "ada@example.com")
		f := newForm(t, st, acct, "Scoped", "Name")
		key, k := newKey(t, st, acct, "deploy", ptr(100), &f.ID)
		// Use the key the way a request does, so that every table it touches has rows.
		got, _, err := st.KeyByHash(ctx, auth.Hash(key))
		must(t, err)
		_, _, err = st.CountRequest(ctx, got.ID, 20394, 100)
		must(t, err)
		secret := key[auth.DisplayLen:] // the part of the key that is never shown again

		var db *sql.DB
		var tablesQuery, columnsQuery string
		if d == store.SQLite {
			db, err = sql.Open("sqlite", "file:"+filepath.Join(dir, "forma.db")+"?_pragma=query_only(1)")
			tablesQuery = `SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`
			columnsQuery = `SELECT name FROM pragma_table_info($1) ORDER BY cid`
		} else {
			db, err = sql.Open("pgx", url)
			tablesQuery = `SELECT table_name FROM information_schema.tables
				WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`
			columnsQuery = `SELECT column_name FROM information_schema.columns
				WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`
		}
		must(t, err)
		defer db.Close()

		tables := queryStrings(t, db, tablesQuery)
		if !contains(tables, "api_keys") || !contains(tables, "accounts") || !contains(tables, "request_counts") {
			t.Fatalf("catalog lists tables %v; the scan would miss the keys", tables)
		}
		hashSeen, cells := false, 0
		for _, table := range tables {
			for _, col := range queryStrings(t, db, columnsQuery, table) {
				// Every column, read as text: a superset of the text columns, so that
				// no column type can hide the key.
				values := queryStrings(t, db, `SELECT CAST(`+quote(col)+` AS TEXT) FROM `+quote(table))
				for _, v := range values {
					cells++
					if strings.Contains(v, secret) {
						t.Errorf("%s.%s holds the API key: %q", table, col, v)
					}
					if v == k.Hash {
						hashSeen = true
					}
				}
			}
		}
		if !hashSeen {
			t.Fatalf("the key's hash %s was not found in %d cells of %v; the scan is not reading the database", k.Hash, cells, tables)
		}

		if d == store.SQLite {
			entries, err := os.ReadDir(dir)
			must(t, err)
			for _, e := range entries {
				b, err := os.ReadFile(filepath.Join(dir, e.Name()))
				must(t, err)
				if bytes.Contains(b, []byte(secret)) {
					t.Errorf("database file %s holds the API key", e.Name())
				}
			}
		}
	})
}

// queryStrings runs a query that returns one column and collects it; NULLs are
// returned as "".
func queryStrings(t *testing.T, db *sql.DB, query string, args ...any) []string {
	t.Helper()
	rows, err := db.QueryContext(ctx, query, args...)
	must(t, err)
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v sql.NullString
		must(t, rows.Scan(&v))
		out = append(out, v.String)
	}
	must(t, rows.Err())
	return out
}

func quote(ident string) string { return `"` + strings.ReplaceAll(ident, `"`, `""`) + `"` }

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// TestKeyUsageAndScope: the key list shows each key's requests of the day asked
// and its last use; a key cannot be scoped to another account's form.
func TestKeyUsageAndScope(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, c := open(t, d)
		ada := newAccount(t, st, "ada@example.com")
		bob := newAccount(t, st, "bob@example.com")
		bobsForm := newForm(t, st, bob, "Bob's")
		_, used := newKey(t, st, ada, "used", nil, nil)
		newKey(t, st, ada, "idle", nil, nil)
		for range 3 {
			_, ok, err := st.CountRequest(ctx, used.ID, 20000, 100)
			must(t, err)
			if !ok {
				t.Fatal("a request under the limit was refused")
			}
		}
		lastUse := c.Last()
		_, _, err := st.CountRequest(ctx, used.ID, 20001, 100) // the next day
		must(t, err)
		keys, err := st.ListKeys(ctx, ada.ID, 20000)
		must(t, err)
		if keys[0].RequestsToday != 3 || keys[1].RequestsToday != 0 {
			t.Errorf("requests on day 20000: %d and %d, want 3 and 0", keys[0].RequestsToday, keys[1].RequestsToday)
		}
		if keys[0].LastUsedAt == nil || !keys[0].LastUsedAt.After(lastUse) || keys[1].LastUsedAt != nil {
			t.Errorf("last used: %v and %v, want after %v and never", keys[0].LastUsedAt, keys[1].LastUsedAt, lastUse)
		}

		foreign := &store.APIKey{AccountID: ada.ID, Hash: auth.Hash("x"), Prefix: "forma_sk_live_xxxx", Name: "scoped", FormID: &bobsForm.ID}
		wantCode(t, st.CreateKey(ctx, foreign), form.NotFound)
		keys, err = st.ListKeys(ctx, ada.ID, 20000)
		must(t, err)
		if len(keys) != 2 {
			t.Errorf("a key scoped to another account's form was stored: %s", jsonString(keys))
		}
	})
}
