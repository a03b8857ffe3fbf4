-- 010: the case file. The bytes of each document kept with a case (the complaint as
-- received, exhibits, evidence, correspondence), content-addressed by SHA-256. The event
-- that adds a document to a case (docket.AddDocument, kind "document") carries the hash,
-- so the hash chain covers the bytes, and verify checks each row against its key.
-- Append-only like the events: a document is withdrawn by voiding the event that added
-- it, never deleted; the same bytes added to two cases are one row.
CREATE TABLE IF NOT EXISTS documents (
    sha256 TEXT PRIMARY KEY,          -- SHA-256 of data, lower-case hex
    size   INTEGER NOT NULL,          -- length of data, in bytes
    data   BLOB NOT NULL
) STRICT;

CREATE TRIGGER IF NOT EXISTS documents_no_update BEFORE UPDATE ON documents
BEGIN SELECT RAISE(ABORT, 'documents are append-only: a document is withdrawn by a void, never changed'); END;
CREATE TRIGGER IF NOT EXISTS documents_no_delete BEFORE DELETE ON documents
BEGIN SELECT RAISE(ABORT, 'documents are append-only and are never deleted'); END;
