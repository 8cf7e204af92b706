package storetest_test

import (
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"forma/internal/form"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// openRaw opens a fresh store of dialect d with a pinned clock, and a second,
// plain connection to its database for the tests' own SQL.
func openRaw(t *testing.T, d store.Dialect) (*store.Store, *sql.DB) {
	t.Helper()
	url, dir := servertest.DatabaseURL(t, d), t.TempDir()
	st, err := store.Open(ctx, url, dir)
	must(t, err)
	t.Cleanup(func() { st.Close() })
	pinClock(st)
	driver, dsn := "pgx", url
	if d == store.SQLite {
		driver, dsn = "sqlite", "file:"+filepath.Join(dir, "forma.db")+"?_pragma=busy_timeout(10000)"
	}
	db, err := sql.Open(driver, dsn)
	must(t, err)
	t.Cleanup(func() { db.Close() })
	return st, db
}

// loadResponses stores n completed submissions of f, completed three at a time
// in the same millisecond so that the order's tie on id is exercised, with ids
// that do not follow their times; and one session left open, which no list shows.
func loadResponses(t *testing.T, st *store.Store, f *form.Form, n int) {
	t.Helper()
	base := time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC)
	subs := make([]form.Submission, n)
	for i := range subs {
		at := base.Add(time.Duration(i/3) * time.Second)
		subs[i] = form.Submission{ID: fmt.Sprintf("r%04d", (i*7919)%n), FormID: f.ID, StartedAt: at, UpdatedAt: at,
			CompletedAt: &at, Answers: map[int64]any{}}
	}
	must(t, st.CreateSubmissions(ctx, subs))
	_, err := st.StartSession(ctx, f.ID, "open-one", "hash", nil)
	must(t, err)
}

// plainIDs runs the paging query of before keyset pagination — ORDER BY with
// LIMIT and OFFSET on the table — and returns the ids.
func plainIDs(t *testing.T, db *sql.DB, query string, args ...any) []string {
	t.Helper()
	rows, err := db.QueryContext(ctx, query, args...)
	must(t, err)
	defer rows.Close()
	ids := []string{}
	for rows.Next() {
		var id string
		must(t, rows.Scan(&id))
		ids = append(ids, id)
	}
	must(t, rows.Err())
	return ids
}

func plainCount(t *testing.T, db *sql.DB, query string, args ...any) int {
	t.Helper()
	var n int
	must(t, db.QueryRowContext(ctx, query, args...).Scan(&n))
	return n
}

func responseIDs(subs []form.Submission) []string {
	ids := []string{}
	for _, s := range subs {
		ids = append(ids, s.ID)
	}
	return ids
}

func deliveryIDs(list []store.Delivery) []string {
	ids := []string{}
	for _, d := range list {
		ids = append(ids, fmt.Sprint(d.ID))
	}
	return ids
}

// pagingCases are the pages the equality tests read of a list of about 250:
// the first, around the middle (where the nearer end changes), near the end,
// at the end and beyond it.
var pagingCases = []struct{ limit, offset int }{
	{1, 0}, {7, 0}, {100, 0}, {500, 0}, {7, 1}, {50, 50}, {10, 120}, {10, 121}, {3, 124}, {3, 125},
	{1, 126}, {100, 130}, {7, 200}, {10, 240}, {7, 243}, {1, 249}, {500, 249}, {1, 250}, {10, 251}, {5, 1000},
}

// TestDeepPagesEqualThePlainQuery: every page of the responses list — in both
// orders, with and without a time filter, near either end and past it — holds
// exactly the rows the plain ORDER BY … LIMIT … OFFSET query gives, with the
// same total.
func TestDeepPagesEqualThePlainQuery(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, db := openRaw(t, d)
		acct := newAccount(t, st, "ada@example.com")
		f, other := newForm(t, st, acct, "Big", "Q"), newForm(t, st, acct, "Other", "Q")
		loadResponses(t, st, f, 251)
		must(t, st.CreateSubmission(ctx, &form.Submission{ID: "elsewhere", FormID: other.ID, Answers: map[int64]any{}}, nil))
		since := time.Date(2026, 5, 1, 8, 0, 3, 0, time.UTC)
		for _, filter := range []store.ResponseFilter{{}, {Ascending: true}, {Since: &since}, {Until: &since, Ascending: true}} {
			where, args := `form_id = $1 AND completed_at IS NOT NULL`, []any{f.ID}
			switch {
			case filter.Since != nil:
				where, args = where+` AND completed_at >= $2`, append(args, since.UnixMilli())
			case filter.Until != nil:
				where, args = where+` AND completed_at < $2`, append(args, since.UnixMilli())
			}
			order := ` ORDER BY completed_at DESC, id DESC`
			if filter.Ascending {
				order = ` ORDER BY completed_at ASC, id ASC`
			}
			n := len(args)
			wantTotal := plainCount(t, db, `SELECT COUNT(*) FROM sessions WHERE `+where, args...)
			for _, c := range pagingCases {
				list, total, err := st.ListResponses(ctx, f.ID, filter, c.limit, c.offset)
				must(t, err)
				want := plainIDs(t, db, fmt.Sprintf(`SELECT id FROM sessions WHERE %s%s LIMIT $%d OFFSET $%d`, where, order, n+1, n+2),
					append(args, c.limit, c.offset)...)
				if got := responseIDs(list); total != wantTotal || !slices.Equal(got, want) {
					t.Errorf("%+v limit %d offset %d: total %d rows %v, want total %d rows %v", filter, c.limit, c.offset, total, got, wantTotal, want)
				}
			}
		}
	})
}

