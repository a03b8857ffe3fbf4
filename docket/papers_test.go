package docket_test

import (
	"strings"
	"testing"

	"ethicsbot/docket"
)

// TestRebuildOlderRecords: a record written before papers were named, before a complaint
// alleging both sections needed a ruling per part, and before a fine needed the (H)
// finding of intent, still rebuilds: a correction of one of its facts replays every event,
// and requirements added to the forms since are not asked of events already recorded.
func TestRebuildOlderRecords(t *testing.T) {
	e := MustEngine(t)
	f := filing
	f.Sections = []string{"103.10", "103.05"}
	steps := closedHearingCase()[:14] // filed through the decision with its fine
	steps[0].action = f
	var entries []docket.Entry
	for i, s := range steps {
		a := s.action
		switch a := a.(type) {
		case docket.Decide:
			a.Intentional = false // as recorded before (H) intent was asked
			s.action = a
		}
		entries = append(entries, docket.Entry{ID: int64(i + 1), Seq: i + 1, By: "U_CLERK", At: T(t, s.at), Action: s.action})
	}
	c, err := e.Rebuild("2026-001", entries)
	if err != nil {
		t.Fatalf("an older record no longer rebuilds: %v", err)
	}
	if c.State != docket.StateDecided || c.Mailings[0].Paper != docket.RespondentNoticePaper ||
		c.Mailings[1].Paper != docket.ComplainantConfirmPaper {
		t.Errorf("rebuilt case: state %s, mailings %+v", c.State, c.Mailings)
	}
	// The same steps taken now are refused where the forms have grown.
	var now docket.Case
	for _, s := range steps {
		next, _, err := e.Apply(now, s.action, T(t, s.at))
		if err != nil {
			if _, isRule := s.action.(docket.Rule); isRule && strings.Contains(err.Error(), "referral_ruling") {
				return
			}
			t.Fatalf("%s: %v", s.action.Kind(), err)
		}
		now = next
	}
	t.Error("a single ruling on a complaint alleging both sections was recorded as a new action")
}

// TestSessionsKeepTheirNotices: (D) after two recesses, each session's notice keeps its
// own deadline and status, and the record says which session was late.
func TestSessionsKeepTheirNotices(t *testing.T) {
	e := MustEngine(t)
	steps := closedHearingCase()[:12] // through the first reconvened session, noticed
	steps = append(steps,
		step{"2026-12-28T16:00:00-06:00", docket.RecessHearing{}, docket.StateHearingRecessed, ""},
		step{"2026-12-28T16:05:00-06:00",
			docket.ScheduleMeeting{Meeting: docket.RecessedHearing, Start: mustTime("2027-01-04T10:00:00-06:00"),
				Place: "City Hall, Room 201"}, docket.StateHearingSet, "(D)"},
	)
	c := apply(t, e, steps)
	var got []string
	for _, d := range e.Schedule(&c.Facts, T(t, "2027-01-04T12:00:00-06:00")).Deadlines {
		if d.ID == docket.HearingNotice {
			got = append(got, d.Meeting.Format("01-02")+" "+string(d.Status))
		}
	}
	if want := "12-21 met,12-28 met,01-04 missed"; strings.Join(got, ",") != want {
		t.Errorf("hearing notices %s, want %s", strings.Join(got, ","), want)
	}
}
