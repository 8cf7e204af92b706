package storetest_test

import (
	"errors"
	"fmt"
	"testing"

	"forma/internal/form"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// hooked enables f's webhook with url.
func hooked(t *testing.T, st *store.Store, acct *store.Account, f *form.Form, url string) {
	t.Helper()
	_, err := st.UpdateForm(ctx, acct.ID, f.ID, func(f *form.Form) error {
		f.WebhookURL, f.WebhookEnabled = &url, true
		return nil
	})
	must(t, err)
}

// claimAll takes every job from the outbox and returns their submission ids.
func claimAll(t *testing.T, st *store.Store) []string {
	t.Helper()
	var ids []string
	for {
		j, err := st.ClaimWebhookJob(ctx, "test", nil)
		must(t, err)
		if j == nil {
			return ids
		}
		ids = append(ids, j.SessionID)
	}
}

// TestSubmissionQueuesItsWebhookInTheSameTransaction: a completed submission gets a
// delivery job exactly when its form's webhook is enabled, with the form's URL.
func TestSubmissionQueuesItsWebhookInTheSameTransaction(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		quiet := newForm(t, st, acct, "No hook", "Q")
		loud := newForm(t, st, acct, "Hook", "Q")
		hooked(t, st, acct, loud, "https://example.com/hook")

		must(t, st.CreateSubmission(ctx, &form.Submission{ID: "quiet-1", FormID: quiet.ID, Answers: map[int64]any{}}, nil))
		must(t, st.CreateSubmission(ctx, &form.Submission{ID: "loud-1", FormID: loud.ID, Answers: map[int64]any{}}, nil))
		j, err := st.ClaimWebhookJob(ctx, "test", nil)
		must(t, err)
		if j == nil || j.SessionID != "loud-1" || j.FormID != loud.ID || j.URL != "https://example.com/hook" {
			t.Fatalf("claimed %+v, want the job of loud-1 to https://example.com/hook", j)
		}
		if rest := claimAll(t, st); len(rest) != 0 {
			t.Fatalf("more jobs than submissions with a webhook: %v", rest)
		}

		// A refused submission (its id is taken) leaves no job behind.
		err = st.CreateSubmission(ctx, &form.Submission{ID: "loud-1", FormID: loud.ID, Answers: map[int64]any{}}, nil)
		wantCode(t, err, form.Conflict)
		if rest := claimAll(t, st); len(rest) != 0 {
			t.Fatalf("a refused submission queued jobs: %v", rest)
		}
	})
}

// TestCreateSubmissionsIsAllOrNothing: a batch with one bad submission stores none
// of them and queues nothing.
func TestCreateSubmissionsIsAllOrNothing(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, c := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		f := newForm(t, st, acct, "Batch", "Q")
		hooked(t, st, acct, f, "https://example.com/hook")
		at := c.Now()
		batch := []form.Submission{
			{ID: "b1", FormID: f.ID, StartedAt: at, UpdatedAt: at, CompletedAt: &at, Answers: map[int64]any{f.Questions[0].ID: "one"}},
			{ID: "b1", FormID: f.ID, StartedAt: at, UpdatedAt: at, CompletedAt: &at, Answers: map[int64]any{}},
		}
		wantCode(t, st.CreateSubmissions(ctx, batch), form.Conflict)
		if _, total, err := st.ListResponses(ctx, f.ID, store.ResponseFilter{}, 10, 0); err != nil || total != 0 {
			t.Fatalf("after a failed batch: %d responses, %v", total, err)
		}
		if jobs := claimAll(t, st); len(jobs) != 0 {
			t.Fatalf("a failed batch queued %v", jobs)
		}

		batch[1].ID = "b2"
		must(t, st.CreateSubmissions(ctx, batch))
		got, err := st.GetResponse(ctx, f.ID, "b1")
		must(t, err)
		if !got.SubmittedAt().Equal(at) || got.Answers[f.Questions[0].ID] != "one" {
			t.Fatalf("stored %+v, want it as given", got)
		}
		if jobs := claimAll(t, st); len(jobs) != 2 {
			t.Fatalf("jobs %v, want one per submission", jobs)
		}
	})
}

