package store

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"forma/internal/form"
)

// The kinds of notification emails.
const (
	// MailOwner is an owner notification, to one of the form's recipients.
	MailOwner = "owner"
	// MailConfirmation is a respondent's confirmation.
	MailConfirmation = "confirmation"
)

// The statuses of a logged sending attempt.
const (
	MailSent     = "sent"     // the SMTP server accepted the message
	MailRetrying = "retrying" // it failed and will be tried again
	MailFailed   = "failed"   // it failed and will not be tried again
)

// MailJob is an email waiting in the mail outbox: one message of kind to
// recipient about a completed submission.
type MailJob struct {
	ID        int64
	FormID    int64
	SessionID string
	Kind      string
	Recipient string
	// Attempts counts the claims of the job, this one included.
	Attempts int
}

// MailDelivery is one logged sending attempt.
type MailDelivery struct {
	ID           int64
	FormID       int64
	SessionID    string
	Kind         string
	Recipient    string
	Status       string
	ErrorMessage *string
	Attempt      int
	CreatedAt    time.Time
}

// queueMail writes the mail jobs of a completed submission, in the transaction
// that completes it, when the store queues mail (QueueMail): one job per owner
// recipient of its form's notifications and one for the respondent's
// confirmation (form.Notifications.ConfirmationTo), as the form is when the
// submission commits.
func (s *Store) queueMail(ctx context.Context, tx querier, sub *form.Submission) error {
	if !s.QueueMail {
		return nil
	}
	var settings []byte
	if err := tx.QueryRowContext(ctx, `SELECT settings FROM forms WHERE id = $1`, sub.FormID).Scan(&settings); err != nil {
		return translate(err, "Form")
	}
	if !bytes.Contains(settings, []byte(`"notifications"`)) {
		return nil // most forms: skip decoding
	}
	var fs form.Settings
	if err := json.Unmarshal(settings, &fs); err != nil || fs.Notifications == nil {
		return err
	}
	n := fs.Notifications
	kinds, to := make([]string, 0, len(n.Recipients)+1), slices.Clone(n.Recipients)
	for range n.Recipients {
		kinds = append(kinds, MailOwner)
	}
	if addr := n.ConfirmationTo(sub.Answers); addr != "" {
		kinds, to = append(kinds, MailConfirmation), append(to, addr)
	}
	return s.insertMailJobs(ctx, tx, sub, kinds, to)
}

// insertMailJobs writes one job per recipient in to, of the kind at the same
// index of kinds, due now.
func (s *Store) insertMailJobs(ctx context.Context, tx querier, sub *form.Submission, kinds, to []string) error {
	if len(to) == 0 {
		return nil
	}
	now := ms(s.Now())
	values := make([]string, len(to))
	args := []any{sub.FormID, sub.ID, now}
	for i := range to {
		values[i] = `($1, $2, $` + itoa(len(args)+1) + `, $` + itoa(len(args)+2) + `, $3, $3)`
		args = append(args, kinds[i], to[i])
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO mail_jobs (form_id, session_id, kind, recipient, due_at, created_at)
		VALUES `+strings.Join(values, ", "), args...)
	return err
}

// ClaimMailJobs takes up to limit of the due mail jobs no worker holds, oldest
// due first, marks them claimed now by worker and counts an attempt, in one
// statement (SKIP LOCKED on PostgreSQL: nodes never take the same job).
func (s *Store) ClaimMailJobs(ctx context.Context, worker string, limit int) ([]MailJob, error) {
	rows, err := s.write.DB.QueryContext(ctx, `UPDATE mail_jobs SET claimed_at = $1, claimed_by = $2, attempts = attempts + 1
		WHERE id IN (SELECT id FROM mail_jobs WHERE claimed_at IS NULL AND due_at <= $1 ORDER BY due_at, id LIMIT $3`+s.skipLocked()+`)
		RETURNING id, form_id, session_id, kind, recipient, attempts`, ms(s.Now()), worker, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var jobs []MailJob
	for rows.Next() {
		var j MailJob
		if err := rows.Scan(&j.ID, &j.FormID, &j.SessionID, &j.Kind, &j.Recipient, &j.Attempts); err != nil {
			return nil, err
		}
		jobs = append(jobs, j)
	}
	slices.SortFunc(jobs, func(a, b MailJob) int { return cmp.Compare(a.ID, b.ID) })
	return jobs, rows.Err()
}

// FinishMailJob logs an attempt at a claimed job and, in the same transaction,
// removes the job when the attempt is final (sent, or failed), or gives it back
// due at retryAt (status retrying).
func (s *Store) FinishMailJob(ctx context.Context, job MailJob, status string, errMsg *string, retryAt time.Time) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := s.logMail(ctx, tx, job, status, errMsg); err != nil {
			return err
		}
		if status == MailRetrying {
			_, err := tx.ExecContext(ctx, `UPDATE mail_jobs SET claimed_at = NULL, claimed_by = NULL, due_at = $1 WHERE id = $2`,
				ms(retryAt), job.ID)
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM mail_jobs WHERE id = $1`, job.ID)
		return err
	})
}

