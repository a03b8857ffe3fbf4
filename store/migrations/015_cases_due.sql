-- 015: each open case's next due instant (docket.Engine.NextDue), kept with the case and
-- written in the transaction of the event that changes it, so that the reminder sweep, the
-- digest and the docket read the cases whose instant has come, not every open case. '' for
-- a case with nothing pending; NULL until the bot, when it opens the record after this
-- migration, derives the instant from each open case's record (a deadline's count needs
-- the calendar, which SQL does not have): a reader takes NULL as due now. `ethicsbot verify` checks
-- it against the record the events made.
ALTER TABLE cases ADD COLUMN due TEXT;
CREATE INDEX cases_open_by_due ON cases(due) WHERE open = 1;
