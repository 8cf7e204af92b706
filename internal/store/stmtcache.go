package store

import (
	"context"
	"database/sql"
	"sync"
)

// pool is a database pool whose queries run through prepared statements. Parsing
// SQL is a fifth of the work of a small request on SQLite, and every request runs
// the same few statements (key lookup, counter, credits), so preparing each once
// pays off. Transactions (DB.BeginTx) prepare their own (statements).
type pool struct {
	DB *sql.DB
	statements
}

func newPool(db *sql.DB) *pool {
	return &pool{DB: db, statements: statements{prepare: db.PrepareContext, direct: db}}
}

// Close closes the statements and the pool.
func (p *pool) Close() error {
	p.cache.Range(func(_, s any) bool {
		s.(*sql.Stmt).Close()
		return true
	})
	return p.DB.Close()
}

// statements runs each query through a statement that prepare makes once for it
// and that is kept for the next time.
type statements struct {
	prepare func(ctx context.Context, query string) (*sql.Stmt, error)
	// direct runs a query that could not be prepared, so that QueryRowContext's
	// error surfaces from Scan.
	direct querier
	cache  sync.Map // query text → *sql.Stmt
}

// cached returns the statement already prepared for query, if any.
func (p *statements) cached(query string) (*sql.Stmt, bool) {
	s, ok := p.cache.Load(query)
	if !ok {
		return nil, false
	}
	return s.(*sql.Stmt), true
}

func (p *statements) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if s, ok := p.cached(query); ok {
		return s, nil
	}
	s, err := p.prepare(ctx, query)
	if err != nil {
		return nil, err
	}
	if prev, loaded := p.cache.LoadOrStore(query, s); loaded {
		s.Close()
		return prev.(*sql.Stmt), nil
	}
	return s, nil
}

// ExecContext runs a prepared statement for query.
func (p *statements) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	s, err := p.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return s.ExecContext(ctx, args...)
}

// QueryContext runs a prepared statement for query.
func (p *statements) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	s, err := p.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return s.QueryContext(ctx, args...)
}

// QueryRowContext runs a prepared statement for query; a preparation error surfaces
// from Scan.
func (p *statements) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	s, err := p.stmt(ctx, query)
	if err != nil {
		return p.direct.QueryRowContext(ctx, query, args...)
	}
	return s.QueryRowContext(ctx, args...)
}
