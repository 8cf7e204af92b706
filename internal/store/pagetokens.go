package store

import (
	"context"
	"database/sql"
	"time"
)

// UsePageToken records that the HTML form's start token was used, until expires
// (after which the token is refused for its age anyway); false when it was used
// already. Expired records are swept in the same transaction, so the table holds
// only tokens that could still be presented. The record lives in the database so
// that a token is single-use across nodes.
func (s *Store) UsePageToken(ctx context.Context, token string, expires time.Time) (bool, error) {
	var fresh bool
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM page_tokens WHERE expires_at < $1`, ms(s.Now())); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO page_tokens (token, expires_at) VALUES ($1, $2) ON CONFLICT (token) DO NOTHING`,
			token, ms(expires))
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		fresh = n == 1
		return err
	})
	return fresh, err
}
