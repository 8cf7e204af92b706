// Package render turns stored submissions into what their readers get: every
// answer under its question's text (form.BuildData), and each file answer as a
// form.FileAnswer with a signed download link (blob.Links). The API's responses and
// exports and the webhook payloads all render through it, so they agree.
package render

import (
	"context"
	"time"

	"forma/internal/blob"
	"forma/internal/form"
	"forma/internal/store"
)

// Submissions renders the submissions stored in a store.
type Submissions struct {
	store *store.Store
	links *blob.Links
}

// NewSubmissions returns a renderer over st that signs file links with links.
func NewSubmissions(st *store.Store, links *blob.Links) *Submissions {
	return &Submissions{store: st, links: links}
}

// Data renders a submission's answers. questions are the form's questions in order
// followed by its deleted ones (store.AllQuestions). A file answer whose upload is
// gone renders as null; a failed look-up is an error.
func (s *Submissions) Data(ctx context.Context, questions []form.Question, sub *form.Submission) (form.Data, error) {
	var failed error
	now := time.Now()
	data := form.BuildData(questions, sub.Answers, func(q *form.Question, v any) any {
		id, ok := v.(string)
		if q.Type != form.FileUpload || !ok {
			return v
		}
		u, err := s.store.GetUpload(ctx, id)
		if err != nil {
			if form.ErrorCode(err) != form.NotFound {
				failed = err
			}
			return nil
		}
		return form.FileAnswer{Name: u.Name, Size: u.Size, ContentType: u.ContentType, URL: s.links.FileURL(u.ID, now)}
	})
	return data, failed
}
