-- Each form's totals of the two lists that grow with its traffic, completed
-- submissions and webhook deliveries, kept exact by triggers in the transaction
-- that writes the rows. A page of either list reads its total here instead of
-- counting the form's index entries, which took about 100 ms at a million
-- responses on a 2-core machine.
--
-- SQLite only: it has one writer at a time, so a counter row makes nobody wait.
-- On PostgreSQL every completing transaction of a form would hold the same row
-- locked until its commit (measured: 3,000 completions/s fell to 400 with 32
-- writers), so there the pages count the index.
--
-- Completion is one-way (a completed submission cannot change), so a session
-- counts from the insert or update that completes it until its delete.

-- +goose Up
CREATE TABLE form_counts (
    form_id    INTEGER PRIMARY KEY REFERENCES forms(id) ON DELETE CASCADE,
    responses  INTEGER NOT NULL DEFAULT 0,
    deliveries INTEGER NOT NULL DEFAULT 0
);
INSERT INTO form_counts (form_id, responses, deliveries)
SELECT f.id,
       (SELECT COUNT(*) FROM sessions s WHERE s.form_id = f.id AND s.completed_at IS NOT NULL),
       (SELECT COUNT(*) FROM webhook_deliveries d WHERE d.form_id = f.id)
FROM forms f;

-- +goose StatementBegin
CREATE TRIGGER form_counts_response_inserted AFTER INSERT ON sessions
WHEN NEW.completed_at IS NOT NULL BEGIN
    INSERT INTO form_counts (form_id, responses) VALUES (NEW.form_id, 1)
    ON CONFLICT (form_id) DO UPDATE SET responses = responses + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER form_counts_response_completed AFTER UPDATE OF completed_at ON sessions
WHEN OLD.completed_at IS NULL AND NEW.completed_at IS NOT NULL BEGIN
    INSERT INTO form_counts (form_id, responses) VALUES (NEW.form_id, 1)
    ON CONFLICT (form_id) DO UPDATE SET responses = responses + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER form_counts_response_deleted AFTER DELETE ON sessions
WHEN OLD.completed_at IS NOT NULL BEGIN
    UPDATE form_counts SET responses = responses - 1 WHERE form_id = OLD.form_id;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER form_counts_delivery_inserted AFTER INSERT ON webhook_deliveries BEGIN
    INSERT INTO form_counts (form_id, deliveries) VALUES (NEW.form_id, 1)
    ON CONFLICT (form_id) DO UPDATE SET deliveries = deliveries + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER form_counts_delivery_deleted AFTER DELETE ON webhook_deliveries BEGIN
    UPDATE form_counts SET deliveries = deliveries - 1 WHERE form_id = OLD.form_id;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER form_counts_delivery_deleted;
DROP TRIGGER form_counts_delivery_inserted;
DROP TRIGGER form_counts_response_deleted;
DROP TRIGGER form_counts_response_completed;
DROP TRIGGER form_counts_response_inserted;
DROP TABLE form_counts;
