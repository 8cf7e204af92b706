package render

import (
	"context"

	"forma/internal/httpx"
)

// Delete removes a completed submission of a form and the files uploaded with it;
// NotFound when the form has no such submission.
func (s *Submissions) Delete(ctx context.Context, formID int64, id string) error {
	keys, err := s.store.DeleteResponse(ctx, formID, id)
	if err != nil {
		return err
	}
	s.RemoveFiles(ctx, keys)
	return nil
}

// RemoveFiles deletes stored files whose records are gone (store.DeleteResponse,
// store.DeleteForm); a failure leaves an orphan file, which is logged, not an error
// for the caller.
func (s *Submissions) RemoveFiles(ctx context.Context, keys []string) {
	for _, k := range keys {
		if err := s.blobs.Delete(ctx, k); err != nil {
			httpx.LogError(ctx, "delete uploaded file", err)
		}
	}
}
