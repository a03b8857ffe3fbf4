-- 008: a full-text index of every case, open and closed, for /ethics search: the parties'
-- names, the article numbers of its certified mailings, and the summary. It is derived
-- from the case record, never part of it: each case's row is rewritten in the transaction
-- that records an event changing what it holds, `ethicsbot verify` does not read it, and
-- cases recorded before this migration (any case without a row) are indexed when the
-- database is opened. FTS4, not FTS5: go-sqlite3's default build has FTS4 and needs no build tag.
-- docid is derived from the case number (see store/search.go); number is stored, not
-- indexed.
CREATE VIRTUAL TABLE IF NOT EXISTS case_search USING fts4(
    number, parties, articles, summary,
    notindexed=number,
    tokenize=unicode61 "remove_diacritics=2"
);
