-- 011: the steps a post offers as buttons (issue 22 §3): a reminder's button opens the
-- form that records the step it names. JSON, a list of outbox.Action; '' for none. A post
-- written before this has none and is said as text, as it always was.
ALTER TABLE outbox ADD COLUMN actions TEXT NOT NULL DEFAULT '';
