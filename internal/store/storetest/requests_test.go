package storetest_test

import (
	"context"
	"sort"
	"sync"
	"testing"

	"forma/internal/server/servertest"
	"forma/internal/store"
)

// day is an arbitrary UTC day number.
const day = 20394

func countOK(t *testing.T, st *store.Store, keyID, day int64, limit, want int) {
	t.Helper()
	n, ok, err := st.CountRequest(ctx, keyID, day, limit)
	must(t, err)
	if !ok || n != want {
		t.Fatalf("CountRequest(key %d, day %d, limit %d) = %d, %v; want %d, true", keyID, day, limit, n, ok, want)
	}
}

func countRefused(t *testing.T, st *store.Store, keyID, day int64, limit int) {
	t.Helper()
	n, ok, err := st.CountRequest(ctx, keyID, day, limit)
	must(t, err)
	if ok || n != limit {
		t.Fatalf("CountRequest(key %d, day %d, limit %d) = %d, %v; want %d, false", keyID, day, limit, n, ok, limit)
	}
}

func TestCountRequestUpToLimit(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		_, k := newKey(t, st, newAccount(t, st, "ada@example.com"), "k", nil, nil)
		const limit = 5
		for i := 1; i <= limit; i++ {
			countOK(t, st, k.ID, day, limit, i)
		}
		countRefused(t, st, k.ID, day, limit)
		countRefused(t, st, k.ID, day, limit)
		// The refused requests did not count: with one more allowed, the next one is
		// limit+1, not limit+3.
		countOK(t, st, k.ID, day, limit+1, limit+1)
		countRefused(t, st, k.ID, day, limit+1)
		// A lowered limit refuses at once.
		countRefused(t, st, k.ID, day, 2)
	})
}

func TestCountRequestLimitOne(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		_, k := newKey(t, st, newAccount(t, st, "ada@example.com"), "k", nil, nil)
		countOK(t, st, k.ID, day, 1, 1)
		countRefused(t, st, k.ID, day, 1)
	})
}

func TestCountRequestSeparateDaysAndKeys(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		_, k1 := newKey(t, st, acct, "one", nil, nil)
		_, k2 := newKey(t, st, acct, "two", nil, nil)
		_, other := newKey(t, st, newAccount(t, st, "bob@example.com"), "bob's", nil, nil)
		const limit = 3
		for i := 1; i <= limit; i++ {
			countOK(t, st, k1.ID, day, limit, i)
		}
		countRefused(t, st, k1.ID, day, limit)

		// The next day starts again at 1 and does not touch the previous day.
		countOK(t, st, k1.ID, day+1, limit, 1)
		countOK(t, st, k1.ID, day+1, limit, 2)
		countRefused(t, st, k1.ID, day, limit)
		// So does the day before.
		countOK(t, st, k1.ID, day-1, limit, 1)
		// Other keys, of the same account or not, count on their own.
		countOK(t, st, k2.ID, day, limit, 1)
		countOK(t, st, other.ID, day, limit, 1)
		countOK(t, st, k2.ID, day, limit, 2)
		countOK(t, st, k1.ID, day+1, limit, 3)
		countRefused(t, st, k1.ID, day+1, limit)
	})
}

// hammer sends n concurrent CountRequests for the key, spread over the stores, and
// returns the counts of the accepted ones, sorted.
func hammer(t *testing.T, stores []*store.Store, keyID int64, n, limit int) []int {
	t.Helper()
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		accepted []int
		errs     []error
		start    = make(chan struct{})
	)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			count, ok, err := stores[i%len(stores)].CountRequest(ctx, keyID, day, limit)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				errs = append(errs, err)
			case ok:
				accepted = append(accepted, count)
			}
		}()
	}
	close(start)
	wg.Wait()
	for _, err := range errs {
		t.Errorf("CountRequest failed under concurrency: %v", err)
	}
	if len(errs) > 0 {
		t.FailNow()
	}
	sort.Ints(accepted)
	return accepted
}

// checkExact fails unless exactly limit requests were accepted, numbered 1..limit,
// and the stored count is limit.
func checkExact(t *testing.T, st *store.Store, keyID int64, accepted []int, limit int) {
	t.Helper()
	if len(accepted) != limit {
		t.Fatalf("%d requests accepted, want exactly %d", len(accepted), limit)
	}
	for i, n := range accepted {
		if n != i+1 {
			t.Fatalf("accepted counts %v, want each of 1..%d once", accepted, limit)
		}
	}
	countRefused(t, st, keyID, day, limit)
	countOK(t, st, keyID, day, limit+1000, limit+1) // the stored count is exactly limit
}

func TestCountRequestConcurrent(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		_, k := newKey(t, st, newAccount(t, st, "ada@example.com"), "k", nil, nil)
		accepted := hammer(t, []*store.Store{st}, k.ID, 300, 100)
		checkExact(t, st, k.ID, accepted, 100)
	})
}

// TestCountRequestConcurrentTwoProcesses opens two stores on one database, as two
// processes would (two nodes on PostgreSQL; `forma serve` and a CLI command on one
// SQLite file), and checks that the limit holds across them.
func TestCountRequestConcurrentTwoProcesses(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		stores := openTwice(t, d)
		_, k := newKey(t, stores[0], newAccount(t, stores[0], "ada@example.com"), "k", nil, nil)
		accepted := hammer(t, stores, k.ID, 300, 100)
		checkExact(t, stores[1], k.ID, accepted, 100)
	})
}

// openTwice opens two stores with pinned clocks on one fresh database of dialect d:
// one PostgreSQL schema, or one SQLite file.
func openTwice(t *testing.T, d store.Dialect) []*store.Store {
	t.Helper()
	url, dir := servertest.DatabaseURL(t, d), t.TempDir()
	var stores []*store.Store
	for range 2 {
		st, err := store.Open(ctx, url, dir)
		must(t, err)
		t.Cleanup(func() { st.Close() })
		pinClock(st)
		stores = append(stores, st)
	}
	return stores
}

// TestCountRequestConcurrentUnderLimit: concurrent requests that all fit under
// the limit share counting writes, yet each gets its own count, 1..n once each,
// on one process and across two.
func TestCountRequestConcurrentUnderLimit(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		stores := openTwice(t, d)
		_, k := newKey(t, stores[0], newAccount(t, stores[0], "ada@example.com"), "k", nil, nil)
		accepted := hammer(t, stores[:1], k.ID, 300, 1000)
		accepted = append(accepted, hammer(t, stores, k.ID, 300, 1000)...)
		sort.Ints(accepted)
		checkExact(t, stores[1], k.ID, accepted, 600)
	})
}

// TestCountRequestCancelledCountsNothing: a request whose caller is gone
// before it is counted is refused with the context's error and not counted.
func TestCountRequestCancelledCountsNothing(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		_, k := newKey(t, st, newAccount(t, st, "ada@example.com"), "k", nil, nil)
		gone, cancel := context.WithCancel(ctx)
		cancel()
		if _, _, err := st.CountRequest(gone, k.ID, day, 10); err != context.Canceled {
			t.Fatalf("cancelled CountRequest: %v, want context.Canceled", err)
		}
		countOK(t, st, k.ID, day, 10, 1)
	})
}
