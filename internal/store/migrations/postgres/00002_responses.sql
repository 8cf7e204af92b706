-- Submissions (sessions), uploaded files and server-wide settings.

-- +goose Up
CREATE TABLE sessions (
    id           TEXT    PRIMARY KEY,
    form_id      BIGINT NOT NULL REFERENCES forms(id) ON DELETE CASCADE,
    started_at   BIGINT NOT NULL,
    updated_at   BIGINT NOT NULL,
    completed_at BIGINT,
    answers      TEXT    NOT NULL,
    score        DOUBLE PRECISION
);
CREATE INDEX sessions_completed ON sessions (form_id, completed_at DESC, id DESC);

CREATE TABLE uploads (
    id           TEXT    PRIMARY KEY,
    form_id      BIGINT NOT NULL REFERENCES forms(id) ON DELETE CASCADE,
    name         TEXT    NOT NULL,
    size         BIGINT NOT NULL,
    content_type TEXT    NOT NULL,
    blob_key     TEXT    NOT NULL,
    created_at   BIGINT NOT NULL
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
