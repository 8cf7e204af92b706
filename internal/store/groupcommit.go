package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Group commit (doc.go): the bounds of a batch and of the queue.
const (
	// maxBatch bounds the writes in one transaction, and so the time one batch
	// holds the writer: a few milliseconds of statements before its fsync.
	maxBatch = 256
	// queueLen bounds the writes waiting for a batch; callers beyond it wait to
	// be queued (back-pressure).
	queueLen = 1024
	// sqliteWriters: SQLite has one writer connection, so one writer goroutine.
	sqliteWriters = 1
	// postgresWriters commit batches side by side: PostgreSQL takes concurrent
	// transactions, and a batch's round trips would otherwise bound the rate.
	postgresWriters = 4
)

// errClosed answers writes queued after Close.
var errClosed = errors.New("store is closed")

// groupCommit is the queue of writes that share commits, and its writer
// goroutines.
type groupCommit struct {
	queue   chan *pending
	mu      sync.RWMutex // held to queue; Close takes it to close the queue
	closed  bool
	writers sync.WaitGroup
}

// pending is one caller's write waiting for, or in, a batch.
type pending struct {
	ctx context.Context
	// lock names the existing row the write locks, if any (lockOrder).
	lock string
	// limited is the form whose response limit the write checks, if any: its
	// row is locked at the start of the batch's transaction (lockLimitedForms).
	limited int64
	fn      func(ctx context.Context, tx querier) error
	// state moves from queued to begun (by a writer) or to cancelled (by the
	// caller), never both.
	state atomic.Int32
	done  chan error
}

const (
	queued int32 = iota
	begun
	cancelled
)

// lockOrder orders the writes of a batch by the existing row each locks: a
// session being saved or completed, an API key's counter for a day. Writes that
// lock none (inserts of new rows) go first, in arrival order. Every batch thus
// takes such rows in the same order, so that concurrent batches on PostgreSQL
// (other writers, other nodes) never wait for each other in a cycle.
func lockOrder(a, b *pending) int { return strings.Compare(a.lock, b.lock) }

// startGroupCommit starts n writer goroutines on the store's write pool.
func (s *Store) startGroupCommit(n int) {
	s.group = &groupCommit{queue: make(chan *pending, queueLen)}
	s.group.writers.Add(n)
	for range n {
		go s.writeBatches()
	}
}

// commit runs fn in the transaction of the next batch and returns once that
// transaction has committed (nil), or fn's own error. lock names the existing row
// fn locks, "" for none (lockOrder); limited the form whose response limit fn
// checks, 0 for none (lockLimitedForms). fn may run more than once (writeBatch):
// only its last run counts, so it sets its results afresh each time. It must not
// write through the store itself.
// Until a writer begins fn, a cancelled ctx withdraws it (ctx.Err()); after that,
// the caller waits for the batch.
func (s *Store) commit(ctx context.Context, lock string, limited int64, fn func(ctx context.Context, tx querier) error) error {
	p := &pending{ctx: ctx, lock: lock, limited: limited, fn: fn, done: make(chan error, 1)}
	if err := s.group.add(p); err != nil {
		return err
	}
	select {
	case err := <-p.done:
		return err
	case <-ctx.Done():
		if p.state.CompareAndSwap(queued, cancelled) {
			return ctx.Err()
		}
		return <-p.done
	}
}

// add queues p, unless the store is closed or p's caller gives up first.
func (g *groupCommit) add(p *pending) error {
	if err := p.ctx.Err(); err != nil {
		return err
	}
	g.mu.RLock()
	defer g.mu.RUnlock()
	if g.closed {
		return errClosed
	}
	select {
	case g.queue <- p:
		return nil
	case <-p.ctx.Done():
		return p.ctx.Err()
	}
}

// close stops queueing; the writers commit what is queued, then return.
func (g *groupCommit) close() {
	g.mu.Lock()
	if !g.closed {
		g.closed = true
		close(g.queue)
	}
	g.mu.Unlock()
	g.writers.Wait()
}

// writeBatches is a writer goroutine: it takes the first queued write, with it
// every write already queued (up to maxBatch), and commits them as one batch.
func (s *Store) writeBatches() {
	defer s.group.writers.Done()
	for first := range s.group.queue {
		batch := []*pending{first}
	collect:
		for len(batch) < maxBatch {
			select {
			case p, ok := <-s.group.queue:
				if !ok {
					break collect
				}
				batch = append(batch, p)
			default:
				break collect
			}
		}
		s.writeBatch(batch)
	}
}

// writeBatch commits the writes of a batch whose callers still wait, in row
// order, and answers every caller (doc.go). The writes first run one after the
// other; when one fails, the transaction is rolled back, that write's caller gets
// its error, and the others run again, each inside a savepoint now, so that any
// further failure rolls back only its own write. When the transaction fails as a
// whole (it cannot begin, a savepoint fails, the COMMIT fails), each write not yet
// answered is retried alone, in a transaction of its own.
func (s *Store) writeBatch(batch []*pending) {
	batch = slices.DeleteFunc(batch, func(p *pending) bool { return !p.state.CompareAndSwap(queued, begun) })
	slices.SortStableFunc(batch, lockOrder)
	written, failed, err := s.tryBatch(batch, false)
	if failed != nil {
		failed.done <- err
		rest := slices.DeleteFunc(batch, func(p *pending) bool { return p == failed })
		written, _, err = s.tryBatch(rest, true)
	}
	for _, p := range written {
		if err != nil {
			p.done <- s.alone(p)
			continue
		}
		p.done <- nil
	}
}

