package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
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

// Claim says which jobs ClaimWebhookJobs may take.
type Claim struct {
	// Worker names the claimant in the job rows, for operators.
	Worker string
	// Limit bounds the jobs taken.
	Limit int
	// Skip lists the forms none of whose jobs may be taken.
	Skip []int64
}

// ClaimWebhookJobs takes up to c.Limit of the oldest unclaimed jobs, none of the
// forms in c.Skip, in one statement, and marks them claimed now by c.Worker, counting an attempt. They come back oldest
// first. A claim is a lease: ReleaseExpiredClaims offers a job again when its claim
// grows old unfinished. On PostgreSQL SKIP LOCKED lets several nodes claim at once
// without ever taking the same job.
func (s *Store) ClaimWebhookJobs(ctx context.Context, c Claim) ([]WebhookJob, error) {
	args := []any{ms(s.Now()), c.Worker, c.Limit}
	where := `claimed_at IS NULL`
	if len(c.Skip) > 0 {
		marks, ids := idList(len(args), c.Skip)
		where += ` AND form_id NOT IN (` + marks + `)`
		args = append(args, ids...)
	}
	rows, err := s.write.DB.QueryContext(ctx, `UPDATE webhook_jobs SET claimed_at = $1, claimed_by = $2, attempts = attempts + 1
		WHERE id IN (SELECT id FROM webhook_jobs WHERE `+where+` ORDER BY id LIMIT $3`+s.skipLocked()+`)
		RETURNING id, form_id, session_id, url, created_at`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var jobs []WebhookJob
	for rows.Next() {
		var j WebhookJob
		var created int64
		if err := rows.Scan(&j.ID, &j.FormID, &j.SessionID, &j.URL, &created); err != nil {
			return nil, err
		}
		j.CreatedAt = fromMS(created)
		jobs = append(jobs, j)
	}
	slices.SortFunc(jobs, func(a, b WebhookJob) int { return cmp.Compare(a.ID, b.ID) })
	return jobs, rows.Err()
}

// ClaimWebhookJob is ClaimWebhookJobs for the oldest job outside the forms in busy;
// nil when there is none.
func (s *Store) ClaimWebhookJob(ctx context.Context, worker string, busy []int64) (*WebhookJob, error) {
	jobs, err := s.ClaimWebhookJobs(ctx, Claim{Worker: worker, Limit: 1, Skip: busy})
	if err != nil || len(jobs) == 0 {
		return nil, err
	}
	return &jobs[0], nil
}

// FinishedJob is a claimed job and the logged outcome of its delivery.
type FinishedJob struct {
	JobID    int64
	Delivery Delivery
}

// FinishWebhookJobs logs the attempts and removes their jobs, in one transaction
// (one commit for the whole batch).
func (s *Store) FinishWebhookJobs(ctx context.Context, done []FinishedJob) error {
	if len(done) == 0 {
		return nil
	}
	ds := make([]Delivery, len(done))
	ids := make([]int64, len(done))
	for i, f := range done {
		ds[i], ids[i] = f.Delivery, f.JobID
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := insertDeliveries(ctx, tx, ds, s.Now()); err != nil {
			return err
		}
		return deleteJobs(ctx, tx, ids)
	})
}

// FinishWebhookJob is FinishWebhookJobs for one job.
func (s *Store) FinishWebhookJob(ctx context.Context, jobID int64, d *Delivery) error {
	return s.FinishWebhookJobs(ctx, []FinishedJob{{JobID: jobID, Delivery: *d}})
}

// deliveryRows is how many attempts one INSERT of a batch logs. A transaction
// prepares the statements of that many rows and of one once: parsing one
// statement of a whole batch's rows cost more than writing them.
const deliveryRows = 16

// insertDeliveries logs attempts, deliveryRows to a statement and the rest one
// by one.
func insertDeliveries(ctx context.Context, tx *sql.Tx, ds []Delivery, now time.Time) error {
	stmts := map[int]*sql.Stmt{}
	for len(ds) > 0 {
		n := deliveryRows
		if len(ds) < n {
			n = 1
		}
		if stmts[n] == nil {
			stmt, err := tx.PrepareContext(ctx, insertDeliveriesSQL(n))
			if err != nil {
				return err
			}
			stmts[n] = stmt
		}
		args := make([]any, 0, 8*n)
		for _, d := range ds[:n] {
			args = append(args, d.FormID, d.SessionID, d.URL, d.Status, d.ResponseCode, d.ErrorMessage, d.Duration.Milliseconds(), ms(now))
		}
		if _, err := stmts[n].ExecContext(ctx, args...); err != nil {
			return err
		}
		ds = ds[n:]
	}
	return nil
}

// insertDeliveriesSQL is the INSERT of n attempts.
func insertDeliveriesSQL(n int) string {
	var values strings.Builder
	for i := range n {
		if i > 0 {
			values.WriteString(", ")
		}
		k := 8 * i
		fmt.Fprintf(&values, "($%d, $%d, $%d, $%d, $%d, $%d, $%d, $%d)", k+1, k+2, k+3, k+4, k+5, k+6, k+7, k+8)
	}
	return `INSERT INTO webhook_deliveries
		(form_id, session_id, url, status, response_code, error_message, duration_ms, created_at)
		VALUES ` + values.String()
}

// deleteJobs removes jobs from the outbox.
func deleteJobs(ctx context.Context, tx *sql.Tx, ids []int64) error {
	marks, args := idList(0, ids)
	_, err := tx.ExecContext(ctx, `DELETE FROM webhook_jobs WHERE id IN (`+marks+`)`, args...)
	return err
}

