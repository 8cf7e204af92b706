package storetest_test

import (
	"testing"
	"time"

	"forma/internal/auth"
	"forma/internal/form"
	"forma/internal/quota"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// TestKeyRevokedElsewhereIsRefusedAtOnce: a key this process has verified (and
// cached) and that another process (another node, or the CLI) then revokes is
// refused by the very next request, which counts nothing — with room left under
// its limit and with none.
func TestKeyRevokedElsewhereIsRefusedAtOnce(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		stores := openTwice(t, d)
		here, there := stores[0], stores[1]
		ada := newAccount(t, here, "ada@example.com")
		for _, limit := range []int{100, 1} {
			key, k := newKey(t, here, ada, "k", nil, nil)
			_, _, err := here.KeyByHash(ctx, auth.Hash(key))
			must(t, err)
			countOK(t, here, k.ID, day, limit, 1)

			must(t, there.RevokeKey(ctx, ada.ID, k.ID))
			_, _, err = here.CountRequest(ctx, k.ID, day, limit)
			wantCode(t, err, form.NotFound)
			_, _, err = here.KeyByHash(ctx, auth.Hash(key))
			wantCode(t, err, form.NotFound)
			if n := requestsToday(t, there, ada, k.ID); n != 1 {
				t.Fatalf("limit %d: the revoked key's requests today = %d, want 1 (the refused one not counted)", limit, n)
			}
		}
	})
}

// TestTierChangedElsewhereShowsWithinTenSeconds: a tier changed by another
// process reaches this process's key lookups within the key cache's 10 s.
func TestTierChangedElsewhereShowsWithinTenSeconds(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		stores := openTwice(t, d)
		here, there := stores[0], stores[1]
		now := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
		here.Now = func() time.Time { return now }
		ada := newAccount(t, here, "ada@example.com")
		key, _ := newKey(t, here, ada, "k", nil, nil)
		tier := func() string {
			_, a, err := here.KeyByHash(ctx, auth.Hash(key))
			must(t, err)
			return a.Tier
		}
		if got := tier(); got != "free" {
			t.Fatalf("tier %q, want free", got)
		}
		must(t, there.SetTier(ctx, ada.Email, "scale"))
		now = now.Add(9 * time.Second)
		if got := tier(); got != "free" {
			t.Fatalf("tier %q 9 s after the change, want the cached free", got)
		}
		now = now.Add(time.Second)
		if got := tier(); got != "scale" {
			t.Fatalf("tier %q 10 s after the change, want scale", got)
		}
		// A change made by this process shows at once.
		must(t, here.SetTier(ctx, ada.Email, "builder"))
		if got := tier(); got != "builder" {
			t.Fatalf("tier %q right after this process changed it, want builder", got)
		}
	})
}

// TestBalanceSeesEveryCharge: the balance read before a charge is not served
// after it.
func TestBalanceSeesEveryCharge(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		f := newForm(t, st, acct, "Survey", "Q")
		plan := quota.Plan{Tier: "builder", MonthlyAllowance: 100, Overage: true}
		for want := 0; want <= 12; want += 6 {
			b, err := st.Balance(ctx, acct, plan)
			must(t, err)
			if b.Used != want || b.Remaining() != 100-want {
				t.Fatalf("balance %+v, want %d used", b, want)
			}
			c := charge(acct, plan, "analytics.generate", 6, f)
			c.CycleStart = b.CycleStart
			must(t, st.SaveAnalytics(ctx, &store.AnalyticsRecord{FormID: f.ID, Insights: `{}`}, c))
		}
	})
}

// requestsToday is the count of key id on the tests' day, as its owner's list shows it.
func requestsToday(t *testing.T, st *store.Store, acct *store.Account, id int64) int {
	t.Helper()
	keys, err := st.ListKeys(ctx, acct.ID, day)
	must(t, err)
	for _, k := range keys {
		if k.ID == id {
			return k.RequestsToday
		}
	}
	t.Fatalf("key %d not listed", id)
	return 0
}
