// Package render turns stored submissions into what their readers get: every
// answer under its question's text (form.BuildData), and each file answer as a
// form.FileAnswer with a signed download link (blob.Links). The API's responses and
// exports, the dashboard's responses pages and the webhook payloads all render
// through it, so they agree. It also deletes a response with its files, for the API
// and the dashboard alike.
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
	store    *store.Store
	links    *blob.Links
	blobs    blob.Store
	datasets *datasets
}

// NewSubmissions returns a renderer over st that signs file links with links; blobs
// holds the uploaded files, removed with their responses.
func NewSubmissions(st *store.Store, links *blob.Links, blobs blob.Store) *Submissions {
	return &Submissions{store: st, links: links, blobs: blobs, datasets: newDatasets(DatasetBudget)}
}

// Response is a completed submission as readers see it: the wire shape of the API's
// responses and JSON exports. Hidden, beside data (which maps question texts
// only), holds the values of hidden fields it came with; it is absent when none
// did.
type Response struct {
	ID          string            `json:"id"`
	SubmittedAt string            `json:"submittedAt"`
	Data        form.Data         `json:"data"`
	Hidden      form.HiddenValues `json:"hidden,omitempty"`
	Score       *float64          `json:"score,omitempty"`
}

// Response renders a completed submission with Data.
func (s *Submissions) Response(ctx context.Context, questions []form.Question, sub *form.Submission) (Response, error) {
	return s.response(ctx, questions, form.DataKeys(questions), sub)
}

// Responses renders completed submissions of one form with Response.
func (s *Submissions) Responses(ctx context.Context, questions []form.Question, subs []form.Submission) ([]Response, error) {
	keys := form.DataKeys(questions)
	views := make([]Response, len(subs))
	for i := range subs {
		var err error
		if views[i], err = s.response(ctx, questions, keys, &subs[i]); err != nil {
			return nil, err
		}
	}
	return views, nil
}

// response is Response with the questions' keys (form.DataKeys).
func (s *Submissions) response(ctx context.Context, questions []form.Question, keys map[int64]string, sub *form.Submission) (Response, error) {
	data, err := s.data(ctx, questions, keys, sub)
	return Response{ID: sub.ID, SubmittedAt: form.Timestamp(*sub.CompletedAt), Data: data, Hidden: sub.Hidden, Score: sub.Score}, err
}

// Data renders a submission's answers. questions are the form's questions in order
// followed by its deleted ones (store.AllQuestions). A file answer whose upload is
// gone renders as null; a failed look-up is an error.
func (s *Submissions) Data(ctx context.Context, questions []form.Question, sub *form.Submission) (form.Data, error) {
	return s.data(ctx, questions, form.DataKeys(questions), sub)
}

// data is Data with the questions' keys (form.DataKeys).
func (s *Submissions) data(ctx context.Context, questions []form.Question, keys map[int64]string, sub *form.Submission) (form.Data, error) {
	var failed error
	now := time.Now()
	data := form.BuildDataKeyed(questions, keys, sub.Answers, func(q *form.Question, v any) any {
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
