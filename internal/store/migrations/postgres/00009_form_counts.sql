-- SQLite's migration 00009 adds form_counts, each form's totals of responses and
-- webhook deliveries kept by triggers. PostgreSQL keeps none: every completing
-- transaction of a form would hold the same counter row locked until its commit
-- (measured: 3,000 completions/s fell to 400 with 32 writers), so its pages count
-- the form's index entries instead. This empty step keeps the two dialects'
-- migration numbers in step.

-- +goose Up

-- +goose Down
