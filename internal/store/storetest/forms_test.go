package storetest_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"forma/internal/form"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// richQuestions are questions of every stored shape: options with awkward text,
// slider and currency settings with fractions, empty and missing settings.
func richQuestions() []form.Question {
	return []form.Question{
		{Type: form.Text, Text: "Your name 🙂", Required: true},
		{Type: form.Select, Text: "Pick one", Options: []string{"Ünïcödé ✓", `quote " and \ backslash`, "<b>html</b>", "  spaced  "}},
		{Type: form.MultiSelect, Text: "Pick some", Options: []string{"a", "b"}, Required: true},
		{Type: form.Slider, Text: "How much?", Slider: &form.SliderConfig{Min: -2.5, Max: 10, Step: 0.1}},
		{Type: form.Currency, Text: "Budget", Currency: &form.CurrencyConfig{Currency: "EUR", Min: ptr(0.0), Max: ptr(99.99)}},
		{Type: form.Currency, Text: "Any amount", Currency: &form.CurrencyConfig{Currency: "JPY"}},
		{Type: form.Textarea, Text: "Line one\nline two\ttab"},
	}
}

func TestCreateFormSetsIDsOrdersTimestamps(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, c := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		f := &form.Form{AccountID: acct.ID, Title: "Job application", Description: "Apply here",
			DisplayMode: form.MultiStep, ShareToken: shareToken(t), Questions: richQuestions()}
		must(t, st.CreateForm(ctx, f))

		if f.ID == 0 {
			t.Fatal("CreateForm left the form id unset")
		}
		created := c.Last()
		if !f.CreatedAt.Equal(created) || !f.UpdatedAt.Equal(created) {
			t.Fatalf("created/updated = %v/%v, want both %v", f.CreatedAt, f.UpdatedAt, created)
		}
		seen := map[int64]bool{}
		for i, q := range f.Questions {
			if q.ID == 0 || seen[q.ID] {
				t.Fatalf("question %d has id %d; want a fresh id", i, q.ID)
			}
			seen[q.ID] = true
			if q.FormID != f.ID || q.Order != i+1 {
				t.Fatalf("question %d has form %d and order %d, want form %d and order %d", i, q.FormID, q.Order, f.ID, i+1)
			}
		}

		got := getForm(t, st, acct, f.ID)
		if got.ID != f.ID || got.AccountID != acct.ID || got.Title != "Job application" || got.Description != "Apply here" ||
			got.DisplayMode != form.MultiStep || got.ShareToken != f.ShareToken ||
			!got.CreatedAt.Equal(created) || !got.UpdatedAt.Equal(created) ||
			got.PublishedAt != nil || got.WebhookURL != nil || got.WebhookEnabled {
			t.Fatalf("GetForm = %+v, want what was created (unpublished, no webhook)", *got)
		}

		// A second form numbers its questions from 1 again.
		g := newForm(t, st, acct, "Second", "a", "b")
		wantOrder(t, getForm(t, st, acct, g.ID).Questions, g.Questions[0].ID, g.Questions[1].ID)
	})
}

func TestCreateFormWithoutQuestions(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		f := newForm(t, st, acct, "Empty")
		got := getForm(t, st, acct, f.ID)
		if got.Questions == nil || len(got.Questions) != 0 {
			t.Fatalf("questions of an empty form = %#v, want an empty, non-nil slice", got.Questions)
		}
	})
}

func TestDuplicateShareTokenIsConflict(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		f := newForm(t, st, acct, "First", "q")
		dup := &form.Form{AccountID: acct.ID, Title: "Second", DisplayMode: form.SinglePage, ShareToken: f.ShareToken,
			Questions: []form.Question{{Type: form.Text, Text: "orphan?"}}}
		wantCode(t, st.CreateForm(ctx, dup), form.Conflict)

		page, err := st.ListForms(ctx, acct.ID, nil, 10, 0)
		must(t, err)
		if page.Total != 1 || len(page.Forms) != 1 || page.Forms[0].ID != f.ID {
			t.Fatalf("after a refused duplicate the account lists %s, want only the first form", jsonString(page))
		}
		got, err := formByToken(ctx, st, f.ShareToken)
		must(t, err)
		if got.ID != f.ID || got.Title != "First" {
			t.Fatalf("share token now opens %d %q, want the first form", got.ID, got.Title)
		}
	})
}

