-- The values of a form's hidden fields that came with a submission
-- (form.Submission.Hidden), as a JSON object of text by field name; NULL when
-- none did, which is most submissions. Filters read them in Go, with the
-- answers (store.ResponseFilter.Match), so nothing indexes them.

-- +goose Up
ALTER TABLE sessions ADD COLUMN hidden TEXT;

-- +goose Down
ALTER TABLE sessions DROP COLUMN hidden;
