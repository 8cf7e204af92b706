package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"forma/internal/auth"
	"forma/internal/form"
)

const formColumns = `id, account_id, title, description, display_mode, share_token, created_at, updated_at,
	published_at, webhook_url, webhook_enabled, settings`

// CreateForm stores f and its questions in one transaction and sets their ids,
// orders and timestamps. f.AccountID must be set; f.ShareToken is issued
// (auth.NewShareToken) when it is empty.
func (s *Store) CreateForm(ctx context.Context, f *form.Form) error {
	return s.inTx(ctx, func(tx *sql.Tx) error { return s.insertForm(ctx, tx, f) })
}

// CreateGeneratedForm is CreateForm for a form an AI operation generated: the form
// and charge c, which it names, are recorded in one transaction (see charge).
func (s *Store) CreateGeneratedForm(ctx context.Context, f *form.Form, c *Charge) error {
	return s.charge(ctx, c, func(tx *sql.Tx) error {
		if err := s.insertForm(ctx, tx, f); err != nil {
			return err
		}
		c.FormID, c.FormName = &f.ID, f.Title
		return nil
	})
}

func (s *Store) insertForm(ctx context.Context, tx *sql.Tx, f *form.Form) error {
	var err error
	if f.ShareToken == "" {
		if f.ShareToken, err = auth.NewShareToken(); err != nil {
			return err
		}
	}
	now := s.Now()
	f.CreatedAt, f.UpdatedAt = now, now
	err = tx.QueryRowContext(ctx,
		`INSERT INTO forms (account_id, title, description, display_mode, share_token, created_at, updated_at, webhook_enabled, settings)
		 VALUES ($1, $2, $3, $4, $5, $6, $6, $7, $8) RETURNING id`,
		f.AccountID, f.Title, f.Description, string(f.DisplayMode), f.ShareToken, ms(now), false, settingsJSON(f.Settings)).Scan(&f.ID)
	if err != nil {
		return translate(err, "Form")
	}
	for i := range f.Questions {
		q := &f.Questions[i]
		q.FormID, q.Order = f.ID, i+1
		if err := insertQuestion(ctx, tx, q); err != nil {
			return err
		}
	}
	return nil
}

