-- 018: the posts whose delivery is failing, found without reading every post not yet sent.
-- `/ethics case` and the clerk's desk list them (Store.Stuck) at each request; while Slack
-- is down, or the outbox is paced behind a busy hour, the posts not yet sent are many and
-- those failing few. IF NOT EXISTS: a record an older test or tool rebuilt may have it.
CREATE INDEX IF NOT EXISTS outbox_failing ON outbox(due) WHERE sent = '' AND failing != '';
-- The reminder sweep asks, every minute, which posts are due since the start of its window
-- (Store.Planned): by due, not by reading the whole outbox, which keeps every post ever sent.
CREATE INDEX IF NOT EXISTS outbox_due ON outbox(due);
