-- The dashboard's sign-in: an account's password (argon2id, encoded with its
-- parameters and salt), browser sessions and one-time setup links (both stored as
-- the SHA-256 of their token) and the recent failed sign-ins that throttle guessing.
-- dashboard_sessions is not "sessions": that table holds respondents' submissions.

-- +goose Up
ALTER TABLE accounts ADD COLUMN password_hash TEXT;

CREATE TABLE dashboard_sessions (
    token_hash TEXT    PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX dashboard_sessions_by_account ON dashboard_sessions (account_id);
CREATE INDEX dashboard_sessions_by_expiry ON dashboard_sessions (expires_at);

CREATE TABLE setup_tokens (
    token_hash TEXT    PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    expires_at INTEGER NOT NULL
);

CREATE TABLE signin_failures (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    email   TEXT    NOT NULL,
    address TEXT    NOT NULL,
    at      INTEGER NOT NULL
);
CREATE INDEX signin_failures_by_email ON signin_failures (email, at);
CREATE INDEX signin_failures_by_address ON signin_failures (address, at);
CREATE INDEX signin_failures_by_time ON signin_failures (at);

-- +goose Down
DROP TABLE signin_failures;
DROP TABLE setup_tokens;
DROP TABLE dashboard_sessions;
ALTER TABLE accounts DROP COLUMN password_hash;
