-- Webhook delivery: the outbox of jobs (written with the completed submission),
-- the delivery log, and per-form signing secrets.

-- +goose Up
ALTER TABLE forms ADD COLUMN webhook_secret TEXT;
ALTER TABLE forms ADD COLUMN webhook_secret_prev TEXT;
ALTER TABLE forms ADD COLUMN webhook_secret_rotated_at INTEGER;

CREATE TABLE webhook_jobs (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    form_id    INTEGER NOT NULL REFERENCES forms(id) ON DELETE CASCADE,
    session_id TEXT    NOT NULL,
    url        TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    claimed_at INTEGER,
    claimed_by TEXT
);
CREATE INDEX webhook_jobs_pending ON webhook_jobs (claimed_at, id);

CREATE TABLE webhook_deliveries (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    form_id       INTEGER NOT NULL REFERENCES forms(id) ON DELETE CASCADE,
    session_id    TEXT    NOT NULL,
    url           TEXT    NOT NULL,
    status        TEXT    NOT NULL,
    response_code INTEGER,
    error_message TEXT,
    duration_ms   INTEGER NOT NULL,
    created_at    INTEGER NOT NULL
);
CREATE INDEX webhook_deliveries_by_form ON webhook_deliveries (form_id, id DESC);

-- +goose Down
DROP TABLE webhook_deliveries;
DROP TABLE webhook_jobs;
ALTER TABLE forms DROP COLUMN webhook_secret_rotated_at;
ALTER TABLE forms DROP COLUMN webhook_secret_prev;
ALTER TABLE forms DROP COLUMN webhook_secret;
