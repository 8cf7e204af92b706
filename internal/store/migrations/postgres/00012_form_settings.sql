-- A form's optional owner features beyond api.md (hidden fields, notifications,
-- closing rules, the thank-you screen, embedding, language: form.Settings), kept
-- as one JSON document because nothing queries them by SQL: they travel with the
-- form, through its cache, to the code that applies them.

-- +goose Up
ALTER TABLE forms ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';

-- +goose Down
ALTER TABLE forms DROP COLUMN settings;
