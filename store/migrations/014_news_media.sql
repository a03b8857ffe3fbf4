-- 014: the news media's annual requests for the commission's meeting notices (5 ILCS
-- 120/2.02(b)). A request is a fact of the public record, with the day it was filed: each
-- is a stream of events in meeting_events, named 'media-<id>' (a meeting is named by its
-- date, so the two never meet), on the chain of the open-meetings record, so that the
-- anchor that names that chain's head covers the requests too and verify walks them. What
-- the events make of each request is materialised here.
CREATE TABLE IF NOT EXISTS news_media (
    id      INTEGER PRIMARY KEY,             -- 1, 2, ... in the order recorded
    year    INTEGER NOT NULL,                -- the year whose meetings it covers
    doc     TEXT NOT NULL,                   -- the docket.MediaRequest, JSON
    events  INTEGER NOT NULL,
    updated TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS news_media_year ON news_media(year);

CREATE TRIGGER IF NOT EXISTS news_media_no_delete BEFORE DELETE ON news_media
BEGIN SELECT RAISE(ABORT, 'the news media''s requests are a public record and are never deleted'); END;
