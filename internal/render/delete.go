package render

import (
	"context"
	"time"

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

// DeleteForm removes one of an account's forms with everything that belongs to
// it (store.DeleteForm), then its uploaded files; NotFound when the account has
// no such form.
func (s *Submissions) DeleteForm(ctx context.Context, accountID, formID int64) error {
	keys, err := s.store.DeleteForm(ctx, accountID, formID)
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

// sweepBatch is how many orphan uploads one statement of SweepOrphans removes.
const sweepBatch = 500

// SweepOrphans deletes the files uploaded before cutoff that no submission uses
// (a respondent who uploaded and never submitted), records first, and returns how
// many it removed. Several nodes may sweep at once: each record goes to one.
func (s *Submissions) SweepOrphans(ctx context.Context, cutoff time.Time) (int, error) {
	n := 0
	for {
		keys, err := s.store.SweepOrphanUploads(ctx, cutoff, sweepBatch)
		if err != nil {
			return n, err
		}
		s.RemoveFiles(ctx, keys)
		n += len(keys)
		if len(keys) < sweepBatch {
			return n, nil
		}
	}
}
