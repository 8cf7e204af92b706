package respond

import (
	"context"
	"time"

	"forma/internal/form"
	"forma/internal/store"
)

// Renderer turns stored submissions into their wire shape: answers keyed by question
// text, files as {name, size, contentType, url} with a signed link.
type Renderer struct {
	store *store.Store
	links *Links
}

// NewRenderer returns a Renderer over st that signs file links with links.
func NewRenderer(st *store.Store, links *Links) *Renderer {
	return &Renderer{store: st, links: links}
}

// Data renders a submission's answers. questions are the form's questions in order
// followed by its deleted ones (store.AllQuestions).
func (rd *Renderer) Data(ctx context.Context, questions []form.Question, sess *form.Submission) (form.Data, error) {
	var failed error
	now := time.Now()
	data := form.BuildData(questions, sess.Answers, func(q *form.Question, v any) any {
		id, ok := v.(string)
		if q.Type != form.FileUpload || !ok {
			return v
		}
		u, err := rd.store.GetUpload(ctx, id)
		if err != nil {
			if form.ErrorCode(err) != form.NotFound {
				failed = err
			}
			return nil
		}
		return form.FileAnswer{Name: u.Name, Size: u.Size, ContentType: u.ContentType, URL: rd.links.FileURL(u.ID, now)}
	})
	return data, failed
}
