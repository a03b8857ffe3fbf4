package store_test

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
	"ethicsbot/store"
)

// scheduleAt schedules the sufficiency meeting of case number at start, at City Hall, and
// posts its notice.
func scheduleAt(t *testing.T, s *store.Store, number, at, start string) {
	t.Helper()
	mustApply(t, s, number, at, docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, start),
		Place: "City Hall"})
	mustApply(t, s, number, at, docket.PostNotice{Meeting: docket.SufficiencyMeeting})
}

// foldedFromCases is the meetings folded from every case's record, as Store.Meetings read
// them before the cases' steps were kept apart.
func foldedFromCases(t *testing.T, s *store.Store) []docket.CommissionMeeting {
	t.Helper()
	recorded, err := s.RecordedMeetings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	all, err := s.AllCases(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cases := make([]*docket.Case, len(all))
	for i := range all {
		cases[i] = &all[i]
	}
	return MustEngine(t).Fold(recorded, cases)
}

// The meetings read from the steps each case keeps (case_steps) are the meetings folded
// from every case's record: a recorded meeting with two cases' steps, two steps at a start
// and place no record holds (one folded meeting), and a step moved; an edit of a kept step
// is found by verify.
func TestMeetingsFromTheCasesSteps(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ethicsbot.db")
	s := MustOpenPath(t, path)
	a := mustFile(t, s, "2026-12-04T10:00:00-06:00", "Jane Roe")
	b := mustFile(t, s, "2026-12-04T11:00:00-06:00", "Richard Roe")
	c := mustFile(t, s, "2026-12-04T12:00:00-06:00", "Rachel Roe")
	d := mustFile(t, s, "2026-12-04T13:00:00-06:00", "Robert Roe")
	start := T(t, "2026-12-15T17:00:00-06:00")
	if _, err := s.ChangeMeeting(ctx, docket.Act{By: "U_CLERK", At: T(t, "2026-12-05T09:00:00-06:00")},
		docket.MeetingChange{Create: &docket.CreateMeeting{Start: start, Place: "City Hall"}}); err != nil {
		t.Fatal(err)
	}
	scheduleAt(t, s, a.Number, "2026-12-05T10:00:00-06:00", "2026-12-15T17:00:00-06:00")
	scheduleAt(t, s, b.Number, "2026-12-05T10:00:00-06:00", "2026-12-15T17:00:00-06:00")
	scheduleAt(t, s, c.Number, "2026-12-05T10:00:00-06:00", "2026-12-10T17:00:00-06:00")
	scheduleAt(t, s, d.Number, "2026-12-05T11:00:00-06:00", "2026-12-10T17:00:00-06:00")
	scheduleAt(t, s, d.Number, "2026-12-05T12:00:00-06:00", "2026-12-11T17:00:00-06:00") // moved
	got, err := s.Meetings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := foldedFromCases(t, s); !reflect.DeepEqual(got, want) {
		t.Fatalf("Meetings from the cases' steps:\n%+v\nwant, folded from the cases:\n%+v", got, want)
	}
	if len(got) != 3 || len(got[0].Cases) != 1 || len(got[2].Cases) != 2 {
		t.Fatalf("meetings %+v: want 10 Dec with one step, 11 Dec with one, 15 Dec with two", got)
	}
	mustVerify(t, s)
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`UPDATE case_steps SET step = replace(step, 'City Hall', 'Secret Bunker') WHERE number = ?`,
		a.Number); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Verify(ctx); err != nil || r.Broken == nil || !strings.Contains(r.Broken.Problem, "case_steps") {
		t.Errorf("verify after a kept step was edited: %v, %v; want it found", r.Broken, err)
	}
}

// A record migrated to 017 has its cases' steps kept by the migration, from the records.
func TestCaseStepsFilledOnMigration(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ethicsbot.db")
	old, err := store.OpenAtVersion(path, MustEngine(t), 16)
	if err != nil {
		t.Fatal(err)
	}
	a := mustFile(t, old, "2026-12-04T10:00:00-06:00", "Jane Roe")
	b := mustFile(t, old, "2026-12-04T11:00:00-06:00", "Richard Roe")
	scheduleAt(t, old, a.Number, "2026-12-05T10:00:00-06:00", "2026-12-10T17:00:00-06:00")
	scheduleAt(t, old, b.Number, "2026-12-05T10:00:00-06:00", "2026-12-10T17:00:00-06:00")
	old.Close()
	s := MustOpenPath(t, path)
	got, err := s.Meetings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := foldedFromCases(t, s); len(got) != 1 || len(got[0].Cases) != 2 || !reflect.DeepEqual(got, want) {
		t.Fatalf("Meetings after migrating = %+v, want %+v", got, want)
	}
	mustVerify(t, s)
}

