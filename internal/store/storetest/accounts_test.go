package storetest_test

import (
	"testing"

	"forma/internal/form"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

func sameAccount(t *testing.T, got, want *store.Account) {
	t.Helper()
	if got.ID != want.ID || got.Email != want.Email || got.Tier != want.Tier || !got.CreatedAt.Equal(want.CreatedAt) {
		t.Errorf("account = %+v, want %+v", *got, *want)
	}
}

func TestCreateAccountAndFindIt(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, c := open(t, d)
		a, err := st.CreateAccount(ctx, "ada@example.com", "free")
		must(t, err)
		if a.ID == 0 || a.Email != "ada@example.com" || a.Tier != "free" || !a.CreatedAt.Equal(c.Last()) {
			t.Fatalf("created account = %+v, want an id, the email, tier free and created at %v", *a, c.Last())
		}
		b, err := st.CreateAccount(ctx, "bob@example.com", "pro")
		must(t, err)
		if b.ID == a.ID {
			t.Fatalf("two accounts share id %d", a.ID)
		}

		got, err := st.AccountByEmail(ctx, "ada@example.com")
		must(t, err)
		sameAccount(t, got, a)
		got, err = st.AccountByEmail(ctx, "bob@example.com")
		must(t, err)
		sameAccount(t, got, b)
	})
}

func TestAccountNotFound(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		newAccount(t, st, "ada@example.com")
		_, err := st.AccountByEmail(ctx, "nobody@example.com")
		wantCode(t, err, form.NotFound)
	})
}

func TestDuplicateEmailIsConflict(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		a := newAccount(t, st, "ada@example.com")
		_, err := st.CreateAccount(ctx, "ada@example.com", "pro")
		wantCode(t, err, form.Conflict)

		got, err := st.AccountByEmail(ctx, "ada@example.com")
		must(t, err)
		sameAccount(t, got, a) // still the first account, still free
		n, err := st.CountAccounts(ctx)
		must(t, err)
		if n != 1 {
			t.Fatalf("CountAccounts = %d after a refused duplicate, want 1", n)
		}
		// The store stays usable after the refused insert.
		newAccount(t, st, "bob@example.com")
	})
}

func TestSetTier(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		a := newAccount(t, st, "ada@example.com")
		b := newAccount(t, st, "bob@example.com")
		must(t, st.SetTier(ctx, "bob@example.com", "team"))

		got, err := st.AccountByEmail(ctx, "bob@example.com")
		must(t, err)
		if got.Tier != "team" {
			t.Fatalf("tier after SetTier = %q, want team", got.Tier)
		}
		if got.Tier != "team" || !got.CreatedAt.Equal(b.CreatedAt) || got.ID != b.ID {
			t.Fatalf("account after SetTier = %+v, want %+v with tier team", *got, *b)
		}
		got, err = st.AccountByEmail(ctx, "ada@example.com")
		must(t, err)
		sameAccount(t, got, a) // the other account keeps its tier

		wantCode(t, st.SetTier(ctx, "nobody@example.com", "pro"), form.NotFound)
		n, err := st.CountAccounts(ctx)
		must(t, err)
		if n != 2 {
			t.Fatalf("CountAccounts = %d after SetTier of an unknown email, want 2", n)
		}
	})
}

func TestCountAccounts(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		for i, email := range []string{"", "a@example.com", "b@example.com", "c@example.com"} {
			if email != "" {
				newAccount(t, st, email)
			}
			n, err := st.CountAccounts(ctx)
			must(t, err)
			if n != i {
				t.Fatalf("CountAccounts = %d, want %d", n, i)
			}
		}
	})
}
