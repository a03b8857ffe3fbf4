package store_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"

	"ethicsbot/docket"
	"ethicsbot/outbox"
	"ethicsbot/store"
)

var ctx = context.Background()

// MustEngine returns the docket engine with this city's ordinance.
func MustEngine(tb testing.TB) *docket.Engine {
	tb.Helper()
	cal, err := docket.NewCalendar(docket.CalendarConfig{})
	if err != nil {
		tb.Fatal(err)
	}
	return &docket.Engine{Cal: cal, Ord: docket.DefaultOrdinance()}
}

// MustOpen opens a store on a new file in a temporary directory.
func MustOpen(tb testing.TB) *store.Store {
	tb.Helper()
	return MustOpenPath(tb, filepath.Join(tb.TempDir(), "ethicsbot.db"))
}

func MustOpenPath(tb testing.TB, path string) *store.Store {
	tb.Helper()
	s, err := store.Open(path, MustEngine(tb))
	if err != nil {
		tb.Fatalf("Open(%s): %v", path, err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

func T(tb testing.TB, s string) time.Time {
	tb.Helper()
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// complaint returns a filing received at received.
func complaint(received time.Time, respondent string) docket.File {
	return docket.File{
		Complainant: docket.Person{Name: "John Doe"},
		Respondent:  docket.Person{Name: respondent},
		Sections:    []string{"103.10"},
		Received:    received,
		Summary:     "Confidential: used the city's email to campaign for " + respondent + ".",
	}
}

func mustFile(tb testing.TB, s *store.Store, at string, respondent string) docket.Case {
	tb.Helper()
	when := T(tb, at)
	res, err := s.File(ctx, docket.Act{By: "U_CLERK", At: when}, complaint(when, respondent))
	if err != nil {
		tb.Fatal(err)
	}
	return res.Case
}

func mustApply(tb testing.TB, s *store.Store, number, at string, a docket.Action) docket.Case {
	tb.Helper()
	res, err := s.Apply(ctx, docket.Act{By: "U_CLERK", At: T(tb, at)}, number, a)
	if err != nil {
		tb.Fatalf("%s on %s: %v", a.Kind(), number, err)
	}
	return res.Case
}

// mustNotice records what a ruling needs first: the sufficiency meeting's public notice
// posted at at (C)(1), and both (B) notices mailed.
func mustNotice(tb testing.TB, s *store.Store, number, at string) {
	tb.Helper()
	mustApply(tb, s, number, at, docket.PostNotice{Meeting: docket.SufficiencyMeeting})
	mustApply(tb, s, number, at, docket.RecordMailing{Recipient: docket.Respondent, Article: articleFor(number, 1)})
	mustApply(tb, s, number, at, docket.RecordMailing{Recipient: docket.Complainant, Article: articleFor(number, 2)})
}

// articleFor is the nth article number of case number's papers: a valid USPS article
// number (its check digit holds) that no other case or paper of the tests has.
func articleFor(number string, n int) string {
	body := fmt.Sprintf("94071118%07s%04d", strings.ReplaceAll(number, "-", ""), n)
	return body + fmt.Sprint(docket.ArticleCheckDigit(body))
}

func mustVerify(tb testing.TB, s *store.Store) store.Report {
	tb.Helper()
	r, err := s.Verify(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	if r.Broken != nil {
		tb.Fatalf("verify: %s", r.Broken)
	}
	return r
}

func TestOpenSetsPragmas(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ethicsbot.db")
	s := MustOpenPath(t, path)
	mustFile(t, s, "2026-12-04T10:00:00-06:00", "Jane Roe")
	// A second, independent connection sees WAL on the file.
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var mode string
	var version int
	db.QueryRow("PRAGMA journal_mode").Scan(&mode)
	db.QueryRow("PRAGMA user_version").Scan(&version)
	if mode != "wal" || version != store.SchemaVersion() {
		t.Errorf("journal_mode %q, user_version %d; want wal and %d", mode, version, store.SchemaVersion())
	}
	var applied int
	db.QueryRow("SELECT count(*) FROM schema_migrations").Scan(&applied)
	if applied != store.SchemaVersion() {
		t.Errorf("%d migrations recorded, want %d", applied, store.SchemaVersion())
	}
}

func TestMigrationsFromEachVersion(t *testing.T) {
	for v := 0; v < store.SchemaVersion(); v++ {
		t.Run(fmt.Sprintf("FromVersion%d", v), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "ethicsbot.db")
			old, err := store.OpenAtVersion(path, MustEngine(t), v)
			if err != nil {
				t.Fatal(err)
			}
			old.Close()
			s := MustOpenPath(t, path)
			c := mustFile(t, s, "2026-12-04T10:00:00-06:00", "Jane Roe")
			if c.Number != "2026-001" {
				t.Errorf("number %s", c.Number)
			}
			k := outbox.Key{Case: c.Number, Series: "respondent_notice", Step: "due", To: outbox.Dest{User: "U_CLERK"}}
			if err := s.Enqueue(ctx, []outbox.Post{{Key: k, Text: "x", Due: T(t, "2026-12-09T09:00:00-06:00")}}); err != nil {
				t.Errorf("the outbox is missing after migrating: %v", err)
			}
			if _, held, err := s.Claim(ctx, k, T(t, "2026-12-09T09:00:00-06:00")); err != nil || !held {
				t.Errorf("the outbox cannot be claimed after migrating: %v %v", held, err)
			}
		})
	}
	t.Run("ReopenIsANoOp", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "ethicsbot.db")
		s := MustOpenPath(t, path)
		mustFile(t, s, "2026-12-04T10:00:00-06:00", "Jane Roe")
		s.Close()
		s2 := MustOpenPath(t, path)
		if r := mustVerify(t, s2); r.Cases != 1 || r.Events != 1 {
			t.Errorf("after reopening: %+v", r)
		}
	})
}

func TestCaseLifecycleIsRecorded(t *testing.T) {
	s := MustOpen(t)
	c := mustFile(t, s, "2026-12-04T10:00:00-06:00", "Jane Roe")
	if c.Number != "2026-001" || c.State != docket.StateReceived {
		t.Fatalf("filed %s in state %s", c.Number, c.State)
	}
	mustApply(t, s, c.Number, "2026-12-04T11:00:00-06:00",
		docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-10T17:00:00-06:00"),
			Place: "City Hall"})
	mustApply(t, s, c.Number, "2026-12-07T09:00:00-06:00",
		docket.RecordMailing{Recipient: docket.Respondent, Article: "9407 1118 9876 5432 1016 34"})
	mustApply(t, s, c.Number, "2026-12-07T09:01:00-06:00",
		docket.RecordMailing{Recipient: docket.Complainant, Article: "9407 1118 9876 5432 1015 35"})
	got, err := s.Case(ctx, c.Number)
	if err != nil {
		t.Fatal(err)
	}
	if got.State != docket.StateNoticesSent || len(got.Mailings) != 2 || !got.Sufficiency.Scheduled() {
		t.Errorf("stored case %+v", got)
	}
	evs, err := s.Events(ctx, c.Number)
	if err != nil {
		t.Fatal(err)
	}
	kinds := []string{}
	for _, e := range evs {
		kinds = append(kinds, e.Kind)
		if e.By != "U_CLERK" {
			t.Errorf("event by %q", e.By)
		}
	}
	if strings.Join(kinds, ",") != "file,schedule_meeting,mail,mail" {
		t.Errorf("events %v", kinds)
	}
	mustVerify(t, s)

	t.Run("ResultHasTheCaseBefore", func(t *testing.T) {
		res, err := s.Apply(ctx, docket.Act{By: "U_CLERK", At: T(t, "2026-12-08T09:00:00-06:00")}, c.Number,
			docket.PostNotice{Meeting: docket.SufficiencyMeeting})
		if err != nil || !res.Before.Sufficiency.NoticePosted.IsZero() || res.Case.Sufficiency.NoticePosted.IsZero() {
			t.Errorf("before %+v after %+v: %v", res.Before.Sufficiency, res.Case.Sufficiency, err)
		}
		evs, _ = s.Events(ctx, c.Number)
	})
	t.Run("RefusalWritesNothing", func(t *testing.T) {
		_, err := s.Apply(ctx, docket.Act{By: "U_COMM1", At: T(t, "2026-12-08T09:00:00-06:00")}, c.Number, docket.Decide{Fine: 99})
		if docket.ErrorCode(err) != docket.ECONFLICT {
			t.Fatalf("err %v, want a conflict", err)
		}
		if evs2, _ := s.Events(ctx, c.Number); len(evs2) != len(evs) {
			t.Errorf("a refused action added an event")
		}
	})
	t.Run("ErrUnknownCase", func(t *testing.T) {
		_, err := s.Apply(ctx, docket.Act{By: "U_CLERK", At: T(t, "2026-12-08T09:00:00-06:00")}, "2025-999", docket.RecessHearing{})
		if docket.ErrorCode(err) != docket.ENOTFOUND {
			t.Errorf("err %v, want not found", err)
		}
		if _, err := s.Case(ctx, "nonsense'; DROP TABLE cases;--"); docket.ErrorCode(err) != docket.ENOTFOUND {
			t.Errorf("err %v, want not found", err)
		}
	})
	t.Run("RetriedRequestIsIdempotent", func(t *testing.T) {
		when := T(t, "2026-12-05T10:00:00-06:00")
		first, err := s.File(ctx, docket.Act{By: "U_CLERK", Request: "slack:trigger:123", At: when}, complaint(when, "Richard Roe"))
		if err != nil {
			t.Fatal(err)
		}
		again, err := s.File(ctx, docket.Act{By: "U_CLERK", Request: "slack:trigger:123", At: when}, complaint(when, "Richard Roe"))
		if err != nil {
			t.Fatal(err)
		}
		if !again.Replayed || again.Case.Number != first.Case.Number {
			t.Errorf("retry filed %s (replayed %v), first %s", again.Case.Number, again.Replayed, first.Case.Number)
		}
		all, _ := s.AllCases(ctx)
		if len(all) != 2 {
			t.Errorf("%d cases after a retried filing, want 2", len(all))
		}
	})
	t.Run("NumbersPerYearOfReceipt", func(t *testing.T) {
		// 23:30 on 31 Dec in Chicago is already 1 Jan in UTC: still a 2026 case.
		c := mustFile(t, s, "2026-12-31T23:30:00-06:00", "Late Filer")
		if c.Number != "2026-003" {
			t.Errorf("number %s, want 2026-003", c.Number)
		}
		c = mustFile(t, s, "2027-01-04T09:00:00-06:00", "Early Filer")
		if c.Number != "2027-001" {
			t.Errorf("number %s, want 2027-001", c.Number)
		}
	})
}

