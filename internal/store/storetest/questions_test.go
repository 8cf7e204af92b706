package storetest_test

import (
	"errors"
	"fmt"
	"testing"

	"forma/internal/form"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

func textQuestion(text string) func([]form.Question) (form.Question, error) {
	return func([]form.Question) (form.Question, error) {
		return form.Question{Type: form.Text, Text: text}, nil
	}
}

func TestAddQuestionAppends(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, c := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		f := newForm(t, st, acct, "Form", "q1", "q2")

		var seen []int64
		q, err := st.AddQuestion(ctx, acct.ID, f.ID, func(existing []form.Question) (form.Question, error) {
			seen = ids(existing)
			// Whatever order the builder asks for, a new question goes last.
			return form.Question{Type: form.Select, Text: "Third", Required: true, Options: []string{"x", "y"}, Order: 1}, nil
		})
		must(t, err)
		if fmt.Sprint(seen) != fmt.Sprint(ids(f.Questions)) {
			t.Fatalf("builder saw questions %v, want %v", seen, ids(f.Questions))
		}
		if q.ID == 0 || q.FormID != f.ID || q.Order != 3 {
			t.Fatalf("added question has id %d, form %d, order %d; want an id, form %d, order 3", q.ID, q.FormID, q.Order, f.ID)
		}
		touched := c.Last()

		got := getForm(t, st, acct, f.ID)
		wantOrder(t, got.Questions, f.Questions[0].ID, f.Questions[1].ID, q.ID)
		sameQuestion(t, got.Questions[2], *q)
		if !got.UpdatedAt.Equal(touched) || !got.CreatedAt.Equal(f.CreatedAt) {
			t.Fatalf("form updated/created = %v/%v after adding a question, want %v/%v", got.UpdatedAt, got.CreatedAt, touched, f.CreatedAt)
		}

		// Adding to an empty form starts at 1.
		empty := newForm(t, st, acct, "Empty")
		q, err = st.AddQuestion(ctx, acct.ID, empty.ID, textQuestion("first"))
		must(t, err)
		if q.Order != 1 {
			t.Fatalf("first question of an empty form has order %d, want 1", q.Order)
		}
	})
}

func TestAddQuestionBuilderErrorAddsNothing(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		f := newForm(t, st, acct, "Form", "q1")
		before := getForm(t, st, acct, f.ID)

		refused := form.FieldInvalid("question", "is required")
		_, err := st.AddQuestion(ctx, acct.ID, f.ID, func([]form.Question) (form.Question, error) {
			return form.Question{Type: form.Text, Text: "half-built"}, refused
		})
		if !errors.Is(err, refused) {
			t.Fatalf("AddQuestion returned %v, want the builder's error", err)
		}
		after := getForm(t, st, acct, f.ID)
		wantOrder(t, after.Questions, f.Questions[0].ID)
		if !after.UpdatedAt.Equal(before.UpdatedAt) {
			t.Fatalf("a refused question touched the form: updated %v, was %v", after.UpdatedAt, before.UpdatedAt)
		}

		// Another account cannot add to the form, and its builder never runs.
		bob := newAccount(t, st, "bob@example.com")
		_, err = st.AddQuestion(ctx, bob.ID, f.ID, func([]form.Question) (form.Question, error) {
			t.Error("builder ran for another account's form")
			return form.Question{Type: form.Text, Text: "intruder"}, nil
		})
		wantCode(t, err, form.NotFound)
		wantOrder(t, getForm(t, st, acct, f.ID).Questions, f.Questions[0].ID)
	})
}

func TestAddQuestionRefusesPastMaximum(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		texts := make([]string, form.MaxQuestions)
		for i := range texts {
			texts[i] = fmt.Sprintf("q%d", i+1)
		}
		f := newForm(t, st, acct, "Full", texts...)
		_, err := st.AddQuestion(ctx, acct.ID, f.ID, textQuestion("one too many"))
		wantCode(t, err, form.Invalid)
		if n := len(getForm(t, st, acct, f.ID).Questions); n != form.MaxQuestions {
			t.Fatalf("the full form has %d questions, want %d", n, form.MaxQuestions)
		}
	})
}