// idList returns the placeholders of ids, numbered after the first taken ones, for
// an IN list, and the ids as arguments.
func idList(taken int, ids []int64) (string, []any) {
	marks := make([]string, len(ids))
	args := make([]any, len(ids))
	for i, id := range ids {
		marks[i], args[i] = "$"+itoa(taken+i+1), id
	}
	return strings.Join(marks, ", "), args
}

// ReturnWebhookJobs gives back jobs a worker claimed and never started (its
// server is stopping): they are unclaimed at once, their attempt uncounted, for
// this or another server to take.
func (s *Store) ReturnWebhookJobs(ctx context.Context, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	marks, args := idList(0, ids)
	_, err := s.write.DB.ExecContext(ctx, `UPDATE webhook_jobs SET claimed_at = NULL, claimed_by = NULL, attempts = attempts - 1
		WHERE id IN (`+marks+`)`, args...)
	return err
}

// ReleaseExpiredClaims ends the leases of the jobs claimed before cutoff and never
// finished (their server stopped, or lost its database, mid-delivery). Delivery
// is at most once: a job whose POST had begun (StartWebhookJob) is logged as an
// error and removed, never sent again; one never begun is offered again, unless
// it has had maxAttempts claims (a job that stops every server that takes it,
// before it is sent, cannot do so forever), when it too is logged and removed.
// It returns how many jobs it released and how many it ended.
func (s *Store) ReleaseExpiredClaims(ctx context.Context, cutoff time.Time, maxAttempts int) (released, ended int, err error) {
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		if ended, err = s.endExhaustedJobs(ctx, tx, cutoff, maxAttempts); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE webhook_jobs SET claimed_at = NULL, claimed_by = NULL
			WHERE claimed_at IS NOT NULL AND claimed_at < $1`, ms(cutoff))
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		released = int(n)
		return err
	})
	return released, ended, err
}

// endExhaustedJobs logs and removes the expired claims of jobs that were begun
// or have had maxAttempts claims.
func (s *Store) endExhaustedJobs(ctx context.Context, tx *sql.Tx, cutoff time.Time, maxAttempts int) (int, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, form_id, session_id, url FROM webhook_jobs
		WHERE claimed_at IS NOT NULL AND claimed_at < $1 AND (started_at IS NOT NULL OR attempts >= $2)`+s.forUpdate(),
		ms(cutoff), maxAttempts)
	if err != nil {
		return 0, err
	}
	msg := "delivery interrupted: the server stopped while delivering; not sent again (deliveries are at most once)"
	var ds []Delivery
	var ids []int64
	for rows.Next() {
		d := Delivery{Status: "error", ErrorMessage: &msg}
		var id int64
		if err := rows.Scan(&id, &d.FormID, &d.SessionID, &d.URL); err != nil {
			rows.Close()
			return 0, err
		}
		ds, ids = append(ds, d), append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(ids) == 0 {
		return 0, err
	}
	if err := insertDeliveries(ctx, tx, ds, s.Now()); err != nil {
		return 0, err
	}
	return len(ids), deleteJobs(ctx, tx, ids)
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

// StartWebhookJob records, durably and before anything is sent, that worker
// begins the delivery of job id, which it holds: from then on the job is never
// sent again (ReleaseExpiredClaims). It is NotFound when the worker no longer
// holds the job, which must then not be sent.
func (s *Store) StartWebhookJob(ctx context.Context, id int64, worker string) error {
	return s.commit(ctx, "", 0, func(ctx context.Context, tx querier) error {
		res, err := tx.ExecContext(ctx, `UPDATE webhook_jobs SET started_at = $1 WHERE id = $2 AND claimed_by = $3`,
			ms(s.Now()), id, worker)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err == nil && n == 0 {
			err = form.Errorf(form.NotFound, "webhook job %d is not held by %s", id, worker)
		}
		return err
	})
}

// WebhookQueue reports the outbox: how many jobs wait or are in flight, and when
// the oldest of them was queued (zero when there is none). It counts the outbox,
// which delivery keeps short, and finds the oldest job by its id, so it stays
// cheap enough to run on every metrics scrape.
func (s *Store) WebhookQueue(ctx context.Context) (depth int, oldest time.Time, err error) {
	if err := s.read.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM webhook_jobs`).Scan(&depth); err != nil {
		return 0, time.Time{}, err
	}
	var created int64
	err = s.read.DB.QueryRowContext(ctx, `SELECT created_at FROM webhook_jobs ORDER BY id LIMIT 1`).Scan(&created)
	if errors.Is(err, sql.ErrNoRows) {
		return depth, time.Time{}, nil
	}
	if err != nil {
		return 0, time.Time{}, err
	}
	return depth, fromMS(created), nil
}

// WebhookDelivery returns one logged delivery attempt of a form; NotFound
// otherwise.
func (s *Store) WebhookDelivery(ctx context.Context, formID, id int64) (*Delivery, error) {
	return scanDelivery(s.read.QueryRowContext(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries
		WHERE id = $1 AND form_id = $2`, id, formID))
}

// LogDelivery logs an attempt made outside the outbox (a redelivery an owner
// asked for), giving d its id and time.
func (s *Store) LogDelivery(ctx context.Context, d *Delivery) error {
	d.CreatedAt = s.Now().Truncate(time.Millisecond)
	return s.write.QueryRowContext(ctx, `INSERT INTO webhook_deliveries
		(form_id, session_id, url, status, response_code, error_message, duration_ms, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
		d.FormID, d.SessionID, d.URL, d.Status, d.ResponseCode, d.ErrorMessage, d.Duration.Milliseconds(), ms(d.CreatedAt)).Scan(&d.ID)
}
