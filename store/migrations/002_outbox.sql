-- 002: the reminder outbox. One row per (case, deadline id, step): a reminder is claimed
-- before it is sent and marked sent with Slack's message ts after, so it goes out exactly once.
CREATE TABLE outbox (
    case_number TEXT NOT NULL,                    -- '' for messages about no one case
    deadline_id TEXT NOT NULL,
    step        TEXT NOT NULL,
    due         TEXT NOT NULL,                    -- when it should be said
    claimed     TEXT NOT NULL DEFAULT '',
    sent        TEXT NOT NULL DEFAULT '',
    channel     TEXT NOT NULL DEFAULT '',
    ts          TEXT NOT NULL DEFAULT '',         -- Slack message ts once sent
    attempts    INTEGER NOT NULL DEFAULT 0,
    last_error  TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (case_number, deadline_id, step)
) STRICT;
CREATE INDEX outbox_unsent ON outbox(sent) WHERE sent = '';
