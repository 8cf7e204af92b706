-- Uploads belong to the first submission that uses them (session_id), so that
-- deleting one submission never deletes another's file; the HTML form's start
-- tokens are single-use (page_tokens holds the used ones until they expire).

-- +goose Up
ALTER TABLE uploads ADD COLUMN session_id TEXT;
-- Existing files go to the earliest submission whose answers name them.
UPDATE uploads SET session_id = (
    SELECT s.id FROM sessions s, jsonb_each(s.answers::jsonb) a
    WHERE s.form_id = uploads.form_id AND jsonb_typeof(a.value) = 'string' AND a.value #>> '{}' = uploads.id
    ORDER BY s.started_at, s.id LIMIT 1);
CREATE INDEX uploads_by_session ON uploads (session_id);

CREATE TABLE page_tokens (
    token      TEXT   PRIMARY KEY,
    expires_at BIGINT NOT NULL
);
CREATE INDEX page_tokens_by_expiry ON page_tokens (expires_at);

-- +goose Down
DROP TABLE page_tokens;
DROP INDEX uploads_by_session;
ALTER TABLE uploads DROP COLUMN session_id;