// TestDeepLogPagesEqualThePlainQuery is TestDeepPagesEqualThePlainQuery for a
// form's webhook delivery log.
func TestDeepLogPagesEqualThePlainQuery(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, db := openRaw(t, d)
		acct := newAccount(t, st, "ada@example.com")
		f, other := newForm(t, st, acct, "Hooked", "Q"), newForm(t, st, acct, "Other", "Q")
		for i := range 251 {
			owner := f.ID
			if i%5 == 0 {
				owner = other.ID // interleaved, so that the form's ids have gaps
			}
			_, err := db.ExecContext(ctx, `INSERT INTO webhook_deliveries (form_id, session_id, url, status, duration_ms, created_at)
				VALUES ($1, $2, 'https://hooks.example/', 'success', 5, $3)`, owner, fmt.Sprintf("s%d", i), int64(i))
			must(t, err)
		}
		wantTotal := plainCount(t, db, `SELECT COUNT(*) FROM webhook_deliveries WHERE form_id = $1`, f.ID)
		for _, c := range pagingCases {
			list, total, err := st.WebhookLogs(ctx, f.ID, c.limit, c.offset)
			must(t, err)
			want := plainIDs(t, db, `SELECT CAST(id AS TEXT) AS shown FROM webhook_deliveries WHERE form_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`,
				f.ID, c.limit, c.offset)
			if got := deliveryIDs(list); total != wantTotal || !slices.Equal(got, want) {
				t.Errorf("limit %d offset %d: total %d rows %v, want total %d rows %v", c.limit, c.offset, total, got, wantTotal, want)
			}
		}
	})
}

// TestKeysetWalksReadTheWholeList: pages read each after the last row of the one
// before (ResponseFilter.After, WebhookLogsBefore) read the whole list in its
// order, once, and still report the whole list's total.
func TestKeysetWalksReadTheWholeList(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, db := openRaw(t, d)
		acct := newAccount(t, st, "ada@example.com")
		f := newForm(t, st, acct, "Big", "Q")
		loadResponses(t, st, f, 100)
		for _, ascending := range []bool{false, true} {
			whole, total, err := st.ListResponses(ctx, f.ID, store.ResponseFilter{Ascending: ascending}, 500, 0)
			must(t, err)
			var walked []form.Submission
			filter := store.ResponseFilter{Ascending: ascending}
			for {
				page, n, err := st.ListResponses(ctx, f.ID, filter, 7, 0)
				must(t, err)
				if n != total {
					t.Fatalf("a page after a key says total %d, want %d", n, total)
				}
				if len(page) == 0 {
					break
				}
				walked = append(walked, page...)
				last := page[len(page)-1]
				filter.After = &store.ResponseKey{CompletedAt: *last.CompletedAt, ID: last.ID}
			}
			if got, want := responseIDs(walked), responseIDs(whole); !slices.Equal(got, want) {
				t.Errorf("ascending=%v: walked %v, want %v", ascending, got, want)
			}
		}

		for i := range 30 {
			_, err := db.ExecContext(ctx, `INSERT INTO webhook_deliveries (form_id, session_id, url, status, duration_ms, created_at)
				VALUES ($1, $2, 'https://hooks.example/', 'success', 5, 0)`, f.ID, fmt.Sprintf("s%d", i))
			must(t, err)
		}
		whole, _, err := st.WebhookLogs(ctx, f.ID, 100, 0)
		must(t, err)
		var walked []store.Delivery
		page, _, err := st.WebhookLogs(ctx, f.ID, 4, 0)
		for ; err == nil && len(page) > 0; page, _, err = st.WebhookLogsBefore(ctx, f.ID, page[len(page)-1].ID, 4) {
			walked = append(walked, page...)
		}
		must(t, err)
		if got, want := deliveryIDs(walked), deliveryIDs(whole); !slices.Equal(got, want) {
			t.Errorf("log walked %v, want %v", got, want)
		}
	})
}

