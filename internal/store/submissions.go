package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"forma/internal/form"
)

const submissionColumns = `id, form_id, started_at, updated_at, completed_at, answers, score, hidden`

// StartSession records a new session of a form, with no answers yet and the
// hidden-field values it was started with (validated by the caller; nil for
// none). resumeHash is the hash of the secret its respondent holds (never
// stored itself): GetSession, UpdateSession and CompleteSession find the
// session only with it.
func (s *Store) StartSession(ctx context.Context, formID int64, id, resumeHash string, hidden form.HiddenValues) (*form.Submission, error) {
	now := s.Now()
	sub := &form.Submission{ID: id, FormID: formID, StartedAt: now, UpdatedAt: now, Answers: map[int64]any{}, Hidden: hidden}
	values, err := encodeHidden(hidden)
	if err != nil {
		return nil, err
	}
	err = s.commit(ctx, "", 0, func(ctx context.Context, tx querier) error {
		_, err := tx.ExecContext(ctx,
			`INSERT INTO sessions (id, form_id, started_at, updated_at, answers, resume_hash, hidden) VALUES ($1, $2, $3, $3, '{}', $4, $5)`,
			id, formID, ms(now), resumeHash, values)
		return translate(err, "Session")
	})
	return sub, err
}

// GetSession returns a session of a form that is still in progress and was
// started with resumeHash; NotFound otherwise (an unknown id, another hash, a
// session started before resume hashes existed, or a completed submission), so
// that nothing tells these apart.
func (s *Store) GetSession(ctx context.Context, formID int64, id, resumeHash string) (*form.Submission, error) {
	if !wellFormedID(id) {
		return nil, missing("Submission")
	}
	return scanSubmission(s.read.QueryRowContext(ctx, `SELECT `+submissionColumns+` FROM sessions
		WHERE id = $1 AND form_id = $2 AND resume_hash = $3 AND completed_at IS NULL`, id, formID, resumeHash))
}

// UpdateSession loads an open session of a form started with resumeHash (NotFound
// otherwise), lets change modify its answers, and saves them, binding the files
// they name to it (bindUploads: Invalid when another submission has one); a
// completed submission cannot change (AlreadyCompleted). It commits in a group
// commit (doc.go), where change may run more than once (on a fresh copy of the
// session each time); change must not write through the store.
func (s *Store) UpdateSession(ctx context.Context, formID int64, id, resumeHash string, change func(sub *form.Submission) error) (*form.Submission, error) {
	return s.updateSession(ctx, sessionRef{formID, id, resumeHash}, nil, change)
}

// CompleteSession loads an open session of a form started with resumeHash
// (NotFound otherwise), lets complete set its final answers and score (or
// refuse), and saves it as completed with its files (bindUploads) and completion
// jobs (queueCompletionJobs), all or nothing, in a group commit as UpdateSession
// does. A second completion is AlreadyCompleted. When maxResponses is set and the
// form has that many completed submissions, nothing changes and the answer is
// Closed (checkRoom).
func (s *Store) CompleteSession(ctx context.Context, formID int64, id, resumeHash string, maxResponses *int, complete func(sub *form.Submission) error) (*form.Submission, error) {
	return s.updateSession(ctx, sessionRef{formID, id, resumeHash}, &completion{maxResponses}, complete)
}

// completion is how a session save completes the session: under the form's
// limit of completed submissions, if any.
type completion struct {
	maxResponses *int
}

// sessionRef names a session as its respondent does: its form, its id and the
// hash of its resume token.
type sessionRef struct {
	formID     int64
	id         string
	resumeHash string
}

