package store_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"forma/internal/form"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// hookedForm creates an account and a form of n text questions whose webhook is
// enabled, so that every submission also queues an outbox job.
func hookedForm(t testing.TB, st *store.Store, n int) *form.Form {
	t.Helper()
	ctx := context.Background()
	acct, err := st.CreateAccount(ctx, "ada@example.com", "free")
	if err != nil {
		t.Fatal(err)
	}
	f := &form.Form{AccountID: acct.ID, Title: "Hooked", DisplayMode: form.SinglePage, ShareToken: "hooked-share-token"}
	for i := range n {
		f.Questions = append(f.Questions, form.Question{Type: form.Text, Text: fmt.Sprintf("Question %d", i+1)})
	}
	if err := st.CreateForm(ctx, f); err != nil {
		t.Fatal(err)
	}
	url := "https://example.com/hook"
	if _, err := st.UpdateForm(ctx, acct.ID, f.ID, func(f *form.Form) error {
		f.WebhookURL, f.WebhookEnabled = &url, true
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return f
}

// submission is a one-shot submission of f answering its question with name.
func submission(f *form.Form, id, name string) *form.Submission {
	return &form.Submission{ID: id, FormID: f.ID, Answers: map[int64]any{f.Questions[0].ID: name}}
}

// refuse installs a trigger that makes inserts into table fail when the
// condition on NEW holds, as a constraint or a full disk would.
func refuse(t *testing.T, st *store.Store, name, table, when string) {
	t.Helper()
	stmts := []string{fmt.Sprintf(`CREATE TRIGGER %s BEFORE INSERT ON %s WHEN %s BEGIN SELECT RAISE(ABORT, 'refused'); END`, name, table, when)}
	if st.Dialect() == store.Postgres {
		stmts = []string{
			fmt.Sprintf(`CREATE FUNCTION %s() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$`, name),
			fmt.Sprintf(`CREATE TRIGGER %s BEFORE INSERT ON %s FOR EACH ROW WHEN (%s) EXECUTE FUNCTION %s()`, name, table, when, name),
		}
	}
	execAll(t, st, stmts)
}

// failCommitOf makes the COMMIT of any transaction that inserts the session id
// fail: the insert adds a row that breaks a deferred foreign key, which is only
// checked at COMMIT.
func failCommitOf(t *testing.T, st *store.Store, id string) {
	t.Helper()
	stmts := []string{
		`CREATE TABLE poison (form_id BIGINT REFERENCES forms(id) DEFERRABLE INITIALLY DEFERRED)`,
		fmt.Sprintf(`CREATE TRIGGER poison AFTER INSERT ON sessions WHEN NEW.id = '%s' BEGIN INSERT INTO poison VALUES (-1); END`, id),
	}
	if st.Dialect() == store.Postgres {
		stmts = append(stmts[:1],
			`CREATE FUNCTION poison() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO poison VALUES (-1); RETURN NEW; END $$`,
			fmt.Sprintf(`CREATE TRIGGER poison AFTER INSERT ON sessions FOR EACH ROW WHEN (NEW.id = '%s') EXECUTE FUNCTION poison()`, id))
	}
	execAll(t, st, stmts)
}

func execAll(t *testing.T, st *store.Store, stmts []string) {
	t.Helper()
	for _, s := range stmts {
		if err := st.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// stored returns the ids of f's stored responses and of its queued webhook jobs,
// sorted.
func stored(t *testing.T, st *store.Store, f *form.Form) (responses, jobs []string) {
	t.Helper()
	ctx := context.Background()
	list, _, err := st.ListResponses(ctx, f.ID, store.ResponseFilter{}, 1000, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range list {
		responses = append(responses, r.ID)
	}
	for {
		j, err := st.ClaimWebhookJob(ctx, "test", nil)
		if err != nil {
			t.Fatal(err)
		}
		if j == nil {
			break
		}
		jobs = append(jobs, j.SessionID)
	}
	slices.Sort(responses)
	slices.Sort(jobs)
	return responses, jobs
}

// wantStored fails unless exactly the ids are stored, each with its job.
func wantStored(t *testing.T, st *store.Store, f *form.Form, ids ...string) {
	t.Helper()
	slices.Sort(ids)
	responses, jobs := stored(t, st, f)
	if !slices.Equal(responses, ids) || !slices.Equal(jobs, ids) {
		t.Fatalf("stored responses %v and jobs %v, want both %v", responses, jobs, ids)
	}
}

// wantAnswers fails unless the writes at the failing indexes got an error and the
// others none.
func wantAnswers(t *testing.T, errs []error, failing ...int) {
	t.Helper()
	for i, err := range errs {
		if want := slices.Contains(failing, i); (err != nil) != want {
			t.Errorf("write %d answered %v, want an error: %v", i, err, want)
		}
	}
}

// TestBatchAcknowledgesAllButTheFailingWrites: in one batch, a submission whose
// row is refused and one whose webhook job is refused (after its row was written)
// get their errors, nothing of them is stored, and every other submission of the
// batch is stored with its job.
func TestBatchAcknowledgesAllButTheFailingWrites(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st := servertest.OpenStore(t, d)
		f := hookedForm(t, st, 1)
		refuse(t, st, "refuse_row", "sessions", `NEW.answers LIKE '%poison%'`)
		refuse(t, st, "refuse_job", "webhook_jobs", `NEW.session_id LIKE 'late%'`)
		var subs []*form.Submission
		var want []string
		for i := range 10 {
			id, name := fmt.Sprintf("ok-%d", i), "Ada"
			switch i {
			case 3:
				name = "poison"
			case 6:
				id = "late-6"
			default:
				want = append(want, id)
			}
			subs = append(subs, submission(f, id, name))
		}
		wantAnswers(t, st.SubmitTogether(subs), 3, 6)
		wantStored(t, st, f, want...)
	})
}

// TestBatchWhoseCommitFailsRetriesEachAlone: when a batch's COMMIT fails, each of
// its submissions is retried alone; only the one at fault gets an error, and the
// store goes on working.
func TestBatchWhoseCommitFailsRetriesEachAlone(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st := servertest.OpenStore(t, d)
		f := hookedForm(t, st, 1)
		failCommitOf(t, st, "bad")
		subs := []*form.Submission{submission(f, "a", "Ada"), submission(f, "bad", "Bob"), submission(f, "c", "Cy")}
		wantAnswers(t, st.SubmitTogether(subs), 1)
		if err := st.CreateSubmission(context.Background(), submission(f, "d", "Di"), nil); err != nil {
			t.Fatalf("a submission after the failed commit: %v", err)
		}
		wantStored(t, st, f, "a", "c", "d")
	})
}

// TestCancelledWhileQueuedIsNotWritten: a caller whose context ends while its
// submission waits for a batch gets the context's error, and the submission is
// never written.
func TestCancelledWhileQueuedIsNotWritten(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st := servertest.OpenStore(t, d)
		f := hookedForm(t, st, 1)
		release := st.HoldWriters()
		ctx, cancel := context.WithCancel(context.Background())
		answer := make(chan error)
		go func() { answer <- st.CreateSubmission(ctx, submission(f, "gone", "Ada"), nil) }()
		waitQueued(t, st, 1)
		cancel()
		if err := <-answer; !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled caller answered %v, want context.Canceled", err)
		}
		release()
		if err := st.CreateSubmission(context.Background(), submission(f, "next", "Bob"), nil); err != nil {
			t.Fatal(err)
		}
		wantStored(t, st, f, "next")
	})
}

