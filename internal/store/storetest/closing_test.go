package storetest_test

import (
	"fmt"
	"testing"
	"time"

	"forma/internal/form"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// TestResponseLimitIsExact: one-shot submissions and session completions race
// through two stores (two nodes) for a form that takes 7 responses: exactly 7
// are stored, each with its webhook job, and the others are refused with Closed
// and leave nothing behind (their sessions stay open). A deleted response makes
// room for one more.
func TestResponseLimitIsExact(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		stores := openTwice(t, d)
		st := stores[0]
		acct := newAccount(t, st, "ada@example.com")
		f := newForm(t, st, acct, "Seven seats", "Name")
		hooked(t, st, acct, f, "https://example.com/hook")
		const max, n = 7, 40
		limit := max
		for i := range n / 2 {
			_, err := stores[i%2].StartSession(ctx, f.ID, fmt.Sprintf("session-%02d", i), "h", nil)
			must(t, err)
		}
		codes := race(n, func(i int) error {
			st := stores[i%2]
			if i%4 < 2 {
				sub := &form.Submission{ID: fmt.Sprintf("one-shot-%02d", i), FormID: f.ID, Answers: map[int64]any{}}
				return st.CreateSubmission(ctx, sub, &limit)
			}
			_, err := st.CompleteSession(ctx, f.ID, fmt.Sprintf("session-%02d", i/4*2+i%4-2), "h", &limit, func(*form.Submission) error { return nil })
			return err
		})
		if codes["ok"] != max || codes[form.Closed] != n-max {
			t.Fatalf("outcomes %v, want %d ok and %d %s", codes, max, n-max, form.Closed)
		}
		started, completed, err := st.SessionCounts(ctx, f.ID)
		must(t, err)
		if oneShots := countOneShots(t, st, f); completed != max || started != n/2+oneShots {
			t.Fatalf("SessionCounts = %d started, %d completed; want the %d sessions and %d stored one-shots, %d completed",
				started, completed, n/2, oneShots, max)
		}
		if jobs := claimAll(t, st); len(jobs) != max {
			t.Fatalf("%d webhook jobs, want %d", len(jobs), max)
		}
		if closed, err := stores[1].FormClosed(ctx, withLimit(f, max)); err != nil || !closed {
			t.Fatalf("FormClosed of a full form = %v, %v", closed, err)
		}

		list, _, err := st.ListResponses(ctx, f.ID, store.ResponseFilter{}, 1, 0)
		must(t, err)
		_, err = st.DeleteResponse(ctx, f.ID, list[0].ID)
		must(t, err)
		if closed, err := stores[1].FormClosed(ctx, withLimit(f, max)); err != nil || closed {
			t.Fatalf("FormClosed after a deletion = %v, %v", closed, err)
		}
		must(t, stores[1].CreateSubmission(ctx, &form.Submission{ID: "after-delete", FormID: f.ID, Answers: map[int64]any{}}, &limit))
		err = st.CreateSubmission(ctx, &form.Submission{ID: "one-too-many", FormID: f.ID, Answers: map[int64]any{}}, &limit)
		wantCode(t, err, form.Closed)
	})
}

// countOneShots counts the completed one-shot submissions stored (not sessions).
func countOneShots(t *testing.T, st *store.Store, f *form.Form) int {
	t.Helper()
	list, _, err := st.ListResponses(ctx, f.ID, store.ResponseFilter{}, 100, 0)
	must(t, err)
	n := 0
	for _, sub := range list {
		if sub.ID[:8] == "one-shot" {
			n++
		}
	}
	return n
}

// withLimit is a copy of f whose settings take max responses.
func withLimit(f *form.Form, max int) *form.Form {
	c := *f
	c.Settings.MaxResponses = &max
	return &c
}

// TestFormClosedByTime: a form closes at its closesAt, by the store's clock, and
// a limit counts only completed submissions.
func TestFormClosedByTime(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		f := newForm(t, st, acct, "Until Christmas", "Name")
		closes := time.Date(2026, 12, 24, 18, 0, 0, 0, time.UTC)
		f.Settings.ClosesAt = &closes
		for _, c := range []struct {
			now    time.Time
			closed bool
		}{{closes.Add(-time.Millisecond), false}, {closes, true}, {closes.Add(time.Hour), true}} {
			st.Now = func() time.Time { return c.now }
			if closed, err := st.FormClosed(ctx, f); err != nil || closed != c.closed {
				t.Errorf("at %s: FormClosed = %v, %v; want %v", c.now, closed, err, c.closed)
			}
		}

		st.Now = func() time.Time { return closes.Add(-time.Hour) }
		one := 1
		_, err := st.StartSession(ctx, f.ID, "open-one", "h", nil)
		must(t, err)
		if closed, err := st.FormClosed(ctx, withLimit(f, one)); err != nil || closed {
			t.Fatalf("a started session filled the form: %v, %v", closed, err)
		}
		_, err = st.CompleteSession(ctx, f.ID, "open-one", "h", &one, func(*form.Submission) error { return nil })
		must(t, err)
		if closed, err := st.FormClosed(ctx, withLimit(f, one)); err != nil || !closed {
			t.Fatalf("the completed session did not fill the form: %v, %v", closed, err)
		}
	})
}
