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
