PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied TEXT NOT NULL) STRICT;
INSERT INTO schema_migrations VALUES(1,'001_docket.sql','2026-12-03T16:37:12Z');
INSERT INTO schema_migrations VALUES(2,'002_outbox.sql','2026-12-03T16:37:12Z');
INSERT INTO schema_migrations VALUES(3,'003_meta.sql','2026-12-03T16:37:12Z');
INSERT INTO schema_migrations VALUES(4,'004_open_cases_index.sql','2026-12-03T16:37:12Z');
INSERT INTO schema_migrations VALUES(5,'005_outbox_text.sql','2026-12-03T16:37:12Z');
INSERT INTO schema_migrations VALUES(6,'006_outbox_by_destination.sql','2026-12-03T16:37:12Z');
INSERT INTO schema_migrations VALUES(7,'007_calendar.sql','2026-12-03T16:37:12Z');
INSERT INTO schema_migrations VALUES(8,'008_search.sql','2026-12-03T16:37:12Z');
INSERT INTO schema_migrations VALUES(9,'009_public_records.sql','2026-12-03T16:37:12Z');
INSERT INTO schema_migrations VALUES(10,'010_documents.sql','2026-12-03T16:37:12Z');
CREATE TABLE case_numbers (
    year INTEGER PRIMARY KEY,
    last INTEGER NOT NULL
) STRICT;
INSERT INTO case_numbers VALUES(2026,2);
CREATE TABLE cases (
    number           TEXT PRIMARY KEY,            -- YYYY-NNN
    state            TEXT NOT NULL,
    open             INTEGER NOT NULL,            -- 1 unless dismissed, referred or final
    received         TEXT NOT NULL,               -- RFC 3339 instant
    complainant      TEXT NOT NULL,
    complainant_user TEXT NOT NULL DEFAULT '',    -- Slack user id, if any
    respondent       TEXT NOT NULL,
    respondent_user  TEXT NOT NULL DEFAULT '',
    sections         TEXT NOT NULL,               -- comma-separated
    violation_date   TEXT NOT NULL DEFAULT '',
    summary          TEXT NOT NULL,               -- confidential
    doc              TEXT NOT NULL,               -- the docket.Case, JSON
    events           INTEGER NOT NULL,            -- how many events built it
    updated          TEXT NOT NULL
) STRICT;
INSERT INTO cases VALUES('2026-001','received',1,'2026-12-04T16:00:00.000000000Z','John Doe','','Jane Roe','','103.10','2026-05-01','Used city email to campaign.','{"number":"2026-001","state":"received","complainant":{"name":"John Doe","address":"12 Elm Street\nSpringfield, IL 62702"},"respondent":{"name":"Jane Roe","address":"34 Oak Avenue\nSpringfield, IL 62703"},"summary":"Used city email to campaign.","received":"2026-12-04T10:00:00-06:00","violation_date":"2026-05-01","sections":["103.10"],"elections":["2027-02-23"],"sufficiency":{"start":"2026-12-15T17:00:00-06:00","place":"City Hall, Room 201","notice_posted":"2026-12-04T10:30:00-06:00","scheduled_at":"2026-12-04T10:30:00-06:00"}}',3,'2026-12-04T16:30:00.000000000Z');
INSERT INTO cases VALUES('2026-002','received',1,'2026-12-04T16:05:00.000000000Z','John Doe','','Richard Roe','','103.10','2026-05-02','Used a city car for a campaign event.','{"number":"2026-002","state":"received","complainant":{"name":"John Doe","address":"12 Elm Street\nSpringfield, IL 62702"},"respondent":{"name":"Richard Roe","address":"56 Pine Street\nSpringfield, IL 62704"},"summary":"Used a city car for a campaign event.","received":"2026-12-04T10:05:00-06:00","violation_date":"2026-05-02","sections":["103.10"],"elections":["2027-02-23"],"sufficiency":{"start":"2026-12-15T17:00:00-06:00","place":"City Hall, Room 201","scheduled_at":"2026-12-04T10:30:00-06:00"}}',2,'2026-12-04T16:30:00.000000000Z');
CREATE TABLE events (
    id          INTEGER PRIMARY KEY,
    case_number TEXT NOT NULL REFERENCES cases(number),
    seq         INTEGER NOT NULL,                 -- 1, 2, ... within the case
    at          TEXT NOT NULL,                    -- RFC 3339 instant
    by          TEXT NOT NULL,                    -- Slack user id of who acted
    kind        TEXT NOT NULL,                    -- docket action kind
    payload     TEXT NOT NULL,                    -- docket action, JSON
    request     TEXT UNIQUE,                      -- idempotency key of the request, if any
    doc_hash    TEXT NOT NULL,                    -- SHA-256 of the case doc this event produced
    prev_hash   TEXT NOT NULL,                    -- hash of the event before, by id
    hash        TEXT NOT NULL,                    -- SHA-256 over prev_hash and this row
    UNIQUE (case_number, seq)
) STRICT;
INSERT INTO events VALUES(1,'2026-001',1,'2026-12-04T16:30:00.000000000Z','U_CLERK','file','{"complainant":{"name":"John Doe","address":"12 Elm Street\nSpringfield, IL 62702"},"respondent":{"name":"Jane Roe","address":"34 Oak Avenue\nSpringfield, IL 62703"},"sections":["103.10"],"violation_date":"2026-05-01","received":"2026-12-04T10:00:00-06:00","elections":["2027-02-23"],"summary":"Used city email to campaign."}','console:1796315832806152641:1|U_CLERK|file','5acf600996ae3b0c65ee9523a08f124749de057493fb0081ee4a9fb5d665de92','0000000000000000000000000000000000000000000000000000000000000000','39d7f1a3467eb3bce31864f28b3d686d2f8a6e90629de659d2efbb13e1328faa');
INSERT INTO events VALUES(2,'2026-002',1,'2026-12-04T16:30:00.000000000Z','U_CLERK','file','{"complainant":{"name":"John Doe","address":"12 Elm Street\nSpringfield, IL 62702"},"respondent":{"name":"Richard Roe","address":"56 Pine Street\nSpringfield, IL 62704"},"sections":["103.10"],"violation_date":"2026-05-02","received":"2026-12-04T10:05:00-06:00","elections":["2027-02-23"],"summary":"Used a city car for a campaign event."}','console:1796315832852616662:2|U_CLERK|file','07da320244005b94153f641ef1641e690a8ffb74288631a59792a324f085c508','39d7f1a3467eb3bce31864f28b3d686d2f8a6e90629de659d2efbb13e1328faa','47a570427e19fbc870f38d9cbf50af5b9b801f8e15ed105738ebef3d12ffbb1c');
INSERT INTO events VALUES(3,'2026-001',2,'2026-12-04T16:30:00.000000000Z','U_CLERK','schedule_meeting','{"meeting":"sufficiency","start":"2026-12-15T17:00:00-06:00","place":"City Hall, Room 201"}','console:1796315832856930069:3|U_CLERK|schedule','61af3765ce4ed81e1c85df9ae003f38ead55d1bc35dfae2da387932ff5c62f57','47a570427e19fbc870f38d9cbf50af5b9b801f8e15ed105738ebef3d12ffbb1c','4a074081aebd115d4ac0a96cc04686ac595c898c6eb262b7961d6cabb5c28611');
INSERT INTO events VALUES(4,'2026-002',2,'2026-12-04T16:30:00.000000000Z','U_CLERK','schedule_meeting','{"meeting":"sufficiency","start":"2026-12-15T17:00:00-06:00","place":"City Hall, Room 201"}','console:1796315832867009142:4|U_CLERK|schedule','2bf2124c5b304e0102f1d5f3d8582ada84b4d3ab4158991370b0f19516c90b6c','4a074081aebd115d4ac0a96cc04686ac595c898c6eb262b7961d6cabb5c28611','f8fc6cbac8acea094e7f8e7fafa51bb36f896b6915458083025e2b3a1bcbe5f7');
INSERT INTO events VALUES(5,'2026-001',3,'2026-12-04T16:30:00.000000000Z','U_CLERK','post_notice','{"meeting":"sufficiency"}','console:1796315832871892447:5|U_CLERK|posted','e53c59c293a807c150b323a3a6acb227b25688d63b63cd357d2dfdaaafa7b36b','f8fc6cbac8acea094e7f8e7fafa51bb36f896b6915458083025e2b3a1bcbe5f7','a4af3f32cd883893f896f11e561a576d705faffa261b1728b9653668516c4592');
CREATE TABLE elections (
    date TEXT PRIMARY KEY,
    name TEXT NOT NULL
) STRICT;
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) STRICT;
INSERT INTO meta VALUES('public_form','1');
INSERT INTO meta VALUES('last_sweep','2026-12-04T16:30:00.000000000Z');
CREATE TABLE IF NOT EXISTS "outbox" (
    case_number TEXT NOT NULL,                    -- '' for messages about no one case
    series      TEXT NOT NULL,                    -- a deadline id, 'meeting:<kind>', 'event', 'digest', ...
    step        TEXT NOT NULL,                    -- which step of the series; for 'event', '<event id>.<n>'
    dest        TEXT NOT NULL,                    -- '#C…' or '@U…'
    due         TEXT NOT NULL,                    -- when it should be said
    text        TEXT NOT NULL,                    -- Slack mrkdwn, user text escaped
    event_id    INTEGER REFERENCES events(id),    -- the event that caused it, if any
    claimed     TEXT NOT NULL DEFAULT '',         -- the first claim
    sent        TEXT NOT NULL DEFAULT '',
    channel     TEXT NOT NULL DEFAULT '',
    ts          TEXT NOT NULL DEFAULT '',         -- Slack message ts once sent
    attempts    INTEGER NOT NULL DEFAULT 0,
    last_error  TEXT NOT NULL DEFAULT '',
    failing     TEXT NOT NULL DEFAULT '',         -- since when delivery has failed, or been held back by a failure
    PRIMARY KEY (case_number, series, step, dest)
) STRICT;
INSERT INTO outbox VALUES('','anchor','2026-12-04','#ethics-docket','2026-12-04T14:00:00.000000000Z',replace('Record anchor, Fri 4 Dec 2026 10:30 CST: `anchor 0:0000000000000000000000000000000000000000000000000000000000000000`\nKeep it: `ethicsbot verify --anchor 0:0000000000000000000000000000000000000000000000000000000000000000` shows whether a copy of the record (a backup, an archive) still holds every event up to this one, unchanged.','\n',char(10)),NULL,'2026-12-04T16:30:00.000000000Z','2026-12-04T16:30:00.000000000Z','#ethics-docket','1',1,'','');
INSERT INTO outbox VALUES('2026-001','event','1.1','#ethics-docket','2026-12-04T16:30:00.000000000Z',replace('New case 2026-001: John Doe v. Jane Roe, §103.10, received Fri 4 Dec 2026 10:00 CST, filed by <@U_CLERK>.\n:warning: not expedited under (G): the election on Tue 23 Feb 2027 is 81 days after receipt; (G) applies to complaints filed in the 60 days before it (rule (G))','\n',char(10)),1,'2026-12-04T16:30:00.000000000Z','2026-12-04T16:30:00.000000000Z','#ethics-docket','1',1,'','');
INSERT INTO outbox VALUES('2026-002','event','2.1','#ethics-docket','2026-12-04T16:30:00.000000000Z',replace('New case 2026-002: John Doe v. Richard Roe, §103.10, received Fri 4 Dec 2026 10:05 CST, filed by <@U_CLERK>.\n:warning: not expedited under (G): the election on Tue 23 Feb 2027 is 81 days after receipt; (G) applies to complaints filed in the 60 days before it (rule (G))','\n',char(10)),2,'2026-12-04T16:30:00.000000000Z','2026-12-04T16:30:00.000000000Z','#ethics-docket','1',1,'','');
INSERT INTO outbox VALUES('2026-001','event','3.1','#ethics-docket','2026-12-04T16:30:00.000000000Z',replace('2026-001: sufficiency meeting scheduled for Tue 15 Dec 2026 17:00 CST at City Hall, Room 201, recorded by <@U_CLERK>.\n:warning: the notice of the sufficiency meeting must be posted by Sun 13 Dec 2026 17:00 CST, a weekend: post it before the office closes on Fri 11 Dec (rule (C)(1))','\n',char(10)),3,'2026-12-04T16:30:00.000000000Z','2026-12-04T16:30:00.000000000Z','#ethics-docket','1',1,'','');
INSERT INTO outbox VALUES('2026-001','event','3.2','#ethics-notices','2026-12-04T16:30:00.000000000Z','PUBLIC NOTICE. Ethics Commission, case 2026-001: sufficiency meeting on Tue 15 Dec 2026 at 17:00 CST at City Hall, Room 201, open to the public.',3,'2026-12-04T16:30:00.000000000Z','2026-12-04T16:30:00.000000000Z','#ethics-notices','2',1,'','');
INSERT INTO outbox VALUES('2026-002','event','4.1','#ethics-docket','2026-12-04T16:30:00.000000000Z',replace('2026-002: sufficiency meeting scheduled for Tue 15 Dec 2026 17:00 CST at City Hall, Room 201, recorded by <@U_CLERK>.\n:warning: the notice of the sufficiency meeting must be posted by Sun 13 Dec 2026 17:00 CST, a weekend: post it before the office closes on Fri 11 Dec (rule (C)(1))','\n',char(10)),4,'2026-12-04T16:30:00.000000000Z','2026-12-04T16:30:00.000000000Z','#ethics-docket','1',1,'','');
INSERT INTO outbox VALUES('2026-002','event','4.2','#ethics-notices','2026-12-04T16:30:00.000000000Z','PUBLIC NOTICE. Ethics Commission, case 2026-002: sufficiency meeting on Tue 15 Dec 2026 at 17:00 CST at City Hall, Room 201, open to the public.',4,'2026-12-04T16:30:00.000000000Z','2026-12-04T16:30:00.000000000Z','#ethics-notices','2',1,'','');
INSERT INTO outbox VALUES('2026-001','event','5.1','#ethics-docket','2026-12-04T16:30:00.000000000Z','2026-001: notice of the sufficiency meeting posted Fri 4 Dec 2026 10:30 CST, recorded by <@U_CLERK>.',5,'2026-12-04T16:30:00.000000000Z','2026-12-04T16:30:00.000000000Z','#ethics-docket','1',1,'','');
CREATE TABLE calendar_tokens (
    user         TEXT PRIMARY KEY,                -- Slack user id
    token_sha256 TEXT NOT NULL UNIQUE,            -- hex SHA-256 of the token
    created_at   TEXT NOT NULL                    -- RFC 3339 instant
) STRICT;
PRAGMA writable_schema=ON;
INSERT INTO sqlite_schema(type,name,tbl_name,rootpage,sql)VALUES('table','case_search','case_search',0,'CREATE VIRTUAL TABLE case_search USING fts4(
    number, parties, articles, summary,
    notindexed=number,
    tokenize=unicode61 "remove_diacritics=2"
)');
CREATE TABLE IF NOT EXISTS 'case_search_content'(docid INTEGER PRIMARY KEY, 'c0number', 'c1parties', 'c2articles', 'c3summary');
INSERT INTO case_search_content VALUES(20260000001,'2026-001',replace('Jane Roe\nJohn Doe','\n',char(10)),'','Used city email to campaign.');
INSERT INTO case_search_content VALUES(20260000002,'2026-002',replace('Richard Roe\nJohn Doe','\n',char(10)),'','Used a city car for a campaign event.');
CREATE TABLE IF NOT EXISTS 'case_search_segments'(blockid INTEGER PRIMARY KEY, block BLOB);
CREATE TABLE IF NOT EXISTS 'case_search_segdir'(level INTEGER,idx INTEGER,start_block INTEGER,leaves_end_block INTEGER,end_block INTEGER,root BLOB,PRIMARY KEY(level, idx));
INSERT INTO case_search_segdir VALUES(0,0,0,0,'0 143',X'000863616d706169676e0981a2dcbc4b0103060001036974790981a2dcbc4b010303000003646f650981a2dcbc4b010105000005656d61696c0981a2dcbc4b0103040000046a616e650981a2dcbc4b0101020001036f686e0981a2dcbc4b010104000003726f650981a2dcbc4b010103000002746f0981a2dcbc4b010305000004757365640981a2dcbc4b01030200');
INSERT INTO case_search_segdir VALUES(0,1,0,0,'0 174',X'0001610a82a2dcbc4b0103030600000863616d706169676e0982a2dcbc4b010308000201720982a2dcbc4b0103050001036974790982a2dcbc4b010304000003646f650982a2dcbc4b0101050000056576656e740982a2dcbc4b010309000003666f720982a2dcbc4b0103060000046a6f686e0982a2dcbc4b010104000007726963686172640982a2dcbc4b0101020001026f650982a2dcbc4b010103000004757365640982a2dcbc4b01030200');
CREATE TABLE IF NOT EXISTS 'case_search_docsize'(docid INTEGER PRIMARY KEY, size BLOB);
INSERT INTO case_search_docsize VALUES(20260000001,X'00040005');
INSERT INTO case_search_docsize VALUES(20260000002,X'00040008');
CREATE TABLE IF NOT EXISTS 'case_search_stat'(id INTEGER PRIMARY KEY, value BLOB);
INSERT INTO case_search_stat VALUES(0,X'020008000d66');
CREATE TABLE public_records (
    case_number TEXT NOT NULL REFERENCES cases(number),
    key         TEXT NOT NULL,            -- docket.PublicRecord.Key
    record      TEXT NOT NULL,            -- the docket.PublicRecord, as JSON
    sort        TEXT NOT NULL,            -- when it happens or happened (RFC 3339, UTC): the board's order
    posted      TEXT NOT NULL,            -- when it first appeared on the board: the time of posted_event
    posted_event INTEGER REFERENCES events(id), -- the event that made it public; NULL when filled by this migration, posted when it was applied
    removed     TEXT NOT NULL DEFAULT '', -- when it stopped standing; '' while it stands
    PRIMARY KEY (case_number, key)
) STRICT;
INSERT INTO public_records VALUES('2026-001','meeting_notice:sufficiency:ff368d9ed00dc6a4','{"case":"2026-001","rule":"(C)(1)","record":"meeting_notice","on":"2026-12-15","text":"sufficiency meeting on Tue 15 Dec 2026 at 17:00 CST at City Hall, Room 201, open to the public","meeting":"sufficiency","start":"2026-12-15T17:00:00-06:00","place":"City Hall, Room 201","agenda":["Call to order and roll call.","Review of the sufficiency of complaint 2026-001 and, if it is sufficient, determination of whether there is probable cause to proceed (rule (C)(1)).","Public comment.","Adjournment."]}','2026-12-15T23:00:00.000000000Z','2026-12-04T16:30:00.000000000Z',3,'');
INSERT INTO public_records VALUES('2026-002','meeting_notice:sufficiency:ff368d9ed00dc6a4','{"case":"2026-002","rule":"(C)(1)","record":"meeting_notice","on":"2026-12-15","text":"sufficiency meeting on Tue 15 Dec 2026 at 17:00 CST at City Hall, Room 201, open to the public","meeting":"sufficiency","start":"2026-12-15T17:00:00-06:00","place":"City Hall, Room 201","agenda":["Call to order and roll call.","Review of the sufficiency of complaint 2026-002 and, if it is sufficient, determination of whether there is probable cause to proceed (rule (C)(1)).","Public comment.","Adjournment."]}','2026-12-15T23:00:00.000000000Z','2026-12-04T16:30:00.000000000Z',4,'');
CREATE TABLE documents (
    sha256 TEXT PRIMARY KEY,          -- SHA-256 of data, lower-case hex
    size   INTEGER NOT NULL,          -- length of data, in bytes
    data   BLOB NOT NULL
) STRICT;
CREATE TRIGGER cases_no_delete BEFORE DELETE ON cases
BEGIN SELECT RAISE(ABORT, 'cases are a public record and are never deleted'); END;
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only: record a new event instead'); END;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only and are never deleted'); END;
CREATE INDEX cases_open_by_receipt ON cases(received, number, events) WHERE open = 1;
CREATE INDEX outbox_pending ON outbox(due) WHERE sent = '';
CREATE INDEX outbox_event ON outbox(event_id) WHERE event_id IS NOT NULL;
CREATE INDEX public_records_standing ON public_records(sort) WHERE removed = '';
CREATE TRIGGER documents_no_update BEFORE UPDATE ON documents
BEGIN SELECT RAISE(ABORT, 'documents are append-only: a document is withdrawn by a void, never changed'); END;
CREATE TRIGGER documents_no_delete BEFORE DELETE ON documents
BEGIN SELECT RAISE(ABORT, 'documents are append-only and are never deleted'); END;
PRAGMA writable_schema=OFF;
COMMIT;
PRAGMA user_version=10;
