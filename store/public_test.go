package store_test

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
	"ethicsbot/store"
)

// TestBoardPostings follows a case's public records through the board: each keeps the
// time it first appeared, a moved meeting's old notice stays marked, a void takes a record
// off, and the board is what export --public writes.
func TestBoardPostings(t *testing.T) {
	s := MustOpen(t)
	c := mustFile(t, s, "2026-12-04T10:00:00-06:00", "Jane Roe")
	if got := mustPublic(t, s); len(got) != 0 {
		t.Fatalf("a new complaint is confidential, but the board shows %+v", got)
	}
	mustApply(t, s, c.Number, "2026-12-04T11:00:00-06:00",
		docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-10T17:00:00-06:00"),
			Place: "City Hall"})
	got := mustPublic(t, s)
	if len(got) != 1 || got[0].Place != "City Hall" || !got[0].Posted.Equal(T(t, "2026-12-04T11:00:00-06:00")) {
		t.Fatalf("after scheduling: %+v", got)
	}
	if len(got[0].Agenda) != 4 || got[0].Meeting != docket.SufficiencyMeeting {
		t.Errorf("the notice lacks its meeting or agenda: %+v", got[0])
	}
	// An action that changes nothing public leaves the posted time alone.
	mustApply(t, s, c.Number, "2026-12-05T09:00:00-06:00",
		docket.RecordMailing{Recipient: docket.Respondent, Article: "94071118987654321712"})
	if again := mustPublic(t, s); len(again) != 1 || !again[0].Posted.Equal(got[0].Posted) {
		t.Errorf("an unrelated action moved the posted time: %+v", again)
	}
	// Moving the meeting posts a new notice and keeps the old one, marked moved.
	mustApply(t, s, c.Number, "2026-12-06T09:00:00-06:00",
		docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-11T17:00:00-06:00"),
			Place: "Library"})
	got = mustPublic(t, s)
	if len(got) != 2 {
		t.Fatalf("after the move, want the old and the new notice: %+v", got)
	}
	old, cur := got[0], got[1]
	if old.Withdrawn != "moved" || !old.MovedTo.Equal(T(t, "2026-12-11T17:00:00-06:00")) ||
		!old.Posted.Equal(T(t, "2026-12-06T09:00:00-06:00")) {
		t.Errorf("old notice: %+v", old)
	}
	if cur.Withdrawn != "" || cur.Place != "Library" || !cur.Posted.Equal(T(t, "2026-12-06T09:00:00-06:00")) {
		t.Errorf("new notice: %+v", cur)
	}
	mustVerify(t, s)
}

