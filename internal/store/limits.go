package store

import (
	"context"
	"time"
)

// CountClientHit counts one request under key in a fixed window of the given
// length, and returns how many the key's current window has counted (this one
// included) and when that window started. One atomic upsert does it, so the count
// is exact across every node sharing the database.
func (s *Store) CountClientHit(ctx context.Context, key string, window time.Duration) (hits int, start time.Time, err error) {
	now := s.Now()
	var startMS int64
	err = s.write.QueryRowContext(ctx, `INSERT INTO client_hits (key, window_start, hits) VALUES ($1, $2, 1)
		ON CONFLICT (key) DO UPDATE SET
			hits = CASE WHEN client_hits.window_start <= $3 THEN 1 ELSE client_hits.hits + 1 END,
			window_start = CASE WHEN client_hits.window_start <= $3 THEN $2 ELSE client_hits.window_start END
		RETURNING hits, window_start`, key, ms(now), ms(now.Add(-window))).Scan(&hits, &startMS)
	return hits, fromMS(startMS), err
}

// SweepClientHits removes the counts whose window started before cutoff.
func (s *Store) SweepClientHits(ctx context.Context, cutoff time.Time) error {
	_, err := s.write.ExecContext(ctx, `DELETE FROM client_hits WHERE window_start < $1`, ms(cutoff))
	return err
}
