package store_test

import (
	"path/filepath"
	"slices"
	"testing"

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
	dueA := e.NextDue(&a)
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
	if next := e.NextDue(&c); !next.Before(dueA) {
		t.Fatalf("NextDue after scheduling a meeting = %v, want before %v", next, dueA)
	}
	if got, _ := s.DueBy(ctx, e.NextDue(&c)); !slices.Contains(got, a.Number) || slices.Contains(got, b.Number) {
		t.Errorf("DueBy the notice's instant = %v, want %s alone", got, a.Number)
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
	res, err := old.File(ctx, "U_CLERK", "", complaint(T(t, "2026-12-04T10:00:00-06:00"), "Jane Roe"),
		T(t, "2026-12-04T10:00:00-06:00"), nil)
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
	if got, _ := s.DueBy(ctx, MustEngine(t).NextDue(&c)); len(got) != 1 {
		t.Errorf("DueBy its next due instant = %v, want the case", got)
	}
	mustVerify(t, s)
}
