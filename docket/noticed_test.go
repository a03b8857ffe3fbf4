package docket_test

import (
	"testing"

	"ethicsbot/docket"
)

// A step that schedules or cancels a meeting posts its public notice (5 ILCS 120/2.02), and
// says the meeting's start, for the news media's copies; another step posts none.
func TestStepNoticedMeeting(t *testing.T) {
	e := MustEngine(t)
	now := T(t, "2026-12-04T10:30:00-06:00")
	c, _, err := e.Apply(docket.Case{}, filing, now)
	if err != nil {
		t.Fatal(err)
	}
	start := T(t, "2026-12-08T17:00:00-06:00")
	schedule := docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: start, Place: "City Hall"}
	after, _, err := e.Apply(c, schedule, now)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := (docket.Step{Action: schedule, Before: &c, After: &after}).NoticedMeeting(); !ok || !got.Equal(start) {
		t.Errorf("scheduling: %v, %v; want %v", got, ok, start)
	}
	cancel := docket.CancelMeeting{Meeting: docket.SufficiencyMeeting}
	if got, ok := (docket.Step{Action: cancel, Before: &after, After: &c}).NoticedMeeting(); !ok || !got.Equal(start) {
		t.Errorf("cancelling: %v, %v; want %v", got, ok, start)
	}
	if _, ok := (docket.Step{Action: filing, Before: &docket.Case{}, After: &c}).NoticedMeeting(); ok {
		t.Error("a filing posts a meeting's notice")
	}
}