// updateSession saves a change of a session, completing it when complete is set.
func (s *Store) updateSession(ctx context.Context, ref sessionRef, complete *completion, change func(sub *form.Submission) error) (*form.Submission, error) {
	if !wellFormedID(ref.id) {
		return nil, missing("Submission")
	}
	var sub *form.Submission
	var limited int64
	if complete != nil && complete.maxResponses != nil {
		limited = ref.formID
	}
	err := s.commit(ctx, "sessions "+ref.id, limited, func(ctx context.Context, tx querier) error {
		var err error
		sub, err = scanSubmission(tx.QueryRowContext(ctx, `SELECT `+submissionColumns+` FROM sessions
			WHERE id = $1 AND form_id = $2 AND resume_hash = $3`+s.forUpdate(), ref.id, ref.formID, ref.resumeHash))
		if err != nil {
			return err
		}
		if sub.Completed() {
			return form.Errorf(form.AlreadyCompleted, "This submission was already completed")
		}
		if complete != nil {
			if err := s.checkRoom(ctx, tx, ref.formID, complete.maxResponses); err != nil {
				return err
			}
		}
		if err := change(sub); err != nil {
			return err
		}
		now := s.Now()
		sub.UpdatedAt = now
		if complete != nil {
			sub.CompletedAt = &now
		}
		if err := saveSession(ctx, tx, sub); err != nil {
			return err
		}
		if err := bindUploads(ctx, tx, sub); err != nil {
			return err
		}
		if complete != nil {
			return s.queueCompletionJobs(ctx, tx, sub)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return sub, nil
}

// CreateSubmission stores a one-shot submission, started and completed now, with
// its files (bindUploads: Invalid when another submission has one) and completion
// jobs (queueCompletionJobs), all or nothing, in a group commit (doc.go): it
// returns once they are committed. When maxResponses is set and the form has that
// many completed submissions, nothing is stored and the answer is Closed
// (checkRoom).
func (s *Store) CreateSubmission(ctx context.Context, sub *form.Submission, maxResponses *int) error {
	now := s.Now()
	sub.StartedAt, sub.UpdatedAt, sub.CompletedAt = now, now, &now
	var limited int64
	if maxResponses != nil {
		limited = sub.FormID
	}
	return s.commit(ctx, "", limited, func(ctx context.Context, tx querier) error {
		if err := s.checkRoom(ctx, tx, sub.FormID, maxResponses); err != nil {
			return err
		}
		return s.insertCompleted(ctx, tx, sub)
	})
}

// checkRoom refuses, with Closed, a completion that the form's completed
// submissions leave no room for: maxResponses of them (nil: no limit). It runs
// in the transaction that completes the submission, which holds the form's lock
// on PostgreSQL (lockLimitedForms); SQLite's write transactions are exclusive. So
// no other transaction can complete one of the form's submissions between the
// count and the commit, and the limit is exact across writers and nodes. The
// message is the default one: the caller knows the form's own.
func (s *Store) checkRoom(ctx context.Context, tx querier, formID int64, maxResponses *int) error {
	if maxResponses == nil {
		return nil
	}
	n, err := s.countResponsesUpTo(ctx, tx, formID, *maxResponses)
	if err != nil {
		return err
	}
	if n >= *maxResponses {
		return form.Errorf(form.Closed, "%s", form.DefaultClosedMessage)
	}
	return nil
}

// countResponsesUpTo counts a form's completed submissions, but no further than
// max. SQLite reads the count its triggers keep (form_counts, migration 00009);
// PostgreSQL counts entries of the index sessions_completed, at most max of them,
// so a check costs a read of the index that grows with the limit, not with the
// form's responses.
func (s *Store) countResponsesUpTo(ctx context.Context, q querier, formID int64, max int) (int, error) {
	query := `SELECT COUNT(*) FROM (SELECT 1 FROM sessions WHERE form_id = $1 AND completed_at IS NOT NULL LIMIT $2) AS up_to`
	if s.dialect == SQLite {
		query = `SELECT MIN(COALESCE((SELECT responses FROM form_counts WHERE form_id = $1), 0), $2)`
	}
	var n int
	err := q.QueryRowContext(ctx, query, formID, max).Scan(&n)
	return n, err
}

// FormClosed reports whether f takes no more submissions now
// (form.Settings.Closed), reading its count of responses only when it has a
// limit (countResponsesUpTo). A submission is refused under the same rule, with
// an exact count, in its own transaction (checkRoom).
func (s *Store) FormClosed(ctx context.Context, f *form.Form) (bool, error) {
	responses := 0
	if max := f.Settings.MaxResponses; max != nil {
		var err error
		if responses, err = s.countResponsesUpTo(ctx, s.read, f.ID, *max); err != nil {
			return false, err
		}
	}
	return f.Settings.Closed(s.Now(), responses), nil
}

// CreateSubmissions stores completed submissions as they are (ids, times,
// answers, scores), each with its completion jobs, in one transaction: all or
// none. It is how many submissions are loaded at once.
func (s *Store) CreateSubmissions(ctx context.Context, subs []form.Submission) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		for i := range subs {
			if err := s.insertCompleted(ctx, tx, &subs[i]); err != nil {
				return err
			}
		}
		return nil
	})
}

