package store

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"forma/internal/form"
)

// WebhookJob is a delivery waiting in the outbox.
type WebhookJob struct {
	ID        int64
	FormID    int64
	SessionID string
	URL       string
	CreatedAt time.Time
}

// Delivery is one logged delivery attempt.
type Delivery struct {
	ID           int64
	FormID       int64
	SessionID    string
	URL          string
	Status       string // success, failed or error
	ResponseCode *int
	ErrorMessage *string
	Duration     time.Duration
	CreatedAt    time.Time
}

// ClaimWebhookJob takes the oldest unclaimed job, skipping the forms in busy, and
// marks it claimed by worker; nil when there is none. On PostgreSQL, SKIP LOCKED lets
// several nodes claim at once without ever taking the same job.
func (s *Store) ClaimWebhookJob(ctx context.Context, worker string, busy []int64) (*WebhookJob, error) {
	args := []any{ms(s.Now()), worker}
	where := `claimed_at IS NULL`
	if len(busy) > 0 {
		marks := make([]string, len(busy))
		for i, id := range busy {
			args = append(args, id)
			marks[i] = "$" + itoa(len(args))
		}
		where += ` AND form_id NOT IN (` + strings.Join(marks, ", ") + `)`
	}
	lock := ""
	if s.dialect == Postgres {
		lock = ` FOR UPDATE SKIP LOCKED`
	}
	var j WebhookJob
	var created int64
	err := s.write.DB.QueryRowContext(ctx, `UPDATE webhook_jobs SET claimed_at = $1, claimed_by = $2
		WHERE id = (SELECT id FROM webhook_jobs WHERE `+where+` ORDER BY id LIMIT 1`+lock+`)
		RETURNING id, form_id, session_id, url, created_at`, args...).
		Scan(&j.ID, &j.FormID, &j.SessionID, &j.URL, &created)
	if err == sql.ErrNoRows {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	j.CreatedAt = fromMS(created)
	return &j, nil
}

// FinishWebhookJob logs the attempt and removes the job, in one transaction.
func (s *Store) FinishWebhookJob(ctx context.Context, jobID int64, d *Delivery) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := insertDelivery(ctx, tx, d, s.Now()); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM webhook_jobs WHERE id = $1`, jobID)
		return err
	})
}

func insertDelivery(ctx context.Context, tx *sql.Tx, d *Delivery, now time.Time) error {
	d.CreatedAt = now
	return tx.QueryRowContext(ctx, `INSERT INTO webhook_deliveries
		(form_id, session_id, url, status, response_code, error_message, duration_ms, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
		d.FormID, d.SessionID, d.URL, d.Status, d.ResponseCode, d.ErrorMessage, d.Duration.Milliseconds(), ms(now)).Scan(&d.ID)
}

// AbandonStaleJobs ends the jobs claimed before cutoff that never finished (their
// server stopped mid-delivery): each is logged as an error and not sent again, since
// the receiver may already have it (deliveries are at most once). It returns how
// many it ended.
func (s *Store) AbandonStaleJobs(ctx context.Context, cutoff time.Time) (int, error) {
	n := 0
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT id, form_id, session_id, url FROM webhook_jobs
			WHERE claimed_at IS NOT NULL AND claimed_at < $1`, ms(cutoff))
		if err != nil {
			return err
		}
		var jobs []WebhookJob
		for rows.Next() {
			var j WebhookJob
			if err := rows.Scan(&j.ID, &j.FormID, &j.SessionID, &j.URL); err != nil {
				rows.Close()
				return err
			}
			jobs = append(jobs, j)
		}
		rows.Close()
		msg := "delivery interrupted: the server stopped while sending; not retried to avoid a duplicate"
		for _, j := range jobs {
			d := &Delivery{FormID: j.FormID, SessionID: j.SessionID, URL: j.URL, Status: "error", ErrorMessage: &msg}
			if err := insertDelivery(ctx, tx, d, s.Now()); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM webhook_jobs WHERE id = $1`, j.ID); err != nil {
				return err
			}
		}
		n = len(jobs)
		return nil
	})
	return n, err
}

const deliveryColumns = `id, form_id, session_id, url, status, response_code, error_message, duration_ms, created_at`

// WebhookLogs returns a page of a form's delivery attempts, newest first: limit
// entries from offset (read from the nearer end of the log, pageWindow), and
// their total, in one snapshot.
func (s *Store) WebhookLogs(ctx context.Context, formID int64, limit, offset int) ([]Delivery, int, error) {
	return s.webhookLogs(ctx, formID, nil, limit, offset)
}

// WebhookLogsBefore returns the limit delivery attempts of a form that precede
// the one with id before, newest first (keyset pagination: it seeks instead of
// skipping), and the total of the form's log, in one snapshot.
func (s *Store) WebhookLogsBefore(ctx context.Context, formID, before int64, limit int) ([]Delivery, int, error) {
	return s.webhookLogs(ctx, formID, &before, limit, 0)
}

func (s *Store) webhookLogs(ctx context.Context, formID int64, before *int64, limit, offset int) ([]Delivery, int, error) {
	var list []Delivery
	total, err := s.readPage(ctx, limit, offset, before == nil,
		func(q querier) (int, error) { return s.countDeliveries(ctx, q, formID) },
		func(q querier, w window) (err error) {
			list, err = listDeliveries(ctx, q, formID, before, w)
			return err
		})
	if err != nil {
		return nil, 0, err
	}
	return list, total, nil
}

