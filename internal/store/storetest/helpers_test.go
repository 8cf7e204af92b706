package storetest_test

import (
	"context"
	"encoding/json"
	"reflect"
	"sync"
	"testing"
	"time"

	"forma/internal/auth"
	"forma/internal/form"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

var ctx = context.Background()

// clock is a pinned clock that moves one second forward on every reading, so that
// every write gets its own, predictable time.
type clock struct {
	mu         sync.Mutex
	next, last time.Time
}

// pinClock replaces st's clock with a pinned one starting at a fixed UTC time.
func pinClock(st *store.Store) *clock {
	c := &clock{next: time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)}
	st.Now = c.Now
	return c
}

// Now returns the current pinned time and advances the clock by one second.
func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.last = c.next
	c.next = c.next.Add(time.Second)
	return c.last
}

// Last returns the time Now returned most recently.
func (c *clock) Last() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.last
}

// open returns a fresh, migrated store of dialect d with a pinned clock.
func open(t *testing.T, d store.Dialect) (*store.Store, *clock) {
	t.Helper()
	st := servertest.OpenStore(t, d)
	return st, pinClock(st)
}

// wantCode fails the test unless err is a domain error with the code.
func wantCode(t *testing.T, err error, code form.Code) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want %s", code)
	}
	if got := form.ErrorCode(err); got != code {
		t.Fatalf("got error %v (code %s), want code %s", err, got, code)
	}
}

// must fails the test on an error.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func newAccount(t *testing.T, st *store.Store, email string) *store.Account {
	t.Helper()
	a, err := st.CreateAccount(ctx, email, "free")
	must(t, err)
	return a
}

func shareToken(t *testing.T) string {
	t.Helper()
	s, err := auth.RandomString(16)
	must(t, err)
	return s
}

// newForm creates a form of the account with plain text questions of the given texts.
func newForm(t *testing.T, st *store.Store, acct *store.Account, title string, questions ...string) *form.Form {
	t.Helper()
	f := &form.Form{AccountID: acct.ID, Title: title, DisplayMode: form.SinglePage, ShareToken: shareToken(t)}
	for _, text := range questions {
		f.Questions = append(f.Questions, form.Question{Type: form.Text, Text: text})
	}
	must(t, st.CreateForm(ctx, f))
	return f
}

// newKey stores a fresh key for the account and returns the key and its record.
func newKey(t *testing.T, st *store.Store, acct *store.Account, name string, limit *int, formID *int64) (string, *store.APIKey) {
	t.Helper()
	key, hash, prefix, err := auth.NewKey()
	must(t, err)
	k := &store.APIKey{AccountID: acct.ID, Hash: hash, Prefix: prefix, Name: name, DailyLimit: limit, FormID: formID}
	must(t, st.CreateKey(ctx, k))
	return key, k
}

func ptr[T any](v T) *T { return &v }

// logicFrom decodes conditional logic the way a request body would carry it.
func logicFrom(t *testing.T, raw string) *form.ConditionalLogic {
	t.Helper()
	var l form.ConditionalLogic
	must(t, json.Unmarshal([]byte(raw), &l))
	return &l
}

// logicJSON is what a client would get back for l.
func logicJSON(t *testing.T, l *form.ConditionalLogic) string {
	t.Helper()
	b, err := json.Marshal(l)
	must(t, err)
	return string(b)
}

// sameQuestion fails unless got equals want in every stored field; logic is compared
// as the JSON a client would receive.
func sameQuestion(t *testing.T, got, want form.Question) {
	t.Helper()
	if got.ID != want.ID || got.FormID != want.FormID || got.Order != want.Order || got.Type != want.Type ||
		got.Text != want.Text || got.Required != want.Required {
		t.Errorf("question = {id %d form %d order %d %s %q required %v}, want {id %d form %d order %d %s %q required %v}",
			got.ID, got.FormID, got.Order, got.Type, got.Text, got.Required,
			want.ID, want.FormID, want.Order, want.Type, want.Text, want.Required)
	}
	if !reflect.DeepEqual(got.Options, want.Options) {
		t.Errorf("question %d options = %#v, want %#v", want.ID, got.Options, want.Options)
	}
	if !reflect.DeepEqual(got.Slider, want.Slider) {
		t.Errorf("question %d slider = %+v, want %+v", want.ID, got.Slider, want.Slider)
	}
	if !reflect.DeepEqual(got.Currency, want.Currency) {
		t.Errorf("question %d currency = %s, want %s", want.ID, jsonString(got.Currency), jsonString(want.Currency))
	}
	if (got.Logic == nil) != (want.Logic == nil) {
		t.Errorf("question %d logic = %v, want %v", want.ID, got.Logic, want.Logic)
	} else if got.Logic != nil {
		if g, w := logicJSON(t, got.Logic), logicJSON(t, want.Logic); g != w {
			t.Errorf("question %d logic = %s, want %s", want.ID, g, w)
		}
	}
}

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// ids returns the ids of qs in order.
func ids(qs []form.Question) []int64 {
	out := make([]int64, len(qs))
	for i, q := range qs {
		out[i] = q.ID
	}
	return out
}

// wantOrder fails unless f's questions are exactly want, in that order, at positions
// 1..n.
func wantOrder(t *testing.T, qs []form.Question, want ...int64) {
	t.Helper()
	if !reflect.DeepEqual(ids(qs), want) {
		t.Fatalf("question ids in order = %v, want %v", ids(qs), want)
	}
	for i, q := range qs {
		if q.Order != i+1 {
			t.Fatalf("question %d (index %d) has order %d, want %d; orders must be 1..n without gaps", q.ID, i, q.Order, i+1)
		}
	}
}

// getForm reads a form that must exist.
func getForm(t *testing.T, st *store.Store, acct *store.Account, id int64) *form.Form {
	t.Helper()
	f, err := st.GetForm(ctx, acct.ID, id)
	must(t, err)
	return f
}

func hashOf(key string) string { return auth.Hash(key) }

// race runs fn(0) … fn(n-1) at once and counts their outcomes by error code, "ok"
// for success.
func race(n int, fn func(i int) error) map[form.Code]int {
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[form.Code]int{}
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			code := form.Code("ok")
			if err := fn(i); err != nil {
				code = form.ErrorCode(err)
			}
			mu.Lock()
			codes[code]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	return codes
}

// formByToken is the form FormByShareToken returns.
func formByToken(ctx context.Context, st *store.Store, token string) (*form.Form, error) {
	c, err := st.FormByShareToken(ctx, token)
	if err != nil {
		return nil, err
	}
	return c.Form, nil
}
