package store

import (
	"context"
	"database/sql"
	"time"
)

// The dashboard's sign-in state lives here, in the database, so that every node
// agrees on it: passwords, browser sessions, one-time setup links and the failed
// sign-ins that throttle guessing. Session and setup tokens arrive already hashed
// (auth.NewToken); the store never sees a token or a password.

// AccountPassword returns the account with email and its encoded password hash
// ("" when no password was ever set); NotFound when there is no such account.
func (s *Store) AccountPassword(ctx context.Context, email string) (*Account, string, error) {
	var a Account
	var created int64
	var hash sql.NullString
	err := s.read.QueryRowContext(ctx,
		`SELECT id, email, tier, created_at, password_hash FROM accounts WHERE email = $1`, email).
		Scan(&a.ID, &a.Email, &a.Tier, &created, &hash)
	if err != nil {
		return nil, "", translate(err, "Account")
	}
	a.CreatedAt = fromMS(created)
	return &a, hash.String, nil
}

// SetPassword stores an account's new password hash and ends every one of its
// dashboard sessions but keepSession (a token hash; "" ends them all), in one
// transaction; NotFound when there is no such account.
func (s *Store) SetPassword(ctx context.Context, accountID int64, passwordHash, keepSession string) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		return setPassword(ctx, tx, accountID, passwordHash, keepSession)
	})
}

func setPassword(ctx context.Context, tx *sql.Tx, accountID int64, passwordHash, keepSession string) error {
	res, err := tx.ExecContext(ctx, `UPDATE accounts SET password_hash = $1 WHERE id = $2`, passwordHash, accountID)
	if err != nil {
		return err
	}
	if err := requireRow(res, "Account"); err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `DELETE FROM dashboard_sessions WHERE account_id = $1 AND token_hash <> $2`,
		accountID, keepSession)
	return err
}

// CreateAccountWithPassword adds an account with its password hash (sign-up); a
// taken email is a Conflict.
func (s *Store) CreateAccountWithPassword(ctx context.Context, email, tier, passwordHash string) (*Account, error) {
	a := &Account{Email: email, Tier: tier, CreatedAt: s.Now()}
	err := s.write.QueryRowContext(ctx,
		`INSERT INTO accounts (email, tier, created_at, password_hash) VALUES ($1, $2, $3, $4) RETURNING id`,
		email, tier, ms(a.CreatedAt), passwordHash).Scan(&a.ID)
	return a, translate(err, "Account")
}

// CreateDashboardSession stores a new browser session of the account until
// expires, and sweeps the sessions that have expired.
func (s *Store) CreateDashboardSession(ctx context.Context, accountID int64, tokenHash string, expires time.Time) error {
	now := ms(s.Now())
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM dashboard_sessions WHERE expires_at <= $1`, now); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx,
			`INSERT INTO dashboard_sessions (token_hash, account_id, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
			tokenHash, accountID, now, ms(expires))
		return translate(err, "Session")
	})
}

// SessionAccount returns the account signed in by the session whose token hashes
// to tokenHash; NotFound when there is no such session or it has expired.
func (s *Store) SessionAccount(ctx context.Context, tokenHash string) (*Account, error) {
	return scanAccount(s.read.QueryRowContext(ctx,
		`SELECT a.id, a.email, a.tier, a.created_at FROM dashboard_sessions d JOIN accounts a ON a.id = d.account_id
		 WHERE d.token_hash = $1 AND d.expires_at > $2`, tokenHash, ms(s.Now())))
}

// DeleteDashboardSession ends one browser session (sign-out); ending one that does
// not exist is not an error.
func (s *Store) DeleteDashboardSession(ctx context.Context, tokenHash string) error {
	_, err := s.write.ExecContext(ctx, `DELETE FROM dashboard_sessions WHERE token_hash = $1`, tokenHash)
	return err
}

