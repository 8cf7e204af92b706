package store

import (
	"context"
	"database/sql"
	"sync"
)

// pool is a *sql.DB that keeps one prepared statement per query text. Parsing SQL is
// a fifth of the work of a small request on SQLite, and every request runs the same
// few statements (key lookup, counter, credits), so preparing each once pays off.
// Transactions use *sql.Tx directly.
type pool struct {
	*sql.DB
	stmts sync.Map // query text → *sql.Stmt
}

func (p *pool) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if s, ok := p.stmts.Load(query); ok {
		return s.(*sql.Stmt), nil
	}
	s, err := p.DB.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if prev, loaded := p.stmts.LoadOrStore(query, s); loaded {
		s.Close()
		return prev.(*sql.Stmt), nil
	}
	return s, nil
}

// ExecContext runs a prepared statement for query.
func (p *pool) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	s, err := p.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return s.ExecContext(ctx, args...)
}

// QueryContext runs a prepared statement for query.
func (p *pool) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	s, err := p.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return s.QueryContext(ctx, args...)
}

// QueryRowContext runs a prepared statement for query; a preparation error surfaces
// from Scan.
func (p *pool) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	s, err := p.stmt(ctx, query)
	if err != nil {
		return p.DB.QueryRowContext(ctx, query, args...)
	}
	return s.QueryRowContext(ctx, args...)
}

// Close closes the statements and the pool.
func (p *pool) Close() error {
	p.stmts.Range(func(_, s any) bool {
		s.(*sql.Stmt).Close()
		return true
	})
	return p.DB.Close()
}
