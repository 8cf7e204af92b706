-- Submissions (sessions), uploaded files and server-wide settings.

-- +goose Up
CREATE TABLE sessions (
    id           TEXT    PRIMARY KEY,
    form_id      INTEGER NOT NULL REFERENCES forms(id) ON DELETE CASCADE,
    started_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL,
    completed_at INTEGER,
    answers      TEXT    NOT NULL,
    score        REAL
);
CREATE INDEX sessions_completed ON sessions (form_id, completed_at DESC, id DESC);

CREATE TABLE uploads (
    id           TEXT    PRIMARY KEY,
    form_id      INTEGER NOT NULL REFERENCES forms(id) ON DELETE CASCADE,
    name         TEXT    NOT NULL,
    size         INTEGER NOT NULL,
    content_type TEXT    NOT NULL,
    blob_key     TEXT    NOT NULL,
    created_at   INTEGER NOT NULL
);
CREATE INDEX uploads_by_form ON uploads (form_id);

CREATE TABLE settings (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- +goose Down
DROP TABLE settings;
DROP TABLE uploads;
DROP TABLE sessions;
