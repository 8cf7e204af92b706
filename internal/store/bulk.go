package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"forma/internal/form"
)

// loadRows is how many submissions one INSERT of LoadSubmissions carries (eight
// parameters each). SQLite finds $N parameters by name, in a list, so a
// statement's cost grows with the square of its parameters: at 500 rows the
// lookups took most of the time, at 50 they are a small part of it.
const loadRows = 50

// LoadSubmissions stores completed submissions of form formID as they are (ids,
// times, answers, scores, hidden values) with multi-row INSERTs in one transaction: all or none.
// It is how a large data set is loaded fast (the benchmark harness loads a million
// responses with it: CreateSubmissions runs three statements per submission), so
// it takes only submissions that set nothing off: it refuses (Invalid) a form
// whose webhook is on or that has file questions — their submissions need their
// webhook jobs queued and their files bound, which CreateSubmissions does — and
// submissions that are not completed or belong to another form. NotFound when
// the form does not exist; Conflict when an id is taken.
func (s *Store) LoadSubmissions(ctx context.Context, formID int64, subs []form.Submission) error {
	for i := range subs {
		if subs[i].FormID != formID || !subs[i].Completed() {
			return form.Errorf(form.Invalid, "submission %s is not a completed submission of form %d", subs[i].ID, formID)
		}
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := loadable(ctx, tx, formID); err != nil {
			return err
		}
		for len(subs) > 0 {
			n := min(len(subs), loadRows)
			if err := insertRows(ctx, tx, subs[:n]); err != nil {
				return err
			}
			subs = subs[n:]
		}
		return nil
	})
}

// loadable refuses a form whose completed submissions set something off.
func loadable(ctx context.Context, tx *sql.Tx, formID int64) error {
	var hooked bool
	var files int
	err := tx.QueryRowContext(ctx, `SELECT webhook_enabled AND webhook_url IS NOT NULL,
		(SELECT COUNT(*) FROM questions WHERE form_id = forms.id AND type = $2)
		FROM forms WHERE id = $1`, formID, string(form.FileUpload)).Scan(&hooked, &files)
	switch {
	case err != nil:
		return translate(err, "Form")
	case hooked:
		return form.Errorf(form.Invalid, "form %d has its webhook on: load its submissions with CreateSubmissions", formID)
	case files > 0:
		return form.Errorf(form.Invalid, "form %d has file questions: load its submissions with CreateSubmissions", formID)
	}
	return nil
}

// insertRows inserts completed submissions with one statement.
func insertRows(ctx context.Context, tx *sql.Tx, subs []form.Submission) error {
	var q strings.Builder
	q.WriteString(`INSERT INTO sessions (id, form_id, started_at, updated_at, completed_at, answers, score, hidden) VALUES `)
	args := make([]any, 0, 8*len(subs))
	for i := range subs {
		sub := &subs[i]
		answers, err := encodeAnswers(sub.Answers)
		if err != nil {
			return err
		}
		hidden, err := encodeHidden(sub.Hidden)
		if err != nil {
			return err
		}
		if i > 0 {
			q.WriteString(", ")
		}
		n := len(args)
		fmt.Fprintf(&q, "($%d, $%d, $%d, $%d, $%d, $%d, $%d, $%d)", n+1, n+2, n+3, n+4, n+5, n+6, n+7, n+8)
		args = append(args, sub.ID, sub.FormID, ms(sub.StartedAt), ms(sub.UpdatedAt), ms(*sub.CompletedAt), answers, sub.Score, hidden)
	}
	_, err := tx.ExecContext(ctx, q.String(), args...)
	return translate(err, "Submission")
}