func TestGetFormRoundTripsQuestions(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		f := &form.Form{AccountID: acct.ID, Title: "Everything", DisplayMode: form.SinglePage,
			ShareToken: shareToken(t), Questions: richQuestions()}
		must(t, st.CreateForm(ctx, f))
		a, b := f.Questions[0].ID, f.Questions[1].ID

		// Logic as a client sends it: unusual key order, numbers with trailing
		// zeros, exponents and ids as strings. It must come back byte for byte.
		raw := fmt.Sprintf(`{"advanced":{"scoreRules":[{"scoreMap":{"Ünïcödé ✓":1.50,"a":-2},"questionId":%d,"id":"s1"}],`+
			`"actions":[{"value":1e2,"type":"set_score"},{"targetId":"%d","type":"skip_to_question"}],`+
			`"conditionGroups":[{"conditions":[{"valueType":"static","value":"x \"y\" \u00e9","operator":"contains","questionId":%d,"id":"c1"},`+
			`{"value":3.0,"operator":"greater_than","questionId":%d,"id":"c2"}],"operator":"OR","id":"g1"}]},`+
			`"showIf":{"value":"yes","operator":"equals","questionId":%d}}`, b, a, a, b, a)
		logic := logicFrom(t, raw)
		if logicJSON(t, logic) != raw {
			t.Fatalf("test setup: logic does not marshal to its input:\n%s\n%s", logicJSON(t, logic), raw)
		}
		added, err := st.AddQuestion(ctx, acct.ID, f.ID, func([]form.Question) (form.Question, error) {
			return form.Question{Type: form.Rating, Text: "With logic", Logic: logic}, nil
		})
		must(t, err)
		want := append(append([]form.Question{}, f.Questions...), *added)

		got := getForm(t, st, acct, f.ID)
		if len(got.Questions) != len(want) {
			t.Fatalf("GetForm returned %d questions, want %d", len(got.Questions), len(want))
		}
		for i := range want {
			sameQuestion(t, got.Questions[i], want[i])
		}
		if l := logicJSON(t, got.Questions[len(want)-1].Logic); l != raw {
			t.Fatalf("stored logic came back as\n%s\nwant\n%s", l, raw)
		}
		// A currency without bounds comes back without bounds (not zero).
		if c := got.Questions[5].Currency; c.Min != nil || c.Max != nil {
			t.Fatalf("unbounded currency came back as %s", jsonString(c))
		}

		byToken, err := formByToken(ctx, st, f.ShareToken)
		must(t, err)
		if len(byToken.Questions) != len(want) {
			t.Fatalf("FormByShareToken returned %d questions, want %d", len(byToken.Questions), len(want))
		}
		for i := range want {
			sameQuestion(t, byToken.Questions[i], want[i])
		}
	})
}

func TestGetFormOfAnotherAccountIsNotFound(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		ada := newAccount(t, st, "ada@example.com")
		bob := newAccount(t, st, "bob@example.com")
		f := newForm(t, st, ada, "Ada's", "q")
		_, err := st.GetForm(ctx, bob.ID, f.ID)
		wantCode(t, err, form.NotFound)
		_, err = st.GetForm(ctx, ada.ID, f.ID+1000)
		wantCode(t, err, form.NotFound)
		exists, err := st.FormExists(ctx, bob.ID, f.ID)
		must(t, err)
		if exists {
			t.Fatal("FormExists reports another account's form")
		}
	})
}

