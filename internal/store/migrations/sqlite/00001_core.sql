-- Core tables: accounts, API keys, daily request counters, forms, questions and the
-- credit ledger. Times are integer Unix milliseconds (UTC); booleans are 0/1.

-- +goose Up
CREATE TABLE accounts (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    email      TEXT    NOT NULL UNIQUE,
    tier       TEXT    NOT NULL,
    created_at INTEGER NOT NULL
);

CREATE TABLE forms (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id      INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    title           TEXT    NOT NULL,
    description     TEXT    NOT NULL DEFAULT '',
    display_mode    TEXT    NOT NULL,
    share_token     TEXT    NOT NULL UNIQUE,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    published_at    INTEGER,
    webhook_url     TEXT,
    webhook_enabled INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX forms_by_account ON forms (account_id, created_at DESC, id DESC);

CREATE TABLE api_keys (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id   INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    hash         TEXT    NOT NULL UNIQUE,
    prefix       TEXT    NOT NULL,
    name         TEXT    NOT NULL,
    daily_limit  INTEGER,
    form_id      INTEGER REFERENCES forms(id) ON DELETE CASCADE,
    created_at   INTEGER NOT NULL,
    revoked_at   INTEGER
);
CREATE INDEX api_keys_by_account ON api_keys (account_id, id);

CREATE TABLE request_counts (
    key_id  INTEGER NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
    utc_day INTEGER NOT NULL,
    n       INTEGER NOT NULL,
    PRIMARY KEY (key_id, utc_day)
);

CREATE TABLE questions (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    form_id    INTEGER NOT NULL REFERENCES forms(id) ON DELETE CASCADE,
    position   INTEGER NOT NULL,
    type       TEXT    NOT NULL,
    text       TEXT    NOT NULL,
    required   INTEGER NOT NULL,
    options    TEXT,
    logic      TEXT,
    slider     TEXT,
    currency   TEXT,
    deleted_at INTEGER
);
CREATE INDEX questions_by_form ON questions (form_id, position);

CREATE TABLE credit_ledger (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    endpoint   TEXT    NOT NULL,
    credits    INTEGER NOT NULL,
    form_id    INTEGER,
    form_name  TEXT    NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX credit_ledger_by_account ON credit_ledger (account_id, created_at, id);

-- +goose Down
DROP TABLE credit_ledger;
DROP TABLE questions;
DROP TABLE request_counts;
DROP TABLE api_keys;
DROP TABLE forms;
DROP TABLE accounts;