func TestUpdateQuestionSavesChanges(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, c := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		f := newForm(t, st, acct, "Form", "q1", "q2", "q3")
		target := f.Questions[1]
		logic := logicFrom(t, fmt.Sprintf(`{"showIf":{"questionId":%d,"operator":"not_equals","value":"no"}}`, f.Questions[0].ID))

		var others []int64
		q, err := st.UpdateQuestion(ctx, acct.ID, f.ID, target.ID, nil, func(q *form.Question, o []form.Question) error {
			others = ids(o)
			q.Type, q.Text, q.Required = form.MultiSelect, "Changed", true
			q.Options, q.Logic = []string{"one", "two"}, logic
			return nil
		})
		must(t, err)
		if fmt.Sprint(others) != fmt.Sprint([]int64{f.Questions[0].ID, f.Questions[2].ID}) {
			t.Fatalf("change saw others %v, want every other question in order", others)
		}
		want := form.Question{ID: target.ID, FormID: f.ID, Order: 2, Type: form.MultiSelect, Text: "Changed",
			Required: true, Options: []string{"one", "two"}, Logic: logic}
		sameQuestion(t, *q, want)
		got := getForm(t, st, acct, f.ID)
		wantOrder(t, got.Questions, ids(f.Questions)...)
		sameQuestion(t, got.Questions[1], want)
		sameQuestion(t, got.Questions[0], f.Questions[0])
		sameQuestion(t, got.Questions[2], f.Questions[2])
		if !got.UpdatedAt.Equal(c.Last()) {
			t.Fatalf("form updated at %v after changing a question, want %v", got.UpdatedAt, c.Last())
		}

		// Settings can be removed again.
		_, err = st.UpdateQuestion(ctx, acct.ID, f.ID, target.ID, nil, func(q *form.Question, _ []form.Question) error {
			q.Type, q.Options, q.Logic = form.Text, nil, nil
			return nil
		})
		must(t, err)
		want.Type, want.Options, want.Logic = form.Text, nil, nil
		sameQuestion(t, getForm(t, st, acct, f.ID).Questions[1], want)
	})
}

func TestUpdateQuestionMove(t *testing.T) {
	// Questions are named by their original position 1..5.
	cases := []struct {
		name       string
		from, to   int
		wantByOrig []int
	}{
		{"down", 2, 4, []int{1, 3, 4, 2, 5}},
		{"up", 4, 2, []int{1, 4, 2, 3, 5}},
		{"first to last", 1, 5, []int{2, 3, 4, 5, 1}},
		{"last to first", 5, 1, []int{5, 1, 2, 3, 4}},
		{"one down", 3, 4, []int{1, 2, 4, 3, 5}},
		{"one up", 3, 2, []int{1, 3, 2, 4, 5}},
		{"in place", 3, 3, []int{1, 2, 3, 4, 5}},
	}
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				f := newForm(t, st, acct, c.name, "q1", "q2", "q3", "q4", "q5")
				moving := f.Questions[c.from-1]
				q, err := st.UpdateQuestion(ctx, acct.ID, f.ID, moving.ID, ptr(c.to), func(q *form.Question, _ []form.Question) error {
					q.Text = "moved"
					return nil
				})
				must(t, err)
				if q.Order != c.to || q.Text != "moved" {
					t.Fatalf("moved question came back with order %d, text %q; want %d, moved", q.Order, q.Text, c.to)
				}
				var want []int64
				for _, orig := range c.wantByOrig {
					want = append(want, f.Questions[orig-1].ID)
				}
				got := getForm(t, st, acct, f.ID).Questions
				wantOrder(t, got, want...)
				if got[c.to-1].Text != "moved" {
					t.Fatalf("the text change was not saved with the move")
				}
			})
		}

		// Several moves in a row keep positions 1..n, also after a deletion.
		f := newForm(t, st, acct, "several", "a", "b", "c", "d")
		a, b, cc, dd := f.Questions[0].ID, f.Questions[1].ID, f.Questions[2].ID, f.Questions[3].ID
		move := func(id int64, to int) {
			t.Helper()
			_, err := st.UpdateQuestion(ctx, acct.ID, f.ID, id, ptr(to), func(*form.Question, []form.Question) error { return nil })
			must(t, err)
		}
		move(a, 4)
		wantOrder(t, getForm(t, st, acct, f.ID).Questions, b, cc, dd, a)
		move(dd, 1)
		wantOrder(t, getForm(t, st, acct, f.ID).Questions, dd, b, cc, a)
		must(t, st.DeleteQuestion(ctx, acct.ID, f.ID, b))
		wantOrder(t, getForm(t, st, acct, f.ID).Questions, dd, cc, a)
		move(a, 1)
		wantOrder(t, getForm(t, st, acct, f.ID).Questions, a, dd, cc)
		move(dd, 3)
		wantOrder(t, getForm(t, st, acct, f.ID).Questions, a, cc, dd)
	})
}

