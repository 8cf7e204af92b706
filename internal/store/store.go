package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	"modernc.org/sqlite" // registers the pure-Go "sqlite" driver
	sqlite3 "modernc.org/sqlite/lib"

	"forma/internal/form"
)

// Dialect names the SQL database behind a Store.
type Dialect string

// The supported dialects.
const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

//go:embed migrations
var migrations embed.FS

// Store is the persistence of every domain object. It is safe for concurrent use,
// also by several processes sharing one database.
type Store struct {
	dialect Dialect
	// write serves transactions that write. On SQLite it is one connection whose
	// transactions begin IMMEDIATE: SQLite allows one writer at a time, and taking the
	// write lock at BEGIN (instead of at the first write) keeps read-then-write
	// transactions from failing with SQLITE_BUSY. On PostgreSQL it is the same pool
	// as read.
	write *pool
	// read serves reads; on SQLite a pool of WAL readers that never block the writer.
	read *pool
	// group commits submissions and request counts in shared transactions (doc.go).
	group *groupCommit
	// forms caches forms with their questions (formcache.go).
	forms *formCache
	// keys and credits cache API keys and credits used (keycache.go).
	keys    *keyCache
	credits *creditCache
	// counts are the shared request counts still open (counter.go).
	counts counters
	// Now is the clock; tests may replace it.
	Now func() time.Time
	// MatchScan bounds the submissions a page of a list with a Match filter
	// reads (ResponseFilter.Match): DefaultMatchScan; tests may lower it.
	MatchScan int
	// Charged, when set, is told of every credit charge once it is committed (for
	// metrics).
	Charged func(endpoint string, credits int)
	// latest is the newest migration this binary has (set by Migrate).
	latest int64
	// file is the SQLite database file as opened ("" on PostgreSQL), and opened
	// what it was then, so that Ping notices the file removed or replaced.
	file   string
	opened os.FileInfo
	// QueueMail makes completed submissions queue the emails of their form's
	// notifications (queueMail). It is set, before serving, when the server
	// sends mail; without it notifications are kept but nothing is queued.
	QueueMail bool
}