func TestListForms(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d) // every form gets a later created_at than the one before
		ada := newAccount(t, st, "ada@example.com")
		bob := newAccount(t, st, "bob@example.com")
		var forms []*form.Form
		for i := range 5 {
			forms = append(forms, newForm(t, st, ada, fmt.Sprintf("Form %d", i), "q1", "q2"))
			if i == 2 {
				newForm(t, st, bob, "Bob's")
			}
		}
		newest := func(idx ...int) []int64 {
			out := []int64{}
			for _, i := range idx {
				out = append(out, forms[i].ID)
			}
			return out
		}
		cases := []struct {
			name          string
			only          *int64
			limit, offset int
			total         int
			want          []int64
		}{
			{"all, newest first", nil, 10, 0, 5, newest(4, 3, 2, 1, 0)},
			{"first page", nil, 2, 0, 5, newest(4, 3)},
			{"second page", nil, 2, 2, 5, newest(2, 1)},
			{"last page", nil, 2, 4, 5, newest(0)},
			{"past the end", nil, 2, 10, 5, newest()},
			{"one form", &forms[1].ID, 10, 0, 1, newest(1)},
			{"one form, offset past it", &forms[1].ID, 10, 1, 1, newest()},
		}
		for _, c := range cases {
			page, err := st.ListForms(ctx, ada.ID, c.only, c.limit, c.offset)
			must(t, err)
			var got []int64
			for _, f := range page.Forms {
				got = append(got, f.ID)
			}
			if page.Total != c.total || !reflect.DeepEqual(append([]int64{}, got...), c.want) || page.Forms == nil {
				t.Errorf("%s: total %d, ids %v; want total %d, ids %v", c.name, page.Total, got, c.total, c.want)
			}
		}

		page, err := st.ListForms(ctx, ada.ID, nil, 10, 0)
		must(t, err)
		for i, f := range page.Forms {
			want := forms[4-i]
			if f.Title != want.Title || f.AccountID != ada.ID || f.ShareToken != want.ShareToken ||
				!f.CreatedAt.Equal(want.CreatedAt) || !f.UpdatedAt.Equal(want.UpdatedAt) {
				t.Errorf("listed form %d = %+v, want %+v", i, f, *want)
			}
			if len(f.Questions) != 0 {
				t.Errorf("listed form %d carries %d questions; listings are without questions", f.ID, len(f.Questions))
			}
		}

		// A form-scoped listing of a form of another account shows nothing.
		bobs, err := st.ListForms(ctx, bob.ID, nil, 10, 0)
		must(t, err)
		if bobs.Total != 1 || len(bobs.Forms) != 1 || bobs.Forms[0].Title != "Bob's" {
			t.Fatalf("bob lists %s, want only his form", jsonString(bobs))
		}
		page, err = st.ListForms(ctx, bob.ID, &forms[0].ID, 10, 0)
		must(t, err)
		if page.Total != 0 || len(page.Forms) != 0 {
			t.Fatalf("bob scoped to ada's form lists %s, want nothing", jsonString(page))
		}
		empty, err := st.ListForms(ctx, newAccount(t, st, "carol@example.com").ID, nil, 10, 0)
		must(t, err)
		if empty.Total != 0 || empty.Forms == nil || len(empty.Forms) != 0 {
			t.Fatalf("an account without forms lists %#v, want total 0 and an empty, non-nil slice", *empty)
		}
	})
}

func TestListFormsSameTimeNewestIDFirst(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		at := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
		st.Now = func() time.Time { return at }
		acct := newAccount(t, st, "ada@example.com")
		a := newForm(t, st, acct, "a")
		b := newForm(t, st, acct, "b")
		c := newForm(t, st, acct, "c")
		page, err := st.ListForms(ctx, acct.ID, nil, 2, 1)
		must(t, err)
		if len(page.Forms) != 2 || page.Forms[0].ID != b.ID || page.Forms[1].ID != a.ID {
			t.Fatalf("second page of forms created at one instant = %s, want ids %d, %d (after %d)", jsonString(page), b.ID, a.ID, c.ID)
		}
	})
}

