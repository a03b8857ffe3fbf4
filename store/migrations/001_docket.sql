-- 001: the commission's record. Cases are materialised from an append-only, hash-chained
-- event log; deadlines are never stored (docket derives them from the facts).

-- Case numbers are YYYY-NNN, counted per year of receipt, never reused.
CREATE TABLE case_numbers (
    year INTEGER PRIMARY KEY,
    last INTEGER NOT NULL
) STRICT;

CREATE TABLE cases (
    number           TEXT PRIMARY KEY,            -- YYYY-NNN
    state            TEXT NOT NULL,
    open             INTEGER NOT NULL,            -- 1 unless dismissed, referred or final
    received         TEXT NOT NULL,               -- RFC 3339 instant
    complainant      TEXT NOT NULL,
    complainant_user TEXT NOT NULL DEFAULT '',    -- Slack user id, if any
    respondent       TEXT NOT NULL,
    respondent_user  TEXT NOT NULL DEFAULT '',
    sections         TEXT NOT NULL,               -- comma-separated
    violation_date   TEXT NOT NULL DEFAULT '',
    summary          TEXT NOT NULL,               -- confidential
    doc              TEXT NOT NULL,               -- the docket.Case, JSON
    events           INTEGER NOT NULL,            -- how many events built it
    updated          TEXT NOT NULL
) STRICT;
CREATE INDEX cases_open ON cases(open) WHERE open = 1;

CREATE TRIGGER cases_no_delete BEFORE DELETE ON cases
BEGIN SELECT RAISE(ABORT, 'cases are a public record and are never deleted'); END;

-- Every change to a case. id orders the hash chain across all cases.
CREATE TABLE events (
    id          INTEGER PRIMARY KEY,
    case_number TEXT NOT NULL REFERENCES cases(number),
    seq         INTEGER NOT NULL,                 -- 1, 2, ... within the case
    at          TEXT NOT NULL,                    -- RFC 3339 instant
    by          TEXT NOT NULL,                    -- Slack user id of who acted
    kind        TEXT NOT NULL,                    -- docket action kind
    payload     TEXT NOT NULL,                    -- docket action, JSON
    request     TEXT UNIQUE,                      -- idempotency key of the request, if any
    doc_hash    TEXT NOT NULL,                    -- SHA-256 of the case doc this event produced
    prev_hash   TEXT NOT NULL,                    -- hash of the event before, by id
    hash        TEXT NOT NULL,                    -- SHA-256 over prev_hash and this row
    UNIQUE (case_number, seq)
) STRICT;

CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only: record a new event instead'); END;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only and are never deleted'); END;

-- Materialised from the case: its meetings as they stand now (history is in events).
CREATE TABLE meetings (
    case_number   TEXT NOT NULL REFERENCES cases(number),
    kind          TEXT NOT NULL,                  -- sufficiency, hearing, recessed_hearing, public_hearing
    start         TEXT NOT NULL,
    place         TEXT NOT NULL,
    closed        INTEGER NOT NULL,               -- closed under the Open Meetings Act
    authority     TEXT NOT NULL DEFAULT '',
    notice_posted TEXT NOT NULL DEFAULT '',
    cancelled     TEXT NOT NULL DEFAULT '',       -- when it was cancelled, if it was
    PRIMARY KEY (case_number, kind)
) STRICT;
CREATE INDEX meetings_start ON meetings(start);

-- Materialised from the case: its certified mailings.
CREATE TABLE mailings (
    article     TEXT PRIMARY KEY,                 -- USPS article number, digits only
    case_number TEXT NOT NULL REFERENCES cases(number),
    recipient   TEXT NOT NULL,                    -- respondent or complainant
    mailed      TEXT NOT NULL,
    returned    TEXT NOT NULL DEFAULT '',
    satisfies   TEXT NOT NULL DEFAULT ''          -- the notice rule it meets: (B) or (C)(2)
) STRICT;

-- Elections, by date; a case's candidacies are in its doc.
CREATE TABLE elections (
    date TEXT PRIMARY KEY,
    name TEXT NOT NULL
) STRICT;
