-- A counter that every change of a form or of its questions raises in the same
-- transaction, so that a node can tell with one indexed single-row read whether
-- the form it keeps in memory is still current (store/formcache.go).

-- +goose Up
ALTER TABLE forms ADD COLUMN version INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE forms DROP COLUMN version;
