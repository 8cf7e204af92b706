package storetest_test

import (
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"forma/internal/form"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// TestHiddenValuesAreStoredWithSubmissions: the hidden values of one-shot,
// loaded and session submissions are stored with them and read back by every
// read; a session's values are saved and completed with it; a submission
// without any has none.
func TestHiddenValuesAreStoredWithSubmissions(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		f := newForm(t, st, acct, "Signup", "Name")
		name := f.Questions[0].ID
		one := &form.Submission{ID: "one", FormID: f.ID, Answers: map[int64]any{name: "Ada"},
			Hidden: form.HiddenValues{"utm_source": "newsletter", "uid": "<b>u-1</b>"}}
		must(t, st.CreateSubmission(ctx, one, nil))
		must(t, st.CreateSubmission(ctx, &form.Submission{ID: "plain", FormID: f.ID, Answers: map[int64]any{name: "Bo"}}, nil))
		at := time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC)
		must(t, st.LoadSubmissions(ctx, f.ID, []form.Submission{{ID: "loaded", FormID: f.ID, StartedAt: at, UpdatedAt: at,
			CompletedAt: &at, Answers: map[int64]any{}, Hidden: form.HiddenValues{"utm_source": "import"}}}))

		_, err := st.StartSession(ctx, f.ID, "steps", "h", form.HiddenValues{"utm_source": "ads"})
		must(t, err)
		_, err = st.UpdateSession(ctx, f.ID, "steps", "h", func(sub *form.Submission) error {
			sub.Hidden = sub.Hidden.Merge(form.HiddenValues{"uid": "u-2"})
			return nil
		})
		must(t, err)
		open, err := st.GetSession(ctx, f.ID, "steps", "h")
		must(t, err)
		if !maps.Equal(open.Hidden, form.HiddenValues{"utm_source": "ads", "uid": "u-2"}) {
			t.Fatalf("saved session's hidden values %v", open.Hidden)
		}
		_, err = st.CompleteSession(ctx, f.ID, "steps", "h", nil, func(sub *form.Submission) error {
			sub.Answers[name] = "Cy"
			return nil
		})
		must(t, err)

		want := map[string]form.HiddenValues{
			"one": one.Hidden, "plain": nil, "loaded": {"utm_source": "import"},
			"steps": {"utm_source": "ads", "uid": "u-2"},
		}
		list, _, err := st.ListResponses(ctx, f.ID, store.ResponseFilter{}, 10, 0)
		must(t, err)
		var exported []form.Submission
		must(t, st.EachResponse(ctx, f.ID, store.ResponseFilter{}, func(sub *form.Submission) error {
			exported = append(exported, *sub)
			return nil
		}))
		byIDs, err := st.GetResponses(ctx, f.ID, slices.Collect(maps.Keys(want)))
		must(t, err)
		for what, subs := range map[string][]form.Submission{"list": list, "export": exported, "by ids": byIDs} {
			if len(subs) != len(want) {
				t.Errorf("%s: %d responses, want %d", what, len(subs), len(want))
			}
			for _, sub := range subs {
				if !maps.Equal(sub.Hidden, want[sub.ID]) {
					t.Errorf("%s: %s has hidden values %v, want %v", what, sub.ID, sub.Hidden, want[sub.ID])
				}
			}
		}
		got, err := st.GetResponse(ctx, f.ID, "one")
		must(t, err)
		if !maps.Equal(got.Hidden, one.Hidden) {
			t.Errorf("GetResponse: %v", got.Hidden)
		}
	})
}

