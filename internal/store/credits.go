package store

import (
	"context"
	"time"
)

// UsageEntry is one charge of credits: an entry of the usage history.
type UsageEntry struct {
	ID        int64
	Endpoint  string
	Credits   int
	FormID    *int64
	FormName  string
	CreatedAt time.Time
}

// CreditsUsed sums the credits an account was charged from since (inclusive) on.
func (s *Store) CreditsUsed(ctx context.Context, accountID int64, since time.Time) (int, error) {
	var n int
	err := s.read.QueryRowContext(ctx,
		`SELECT COALESCE(SUM(credits), 0) FROM credit_ledger WHERE account_id = $1 AND created_at >= $2`,
		accountID, ms(since)).Scan(&n)
	return n, err
}

// UsageHistory returns a page of an account's charges, newest first, and their total.
func (s *Store) UsageHistory(ctx context.Context, accountID int64, limit, offset int) ([]UsageEntry, int, error) {
	var total int
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM credit_ledger WHERE account_id = $1`,
		accountID).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := s.read.QueryContext(ctx,
		`SELECT id, endpoint, credits, form_id, form_name, created_at FROM credit_ledger
		 WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`, accountID, limit, offset)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	entries := []UsageEntry{}
	for rows.Next() {
		var e UsageEntry
		var created int64
		if err := rows.Scan(&e.ID, &e.Endpoint, &e.Credits, &e.FormID, &e.FormName, &created); err != nil {
			return nil, 0, err
		}
		e.CreatedAt = fromMS(created)
		entries = append(entries, e)
	}
	return entries, total, rows.Err()
}
