package docket_test

import (
	"testing"

	"ethicsbot/docket"
)

// TestFoldedMeetingPostedOnlyWhenEveryItemIs: a meeting
// folded from its cases' steps counts as posted only once every step's notice is, at the
// latest of their postings: one item's notice posted is not the whole agenda posted.
func TestFoldedMeetingPostedOnlyWhenEveryItemIs(t *testing.T) {
	e := MustEngine(t)
	schedule := []step{
		{at: "2026-12-04T10:00:00-06:00", action: filing, state: docket.StateReceived},
		{at: "2026-12-04T11:00:00-06:00",
			action: docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-10T17:00:00-06:00"),
				Place: "City Hall"}, state: docket.StateReceived},
	}
	posted := func(at string) step {
		return step{at: at, action: docket.PostNotice{Meeting: docket.SufficiencyMeeting}, state: docket.StateReceived}
	}
	first := apply(t, e, append(schedule[:2:2], posted("2026-12-05T09:00:00-06:00")))
	first.Number = "2026-001"
	second := apply(t, e, schedule)
	second.Number = "2026-002"
	ms := e.Fold(nil, []*docket.Case{&first, &second})
	if len(ms) != 1 || len(ms[0].Cases) != 2 {
		t.Fatalf("fold = %+v", ms)
	}
	if got := ms[0].Posted(); !got.IsZero() {
		t.Errorf("a folded meeting with one item's notice unposted reads as posted %v", got)
	}
	second = apply(t, e, append(schedule[:2:2], posted("2026-12-06T15:00:00-06:00")))
	second.Number = "2026-002"
	ms = e.Fold(nil, []*docket.Case{&first, &second})
	if got := ms[0].Posted(); !got.Equal(T(t, "2026-12-06T15:00:00-06:00")) {
		t.Errorf("a folded meeting with every item posted reads as posted %v, want the latest posting", got)
	}
}