// TestBoardFilledOnMigration: cases recorded before the board existed appear on it once
// the database is migrated, posted then, and verify agrees.
func TestBoardFilledOnMigration(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ethicsbot.db")
	old := MustOpenPath(t, path)
	c := mustFile(t, old, "2026-12-04T10:00:00-06:00", "Jane Roe")
	mustApply(t, old, c.Number, "2026-12-04T11:00:00-06:00",
		docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-10T17:00:00-06:00"),
			Place: "City Hall"})
	old.Close()
	// As ethicsbot left it before the board: no public_records, nor the documents after it.
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// The board is migration 009; the case file (010), the outbox's actions (011) and threads
	// (013) came after it, and the cases' due (015).
	before := 8
	if _, err := db.Exec(fmt.Sprintf(`DROP TABLE case_attention; DROP TABLE case_steps; DROP INDEX cases_open_by_next; DROP INDEX cases_open_recused; ALTER TABLE cases DROP COLUMN next; ALTER TABLE cases DROP COLUMN recused; DROP INDEX cases_open_by_due; ALTER TABLE cases DROP COLUMN due; ALTER TABLE outbox DROP COLUMN actions; DROP TABLE documents; DROP TABLE public_records; DROP INDEX outbox_thread; ALTER TABLE outbox DROP COLUMN thread; ALTER TABLE outbox DROP COLUMN edit; DELETE FROM schema_migrations WHERE version > %d; PRAGMA user_version = %d`, before, before)); err != nil {
		t.Fatal(err)
	}
	db.Close() // no other program may hold a record that ethicsbot migrates
	migrated := time.Now()
	s := MustOpenPath(t, path)
	got := mustPublic(t, s)
	if len(got) != 1 || got[0].Place != "City Hall" || got[0].Posted.Before(migrated.Add(-time.Second)) {
		t.Fatalf("after migrating: %+v", got)
	}
	mustVerify(t, s)
	db, err = sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM public_records`).Scan(&n); err != nil || n != 1 {
		t.Errorf("public_records rows %d, %v", n, err)
	}
}

func mustPublic(tb testing.TB, s *store.Store) []store.Posting {
	tb.Helper()
	got, err := s.Public(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	return got
}

// TestWithdrawnTwiceAlike: a meeting cancelled, scheduled again the same and cancelled
// again leaves two cancelled notices, each with its own time; a meeting moved back and
// forth leaves each move. verify agrees with both.
func TestWithdrawnTwiceAlike(t *testing.T) {
	for _, tc := range []struct {
		name    string
		actions []docket.Action
		want    int // withdrawn notices
	}{
		{"CancelledTwice", []docket.Action{
			docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-10T17:00:00-06:00"),
				Place: "City Hall"},
			docket.CancelMeeting{Meeting: docket.SufficiencyMeeting},
			docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-10T17:00:00-06:00"),
				Place: "City Hall"},
			docket.CancelMeeting{Meeting: docket.SufficiencyMeeting},
		}, 2},
		{"MovedBackAndForth", []docket.Action{
			docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-10T17:00:00-06:00"),
				Place: "City Hall"},
			docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-11T17:00:00-06:00"),
				Place: "City Hall"},
			docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-10T17:00:00-06:00"),
				Place: "City Hall"},
			docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-11T17:00:00-06:00"),
				Place: "City Hall"},
		}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := MustOpen(t)
			c := mustFile(t, s, "2026-12-04T10:00:00-06:00", "Jane Roe")
			at := T(t, "2026-12-04T11:00:00-06:00")
			for _, a := range tc.actions {
				at = at.Add(time.Hour)
				mustApply(t, s, c.Number, at.Format(time.RFC3339), a)
			}
			withdrawn := 0
			for _, p := range mustPublic(t, s) {
				if p.Withdrawn != "" {
					withdrawn++
				}
			}
			if withdrawn != tc.want {
				t.Errorf("withdrawn notices on the board: %d, want %d", withdrawn, tc.want)
			}
			mustVerify(t, s)
		})
	}
}

// TestBoardFromARealOlderRecord: a database written by ethicsbot before the board (schema
// 6), with a case whose meeting is scheduled and a dismissed one, migrates: the board
// shows what the ordinance made public of them, posted when the migration ran, and verify
// agrees.
func TestBoardFromARealOlderRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ethicsbot.db")
	old, err := store.OpenAtVersion(path, MustEngine(t), 6)
	if err != nil {
		t.Fatal(err)
	}
	a := mustFile(t, old, "2026-12-04T10:00:00-06:00", "Jane Roe")
	mustApply(t, old, a.Number, "2026-12-04T11:00:00-06:00",
		docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-10T17:00:00-06:00"),
			Place: "City Hall"})
	mustNotice(t, old, a.Number, "2026-12-04T12:00:00-06:00")
	mustApply(t, old, a.Number, "2026-12-10T18:00:00-06:00", docket.Rule{Ruling: docket.Insufficient})
	b := mustFile(t, old, "2026-12-05T10:00:00-06:00", "Richard Roe")
	mustApply(t, old, b.Number, "2026-12-05T11:00:00-06:00",
		docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-11T17:00:00-06:00"),
			Place: "Library"})
	old.Close()

	s := MustOpenPath(t, path)
	got := mustPublic(t, s)
	var records []string
	for _, p := range got {
		records = append(records, p.Case+" "+p.Record)
	}
	if want := "2026-001 meeting_notice, 2026-001 dismissal, 2026-002 meeting_notice"; strings.Join(records,
		", ") != want {
		t.Errorf("the board after migrating: %s, want %s", strings.Join(records, ", "), want)
	}
	mustVerify(t, s)
	// And the record goes on: a new event posts at its own time.
	mustApply(t, s, b.Number, "2026-12-06T09:00:00-06:00", docket.CancelMeeting{Meeting: docket.SufficiencyMeeting})
	mustVerify(t, s)
}

// TestBoardReworded: records written in an older form of the docket's wording are worded
// afresh when the store opens, keeping when each was first posted, and verify agrees.
func TestBoardReworded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ethicsbot.db")
	s := MustOpenPath(t, path)
	c := mustFile(t, s, "2026-12-04T10:00:00-06:00", "Jane Roe")
	mustApply(t, s, c.Number, "2026-12-04T11:00:00-06:00",
		docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-10T17:00:00-06:00"),
			Place: "City Hall"})
	before := mustPublic(t, s)
	s.Close()
	// As an earlier ethicsbot worded it.
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`UPDATE public_records SET record = replace(record, 'Adjournment.', 'Adjourn.'); UPDATE meta SET value = '0' WHERE key = 'public_form'`); err != nil {
		t.Fatal(err)
	}
	s = MustOpenPath(t, path)
	after := mustPublic(t, s)
	if len(after) != 1 || after[0].Agenda[3] != "Adjournment." || !after[0].Posted.Equal(before[0].Posted) {
		t.Errorf("after rewording: %+v", after)
	}
	mustVerify(t, s)
}