func TestUpdateFormChangeErrorSavesNothing(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		f := newForm(t, st, acct, "Original", "q1", "q2")
		before := getForm(t, st, acct, f.ID)

		refused := errors.New("refused by the caller")
		_, err := st.UpdateForm(ctx, acct.ID, f.ID, func(g *form.Form) error {
			if g.Title != "Original" || len(g.Questions) != 2 {
				t.Errorf("change saw title %q and %d questions, want the stored form", g.Title, len(g.Questions))
			}
			g.Title, g.Description, g.DisplayMode = "Changed", "changed", form.MultiStep
			now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			g.PublishedAt, g.WebhookURL, g.WebhookEnabled = &now, ptr("https://example.com/hook"), true
			return refused
		})
		if !errors.Is(err, refused) {
			t.Fatalf("UpdateForm returned %v, want the change function's error", err)
		}
		after := getForm(t, st, acct, f.ID)
		if after.Title != "Original" || after.Description != "" || after.DisplayMode != form.SinglePage ||
			after.PublishedAt != nil || after.WebhookURL != nil || after.WebhookEnabled || !after.UpdatedAt.Equal(before.UpdatedAt) {
			t.Fatalf("after a failed change the form is %+v, want it unchanged: %+v", *after, *before)
		}

		// A domain error from the change function comes back with its code.
		_, err = st.UpdateForm(ctx, acct.ID, f.ID, func(g *form.Form) error {
			g.Title = "Changed"
			return form.FieldInvalid("title", "no")
		})
		wantCode(t, err, form.Invalid)
		if got := getForm(t, st, acct, f.ID); got.Title != "Original" {
			t.Fatalf("title after an invalid change = %q", got.Title)
		}
		// The store is still writable after the rollback.
		_, err = st.UpdateForm(ctx, acct.ID, f.ID, func(g *form.Form) error { g.Title = "Fine"; return nil })
		must(t, err)
	})
}

func TestUpdateFormRoundTripsPublicationAndWebhook(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, c := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		f := newForm(t, st, acct, "Survey", "q1")
		published := time.Date(2026, 11, 1, 12, 30, 45, 123_000_000, time.UTC)
		hook := "https://hooks.example.com/forma?x=1&y=ü"

		saved, err := st.UpdateForm(ctx, acct.ID, f.ID, func(g *form.Form) error {
			g.Title, g.Description, g.DisplayMode = "Survey 2", "Now with text", form.MultiStep
			g.PublishedAt, g.WebhookURL, g.WebhookEnabled = &published, &hook, true
			return nil
		})
		must(t, err)
		updated := c.Last()
		check := func(what string, g *form.Form) {
			t.Helper()
			if g.Title != "Survey 2" || g.Description != "Now with text" || g.DisplayMode != form.MultiStep ||
				g.PublishedAt == nil || !g.PublishedAt.Equal(published) || g.WebhookURL == nil || *g.WebhookURL != hook ||
				!g.WebhookEnabled || !g.UpdatedAt.Equal(updated) || !g.CreatedAt.Equal(f.CreatedAt) || len(g.Questions) != 1 {
				t.Fatalf("%s = %+v, want the saved changes, updated at %v", what, *g, updated)
			}
		}
		check("UpdateForm result", saved)
		check("GetForm", getForm(t, st, acct, f.ID))
		byToken, err := formByToken(ctx, st, f.ShareToken)
		must(t, err)
		check("FormByShareToken", byToken)

		// Unpublishing and clearing the webhook round-trip too.
		_, err = st.UpdateForm(ctx, acct.ID, f.ID, func(g *form.Form) error {
			g.PublishedAt, g.WebhookURL, g.WebhookEnabled = nil, nil, false
			return nil
		})
		must(t, err)
		got := getForm(t, st, acct, f.ID)
		if got.PublishedAt != nil || got.WebhookURL != nil || got.WebhookEnabled || got.Title != "Survey 2" {
			t.Fatalf("after unpublishing the form is %+v", *got)
		}
	})
}

func TestUpdateFormOfAnotherAccountIsNotFound(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		ada := newAccount(t, st, "ada@example.com")
		bob := newAccount(t, st, "bob@example.com")
		f := newForm(t, st, ada, "Ada's")
		called := false
		_, err := st.UpdateForm(ctx, bob.ID, f.ID, func(g *form.Form) error { called = true; g.Title = "Bob's"; return nil })
		wantCode(t, err, form.NotFound)
		if called {
			t.Fatal("the change function ran for another account's form")
		}
		if got := getForm(t, st, ada, f.ID); got.Title != "Ada's" {
			t.Fatalf("title = %q after another account's update", got.Title)
		}
	})
}

