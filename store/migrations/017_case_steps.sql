-- 017: each case step scheduled at a meeting (docket.ScheduledSteps), kept with the case
-- and written in the transaction of each event that changes the case, so that the
-- commission's meetings are folded from these rows (Store.Meetings) instead of from every
-- case's record decoded. kind is the step's place in docket.MeetingKinds, the order the
-- fold takes a case's steps in; step is the item, its meeting's start and place as JSON.
-- The migration's transaction fills it from the cases' records; `ethicsbot verify` checks
-- it against each case's record.
CREATE TABLE case_steps (
    number TEXT NOT NULL REFERENCES cases(number),
    kind   INTEGER NOT NULL,
    step   TEXT NOT NULL,
    PRIMARY KEY (number, kind)
) STRICT;
