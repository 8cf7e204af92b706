package store

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
)

// The daily request counter. Every authenticated API request counts itself
// (CountRequest) in a group commit (doc.go). Concurrent requests of one key
// also share one counting write: a request joins the count of its key and day
// that is still waiting for the writer, and when the writer begins it, the
// count adds all the requests that joined in one statement, and records the
// key's last use in one more. Under load, where one key's requests fill a
// batch, counting thus costs two statements a batch instead of two a request.

// countKey names a shared count: the requests of one key, on one day, under
// one limit.
type countKey struct {
	keyID, day int64
	limit      int
}

// countGroup is a shared count: the requests that joined it and, once it is
// written, its outcome, which they take one by one (take).
type countGroup struct {
	key countKey
	// joined counts the requests waiting for this count; open says whether it
	// still takes more (until the writer begins it).
	joined int
	open   bool
	// The outcome: counts first, first+1, … for the accepted requests; the
	// rest are refused. revoked: the key is no longer live.
	first, accepted int
	revoked         bool
	err             error
	done            chan struct{}
}

// counters are the shared counts that still take requests.
type counters struct {
	mu   sync.Mutex
	open map[countKey]*countGroup
}

// CountRequest adds one request to a key's count for the UTC day and returns the new
// count, and records the time as the key's last use. When the count has already
// reached limit it adds nothing and returns ok=false: the request is refused and
// does not count. A key revoked (or deleted) meanwhile, on any node, counts
// nothing either: CountRequest returns NotFound and evicts it from the key cache
// (keycache.go). The conditional upserts are exact under concurrency, also across
// processes sharing the database; they share a group commit (doc.go) with other
// requests and submissions, and CountRequest returns once committed. A caller
// whose ctx ends before the writer has begun its count withdraws: it gets the
// context's error and counts nothing.
func (s *Store) CountRequest(ctx context.Context, keyID int64, day int64, limit int) (count int, ok bool, err error) {
	if err := ctx.Err(); err != nil {
		return 0, false, err
	}
	g := s.joinCount(countKey{keyID, day, limit})
	select {
	case <-g.done:
	case <-ctx.Done():
		if s.leaveCount(g) {
			return 0, false, ctx.Err()
		}
		<-g.done
	}
	count, ok = s.takeCount(g)
	switch {
	case g.err != nil:
		return 0, false, g.err
	case g.revoked:
		s.keys.evict(keyID)
		return 0, false, missing("Key")
	}
	return count, ok, nil
}

// joinCount joins the open count of k, or opens one and queues its write.
func (s *Store) joinCount(k countKey) *countGroup {
	s.counts.mu.Lock()
	defer s.counts.mu.Unlock()
	if g := s.counts.open[k]; g != nil {
		g.joined++
		return g
	}
	g := &countGroup{key: k, joined: 1, open: true, done: make(chan struct{})}
	if s.counts.open == nil {
		s.counts.open = map[countKey]*countGroup{}
	}
	s.counts.open[k] = g
	go func() {
		// The count's write serves every request that joined it, so no one
		// caller's context may withdraw it (leaveCount withdraws the caller).
		g.err = s.commit(context.Background(), fmt.Sprintf("request_counts %d %d", k.keyID, k.day), 0, g.write(s))
		s.closeCount(g)
		close(g.done)
	}()
	return g
}

// leaveCount withdraws a caller from g; false when the writer has begun g.
func (s *Store) leaveCount(g *countGroup) bool {
	s.counts.mu.Lock()
	defer s.counts.mu.Unlock()
	if g.open {
		g.joined--
	}
	return g.open
}

// closeCount takes no more callers into g, and returns how many joined.
func (s *Store) closeCount(g *countGroup) int {
	s.counts.mu.Lock()
	defer s.counts.mu.Unlock()
	if g.open {
		g.open = false
		delete(s.counts.open, g.key)
	}
	return g.joined
}

// takeCount hands a caller of the written g its count: the next accepted one,
// or the refusal once they are taken.
func (s *Store) takeCount(g *countGroup) (count int, ok bool) {
	s.counts.mu.Lock()
	defer s.counts.mu.Unlock()
	if g.accepted == 0 {
		return g.key.limit, false
	}
	count = g.first
	g.first++
	g.accepted--
	return count, true
}

// write is g's function in a group commit: it closes g to new callers and
// counts those that joined. It sets its outcome afresh on every run.
func (g *countGroup) write(s *Store) func(ctx context.Context, tx querier) error {
	return func(ctx context.Context, tx querier) error {
		n := s.closeCount(g)
		var err error
		g.first, g.accepted, g.revoked, err = countRequests(ctx, tx, g.key, n, ms(s.Now()))
		return err
	}
}

// countRequests adds n requests to k's count, as many as fit under the limit,
// and returns the first new count and how many were added. All n are added by
// one upsert when they fit; near the limit they are added one by one, each as
// long as the count stays under it. The key's last use is then recorded, which
// also finds a revoked key: its counts are taken back in the same transaction,
// so the common case pays no statement of its own for the check.
func countRequests(ctx context.Context, tx querier, k countKey, n int, now int64) (first, accepted int, revoked bool, err error) {
	if n == 0 {
		return 0, 0, false, nil
	}
	if k.limit >= 1 {
		first, accepted, err = addCounts(ctx, tx, k, n)
		if err != nil {
			return 0, 0, false, err
		}
	}
	if accepted == 0 {
		var live int
		err = tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM api_keys WHERE id = $1 AND revoked_at IS NULL`, k.keyID).Scan(&live)
		return 0, 0, live == 0, err
	}
	res, err := tx.ExecContext(ctx, `UPDATE api_keys SET last_used_at = $1 WHERE id = $2 AND revoked_at IS NULL`, now, k.keyID)
	var live int64
	if err == nil {
		live, err = res.RowsAffected()
	}
	if err != nil || live > 0 {
		return first, accepted, false, err
	}
	_, err = tx.ExecContext(ctx, `UPDATE request_counts SET n = n - $1 WHERE key_id = $2 AND utc_day = $3`, accepted, k.keyID, k.day)
	return 0, 0, true, err
}

// addCounts adds n requests to k's count: all at once when they fit under the
// limit, else one at a time until one no longer fits.
func addCounts(ctx context.Context, tx querier, k countKey, n int) (first, accepted int, err error) {
	var count int
	err = tx.QueryRowContext(ctx,
		`INSERT INTO request_counts (key_id, utc_day, n)
		 SELECT $1, $2, CAST($3 AS BIGINT) WHERE CAST($3 AS BIGINT) <= CAST($4 AS BIGINT)
		 ON CONFLICT (key_id, utc_day) DO UPDATE SET n = request_counts.n + CAST($3 AS BIGINT)
		 WHERE request_counts.n + CAST($3 AS BIGINT) <= CAST($4 AS BIGINT)
		 RETURNING n`, k.keyID, k.day, n, k.limit).Scan(&count)
	if err == nil {
		return count - n + 1, n, nil
	}
	if err != sql.ErrNoRows {
		return 0, 0, err
	}
	for accepted < n {
		err = tx.QueryRowContext(ctx,
			`INSERT INTO request_counts (key_id, utc_day, n) VALUES ($1, $2, 1)
			 ON CONFLICT (key_id, utc_day) DO UPDATE SET n = request_counts.n + 1
			 WHERE request_counts.n < $3
			 RETURNING n`, k.keyID, k.day, k.limit).Scan(&count)
		if err == sql.ErrNoRows {
			break
		}
		if err != nil {
			return 0, 0, err
		}
		if accepted == 0 {
			first = count
		}
		accepted++
	}
	return first, accepted, nil
}
