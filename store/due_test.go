package store_test

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
	"ethicsbot/store"
)

// Each event writes its case's next due instant in its own transaction: a case is read by
// DueBy from the instant its earliest pending deadline begins, and not before.
func TestDueByFollowsEachEvent(t *testing.T) {
	s := MustOpen(t)
	e := MustEngine(t)
	a := mustFile(t, s, "2026-12-04T10:00:00-06:00", "Jane Roe")
	b := mustFile(t, s, "2026-12-04T12:00:00-06:00", "Richard Roe")
	dueA := e.NextDue(&a, time.Time{})
	if dueA.IsZero() || !dueA.After(a.Received) {
		t.Fatalf("NextDue of a new complaint = %v, want a deadline after its receipt", dueA)
	}
	due := func(at string) []string {
		t.Helper()
		got, err := s.DueBy(ctx, T(t, at))
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if got := due("2026-12-04T13:00:00-06:00"); len(got) != 0 {
		t.Errorf("DueBy the day of filing = %v, want none", got)
	}
	if got, _ := s.DueBy(ctx, dueA); !slices.Equal(got, []string{a.Number, b.Number}) {
		t.Errorf("DueBy(%v) = %v, want both cases", dueA, got)
	}
	// A meeting scheduled before the deadline brings the case's instant forward, in the
	// transaction that schedules it.
	mustApply(t, s, a.Number, "2026-12-04T14:00:00-06:00",
		docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-07T17:00:00-06:00"),
			Place: "City Hall"})
	c, err := s.Case(ctx, a.Number)
	if err != nil {
		t.Fatal(err)
	}
	if next := e.NextDue(&c, time.Time{}); !next.Before(dueA) {
		t.Fatalf("NextDue after scheduling a meeting = %v, want before %v", next, dueA)
	}
	if got, _ := s.DueBy(ctx, e.NextDue(&c, time.Time{})); !slices.Contains(got, a.Number) ||
		slices.Contains(got, b.Number) {
		t.Errorf("DueBy the notice's instant = %v, want %s alone", got, a.Number)
	}
	mustVerify(t, s)
}

// A new case's row is written with what its first event derives: its parties do not see it
// on their docket from the filing on (cases.recused), and verify finds its derived columns
// as its record gives them.
func TestFilingWritesTheDerivedColumns(t *testing.T) {
	s := MustOpen(t)
	when := T(t, "2026-12-04T10:00:00-06:00")
	f := complaint(when, "Jane Roe")
	f.Complainant.SlackID, f.Respondent.SlackID = "U_COMPLAINANT", "U_RESPONDENT"
	res, err := s.File(ctx, docket.Act{By: "U_CLERK", At: when}, f)
	if err != nil {
		t.Fatal(err)
	}
	for viewer, want := range map[string]int{"U_COMPLAINANT": 0, "U_RESPONDENT": 0, "U_MEMBER": 1} {
		shown, total, err := s.Docket(ctx, viewer, 10)
		if err != nil {
			t.Fatal(err)
		}
		if total != want || len(shown) != want {
			t.Errorf("Docket(%s) = %d cases of %d, want %d", viewer, len(shown), total, want)
		}
	}
	if due, err := s.DueBy(ctx, MustEngine(t).NextDue(&res.Case, time.Time{})); err != nil ||
		!slices.Equal(due, []string{res.Case.Number}) {
		t.Errorf("DueBy its next due instant = %v, %v; want %s", due, err, res.Case.Number)
	}
	mustVerify(t, s)
}

// A record migrated to 015 has no instants: every open case is read as due until the bot
// derives them when it opens the record, after which they agree with verify.
func TestDueDerivedAfterMigrating(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ethicsbot.db")
	old, err := store.OpenAtVersion(path, MustEngine(t), 14)
	if err != nil {
		t.Fatal(err)
	}
	res, err := old.File(ctx, docket.Act{By: "U_CLERK", At: T(t, "2026-12-04T10:00:00-06:00")},
		complaint(T(t, "2026-12-04T10:00:00-06:00"), "Jane Roe"))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := old.DueBy(ctx, T(t, "2026-12-04T10:00:00-06:00")); err != nil || len(got) != 1 {
		t.Errorf("DueBy at schema 14 = %v, %v: want every open case", got, err)
	}
	old.Close()
	s := MustOpenPath(t, path)
	if got, _ := s.DueBy(ctx, T(t, "2026-12-04T10:00:00-06:00")); len(got) != 0 {
		t.Errorf("DueBy after migrating = %v, want none due on the day of filing", got)
	}
	c := res.Case
	if got, _ := s.DueBy(ctx, MustEngine(t).NextDue(&c, time.Time{})); len(got) != 1 {
		t.Errorf("DueBy its next due instant = %v, want the case", got)
	}
	mustVerify(t, s)
}