func TestDeleteForm(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		ada := newAccount(t, st, "ada@example.com")
		bob := newAccount(t, st, "bob@example.com")
		f := newForm(t, st, ada, "Doomed", "q1", "q2")
		keep := newForm(t, st, ada, "Kept", "q1")
		scopedKey, _ := newKey(t, st, ada, "scoped", nil, &f.ID)
		_, otherKey := newKey(t, st, ada, "unscoped", nil, nil)

		_, err := st.DeleteForm(ctx, bob.ID, f.ID)
		wantCode(t, err, form.NotFound)
		getForm(t, st, ada, f.ID) // another account's delete changed nothing

		blobs, err := st.DeleteForm(ctx, ada.ID, f.ID)
		must(t, err)
		if len(blobs) != 0 {
			t.Fatalf("deleting a form without uploads returned blob keys %q", blobs)
		}
		_, err = st.GetForm(ctx, ada.ID, f.ID)
		wantCode(t, err, form.NotFound)
		_, err = formByToken(ctx, st, f.ShareToken)
		wantCode(t, err, form.NotFound)
		exists, err := st.FormExists(ctx, ada.ID, f.ID)
		must(t, err)
		if exists {
			t.Fatal("FormExists reports a deleted form")
		}
		_, err = st.UpdateForm(ctx, ada.ID, f.ID, func(*form.Form) error { return nil })
		wantCode(t, err, form.NotFound)
		_, err = st.AddQuestion(ctx, ada.ID, f.ID, func([]form.Question) (form.Question, error) {
			return form.Question{Type: form.Text, Text: "late"}, nil
		})
		wantCode(t, err, form.NotFound)
		_, err = st.DeleteForm(ctx, ada.ID, f.ID)
		wantCode(t, err, form.NotFound)

		// A key scoped to the form goes with it; the account's other key stays.
		_, _, err = st.KeyByHash(ctx, hashOf(scopedKey))
		wantCode(t, err, form.NotFound)
		_, _, err = st.KeyByHash(ctx, otherKey.Hash)
		must(t, err)

		page, err := st.ListForms(ctx, ada.ID, nil, 10, 0)
		must(t, err)
		if page.Total != 1 || len(page.Forms) != 1 || page.Forms[0].ID != keep.ID {
			t.Fatalf("after deleting, ada lists %s, want only %d", jsonString(page), keep.ID)
		}
		wantOrder(t, getForm(t, st, ada, keep.ID).Questions, keep.Questions[0].ID)
	})
}

func TestFormByShareToken(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		f := newForm(t, st, acct, "Public", "q1", "q2", "q3")
		other := newForm(t, st, acct, "Other", "x")

		got, err := formByToken(ctx, st, f.ShareToken) // unpublished forms are found too
		must(t, err)
		if got.ID != f.ID || got.AccountID != acct.ID || got.Title != "Public" || got.ShareToken != f.ShareToken {
			t.Fatalf("FormByShareToken = %+v, want form %d", *got, f.ID)
		}
		wantOrder(t, got.Questions, ids(f.Questions)...)
		got, err = formByToken(ctx, st, other.ShareToken)
		must(t, err)
		if got.ID != other.ID {
			t.Fatalf("second token opens form %d, want %d", got.ID, other.ID)
		}
		_, err = formByToken(ctx, st, "no-such-token")
		wantCode(t, err, form.NotFound)
		_, err = formByToken(ctx, st, "")
		wantCode(t, err, form.NotFound)
	})
}

func TestFormExists(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		ada := newAccount(t, st, "ada@example.com")
		bob := newAccount(t, st, "bob@example.com")
		f := newForm(t, st, ada, "Mine")
		for _, c := range []struct {
			account, form int64
			want          bool
		}{
			{ada.ID, f.ID, true},
			{bob.ID, f.ID, false},
			{ada.ID, f.ID + 1000, false},
		} {
			got, err := st.FormExists(ctx, c.account, c.form)
			must(t, err)
			if got != c.want {
				t.Errorf("FormExists(account %d, form %d) = %v, want %v", c.account, c.form, got, c.want)
			}
		}
	})
}

