-- 007: a full-text index of every case, open and closed, for /ethics search: the parties'
-- names, the article numbers of its certified mailings, and the summary. It is derived
-- from the case record, never part of it: each case's row is rewritten in the transaction
-- that records the case's event, `ethicsbot verify` does not read it, and cases recorded
-- before this migration (or whose row is missing or behind) are indexed when the database
-- is opened. FTS4, not FTS5: go-sqlite3's default build has FTS4 and needs no build tag.
-- docid is derived from the case number (see store/search.go); number and events are
-- stored, not indexed: events says which version of the case the row was made from.
CREATE VIRTUAL TABLE case_search USING fts4(
    number, events, parties, articles, summary,
    notindexed=number, notindexed=events,
    tokenize=unicode61 "remove_diacritics=2"
);