// countDeliveries counts a form's delivery attempts: from form_counts on SQLite
// (migration 00009 says why not on PostgreSQL), on the index
// webhook_deliveries_by_form otherwise.
func (s *Store) countDeliveries(ctx context.Context, q querier, formID int64) (int, error) {
	query := `SELECT COUNT(*) FROM webhook_deliveries WHERE form_id = $1`
	if s.dialect == SQLite {
		query = `SELECT COALESCE((SELECT deliveries FROM form_counts WHERE form_id = $1), 0)`
	}
	var total int
	err := q.QueryRowContext(ctx, query, formID).Scan(&total)
	return total, err
}

// listDeliveries reads window w of a form's delivery attempts older than before
// (when set), newest first, with a deferred join: the inner query skips entries
// of the index webhook_deliveries_by_form (form_id, id DESC) alone, and only the
// page's rows are then read by id.
func listDeliveries(ctx context.Context, q querier, formID int64, before *int64, w window) ([]Delivery, error) {
	where, args := `form_id = $1`, []any{formID}
	if before != nil {
		where, args = where+` AND id < $2`, append(args, *before)
	}
	order := ` ORDER BY id DESC`
	if w.reverse {
		order = ` ORDER BY id ASC`
	}
	n := len(args)
	rows, err := q.QueryContext(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries WHERE id IN (
		SELECT id FROM webhook_deliveries WHERE `+where+order+` LIMIT $`+itoa(n+1)+` OFFSET $`+itoa(n+2)+`)
		ORDER BY id DESC`, append(args, w.limit, w.offset)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	list := []Delivery{}
	for rows.Next() {
		d, err := scanDelivery(rows)
		if err != nil {
			return nil, err
		}
		list = append(list, *d)
	}
	return list, rows.Err()
}

// LastDelivery returns a form's latest delivery attempt, or nil before the first.
func (s *Store) LastDelivery(ctx context.Context, formID int64) (*Delivery, error) {
	d, err := scanDelivery(s.read.QueryRowContext(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries
		WHERE form_id = $1 ORDER BY id DESC LIMIT 1`, formID))
	if form.ErrorCode(err) == form.NotFound {
		return nil, nil
	}
	return d, err
}

func scanDelivery(row scanner) (*Delivery, error) {
	var d Delivery
	var code sql.NullInt64
	var msg sql.NullString
	var dur, created int64
	if err := row.Scan(&d.ID, &d.FormID, &d.SessionID, &d.URL, &d.Status, &code, &msg, &dur, &created); err != nil {
		return nil, translate(err, "Delivery")
	}
	if code.Valid {
		c := int(code.Int64)
		d.ResponseCode = &c
	}
	if msg.Valid {
		d.ErrorMessage = &msg.String
	}
	d.Duration, d.CreatedAt = time.Duration(dur)*time.Millisecond, fromMS(created)
	return &d, nil
}

// SecretOverlap is how long the previous webhook secret still signs after a rotation.
const SecretOverlap = 24 * time.Hour

// WebhookSecrets returns the secrets that sign a form's deliveries: the current one
// (created with create when the form has none yet) and, within SecretOverlap of a
// rotation, the previous one.
func (s *Store) WebhookSecrets(ctx context.Context, formID int64, create func() (string, error)) ([]string, error) {
	var cur, prev sql.NullString
	var rotated sql.NullInt64
	err := s.read.QueryRowContext(ctx, `SELECT webhook_secret, webhook_secret_prev, webhook_secret_rotated_at FROM forms WHERE id = $1`,
		formID).Scan(&cur, &prev, &rotated)
	if err != nil {
		return nil, translate(err, "Form")
	}
	if !cur.Valid {
		secret, err := create()
		if err != nil {
			return nil, err
		}
		if _, err := s.write.ExecContext(ctx, `UPDATE forms SET webhook_secret = $1 WHERE id = $2 AND webhook_secret IS NULL`, secret, formID); err != nil {
			return nil, err
		}
		return s.WebhookSecrets(ctx, formID, create)
	}
	secrets := []string{cur.String}
	if prev.Valid && rotated.Valid && s.Now().Sub(fromMS(rotated.Int64)) < SecretOverlap {
		secrets = append(secrets, prev.String)
	}
	return secrets, nil
}

// RotateWebhookSecret gives an account's form a new signing secret; the old one keeps
// signing for SecretOverlap.
func (s *Store) RotateWebhookSecret(ctx context.Context, accountID, formID int64, secret string) error {
	res, err := s.write.ExecContext(ctx, `UPDATE forms SET webhook_secret_prev = webhook_secret, webhook_secret = $1,
		webhook_secret_rotated_at = $2 WHERE id = $3 AND account_id = $4`, secret, ms(s.Now()), formID, accountID)
	if err != nil {
		return err
	}
	return requireRow(res, "Form")
}

// FormByID returns a form without its questions, whoever owns it (for background
// work, which reads the questions it needs, deleted ones included, with
// AllQuestions).
func (s *Store) FormByID(ctx context.Context, formID int64) (*form.Form, error) {
	return scanForm(s.read.QueryRowContext(ctx, `SELECT `+formColumns+` FROM forms WHERE id = $1`, formID))
}