// TestDuplicateForm: the copy is a draft of the same owner with the same details
// and questions, a new share token and no webhook; the logic of its questions
// names the copies, each id keeping its JSON kind; another account's form is not
// found and nothing is created.
func TestDuplicateForm(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		ada := newAccount(t, st, "ada@example.com")
		bob := newAccount(t, st, "bob@example.com")
		src := &form.Form{AccountID: ada.ID, Title: "Survey", Description: "About it", DisplayMode: form.MultiStep,
			ShareToken: shareToken(t), Questions: richQuestions()}
		must(t, st.CreateForm(ctx, src))
		qs := src.Questions
		logicOf := func(a, b, c int64) string {
			return fmt.Sprintf(`{"showIf":{"questionId":%d,"operator":"equals","value":"a"},"advanced":{"conditionGroups":[{"id":"g","operator":"AND",`+
				`"conditions":[{"id":"c1","questionId":%d,"operator":"equals","value":"%d","valueType":"dynamic"},`+
				`{"id":"c2","questionId":0,"operator":"greater_than","value":3,"valueType":"score"}]}],`+
				`"actions":[{"type":"skip_to_question","targetId":"%d"},{"type":"show_question","targetId":%d}],`+
				`"scoreRules":[{"id":"s","questionId":%d,"scoreMap":{"a":1}}]}}`, b, a, c, c, a, b)
		}
		_, err := st.UpdateQuestion(ctx, ada.ID, src.ID, qs[3].ID, nil, func(q *form.Question, _ []form.Question) error {
			q.Logic = logicFrom(t, logicOf(qs[0].ID, qs[2].ID, qs[6].ID))
			return nil
		})
		must(t, err)
		_, err = st.UpdateForm(ctx, ada.ID, src.ID, func(f *form.Form) error {
			f.SetPublished(true, st.Now())
			f.WebhookURL, f.WebhookEnabled = ptr("https://example.com/hook"), true
			return nil
		})
		must(t, err)

		_, err = st.DuplicateForm(ctx, bob.ID, src.ID)
		wantCode(t, err, form.NotFound)
		c, err := st.DuplicateForm(ctx, ada.ID, src.ID)
		must(t, err)
		got := getForm(t, st, ada, c.ID)
		if got.ID == src.ID || got.Title != "Copy of Survey" || got.Description != "About it" || got.DisplayMode != form.MultiStep ||
			got.ShareToken == "" || got.ShareToken == src.ShareToken || got.PublishedAt != nil || got.WebhookURL != nil || got.WebhookEnabled {
			t.Fatalf("copy %+v of %+v", *got, *src)
		}
		orig := getForm(t, st, ada, src.ID).Questions
		if len(got.Questions) != len(orig) {
			t.Fatalf("copy has %d questions, want %d", len(got.Questions), len(orig))
		}
		for i, q := range got.Questions {
			want := orig[i]
			want.ID, want.FormID, want.Logic = q.ID, c.ID, q.Logic
			sameQuestion(t, q, want)
			if q.ID == orig[i].ID {
				t.Errorf("question %d kept its id", i)
			}
		}
		cq := got.Questions
		if l := logicJSON(t, cq[3].Logic); l != logicOf(cq[0].ID, cq[2].ID, cq[6].ID) {
			t.Errorf("copied logic %s\nwant %s", l, logicOf(cq[0].ID, cq[2].ID, cq[6].ID))
		}
		if l := logicJSON(t, getForm(t, st, ada, src.ID).Questions[3].Logic); l != logicOf(qs[0].ID, qs[2].ID, qs[6].ID) {
			t.Errorf("the original's logic changed: %s", l)
		}
		page, err := st.ListForms(ctx, bob.ID, nil, 10, 0)
		must(t, err)
		if page.Total != 0 {
			t.Errorf("bob has %d forms", page.Total)
		}
	})
}

// TestDuplicateFormKeepsTheTitleLimit: the copy of a form whose title is as long
// as allowed gets a title of the same length, ending in an ellipsis.
func TestDuplicateFormKeepsTheTitleLimit(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		ada := newAccount(t, st, "ada@example.com")
		long := newForm(t, st, ada, strings.Repeat("é", form.MaxTitleLen))
		c, err := st.DuplicateForm(ctx, ada.ID, long.ID)
		must(t, err)
		want := "Copy of " + strings.Repeat("é", form.MaxTitleLen-len("Copy of ")-1) + "…"
		if c.Title != want || utf8.RuneCountInString(c.Title) != form.MaxTitleLen {
			t.Errorf("copy title %q (%d characters)", c.Title, utf8.RuneCountInString(c.Title))
		}
		if _, err := form.NewForm(form.FormInput{Title: &c.Title}); err != nil {
			t.Errorf("the copy's title is not valid: %v", err)
		}
	})
}