// DeleteDashboardSessions ends every browser session of the account (sign out
// everywhere).
func (s *Store) DeleteDashboardSessions(ctx context.Context, accountID int64) error {
	_, err := s.write.ExecContext(ctx, `DELETE FROM dashboard_sessions WHERE account_id = $1`, accountID)
	return err
}

// CreateSetupToken stores a one-time link that lets the account set its password
// until expires.
func (s *Store) CreateSetupToken(ctx context.Context, accountID int64, tokenHash string, expires time.Time) error {
	_, err := s.write.ExecContext(ctx, `INSERT INTO setup_tokens (token_hash, account_id, expires_at) VALUES ($1, $2, $3)`,
		tokenHash, accountID, ms(expires))
	return translate(err, "Setup link")
}

// SetupTokenAccount returns the account a live setup link belongs to; NotFound
// when the link was used, has expired or never existed.
func (s *Store) SetupTokenAccount(ctx context.Context, tokenHash string) (*Account, error) {
	return scanAccount(s.read.QueryRowContext(ctx,
		`SELECT a.id, a.email, a.tier, a.created_at FROM setup_tokens t JOIN accounts a ON a.id = t.account_id
		 WHERE t.token_hash = $1 AND t.expires_at > $2`, tokenHash, ms(s.Now())))
}

// UseSetupToken spends a live setup link: in one transaction it deletes the link
// (and the expired ones), sets the account's password and ends its sessions. It
// returns the account; NotFound when the link was used, has expired or never
// existed, so that two concurrent uses cannot both succeed.
func (s *Store) UseSetupToken(ctx context.Context, tokenHash, passwordHash string) (*Account, error) {
	var acct *Account
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		now := ms(s.Now())
		var err error
		acct, err = scanAccount(tx.QueryRowContext(ctx,
			`SELECT a.id, a.email, a.tier, a.created_at FROM setup_tokens t JOIN accounts a ON a.id = t.account_id
			 WHERE t.token_hash = $1 AND t.expires_at > $2`, tokenHash, now))
		if err != nil {
			return err
		}
		// The delete decides: of two concurrent uses, the second deletes nothing.
		res, err := tx.ExecContext(ctx, `DELETE FROM setup_tokens WHERE token_hash = $1`, tokenHash)
		if err != nil {
			return err
		}
		if err := requireRow(res, "Setup link"); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM setup_tokens WHERE expires_at <= $1`, now); err != nil {
			return err
		}
		return setPassword(ctx, tx, acct.ID, passwordHash, "")
	})
	return acct, err
}

// SigninFailures counts the failed sign-ins since the given time for email and,
// separately, from address.
func (s *Store) SigninFailures(ctx context.Context, email, address string, since time.Time) (byEmail, byAddress int, err error) {
	err = s.read.QueryRowContext(ctx,
		`SELECT COALESCE(SUM(CASE WHEN email = $1 THEN 1 ELSE 0 END), 0), COALESCE(SUM(CASE WHEN address = $2 THEN 1 ELSE 0 END), 0)
		 FROM signin_failures WHERE (email = $1 OR address = $2) AND at > $3`, email, address, ms(since)).Scan(&byEmail, &byAddress)
	return byEmail, byAddress, err
}

// RecordSigninFailure records a failed sign-in for email from address, and sweeps
// the failures older than forget, which no longer count.
func (s *Store) RecordSigninFailure(ctx context.Context, email, address string, forget time.Time) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM signin_failures WHERE at <= $1`, ms(forget)); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO signin_failures (email, address, at) VALUES ($1, $2, $3)`,
			email, address, ms(s.Now()))
		return err
	})
}

// ClearSigninFailures forgets the failed sign-ins for email, after a successful
// one (those from the address keep counting).
func (s *Store) ClearSigninFailures(ctx context.Context, email string) error {
	_, err := s.write.ExecContext(ctx, `DELETE FROM signin_failures WHERE email = $1`, email)
	return err
}
