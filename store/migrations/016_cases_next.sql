-- 016: each open case's next step as the docket lists it (docket.Engine.Nearest): the
-- instant it falls, as stored instants are written; '~undated' for a task without a time
-- limit and '~~none' for a case with no such step, which sort after every instant, in that
-- order. Written with cases.due in the transaction of each event, and derived by the bot
-- for the cases of a record migrated to it (NULL until then), so that `/ethics docket`
-- reads the open cases in its order through an index, up to the 50 it shows, instead of
-- counting every open case's deadlines. `ethicsbot verify` checks it against the record.
ALTER TABLE cases ADD COLUMN next TEXT;
CREATE INDEX cases_open_by_next ON cases(next, received, number) WHERE open = 1;
