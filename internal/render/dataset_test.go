package render_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"forma/internal/blob"
	"forma/internal/form"
	"forma/internal/render"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

var ctx = context.Background()

// node is one server's view of a shared database: its store and its renderer,
// with its own dataset cache.
type node struct {
	st *store.Store
	r  *render.Submissions
}

// twoNodes opens two stores on one database of dialect d (two processes sharing
// a PostgreSQL database, or one SQLite file) with a renderer each.
func twoNodes(t *testing.T, d store.Dialect) [2]node {
	url, dir := servertest.DatabaseURL(t, d), t.TempDir()
	var nodes [2]node
	for i := range nodes {
		st, err := store.Open(ctx, url, dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		blobs, err := blob.NewDisk(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		nodes[i] = node{st, render.NewSubmissions(st, blob.NewLinks("secret", "http://forma.test"), blobs)}
	}
	return nodes
}

// ids lists the ids of a dataset's responses.
func ids(t *testing.T, n node, f *form.Form) []string {
	t.Helper()
	ds, err := n.r.Dataset(ctx, f)
	if err != nil {
		t.Fatal(err)
	}
	var list []string
	for _, r := range ds.Responses {
		list = append(list, r.ID)
	}
	return list
}

// TestDatasetFollowsResponses: a kept dataset is served again while nothing
// changed, and a response added or deleted on either node, a started session or
// an edit of the form shows in the very next dataset on both.
func TestDatasetFollowsResponses(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		nodes := twoNodes(t, d)
		a, b := nodes[0], nodes[1]
		acct, err := a.st.CreateAccount(ctx, "ada@example.com", "free")
		must(t, err)
		f := &form.Form{AccountID: acct.ID, Title: "Poll", DisplayMode: form.SinglePage, Questions: []form.Question{{Type: form.Text, Text: "Q"}}}
		must(t, a.st.CreateForm(ctx, f))
		at := time.Now().UTC().Add(-time.Hour)
		var subs []form.Submission
		for i := range 3 {
			done := at.Add(time.Duration(i) * time.Minute)
			subs = append(subs, form.Submission{ID: fmt.Sprint("s", i), FormID: f.ID, StartedAt: done, UpdatedAt: done,
				CompletedAt: &done, Answers: map[int64]any{f.Questions[0].ID: "x"}})
		}
		must(t, a.st.CreateSubmissions(ctx, subs))

		first, err := a.r.Dataset(ctx, f)
		must(t, err)
		again, err := a.r.Dataset(ctx, f)
		must(t, err)
		if again != first || len(first.Responses) != 3 {
			t.Fatalf("unchanged responses: a new dataset (%v) or %d responses, want the kept one with 3", again != first, len(first.Responses))
		}
		if got := ids(t, b, f); fmt.Sprint(got) != "[s0 s1 s2]" {
			t.Fatalf("node b: %v", got)
		}

		must(t, a.st.CreateSubmission(ctx, &form.Submission{ID: "s3", FormID: f.ID, Answers: map[int64]any{}}, nil))
		for i, n := range nodes {
			if got := ids(t, n, f); fmt.Sprint(got) != "[s0 s1 s2 s3]" {
				t.Errorf("node %d after a submission on node 0: %v", i, got)
			}
		}
		if len(first.Responses) != 3 {
			t.Errorf("a dataset already served changed: %d responses", len(first.Responses))
		}
		_, err = b.st.DeleteResponse(ctx, f.ID, "s1")
		must(t, err)
		for i, n := range nodes {
			if got := ids(t, n, f); slices.Contains(got, "s1") || len(got) != 3 {
				t.Errorf("node %d after a deletion on node 1: %v", i, got)
			}
		}

		_, err = b.st.StartSession(ctx, f.ID, "open1", "hash", nil)
		must(t, err)
		ds, err := a.r.Dataset(ctx, f)
		must(t, err)
		if ds.Started != 4 || len(ds.Responses) != 3 {
			t.Errorf("after a session started on node 1: %d started, %d responses; want 4 and 3", ds.Started, len(ds.Responses))
		}
		edited, err := b.st.UpdateForm(ctx, acct.ID, f.ID, func(f *form.Form) error { f.Title = "Renamed"; return nil })
		must(t, err)
		edited.Questions = f.Questions
		if ds, err := a.r.Dataset(ctx, edited); err != nil || ds.Form.Title != "Renamed" {
			t.Errorf("after an edit of the form: %v, %v", ds.Form.Title, err)
		}
	})
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