// insertCompleted writes a completed submission, binds its files and queues its
// completion jobs.
func (s *Store) insertCompleted(ctx context.Context, tx querier, sub *form.Submission) error {
	if !sub.Completed() {
		return fmt.Errorf("submission %s is not completed", sub.ID)
	}
	answers, err := encodeAnswers(sub.Answers)
	if err != nil {
		return err
	}
	hidden, err := encodeHidden(sub.Hidden)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx,
		`INSERT INTO sessions (id, form_id, started_at, updated_at, completed_at, answers, score, hidden)
		 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		sub.ID, sub.FormID, ms(sub.StartedAt), ms(sub.UpdatedAt), ms(*sub.CompletedAt), answers, sub.Score, hidden); err != nil {
		return translate(err, "Submission")
	}
	if err := bindUploads(ctx, tx, sub); err != nil {
		return err
	}
	return s.queueCompletionJobs(ctx, tx, sub)
}

// queueCompletionJobs is the one place that writes the work a completed submission
// sets off: a webhook delivery when its form's webhook is enabled with a URL, and
// the emails of its notifications (queueMail), as the form is when the
// submission commits. It runs in the transaction that completes the submission,
// so the jobs exist if and only if the submission does; the outbox workers
// (packages webhook and mail) take them from there.
func (s *Store) queueCompletionJobs(ctx context.Context, tx querier, sub *form.Submission) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO webhook_jobs (form_id, session_id, url, created_at)
		SELECT id, $2, webhook_url, $3 FROM forms WHERE id = $1 AND webhook_enabled AND webhook_url IS NOT NULL`,
		sub.FormID, sub.ID, ms(s.Now()))
	if err != nil {
		return err
	}
	return s.queueMail(ctx, tx, sub)
}

func saveSession(ctx context.Context, tx querier, sub *form.Submission) error {
	answers, err := encodeAnswers(sub.Answers)
	if err != nil {
		return err
	}
	hidden, err := encodeHidden(sub.Hidden)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx,
		`UPDATE sessions SET answers = $1, score = $2, updated_at = $3, completed_at = $4, hidden = $5 WHERE id = $6`,
		answers, sub.Score, ms(sub.UpdatedAt), msOrNil(sub.CompletedAt), hidden, sub.ID)
	return err
}

func encodeAnswers(a map[int64]any) (string, error) {
	m := make(map[string]any, len(a))
	for id, v := range a {
		m[strconv.FormatInt(id, 10)] = v
	}
	b, err := json.Marshal(m)
	return string(b), err
}

// encodeHidden is the stored form of hidden-field values: a JSON object, or
// NULL when there are none.
func encodeHidden(h form.HiddenValues) (*string, error) {
	if len(h) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(h)
	s := string(b)
	return &s, err
}

