-- AI: one analytics record per form, chat conversations and their messages.

-- +goose Up
CREATE TABLE analytics (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    form_id         INTEGER NOT NULL UNIQUE REFERENCES forms(id) ON DELETE CASCADE,
    total_responses INTEGER NOT NULL,
    completion_rate REAL    NOT NULL,
    insights        TEXT    NOT NULL,
    analyzed_at     INTEGER NOT NULL
);

CREATE TABLE conversations (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    form_id    INTEGER NOT NULL REFERENCES forms(id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX conversations_by_form ON conversations (form_id, updated_at DESC, id DESC);

CREATE TABLE messages (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    role            TEXT    NOT NULL,
    content         TEXT    NOT NULL,
    created_at      INTEGER NOT NULL
);
CREATE INDEX messages_by_conversation ON messages (conversation_id, id);

-- +goose Down
DROP TABLE messages;
DROP TABLE conversations;
DROP TABLE analytics;
