package storetest_test

import (
	"fmt"
	"slices"
	"strings"
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
		must(t, st.CreateSubmission(ctx, &form.Submission{ID: fmt.Sprintf("%s-%03d", prefix, i), FormID: f.ID, Answers: map[int64]any{}}, nil))
	}
}

// hookedForms creates an account with a form per title, each with its webhook on.
func hookedForms(t *testing.T, st *store.Store, titles ...string) []*form.Form {
	t.Helper()
	acct := newAccount(t, st, "ada@example.com")
	var forms []*form.Form
	for _, title := range titles {
		f := newForm(t, st, acct, title, "Q")
		hooked(t, st, acct, f, "https://"+strings.ReplaceAll(strings.ToLower(title), " ", "-")+".example/hook")
		forms = append(forms, f)
	}
	return forms
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

// TestClaimABatch: one claim takes up to Limit of the oldest jobs, none of a
// skipped form, oldest first.
func TestClaimABatch(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		forms := hookedForms(t, st, "a", "b", "c")
		queueJobs(t, st, forms[2], "c", 2)
		queueJobs(t, st, forms[0], "a", 5)
		queueJobs(t, st, forms[1], "b", 1)

		jobs, err := st.ClaimWebhookJobs(ctx, store.Claim{Worker: "w", Limit: 6, Skip: []int64{forms[2].ID}})
		must(t, err)
		if got := sessionIDs(jobs); fmt.Sprint(got) != "[a-000 a-001 a-002 a-003 a-004 b-000]" {
			t.Fatalf("claimed %v, want a's and b's jobs, none of the skipped c", got)
		}
		jobs, err = st.ClaimWebhookJobs(ctx, store.Claim{Worker: "w", Limit: 1})
		must(t, err)
		if got := sessionIDs(jobs); fmt.Sprint(got) != "[c-000]" {
			t.Fatalf("second claim %v, want [c-000]: the limit stops it", got)
		}
	})
}

func sessionIDs(jobs []store.WebhookJob) []string {
	var ids []string
	for _, j := range jobs {
		ids = append(ids, j.SessionID)
	}
	return ids
}

// TestFinishWebhookJobsInABatch: a batch of results is logged and its jobs leave
// the outbox; the jobs not in it stay claimed.
func TestFinishWebhookJobsInABatch(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		f := hookedForms(t, st, "A")[0]
		queueJobs(t, st, f, "a", 3)
		jobs, err := st.ClaimWebhookJobs(ctx, store.Claim{Worker: "w", Limit: 3})
		must(t, err)
		code := 200
		var done []store.FinishedJob
		for _, j := range jobs[:2] {
			done = append(done, store.FinishedJob{JobID: j.ID, Delivery: store.Delivery{FormID: f.ID, SessionID: j.SessionID,
				URL: j.URL, Status: "success", ResponseCode: &code, Duration: time.Millisecond}})
		}
		must(t, st.FinishWebhookJobs(ctx, done))
		logs, total, err := st.WebhookLogs(ctx, f.ID, 10, 0)
		must(t, err)
		if total != 2 || logs[0].Status != "success" || *logs[1].ResponseCode != 200 {
			t.Fatalf("logs %+v (total %d)", logs, total)
		}
		// Released at once (cutoff in the future): only the unfinished job is offered again.
		released, ended, err := st.ReleaseExpiredClaims(ctx, time.Now().Add(time.Hour), 3)
		must(t, err)
		if released != 1 || ended != 0 {
			t.Fatalf("released %d, ended %d; want 1 and 0", released, ended)
		}
		if rest := claimAll(t, st); fmt.Sprint(rest) != "[a-002]" {
			t.Fatalf("left in the outbox: %v, want [a-002]", rest)
		}
	})
}

// TestConcurrentClaimsNeverShareAJob: many workers on two stores (two nodes) claim
// batches of 90 jobs of three forms at once; each job goes to exactly one worker.
func TestConcurrentClaimsNeverShareAJob(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		stores := openTwice(t, d)
		for i, f := range hookedForms(t, stores[0], "Busy 0", "Busy 1", "Busy 2") {
			queueJobs(t, stores[0], f, fmt.Sprint("j", i), 30)
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		claimed := map[string]int{}
		for w := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					jobs, err := stores[w%2].ClaimWebhookJobs(ctx, store.Claim{Worker: fmt.Sprint("w", w), Limit: 5})
					if err != nil {
						t.Error(err)
						return
					}
					if len(jobs) == 0 {
						return
					}
					mu.Lock()
					for _, j := range jobs {
						claimed[j.SessionID]++
					}
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if len(claimed) != 90 {
			t.Fatalf("%d distinct jobs claimed, want 90", len(claimed))
		}
		for id, n := range claimed {
			if n != 1 {
				t.Errorf("job %s claimed %d times", id, n)
			}
		}
	})
}

