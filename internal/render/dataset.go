package render

import (
	"context"

	"forma/internal/ai/query"
	"forma/internal/form"
	"forma/internal/store"
)

// Dataset loads what the query engine computes from: the form f with its completed
// responses, oldest first, and the count of sessions started on it. The AI features
// and the dashboard's summaries read the same figures from it.
func (s *Submissions) Dataset(ctx context.Context, f *form.Form) (*query.Dataset, error) {
	ds := &query.Dataset{Form: f}
	err := s.store.EachResponse(ctx, f.ID, store.ResponseFilter{Ascending: true}, func(sub *form.Submission) error {
		ds.Responses = append(ds.Responses, *sub)
		return nil
	})
	if err != nil {
		return nil, err
	}
	ds.Started, _, err = s.store.SessionCounts(ctx, f.ID)
	return ds, err
}
