package store

import (
	"context"
	"database/sql"
	"time"

	"forma/internal/quota"
)

// Charge is the credit charge of an AI operation. The store records it in the
// transaction that saves the operation's result, so that a result exists if and
// only if it was paid for.
type Charge struct {
	AccountID int64
	Endpoint  string // usage-history name, such as forms.generate
	Credits   int
	// FormID and FormName name the form concerned; CreateGeneratedForm sets them to
	// the form it creates.
	FormID   *int64
	FormName string
	// CycleStart is the start of the account's current billing cycle, and Plan the
	// account's plan, whose allowance and overage decide whether the charge fits.
	CycleStart time.Time
	Plan       quota.Plan
	// Used is set by the store: the credits used in the cycle after this charge.
	Used int
}

// charge runs save and records c in one transaction, after checking the balance
// (quota.Plan.Afford) under a lock on the account: of two concurrent charges that
// only one fits, exactly one succeeds and the other gets InsufficientCredits, and
// nothing is charged or saved when save fails.
func (s *Store) charge(ctx context.Context, c *Charge, save func(tx *sql.Tx) error) error {
	defer s.credits.evict(c.AccountID)
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var id int64
		if err := tx.QueryRowContext(ctx, `SELECT id FROM accounts WHERE id = $1`+s.forUpdate(), c.AccountID).Scan(&id); err != nil {
			return translate(err, "Account")
		}
		used, err := creditsUsed(ctx, tx, c.AccountID, c.CycleStart)
		if err != nil {
			return err
		}
		if err := c.Plan.Afford(used, c.Credits); err != nil {
			return err
		}
		if err := save(tx); err != nil {
			return err
		}
		c.Used = used + c.Credits
		_, err = tx.ExecContext(ctx, `INSERT INTO credit_ledger (account_id, endpoint, credits, form_id, form_name, created_at)
			VALUES ($1, $2, $3, $4, $5, $6)`, c.AccountID, c.Endpoint, c.Credits, c.FormID, c.FormName, ms(s.Now()))
		return err
	})
	if err == nil && s.Charged != nil {
		s.Charged(c.Endpoint, c.Credits)
	}
	return err
}

// UsageEntry is one charge of credits: an entry of the usage history.
type UsageEntry struct {
	ID        int64
	Endpoint  string
	Credits   int
	FormID    *int64
	FormName  string
	CreatedAt time.Time
}

// Balance is the credit position of acct on plan in its billing cycle of now
// (quota.Cycle): the plan's monthly allowance and the credits charged since the
// cycle started. The API and the dashboard both report this one computation.
// On SQLite the credits used come from the credit cache (keycache.go).
func (s *Store) Balance(ctx context.Context, acct *Account, plan quota.Plan) (quota.Balance, error) {
	start, end := quota.Cycle(acct.CreatedAt, s.Now())
	used, err := s.cycleCredits(ctx, acct.ID, start)
	return quota.Balance{Allowance: plan.MonthlyAllowance, Used: used, CycleStart: start, CycleEnd: end}, err
}

// cycleCredits is CreditsUsed from the credit cache on SQLite.
func (s *Store) cycleCredits(ctx context.Context, accountID int64, start time.Time) (int, error) {
	if s.dialect != SQLite {
		return s.CreditsUsed(ctx, accountID, start)
	}
	used, epoch, ok := s.credits.lookup(accountID, start)
	if ok {
		return used, nil
	}
	used, err := s.CreditsUsed(ctx, accountID, start)
	if err == nil {
		s.credits.put(accountID, start, used, epoch)
	}
	return used, err
}

// CreditsUsed sums the credits an account was charged from since (inclusive) on.
func (s *Store) CreditsUsed(ctx context.Context, accountID int64, since time.Time) (int, error) {
	return creditsUsed(ctx, s.read, accountID, since)
}

func creditsUsed(ctx context.Context, q querier, accountID int64, since time.Time) (int, error) {
	var n int
	err := q.QueryRowContext(ctx,
		`SELECT COALESCE(SUM(credits), 0) FROM credit_ledger WHERE account_id = $1 AND created_at >= $2`,
		accountID, ms(since)).Scan(&n)
	return n, err
}

// UsageHistory returns a page of an account's charges, newest first, and their
// total, read in one snapshot. With formID set, only the charges for that form are
// listed (a form-scoped key's view). A charge for a form that has since been
// deleted keeps the form's name but has no FormID.
func (s *Store) UsageHistory(ctx context.Context, accountID int64, formID *int64, limit, offset int) ([]UsageEntry, int, error) {
	var scope int64
	if formID != nil {
		scope = *formID
	}
	var entries []UsageEntry
	total, err := s.readPage(ctx, limit, offset, false,
		counter(ctx, `SELECT COUNT(*) FROM credit_ledger l `+usageWhere, accountID, scope),
		func(q querier, w window) (err error) {
			entries, err = listUsage(ctx, q, accountID, scope, w)
			return err
		})
	if err != nil {
		return nil, 0, err
	}
	return entries, total, nil
}

// usageWhere selects an account's charges ($1), or only those for one form ($2)
// when it is not 0.
const usageWhere = `WHERE l.account_id = $1 AND (CAST($2 AS BIGINT) = 0 OR l.form_id = $2)`

func listUsage(ctx context.Context, q querier, accountID, scope int64, w window) ([]UsageEntry, error) {
	rows, err := q.QueryContext(ctx,
		`SELECT l.id, l.endpoint, l.credits, f.id, l.form_name, l.created_at
		 FROM credit_ledger l LEFT JOIN forms f ON f.id = l.form_id `+usageWhere+`
		 ORDER BY l.created_at DESC, l.id DESC LIMIT $3 OFFSET $4`, accountID, scope, w.limit, w.offset)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	entries := []UsageEntry{}
	for rows.Next() {
		var e UsageEntry
		var created int64
		if err := rows.Scan(&e.ID, &e.Endpoint, &e.Credits, &e.FormID, &e.FormName, &created); err != nil {
			return nil, err
		}
		e.CreatedAt = fromMS(created)
		entries = append(entries, e)
	}
	return entries, rows.Err()
}
