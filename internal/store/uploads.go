package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"time"
)

// Upload is a file a respondent uploaded for a form; its bytes live in the blob
// store under BlobKey.
type Upload struct {
	ID          string
	FormID      int64
	Name        string
	Size        int64
	ContentType string
	BlobKey     string
	CreatedAt   time.Time
}

// CreateUpload records an uploaded file.
func (s *Store) CreateUpload(ctx context.Context, u *Upload) error {
	u.CreatedAt = s.Now()
	_, err := s.write.ExecContext(ctx,
		`INSERT INTO uploads (id, form_id, name, size, content_type, blob_key, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		u.ID, u.FormID, u.Name, u.Size, u.ContentType, u.BlobKey, ms(u.CreatedAt))
	return translate(err, "Upload")
}

// GetUpload returns an upload by id; NotFound when there is none.
func (s *Store) GetUpload(ctx context.Context, id string) (*Upload, error) {
	if !wellFormedID(id) {
		return nil, missing("File")
	}
	var u Upload
	var created int64
	err := s.read.QueryRowContext(ctx,
		`SELECT id, form_id, name, size, content_type, blob_key, created_at FROM uploads WHERE id = $1`, id).
		Scan(&u.ID, &u.FormID, &u.Name, &u.Size, &u.ContentType, &u.BlobKey, &created)
	if err != nil {
		return nil, translate(err, "File")
	}
	u.CreatedAt = fromMS(created)
	return &u, nil
}

// Secret returns the server-wide secret of the given name, creating it (32 random
// bytes, base64url) on first use. Every node sharing the database gets the same one.
func (s *Store) Secret(ctx context.Context, name string) (string, error) {
	var v string
	err := s.read.QueryRowContext(ctx, `SELECT value FROM settings WHERE name = $1`, name).Scan(&v)
	if err == nil {
		return v, nil
	}
	if err != sql.ErrNoRows {
		return "", err
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	if _, err := s.write.ExecContext(ctx, `INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`,
		name, base64.RawURLEncoding.EncodeToString(b)); err != nil {
		return "", err
	}
	err = s.write.QueryRowContext(ctx, `SELECT value FROM settings WHERE name = $1`, name).Scan(&v)
	return v, err
}

// SweepOrphanUploads removes the records of at most limit uploads made before
// cutoff that no submission uses, and returns their blob keys for the caller to
// delete. Each record is removed by one statement, so several nodes may sweep at
// once: a record goes to exactly one of them, and a submission that names a swept
// upload is refused as it would be for any missing file.
func (s *Store) SweepOrphanUploads(ctx context.Context, cutoff time.Time, limit int) ([]string, error) {
	rows, err := s.write.QueryContext(ctx, `DELETE FROM uploads WHERE id IN (
		SELECT id FROM uploads WHERE session_id IS NULL AND created_at < $1 ORDER BY created_at LIMIT $2)
		RETURNING blob_key`, ms(cutoff), limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var keys []string
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, err
		}
		keys = append(keys, k)
	}
	return keys, rows.Err()
}
