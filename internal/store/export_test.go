package store

import (
	"context"
	"slices"

	"forma/internal/form"
)

// SubmitTogether stores one-shot submissions as CreateSubmission does, all in one
// batch of the group commit, and returns each caller's answer.
func (s *Store) SubmitTogether(subs []*form.Submission) []error {
	batch := make([]*pending, len(subs))
	for i, sub := range subs {
		now := s.Now()
		sub.StartedAt, sub.UpdatedAt, sub.CompletedAt = now, now, &now
		batch[i] = &pending{ctx: context.Background(), done: make(chan error, 1),
			fn: func(ctx context.Context, tx querier) error { return s.insertCompleted(ctx, tx, sub) }}
	}
	all := slices.Clone(batch) // writeBatch reorders and shortens its slice
	s.writeBatch(batch)
	errs := make([]error, len(subs))
	for i, p := range all {
		errs[i] = <-p.done
	}
	return errs
}

// HoldWriters keeps every writer goroutine busy until release is called, so that
// the writes queued meanwhile wait in the queue.
func (s *Store) HoldWriters() (release func()) {
	n := sqliteWriters
	if s.dialect == Postgres {
		n = postgresWriters
	}
	gate := make(chan struct{})
	for range n {
		started := make(chan struct{})
		go s.commit(context.Background(), "", 0, func(context.Context, querier) error {
			close(started)
			<-gate
			return nil
		})
		<-started
	}
	return func() { close(gate) }
}

// Queued reports how many writes wait in the group commit's queue.
func (s *Store) Queued() int { return len(s.group.queue) }

// Exec runs a statement outside the group commit, for tests that install
// triggers.
func (s *Store) Exec(query string) error {
	_, err := s.write.DB.ExecContext(context.Background(), query)
	return err
}