// Open connects to the database named by databaseURL (a postgres:// URL), or, when
// it is empty, to the SQLite file forma.db in dataDir, and applies pending migrations.
func Open(ctx context.Context, databaseURL, dataDir string) (*Store, error) {
	s, err := connect(databaseURL, dataDir)
	if err != nil {
		return nil, err
	}
	if err := s.Migrate(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func connect(databaseURL, dataDir string) (*Store, error) {
	s := &Store{forms: newFormCache(), keys: newKeyCache(), credits: newCreditCache(), Now: func() time.Time { return time.Now().UTC() }, MatchScan: DefaultMatchScan}
	switch {
	case databaseURL == "":
		if err := s.openSQLite(dataDir); err != nil {
			return nil, err
		}
		s.startGroupCommit(sqliteWriters)
	case strings.HasPrefix(databaseURL, "postgres://"), strings.HasPrefix(databaseURL, "postgresql://"):
		if err := s.openPostgres(databaseURL); err != nil {
			return nil, err
		}
		s.startGroupCommit(postgresWriters)
	default:
		return nil, fmt.Errorf("database URL must start with postgres:// (or be empty for SQLite)")
	}
	return s, nil
}

func (s *Store) openPostgres(databaseURL string) error {
	db, err := sql.Open("pgx", databaseURL)
	if err != nil {
		return fmt.Errorf("open PostgreSQL: %w", err)
	}
	db.SetMaxOpenConns(20)
	db.SetMaxIdleConns(20)
	p := newPool(db)
	s.dialect, s.read, s.write = Postgres, p, p
	if err := db.Ping(); err != nil {
		db.Close()
		return fmt.Errorf("connect to PostgreSQL: %w", err)
	}
	return nil
}

func (s *Store) openSQLite(dataDir string) error {
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return fmt.Errorf("create data folder: %w", err)
	}
	// synchronous(FULL): a committed submission survives power loss; WAL keeps the
	// cost to one fsync per commit, and group commit to one per batch (doc.go).
	// The path is escaped for SQLite's URI syntax: a '#' or '?' in a folder name
	// would otherwise end the file name (a fragment, a query) and open another file.
	dsn := "file:" + uriPath.Replace(filepath.Join(dataDir, "forma.db")) +
		"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)&_pragma=synchronous(FULL)"
	write, err := sql.Open("sqlite", dsn+"&_txlock=immediate")
	if err != nil {
		return fmt.Errorf("open SQLite: %w", err)
	}
	write.SetMaxOpenConns(1)
	read, err := sql.Open("sqlite", dsn+"&_pragma=query_only(1)")
	if err != nil {
		write.Close()
		return fmt.Errorf("open SQLite: %w", err)
	}
	// Every reader connection is kept: database/sql keeps only 2 idle ones by
	// default, and a new SQLite connection parses the whole schema again and
	// re-prepares the pool's statements, which under load cost more than the
	// queries themselves.
	read.SetMaxOpenConns(8)
	read.SetMaxIdleConns(8)
	s.dialect, s.read, s.write = SQLite, newPool(read), newPool(write)
	if err := write.Ping(); err != nil {
		write.Close()
		read.Close()
		return fmt.Errorf("open SQLite file in %s: %w", dataDir, err)
	}
	s.file = filepath.Join(dataDir, "forma.db")
	s.opened, err = os.Stat(s.file)
	return err
}

// uriPath escapes the characters that have a meaning in a SQLite URI's path.
var uriPath = strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")

// Dialect reports which database the store uses.
func (s *Store) Dialect() Dialect { return s.dialect }

// Close commits the writes already queued, then releases the connections.
func (s *Store) Close() error {
	s.group.close()
	err := s.write.Close()
	if s.read != s.write {
		err = errors.Join(err, s.read.Close())
	}
	return err
}

// Migrate applies every pending migration; on PostgreSQL a session lock lets several
// nodes start at once. Migrations are forward-only: a database that a newer forma
// has migrated past this binary's newest migration is refused (ErrNewerDatabase),
// since this binary's queries may no longer fit its schema.
func (s *Store) Migrate(ctx context.Context) error {
	p, err := s.migrationProvider()
	if err != nil {
		return err
	}
	sources := p.ListSources()
	s.latest = sources[len(sources)-1].Version
	current, err := p.GetDBVersion(ctx)
	if err != nil {
		return fmt.Errorf("read the database's migration version: %w", err)
	}
	if current > s.latest {
		return fmt.Errorf("%w: the database is at migration %d, this forma knows migrations up to %d; "+
			"run the newer forma that upgraded it (migrations are forward-only)", ErrNewerDatabase, current, s.latest)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("apply migrations: %w", err)
	}
	return nil
}

// ErrNewerDatabase is returned by Open and Migrate when a newer forma has migrated
// the database past this binary's newest migration.
var ErrNewerDatabase = errors.New("the database is newer than this forma")

// migrationProvider returns the goose provider of the store's dialect.
func (s *Store) migrationProvider() (*goose.Provider, error) {
	dir, gooseDialect := "migrations/sqlite", goose.DialectSQLite3
	var opts []goose.ProviderOption
	if s.dialect == Postgres {
		dir, gooseDialect = "migrations/postgres", goose.DialectPostgres
		locker, err := lock.NewPostgresSessionLocker()
		if err != nil {
			return nil, err
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	sub, err := fs.Sub(migrations, dir)
	if err != nil {
		return nil, err
	}
	p, err := goose.NewProvider(gooseDialect, s.write.DB, sub, opts...)
	if err != nil {
		return nil, fmt.Errorf("migrations: %w", err)
	}
	return p, nil
}

// querier is what both *sql.DB and *sql.Tx offer.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// inTx runs fn in a write transaction and commits when fn returns nil.
func (s *Store) inTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.write.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// forUpdate is the row-locking clause for a read that a transaction will write
// back; SQLite needs none because its write transactions are exclusive.
func (s *Store) forUpdate() string {
	if s.dialect == Postgres {
		return " FOR UPDATE"
	}
	return ""
}

// skipLocked is forUpdate for a claim of outbox jobs: on PostgreSQL, rows another
// node is claiming are passed over rather than waited for, so that nodes claiming
// at once never take the same job.
func (s *Store) skipLocked() string {
	if s.dialect == Postgres {
		return " FOR UPDATE SKIP LOCKED"
	}
	return ""
}

// translate turns a driver error into a domain error: no rows → NotFound, a unique
// violation → Conflict; other errors are returned as they are. Each dialect's
// errors are recognised by their codes, never by message text.
// wellFormedID reports whether s can be one of the opaque ids and tokens Forma
// hands out (share tokens, submission and upload ids): 1 to 64 URL-safe base64
// characters. Anything else names no row, and must not reach the database as a
// parameter: PostgreSQL answers a NUL in text with an error, not with a miss.
func wellFormedID(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for _, c := range []byte(s) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// missing is the NotFound error of a lookup of what by an id that names no row.
func missing(what string) error { return translate(sql.ErrNoRows, what) }

func translate(err error, what string) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return form.Errorf(form.NotFound, "%s not found", what)
	}
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return translatePostgres(pg, what)
	}
	var lite *sqlite.Error
	if errors.As(err, &lite) {
		return translateSQLite(lite, what)
	}
	return err
}

// translatePostgres maps PostgreSQL's SQLSTATE codes.
func translatePostgres(err *pgconn.PgError, what string) error {
	if err.Code == "23505" { // unique_violation
		return conflict(what)
	}
	return err
}

// translateSQLite maps SQLite's extended result codes.
func translateSQLite(err *sqlite.Error, what string) error {
	switch err.Code() {
	case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
		return conflict(what)
	}
	return err
}

func conflict(what string) error {
	return form.Errorf(form.Conflict, "%s already exists", strings.ToLower(what))
}

// ms converts a time to the stored integer milliseconds.
func ms(t time.Time) int64 { return t.UnixMilli() }

// fromMS converts stored milliseconds to a UTC time.
func fromMS(v int64) time.Time { return time.UnixMilli(v).UTC() }

// nullMS converts a nullable stored time.
func nullMS(v sql.NullInt64) *time.Time {
	if !v.Valid {
		return nil
	}
	t := fromMS(v.Int64)
	return &t
}

// msOrNil converts an optional time to a nullable parameter.
func msOrNil(t *time.Time) any {
	if t == nil {
		return nil
	}
	return ms(*t)
}
