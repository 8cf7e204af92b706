-- Per-client request limits (submissions, session starts, saves) are counted in
-- the database, so that they hold across every node sharing it: one row per
-- client, form and kind, holding its current fixed window. The partial index
-- serves the sweep of uploads no submission ever used.

-- +goose Up
CREATE TABLE client_hits (
    key          TEXT    PRIMARY KEY,
    window_start BIGINT NOT NULL,
    hits         BIGINT NOT NULL
);
CREATE INDEX client_hits_by_window ON client_hits (window_start);
CREATE INDEX uploads_unused ON uploads (created_at) WHERE session_id IS NULL;

-- +goose Down
DROP INDEX uploads_unused;
DROP TABLE client_hits;