// TestFormContents counts a form's completed responses, files and scoped keys;
// another account's form is not found.
func TestFormContents(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		ada := newAccount(t, st, "ada@example.com")
		bob := newAccount(t, st, "bob@example.com")
		f := newForm(t, st, ada, "Counted", "Name")
		other := newForm(t, st, ada, "Other", "Name")
		for _, id := range []string{"s1", "s2", "s3"} {
			_, err := st.StartSession(ctx, f.ID, id, "h", nil)
			must(t, err)
		}
		for _, id := range []string{"s1", "s2"} {
			_, err := st.CompleteSession(ctx, f.ID, id, "h", nil, func(*form.Submission) error { return nil })
			must(t, err)
		}
		for i, size := range []int64{100, 23} {
			must(t, st.CreateUpload(ctx, &store.Upload{ID: fmt.Sprintf("up%d", i), FormID: f.ID, Name: "a.pdf", Size: size,
				ContentType: "application/pdf", BlobKey: fmt.Sprintf("k%d", i)}))
		}
		newKey(t, st, ada, "scoped", nil, &f.ID)
		newKey(t, st, ada, "all", nil, nil)
		got, err := st.FormContents(ctx, ada.ID, f.ID)
		must(t, err)
		if got != (store.FormContents{Responses: 2, Files: 2, FileBytes: 123, Keys: 1}) {
			t.Errorf("contents %+v", got)
		}
		if got, err := st.FormContents(ctx, ada.ID, other.ID); err != nil || got != (store.FormContents{}) {
			t.Errorf("an empty form's contents %+v, %v", got, err)
		}
		_, err = st.FormContents(ctx, bob.ID, f.ID)
		wantCode(t, err, form.NotFound)
	})
}

// TestCreateFormIssuesAShareToken: a form created without a share token gets a
// fresh one.
func TestCreateFormIssuesAShareToken(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		ada := newAccount(t, st, "ada@example.com")
		a := &form.Form{AccountID: ada.ID, Title: "A", DisplayMode: form.SinglePage}
		b := &form.Form{AccountID: ada.ID, Title: "B", DisplayMode: form.SinglePage}
		must(t, st.CreateForm(ctx, a))
		must(t, st.CreateForm(ctx, b))
		if len(a.ShareToken) < 16 || a.ShareToken == b.ShareToken {
			t.Errorf("share tokens %q and %q", a.ShareToken, b.ShareToken)
		}
		if got, err := formByToken(ctx, st, a.ShareToken); err != nil || got.ID != a.ID {
			t.Errorf("FormByShareToken: %v", err)
		}
	})
}

// TestFormSettingsRoundTrip: a form's settings are saved on create and update,
// read back by every lookup (also through the form cache), and copied by
// DuplicateForm; a form without settings reads back the zero value.
func TestFormSettingsRoundTrip(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		plain := newForm(t, st, acct, "Plain", "q1")
		if got := getForm(t, st, acct, plain.ID).Settings; !reflect.DeepEqual(got, form.Settings{}) {
			t.Fatalf("settings of a form made without them = %+v, want the zero value", got)
		}
		closes := time.Date(2026, 12, 24, 18, 0, 0, 0, time.UTC)
		limit := 250
		want := form.Settings{HiddenFields: []string{"utm_source", "user_id"}, ClosesAt: &closes, MaxResponses: &limit,
			ClosedMessage: "Sold out — \"see\" <you> next year", Language: "de", FrameAncestors: []string{"https://example.com"}}
		f := &form.Form{AccountID: acct.ID, Title: "Tickets", DisplayMode: form.SinglePage, ShareToken: shareToken(t),
			Settings: want.Clone(), Questions: richQuestions()}
		must(t, st.CreateForm(ctx, f))
		if got := getForm(t, st, acct, f.ID).Settings; !reflect.DeepEqual(got, want) {
			t.Fatalf("settings after create = %+v, want %+v", got, want)
		}
		want.Language, want.HiddenFields = "fr", nil
		_, err := st.UpdateForm(ctx, acct.ID, f.ID, func(g *form.Form) error {
			g.Settings.Language, g.Settings.HiddenFields = "fr", nil
			g.SetPublished(true, st.Now())
			return nil
		})
		must(t, err)
		byToken, err := formByToken(ctx, st, f.ShareToken)
		must(t, err)
		if !reflect.DeepEqual(byToken.Settings, want) {
			t.Fatalf("settings by share token after update = %+v, want %+v", byToken.Settings, want)
		}
		c, err := st.DuplicateForm(ctx, acct.ID, f.ID)
		must(t, err)
		if got := getForm(t, st, acct, c.ID).Settings; !reflect.DeepEqual(got, want) {
			t.Fatalf("settings of the copy = %+v, want %+v", got, want)
		}
	})
}