// TestOpenCasesSeesEveryChange: OpenCases caches decoded cases, so it must notice a
// change made through another Store on the same file (another process) and drop cases
// that closed.
func TestOpenCasesSeesEveryChange(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ethicsbot.db")
	a, b := MustOpenPath(t, path), MustOpenPath(t, path)
	c1 := mustFile(t, a, "2026-12-04T10:00:00-06:00", "Jane Roe")
	c2 := mustFile(t, a, "2026-12-04T11:00:00-06:00", "Richard Roe")
	open, err := a.OpenCases(ctx)
	if err != nil || len(open) != 2 || open[0].Sufficiency.Scheduled() {
		t.Fatalf("open cases %v, %v", open, err)
	}
	mustApply(t, b, c1.Number, "2026-12-04T12:00:00-06:00",
		docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-10T17:00:00-06:00"),
			Place: "City Hall"})
	mustApply(t, b, c2.Number, "2026-12-04T12:00:00-06:00",
		docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-10T17:00:00-06:00"),
			Place: "City Hall"})
	mustNotice(t, b, c2.Number, "2026-12-04T12:30:00-06:00")
	mustApply(t, b, c2.Number, "2026-12-10T18:00:00-06:00", docket.Rule{Ruling: docket.Insufficient})
	open, err = a.OpenCases(ctx)
	if err != nil || len(open) != 2 {
		t.Fatalf("a dismissed case whose (C)(2) notices are not sent must stay open: %d open, %v", len(open), err)
	}
	mustApply(t, b, c2.Number, "2026-12-11T09:00:00-06:00",
		docket.RecordMailing{Paper: docket.DismissalToRespondent, Article: "94071118987654321620"})
	mustApply(t, b, c2.Number, "2026-12-11T09:00:00-06:00",
		docket.RecordMailing{Paper: docket.DismissalToComplainant, Article: "94071118987654321521"})
	open, err = a.OpenCases(ctx)
	if err != nil || len(open) != 1 || open[0].Number != c1.Number || !open[0].Sufficiency.Scheduled() {
		t.Fatalf("after changes elsewhere: %d open, first %+v, %v", len(open), open, err)
	}
}