func scanSubmission(row scanner) (*form.Submission, error) {
	var sub form.Submission
	var started, updated int64
	var completed sql.NullInt64
	var answers string
	var score sql.NullFloat64
	var hidden sql.NullString
	err := row.Scan(&sub.ID, &sub.FormID, &started, &updated, &completed, &answers, &score, &hidden)
	if err != nil {
		return nil, translate(err, "Submission")
	}
	if hidden.Valid {
		if err := json.Unmarshal([]byte(hidden.String), &sub.Hidden); err != nil {
			return nil, fmt.Errorf("decode stored hidden values of session %s: %w", sub.ID, err)
		}
	}
	sub.StartedAt, sub.UpdatedAt, sub.CompletedAt = fromMS(started), fromMS(updated), nullMS(completed)
	if score.Valid {
		sub.Score = &score.Float64
	}
	if sub.Answers, err = decodeAnswers(answers); err != nil {
		return nil, fmt.Errorf("decode stored answers of session %s: %w", sub.ID, err)
	}
	if sub.Answers == nil {
		sub.Answers = map[int64]any{}
	}
	return &sub, nil
}

// ResponseFilter selects and orders completed submissions.
type ResponseFilter struct {
	Since, Until *time.Time // completion time, inclusive since, exclusive until
	Ascending    bool
	// After, when set, keeps only the submissions that follow it in the order:
	// keyset pagination, which seeks instead of skipping.
	After *ResponseKey
	// Match, when set, keeps only the submissions it accepts (a filter on
	// their answers and hidden values, form.AnswerFilter). SQL cannot apply
	// it: each submission of the time range is read and tested, so a list
	// page with Match reads at most Store.MatchScan of them.
	Match func(*form.Submission) bool
}

// DefaultMatchScan is the most submissions a page of a list with a Match filter
// reads: all those of its time range (to count them), so a page of a form with
// more in that range is refused. At some 10 to 30 µs a submission, a page then
// takes at most one to three seconds. Exports stream and have no bound.
const DefaultMatchScan = 100_000

// ResponseKey is where a completed submission stands in the order of the
// responses lists: by completion time, then by id.
type ResponseKey struct {
	CompletedAt time.Time
	ID          string
}

func (f ResponseFilter) where(formID int64) (string, []any) {
	where, args := `form_id = $1 AND completed_at IS NOT NULL`, []any{formID}
	if f.Since != nil {
		args = append(args, ms(*f.Since))
		where += ` AND completed_at >= $` + itoa(len(args))
	}
	if f.Until != nil {
		args = append(args, ms(*f.Until))
		where += ` AND completed_at < $` + itoa(len(args))
	}
	if f.After != nil {
		args = append(args, ms(f.After.CompletedAt), f.After.ID)
		where += ` AND ` + f.follows(len(args))
	}
	return where, args
}

// follows is the SQL condition that a row comes after the key held by
// parameters $n-1 (completion time) and $n (id) in the filter's order. The
// database compares the ids, as its ORDER BY does (PostgreSQL by the
// collation, which byte order may not match).
func (f ResponseFilter) follows(n int) string {
	cmp := `<`
	if f.Ascending {
		cmp = `>`
	}
	return `(completed_at, id) ` + cmp + ` ($` + itoa(n-1) + `, $` + itoa(n) + `)`
}

// orderBy is the filter's order, or the opposite one when reverse.
func (f ResponseFilter) orderBy(reverse bool) string {
	if f.Ascending != reverse {
		return ` ORDER BY completed_at ASC, id ASC`
	}
	return ` ORDER BY completed_at DESC, id DESC`
}

// ListResponses returns a page of the completed submissions of a form that
// filter selects, and the total of the list (filter.After aside), read in one
// snapshot (readPage). The page skips its offset on the index alone, from the
// nearer end of the list (pageWindow), or seeks past filter.After, and then
// reads only its own rows.
//
// With filter.Match, the page is found by reading every submission of the time
// range in order instead (matchResponses); more than s.MatchScan of them is
// Invalid, naming filter.
func (s *Store) ListResponses(ctx context.Context, formID int64, filter ResponseFilter, limit, offset int) ([]form.Submission, int, error) {
	if filter.Match != nil {
		return s.matchResponses(ctx, formID, filter, limit, offset)
	}
	var list []form.Submission
	total, err := s.readPage(ctx, limit, offset, filter.After == nil,
		func(q querier) (int, error) { return s.countResponses(ctx, q, formID, filter) },
		func(q querier, w window) (err error) {
			list, err = listResponses(ctx, q, formID, filter, w)
			return err
		})
	if err != nil {
		return nil, 0, err
	}
	return list, total, nil
}

