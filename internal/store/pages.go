package store

import (
	"context"
	"database/sql"
)

// snapshot runs fn in a read-only transaction whose reads all see one committed
// state of the database, so that a paged list's total and its rows agree even
// when a write lands between the two statements (readPage). On SQLite a read
// transaction in WAL mode keeps the snapshot of its first read (the driver
// ignores the isolation level, which asks for no more); on PostgreSQL
// REPEATABLE READ keeps the snapshot of its first statement.
func (s *Store) snapshot(ctx context.Context, fn func(q querier) error) error {
	tx, err := s.read.DB.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback() // it wrote nothing: ending it is all that is left
	return fn(tx)
}

// window is the part of an ordered list that a page reads: limit rows after
// skipping offset, in the list's order or, when reverse, in the opposite one.
type window struct {
	limit, offset int
	reverse       bool
}

// pageWindow is the window of the page of limit rows at offset in a list of
// total rows, read from whichever end of the list is nearer. Skipping costs a
// step per index entry, even on a covering index, so offset 900,000 of
// 1,000,000 is read as the 100 rows that precede the last 99,900, backwards.
// A page past the end is the empty window.
func pageWindow(total, limit, offset int) window {
	n := min(limit, total-offset)
	if n <= 0 {
		return window{}
	}
	if back := total - offset - n; back < offset {
		return window{limit: n, offset: back, reverse: true}
	}
	return window{limit: n, offset: offset}
}

// readPage is how every paged list is read: in one snapshot, its total with
// count, then with list the window of the page of limit rows at offset. When
// nearerEnd is set the window starts from the nearer end of the list
// (pageWindow), so list must honour window.reverse; otherwise (a short list, or
// one that starts after a keyset bound, where the total does not say where the
// page lies) the window is as asked.
func (s *Store) readPage(ctx context.Context, limit, offset int, nearerEnd bool,
	count func(q querier) (int, error), list func(q querier, w window) error) (int, error) {
	var total int
	err := s.snapshot(ctx, func(q querier) error {
		var err error
		if total, err = count(q); err != nil {
			return err
		}
		w := window{limit: limit, offset: offset}
		if nearerEnd {
			w = pageWindow(total, limit, offset)
		}
		return list(q, w)
	})
	return total, err
}

// counter is a count function of readPage that runs a COUNT query.
func counter(ctx context.Context, query string, args ...any) func(q querier) (int, error) {
	return func(q querier) (int, error) {
		var n int
		err := q.QueryRowContext(ctx, query, args...).Scan(&n)
		return n, err
	}
}