func TestConcurrentFilingsGetDistinctGapFreeNumbers(t *testing.T) {
	s := MustOpen(t)
	const n = 50
	numbers := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			<-start
			when := T(t, "2026-12-04T10:00:00-06:00").Add(time.Duration(i) * time.Second)
			res, err := s.File(ctx, docket.Act{By: "U_CLERK", Request: fmt.Sprintf("req-%d", i), At: when},
				complaint(when, fmt.Sprintf("Respondent %d", i)))
			numbers[i], errs[i] = res.Case.Number, err
		}(i)
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("filing %d: %v", i, err)
		}
	}
	sort.Strings(numbers)
	for i, got := range numbers {
		if want := fmt.Sprintf("2026-%03d", i+1); got != want {
			t.Fatalf("numbers %v: position %d is %s, want %s", numbers, i, got, want)
		}
	}
	if r := mustVerify(t, s); r.Cases != n || r.Events != n {
		t.Errorf("verify %+v", r)
	}
}

// TestTamperingIsCaught edits the record behind ethicsbot's back with plain SQL.
func TestTamperingIsCaught(t *testing.T) {
	for _, tc := range []struct {
		name, sql, want string
	}{
		{"EditedPayload",
			`DROP TRIGGER events_no_update; UPDATE events SET payload = replace(payload, 'City Hall', 'Secret Bunker') WHERE id = 2`, "event 2 (case 2026-001): its content no longer matches its hash"},
		{"EditedWho", `DROP TRIGGER events_no_update; UPDATE events SET by = 'U_SOMEONE' WHERE id = 3`,
			"event 3 (case 2026-002)"},
		{"DeletedEvent", `DROP TRIGGER events_no_delete; DELETE FROM events WHERE id = 3`,
			"event 4 (case 2026-001): comes after event 2: events 3 to 3 are missing"},
		{"RehashedButUnlinked", `DROP TRIGGER events_no_update; UPDATE events SET prev_hash = 'x' WHERE id = 4`,
			"event 4 (case 2026-001): does not link to event 3"},
		{"EditedCaseRow", `UPDATE cases SET doc = replace(doc, 'Jane Roe', 'Someone Else') WHERE number = '2026-001'`,
			"case 2026-001: its record differs"},
		{"EditedCaseColumn", `UPDATE cases SET respondent = 'Someone Else' WHERE number = '2026-001'`,
			"case 2026-001: its columns differ"},
		{"EditedDue", `UPDATE cases SET due = '2030-01-01T00:00:00.000000000Z' WHERE number = '2026-001'`,
			"case 2026-001: its next due instant is"},
		{"EditedNext", `UPDATE cases SET next = '~~none' WHERE number = '2026-001'`,
			"case 2026-001: its next step on the docket falls at"},
		{"EditedRecused", `UPDATE cases SET recused = ' U_SOMEONE ' WHERE number = '2026-001'`,
			"case 2026-001: it is hidden from"},
		{"DroppedAttention", `DELETE FROM case_attention WHERE number = '2026-002'`,
			"case 2026-002: case_attention holds 0 lines of what needs attention on it"},
		{"EditedAttention", `UPDATE case_attention SET since = '' WHERE number = '2026-001' AND line = 0`,
			"case 2026-001: case_attention lists line 0 of what needs attention on it from \"\" until \"\", but its record from \"2026-12-10T06:00:00.000000000Z\""},
		{"AttentionOfNoCase", `INSERT INTO case_attention (number, line, since, until) VALUES ('2026-099', 0, '', '')`,
			"case 2026-099: case_attention holds 1 lines of what needs attention on it, but there is no such case"},
		{"StepOfNoCase", `INSERT INTO case_steps (number, kind, step, start) SELECT '2026-099', kind, step, start
			FROM case_steps`, "case 2026-099: case_steps keeps 1 steps of it, but there is no such case"},
		{"EditedStepStart", `UPDATE case_steps SET start = '2030-01-01T00:00:00.000000000Z'`,
			"case 2026-001: its step sufficiency as case_steps keeps it differs from its record"},
		{"EditedBoard", `UPDATE public_records SET record = replace(record, 'City Hall', 'Secret Bunker')`,
			"case 2026-001: what the public notice board shows of it differs"},
		{"BackdatedOnBoard", `UPDATE public_records SET posted = '2026-11-01T00:00:00.000000000Z'`,
			"case 2026-001: the public notice board says meeting_notice:sufficiency:"},
		{"BoardPostedByAnotherEvent", `UPDATE public_records SET posted_event = 1`,
			"case 2026-001: the public notice board says meeting_notice:sufficiency:"},
		{"HiddenFromBoard", `UPDATE public_records SET removed = '2026-12-05T00:00:00Z'`,
			"case 2026-001: what the public notice board shows of it differs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "ethicsbot.db")
			s := MustOpenPath(t, path)
			a := mustFile(t, s, "2026-12-04T10:00:00-06:00", "Jane Roe")
			mustApply(t, s, a.Number, "2026-12-04T11:00:00-06:00",
				docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-10T17:00:00-06:00"),
					Place: "City Hall"})
			mustFile(t, s, "2026-12-04T12:00:00-06:00", "Richard Roe")
			mustApply(t, s, a.Number, "2026-12-07T09:00:00-06:00",
				docket.RecordMailing{Recipient: docket.Respondent, Article: "94071118987654321712"})
			mustVerify(t, s)

			db, err := sql.Open("sqlite3", "file:"+path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(tc.sql); err != nil {
				t.Fatal(err)
			}
			db.Close()

			r, err := s.Verify(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if r.Broken == nil || !strings.HasPrefix(r.Broken.String(), tc.want) {
				t.Errorf("verify found %v, want %q", r.Broken, tc.want)
			}
		})
	}
	t.Run("TriggersForbidEditing", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "ethicsbot.db")
		s := MustOpenPath(t, path)
		mustFile(t, s, "2026-12-04T10:00:00-06:00", "Jane Roe")
		db, _ := sql.Open("sqlite3", "file:"+path)
		defer db.Close()
		for _, q := range []string{`UPDATE events SET by = 'x'`, `DELETE FROM events`, `DELETE FROM cases`} {
			if _, err := db.Exec(q); err == nil || !strings.Contains(err.Error(), "never deleted") &&
				!strings.Contains(err.Error(), "append-only") {
				t.Errorf("%s: %v", q, err)
			}
		}
	})
}

