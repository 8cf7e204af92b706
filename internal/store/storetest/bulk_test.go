package storetest_test

import (
	"fmt"
	"testing"

	"forma/internal/form"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// TestLoadSubmissions: a load larger than one INSERT stores every submission as
// given; a load with a taken id stores none; forms whose submissions set
// something off, and submissions that are not loadable, are refused.
func TestLoadSubmissions(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, c := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		f := newForm(t, st, acct, "Load", "Q")
		at := c.Now()
		subs := make([]form.Submission, 1201)
		for i := range subs {
			score := float64(i)
			subs[i] = form.Submission{ID: fmt.Sprintf("l%04d", i), FormID: f.ID, StartedAt: at, UpdatedAt: at, CompletedAt: &at,
				Answers: map[int64]any{f.Questions[0].ID: fmt.Sprint(i)}, Score: &score}
		}
		must(t, st.LoadSubmissions(ctx, f.ID, subs))
		if _, total, err := st.ListResponses(ctx, f.ID, store.ResponseFilter{}, 1, 0); err != nil || total != len(subs) {
			t.Fatalf("%d responses (%v), want %d", total, err, len(subs))
		}
		got, err := st.GetResponse(ctx, f.ID, "l1200")
		must(t, err)
		if !got.SubmittedAt().Equal(at) || got.Answers[f.Questions[0].ID] != "1200" || got.Score == nil || *got.Score != 1200 {
			t.Fatalf("stored %+v, want it as given", got)
		}

		other := newForm(t, st, acct, "Other", "Q")
		again := []form.Submission{subs[0], subs[1]}
		again[0].ID, again[0].FormID, again[1].FormID = "fresh", other.ID, other.ID
		wantCode(t, st.LoadSubmissions(ctx, other.ID, again), form.Conflict)
		if _, total, err := st.ListResponses(ctx, other.ID, store.ResponseFilter{}, 1, 0); err != nil || total != 0 {
			t.Fatalf("after a failed load: %d responses, %v", total, err)
		}

		wantCode(t, st.LoadSubmissions(ctx, other.ID, subs[:1]), form.Invalid) // another form's
		hooked(t, st, acct, other, "https://example.com/hook")
		wantCode(t, st.LoadSubmissions(ctx, other.ID, again[:1]), form.Invalid)
		files := &form.Form{AccountID: acct.ID, Title: "Files", DisplayMode: form.SinglePage, ShareToken: shareToken(t),
			Questions: []form.Question{{Type: form.FileUpload, Text: "CV"}}}
		must(t, st.CreateForm(ctx, files))
		again[0].FormID = files.ID
		wantCode(t, st.LoadSubmissions(ctx, files.ID, again[:1]), form.Invalid)
		wantCode(t, st.LoadSubmissions(ctx, 1<<40, nil), form.NotFound)
		if jobs := claimAll(t, st); len(jobs) != 0 {
			t.Fatalf("a load queued %v", jobs)
		}
	})
}