// TestExpiredClaimsAreOfferedAgain: a job claimed by a server that stopped before
// finishing is offered again once its claim is older than the cutoff, as the same
// job (same submission, so the same webhook-id); after maxAttempts expired claims
// it is logged as an error and removed instead. Unclaimed jobs and fresh claims
// are left alone.
func TestExpiredClaimsAreOfferedAgain(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, c := open(t, d)
		f := hookedForms(t, st, "Stale")[0]
		queueJobs(t, st, f, "s", 3)
		stale, err := st.ClaimWebhookJob(ctx, "dead", nil)
		must(t, err)
		cutoff := c.Now()
		fresh, err := st.ClaimWebhookJob(ctx, "alive", nil)
		must(t, err)

		released, ended, err := st.ReleaseExpiredClaims(ctx, cutoff, 2)
		must(t, err)
		if released != 1 || ended != 0 {
			t.Fatalf("first sweep released %d and ended %d, want 1 and 0", released, ended)
		}
		again, err := st.ClaimWebhookJob(ctx, "second", nil)
		must(t, err)
		if again == nil || again.ID != stale.ID || again.SessionID != stale.SessionID {
			t.Fatalf("claimed %+v after the sweep, want the released job %+v again", again, stale)
		}
		// Its second claim expires too: with maxAttempts 2 it is ended, and logged.
		released, ended, err = st.ReleaseExpiredClaims(ctx, c.Now(), 2)
		must(t, err)
		if released != 1 || ended != 1 {
			t.Fatalf("second sweep released %d and ended %d, want 1 (the other claim, now old too) and 1", released, ended)
		}
		logs, total, err := st.WebhookLogs(ctx, f.ID, 10, 0)
		must(t, err)
		if total != 1 || logs[0].SessionID != stale.SessionID || logs[0].Status != "error" ||
			logs[0].ErrorMessage == nil || logs[0].ResponseCode != nil {
			t.Fatalf("logs after the sweeps: %+v", logs)
		}
		if rest := claimAll(t, st); len(rest) != 2 || slices.Contains(rest, stale.SessionID) || !slices.Contains(rest, fresh.SessionID) {
			t.Fatalf("offered: %v, want the never-claimed job and %s", rest, fresh.SessionID)
		}
	})
}

// TestReturnedJobsKeepTheirAttempts: jobs given back unsent by a stopping server
// are offered again at once, and the claim that is given back does not count as
// an attempt.
func TestReturnedJobsKeepTheirAttempts(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, c := open(t, d)
		queueJobs(t, st, hookedForms(t, st, "Returned")[0], "r", 1)
		for range 3 {
			j, err := st.ClaimWebhookJob(ctx, "stopping", nil)
			must(t, err)
			if j == nil {
				t.Fatal("a returned job was not offered again")
			}
			must(t, st.ReturnWebhookJobs(ctx, []int64{j.ID}))
		}
		_, err := st.ClaimWebhookJob(ctx, "dead", nil)
		must(t, err)
		released, ended, err := st.ReleaseExpiredClaims(ctx, c.Now(), 2)
		must(t, err)
		if released != 1 || ended != 0 {
			t.Fatalf("released %d, ended %d; want 1 and 0: only one claim was an attempt", released, ended)
		}
	})
}

// TestBegunJobsAreNeverSentAgain: delivery is at most once. A job whose start
// was recorded (StartWebhookJob) by a server that then stopped is logged as an
// error when its claim expires, not offered again; a worker that no longer
// holds a job cannot start it.
func TestBegunJobsAreNeverSentAgain(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, c := open(t, d)
		f := hookedForms(t, st, "Begun")[0]
		queueJobs(t, st, f, "b", 2)
		begun, err := st.ClaimWebhookJob(ctx, "dead", nil)
		must(t, err)
		if err := st.StartWebhookJob(ctx, begun.ID, "someone else"); form.ErrorCode(err) != form.NotFound {
			t.Fatalf("a worker that does not hold the job started it: %v", err)
		}
		must(t, st.StartWebhookJob(ctx, begun.ID, "dead"))
		unbegun, err := st.ClaimWebhookJob(ctx, "dead", nil)
		must(t, err)
		released, ended, err := st.ReleaseExpiredClaims(ctx, c.Now(), 3)
		must(t, err)
		if released != 1 || ended != 1 {
			t.Fatalf("released %d, ended %d; want 1 (the unbegun job) and 1 (the begun one)", released, ended)
		}
		if rest := claimAll(t, st); fmt.Sprint(rest) != fmt.Sprint([]string{unbegun.SessionID}) {
			t.Fatalf("offered again: %v, want only %s", rest, unbegun.SessionID)
		}
		logs, _, err := st.WebhookLogs(ctx, f.ID, 10, 0)
		must(t, err)
		if len(logs) != 1 || logs[0].SessionID != begun.SessionID || logs[0].Status != "error" {
			t.Fatalf("logs: %+v, want the begun job as an error", logs)
		}
	})
}
