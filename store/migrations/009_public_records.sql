-- 009: what the ordinance makes public of each case, as the public notice board shows it,
-- and when each record first appeared there.
--
-- Derived from the case record, like the cases table: written in the transaction that
-- appends each event, so the board never shows what the record does not hold, and checked
-- against the record by verify. A record that no longer stands (a voided decision) keeps
-- its row, marked removed, so the time it was first posted is never lost. The rows of
-- cases recorded before this migration are filled when it is applied, posted then: that
-- is when the board first showed them. verify checks each posted time against its event,
-- or against the time this migration was applied.
CREATE TABLE IF NOT EXISTS public_records (
    case_number TEXT NOT NULL REFERENCES cases(number),
    key         TEXT NOT NULL,            -- docket.PublicRecord.Key
    record      TEXT NOT NULL,            -- the docket.PublicRecord, as JSON
    sort        TEXT NOT NULL,            -- when it happens or happened (RFC 3339, UTC): the board's order
    posted      TEXT NOT NULL,            -- when it first appeared on the board: the time of posted_event
    posted_event INTEGER REFERENCES events(id), -- the event that made it public; NULL when filled by this migration, posted when it was applied
    removed     TEXT NOT NULL DEFAULT '', -- when it stopped standing; '' while it stands
    PRIMARY KEY (case_number, key)
) STRICT;
CREATE INDEX IF NOT EXISTS public_records_standing ON public_records(sort) WHERE removed = '';
