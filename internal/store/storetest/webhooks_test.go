package storetest_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"forma/internal/form"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// queueJobs completes n submissions of a form whose webhook is enabled.
func queueJobs(t *testing.T, st *store.Store, f *form.Form, prefix string, n int) {
	t.Helper()
	for i := range n {
		must(t, st.CreateSubmission(ctx, &form.Submission{ID: fmt.Sprintf("%s-%03d", prefix, i), FormID: f.ID, Answers: map[int64]any{}}))
	}
}

// TestClaimWebhookJobs: jobs are claimed oldest first, busy forms are skipped, and
// a finished job is logged and gone.
func TestClaimWebhookJobs(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		a, b := newForm(t, st, acct, "A", "Q"), newForm(t, st, acct, "B", "Q")
		hooked(t, st, acct, a, "https://a.example/hook")
		hooked(t, st, acct, b, "https://b.example/hook")
		queueJobs(t, st, a, "a", 2)
		queueJobs(t, st, b, "b", 1)

		first, err := st.ClaimWebhookJob(ctx, "w1", nil)
		must(t, err)
		if first == nil || first.SessionID != "a-000" {
			t.Fatalf("first claim %+v, want a-000 (the oldest)", first)
		}
		// Form a is busy: its second job waits, b's is taken.
		next, err := st.ClaimWebhookJob(ctx, "w1", []int64{a.ID})
		must(t, err)
		if next == nil || next.SessionID != "b-000" {
			t.Fatalf("claim skipping form a = %+v, want b-000", next)
		}
		none, err := st.ClaimWebhookJob(ctx, "w1", []int64{a.ID, b.ID})
		must(t, err)
		if none != nil {
			t.Fatalf("claimed %+v of a busy form", none)
		}

		code := 204
		must(t, st.FinishWebhookJob(ctx, first.ID, &store.Delivery{FormID: a.ID, SessionID: first.SessionID, URL: first.URL,
			Status: "success", ResponseCode: &code, Duration: 12 * time.Millisecond}))
		logs, total, err := st.WebhookLogs(ctx, a.ID, 10, 0)
		must(t, err)
		if total != 1 || logs[0].SessionID != "a-000" || logs[0].Status != "success" || *logs[0].ResponseCode != 204 {
			t.Fatalf("logs %+v (total %d)", logs, total)
		}
		last, err := st.LastDelivery(ctx, a.ID)
		must(t, err)
		if last == nil || last.ID != logs[0].ID {
			t.Fatalf("LastDelivery = %+v", last)
		}
		rest := claimAll(t, st)
		if len(rest) != 1 || rest[0] != "a-001" {
			t.Fatalf("left in the outbox: %v, want [a-001] (a finished job is gone, a claimed one is not offered again)", rest)
		}
	})
}

// TestConcurrentClaimsNeverShareAJob: many workers on two stores (two nodes) claim
// 60 jobs at once; each job goes to exactly one worker.
func TestConcurrentClaimsNeverShareAJob(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		stores := openTwice(t, d)
		acct := newAccount(t, stores[0], "ada@example.com")
		f := newForm(t, stores[0], acct, "Busy", "Q")
		hooked(t, stores[0], acct, f, "https://example.com/hook")
		queueJobs(t, stores[0], f, "j", 60)
		var wg sync.WaitGroup
		var mu sync.Mutex
		claimed := map[string]int{}
		for w := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					j, err := stores[w%2].ClaimWebhookJob(ctx, fmt.Sprint("w", w), nil)
					if err != nil {
						t.Error(err)
						return
					}
					if j == nil {
						return
					}
					mu.Lock()
					claimed[j.SessionID]++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if len(claimed) != 60 {
			t.Fatalf("%d distinct jobs claimed, want 60", len(claimed))
		}
		for id, n := range claimed {
			if n != 1 {
				t.Errorf("job %s claimed %d times", id, n)
			}
		}
	})
}

// TestAbandonStaleJobs: a job claimed by a server that stopped before finishing is
// logged as an error once its claim is older than the cutoff, and never offered
// again; unclaimed jobs and fresh claims are left alone.
func TestAbandonStaleJobs(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, c := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		f := newForm(t, st, acct, "Stale", "Q")
		hooked(t, st, acct, f, "https://example.com/hook")
		queueJobs(t, st, f, "s", 3)
		stale, err := st.ClaimWebhookJob(ctx, "dead", nil)
		must(t, err)
		cutoff := c.Now()
		fresh, err := st.ClaimWebhookJob(ctx, "alive", nil)
		must(t, err)

		n, err := st.AbandonStaleJobs(ctx, cutoff)
		must(t, err)
		if n != 1 {
			t.Fatalf("AbandonStaleJobs ended %d jobs, want 1", n)
		}
		logs, total, err := st.WebhookLogs(ctx, f.ID, 10, 0)
		must(t, err)
		if total != 1 || logs[0].SessionID != stale.SessionID || logs[0].Status != "error" ||
			logs[0].ErrorMessage == nil || logs[0].ResponseCode != nil {
			t.Fatalf("logs after the sweep: %+v", logs)
		}
		if n, err := st.AbandonStaleJobs(ctx, cutoff); err != nil || n != 0 {
			t.Fatalf("a second sweep ended %d (%v), want 0", n, err)
		}
		rest := claimAll(t, st)
		if len(rest) != 1 || rest[0] == stale.SessionID || rest[0] == fresh.SessionID {
			t.Fatalf("offered again: %v, want only the never-claimed job", rest)
		}
		// The fresh claim is still owned by its worker and can be finished.
		must(t, st.FinishWebhookJob(ctx, fresh.ID, &store.Delivery{FormID: f.ID, SessionID: fresh.SessionID, URL: fresh.URL, Status: "failed"}))
	})
}