// TestTotalsFollowEveryWrite: the totals of the responses list and the delivery
// log (kept by triggers on SQLite, counted on PostgreSQL) equal a count of the
// rows after every kind of write: one-shot and loaded submissions, a session
// completed (and one left open), a delete, deliveries; and the form's counts go
// with the form.
func TestTotalsFollowEveryWrite(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, db := openRaw(t, d)
		acct := newAccount(t, st, "ada@example.com")
		f := newForm(t, st, acct, "Counted", "Q")
		agree := func(step string) {
			t.Helper()
			_, responses, err := st.ListResponses(ctx, f.ID, store.ResponseFilter{}, 1, 0)
			must(t, err)
			_, deliveries, err := st.WebhookLogs(ctx, f.ID, 1, 0)
			must(t, err)
			wantR := plainCount(t, db, `SELECT COUNT(*) FROM sessions WHERE form_id = $1 AND completed_at IS NOT NULL`, f.ID)
			wantD := plainCount(t, db, `SELECT COUNT(*) FROM webhook_deliveries WHERE form_id = $1`, f.ID)
			if responses != wantR || deliveries != wantD {
				t.Errorf("after %s: totals %d responses, %d deliveries; the rows are %d and %d", step, responses, deliveries, wantR, wantD)
			}
		}
		agree("nothing")
		at := time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC)
		must(t, st.LoadSubmissions(ctx, f.ID, []form.Submission{{ID: "loaded", FormID: f.ID, StartedAt: at, UpdatedAt: at,
			CompletedAt: &at, Answers: map[int64]any{}}}))
		agree("a loaded submission")
		hooked(t, st, acct, f, "https://hooks.example/")
		queueJobs(t, st, f, "one-shot", 3)
		agree("one-shot submissions")
		_, err := st.StartSession(ctx, f.ID, "multi", "hash", nil)
		must(t, err)
		_, err = st.StartSession(ctx, f.ID, "left-open", "hash", nil)
		must(t, err)
		agree("sessions started")
		_, err = st.CompleteSession(ctx, f.ID, "multi", "hash", nil, func(*form.Submission) error { return nil })
		must(t, err)
		agree("a session completed")
		_, err = st.DeleteResponse(ctx, f.ID, "one-shot-001")
		must(t, err)
		agree("a delete")
		for {
			job, err := st.ClaimWebhookJob(ctx, "w", nil)
			must(t, err)
			if job == nil {
				break
			}
			must(t, st.FinishWebhookJob(ctx, job.ID, &store.Delivery{FormID: job.FormID, SessionID: job.SessionID, URL: job.URL, Status: "success"}))
		}
		agree("deliveries")

		_, err = st.DeleteForm(ctx, acct.ID, f.ID)
		must(t, err)
		if d == store.SQLite {
			if n := plainCount(t, db, `SELECT COUNT(*) FROM form_counts WHERE form_id = $1`, f.ID); n != 0 {
				t.Errorf("the deleted form's counts are still there")
			}
		}
	})
}

// TestPageTotalsAgreeWithTheirRows: while submissions and forms are written
// one after another, every page that shows the whole list holds as many rows as
// its total says: the total and the rows are read in one snapshot.
func TestPageTotalsAgreeWithTheirRows(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		f := newForm(t, st, acct, "Busy", "Q")
		const writes = 150
		var written atomic.Int64
		var wg sync.WaitGroup
		wg.Go(func() {
			defer written.Store(writes) // the reader stops even if a write fails
			for i := range writes {
				sub := &form.Submission{ID: fmt.Sprintf("w%03d", i), FormID: f.ID, Answers: map[int64]any{}}
				more := &form.Form{AccountID: acct.ID, Title: "More", DisplayMode: form.SinglePage, ShareToken: fmt.Sprintf("more-%03d", i)}
				if err := errors.Join(st.CreateSubmission(ctx, sub, nil), st.CreateForm(ctx, more)); err != nil {
					t.Error(err)
					return
				}
				written.Add(1)
			}
		})
		for written.Load() < writes {
			list, total, err := st.ListResponses(ctx, f.ID, store.ResponseFilter{}, 500, 0)
			forms, err2 := st.ListForms(ctx, acct.ID, nil, 500, 0)
			if err := errors.Join(err, err2); err != nil {
				t.Error(err)
				break
			}
			if len(list) != total || len(forms.Forms) != forms.Total {
				t.Errorf("%d responses under a total of %d; %d forms under a total of %d", len(list), total, len(forms.Forms), forms.Total)
				break
			}
		}
		wg.Wait()
	})
}
