package form

import (
	"cmp"
	"slices"
	"time"
)

// Submission is what a respondent submits to a form: answers keyed by question id,
// and the form's score of them. It is built either at once (a one-shot submission)
// or over several saves (a session, CompletedAt nil until it is completed); only
// completed submissions are responses, are exported and fire webhooks.
type Submission struct {
	// ID is opaque, URL-safe and unguessable (128 random bits).
	ID     string
	FormID int64
	// StartedAt is when the respondent began; UpdatedAt the last save.
	StartedAt time.Time
	UpdatedAt time.Time
	// CompletedAt is when the submission was completed, nil while it is open.
	CompletedAt *time.Time
	// Answers maps question ids to answers as ValidateAnswer normalizes them:
	// string (text-like types, select, date "YYYY-MM-DD", time "HH:MM", upload id),
	// float64 (number, currency, slider, rating), bool (yes_no), and []string or
	// []any (multi_select). Unanswered questions are absent.
	Answers map[int64]any
	// Score is the form's score of the answers; nil when the form has no scoring.
	Score *float64
	// Hidden holds the values of the form's hidden fields that came with the
	// submission (hidden.go); nil or empty when none did.
	Hidden HiddenValues
}

// Completed reports whether the submission is complete.
func (s *Submission) Completed() bool { return s.CompletedAt != nil }

// SubmittedAt is the completion time of a completed submission (the zero time for
// an open one).
func (s *Submission) SubmittedAt() time.Time {
	if s.CompletedAt == nil {
		return time.Time{}
	}
	return *s.CompletedAt
}

// FileAnswer is the wire shape of an answer to a file_upload question in responses,
// exports and webhooks: the uploaded file's name, size and sniffed type, and a link
// that downloads it.
type FileAnswer struct {
	Name        string `json:"name"`
	Size        int64  `json:"size"`
	ContentType string `json:"contentType"`
	URL         string `json:"url"`
}

// timestampLayout is RFC 3339 in UTC with milliseconds: 2026-11-22T09:30:00.000Z.
const timestampLayout = "2006-01-02T15:04:05.000Z07:00"

// Timestamp formats t as every time Forma sends is formatted: RFC 3339 in UTC with
// milliseconds.
func Timestamp(t time.Time) string { return t.UTC().Format(timestampLayout) }

// InOrder returns a copy of questions sorted by Order; ties keep their given order.
func InOrder(questions []Question) []Question {
	qs := slices.Clone(questions)
	slices.SortStableFunc(qs, func(a, b Question) int { return cmp.Compare(a.Order, b.Order) })
	return qs
}
