package storetest_test

import (
	"fmt"
	"testing"

	"forma/internal/form"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// formChanges are the store's ways of changing a form or its questions, each
// with a check that a later lookup of f shows it.
func formChanges(t *testing.T, st *store.Store, acct *store.Account, f *form.Form) []struct {
	name   string
	change func()
	shown  func(got *form.Form) bool
} {
	text := func(got *form.Form, i int) string {
		if i >= len(got.Questions) {
			return ""
		}
		return got.Questions[i].Text
	}
	var added int64
	return []struct {
		name   string
		change func()
		shown  func(got *form.Form) bool
	}{
		{"UpdateForm", func() {
			_, err := st.UpdateForm(ctx, acct.ID, f.ID, func(g *form.Form) error { g.Title = "Renamed"; return nil })
			must(t, err)
		}, func(got *form.Form) bool { return got.Title == "Renamed" }},
		{"AddQuestion", func() {
			q, err := st.AddQuestion(ctx, acct.ID, f.ID, func([]form.Question) (form.Question, error) {
				return form.Question{Type: form.Text, Text: "Added"}, nil
			})
			must(t, err)
			added = q.ID
		}, func(got *form.Form) bool { return text(got, 2) == "Added" }},
		{"UpdateQuestion", func() {
			_, err := st.UpdateQuestion(ctx, acct.ID, f.ID, added, ptr(1), func(q *form.Question, _ []form.Question) error {
				q.Text = "Moved"
				return nil
			})
			must(t, err)
		}, func(got *form.Form) bool { return text(got, 0) == "Moved" }},
		{"DeleteQuestion", func() {
			must(t, st.DeleteQuestion(ctx, acct.ID, f.ID, added))
		}, func(got *form.Form) bool { return len(got.Questions) == 2 && text(got, 0) == "First" }},
		{"unpublish", func() {
			_, err := st.UpdateForm(ctx, acct.ID, f.ID, func(g *form.Form) error { g.SetPublished(false, st.Now()); return nil })
			must(t, err)
		}, func(got *form.Form) bool { return !got.IsPublished() }},
	}
}

// TestFormCacheShowsEveryChange: the form cache serves one shared form while it
// is unchanged, and every change of the form or its questions, made on this
// node or (PostgreSQL) on another node over the same database, shows on the
// very next lookup by share token and by id; a deleted form is not found.
func TestFormCacheShowsEveryChange(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		t.Run("one node", func(t *testing.T) {
			st, _ := open(t, d)
			checkFormCache(t, st, st)
		})
		if d == store.Postgres {
			t.Run("two nodes", func(t *testing.T) {
				nodes := servertest.OpenStores(t, 2)
				pinClock(nodes[0])
				checkFormCache(t, nodes[0], nodes[1])
			})
		}
	})
}

// checkFormCache makes every change through writer and looks the form up through
// reader, which has it cached from before.
func checkFormCache(t *testing.T, writer, reader *store.Store) {
	acct := newAccount(t, writer, "ada@example.com")
	f := newForm(t, writer, acct, "Cached", "First", "Second")
	_, err := writer.UpdateForm(ctx, acct.ID, f.ID, func(g *form.Form) error { g.SetPublished(true, writer.Now()); return nil })
	must(t, err)
	lookup := func() *store.CachedForm {
		t.Helper()
		byToken, err := reader.FormByShareToken(ctx, f.ShareToken)
		must(t, err)
		byID, err := reader.CachedForm(ctx, acct.ID, f.ID)
		must(t, err)
		if byID != byToken {
			t.Fatalf("the form by id and by share token are two copies")
		}
		return byToken
	}
	before := lookup()
	if again := lookup(); again != before {
		t.Fatalf("an unchanged form was loaded again instead of served from the cache")
	}
	for _, c := range formChanges(t, writer, acct, f) {
		c.change()
		got := lookup()
		if got == before || !c.shown(got.Form) {
			t.Fatalf("after %s the next lookup shows %+v", c.name, *got.Form)
		}
		before = got
	}
	other := newAccount(t, writer, "bob@example.com")
	_, err = reader.CachedForm(ctx, other.ID, f.ID)
	wantCode(t, err, form.NotFound)
	_, err = writer.DeleteForm(ctx, acct.ID, f.ID)
	must(t, err)
	_, err = reader.FormByShareToken(ctx, f.ShareToken)
	wantCode(t, err, form.NotFound)
	_, err = reader.CachedForm(ctx, acct.ID, f.ID)
	wantCode(t, err, form.NotFound)
}

// TestFormCacheKeepsNoLoadThatRacedAChange: while readers load a form over and
// over, each change is visible to the first lookup after it returns, so a
// load that read the form before a change never stays cached after it.
func TestFormCacheKeepsNoLoadThatRacedAChange(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		f := newForm(t, st, acct, "v0", "Question")
		stop := make(chan struct{})
		done := make(chan error, 4)
		for range 4 {
			go func() {
				for {
					select {
					case <-stop:
						done <- nil
						return
					default:
					}
					if _, err := st.FormByShareToken(ctx, f.ShareToken); err != nil {
						done <- err
						return
					}
				}
			}()
		}
		for i := 1; i <= 30; i++ {
			title := fmt.Sprintf("v%d", i)
			_, err := st.UpdateForm(ctx, acct.ID, f.ID, func(g *form.Form) error { g.Title = title; return nil })
			must(t, err)
			got, err := st.FormByShareToken(ctx, f.ShareToken)
			must(t, err)
			if got.Form.Title != title {
				t.Errorf("after saving %q the next lookup shows %q", title, got.Form.Title)
			}
		}
		close(stop)
		for range 4 {
			must(t, <-done)
		}
	})
}