// A change of the office's closures moves deadlines: the instants kept under the old
// calendar are not tampering. A read-only verify under the new calendar compares nothing,
// says why and writes nothing, and a read-only reader takes every open case as due; the
// bot, when it opens the record under the new calendar, derives every open case's instant
// again in one transaction, after which verify compares them again.
func TestDueRederivedWhenTheCalendarChanges(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ethicsbot.db")
	old := MustOpenPath(t, path)
	a := mustFile(t, old, "2026-12-04T10:00:00-06:00", "Jane Roe")
	before := MustEngine(t).NextDue(&a, time.Time{})
	old.Close()

	// The office closes on the first business day after the filing: a period counted in
	// business days ends a day later.
	cal, err := docket.NewCalendar(docket.CalendarConfig{Closures: []docket.Date{docket.NewDate(2026, 12, 7)}})
	if err != nil {
		t.Fatal(err)
	}
	closed := &docket.Engine{Cal: cal, Ord: docket.DefaultOrdinance()}
	after := closed.NextDue(&a, time.Time{})
	if !after.After(before) {
		t.Fatalf("NextDue with a closure = %v, want after %v", after, before)
	}
	if closed.DueBasis() == MustEngine(t).DueBasis() {
		t.Fatal("DueBasis is the same with a closure and without")
	}

	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ro, err := store.OpenReadOnly(path, closed)
	if err != nil {
		t.Fatal(err)
	}
	r, err := ro.Verify(ctx)
	if err != nil || r.Broken != nil {
		t.Fatalf("read-only verify under the new calendar: %v, %v; want intact", r.Broken, err)
	}
	if len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "derives them again when it next starts") {
		t.Errorf("verify's notes = %q, want that the instants are derived again at the next start", r.Notes)
	}
	if got, _ := ro.DueBy(ctx, T(t, "2026-12-04T10:00:00-06:00")); !slices.Equal(got, []string{a.Number}) {
		t.Errorf("DueBy read-only under the new calendar = %v, want every open case", got)
	}
	ro.Close()
	if now, _ := os.ReadFile(path); !bytes.Equal(now, raw) {
		t.Error("a read-only verify changed the record")
	}

	s, err := store.Open(path, closed)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got, _ := s.DueBy(ctx, after.Add(-time.Nanosecond)); len(got) != 0 {
		t.Errorf("DueBy just before the new instant = %v, want none", got)
	}
	if got, _ := s.DueBy(ctx, after); !slices.Equal(got, []string{a.Number}) {
		t.Errorf("DueBy the new instant = %v, want %s", got, a.Number)
	}
	if r := mustVerify(t, s); len(r.Notes) != 0 {
		t.Errorf("verify after the bot started under the new calendar: notes %q, want none", r.Notes)
	}
	// Compared again: an instant changed outside ethicsbot is found.
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`UPDATE cases SET due = ? WHERE number = ?`,
		before.UTC().Format("2006-01-02T15:04:05.000000000Z"), a.Number); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Verify(ctx); err != nil || r.Broken == nil || !strings.Contains(r.Broken.Problem, "next due instant") {
		t.Errorf("verify after the instant was changed: %v, %v; want it found", r.Broken, err)
	}
}