func TestUpdateQuestionInvalidMoveChangesNothing(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		f := newForm(t, st, acct, "Form", "q1", "q2", "q3")
		before := getForm(t, st, acct, f.ID)
		for _, to := range []int{0, -1, 4, 100} {
			_, err := st.UpdateQuestion(ctx, acct.ID, f.ID, f.Questions[1].ID, ptr(to), func(q *form.Question, _ []form.Question) error {
				q.Text = "should not be saved"
				return nil
			})
			wantCode(t, err, form.Invalid)
			after := getForm(t, st, acct, f.ID)
			wantOrder(t, after.Questions, ids(f.Questions)...)
			for i := range after.Questions {
				sameQuestion(t, after.Questions[i], before.Questions[i])
			}
			if !after.UpdatedAt.Equal(before.UpdatedAt) {
				t.Fatalf("moveTo %d touched the form", to)
			}
		}
	})
}

func TestUpdateQuestionChangeErrorChangesNothing(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		f := newForm(t, st, acct, "Form", "q1", "q2", "q3")
		before := getForm(t, st, acct, f.ID)
		refused := errors.New("refused")
		_, err := st.UpdateQuestion(ctx, acct.ID, f.ID, f.Questions[0].ID, ptr(3), func(q *form.Question, _ []form.Question) error {
			q.Text, q.Required = "should not be saved", true
			return refused
		})
		if !errors.Is(err, refused) {
			t.Fatalf("UpdateQuestion returned %v, want the change function's error", err)
		}
		after := getForm(t, st, acct, f.ID)
		wantOrder(t, after.Questions, ids(f.Questions)...)
		for i := range after.Questions {
			sameQuestion(t, after.Questions[i], before.Questions[i])
		}
		if !after.UpdatedAt.Equal(before.UpdatedAt) {
			t.Fatal("a refused change touched the form")
		}
	})
}

func TestUpdateQuestionNotFound(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		ada := newAccount(t, st, "ada@example.com")
		bob := newAccount(t, st, "bob@example.com")
		f := newForm(t, st, ada, "Form", "q1", "q2")
		g := newForm(t, st, ada, "Other form", "x")
		deleted := f.Questions[1].ID
		must(t, st.DeleteQuestion(ctx, ada.ID, f.ID, deleted))

		noChange := func(*form.Question, []form.Question) error {
			t.Error("change ran for a question that should not be found")
			return nil
		}
		for _, c := range []struct {
			name             string
			account, form, q int64
		}{
			{"unknown question", ada.ID, f.ID, deleted + 1000},
			{"question of another form", ada.ID, f.ID, g.Questions[0].ID},
			{"deleted question", ada.ID, f.ID, deleted},
			{"another account's form", bob.ID, f.ID, f.Questions[0].ID},
			{"unknown form", ada.ID, g.ID + 1000, f.Questions[0].ID},
		} {
			_, err := st.UpdateQuestion(ctx, c.account, c.form, c.q, nil, noChange)
			if form.ErrorCode(err) != form.NotFound {
				t.Errorf("%s: got %v, want not_found", c.name, err)
			}
		}
		wantOrder(t, getForm(t, st, ada, g.ID).Questions, g.Questions[0].ID)
	})
}

