package storetest_test

import (
	"testing"
	"time"

	"forma/internal/form"
	"forma/internal/quota"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// TestCreditsWithoutCharges pins what an account with no charges sees.
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
			entries, total, err := st.UsageHistory(ctx, acct.ID, nil, page.limit, page.offset)
			must(t, err)
			if total != 0 || entries == nil || len(entries) != 0 {
				t.Fatalf("UsageHistory(limit %d, offset %d) = %#v, %d; want an empty, non-nil slice and total 0",
					page.limit, page.offset, entries, total)
			}
		}
	})
}

// charge prices an operation of acct on plan at credits credits.
func charge(acct *store.Account, plan quota.Plan, endpoint string, credits int, f *form.Form) *store.Charge {
	c := &store.Charge{AccountID: acct.ID, Endpoint: endpoint, Credits: credits, Plan: plan}
	if f != nil {
		c.FormID, c.FormName = &f.ID, f.Title
	}
	return c
}

var free = quota.Plan{Tier: "free", DailyLimit: 1000, MonthlyAllowance: 10}

// TestChargedResultsAndLedgerAreOne: a charged operation's result and its ledger
// entry are written together; a charge past a free plan's allowance writes neither.
func TestChargedResultsAndLedgerAreOne(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		f := newForm(t, st, acct, "Survey", "Q")

		c := charge(acct, free, "analytics.generate", 6, f)
		rec := &store.AnalyticsRecord{FormID: f.ID, TotalResponses: 3, CompletionRate: 75, Insights: `{"summary":"s"}`}
		must(t, st.SaveAnalytics(ctx, rec, c))
		if c.Used != 6 || rec.ID == 0 {
			t.Fatalf("after the charge: used %d, record %+v", c.Used, rec)
		}
		// A second analysis would pass the allowance of 10: refused, nothing changes.
		again := &store.AnalyticsRecord{FormID: f.ID, TotalResponses: 99, Insights: `{}`}
		wantCode(t, st.SaveAnalytics(ctx, again, charge(acct, free, "analytics.generate", 6, f)), form.InsufficientCredits)
		got, err := st.GetAnalytics(ctx, f.ID)
		must(t, err)
		if got.TotalResponses != 3 {
			t.Fatalf("a refused charge overwrote the analysis: %+v", got)
		}
		// A paid plan goes into overage; regeneration keeps the record's id.
		paid := quota.Plan{Tier: "builder", MonthlyAllowance: 10, Overage: true}
		must(t, st.SaveAnalytics(ctx, again, charge(acct, paid, "analytics.generate", 6, f)))
		if again.ID != rec.ID {
			t.Fatalf("regenerated analysis has id %d, want %d", again.ID, rec.ID)
		}
		used, err := st.CreditsUsed(ctx, acct.ID, time.Time{})
		must(t, err)
		history, total, err := st.UsageHistory(ctx, acct.ID, nil, 10, 0)
		must(t, err)
		if used != 12 || total != 2 || history[0].FormName != "Survey" || *history[0].FormID != f.ID {
			t.Fatalf("used %d, history %+v (total %d)", used, history, total)
		}
	})
}

// TestGeneratedFormIsChargedWithIt: the ledger names the form a generation
// created; a form that cannot be stored is not charged.
func TestGeneratedFormIsChargedWithIt(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		f := &form.Form{AccountID: acct.ID, Title: "Generated", DisplayMode: form.SinglePage, ShareToken: shareToken(t),
			Questions: []form.Question{{Type: form.Email, Text: "Email"}}}
		c := charge(acct, free, "forms.generate", 5, nil)
		must(t, st.CreateGeneratedForm(ctx, f, c))
		if f.ID == 0 || c.FormID == nil || *c.FormID != f.ID || c.FormName != "Generated" || c.Used != 5 {
			t.Fatalf("form %d, charge %+v", f.ID, c)
		}
		dup := &form.Form{AccountID: acct.ID, Title: "Dup", DisplayMode: form.SinglePage, ShareToken: f.ShareToken}
		wantCode(t, st.CreateGeneratedForm(ctx, dup, charge(acct, free, "forms.generate", 5, nil)), form.Conflict)
		used, err := st.CreditsUsed(ctx, acct.ID, time.Time{})
		must(t, err)
		if used != 5 {
			t.Fatalf("credits used %d after a failed generation, want 5", used)
		}
	})
}

// TestConcurrentChargesForTheLastCredits: ten charges through two stores race for
// credits that pay for three; exactly three succeed.
func TestConcurrentChargesForTheLastCredits(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		stores := openTwice(t, d)
		acct := newAccount(t, stores[0], "ada@example.com")
		f := newForm(t, stores[0], acct, "Chat", "Q")
		conv, err := stores[0].CreateConversation(ctx, f.ID)
		must(t, err)
		codes := race(10, func(i int) error {
			_, _, err := stores[i%2].AddExchange(ctx, conv.ID, "q", "a", charge(acct, free, "chat.message", 3, f))
			return err
		})
		if codes["ok"] != 3 || codes[form.InsufficientCredits] != 7 {
			t.Fatalf("outcomes %v, want 3 ok and 7 insufficient_credits", codes)
		}
		msgs, total, err := stores[0].Messages(ctx, conv.ID, 100, 0)
		must(t, err)
		if total != 6 || len(msgs) != 6 {
			t.Fatalf("%d messages stored, want 6 (two per paid exchange)", total)
		}
	})
}