// DuplicateForm stores a copy of one of an account's forms (form.Form.Copy: a
// draft with the same details and questions, and a new share token) in one
// transaction, the logic of the copied questions and the settings naming the
// copies (insertCopy). It returns the copy; NotFound when the account has no
// such form.
func (s *Store) DuplicateForm(ctx context.Context, accountID, formID int64) (*form.Form, error) {
	var c *form.Form
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		src, err := getForm(ctx, tx, accountID, formID, s.forUpdate())
		if err != nil {
			return err
		}
		c = src.Copy()
		return s.insertCopy(ctx, tx, c, src.Questions)
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// ImportForm stores f, a form read from a definition (form.Definition.Form), in
// one transaction, as CreateForm does: f.AccountID must be set. Its questions'
// IDs are the definition's refs, which their logic and f's settings name; they
// are renamed to the ids the questions get (insertCopy). On error nothing is
// stored: an Invalid error when the renamed logic is too large
// (form.RemapCopy).
func (s *Store) ImportForm(ctx context.Context, f *form.Form) error {
	refs := slices.Clone(f.Questions)
	return s.inTx(ctx, func(tx *sql.Tx) error { return s.insertCopy(ctx, tx, f, refs) })
}

// insertCopy inserts c, whose questions are copies of originals in the same
// order, then renames the question ids of originals that the copies' logic and
// c's settings name to the copies' ids (form.RemapCopy).
func (s *Store) insertCopy(ctx context.Context, tx *sql.Tx, c *form.Form, originals []form.Question) error {
	if err := s.insertForm(ctx, tx, c); err != nil {
		return err
	}
	changed, err := form.RemapCopy(c, originals)
	if err != nil {
		return err
	}
	for _, i := range changed {
		if err := updateQuestion(ctx, tx, &c.Questions[i]); err != nil {
			return err
		}
	}
	_, err = tx.ExecContext(ctx, `UPDATE forms SET settings = $1 WHERE id = $2`, settingsJSON(c.Settings), c.ID)
	return err
}

// FormContents is what a form holds besides its questions, all of which
// DeleteForm deletes with it.
type FormContents struct {
	// Responses are its completed submissions.
	Responses int
	// Files are the files respondents uploaded, and FileBytes their total size.
	Files     int
	FileBytes int64
	// Keys are the API keys limited to the form, revoked or not.
	Keys int
}

// FormContents counts what one of an account's forms holds; NotFound when the
// account has no such form.
func (s *Store) FormContents(ctx context.Context, accountID, formID int64) (FormContents, error) {
	var c FormContents
	err := s.read.QueryRowContext(ctx, `SELECT
		(SELECT COUNT(*) FROM sessions WHERE form_id = f.id AND completed_at IS NOT NULL),
		(SELECT COUNT(*) FROM uploads WHERE form_id = f.id),
		(SELECT COALESCE(SUM(size), 0) FROM uploads WHERE form_id = f.id),
		(SELECT COUNT(*) FROM api_keys WHERE form_id = f.id)
		FROM forms f WHERE f.id = $1 AND f.account_id = $2`, formID, accountID).
		Scan(&c.Responses, &c.Files, &c.FileBytes, &c.Keys)
	return c, translate(err, "Form")
}

// FormPage is one page of an account's forms.
type FormPage struct {
	Forms []form.Form
	Total int
}

// ListForms returns an account's forms, newest first, without questions, and their
// total, read in one snapshot. When onlyFormID is set only that form is listed
// (for form-scoped keys).
func (s *Store) ListForms(ctx context.Context, accountID int64, onlyFormID *int64, limit, offset int) (*FormPage, error) {
	where, args := `account_id = $1`, []any{accountID}
	if onlyFormID != nil {
		where, args = where+` AND id = $2`, append(args, *onlyFormID)
	}
	page := &FormPage{}
	var err error
	page.Total, err = s.readPage(ctx, limit, offset, false,
		counter(ctx, `SELECT COUNT(*) FROM forms WHERE `+where, args...),
		func(q querier, w window) (err error) {
			page.Forms, err = listForms(ctx, q, where, args, w)
			return err
		})
	if err != nil {
		return nil, err
	}
	return page, nil
}

func listForms(ctx context.Context, q querier, where string, args []any, w window) ([]form.Form, error) {
	n := len(args)
	rows, err := q.QueryContext(ctx,
		`SELECT `+formColumns+` FROM forms WHERE `+where+
			` ORDER BY created_at DESC, id DESC LIMIT $`+itoa(n+1)+` OFFSET $`+itoa(n+2),
		append(args, w.limit, w.offset)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	list := []form.Form{}
	for rows.Next() {
		f, err := scanForm(rows)
		if err != nil {
			return nil, err
		}
		list = append(list, *f)
	}
	return list, rows.Err()
}

// FormActivity is what a form's owner sees of its responses at a glance.
type FormActivity struct {
	Responses    int
	LastResponse *time.Time
}

// FormsActivity returns, for each of an account's forms that has completed
// submissions, their count and the time of the latest; forms without any are absent.
func (s *Store) FormsActivity(ctx context.Context, accountID int64) (map[int64]FormActivity, error) {
	rows, err := s.read.QueryContext(ctx,
		`SELECT s.form_id, COUNT(*), MAX(s.completed_at) FROM sessions s JOIN forms f ON f.id = s.form_id
		 WHERE f.account_id = $1 AND s.completed_at IS NOT NULL GROUP BY s.form_id`, accountID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	activity := map[int64]FormActivity{}
	for rows.Next() {
		var id, last int64
		var a FormActivity
		if err := rows.Scan(&id, &a.Responses, &last); err != nil {
			return nil, err
		}
		t := fromMS(last)
		a.LastResponse = &t
		activity[id] = a
	}
	return activity, rows.Err()
}

// GetForm returns one of an account's forms with its questions in order; NotFound
// when the account has no such form.
func (s *Store) GetForm(ctx context.Context, accountID, formID int64) (*form.Form, error) {
	return getForm(ctx, s.read, accountID, formID, "")
}

// FormExists reports whether the account owns the form.
func (s *Store) FormExists(ctx context.Context, accountID, formID int64) (bool, error) {
	var n int
	err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM forms WHERE id = $1 AND account_id = $2`,
		formID, accountID).Scan(&n)
	return n > 0, err
}

// FormByShareToken returns a form and its questions by its public token, published
// or not, from the form cache (formcache.go): shared, so it must not be modified.
// NotFound when no form has that token.
func (s *Store) FormByShareToken(ctx context.Context, token string) (*CachedForm, error) {
	if !wellFormedID(token) {
		return nil, missing("Form")
	}
	return s.cachedForm(ctx, 0, token)
}

// CachedForm is GetForm from the form cache (formcache.go): the form is shared,
// so it must not be modified. NotFound when the account has no such form.
func (s *Store) CachedForm(ctx context.Context, accountID, formID int64) (*CachedForm, error) {
	if formID <= 0 {
		return nil, missing("Form")
	}
	f, err := s.cachedForm(ctx, formID, "")
	if err == nil && f.Form.AccountID != accountID {
		return nil, missing("Form")
	}
	return f, err
}

// UpdateForm loads an account's form with its questions, lets change modify it, and
// saves title, description, display mode, publication, webhook settings and settings in the
// same transaction. It returns the saved form.
func (s *Store) UpdateForm(ctx context.Context, accountID, formID int64, change func(f *form.Form) error) (*form.Form, error) {
	var f *form.Form
	err := s.changeForm(ctx, formID, func(tx *sql.Tx) error {
		var err error
		if f, err = getForm(ctx, tx, accountID, formID, s.forUpdate()); err != nil {
			return err
		}
		if err := change(f); err != nil {
			return err
		}
		f.UpdatedAt = s.Now()
		_, err = tx.ExecContext(ctx,
			`UPDATE forms SET title = $1, description = $2, display_mode = $3, published_at = $4,
			 webhook_url = $5, webhook_enabled = $6, updated_at = $7, settings = $8 WHERE id = $9`,
			f.Title, f.Description, string(f.DisplayMode), msOrNil(f.PublishedAt),
			f.WebhookURL, f.WebhookEnabled, ms(f.UpdatedAt), settingsJSON(f.Settings), f.ID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return f, nil
}

// DeleteForm removes an account's form with everything that belongs to it, and
// returns the blob keys of its uploaded files for the caller to remove.
func (s *Store) DeleteForm(ctx context.Context, accountID, formID int64) ([]string, error) {
	var keys []string
	err := s.changeForm(ctx, formID, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT u.blob_key FROM uploads u JOIN forms f ON f.id = u.form_id
			WHERE f.id = $1 AND f.account_id = $2`, formID, accountID)
		if err != nil {
			return err
		}
		for rows.Next() {
			var k string
			if err := rows.Scan(&k); err != nil {
				rows.Close()
				return err
			}
			keys = append(keys, k)
		}
		rows.Close()
		res, err := tx.ExecContext(ctx, `DELETE FROM forms WHERE id = $1 AND account_id = $2`, formID, accountID)
		if err != nil {
			return err
		}
		return requireRow(res, "Form")
	})
	return keys, err
}