// countResponses counts the completed submissions of a form that filter selects,
// filter.After aside. A form's whole total comes from form_counts on SQLite
// (migration 00009 says why not on PostgreSQL); a filtered one is counted on the
// index sessions_completed, within the filter's time range.
func (s *Store) countResponses(ctx context.Context, q querier, formID int64, filter ResponseFilter) (int, error) {
	var total int
	if s.dialect == SQLite && filter.Since == nil && filter.Until == nil {
		err := q.QueryRowContext(ctx, `SELECT COALESCE((SELECT responses FROM form_counts WHERE form_id = $1), 0)`, formID).Scan(&total)
		return total, err
	}
	filter.After = nil
	where, args := filter.where(formID)
	err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM sessions WHERE `+where, args...).Scan(&total)
	return total, err
}

// listResponses reads window w of the completed submissions filter selects, in
// the filter's order, with a deferred join: the inner query walks and skips
// entries of the covering index sessions_completed (form_id, completed_at DESC,
// id DESC) without reading the table, and only the page's rows are then read by
// id.
func listResponses(ctx context.Context, q querier, formID int64, filter ResponseFilter, w window) ([]form.Submission, error) {
	where, args := filter.where(formID)
	n := len(args)
	rows, err := q.QueryContext(ctx, `SELECT `+submissionColumns+` FROM sessions WHERE id IN (
		SELECT id FROM sessions WHERE `+where+filter.orderBy(w.reverse)+` LIMIT $`+itoa(n+1)+` OFFSET $`+itoa(n+2)+`)`+
		filter.orderBy(false), append(args, w.limit, w.offset)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	list := []form.Submission{}
	for rows.Next() {
		sub, err := scanSubmission(rows)
		if err != nil {
			return nil, err
		}
		list = append(list, *sub)
	}
	return list, rows.Err()
}

// matchResponses is ListResponses with filter.Match: in one snapshot, it counts
// the submissions of the time range on the index (refusing more than
// s.MatchScan), then reads them all in order, counting those Match accepts
// and keeping the page of them at offset, or of those after filter.After.
func (s *Store) matchResponses(ctx context.Context, formID int64, filter ResponseFilter, limit, offset int) ([]form.Submission, int, error) {
	list, total := []form.Submission{}, 0
	err := s.snapshot(ctx, func(q querier) error {
		if err := s.checkMatchScan(ctx, q, formID, filter); err != nil {
			return err
		}
		return eachMatch(ctx, q, formID, filter, func(sub *form.Submission, follows bool) {
			total++
			if len(list) < limit && (filter.After == nil && total > offset || filter.After != nil && follows) {
				list = append(list, *sub)
			}
		})
	})
	return list, total, err
}

// checkMatchScan refuses a Match filter whose time range holds more than
// s.MatchScan submissions: Invalid, naming filter.
func (s *Store) checkMatchScan(ctx context.Context, q querier, formID int64, filter ResponseFilter) error {
	n, err := s.countResponses(ctx, q, formID, ResponseFilter{Since: filter.Since, Until: filter.Until})
	if err == nil && n > s.MatchScan {
		err = form.FieldInvalid("filter", "reads every response of its time range, at most %d; this one has %d: narrow it with from and to",
			s.MatchScan, n)
	}
	return err
}

// eachMatch calls fn, in the filter's order, with every completed submission of
// the filter's time range that its Match accepts, and whether it follows
// filter.After (false without one).
func eachMatch(ctx context.Context, q querier, formID int64, filter ResponseFilter, fn func(sub *form.Submission, follows bool)) error {
	after := filter.After
	filter.After = nil
	where, args := filter.where(formID)
	follows := `0 = 1`
	if after != nil {
		args = append(args, ms(after.CompletedAt), after.ID)
		follows = filter.follows(len(args))
	}
	rows, err := q.QueryContext(ctx, `SELECT `+submissionColumns+`, `+follows+` FROM sessions WHERE `+where+filter.orderBy(false), args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var isAfter bool
		sub, err := scanSubmission(withColumn{rows, &isAfter})
		if err != nil {
			return err
		}
		if filter.Match(sub) {
			fn(sub, isAfter)
		}
	}
	return rows.Err()
}

// withColumn scans a row of the submission's columns followed by one more,
// into extra.
type withColumn struct {
	row   scanner
	extra any
}

// Scan implements scanner.
func (w withColumn) Scan(dest ...any) error { return w.row.Scan(append(dest, w.extra)...) }

// EachResponse calls fn for every completed submission of a form matching filter,
// reading them one by one so that any number can be exported in bounded memory.
func (s *Store) EachResponse(ctx context.Context, formID int64, filter ResponseFilter, fn func(*form.Submission) error) error {
	where, args := filter.where(formID)
	rows, err := s.read.QueryContext(ctx, `SELECT `+submissionColumns+` FROM sessions WHERE `+where+filter.orderBy(false), args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		sub, err := scanSubmission(rows)
		if err != nil {
			return err
		}
		if filter.Match != nil && !filter.Match(sub) {
			continue
		}
		if err := fn(sub); err != nil {
			return err
		}
	}
	return rows.Err()
}

// GetResponse returns one completed submission of a form; NotFound otherwise.
func (s *Store) GetResponse(ctx context.Context, formID int64, id string) (*form.Submission, error) {
	if !wellFormedID(id) {
		return nil, missing("Submission")
	}
	return scanSubmission(s.read.QueryRowContext(ctx,
		`SELECT `+submissionColumns+` FROM sessions WHERE id = $1 AND form_id = $2 AND completed_at IS NOT NULL`, id, formID))
}

// GetResponses returns the completed submissions of a form among ids, in no
// particular order; ids that name none are left out.
func (s *Store) GetResponses(ctx context.Context, formID int64, ids []string) ([]form.Submission, error) {
	var args []any
	var marks []string
	for _, id := range ids {
		if wellFormedID(id) {
			args = append(args, id)
			marks = append(marks, "$"+itoa(len(args)))
		}
	}
	if len(marks) == 0 {
		return nil, nil
	}
	// By primary key alone: with the form in the condition, SQLite would rather scan
	// the form's index, every session of the form, for a few ids.
	rows, err := s.read.DB.QueryContext(ctx, `SELECT `+submissionColumns+` FROM sessions WHERE id IN (`+strings.Join(marks, ", ")+`)`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var list []form.Submission
	for rows.Next() {
		sub, err := scanSubmission(rows)
		if err != nil {
			return nil, err
		}
		if sub.FormID == formID && sub.Completed() {
			list = append(list, *sub)
		}
	}
	return list, rows.Err()
}

// DeleteResponse removes a completed submission of a form and the records of the
// files bound to it (bindUploads), and returns those files' blob keys; NotFound when the form
// has no such submission.
func (s *Store) DeleteResponse(ctx context.Context, formID int64, id string) ([]string, error) {
	if !wellFormedID(id) {
		return nil, missing("Submission")
	}
	var keys []string
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		sub, err := scanSubmission(tx.QueryRowContext(ctx, `SELECT `+submissionColumns+` FROM sessions
			WHERE id = $1 AND form_id = $2 AND completed_at IS NOT NULL`+s.forUpdate(), id, formID))
		if err != nil {
			return err
		}
		if keys, err = deleteSessionUploads(ctx, tx, sub); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM sessions WHERE id = $1`, id)
		return err
	})
	return keys, err
}

