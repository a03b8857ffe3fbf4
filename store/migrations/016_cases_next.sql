-- 016: what `/ethics docket` reads of each case without decoding it. next is its next step
-- as the docket lists it (docket.Engine.Nearest): the instant it falls, as stored instants
-- are written; '~undated' for a task without a time limit and '~~none' for a case with no
-- such step, which sort after every instant, in that order. recused is the Slack ids of
-- those the case is hidden from (docket.Case.Recused: its parties and the members recused),
-- each between spaces, or ''. Both are written with cases.due in the transaction of each
-- event, and derived by the bot for the cases of a record migrated to it (NULL until then),
-- so that the docket reads the open cases in its order through an index, up to the 50 it
-- shows, and leaves out the viewer's through another, instead of counting every open
-- case's deadlines. `ethicsbot verify` checks them against the record.
ALTER TABLE cases ADD COLUMN next TEXT;
ALTER TABLE cases ADD COLUMN recused TEXT;
CREATE INDEX cases_open_by_next ON cases(next, received, number) WHERE open = 1;
CREATE INDEX cases_open_recused ON cases(recused, number) WHERE open = 1 AND recused <> '';
