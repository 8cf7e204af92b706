package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
)

// Ping checks that the database answers a query; on SQLite also that the file
// the store opened is still the one at its path (a removed or replaced file
// would leave the store writing to a file nobody will read again).
func (s *Store) Ping(ctx context.Context) error {
	var one int
	if err := s.read.DB.QueryRowContext(ctx, `SELECT 1`).Scan(&one); err != nil {
		return err
	}
	if s.file == "" {
		return nil
	}
	now, err := os.Stat(s.file)
	if err != nil {
		return fmt.Errorf("the database file: %w", err)
	}
	if !os.SameFile(now, s.opened) {
		return fmt.Errorf("the database file %s was replaced after it was opened", s.file)
	}
	return nil
}

// CheckMigrations reports whether the database is at this binary's newest
// migration: an error when migrations are pending (the database is older) or the
// database is newer (another node runs a newer forma).
func (s *Store) CheckMigrations(ctx context.Context) error {
	var current int64
	if err := s.read.DB.QueryRowContext(ctx, `SELECT COALESCE(MAX(version_id), 0) FROM goose_db_version`).Scan(&current); err != nil {
		return err
	}
	switch {
	case current > s.latest:
		return fmt.Errorf("%w: the database is at migration %d, this forma knows migrations up to %d", ErrNewerDatabase, current, s.latest)
	case current < s.latest:
		return fmt.Errorf("the database is at migration %d, %d is pending", current, s.latest)
	}
	return nil
}

// Pools returns the database connection pools by name, for their statistics
// (sql.DBStats): "pool" on PostgreSQL; "read" and "write" on SQLite.
func (s *Store) Pools() map[string]*sql.DB {
	if s.read == s.write {
		return map[string]*sql.DB{"pool": s.read.DB}
	}
	return map[string]*sql.DB{"read": s.read.DB, "write": s.write.DB}
}

// SnapshotSQLite writes a consistent copy of the SQLite database in dataDir to the
// new file to (VACUUM INTO), while other processes go on reading and writing it:
// the copy is the database as of one moment. It opens the file read-only and
// applies no migration, so a running server of another version is never touched.
func SnapshotSQLite(ctx context.Context, dataDir, to string) error {
	file := filepath.Join(dataDir, "forma.db")
	if _, err := os.Stat(file); err != nil {
		return fmt.Errorf("no SQLite database in %s: %w", dataDir, err)
	}
	db, err := sql.Open("sqlite", "file:"+uriPath.Replace(file)+"?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `VACUUM INTO $1`, to); err != nil {
		return fmt.Errorf("snapshot %s: %w", file, err)
	}
	return nil
}