func TestDeleteQuestionShiftsLaterOnes(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, c := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		f := newForm(t, st, acct, "Form", "q1", "q2", "q3", "q4")
		q1, q2, q3, q4 := f.Questions[0].ID, f.Questions[1].ID, f.Questions[2].ID, f.Questions[3].ID

		must(t, st.DeleteQuestion(ctx, acct.ID, f.ID, q2))
		got := getForm(t, st, acct, f.ID)
		wantOrder(t, got.Questions, q1, q3, q4)
		if !got.UpdatedAt.Equal(c.Last()) {
			t.Fatalf("form updated at %v after deleting a question, want %v", got.UpdatedAt, c.Last())
		}
		byToken, err := formByToken(ctx, st, f.ShareToken)
		must(t, err)
		wantOrder(t, byToken.Questions, q1, q3, q4)

		must(t, st.DeleteQuestion(ctx, acct.ID, f.ID, q4)) // the last one
		wantOrder(t, getForm(t, st, acct, f.ID).Questions, q1, q3)
		must(t, st.DeleteQuestion(ctx, acct.ID, f.ID, q1)) // the first one
		wantOrder(t, getForm(t, st, acct, f.ID).Questions, q3)

		// A question added afterwards goes right after the remaining ones.
		q, err := st.AddQuestion(ctx, acct.ID, f.ID, textQuestion("new"))
		must(t, err)
		if q.Order != 2 {
			t.Fatalf("question added after deletions has order %d, want 2", q.Order)
		}
		wantOrder(t, getForm(t, st, acct, f.ID).Questions, q3, q.ID)

		// And deleting everything leaves an empty, non-nil list.
		must(t, st.DeleteQuestion(ctx, acct.ID, f.ID, q3))
		must(t, st.DeleteQuestion(ctx, acct.ID, f.ID, q.ID))
		if qs := getForm(t, st, acct, f.ID).Questions; qs == nil || len(qs) != 0 {
			t.Fatalf("questions after deleting all = %#v, want an empty slice", qs)
		}
	})
}