func TestBadFiles(t *testing.T) {
	dir := t.TempDir()
	newer := filepath.Join(dir, "newer.db")
	func() {
		s := MustOpenPath(t, newer)
		mustFile(t, s, "2026-12-04T10:00:00-06:00", "Jane Roe")
		s.Close()
		db, _ := sql.Open("sqlite3", "file:"+newer)
		if _, err := db.Exec(fmt.Sprintf("PRAGMA user_version = %d", store.SchemaVersion()+1)); err != nil {
			t.Fatal(err)
		}
		db.Close()
	}()
	garbage := filepath.Join(dir, "garbage.db")
	os.WriteFile(garbage, bytes.Repeat([]byte("not a database "), 100), 0o644)
	short := filepath.Join(dir, "short.db")
	os.WriteFile(short, []byte("SQLite"), 0o644)
	readonly := filepath.Join(dir, "readonly.db")
	func() {
		s := MustOpenPath(t, readonly)
		s.Close()
		os.Chmod(readonly, 0o444)
	}()
	for _, tc := range []struct{ name, path, want string }{
		{"Garbage", garbage, "is not an SQLite database"},
		{"Short", short, "is not an SQLite database"},
		{"ReadOnly", readonly, "is read-only"},
		{"NewerSchema", newer, "newer than this ethicsbot's"},
		{"Directory", dir, "is not a regular file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before []byte
			if fi, _ := os.Stat(tc.path); fi.Mode().IsRegular() {
				before, _ = os.ReadFile(tc.path)
			}
			_, err := store.Open(tc.path, MustEngine(t))
			if err == nil {
				t.Fatal("opened")
			}
			if !strings.Contains(err.Error(), tc.path) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q: want the path and %q", err, tc.want)
			}
			if before != nil {
				if after, _ := os.ReadFile(tc.path); !bytes.Equal(before, after) {
					t.Error("the file was changed")
				}
			}
		})
	}
}