// deleteSessionUploads removes the records of the files bound to a submission
// (bindUploads) and returns their blob keys. Files only named by its answers but
// bound to another submission stay: they are that one's.
func deleteSessionUploads(ctx context.Context, tx *sql.Tx, sub *form.Submission) ([]string, error) {
	rows, err := tx.QueryContext(ctx, `DELETE FROM uploads WHERE session_id = $1 AND form_id = $2 RETURNING blob_key`, sub.ID, sub.FormID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var keys []string
	for rows.Next() {
		var key string
		if err := rows.Scan(&key); err != nil {
			return nil, err
		}
		keys = append(keys, key)
	}
	return keys, rows.Err()
}

// bindUploads gives the uploads that a submission's file answers name to that
// submission, in its transaction: an upload belongs to the first submission that
// uses it. An upload already bound to another submission is refused: Invalid,
// naming each such answer (answers.<questionId>).
func bindUploads(ctx context.Context, tx querier, sub *form.Submission) error {
	rows, err := tx.QueryContext(ctx, `SELECT id FROM questions WHERE form_id = $1 AND type = $2 ORDER BY position, id`,
		sub.FormID, string(form.FileUpload))
	if err != nil {
		return err
	}
	var fileQuestions []int64
	for rows.Next() {
		var qid int64
		if err := rows.Scan(&qid); err != nil {
			rows.Close()
			return err
		}
		fileQuestions = append(fileQuestions, qid)
	}
	rows.Close()
	var p form.Problems
	for _, qid := range fileQuestions {
		uploadID, ok := sub.Answers[qid].(string)
		if !ok {
			continue
		}
		res, err := tx.ExecContext(ctx, `UPDATE uploads SET session_id = $1
			WHERE id = $2 AND form_id = $3 AND (session_id IS NULL OR session_id = $1)`, sub.ID, uploadID, sub.FormID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			p.AddReason("answers."+strconv.FormatInt(qid, 10), form.NewReason(form.MsgUploadTaken))
		}
	}
	return p.Err()
}

// ResponsesVersion identifies the state of a form's sessions cheaply, for caches
// of what is computed from its responses: it changes when a session is started,
// completed or deleted. (A deletion and a completion that leave the counts, the
// latest completion time and the checksum of completion times all as they were
// would go unseen; completions are stamped with the time they happen, so that
// takes a deletion and an import of a response completed at the same time of
// day to the millisecond.)
type ResponsesVersion struct {
	Started, Completed int
	LastCompleted      int64 // Unix milliseconds; 0 without responses
	// TimeSum adds up the completion times' milliseconds within their day (whole
	// times would overflow a BIGINT past five million responses).
	TimeSum int64
}

// ResponsesVersion reads the version of a form's responses with one query over
// the index of its sessions.
func (s *Store) ResponsesVersion(ctx context.Context, formID int64) (ResponsesVersion, error) {
	var v ResponsesVersion
	var last, sum sql.NullInt64
	err := s.read.QueryRowContext(ctx, `SELECT COUNT(*), COUNT(completed_at), MAX(completed_at),
		CAST(SUM(completed_at % 86400000) AS BIGINT) FROM sessions WHERE form_id = $1`, formID).
		Scan(&v.Started, &v.Completed, &last, &sum)
	v.LastCompleted, v.TimeSum = last.Int64, sum.Int64
	return v, err
}

// VersionOf is the ResponsesVersion of exactly the given completed responses,
// with started sessions: what ResponsesVersion reads when the form holds those.
func VersionOf(started int, responses []form.Submission) ResponsesVersion {
	v := ResponsesVersion{Started: started, Completed: len(responses)}
	for _, r := range responses {
		ms := r.SubmittedAt().UnixMilli()
		v.LastCompleted, v.TimeSum = max(v.LastCompleted, ms), v.TimeSum+ms%86_400_000
	}
	return v
}

// SessionCounts returns how many sessions of a form were started and completed.
func (s *Store) SessionCounts(ctx context.Context, formID int64) (started, completed int, err error) {
	err = s.read.QueryRowContext(ctx,
		`SELECT COUNT(*), COUNT(completed_at) FROM sessions WHERE form_id = $1`, formID).Scan(&started, &completed)
	return started, completed, err
}
