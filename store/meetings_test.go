package store_test

import (
	"path/filepath"
	"strings"
	"testing"

	"ethicsbot/docket"
	"ethicsbot/store"
)

// TestMeetingHoldsCasesInOneTransaction: a meeting is created, two cases' sufficiency
// reviews join it and a business item is added, each request in one transaction; the
// meetings read back folded with their case steps; verify walks the meetings' chain.
func TestMeetingHoldsCasesInOneTransaction(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ethicsbot.db")
	s := MustOpenPath(t, path)
	a := mustFile(t, s, "2026-12-04T10:00:00-06:00", "Jane Roe")
	b := mustFile(t, s, "2026-12-04T11:00:00-06:00", "Richard Roe")
	start := T(t, "2026-12-15T17:00:00-06:00")
	res, err := s.ChangeMeeting(ctx, docket.Act{By: "U_CLERK", Request: "req-1", At: T(t, "2026-12-05T09:00:00-06:00")}, docket.MeetingChange{
		Create: &docket.CreateMeeting{Start: start, Place: "City Hall"},
	})
	if err != nil || res.Meeting.Name != "2026-12-15" {
		t.Fatalf("create = %+v, %v", res.Meeting, err)
	}
	if again, err := s.ChangeMeeting(ctx, docket.Act{By: "U_CLERK", Request: "req-1", At: T(t, "2026-12-05T09:00:00-06:00")},
		docket.MeetingChange{
			Create: &docket.CreateMeeting{Start: start, Place: "City Hall"},
		}); err != nil || !again.Replayed {
		t.Fatalf("retried create = %+v, %v; want replayed", again, err)
	}
	join := func(number string) docket.CaseActions {
		return docket.CaseActions{Number: number,
			Actions: []docket.Action{docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: start,
				Place: "City Hall"}}}
	}
	if _, err := s.ChangeMeeting(ctx, docket.Act{By: "U_CLERK", At: T(t, "2026-12-05T10:00:00-06:00")}, docket.MeetingChange{
		Meeting: "2026-12-15", Cases: []docket.CaseActions{join(a.Number), join(b.Number)},
		Actions: []docket.MeetingAction{docket.AddItem{Item: docket.BusinessItem, Text: "Election of a chair"}},
	}); err != nil {
		t.Fatal(err)
	}
	// A refused item leaves the cases as they were: one transaction.
	c := mustFile(t, s, "2026-12-04T12:00:00-06:00", "Rachel Roe")
	_, err = s.ChangeMeeting(ctx, docket.Act{By: "U_CLERK", At: T(t, "2026-12-14T09:00:00-06:00")}, docket.MeetingChange{
		Meeting: "2026-12-15", Cases: []docket.CaseActions{join(c.Number)},
		Actions: []docket.MeetingAction{docket.AddItem{Item: docket.PublicComment}},
	})
	if err == nil {
		t.Fatal("an item added within 48 hours was accepted")
	}
	if got, _ := s.Case(ctx, c.Number); got.Sufficiency.Scheduled() {
		t.Fatal("a refused request scheduled the case")
	}
	ms, err := s.Meetings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 1 || len(ms[0].Cases) != 2 || len(ms[0].Items) != 1 || len(ms[0].Agenda()) != 3 {
		t.Fatalf("meetings = %+v", ms)
	}
	mustVerify(t, s)

	checkTampering(t, s, []tampering{
		{"EditedMeeting", `UPDATE commission_meetings SET doc = replace(doc, 'City Hall', 'Secret Bunker')`,
			"meeting 2026-12-15: its record differs"},
		{"EditedMeetingEvent", `DROP TRIGGER meeting_events_no_update; UPDATE meeting_events SET by = 'U_X' WHERE id = 2`,
			"meeting event 2 (meeting 2026-12-15): its content no longer matches"},
		{"DroppedGuard", `DROP TRIGGER commission_meetings_no_delete`, "the trigger commission_meetings_no_delete"},
	})
}

