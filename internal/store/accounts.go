package store

import (
	"context"
	"database/sql"
	"time"

	"forma/internal/auth"
	"forma/internal/form"
)

// Account owns forms and API keys and has a plan tier.
type Account struct {
	ID        int64
	Email     string
	Tier      string
	CreatedAt time.Time
}

// APIKey is a stored key: only its hash, never the key itself.
type APIKey struct {
	ID         int64
	AccountID  int64
	Hash       string
	Prefix     string
	Name       string
	DailyLimit *int
	FormID     *int64
	CreatedAt  time.Time
	RevokedAt  *time.Time
	// LastUsedAt is when the key's last counted request was made; nil if never.
	LastUsedAt *time.Time
}

// KeyStatus is a key as its owner's list shows it: with its requests of one day.
type KeyStatus struct {
	APIKey
	RequestsToday int
}

// CreateAccount adds an account; a taken email is a Conflict.
func (s *Store) CreateAccount(ctx context.Context, email, tier string) (*Account, error) {
	a := &Account{Email: email, Tier: tier, CreatedAt: s.Now()}
	err := s.write.QueryRowContext(ctx,
		`INSERT INTO accounts (email, tier, created_at) VALUES ($1, $2, $3) RETURNING id`,
		email, tier, ms(a.CreatedAt)).Scan(&a.ID)
	return a, translate(err, "Account")
}

// AccountByEmail finds an account; NotFound when there is none.
func (s *Store) AccountByEmail(ctx context.Context, email string) (*Account, error) {
	return scanAccount(s.read.QueryRowContext(ctx,
		`SELECT id, email, tier, created_at FROM accounts WHERE email = $1`, email))
}