// TestImportForm: a form read from a definition is stored with new ids, its
// logic and settings renamed from the definition's refs to them, as a draft
// with its own title and a share token; when its renamed logic is too large,
// nothing is stored.
func TestImportForm(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		ada := newAccount(t, st, "ada@example.com")
		logicOf := func(a, b int64) string {
			return fmt.Sprintf(`{"showIf":{"questionId":%d,"operator":"equals","value":"a"},"advanced":{"conditionGroups":[{"id":"g","operator":"AND",`+
				`"conditions":[{"id":"c1","questionId":%d,"operator":"equals","value":"%d","valueType":"dynamic"}]}],`+
				`"actions":[{"type":"skip_to_question","targetId":"%d"},{"type":"hide_question","targetId":%d}],`+
				`"scoreRules":[{"id":"s","questionId":%d,"scoreMap":{"a":1}}]}}`, b, a, b, b, a, a)
		}
		qs := richQuestions()
		for i := range qs {
			qs[i].ID = int64(10 * (i + 1)) // the definition's refs: 10, 20, …
		}
		qs[3].Logic = logicFrom(t, logicOf(10, 70))
		closes := time.Date(2026, 12, 24, 18, 0, 0, 0, time.UTC)
		settings := form.Settings{HiddenFields: []string{"utm_source"}, ClosesAt: &closes, Language: "de"}
		f := &form.Form{AccountID: ada.ID, Title: "Imported", Description: "From a file", DisplayMode: form.MultiStep,
			Settings: settings.Clone(), Questions: qs}
		must(t, st.ImportForm(ctx, f))

		got := getForm(t, st, ada, f.ID)
		if got.Title != "Imported" || got.Description != "From a file" || got.DisplayMode != form.MultiStep ||
			got.ShareToken == "" || got.PublishedAt != nil || got.WebhookURL != nil || !reflect.DeepEqual(got.Settings, settings) {
			t.Fatalf("imported form %+v", *got)
		}
		want := richQuestions()
		for i, q := range got.Questions {
			if q.ID == int64(10*(i+1)) {
				t.Errorf("question %d kept its ref as id", i)
			}
			w := want[i]
			w.ID, w.FormID, w.Order, w.Logic = q.ID, f.ID, i+1, q.Logic
			sameQuestion(t, q, w)
		}
		gq := got.Questions
		if l := logicJSON(t, gq[3].Logic); l != logicOf(gq[0].ID, gq[6].ID) {
			t.Errorf("imported logic %s\nwant %s", l, logicOf(gq[0].ID, gq[6].ID))
		}

		big := make([]form.Question, 130)
		for i := range big {
			value := strings.Repeat("v", form.MaxLogicTextLen)
			big[i] = form.Question{ID: int64(i + 1), Type: form.Text, Text: "Q",
				Logic: logicFrom(t, fmt.Sprintf(`{"showIf":{"questionId":1,"operator":"equals","value":%q}}`, value))}
		}
		err := st.ImportForm(ctx, &form.Form{AccountID: ada.ID, Title: "Too much logic", DisplayMode: form.SinglePage, Questions: big})
		wantCode(t, err, form.Invalid)
		page, err := st.ListForms(ctx, ada.ID, nil, 10, 0)
		must(t, err)
		if page.Total != 1 {
			t.Errorf("ada has %d forms after a refused import, want 1", page.Total)
		}
	})
}