func getForm(ctx context.Context, q querier, accountID, formID int64, lock string) (*form.Form, error) {
	f, err := scanForm(q.QueryRowContext(ctx,
		`SELECT `+formColumns+` FROM forms WHERE id = $1 AND account_id = $2`+lock, formID, accountID))
	if err != nil {
		return nil, err
	}
	f.Questions, err = listQuestions(ctx, q, f.ID)
	return f, err
}

// scanForm reads a row of formColumns, followed by the columns of extra.
func scanForm(row scanner, extra ...any) (*form.Form, error) {
	var f form.Form
	var mode string
	var created, updated int64
	var published sql.NullInt64
	var webhookURL sql.NullString
	var settings []byte
	err := row.Scan(append([]any{&f.ID, &f.AccountID, &f.Title, &f.Description, &mode, &f.ShareToken,
		&created, &updated, &published, &webhookURL, &f.WebhookEnabled, &settings}, extra...)...)
	if err != nil {
		return nil, translate(err, "Form")
	}
	if err := json.Unmarshal(settings, &f.Settings); err != nil {
		return nil, fmt.Errorf("store: settings of form %d: %w", f.ID, err)
	}
	f.DisplayMode = form.DisplayMode(mode)
	f.CreatedAt, f.UpdatedAt, f.PublishedAt = fromMS(created), fromMS(updated), nullMS(published)
	if webhookURL.Valid {
		f.WebhookURL = &webhookURL.String
	}
	return &f, nil
}

// settingsJSON is the stored form of a form's settings (forms.settings).
func settingsJSON(s form.Settings) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic("store: form settings do not marshal: " + err.Error())
	}
	return string(b)
}
