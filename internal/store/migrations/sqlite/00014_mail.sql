-- Email notifications: the mail outbox (one job per message, written with the
-- completed submission: store.queueMail) and the log of every sending attempt.
-- A job is due at due_at; a failed attempt makes it due again later (backoff),
-- up to a few attempts, counted here. The partial index covers the claim query,
-- which takes the due jobs no worker holds.

-- +goose Up
CREATE TABLE mail_jobs (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    form_id    INTEGER NOT NULL REFERENCES forms(id) ON DELETE CASCADE,
    session_id TEXT NOT NULL,
    kind       TEXT NOT NULL,
    recipient  TEXT NOT NULL,
    attempts   INTEGER NOT NULL DEFAULT 0,
    due_at     INTEGER NOT NULL,
    claimed_at INTEGER,
    claimed_by TEXT,
    created_at INTEGER NOT NULL
);
CREATE INDEX mail_jobs_due ON mail_jobs (due_at, id) WHERE claimed_at IS NULL;

CREATE TABLE mail_deliveries (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    form_id       INTEGER NOT NULL REFERENCES forms(id) ON DELETE CASCADE,
    session_id    TEXT NOT NULL,
    kind          TEXT NOT NULL,
    recipient     TEXT NOT NULL,
    status        TEXT NOT NULL,
    error_message TEXT,
    attempt       INTEGER NOT NULL,
    created_at    INTEGER NOT NULL
);
CREATE INDEX mail_deliveries_by_form ON mail_deliveries (form_id, id DESC);

-- +goose Down
DROP TABLE mail_deliveries;
DROP TABLE mail_jobs;