// alone commits p in a transaction of its own.
func (s *Store) alone(p *pending) error {
	ctx := context.WithoutCancel(p.ctx)
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := s.lockLimitedForms(ctx, tx, []*pending{p}); err != nil {
			return err
		}
		return p.run(ctx, tx)
	})
}

// lockLimitedForms locks, on PostgreSQL, the rows of the forms whose response
// limits the batch's writes check, in the order of their ids, before any write
// runs. A write that completes a submission of such a form counts the form's
// responses and refuses when they are full (checkRoom): the lock, held until the
// COMMIT, makes every other transaction (other writers, other nodes) that would
// count them wait until this one's submissions are committed, so the limit is
// exact. Taking these locks first, and in one order, keeps batches that also lock
// sessions (lockOrder) from waiting for each other in a cycle. FOR NO KEY UPDATE
// does not conflict with the key-share locks that inserting a session takes on
// its form, so forms without a limit never wait. SQLite needs no lock: its write
// transactions are exclusive.
func (s *Store) lockLimitedForms(ctx context.Context, tx querier, batch []*pending) error {
	if s.dialect != Postgres {
		return nil
	}
	var ids []int64
	for _, p := range batch {
		if p.limited != 0 && !slices.Contains(ids, p.limited) {
			ids = append(ids, p.limited)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		if _, err := tx.ExecContext(ctx, `SELECT id FROM forms WHERE id = $1 FOR NO KEY UPDATE`, id); err != nil {
			return err
		}
	}
	return nil
}

// tryBatch runs the batch's writes in one transaction and commits it. Without
// savepoints, the first write that fails ends the attempt: it is returned as
// failed, with its error, and nothing is stored. With savepoints, a write that
// fails is rolled back to its savepoint and its caller answered at once, and the
// others go on. It returns the writes that were committed, or, with an error and
// no failed write, those that were not (the transaction failed as a whole).
func (s *Store) tryBatch(batch []*pending, savepoints bool) (written []*pending, failed *pending, err error) {
	if len(batch) == 0 {
		return nil, nil, nil
	}
	ctx := context.Background()
	sqlTx, err := s.write.DB.BeginTx(ctx, nil)
	if err != nil {
		return batch, nil, err
	}
	// The few statements that every write runs are parsed once for the writer's
	// connection, not once per batch or per write: with SQLite, parsing costs as
	// much as running them, and batches are often small. pgx keeps its own cache
	// of prepared statements.
	var tx querier = sqlTx
	if s.dialect == SQLite {
		var missed []string
		defer func() { s.keep(missed) }()
		tx = s.batchStatements(sqlTx, &missed)
	}
	if err := s.lockLimitedForms(ctx, tx, batch); err != nil {
		sqlTx.Rollback()
		return batch, nil, err
	}
	for i, p := range batch {
		own, err := writeOne(tx, p, savepoints)
		switch {
		case err != nil:
			sqlTx.Rollback()
			return append(written, batch[i:]...), nil, err
		case own != nil && !savepoints:
			sqlTx.Rollback()
			return nil, p, own
		case own != nil:
			p.done <- own
		default:
			written = append(written, p)
		}
	}
	if err := sqlTx.Commit(); err != nil {
		return written, nil, err
	}
	return written, nil, nil
}

// batchStatements prepares the queries of a batch's transaction tx: from the
// write pool's statements, which the single writer connection keeps prepared
// (database/sql's Tx.StmtContext reuses a statement prepared on the
// transaction's connection), or, for a query met for the first time, in tx
// alone. Such queries are added to missed, for keep to prepare on the pool once
// the transaction has given the connection back.
func (s *Store) batchStatements(tx *sql.Tx, missed *[]string) *statements {
	return &statements{direct: tx, prepare: func(ctx context.Context, query string) (*sql.Stmt, error) {
		if st, ok := s.write.cached(query); ok {
			return tx.StmtContext(ctx, st), nil
		}
		*missed = append(*missed, query)
		return tx.PrepareContext(ctx, query)
	}}
}

// keep prepares queries on the write pool for the next batches. A query that
// fails to prepare is left out: its batch's own preparation reports the error.
func (s *Store) keep(queries []string) {
	for _, q := range queries {
		_, _ = s.write.stmt(context.Background(), q)
	}
}

// writeOne runs p, inside a savepoint when asked. own is p's own failure (rolled
// back to the savepoint, if any); err is a failure of the batch's transaction.
func writeOne(tx querier, p *pending, savepoint bool) (own, err error) {
	ctx := context.WithoutCancel(p.ctx)
	if !savepoint {
		return p.run(ctx, tx), nil
	}
	if _, err := tx.ExecContext(ctx, "SAVEPOINT write"); err != nil {
		return nil, err
	}
	if own = p.run(ctx, tx); own != nil {
		_, err = tx.ExecContext(ctx, "ROLLBACK TO SAVEPOINT write")
	}
	if err == nil {
		_, err = tx.ExecContext(ctx, "RELEASE SAVEPOINT write")
	}
	return own, err
}

// run calls p's function, turning a panic into its error: a bug in one caller's
// callback must not stop the writer that serves every caller.
func (p *pending) run(ctx context.Context, tx querier) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("store write panicked: %v", r)
		}
	}()
	return p.fn(ctx, tx)
}