func TestBackupWhileWriting(t *testing.T) {
	s := MustOpen(t)
	for i := 0; i < 20; i++ {
		mustFile(t, s, "2026-12-04T10:00:00-06:00", fmt.Sprintf("Respondent %d", i))
	}
	stop := make(chan struct{})
	done := make(chan error)
	go func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				done <- nil
				return
			default:
			}
			when := T(t, "2026-12-05T10:00:00-06:00")
			if _, err := s.File(ctx, docket.Act{By: "U_CLERK", At: when}, complaint(when, fmt.Sprintf("Busy %d", i))); err != nil {
				done <- err
				return
			}
		}
	}()
	dest := filepath.Join(t.TempDir(), "backup.db")
	r, err := s.Backup(ctx, dest)
	close(stop)
	if werr := <-done; werr != nil {
		t.Fatal(werr)
	}
	if err != nil {
		t.Fatal(err)
	}
	if r.Broken != nil || r.Cases < 20 {
		t.Errorf("backup verify: %+v", r)
	}
	if _, err := s.Backup(ctx, dest); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("backup over an existing file: %v", err)
	}
}

func TestExport(t *testing.T) {
	s := MustOpen(t)
	secret := mustFile(t, s, "2026-12-04T10:00:00-06:00", "Hidden Respondent")
	mustApply(t, s, secret.Number, "2026-12-04T11:00:00-06:00",
		docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-10T17:00:00-06:00"),
			Place: "City Hall", Closed: true, Authority: "5 ILCS 120/2(c)(4)"})
	dismissed := mustFile(t, s, "2026-12-04T12:00:00-06:00", "Public Respondent")
	mustApply(t, s, dismissed.Number, "2026-12-04T13:00:00-06:00",
		docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-10T17:00:00-06:00"),
			Place: "City Hall"})
	// Recorded by override: neither the notice's posting nor the (B) mailings are on record.
	const reason = "=posted on the board 4 Dec; the log was lost"
	mustApply(t, s, dismissed.Number, "2026-12-10T18:00:00-06:00",
		docket.Rule{Ruling: docket.NoProbableCause, Override: reason})

	var full, pub, pubCSV, fullCSV bytes.Buffer
	for _, x := range []struct {
		buf    *bytes.Buffer
		format string
		public bool
	}{{&full, "json", false}, {&pub, "json", true}, {&pubCSV, "csv", true}, {&fullCSV, "csv", false}} {
		if err := s.Export(ctx, x.buf, x.format, x.public); err != nil {
			t.Fatal(err)
		}
	}
	var decoded struct {
		Cases []struct {
			Number string            `json:"number"`
			Events []json.RawMessage `json:"events"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(full.Bytes(), &decoded); err != nil || len(decoded.Cases) != 2 ||
		len(decoded.Cases[1].Events) != 3 {
		t.Errorf("full export: %v %+v", err, decoded)
	}
	for name, out := range map[string]string{"json": pub.String(), "csv": pubCSV.String()} {
		for _, leak := range []string{"Hidden Respondent", "Confidential", "John Doe"} {
			if leak == "John Doe" {
				continue // the dismissed case is public, with its parties
			}
			if strings.Contains(out, leak) {
				t.Errorf("public %s export leaks %q:\n%s", name, leak, out)
			}
		}
		for _, want := range []string{"Public Respondent", "no_probable_cause", "(C)(2)", "5 ILCS 120/2(c)(4)",
			secret.Number} {
			if !strings.Contains(out, want) {
				t.Errorf("public %s export lacks %q:\n%s", name, want, out)
			}
		}
	}
	if !strings.Contains(fullCSV.String(), "Hidden Respondent") || strings.Count(fullCSV.String(), "\n") != 6 {
		t.Errorf("full csv:\n%s", fullCSV.String())
	}
	t.Run("Overrides", func(t *testing.T) {
		// The JSON export has the override on the case and in the ruling's event; the CSV
		// export in the event's payload. The public export says nothing of it.
		var doc struct {
			Cases []struct {
				Overrides []docket.Override `json:"overrides"`
				Events    []struct {
					Kind    string          `json:"kind"`
					Payload json.RawMessage `json:"payload"`
				} `json:"events"`
			} `json:"cases"`
		}
		if err := json.Unmarshal(full.Bytes(), &doc); err != nil || len(doc.Cases) != 2 {
			t.Fatalf("full export: %v", err)
		}
		got := doc.Cases[1].Overrides
		if len(got) != 2 || got[0].Rule != "(C)(1)" || got[1].Rule != "(B)" || got[0].Reason != reason ||
			got[0].Step != "ruling" || got[0].On.String() != "2026-12-10" {
			t.Errorf("the case's overrides in JSON: %+v", got)
		}
		var rule struct{ Override string }
		if ev := doc.Cases[1].Events[2]; ev.Kind != "rule" || json.Unmarshal(ev.Payload, &rule) != nil ||
			rule.Override != reason {
			t.Errorf("the ruling's event in JSON: %+v", ev)
		}
		rows, err := csv.NewReader(strings.NewReader(fullCSV.String())).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if last := rows[len(rows)-1]; last[9] != "rule" || !strings.Contains(last[10], `"override":"=posted on the board`) {
			t.Errorf("the ruling's CSV row: %q", last)
		}
		if strings.Contains(pub.String(), "log was lost") || strings.Contains(pubCSV.String(), "log was lost") {
			t.Error("a public export shows the override")
		}
	})
	if err := s.Export(ctx, &full, "xml", false); docket.ErrorCode(err) != docket.EINVALID {
		t.Errorf("xml export: %v", err)
	}
}