// CountAccounts returns how many accounts exist.
func (s *Store) CountAccounts(ctx context.Context) (int, error) {
	var n int
	err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM accounts`).Scan(&n)
	return n, err
}

// SetTier changes an account's plan; NotFound when the email is unknown.
func (s *Store) SetTier(ctx context.Context, email, tier string) error {
	defer s.keys.evict(0)
	res, err := s.write.ExecContext(ctx, `UPDATE accounts SET tier = $1 WHERE email = $2`, tier, email)
	if err != nil {
		return err
	}
	return requireRow(res, "Account")
}

func scanAccount(row *sql.Row) (*Account, error) {
	var a Account
	var created int64
	if err := row.Scan(&a.ID, &a.Email, &a.Tier, &created); err != nil {
		return nil, translate(err, "Account")
	}
	a.CreatedAt = fromMS(created)
	return &a, nil
}

// CreateKey stores a new key record and sets its id and creation time. A key
// scoped to a form the account does not own is refused (NotFound), in the same
// statement, so the scope cannot name another account's form.
func (s *Store) CreateKey(ctx context.Context, k *APIKey) error {
	k.CreatedAt = s.Now()
	err := s.write.QueryRowContext(ctx,
		`INSERT INTO api_keys (account_id, hash, prefix, name, daily_limit, form_id, created_at)
		 SELECT $1, $2, $3, $4, $5, $6, $7
		 WHERE CAST($6 AS BIGINT) IS NULL OR EXISTS (SELECT 1 FROM forms WHERE id = $6 AND account_id = $1)
		 RETURNING id`,
		k.AccountID, k.Hash, k.Prefix, k.Name, k.DailyLimit, k.FormID, ms(k.CreatedAt)).Scan(&k.ID)
	if err == sql.ErrNoRows {
		return form.Errorf(form.NotFound, "Form not found")
	}
	return translate(err, "Key")
}

// IssueKey makes a new random key for an account with settings (checked by the
// caller: auth.KeySettings.Check), stores it as CreateKey does (only its hash) and
// returns the key, which is never seen again.
func (s *Store) IssueKey(ctx context.Context, accountID int64, settings auth.KeySettings) (string, error) {
	key, hash, prefix, err := auth.NewKey()
	if err != nil {
		return "", err
	}
	rec := &APIKey{AccountID: accountID, Hash: hash, Prefix: prefix, Name: settings.Name,
		DailyLimit: settings.DailyLimit, FormID: settings.FormID}
	if err := s.CreateKey(ctx, rec); err != nil {
		return "", err
	}
	return key, nil
}

const keyColumns = `k.id, k.account_id, k.hash, k.prefix, k.name, k.daily_limit, k.form_id, k.created_at, k.revoked_at, k.last_used_at`

// ListKeys returns an account's keys, oldest first, revoked ones included, each
// with its count of requests on the UTC day day (quota.Day).
func (s *Store) ListKeys(ctx context.Context, accountID, day int64) ([]KeyStatus, error) {
	rows, err := s.read.QueryContext(ctx,
		`SELECT `+keyColumns+`, COALESCE(c.n, 0) FROM api_keys k
		 LEFT JOIN request_counts c ON c.key_id = k.id AND c.utc_day = $2
		 WHERE k.account_id = $1 ORDER BY k.id`, accountID, day)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	keys := []KeyStatus{}
	for rows.Next() {
		var k KeyStatus
		if err := scanKey(rows, &k.APIKey, &k.RequestsToday); err != nil {
			return nil, err
		}
		keys = append(keys, k)
	}
	return keys, rows.Err()
}

// KeyByHash finds a live (not revoked) key and its account; NotFound otherwise.
// It is served from the key cache (keycache.go): a key revoked since it was
// cached is refused by CountRequest, which every authenticated request calls.
func (s *Store) KeyByHash(ctx context.Context, hash string) (*APIKey, *Account, error) {
	now := s.Now()
	k, a, epoch, ok := s.keys.lookup(hash, now)
	if ok {
		return k, a, nil
	}
	row := s.read.QueryRowContext(ctx,
		`SELECT `+keyColumns+`, a.id, a.email, a.tier, a.created_at
		 FROM api_keys k JOIN accounts a ON a.id = k.account_id
		 WHERE k.hash = $1 AND k.revoked_at IS NULL`, hash)
	k, a = &APIKey{}, &Account{}
	var accountCreated int64
	if err := scanKey(row, k, &a.ID, &a.Email, &a.Tier, &accountCreated); err != nil {
		return nil, nil, translate(err, "Key")
	}
	a.CreatedAt = fromMS(accountCreated)
	s.keys.put(k, a, now.Add(keyCacheTTL), epoch)
	return k, a, nil
}

// RevokeKey revokes one of an account's keys; NotFound when it has no such live key.
func (s *Store) RevokeKey(ctx context.Context, accountID, keyID int64) error {
	defer s.keys.evict(keyID)
	res, err := s.write.ExecContext(ctx,
		`UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND account_id = $3 AND revoked_at IS NULL`,
		ms(s.Now()), keyID, accountID)
	if err != nil {
		return err
	}
	return requireRow(res, "Key")
}

type scanner interface{ Scan(dest ...any) error }

// scanKey scans keyColumns into k, then the row's further columns into more.
func scanKey(row scanner, k *APIKey, more ...any) error {
	var limit, formID, revoked, lastUsed sql.NullInt64
	var created int64
	dest := append([]any{&k.ID, &k.AccountID, &k.Hash, &k.Prefix, &k.Name, &limit, &formID, &created, &revoked, &lastUsed}, more...)
	if err := row.Scan(dest...); err != nil {
		return err
	}
	if limit.Valid {
		n := int(limit.Int64)
		k.DailyLimit = &n
	}
	if formID.Valid {
		k.FormID = &formID.Int64
	}
	k.CreatedAt, k.RevokedAt, k.LastUsedAt = fromMS(created), nullMS(revoked), nullMS(lastUsed)
	return nil
}

func requireRow(res sql.Result, what string) error {
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return form.Errorf(form.NotFound, "%s not found", what)
	}
	return nil
}
