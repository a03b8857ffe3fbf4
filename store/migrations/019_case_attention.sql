-- 019: what on each open case needs the commission's attention, as the clerk's desk (the
-- App Home tab) lists it (docket.Engine.Attention): a row per line it can list, a step
-- overdue, a certified mailing come back, or its papers owed, with the span of instants it
-- is listed in: from since ('' from the first) until just before until ('' for as long as
-- the case stays as it is), as stored instants are written. Written in the transaction of
-- each event that changes the case, with cases.due; a closed case has none. The
-- migration's transaction fills it from the open cases' records, so that the desk counts
-- the lines listed now through an index and decodes only the cases it shows, instead of
-- deriving every open case's deadlines. `ethicsbot verify` checks it against each case's
-- record.
CREATE TABLE case_attention (
    number TEXT NOT NULL REFERENCES cases(number),
    line   INTEGER NOT NULL,
    since  TEXT NOT NULL,
    until  TEXT NOT NULL,
    PRIMARY KEY (number, line)
) STRICT, WITHOUT ROWID;
CREATE INDEX case_attention_by_since ON case_attention(since, until);
-- And each case step's start, as stored instants are written, so that the desk folds the
-- meetings from the day of its next one on (Store.MeetingsFrom), not every meeting ever
-- scheduled; filled by the migration's transaction from the cases' records.
ALTER TABLE case_steps ADD COLUMN start TEXT NOT NULL DEFAULT '';
CREATE INDEX case_steps_by_start ON case_steps(start);
