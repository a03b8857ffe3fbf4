-- 011: threads in the docket channel (issue 22 §3). The docket channel keeps one parent
-- message per case, its card, updated in place after each action; each event is a reply in
-- its thread. A post that belongs to another's thread names that post's key ('' for none):
-- a reply, or, with edit = 1, a new text for it (chat.update). The parent's channel and ts
-- are its own row's, recorded when Slack acknowledged it, and moved when it is posted again.
ALTER TABLE outbox ADD COLUMN thread TEXT NOT NULL DEFAULT '';
ALTER TABLE outbox ADD COLUMN edit INTEGER NOT NULL DEFAULT 0;
-- A card's updates are found by the card's key, at each update.
CREATE INDEX outbox_thread ON outbox(thread) WHERE thread != '';