// TestCaseAttentionFilledOnMigration: the open cases of a record from before case_attention
// have what needs attention on them kept once it is migrated, and their steps scheduled at
// meetings their starts, and verify agrees.
func TestCaseAttentionFilledOnMigration(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ethicsbot.db")
	old := MustOpenPath(t, path)
	a := mustFile(t, old, "2026-12-04T10:00:00-06:00", "Jane Roe")
	mustFile(t, old, "2026-12-04T11:00:00-06:00", "Richard Roe")
	scheduleAt(t, old, a.Number, "2026-12-05T10:00:00-06:00", "2026-12-10T17:00:00-06:00")
	old.Close()
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { db.Close() }()
	// As ethicsbot left it before case_attention, its cases' due instants derived.
	if _, err := db.Exec(`DROP TABLE case_attention; DROP INDEX case_steps_by_start;
		ALTER TABLE case_steps DROP COLUMN start; DELETE FROM schema_migrations WHERE version = 19;
		PRAGMA user_version = 18`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s := MustOpenPath(t, path)
	mustVerify(t, s)
	if db, err = sql.Open("sqlite3", "file:"+path); err != nil {
		t.Fatal(err)
	}
	var cases, lines int
	if err := db.QueryRow(`SELECT count(DISTINCT number), count(*) FROM case_attention`).Scan(&cases, &lines); err != nil {
		t.Fatal(err)
	}
	if cases != 2 || lines < 4 {
		t.Fatalf("after migrating, case_attention holds %d lines of %d cases; want some of each of the 2", lines, cases)
	}
	var start string
	if err := db.QueryRow(`SELECT start FROM case_steps WHERE number = ?`, a.Number).Scan(&start); err != nil ||
		start != "2026-12-10T23:00:00.000000000Z" {
		t.Fatalf("after migrating, case_steps keeps the start of %s's meeting as %q (%v), want its instant", a.Number,
			start, err)
	}
}

// TestAttentionQueriesSearchTheIndexes: the Home tab counts the lines of what needs
// attention through the index of their spans, and reads the cases in the docket's order
// through the index of their next steps, each line found by its case's number: no case
// is decoded to count, and none is sorted.
func TestAttentionQueriesSearchTheIndexes(t *testing.T) {
	count, cases, err := store.AttentionQueryPlans(MustOpen(t))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(count, "; "); !strings.Contains(got, "USING COVERING INDEX case_attention_by_since (since<?)") ||
		!strings.Contains(got, "SEARCH a USING PRIMARY KEY (number=?)") {
		t.Errorf("the count's plan = %q, want a search of case_attention_by_since and one by number", got)
	}
	if got := strings.Join(cases, "; "); !strings.Contains(got, "SCAN cases USING INDEX cases_open_by_next") ||
		!strings.Contains(got, "SEARCH a EXISTS USING PRIMARY KEY (number=?)") || strings.Contains(got, "TEMP B-TREE") {
		t.Errorf("the cases' plan = %q, want a scan of cases_open_by_next in order, each searched by number", got)
	}
}

// TestComingMeetings: the meetings read up to the next one, through the index of the
// steps' starts, hold the next meeting after each instant as every meeting folded does,
// with its every step and by the same name (two folded the same day are told apart as
// when all are folded), and every meeting from that instant's day to the next one's.
func TestComingMeetings(t *testing.T) {
	s := MustOpen(t)
	for i, start := range []string{"2026-12-10T17:00:00-06:00", "2026-12-10T10:00:00-06:00", "2026-12-10T17:00:00-06:00",
		"2026-12-11T17:00:00-06:00", "2026-12-14T09:00:00-06:00", "2026-12-14T17:00:00-06:00"} {
		c := mustFile(t, s, fmt.Sprintf("2026-12-0%dT10:00:00-06:00", 1+i%3), fmt.Sprint("Roe ", i))
		scheduleAt(t, s, c.Number, "2026-12-04T10:00:00-06:00", start)
	}
	all, err := s.Meetings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 5 || all[1].Name != "2026-12-10b" || len(all[1].Cases) != 2 {
		t.Fatalf("the meetings folded = %+v; want five, two on 2026-12-10", all)
	}
	loc := MustEngine(t).Cal.Location()
	next := func(ms []docket.CommissionMeeting, now time.Time) *docket.CommissionMeeting {
		for i := range ms {
			if ms[i].Start.After(now) && ms[i].Cancelled.IsZero() {
				return &ms[i]
			}
		}
		return nil
	}
	for _, at := range []string{"2026-12-09T12:00:00-06:00", "2026-12-10T09:00:00-06:00", "2026-12-10T10:00:00-06:00",
		"2026-12-10T12:00:00-06:00", "2026-12-11T17:00:00-06:00", "2026-12-12T08:00:00-06:00",
		"2026-12-14T12:00:00-06:00", "2026-12-15T12:00:00-06:00"} {
		now := T(t, at)
		got, err := s.ComingMeetings(ctx, now)
		if err != nil {
			t.Fatal(err)
		}
		want := next(all, now)
		if g := next(got, now); !reflect.DeepEqual(g, want) {
			t.Fatalf("at %s the next meeting read up to it is %+v; want %+v", at, g, want)
		}
		for _, m := range got {
			day := docket.DateIn(m.Start, loc)
			if day < docket.DateIn(now, loc) || want == nil || day > docket.DateIn(want.Start, loc) {
				continue
			}
			if i := slices.IndexFunc(all, func(a docket.CommissionMeeting) bool { return a.Name == m.Name }); i < 0 ||
				!reflect.DeepEqual(all[i], m) {
				t.Errorf("at %s the meeting read %+v differs from the one folded from every step", at, m)
			}
		}
	}
}

// MeetingsOn gives the meetings of the days asked for exactly as Meetings gives them, their
// folded names (a day's second meeting is its "b") and case steps alike, and none of the
// other days': the reminder sweep reads the days it looks at, not every meeting.
func TestMeetingsOnTheDaysAskedFor(t *testing.T) {
	s := MustOpen(t)
	var numbers []string
	for i := range 5 {
		numbers = append(numbers, mustFile(t, s, fmt.Sprintf("2026-12-04T1%d:00:00-06:00", i), fmt.Sprint("Roe ", i)).Number)
	}
	if _, err := s.ChangeMeeting(ctx, docket.Act{By: "U_CLERK", At: T(t, "2026-12-05T09:00:00-06:00")},
		docket.MeetingChange{Create: &docket.CreateMeeting{Start: T(t, "2026-12-15T17:00:00-06:00"),
			Place: "City Hall"}}); err != nil {
		t.Fatal(err)
	}
	scheduleAt(t, s, numbers[0], "2026-12-05T10:00:00-06:00", "2026-12-15T17:00:00-06:00")
	scheduleAt(t, s, numbers[1], "2026-12-05T10:00:00-06:00", "2026-12-10T18:00:00-06:00")
	scheduleAt(t, s, numbers[2], "2026-12-05T10:00:00-06:00", "2026-12-10T17:00:00-06:00")
	scheduleAt(t, s, numbers[3], "2026-12-05T10:00:00-06:00", "2026-12-11T17:00:00-06:00")
	scheduleAt(t, s, numbers[4], "2026-12-05T10:00:00-06:00", "2026-12-10T18:00:00-06:00")
	all, err := s.Meetings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cal := MustEngine(t).Cal
	day := func(d int) docket.Date { return docket.NewDate(2026, time.December, d) }
	for _, days := range [][2]int{{10, 10}, {11, 15}, {12, 14}, {1, 31}} {
		first, last := day(days[0]), day(days[1])
		got, err := s.MeetingsOn(ctx, first, last)
		if err != nil {
			t.Fatal(err)
		}
		want := slices.DeleteFunc(slices.Clone(all), func(m docket.CommissionMeeting) bool {
			return cal.DateOf(m.Start) < first || cal.DateOf(m.Start) > last
		})
		if !reflect.DeepEqual(got, want) {
			t.Errorf("MeetingsOn(%s, %s) =\n%+v\nwant, as Meetings gives them:\n%+v", first, last, got, want)
		}
	}
	on10, _ := s.MeetingsOn(ctx, day(10), day(10))
	if len(on10) != 2 || on10[0].Name != "2026-12-10" || on10[1].Name != "2026-12-10b" || len(on10[1].Cases) != 2 {
		t.Errorf("the meetings of 10 Dec = %+v, want 2026-12-10 and 2026-12-10b, the second with two steps", on10)
	}
}