// TestSessionSavesAndCompletesOnce covers a multi-step session: saves, a refused
// change, completion with its job, and everything after completion refused.
func TestSessionSavesAndCompletesOnce(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		f := newForm(t, st, acct, "Steps", "Name", "City")
		hooked(t, st, acct, f, "https://example.com/hook")
		name, city := f.Questions[0].ID, f.Questions[1].ID
		_, err := st.StartSession(ctx, f.ID, "s1", "h1", nil)
		must(t, err)

		set := func(id int64, v any) func(*form.Submission) error {
			return func(sub *form.Submission) error { sub.Answers[id] = v; return nil }
		}
		_, err = st.UpdateSession(ctx, f.ID, "s1", "h1", set(name, "Ana"))
		must(t, err)
		refused := errors.New("refused")
		_, err = st.UpdateSession(ctx, f.ID, "s1", "h1", func(sub *form.Submission) error {
			sub.Answers[city] = "Lisbon"
			return refused
		})
		if !errors.Is(err, refused) {
			t.Fatalf("UpdateSession returned %v, want the change's error", err)
		}
		sub, err := st.GetSession(ctx, f.ID, "s1", "h1")
		must(t, err)
		if sub.Answers[name] != "Ana" || sub.Answers[city] != nil || sub.Completed() {
			t.Fatalf("saved session %+v, want only the first change", sub)
		}
		if _, err := st.GetResponse(ctx, f.ID, "s1"); form.ErrorCode(err) != form.NotFound {
			t.Fatalf("an open session is a response: %v", err)
		}
		// Only the resume hash it was started with finds the session.
		_, err = st.GetSession(ctx, f.ID, "s1", "h2")
		wantCode(t, err, form.NotFound)
		_, err = st.UpdateSession(ctx, f.ID, "s1", "", set(city, "x"))
		wantCode(t, err, form.NotFound)
		_, err = st.CompleteSession(ctx, f.ID, "s1", "h2", nil, set(city, "x"))
		wantCode(t, err, form.NotFound)
		if jobs := claimAll(t, st); len(jobs) != 0 {
			t.Fatalf("saving queued %v", jobs)
		}

		// A completion that is refused completes nothing.
		_, err = st.CompleteSession(ctx, f.ID, "s1", "h1", nil, func(*form.Submission) error { return refused })
		if !errors.Is(err, refused) {
			t.Fatalf("CompleteSession returned %v", err)
		}
		if jobs := claimAll(t, st); len(jobs) != 0 {
			t.Fatalf("a refused completion queued %v", jobs)
		}

		done, err := st.CompleteSession(ctx, f.ID, "s1", "h1", nil, set(city, "Porto"))
		must(t, err)
		if !done.Completed() || done.Answers[city] != "Porto" {
			t.Fatalf("completed %+v", done)
		}
		if jobs := claimAll(t, st); len(jobs) != 1 || jobs[0] != "s1" {
			t.Fatalf("jobs after completion %v, want [s1]", jobs)
		}
		_, err = st.CompleteSession(ctx, f.ID, "s1", "h1", nil, set(city, "Faro"))
		wantCode(t, err, form.AlreadyCompleted)
		_, err = st.UpdateSession(ctx, f.ID, "s1", "h1", set(city, "Faro"))
		wantCode(t, err, form.AlreadyCompleted)
		got, err := st.GetResponse(ctx, f.ID, "s1")
		must(t, err)
		if got.Answers[city] != "Porto" {
			t.Fatalf("a completed submission changed: %+v", got)
		}
		// A completed submission is no session to resume.
		_, err = st.GetSession(ctx, f.ID, "s1", "h1")
		wantCode(t, err, form.NotFound)
		_, err = st.UpdateSession(ctx, f.ID, "nope", "h1", set(city, "x"))
		wantCode(t, err, form.NotFound)
		started, completed, err := st.SessionCounts(ctx, f.ID)
		must(t, err)
		if started != 1 || completed != 1 {
			t.Fatalf("SessionCounts = %d, %d; want 1, 1", started, completed)
		}
	})
}

// TestConcurrentCompletionsOfOneSession: of many completions of the same session,
// through two stores as two nodes would, exactly one succeeds and one job is queued.
func TestConcurrentCompletionsOfOneSession(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		stores := openTwice(t, d)
		acct := newAccount(t, stores[0], "ada@example.com")
		f := newForm(t, stores[0], acct, "Race", "Q")
		hooked(t, stores[0], acct, f, "https://example.com/hook")
		_, err := stores[0].StartSession(ctx, f.ID, "race", "h", nil)
		must(t, err)
		codes := race(10, func(i int) error {
			_, err := stores[i%2].CompleteSession(ctx, f.ID, "race", "h", nil, func(sub *form.Submission) error {
				sub.Answers[f.Questions[0].ID] = fmt.Sprint(i)
				return nil
			})
			return err
		})
		if codes["ok"] != 1 || codes[form.AlreadyCompleted] != 9 {
			t.Fatalf("outcomes %v, want 1 ok and 9 already_completed", codes)
		}
		if jobs := claimAll(t, stores[0]); len(jobs) != 1 {
			t.Fatalf("jobs %v, want exactly one", jobs)
		}
	})
}