func TestDeleteQuestionReferencedByLogicIsConflict(t *testing.T) {
	// Each case is logic on the last question that refers to question "ref" in
	// another way.
	cases := []struct {
		name  string
		logic string // %[1]d is the referenced id
	}{
		{"showIf", `{"showIf":{"questionId":%[1]d,"operator":"equals","value":"yes"}}`},
		{"condition", `{"advanced":{"conditionGroups":[{"id":"g","operator":"AND","conditions":[{"id":"c","questionId":%[1]d,"operator":"is_not_empty"}]}],"actions":[{"type":"end_form"}]}}`},
		{"action target as string", `{"advanced":{"conditionGroups":[{"id":"g","operator":"AND","conditions":[{"id":"c","questionId":%[2]d,"operator":"is_empty"}]}],"actions":[{"type":"skip_to_question","targetId":"%[1]d"}]}}`},
		{"dynamic value", `{"advanced":{"conditionGroups":[{"id":"g","operator":"AND","conditions":[{"id":"c","questionId":%[2]d,"operator":"equals","valueType":"dynamic","value":%[1]d}]}],"actions":[{"type":"end_form"}]}}`},
		{"score rule", `{"advanced":{"conditionGroups":[],"actions":[],"scoreRules":[{"id":"s","questionId":%[1]d,"scoreMap":{"a":1}}]}}`},
	}
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				f := newForm(t, st, acct, c.name, "referenced", "neutral", "with logic")
				ref, neutral, owner := f.Questions[0].ID, f.Questions[1].ID, f.Questions[2].ID
				logic := logicFrom(t, fmt.Sprintf(c.logic, ref, neutral))
				_, err := st.UpdateQuestion(ctx, acct.ID, f.ID, owner, nil, func(q *form.Question, _ []form.Question) error {
					q.Logic = logic
					return nil
				})
				must(t, err)
				before := getForm(t, st, acct, f.ID)

				wantCode(t, st.DeleteQuestion(ctx, acct.ID, f.ID, ref), form.Conflict)
				after := getForm(t, st, acct, f.ID)
				wantOrder(t, after.Questions, ref, neutral, owner)
				sameQuestion(t, after.Questions[2], before.Questions[2])
				if !after.UpdatedAt.Equal(before.UpdatedAt) {
					t.Fatal("a refused delete touched the form")
				}

				// The question that owns the logic, and unrelated ones, can go;
				// once the logic is gone the referenced one can too.
				if c.name == "showIf" || c.name == "condition" || c.name == "score rule" {
					must(t, st.DeleteQuestion(ctx, acct.ID, f.ID, neutral))
					wantOrder(t, getForm(t, st, acct, f.ID).Questions, ref, owner)
				}
				_, err = st.UpdateQuestion(ctx, acct.ID, f.ID, owner, nil, func(q *form.Question, _ []form.Question) error {
					q.Logic = nil
					return nil
				})
				must(t, err)
				must(t, st.DeleteQuestion(ctx, acct.ID, f.ID, ref))
				qs := getForm(t, st, acct, f.ID).Questions
				if len(qs) == 0 || qs[len(qs)-1].ID != owner || qs[0].Order != 1 {
					t.Fatalf("after removing the logic and deleting, questions are %v", ids(qs))
				}
			})
		}

		// A question's logic referring to itself does not keep it.
		f := newForm(t, st, acct, "self", "only")
		self := f.Questions[0].ID
		_, err := st.UpdateQuestion(ctx, acct.ID, f.ID, self, nil, func(q *form.Question, _ []form.Question) error {
			q.Logic = logicFrom(t, fmt.Sprintf(`{"showIf":{"questionId":%d,"operator":"equals","value":"x"}}`, self))
			return nil
		})
		must(t, err)
		must(t, st.DeleteQuestion(ctx, acct.ID, f.ID, self))
	})
}

func TestDeleteQuestionNotFound(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		ada := newAccount(t, st, "ada@example.com")
		bob := newAccount(t, st, "bob@example.com")
		f := newForm(t, st, ada, "Form", "q1", "q2")
		g := newForm(t, st, ada, "Other form", "x")
		q1, q2 := f.Questions[0].ID, f.Questions[1].ID

		wantCode(t, st.DeleteQuestion(ctx, ada.ID, f.ID, q2+1000), form.NotFound)
		wantCode(t, st.DeleteQuestion(ctx, ada.ID, f.ID, g.Questions[0].ID), form.NotFound)
		wantCode(t, st.DeleteQuestion(ctx, bob.ID, f.ID, q1), form.NotFound)
		wantCode(t, st.DeleteQuestion(ctx, ada.ID, f.ID+1000, q1), form.NotFound)
		wantOrder(t, getForm(t, st, ada, f.ID).Questions, q1, q2)
		wantOrder(t, getForm(t, st, ada, g.ID).Questions, g.Questions[0].ID)

		must(t, st.DeleteQuestion(ctx, ada.ID, f.ID, q1))
		wantCode(t, st.DeleteQuestion(ctx, ada.ID, f.ID, q1), form.NotFound) // already deleted
		wantOrder(t, getForm(t, st, ada, f.ID).Questions, q2)
	})
}