// TestMatchedPagesEqualTheFilteredList: with a Match filter, every page (by
// offset, in both orders, with a time range) and every keyset walk holds exactly
// the rows of the whole list that Match accepts, in its order, and the total
// counts them. The ids tie on time in threes and mix case, digits, - and _, so
// that the walk must follow the database's order of ids.
func TestMatchedPagesEqualTheFilteredList(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		f := newForm(t, st, acct, "Big", "Q")
		base := time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC)
		subs := make([]form.Submission, 90)
		for i := range subs {
			at := base.Add(time.Duration(i/3) * time.Second)
			subs[i] = form.Submission{ID: fmt.Sprintf("%c%03d", "aB-_zZ9"[i%7], (i*37)%90), FormID: f.ID, StartedAt: at,
				UpdatedAt: at, CompletedAt: &at, Answers: map[int64]any{f.Questions[0].ID: fmt.Sprint(i % 4)}}
		}
		must(t, st.CreateSubmissions(ctx, subs))
		match := func(sub *form.Submission) bool { return sub.Answers[f.Questions[0].ID] != "1" }
		since := base.Add(5 * time.Second)
		for _, bounds := range []store.ResponseFilter{{}, {Ascending: true}, {Since: &since}, {Until: &since, Ascending: true}} {
			whole, _, err := st.ListResponses(ctx, f.ID, bounds, 500, 0)
			must(t, err)
			want := slices.DeleteFunc(slices.Clone(whole), func(s form.Submission) bool { return !match(&s) })
			filter := bounds
			filter.Match = match
			for _, p := range []struct{ limit, offset int }{{1, 0}, {7, 0}, {500, 0}, {7, 3}, {10, 60}, {5, len(want) - 2}, {5, 1000}} {
				page, total, err := st.ListResponses(ctx, f.ID, filter, p.limit, p.offset)
				must(t, err)
				end := min(len(want), p.offset+p.limit)
				if total != len(want) || !slices.Equal(responseIDs(page), responseIDs(want[min(p.offset, end):end])) {
					t.Errorf("%+v limit %d offset %d: %v (total %d), want %v (total %d)", bounds, p.limit, p.offset,
						responseIDs(page), total, responseIDs(want[min(p.offset, end):end]), len(want))
				}
			}
			var walked []form.Submission
			for {
				page, total, err := st.ListResponses(ctx, f.ID, filter, 4, 0)
				must(t, err)
				if total != len(want) {
					t.Fatalf("a page after a key says total %d, want %d", total, len(want))
				}
				if len(page) == 0 {
					break
				}
				walked = append(walked, page...)
				last := page[len(page)-1]
				filter.After = &store.ResponseKey{CompletedAt: *last.CompletedAt, ID: last.ID}
			}
			if !slices.Equal(responseIDs(walked), responseIDs(want)) {
				t.Errorf("%+v: walked %v, want %v", bounds, responseIDs(walked), responseIDs(want))
			}
			var exported []form.Submission
			must(t, st.EachResponse(ctx, f.ID, store.ResponseFilter{Since: bounds.Since, Until: bounds.Until, Ascending: bounds.Ascending,
				Match: match}, func(sub *form.Submission) error {
				exported = append(exported, *sub)
				return nil
			}))
			if !slices.Equal(responseIDs(exported), responseIDs(want)) {
				t.Errorf("%+v: exported %v, want %v", bounds, responseIDs(exported), responseIDs(want))
			}
		}
	})
}

// TestMatchRefusesAFormTooLargeToScan: a Match filter reads at most
// Store.MatchScan submissions of its time range; a list page over more is
// Invalid, naming filter, and a narrower time range is read; an export is not
// bounded.
func TestMatchRefusesAFormTooLargeToScan(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		st.MatchScan = 20
		f := newForm(t, st, newAccount(t, st, "ada@example.com"), "Huge", "Q")
		base := time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC)
		subs := make([]form.Submission, st.MatchScan+1)
		for i := range subs {
			at := base.Add(time.Duration(i) * time.Millisecond)
			subs[i] = form.Submission{ID: fmt.Sprintf("r%06d", i), FormID: f.ID, StartedAt: at, UpdatedAt: at, CompletedAt: &at,
				Answers: map[int64]any{}}
		}
		must(t, st.LoadSubmissions(ctx, f.ID, subs))
		all := func(*form.Submission) bool { return true }
		_, _, err := st.ListResponses(ctx, f.ID, store.ResponseFilter{Match: all}, 10, 0)
		wantCode(t, err, form.Invalid)
		if fe := err.(*form.Error); fe.Fields[0].Field != "filter" {
			t.Errorf("refusal names %q, want filter", fe.Fields[0].Field)
		}
		since := base.Add(time.Millisecond)
		page, total, err := st.ListResponses(ctx, f.ID, store.ResponseFilter{Since: &since, Match: all}, 10, 0)
		must(t, err)
		if total != st.MatchScan || len(page) != 10 {
			t.Errorf("a range of %d: total %d, %d rows", st.MatchScan, total, len(page))
		}
		n := 0
		must(t, st.EachResponse(ctx, f.ID, store.ResponseFilter{Match: all}, func(*form.Submission) error { n++; return nil }))
		if n != len(subs) {
			t.Errorf("exported %d, want %d", n, len(subs))
		}
	})
}
