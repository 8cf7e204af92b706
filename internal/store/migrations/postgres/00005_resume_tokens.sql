-- Sessions in progress are resumed only with the secret their respondent's browser
-- holds: resume_hash is the SHA-256 (hex) of that resume token. Sessions started
-- before this migration have none, so the public API cannot resume them.

-- +goose Up
ALTER TABLE sessions ADD COLUMN resume_hash TEXT;

-- +goose Down
ALTER TABLE sessions DROP COLUMN resume_hash;