// TestCancelledAfterItsWriteBeganIsCommitted: once a writer has begun a caller's
// write, the caller gets the batch's outcome whatever its context, so that the
// answer matches what is stored.
func TestCancelledAfterItsWriteBeganIsCommitted(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st := servertest.OpenStore(t, d)
		f := hookedForm(t, st, 1)
		bg := context.Background()
		if _, err := st.StartSession(bg, f.ID, "s1", "h1", nil); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(bg)
		_, err := st.CompleteSession(ctx, f.ID, "s1", "h1", nil, func(sub *form.Submission) error {
			cancel() // the respondent goes away while the completion is being written
			sub.Answers[f.Questions[0].ID] = "Ada"
			return nil
		})
		if err != nil {
			t.Fatalf("CompleteSession answered %v after its write began, want nil", err)
		}
		wantStored(t, st, f, "s1")
	})
}

// TestCloseCommitsQueuedWrites: Close waits for the writes already queued and
// commits them.
func TestCloseCommitsQueuedWrites(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		url, dir := servertest.DatabaseURL(t, d), t.TempDir()
		st, err := store.Open(context.Background(), url, dir)
		if err != nil {
			t.Fatal(err)
		}
		f := hookedForm(t, st, 1)
		release := st.HoldWriters()
		answers := make(chan error, 3)
		for _, id := range []string{"a", "b", "c"} {
			go func() { answers <- st.CreateSubmission(context.Background(), submission(f, id, "Ada"), nil) }()
		}
		waitQueued(t, st, 3)
		closed := make(chan error)
		go func() { closed <- st.Close() }()
		release()
		if err := <-closed; err != nil {
			t.Fatal(err)
		}
		for range 3 {
			if err := <-answers; err != nil {
				t.Errorf("a write queued before Close answered %v", err)
			}
		}
		if err := st.CreateSubmission(context.Background(), submission(f, "late", "Bob"), nil); err == nil {
			t.Error("a write after Close succeeded")
		}
		st, err = store.Open(context.Background(), url, dir)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		wantStored(t, st, f, "a", "b", "c")
	})
}

// waitQueued waits until n writes wait in st's queue.
func waitQueued(t *testing.T, st *store.Store, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); st.Queued() < n; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d writes queued after 10 s, want %d", st.Queued(), n)
		}
	}
}