// DueCases gives the sweep the open cases due by an instant, decoded, and sees each change
// to one: the case a meeting brings forward is read again with the meeting.
func TestDueCasesSeesEveryChange(t *testing.T) {
	s := MustOpen(t)
	e := MustEngine(t)
	a := mustFile(t, s, "2026-12-04T10:00:00-06:00", "Jane Roe")
	mustFile(t, s, "2026-12-04T12:00:00-06:00", "Richard Roe")
	numbers := func(at string) []string {
		t.Helper()
		var out []string
		for _, c := range dueCases(t, s, T(t, at)) {
			out = append(out, c.Number)
		}
		return out
	}
	if got := numbers("2026-12-05T10:00:00-06:00"); len(got) != 0 {
		t.Fatalf("DueCases the day after filing = %v, want none", got)
	}
	if got := numbers(e.NextDue(&a, time.Time{}).Format(time.RFC3339)); len(got) != 2 {
		t.Fatalf("DueCases at the first deadline = %v, want both", got)
	}
	mustApply(t, s, a.Number, "2026-12-04T14:00:00-06:00",
		docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-07T17:00:00-06:00"),
			Place: "City Hall"})
	if cs := dueCases(t, s, T(t, "2026-12-05T18:00:00-06:00")); len(cs) != 1 || cs[0].Number != a.Number || !cs[0].Sufficiency.Scheduled() {
		t.Fatalf("DueCases after scheduling the meeting = %v, want %s with its meeting", cs, a.Number)
	}
}

// dueCases is every case s.DueCases gives by until, its pages put together.
func dueCases(t *testing.T, s *store.Store, until time.Time) []*docket.Case {
	t.Helper()
	var out []*docket.Case
	if err := s.DueCases(ctx, until, func(page []*docket.Case) error {
		out = append(out, page...)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// DueCases gives the cases due a page at a time, in DueBy's order, and keeps only the first
// of them decoded for the next sweep: a record of thousands of overdue cases is read a page
// at a time, and not held whole between sweeps. The cases it keeps are given again without
// being decoded; the others are decoded again.
func TestDueCasesByPages(t *testing.T) {
	defer store.SetDueSizes(3, 4)()
	s := MustOpen(t)
	for i := range 7 {
		mustFile(t, s, fmt.Sprintf("2026-12-04T1%d:00:00-06:00", i), fmt.Sprint("Respondent ", i))
	}
	until := T(t, "2027-03-01T00:00:00-06:00")
	want, err := s.DueBy(ctx, until)
	if err != nil || len(want) != 7 {
		t.Fatalf("DueBy = %v, %v; want the 7 cases", want, err)
	}
	read := func() (sizes []int, numbers []string, cases []*docket.Case) {
		t.Helper()
		if err := s.DueCases(ctx, until, func(page []*docket.Case) error {
			sizes = append(sizes, len(page))
			for _, c := range page {
				numbers, cases = append(numbers, c.Number), append(cases, c)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return sizes, numbers, cases
	}
	sizes, numbers, first := read()
	if !slices.Equal(sizes, []int{3, 3, 1}) || !slices.Equal(numbers, want) {
		t.Fatalf("DueCases gave pages of %v: %v; want pages of 3, 3, 1: %v", sizes, numbers, want)
	}
	if got := store.DueCached(s); got != 4 {
		t.Errorf("DueCases keeps %d cases decoded, want 4", got)
	}
	_, _, again := read()
	for i := range again {
		if kept := again[i] == first[i]; kept != (i < 4) {
			t.Errorf("case %d of the second read: the same decoded case as the first read's = %v, want %v", i, kept, i < 4)
		}
	}
	stop := errors.New("stop")
	pages := 0
	err = s.DueCases(ctx, until, func([]*docket.Case) error { pages++; return stop })
	if !errors.Is(err, stop) || pages != 1 {
		t.Errorf("DueCases after its reader's error = %v after %d pages, want that error after the first", err, pages)
	}
}

// The cases due by an instant are one search of the partial index of the open cases'
// instants, not a scan of every open case (nor of the whole index).
func TestDueQuerySearchesTheIndex(t *testing.T) {
	plan, fresh, err := store.DueQueryPlan(MustOpen(t))
	if err != nil {
		t.Fatal(err)
	}
	if !fresh {
		t.Fatal("a new record's instants are not taken as derived by its engine")
	}
	if got := strings.Join(plan, "; "); !strings.Contains(got,
		"SEARCH cases USING INDEX cases_open_by_due (due>? AND due<?)") {
		t.Errorf("query plan = %q, want a search of cases_open_by_due", got)
	}
}
