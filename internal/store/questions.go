package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"

	"forma/internal/form"
)

const questionColumns = `id, form_id, position, type, text, required, options, logic, slider, currency`

// AddQuestion appends a question to an account's form. build receives the form's
// current questions and returns the validated question to add; it runs inside the
// transaction so that the ids it checks logic against cannot change meanwhile.
func (s *Store) AddQuestion(ctx context.Context, accountID, formID int64, build func(existing []form.Question) (form.Question, error)) (*form.Question, error) {
	var q form.Question
	err := s.changeForm(ctx, formID, func(tx *sql.Tx) error {
		f, err := getForm(ctx, tx, accountID, formID, s.forUpdate())
		if err != nil {
			return err
		}
		if len(f.Questions) >= form.MaxQuestions {
			return form.Errorf(form.Invalid, "a form has at most %d questions", form.MaxQuestions)
		}
		if q, err = build(f.Questions); err != nil {
			return err
		}
		q.FormID, q.Order = f.ID, len(f.Questions)+1
		if err := insertQuestion(ctx, tx, &q); err != nil {
			return err
		}
		return touchForm(ctx, tx, f.ID, s.Now())
	})
	if err != nil {
		return nil, err
	}
	return &q, nil
}

// UpdateQuestion lets change modify one question of an account's form (with the
// form's other questions for reference) and saves it. When moveTo is set the question
// moves to that 1-based position and the others shift so that positions stay 1..n.
func (s *Store) UpdateQuestion(ctx context.Context, accountID, formID, questionID int64, moveTo *int,
	change func(q *form.Question, others []form.Question) error) (*form.Question, error) {
	var out form.Question
	err := s.changeForm(ctx, formID, func(tx *sql.Tx) error {
		f, err := getForm(ctx, tx, accountID, formID, s.forUpdate())
		if err != nil {
			return err
		}
		idx := questionIndex(f.Questions, questionID)
		if idx < 0 {
			return form.Errorf(form.NotFound, "Question not found")
		}
		q := f.Questions[idx]
		others := append(append([]form.Question{}, f.Questions[:idx]...), f.Questions[idx+1:]...)
		if err := change(&q, others); err != nil {
			return err
		}
		q.Order = f.Questions[idx].Order // positions change only through moveTo
		if moveTo != nil {
			if *moveTo < 1 || *moveTo > len(f.Questions) {
				return form.FieldInvalid("order", "must be between 1 and %d", len(f.Questions))
			}
			if err := moveQuestion(ctx, tx, f.ID, q.Order, *moveTo); err != nil {
				return err
			}
			q.Order = *moveTo
		}
		if err := updateQuestion(ctx, tx, &q); err != nil {
			return err
		}
		out = q
		return touchForm(ctx, tx, f.ID, s.Now())
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// DeleteQuestion removes a question from an account's form; the later ones move up.
// A question that another question's logic refers to cannot be deleted (Conflict).
// Its stored answers keep the text it last had.
func (s *Store) DeleteQuestion(ctx context.Context, accountID, formID, questionID int64) error {
	return s.changeForm(ctx, formID, func(tx *sql.Tx) error {
		f, err := getForm(ctx, tx, accountID, formID, s.forUpdate())
		if err != nil {
			return err
		}
		idx := questionIndex(f.Questions, questionID)
		if idx < 0 {
			return form.Errorf(form.NotFound, "Question not found")
		}
		for _, other := range f.Questions {
			if other.ID != questionID && other.Logic != nil && refersTo(other.Logic, questionID) {
				return form.Errorf(form.Conflict, "question %d is used by the conditional logic of question %d; change that logic first", questionID, other.ID)
			}
		}
		now := s.Now()
		if _, err := tx.ExecContext(ctx, `UPDATE questions SET deleted_at = $1 WHERE id = $2`, ms(now), questionID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx,
			`UPDATE questions SET position = position - 1 WHERE form_id = $1 AND deleted_at IS NULL AND position > $2`,
			f.ID, f.Questions[idx].Order); err != nil {
			return err
		}
		return touchForm(ctx, tx, f.ID, now)
	})
}

func refersTo(l *form.ConditionalLogic, id int64) bool {
	for _, ref := range l.References() {
		if ref == id {
			return true
		}
	}
	return false
}

func questionIndex(qs []form.Question, id int64) int {
	for i, q := range qs {
		if q.ID == id {
			return i
		}
	}
	return -1
}

func moveQuestion(ctx context.Context, tx *sql.Tx, formID int64, from, to int) error {
	var err error
	switch {
	case to < from:
		_, err = tx.ExecContext(ctx, `UPDATE questions SET position = position + 1
			WHERE form_id = $1 AND deleted_at IS NULL AND position >= $2 AND position < $3`, formID, to, from)
	case to > from:
		_, err = tx.ExecContext(ctx, `UPDATE questions SET position = position - 1
			WHERE form_id = $1 AND deleted_at IS NULL AND position > $2 AND position <= $3`, formID, from, to)
	}
	return err
}

func touchForm(ctx context.Context, tx *sql.Tx, formID int64, now time.Time) error {
	_, err := tx.ExecContext(ctx, `UPDATE forms SET updated_at = $1 WHERE id = $2`, ms(now), formID)
	return err
}

func insertQuestion(ctx context.Context, tx *sql.Tx, q *form.Question) error {
	cols, err := questionJSON(q)
	if err != nil {
		return err
	}
	return tx.QueryRowContext(ctx,
		`INSERT INTO questions (form_id, position, type, text, required, options, logic, slider, currency)
		 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
		q.FormID, q.Order, string(q.Type), q.Text, q.Required, cols[0], cols[1], cols[2], cols[3]).Scan(&q.ID)
}

func updateQuestion(ctx context.Context, tx *sql.Tx, q *form.Question) error {
	cols, err := questionJSON(q)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx,
		`UPDATE questions SET position = $1, type = $2, text = $3, required = $4, options = $5, logic = $6,
		 slider = $7, currency = $8 WHERE id = $9`,
		q.Order, string(q.Type), q.Text, q.Required, cols[0], cols[1], cols[2], cols[3], q.ID)
	return err
}

// questionJSON encodes the JSON columns of q: options, logic, slider, currency
// (NULL when unset).
func questionJSON(q *form.Question) ([4]any, error) {
	var cols [4]any
	values := [4]any{q.Options, q.Logic, q.Slider, q.Currency}
	present := [4]bool{q.Options != nil, q.Logic != nil, q.Slider != nil, q.Currency != nil}
	for i, v := range values {
		if !present[i] {
			continue
		}
		b, err := json.Marshal(v)
		if err != nil {
			return cols, fmt.Errorf("encode question column: %w", err)
		}
		cols[i] = string(b)
	}
	return cols, nil
}

func listQuestions(ctx context.Context, q querier, formID int64) ([]form.Question, error) {
	return scanQuestions(q.QueryContext(ctx, `SELECT `+questionColumns+` FROM questions
		WHERE form_id = $1 AND deleted_at IS NULL ORDER BY position, id`, formID))
}

func scanQuestions(rows *sql.Rows, err error) ([]form.Question, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	qs := []form.Question{}
	for rows.Next() {
		var qu form.Question
		var typ string
		var options, logic, slider, currency sql.NullString
		if err := rows.Scan(&qu.ID, &qu.FormID, &qu.Order, &typ, &qu.Text, &qu.Required,
			&options, &logic, &slider, &currency); err != nil {
			return nil, err
		}
		qu.Type = form.QuestionType(typ)
		err := decodeColumns([]sql.NullString{options, logic, slider, currency},
			[]any{&qu.Options, &qu.Logic, &qu.Slider, &qu.Currency})
		if err != nil {
			return nil, err
		}
		qs = append(qs, qu)
	}
	return qs, rows.Err()
}

func decodeColumns(cols []sql.NullString, dests []any) error {
	for i, c := range cols {
		if !c.Valid {
			continue
		}
		if err := json.Unmarshal([]byte(c.String), dests[i]); err != nil {
			return fmt.Errorf("decode stored question column: %w", err)
		}
	}
	return nil
}

// AllQuestions returns a form's questions in order, followed by its deleted ones
// (whose answers keep the text the question last had).
func (s *Store) AllQuestions(ctx context.Context, formID int64) ([]form.Question, error) {
	live, err := listQuestions(ctx, s.read, formID)
	if err != nil {
		return nil, err
	}
	deleted, err := scanQuestions(s.read.QueryContext(ctx, `SELECT `+questionColumns+` FROM questions
		WHERE form_id = $1 AND deleted_at IS NOT NULL ORDER BY id`, formID))
	return append(live, deleted...), err
}

// CachedAllQuestions is AllQuestions of a cached form (CachedForm): its
// questions, then its deleted ones, read once per version of the form (Derived;
// deleting a question changes the version) and shared, so not to be modified.
func (s *Store) CachedAllQuestions(ctx context.Context, c *CachedForm) ([]form.Question, error) {
	return Derived(c, allQuestions{}, func(f *form.Form) ([]form.Question, error) {
		deleted, err := scanQuestions(s.read.QueryContext(ctx, `SELECT `+questionColumns+` FROM questions
			WHERE form_id = $1 AND deleted_at IS NOT NULL ORDER BY id`, f.ID))
		// A question deleted since c was read is still one of c's: it stays
		// where c has it, as a request overlapping a change sees the form before it.
		deleted = slices.DeleteFunc(deleted, func(q form.Question) bool {
			return slices.ContainsFunc(f.Questions, func(live form.Question) bool { return live.ID == q.ID })
		})
		return slices.Concat(f.Questions, deleted), err
	})
}

// allQuestions keys CachedAllQuestions among what is derived from a cached form.
type allQuestions struct{}

func itoa(n int) string { return strconv.Itoa(n) }
