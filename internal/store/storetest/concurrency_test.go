package storetest_test

import (
	"fmt"
	"sort"
	"sync"
	"testing"

	"forma/internal/form"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// TestConcurrentQuestionEditsKeepPositions adds and moves questions of one form from
// many goroutines at once, through two stores on one database as two processes
// would, and checks that every add lands and that positions stay 1..n without
// duplicates.
func TestConcurrentQuestionEditsKeepPositions(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		stores := openTwice(t, d)
		st := stores[0]
		acct := newAccount(t, st, "ada@example.com")
		f := newForm(t, st, acct, "Busy", "q1", "q2", "q3", "q4", "q5")

		const adds, moves = 20, 20
		var (
			wg     sync.WaitGroup
			mu     sync.Mutex
			orders []int
			errs   []error
			start  = make(chan struct{})
		)
		for i := range adds + moves {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				s := stores[i%len(stores)]
				var err error
				if i < adds {
					var q *form.Question
					q, err = s.AddQuestion(ctx, acct.ID, f.ID, textQuestion(fmt.Sprintf("added %d", i)))
					if err == nil {
						mu.Lock()
						orders = append(orders, q.Order)
						mu.Unlock()
					}
				} else {
					// Move one of the original questions to a position that exists
					// whatever the adds have done so far.
					moving := f.Questions[i%len(f.Questions)].ID
					_, err = s.UpdateQuestion(ctx, acct.ID, f.ID, moving, ptr(1+i%5), func(*form.Question, []form.Question) error { return nil })
				}
				if err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}()
		}
		close(start)
		wg.Wait()
		for _, err := range errs {
			t.Errorf("concurrent edit failed: %v", err)
		}

		// Every add got its own position after the five originals.
		sort.Ints(orders)
		for i, o := range orders {
			if o != len(f.Questions)+i+1 {
				t.Fatalf("positions given to concurrent adds = %v, want %d..%d once each", orders, len(f.Questions)+1, len(f.Questions)+adds)
			}
		}
		got := getForm(t, st, acct, f.ID).Questions
		if len(got) != len(f.Questions)+adds {
			t.Fatalf("form has %d questions after %d concurrent adds to %d, want %d", len(got), adds, len(f.Questions), len(f.Questions)+adds)
		}
		seen := map[int64]bool{}
		for i, q := range got {
			if q.Order != i+1 || seen[q.ID] {
				t.Fatalf("after concurrent edits question %d (index %d) has order %d; orders must be 1..n, each question once", q.ID, i, q.Order)
			}
			seen[q.ID] = true
		}
	})
}
