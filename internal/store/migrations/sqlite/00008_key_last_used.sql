-- When each API key was last used (the time of its last counted request), for the
-- owner's key list.

-- +goose Up
ALTER TABLE api_keys ADD COLUMN last_used_at INTEGER;

-- +goose Down
ALTER TABLE api_keys DROP COLUMN last_used_at;
