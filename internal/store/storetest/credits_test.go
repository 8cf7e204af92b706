package storetest_test

import (
	"testing"
	"time"

	"forma/internal/server/servertest"
	"forma/internal/store"
)

// Charging is not implemented yet; these tests pin what an account with no charges
// sees.
func TestCreditsWithoutCharges(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		for _, since := range []time.Time{{}, time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)} {
			used, err := st.CreditsUsed(ctx, acct.ID, since)
			must(t, err)
			if used != 0 {
				t.Fatalf("CreditsUsed since %v = %d, want 0", since, used)
			}
		}
		used, err := st.CreditsUsed(ctx, acct.ID+1000, time.Time{})
		must(t, err)
		if used != 0 {
			t.Fatalf("CreditsUsed of an unknown account = %d, want 0", used)
		}

		for _, page := range []struct{ limit, offset int }{{20, 0}, {1, 5}} {
			entries, total, err := st.UsageHistory(ctx, acct.ID, page.limit, page.offset)
			must(t, err)
			if total != 0 || entries == nil || len(entries) != 0 {
				t.Fatalf("UsageHistory(limit %d, offset %d) = %#v, %d; want an empty, non-nil slice and total 0",
					page.limit, page.offset, entries, total)
			}
		}
	})
}