// logMail writes one attempt at job to the mail log.
func (s *Store) logMail(ctx context.Context, tx querier, job MailJob, status string, errMsg *string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO mail_deliveries
		(form_id, session_id, kind, recipient, status, error_message, attempt, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		job.FormID, job.SessionID, job.Kind, job.Recipient, status, errMsg, job.Attempts, ms(s.Now()))
	return err
}

// ReleaseMailClaims ends the claims taken before cutoff (their server stopped
// mid-attempt): a job with attempts left is due again at once; one that has
// had maxAttempts is logged as failed and removed. Mail is sent at least once:
// an attempt interrupted after the SMTP server accepted the message is made
// again.
func (s *Store) ReleaseMailClaims(ctx context.Context, cutoff time.Time, maxAttempts int) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT id, form_id, session_id, kind, recipient, attempts FROM mail_jobs
			WHERE claimed_at IS NOT NULL AND claimed_at < $1 AND attempts >= $2`+s.forUpdate(), ms(cutoff), maxAttempts)
		if err != nil {
			return err
		}
		var ended []MailJob
		for rows.Next() {
			var j MailJob
			if err := rows.Scan(&j.ID, &j.FormID, &j.SessionID, &j.Kind, &j.Recipient, &j.Attempts); err != nil {
				rows.Close()
				return err
			}
			ended = append(ended, j)
		}
		rows.Close()
		msg := "interrupted: the server stopped while sending, and the attempts are used up"
		for _, j := range ended {
			if err := s.logMail(ctx, tx, j, MailFailed, &msg); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM mail_jobs WHERE id = $1`, j.ID); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE mail_jobs SET claimed_at = NULL, claimed_by = NULL
			WHERE claimed_at IS NOT NULL AND claimed_at < $1`, ms(cutoff))
		return err
	})
}

// PendingMail counts a form's mail jobs not yet sent or given up.
func (s *Store) PendingMail(ctx context.Context, formID int64) (int, error) {
	var n int
	err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM mail_jobs WHERE form_id = $1`, formID).Scan(&n)
	return n, err
}

const mailColumns = `id, form_id, session_id, kind, recipient, status, error_message, attempt, created_at`

// MailLogs returns a page of a form's sending attempts, newest first: limit
// entries from offset, and their total, in one snapshot.
func (s *Store) MailLogs(ctx context.Context, formID int64, limit, offset int) ([]MailDelivery, int, error) {
	list := []MailDelivery{}
	total, err := s.readPage(ctx, limit, offset, false,
		counter(ctx, `SELECT COUNT(*) FROM mail_deliveries WHERE form_id = $1`, formID),
		func(q querier, w window) error {
			rows, err := q.QueryContext(ctx, `SELECT `+mailColumns+` FROM mail_deliveries WHERE form_id = $1
				ORDER BY id DESC LIMIT $2 OFFSET $3`, formID, w.limit, w.offset)
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
				d, err := scanMailDelivery(rows)
				if err != nil {
					return err
				}
				list = append(list, d)
			}
			return rows.Err()
		})
	if err != nil {
		return nil, 0, err
	}
	return list, total, nil
}

func scanMailDelivery(row scanner) (MailDelivery, error) {
	var d MailDelivery
	var msg sql.NullString
	var created int64
	if err := row.Scan(&d.ID, &d.FormID, &d.SessionID, &d.Kind, &d.Recipient, &d.Status, &msg, &d.Attempt, &created); err != nil {
		return d, err
	}
	if msg.Valid {
		d.ErrorMessage = &msg.String
	}
	d.CreatedAt = fromMS(created)
	return d, nil
}
