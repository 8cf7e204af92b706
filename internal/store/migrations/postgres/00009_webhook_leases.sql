-- Webhook jobs are claimed in batches under a lease: a claim that is not finished
-- in time (its server stopped) is released and the job is delivered again, up to
-- a few attempts, which are counted here. The partial index covers the claim
-- query, which takes the oldest unclaimed jobs.

-- +goose Up
ALTER TABLE webhook_jobs ADD COLUMN attempts BIGINT NOT NULL DEFAULT 0;
CREATE INDEX webhook_jobs_unclaimed ON webhook_jobs (id, form_id) WHERE claimed_at IS NULL;

-- +goose Down
DROP INDEX webhook_jobs_unclaimed;
ALTER TABLE webhook_jobs DROP COLUMN attempts;
