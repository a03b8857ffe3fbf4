package store_test

import (
	"slices"
	"testing"
	"time"

	"ethicsbot/docket"
)

// TestBoardWindow: what the board reads to make a bounded page. The cut is the nth latest
// record that has happened; the withdrawn notices of a span are read apart; the steps of
// the cases changed since an event are read, every case's from the start; and the meetings
// folded from the steps of a day are those Meetings gives for that day.
func TestBoardWindow(t *testing.T) {
	s := MustOpen(t)
	sufficiency := func(start, place string) docket.ScheduleMeeting {
		return docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, start), Place: place}
	}
	a := mustFile(t, s, "2026-12-01T10:00:00-06:00", "Ann Roe")
	b := mustFile(t, s, "2026-12-01T10:10:00-06:00", "Bob Roe")
	c := mustFile(t, s, "2026-12-01T10:20:00-06:00", "Cy Roe")
	mustApply(t, s, a.Number, "2026-12-01T11:00:00-06:00", sufficiency("2026-12-07T17:00:00-06:00", "City Hall"))
	mustApply(t, s, b.Number, "2026-12-01T11:00:00-06:00", sufficiency("2026-12-07T17:00:00-06:00", "City Hall"))
	mustApply(t, s, c.Number, "2026-12-01T11:00:00-06:00", sufficiency("2026-12-08T17:00:00-06:00", "Annex"))

	// The cut: the notices of the 7th (two) and the 8th, counted back from the 9th.
	ctx := t.Context()
	for n, want := range map[int]string{1: "2026-12-08T17:00:00-06:00", 2: "2026-12-07T17:00:00-06:00",
		3: "2026-12-07T17:00:00-06:00", 4: ""} {
		got, err := s.PublicCut(ctx, T(t, "2026-12-09T00:00:00-06:00"), n)
		if err != nil {
			t.Fatal(err)
		}
		if want == "" && !got.IsZero() || want != "" && !got.Equal(T(t, want)) {
			t.Errorf("PublicCut(%d) = %v, want %q", n, got, want)
		}
	}
	if got, err := s.PublicCut(ctx, T(t, "2026-12-07T16:00:00-06:00"), 1); err != nil || !got.IsZero() {
		t.Errorf("before any notice happens, PublicCut = %v, %v", got, err)
	}

	steps, last, err := s.StepsSince(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 3 || len(steps[c.Number]) != 1 || steps[c.Number][0].Place != "Annex" {
		t.Fatalf("StepsSince(0) = %+v", steps)
	}
	// The 8th's meeting is cancelled: its notice stays, withdrawn, and only that case's
	// steps are read again (none now).
	mustApply(t, s, c.Number, "2026-12-02T09:00:00-06:00",
		docket.CancelMeeting{Meeting: docket.SufficiencyMeeting, Reason: "No quorum"})
	changed, now, err := s.StepsSince(ctx, last)
	if err != nil {
		t.Fatal(err)
	}
	if now <= last || len(changed) != 1 || changed[c.Number] != nil {
		t.Errorf("after a cancellation, StepsSince = %+v, %d (was %d)", changed, now, last)
	}
	if again, same, err := s.StepsSince(ctx, now); err != nil || same != now || len(again) != 0 {
		t.Errorf("with no event since, StepsSince = %+v, %d, %v", again, same, err)
	}
	withdrawn, err := s.PublicWithdrawnBetween(ctx, T(t, "2026-12-07T00:00:00-06:00"), T(t, "2026-12-09T00:00:00-06:00"))
	if err != nil {
		t.Fatal(err)
	}
	if len(withdrawn) != 1 || withdrawn[0].Case != c.Number || withdrawn[0].Withdrawn != "cancelled" {
		t.Errorf("PublicWithdrawnBetween = %+v", withdrawn)
	}

	// The fold of the 7th's steps is the 7th's meeting as Meetings has it: both cases.
	all, err := s.Meetings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	recorded, err := s.RecordedMeetings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	folded := s.FoldSteps(recorded, slices.Concat(steps[a.Number], steps[b.Number]))
	on7th := func(ms []docket.CommissionMeeting) []docket.CommissionMeeting {
		return slices.DeleteFunc(slices.Clone(ms), func(m docket.CommissionMeeting) bool {
			return m.Start.In(time.UTC).Day() != 7
		})
	}
	if got, want := on7th(folded), on7th(all); len(got) != 1 || len(want) != 1 || got[0].Name != want[0].Name ||
		len(got[0].Cases) != 2 || len(want[0].Cases) != 2 {
		t.Errorf("FoldSteps gives %+v for the 7th; Meetings %+v", got, want)
	}
}
