package docket_test

import (
	"testing"

	"ethicsbot/docket"
)

// TestNoticeKeepsItsHistory: a meeting's public notice says where and when its meeting was
// before each move, a notice moved says where it moved to, and every notice of the meeting,
// moved, standing or cancelled, names the same first notice (SeriesKey), with one more
// change counted (Sequence) for each move and the cancellation: what a calendar needs to
// keep one event for the meeting and raise its SEQUENCE (RFC 5545).
func TestNoticeKeepsItsHistory(t *testing.T) {
	e := MustEngine(t)
	loc := e.Cal.Location()
	schedule := func(start, place string) docket.ScheduleMeeting {
		return docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, start), Place: place}
	}
	steps := []step{
		{"2026-12-04T10:00:00-06:00", filing, docket.StateReceived, ""},
		{"2026-12-04T11:00:00-06:00", schedule("2026-12-10T17:00:00-06:00", "Room 1"), docket.StateReceived, ""},
		{"2026-12-05T09:00:00-06:00", schedule("2026-12-11T17:00:00-06:00", "Room 2"), docket.StateReceived, ""},
		{"2026-12-05T10:00:00-06:00", schedule("2026-12-11T18:00:00-06:00", "Room 2"), docket.StateReceived, ""},
	}
	c := apply(t, e, steps)
	notices := func(c docket.Case) map[string]docket.PublicRecord {
		out := map[string]docket.PublicRecord{}
		for _, r := range docket.PublicRecords(&c, loc) {
			out[r.Withdrawn+" "+r.Start.Format("02 15:04")] = r
		}
		return out
	}
	rs := notices(c)
	first, second, now := rs["moved 10 17:00"], rs["moved 11 17:00"], rs[" 11 18:00"]
	series := docket.PublicRecord{Record: "meeting_notice", Meeting: docket.SufficiencyMeeting,
		Start: T(t, "2026-12-10T17:00:00-06:00"), Place: "Room 1"}.Key()
	for name, r := range map[string]docket.PublicRecord{"the first notice": first, "the second": second,
		"the notice that stands": now} {
		if r.SeriesKey() != series {
			t.Errorf("%s: %+v names the series %s, want the first notice's, %s", name, r, r.SeriesKey(), series)
		}
	}
	if first.MovedPlace != "Room 2" || len(first.Moves) != 0 || second.MovedPlace != "Room 2" || len(second.Moves) != 1 {
		t.Errorf("the moved notices: %+v\n%+v", first, second)
	}
	if n := len(now.Moves); n != 2 || now.Sequence() != 2 ||
		!now.Moves[0].Start.Equal(T(t, "2026-12-10T17:00:00-06:00")) ||
		now.Moves[0].Place != "Room 1" || !now.Moves[0].At.Equal(T(t, "2026-12-05T09:00:00-06:00")) ||
		now.Moves[1].Place != "Room 2" || !now.Moves[1].Start.Equal(T(t, "2026-12-11T17:00:00-06:00")) {
		t.Errorf("the notice that stands: moves %+v, sequence %d", now.Moves, now.Sequence())
	}
	// Cancelled, it keeps its series, one change more; scheduled again, the new notice starts
	// a series of its own.
	c = apply(t, e, append(steps,
		step{"2026-12-06T09:00:00-06:00", docket.CancelMeeting{Meeting: docket.SufficiencyMeeting}, docket.StateReceived,
			""},
		step{"2026-12-06T10:00:00-06:00", schedule("2026-12-14T17:00:00-06:00", "Room 3"), docket.StateReceived,
			"(C)(1)"}))
	rs = notices(c)
	if r := rs["cancelled 11 18:00"]; r.SeriesKey() != series || r.Sequence() != 3 || len(r.Moves) != 2 {
		t.Errorf("the cancelled notice: %+v, series %s, sequence %d", r, r.SeriesKey(), r.Sequence())
	}
	if r := rs[" 14 17:00"]; r.SeriesKey() == series || r.SeriesKey() != r.Key() || r.Sequence() != 0 || r.Moves != nil {
		t.Errorf("the notice of the meeting scheduled again: %+v", r)
	}
	// A notice never moved is as it was: no history, its own key.
	plain := apply(t, e, steps[:2])
	for _, r := range docket.PublicRecords(&plain, loc) {
		if r.Series != "" || r.Moves != nil || r.MovedPlace != "" || r.SeriesKey() != r.Key() {
			t.Errorf("a notice never moved: %+v", r)
		}
	}
}
