-- 005: messages that must not be lost, such as public meeting notices, wait in the outbox
-- with their text until Slack accepts them; reminders leave it empty.
ALTER TABLE outbox ADD COLUMN text TEXT NOT NULL DEFAULT '';
