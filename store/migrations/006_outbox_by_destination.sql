-- 006: the outbox keyed by destination, with the event that caused each post; and no
-- tables that only repeat the case record.
--
-- A post that an action causes is written in the transaction that records the action's
-- event, and names that event, so every committed event has all its posts and a retry adds
-- none. The destination is its own column ('#C…' a channel, '@U…' a user's direct
-- messages) instead of a suffix of the step.
CREATE TABLE outbox_by_dest (
    case_number TEXT NOT NULL,                    -- '' for messages about no one case
    series      TEXT NOT NULL,                    -- a deadline id, 'meeting:<kind>', 'event', 'digest', ...
    step        TEXT NOT NULL,                    -- which step of the series; for 'event', '<event id>.<n>'
    dest        TEXT NOT NULL,                    -- '#C…' or '@U…'
    due         TEXT NOT NULL,                    -- when it should be said
    text        TEXT NOT NULL,                    -- Slack mrkdwn, user text escaped
    event_id    INTEGER REFERENCES events(id),    -- the event that caused it, if any
    claimed     TEXT NOT NULL DEFAULT '',         -- the first claim
    sent        TEXT NOT NULL DEFAULT '',
    channel     TEXT NOT NULL DEFAULT '',
    ts          TEXT NOT NULL DEFAULT '',         -- Slack message ts once sent
    attempts    INTEGER NOT NULL DEFAULT 0,
    last_error  TEXT NOT NULL DEFAULT '',
    failing     TEXT NOT NULL DEFAULT '',         -- since when delivery has failed, or been held back by a failure
    PRIMARY KEY (case_number, series, step, dest)
) STRICT;

-- Steps were written '<step>@<destination>'; a queued post's series was 'post'.
INSERT INTO outbox_by_dest (case_number, series, step, dest, due, text, claimed, sent, channel, ts, attempts, last_error)
SELECT case_number, deadline_id, substr(step, 1, instr(step, '@') - 1), substr(step, instr(step, '@') + 1),
       due, text, claimed, sent, channel, ts, attempts, last_error
FROM outbox WHERE instr(step, '@') > 0;

DROP TABLE outbox;
ALTER TABLE outbox_by_dest RENAME TO outbox;
CREATE INDEX outbox_pending ON outbox(due) WHERE sent = '';
CREATE INDEX outbox_event ON outbox(event_id) WHERE event_id IS NOT NULL;

-- meetings and mailings repeated what each case's record holds, were never read, and
-- filed a return receipt under the wrong case when two cases shared an article number.
-- The case record (cases.doc, rebuilt from the events) is the one place they are kept.
DROP TABLE meetings;
DROP TABLE mailings;
