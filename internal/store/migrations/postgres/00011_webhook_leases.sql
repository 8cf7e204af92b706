-- Webhook jobs are claimed in batches under a lease. started_at is set, in a
-- committed write, just before a job's POST: when a claim expires (its server
-- stopped), a job never started is offered again (up to a few attempts, counted
-- here) and one started is logged as an error and never sent again, so delivery
-- stays at most once. The partial index covers the claim query, which takes the
-- oldest unclaimed jobs.

-- +goose Up
ALTER TABLE webhook_jobs ADD COLUMN attempts BIGINT NOT NULL DEFAULT 0;
ALTER TABLE webhook_jobs ADD COLUMN started_at BIGINT;
CREATE INDEX webhook_jobs_unclaimed ON webhook_jobs (id, form_id) WHERE claimed_at IS NULL;

-- +goose Down
DROP INDEX webhook_jobs_unclaimed;
ALTER TABLE webhook_jobs DROP COLUMN started_at;
ALTER TABLE webhook_jobs DROP COLUMN attempts;
