-- 003: small facts about the bot itself, such as when the reminder sweep last ran, so a
-- restart can tell how long it was down.
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) STRICT;
