package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"forma/internal/auth"
	"forma/internal/form"
	"forma/internal/quota"
	"forma/internal/store"
)

func accountCreate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return withEmailAndTier(ctx, "account create", "free", args, stderr, func(st *store.Store, email, tier string) error {
		acct, err := st.CreateAccount(ctx, email, tier)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "created account %d (%s, %s)\n", acct.ID, acct.Email, acct.Tier)
		return nil
	})
}

func accountSetTier(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return withEmailAndTier(ctx, "account set-tier", "", args, stderr, func(st *store.Store, email, tier string) error {
		if err := st.SetTier(ctx, email, tier); err != nil {
			return fmt.Errorf("account %s: %w", email, err)
		}
		fmt.Fprintf(stdout, "account %s is now on the %s plan\n", email, tier)
		return nil
	})
}

// withEmailAndTier parses --email and --tier (checked before the database is
// touched), opens the store and runs fn.
func withEmailAndTier(ctx context.Context, name, defaultTier string, args []string, stderr io.Writer,
	fn func(st *store.Store, email, tier string) error) error {
	var email, tier string
	st, err := openStore(ctx, name, args, stderr, func(fs *flag.FlagSet) {
		fs.StringVar(&email, "email", "", "the account's email (required)")
		fs.StringVar(&tier, "tier", defaultTier, "plan: free, builder or scale")
	}, func() error { return checkEmailAndTier(email, tier) })
	if err != nil {
		return err
	}
	defer st.Close()
	return fn(st, email, tier)
}

func checkEmailAndTier(email, tier string) error {
	if !strings.Contains(email, "@") {
		return fmt.Errorf("--email is required and must be an email address")
	}
	_, err := quota.PlanFor(tier)
	return err
}

func keyCreate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var name string
	var limit int
	var formID int64
	define := func(fs *flag.FlagSet) {
		fs.StringVar(&name, "name", "", "a name to recognise the key by")
		fs.IntVar(&limit, "daily-limit", 0, "daily request limit: 100, 500, 1000, 5000 or 10000 (default: the plan's)")
		fs.Int64Var(&formID, "form", 0, "limit the key to this form id")
	}
	var settings auth.KeySettings
	check := func() error {
		settings = auth.KeySettings{Name: name}
		if limit != 0 {
			settings.DailyLimit = &limit
		}
		if formID != 0 {
			settings.FormID = &formID
		}
		return flagError(settings.Check(), map[string]string{"name": "--name", "dailyLimit": "--daily-limit"})
	}
	return withAccount(ctx, "key create", args, stderr, define, check, func(st *store.Store, acct *store.Account) error {
		key, err := st.IssueKey(ctx, acct.ID, settings)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, key)
		return nil
	})
}

// withAccount parses --email (plus the flags define registers, checked by check
// before the database is touched), opens the store, finds the account and runs fn.
func withAccount(ctx context.Context, name string, args []string, stderr io.Writer, define func(*flag.FlagSet),
	check func() error, fn func(st *store.Store, acct *store.Account) error) error {
	var email string
	st, err := openStore(ctx, name, args, stderr, func(fs *flag.FlagSet) {
		fs.StringVar(&email, "email", "", "the account's email (required)")
		if define != nil {
			define(fs)
		}
	}, check)
	if err != nil {
		return err
	}
	defer st.Close()
	acct, err := st.AccountByEmail(ctx, email)
	if err != nil {
		return fmt.Errorf("account %q: %w", email, err)
	}
	return fn(st, acct)
}

// flagError names the flag of a validation error about one field (flags maps
// fields to flags); other errors are returned as they are.
func flagError(err error, flags map[string]string) error {
	var fe *form.Error
	if !errors.As(err, &fe) || len(fe.Fields) != 1 || flags[fe.Fields[0].Field] == "" {
		return err
	}
	return fmt.Errorf("%s %s", flags[fe.Fields[0].Field], fe.Fields[0].Message)
}

func keyList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return withAccount(ctx, "key list", args, stderr, nil, nil, func(st *store.Store, acct *store.Account) error {
		keys, err := st.ListKeys(ctx, acct.ID, quota.Day(st.Now()))
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		for _, k := range keys {
			fmt.Fprintf(tw, "%d\t%s\t%s…\t%s\t%s\t%s\ttoday=%d\t%s\t%s\n", k.ID, orDash(k.Name), k.Prefix, limitText(k.DailyLimit),
				formText(k.FormID), k.CreatedAt.Format("2006-01-02T15:04:05Z"), k.RequestsToday, lastUsedText(k.LastUsedAt), revokedText(k.APIKey))
		}
		return tw.Flush()
	})
}

func keyRevoke(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var id int64
	define := func(fs *flag.FlagSet) {
		fs.Int64Var(&id, "id", 0, "the key's numeric id, from `forma key list` (required)")
	}
	return withAccount(ctx, "key revoke", args, stderr, define, nil, func(st *store.Store, acct *store.Account) error {
		if err := st.RevokeKey(ctx, acct.ID, id); err != nil {
			return fmt.Errorf("key %d: %w", id, err)
		}
		fmt.Fprintf(stdout, "revoked key %d\n", id)
		return nil
	})
}

func lastUsedText(t *time.Time) string {
	if t == nil {
		return "never used"
	}
	return "used " + t.Format("2006-01-02T15:04:05Z")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func limitText(l *int) string {
	if l == nil {
		return "limit=plan"
	}
	return fmt.Sprintf("limit=%d", *l)
}

func formText(id *int64) string {
	if id == nil {
		return "form=all"
	}
	return fmt.Sprintf("form=%d", *id)
}

func revokedText(k store.APIKey) string {
	if k.RevokedAt == nil {
		return "active"
	}
	return "revoked " + k.RevokedAt.Format("2006-01-02T15:04:05Z")
}