func TestOutboxExactlyOnce(t *testing.T) {
	s := MustOpen(t)
	k := outbox.Key{Case: "2026-001", Series: "respondent_notice", Step: "due:2026-12-09",
		To: outbox.Dest{Channel: "C_DOCKET"}}
	due := T(t, "2026-12-09T09:00:00-06:00")
	if err := s.Enqueue(ctx, []outbox.Post{{Key: k, Text: "due today", Due: due}}); err != nil {
		t.Fatal(err)
	}
	if pending, _ := s.Pending(ctx, due.Add(-time.Second), nil, 10); len(pending) != 0 {
		t.Errorf("pending before it is due: %+v", pending)
	}
	prior, held, err := s.Claim(ctx, k, due)
	if err != nil || !held || !prior.IsZero() {
		t.Fatalf("first claim: %v %v %v", prior, held, err)
	}
	// A crash before MarkSent: the next claim holds it again and sees the earlier claim.
	prior, held, err = s.Claim(ctx, k, due.Add(time.Minute))
	if err != nil || !held || !prior.Equal(due) {
		t.Fatalf("reclaim: %v %v %v", prior, held, err)
	}
	if err := s.MarkFailed(ctx, k, "slack: 500", due.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if pending, _ := s.Pending(ctx, due, nil, 10); len(pending) != 1 || pending[0].LastError != "slack: 500" ||
		pending[0].Attempts != 2 || pending[0].Text != "due today" || !pending[0].Failing.Equal(due.Add(time.Minute)) {
		t.Errorf("pending %+v", pending)
	}
	if err := s.MarkSent(ctx, k, "C_DOCKET", "1733400000.000100", due.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, held, _ := s.Claim(ctx, k, due.Add(3*time.Minute)); held {
		t.Error("a sent reminder was claimed again")
	}
	if err := s.MarkSent(ctx, k, "C_DOCKET", "x", due); err == nil {
		t.Error("marked sent twice")
	}
	if pending, _ := s.Pending(ctx, due.Add(time.Hour), nil, 10); len(pending) != 0 {
		t.Errorf("pending %+v", pending)
	}
	// Enqueueing it again changes nothing: it was said.
	if err := s.Enqueue(ctx, []outbox.Post{{Key: k, Text: "due today, again", Due: due}}); err != nil {
		t.Fatal(err)
	}
	if all, _ := s.Outbox(ctx); len(all) != 1 || all[0].Text != "due today" || all[0].Sent.IsZero() {
		t.Errorf("outbox %+v", all)
	}
	planned := func(since time.Time) (keys []outbox.Key) {
		t.Helper()
		if err := s.Planned(ctx, since, func(k outbox.Key) { keys = append(keys, k) }); err != nil {
			t.Fatal(err)
		}
		return keys
	}
	if got := planned(due.Add(-time.Hour)); len(got) != 1 || got[0] != k {
		t.Errorf("Planned = %v, want %v", got, k)
	}
	if got := planned(due.Add(time.Hour)); len(got) != 0 {
		t.Errorf("Planned after due: %v", got)
	}
	if last, _ := s.LastSweep(ctx); !last.IsZero() {
		t.Errorf("last sweep %v before any", last)
	}
	s.SetLastSweep(ctx, due)
	if last, _ := s.LastSweep(ctx); !last.Equal(due) {
		t.Errorf("last sweep %v", last)
	}
}

// TestDiskFull: when the disk fills mid-run, filings get a clear error and leave nothing
// half-written; when space returns, filing resumes with the next number.
func TestDiskFull(t *testing.T) {
	s := MustOpen(t)
	mustFile(t, s, "2026-12-04T10:00:00-06:00", "Jane Roe")
	pages, err := store.PageCount(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.LimitPages(s, pages); err != nil {
		t.Fatal(err)
	}
	big := complaint(T(t, "2026-12-04T11:00:00-06:00"), "Richard Roe")
	big.Summary = strings.Repeat("The disk is full. ", 150) // needs new pages
	var failed error
	for i := 0; i < 20 && failed == nil; i++ {
		_, failed = s.File(ctx, docket.Act{By: "U_CLERK", At: T(t, "2026-12-04T11:00:00-06:00")}, big)
	}
	if failed == nil || !strings.Contains(failed.Error(), "is full; nothing was recorded") {
		t.Fatalf("error %v, want a clear disk-full error", failed)
	}
	if err := s.Ping(ctx); err != nil {
		t.Fatalf("the store is down after a full disk: %v", err)
	}
	// Reads still work, so Ping cannot tell: WriteHealth says it, for /healthz.
	if got := s.WriteHealth(); got != "full" {
		t.Errorf("WriteHealth with the disk full: %q, want full", got)
	}
	if err := store.LimitPages(s, 0); err != nil {
		t.Fatal(err)
	}
	c := mustFile(t, s, "2026-12-04T12:00:00-06:00", "After The Cleanup")
	if got := s.WriteHealth(); got != "" {
		t.Errorf("WriteHealth once a write succeeds again: %q, want none", got)
	}
	all, _ := s.AllCases(ctx)
	if c.Number != fmt.Sprintf("2026-%03d", len(all)) {
		t.Errorf("after recovery the number is %s with %d cases: a failed filing left a gap or a half-written case",
			c.Number, len(all))
	}
	mustVerify(t, s)
}

// TestReopenOwed: a case closed by a ruling before papers were tracked, whose papers are
// not recorded, is back on the docket when the store opens, and the record still verifies.
func TestReopenOwed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ethicsbot.db")
	s := MustOpenPath(t, path)
	c := mustFile(t, s, "2026-12-04T10:00:00-06:00", "Jane Roe")
	mustApply(t, s, c.Number, "2026-12-04T12:00:00-06:00",
		docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-10T17:00:00-06:00"),
			Place: "City Hall"})
	mustNotice(t, s, c.Number, "2026-12-04T12:30:00-06:00")
	mustApply(t, s, c.Number, "2026-12-10T18:00:00-06:00", docket.Rule{Ruling: docket.Insufficient})
	s.Close()
	// As an earlier ethicsbot left it: the dismissal closed the case.
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE cases SET open = 0`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s = MustOpenPath(t, path)
	open, err := s.OpenCases(ctx)
	if err != nil || len(open) != 1 {
		t.Fatalf("open cases %d, %v: the dismissal notices are owed, so the case is open", len(open), err)
	}
	if r := mustVerify(t, s); r.Broken != nil {
		t.Errorf("verify: %+v", r.Broken)
	}
}
