-- 011: the commission's meetings as a body (issue 19). A meeting holds the case steps
-- scheduled at its start and place (each case keeps its own, in its events) and the
-- commission's other business; what belongs to the meeting alone is recorded here, in a
-- stream of its own: append-only and hash-chained like the case events, with its own
-- chain, so that the case chain and every hash in it stay exactly as they were. The
-- events table cannot take these events: its case_number must name a case.
CREATE TABLE IF NOT EXISTS meeting_events (
    id        INTEGER PRIMARY KEY,
    meeting   TEXT NOT NULL,                 -- the meeting's name, e.g. 2027-01-12
    seq       INTEGER NOT NULL,              -- 1, 2, ... within the meeting
    at        TEXT NOT NULL,                 -- RFC 3339 instant
    by        TEXT NOT NULL,                 -- Slack user id of who acted
    kind      TEXT NOT NULL,                 -- docket meeting action kind
    payload   TEXT NOT NULL,                 -- the action, JSON
    request   TEXT UNIQUE,                   -- idempotency key of the request, if any
    doc_hash  TEXT NOT NULL,                 -- SHA-256 of the meeting doc this event produced
    prev_hash TEXT NOT NULL,                 -- hash of the meeting event before, by id
    hash      TEXT NOT NULL,                 -- SHA-256 over prev_hash and this row
    UNIQUE (meeting, seq)
) STRICT;

CREATE TRIGGER IF NOT EXISTS meeting_events_no_update BEFORE UPDATE ON meeting_events
BEGIN SELECT RAISE(ABORT, 'meeting events are append-only: record a new event instead'); END;
CREATE TRIGGER IF NOT EXISTS meeting_events_no_delete BEFORE DELETE ON meeting_events
BEGIN SELECT RAISE(ABORT, 'meeting events are append-only and are never deleted'); END;

-- Materialised from the meeting's events: the docket.CommissionMeeting as it stands.
CREATE TABLE IF NOT EXISTS commission_meetings (
    name    TEXT PRIMARY KEY,
    start   TEXT NOT NULL,                   -- RFC 3339 instant (UTC)
    place   TEXT NOT NULL,
    doc     TEXT NOT NULL,                   -- the docket.CommissionMeeting, JSON
    events  INTEGER NOT NULL,
    updated TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS commission_meetings_start ON commission_meetings(start);

CREATE TRIGGER IF NOT EXISTS commission_meetings_no_delete BEFORE DELETE ON commission_meetings
BEGIN SELECT RAISE(ABORT, 'meetings are a public record and are never deleted'); END;