// TestMeetingsFoldTheCasesMeetings: meetings scheduled case by case, before meetings were
// kept, read as meetings: two cases at one start and place are one meeting with two items,
// named by its date, and reading writes nothing.
func TestMeetingsFoldTheCasesMeetings(t *testing.T) {
	s := MustOpen(t)
	start := T(t, "2026-12-10T17:00:00-06:00")
	for _, who := range []string{"Jane Roe", "Richard Roe"} {
		c := mustFile(t, s, "2026-12-04T10:00:00-06:00", who)
		mustApply(t, s, c.Number, "2026-12-04T11:00:00-06:00",
			docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: start, Place: "City Hall"})
	}
	before := mustVerify(t, s)
	ms, err := s.Meetings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 1 || ms[0].Name != "2026-12-10" || !ms[0].Folded || len(ms[0].Cases) != 2 {
		t.Fatalf("meetings = %+v", ms)
	}
	if after := mustVerify(t, s); after.Anchor != before.Anchor {
		t.Error("reading the meetings wrote to the record")
	}
	if evs, err := s.MeetingEvents(ctx, "2026-12-10"); err != nil || len(evs) != 0 {
		t.Errorf("a folded meeting has events: %v %v", evs, err)
	}
}

// TestMoveOntoAnotherMeetingRefused: a meeting moved onto the start
// and place of another open meeting is refused in the transaction, and the other
// meeting keeps its items.
func TestMoveOntoAnotherMeetingRefused(t *testing.T) {
	s := MustOpenPath(t, filepath.Join(t.TempDir(), "ethicsbot.db"))
	a := mustFile(t, s, "2026-12-04T10:00:00-06:00", "Jane Roe")
	start := T(t, "2026-12-15T17:00:00-06:00")
	for _, when := range []string{"2026-12-15T17:00:00-06:00", "2026-12-15T19:00:00-06:00"} {
		if _, err := s.ChangeMeeting(ctx, docket.Act{By: "U_CLERK", At: T(t, "2026-12-05T09:00:00-06:00")}, docket.MeetingChange{
			Create: &docket.CreateMeeting{Start: T(t, when), Place: "City Hall"},
		}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.ChangeMeeting(ctx, docket.Act{By: "U_CLERK", At: T(t, "2026-12-05T10:00:00-06:00")}, docket.MeetingChange{
		Meeting: "2026-12-15",
		Cases: []docket.CaseActions{{Number: a.Number,
			Actions: []docket.Action{docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: start,
				Place: "City Hall"}}}},
	}); err != nil {
		t.Fatal(err)
	}
	_, err := s.ChangeMeeting(ctx, docket.Act{By: "U_CLERK", At: T(t, "2026-12-06T10:00:00-06:00")}, docket.MeetingChange{
		Meeting: "2026-12-15b", Actions: []docket.MeetingAction{docket.MoveMeeting{Start: start, Place: "City Hall"}},
	})
	if err == nil || !strings.Contains(docket.ErrorMessage(err), "5 ILCS 120/2.02") {
		t.Fatalf("a move onto another meeting: %v", err)
	}
	ms, err := s.Meetings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := docket.FindMeeting(ms, "2026-12-15"); m == nil || len(m.Cases) != 1 {
		t.Errorf("the other meeting's items after a refused move: %+v", m)
	}
	if m, _ := docket.FindMeeting(ms, "2026-12-15b"); m == nil || !m.Start.Equal(T(t, "2026-12-15T19:00:00-06:00")) {
		t.Errorf("the refused move changed the meeting: %+v", m)
	}
	mustVerify(t, s)
}

// TestVerifyNamesTwoMeetingsAtOnePlace: a record holding two open
// meetings at one start and place (kept before moves were checked) fails verify, which
// names both.
func TestVerifyNamesTwoMeetingsAtOnePlace(t *testing.T) {
	s := MustOpenPath(t, filepath.Join(t.TempDir(), "ethicsbot.db"))
	start := T(t, "2026-12-15T17:00:00-06:00")
	if _, err := s.ChangeMeeting(ctx, docket.Act{By: "U_CLERK", At: T(t, "2026-12-05T09:00:00-06:00")}, docket.MeetingChange{
		Create: &docket.CreateMeeting{Start: start, Place: "City Hall"},
	}); err != nil {
		t.Fatal(err)
	}
	mustVerify(t, s)
	if err := store.RecordMeetingUnchecked(s, docket.CreateMeeting{Name: "2026-12-15b", Start: start, Place: "City Hall"},
		T(t, "2026-12-05T10:00:00-06:00")); err != nil {
		t.Fatal(err)
	}
	r, err := s.Verify(ctx)
	if err != nil || r.Broken == nil ||
		!strings.Contains(r.Broken.String(), "meetings 2026-12-15 and 2026-12-15b are both at") {
		t.Errorf("verify of two meetings at one start and place: %v, %v", r.Broken, err)
	}
}
