package docket_test

import (
	"testing"

	"ethicsbot/docket"
)

// heldMeeting is meeting name held on day (17:00 to 17:30 CST), with one closed session
// recorded verbatim, its minutes a draft.
func heldMeeting(t *testing.T, e *docket.Engine, name, day string) docket.CommissionMeeting {
	t.Helper()
	m := meetingAt(t, e, name, day+"T17:00:00-06:00", "2026-11-01T09:00:00-06:00")
	seated := []string{"U_A", "U_B", "U_C"}
	yes := &docket.Vote{Seated: seated, Yes: []string{"U_A", "U_B"}, Absent: []string{"U_C"}, Quorum: 2,
		Carry: docket.MajorityOfVotesCast}
	for _, a := range []struct {
		act docket.MeetingAction
		at  string
	}{
		{docket.AddItem{Item: docket.BusinessItem, Text: "Evaluation", Authority: "(c)(1)"}, "2026-11-02T09:00:00-06:00"},
		{docket.PostAgenda{}, "2026-11-02T10:00:00-06:00"},
		{docket.Convene{Seated: seated, Quorum: 2, Present: []string{"U_A", "U_B"}}, day + "T17:01:00-06:00"},
		{docket.EnterClosed{Item: 1, Vote: yes, Recorded: true}, day + "T17:05:00-06:00"},
		{docket.ReturnToOpen{}, day + "T17:20:00-06:00"},
		{docket.Adjourn{}, day + "T17:30:00-06:00"},
	} {
		var err error
		if m, err = e.ApplyMeeting(m, a.act, T(t, a.at)); err != nil {
			t.Fatalf("%s: %v", a.act.Kind(), err)
		}
	}
	return m
}

// TestMinutesNoteAndApproval: the clerk's notes go on an item or the meeting; a roll call
// that fails keeps the minutes a draft; one that carries approves them, and then notes and
// a second approval are refused citing 5 ILCS 120/2.06(b); the approving meeting's minutes
// show the vote on its item.
func TestMinutesNoteAndApproval(t *testing.T) {
	e := MustEngine(t)
	m := heldMeeting(t, e, "2026-12-15", "2026-12-15")
	m, err := e.ApplyMeeting(m, docket.MinutesNote{Item: 1, Text: "Discussed."}, T(t, "2026-12-16T09:00:00-06:00"))
	if err != nil {
		t.Fatal(err)
	}
	m, err = e.ApplyMeeting(m, docket.MinutesNote{Text: "No public comment."}, T(t, "2026-12-16T09:01:00-06:00"))
	if err != nil {
		t.Fatal(err)
	}
	r := m.DraftMinutes(nil, chicago(t))
	if len(r.Entries) != 1 || len(r.Entries[0].Notes) != 1 || r.Entries[0].Notes[0] != "Discussed." || len(r.Notes) != 1 {
		t.Errorf("the notes in the draft: %+v, %q", r.Entries, r.Notes)
	}
	_, err = e.ApplyMeeting(m, docket.MinutesNote{Item: 2, Text: "x"}, T(t, "2026-12-16T09:02:00-06:00"))
	wantRule(t, "a note on no item", err, docket.ENOTFOUND, docket.OMAMinutes)
	seated := []string{"U_A", "U_B", "U_C"}
	failed := &docket.Vote{Seated: seated, Yes: []string{"U_A"}, No: []string{"U_B", "U_C"}, Quorum: 2,
		Carry: docket.MajorityOfVotesCast}
	_, err = e.ApplyMeeting(m, docket.ApproveMinutes{At: "2026-12-15", On: docket.NewDate(2026, 12, 15), Vote: failed},
		T(t, "2026-12-16T09:03:00-06:00"))
	wantRule(t, "approval at the meeting itself", err, docket.EINVALID, docket.OMAMinutes)
	m, err = e.ApplyMeeting(m, docket.ApproveMinutes{At: "2027-01-12", On: docket.NewDate(2027, 1, 12), Vote: failed},
		T(t, "2027-01-12T17:10:00-06:00"))
	if err != nil || !m.Minutes.Approved.IsZero() || len(m.Approvals) != 1 {
		t.Fatalf("a failed approval: %+v, %v", m.Approvals, err)
	}
	carried := &docket.Vote{Seated: seated, Yes: []string{"U_A", "U_B"}, No: []string{"U_C"}, Quorum: 2,
		Carry: docket.MajorityOfVotesCast}
	m, err = e.ApplyMeeting(m, docket.ApproveMinutes{At: "2027-01-12", On: docket.NewDate(2027, 1, 12), Vote: carried},
		T(t, "2027-01-12T17:15:00-06:00"))
	if err != nil || m.Minutes.Approved != docket.NewDate(2027, 1, 12) || m.Minutes.ApprovedAt != "2027-01-12" {
		t.Fatalf("the approval: %+v, %v", m.Minutes, err)
	}
	_, err = e.ApplyMeeting(m, docket.MinutesNote{Text: "late"}, T(t, "2027-01-13T09:00:00-06:00"))
	wantRule(t, "a note after approval", err, docket.ECONFLICT, docket.OMAMinutes)
	_, err = e.ApplyMeeting(m, docket.ApproveMinutes{At: "2027-01-12", On: docket.NewDate(2027, 1, 12), Vote: carried},
		T(t, "2027-01-13T09:00:00-06:00"))
	wantRule(t, "a second approval", err, docket.ECONFLICT, docket.OMAMinutes)
	// The approving meeting's minutes carry both roll calls on its item.
	later := meetingAt(t, e, "2027-01-12", "2027-01-12T17:00:00-06:00", "2026-12-20T09:00:00-06:00")
	if later, err = e.ApplyMeeting(later, docket.AddItem{Item: docket.MinutesItem, Text: "2026-12-15"},
		T(t, "2026-12-20T09:00:00-06:00")); err != nil {
		t.Fatal(err)
	}
	lr := later.DraftMinutes(nil, chicago(t))
	lr.AddApprovals(&later, []docket.CommissionMeeting{m, later})
	if len(lr.Entries) != 1 || len(lr.Entries[0].Motions) != 2 || lr.Entries[0].Motions[1].Roll.Carried() != true {
		t.Errorf("the approving meeting's item: %+v", lr.Entries)
	}
	if _, err := docket.CheckApprovalAt(&later, "2026-12-15", T(t, "2027-01-12T17:10:00-06:00")); err == nil {
		t.Error("an approval at a meeting not called to order was allowed")
	}
}

// TestMinutesApprovalDueCountsRecordedRegularMeetings: the approval is due 30 days after
// the meeting or at the second regular meeting after it, whichever is later (5 ILCS
// 120/2.06(b)); the regular meetings are those recorded so, not special, not cancelled.
func TestMinutesApprovalDueCountsRecordedRegularMeetings(t *testing.T) {
	e := MustEngine(t)
	m := heldMeeting(t, e, "2026-12-15", "2026-12-15")
	// Alone: the 30 days, Thu 14 Jan 2027, and not known to be the last word.
	if due, known := m.ApprovalDue(e.Cal, []docket.CommissionMeeting{m}); due != docket.NewDate(2027, 1, 14) || known {
		t.Errorf("alone: %s %v", due, known)
	}
	jan := meetingAt(t, e, "2027-01-12", "2027-01-12T17:00:00-06:00", "2026-11-01T09:00:00-06:00")
	feb := meetingAt(t, e, "2027-02-09", "2027-02-09T17:00:00-06:00", "2026-11-01T09:00:00-06:00")
	special, err := e.ApplyMeeting(docket.CommissionMeeting{},
		docket.CreateMeeting{Name: "2027-01-05", Start: T(t, "2027-01-05T17:00:00-06:00"), Place: "x", Special: true},
		T(t, "2026-11-01T09:00:00-06:00"))
	if err != nil {
		t.Fatal(err)
	}
	// The second regular meeting after it is 9 Feb, later than the 30 days; the special
	// meeting of 5 Jan does not count.
	if due, known := m.ApprovalDue(e.Cal, []docket.CommissionMeeting{m, special, jan, feb}); due != docket.NewDate(2027, 2,
		9) || !known {
		t.Errorf("with monthly meetings: %s %v", due, known)
	}
	feb, err = e.ApplyMeeting(feb, docket.CancelCommissionMeeting{}, T(t, "2026-11-02T09:00:00-06:00"))
	if err != nil {
		t.Fatal(err)
	}
	if due, _ := m.ApprovalDue(e.Cal,
		[]docket.CommissionMeeting{m, special, jan, feb}); due != docket.NewDate(2027, 1, 14) {
		t.Errorf("with February cancelled: %s", due)
	}
	if due, ok := m.PublishedBy(e.Cal); ok || due != 0 {
		t.Errorf("a draft has a publication day: %s", due)
	}
	// 2.06(d): six months after the first closed session, until a review is recorded.
	if due := docket.ReviewDue([]docket.CommissionMeeting{m}, e.Cal); due != docket.NewDate(2027, 6, 15) {
		t.Errorf("review due %s", due)
	}
	for _, a := range []docket.MeetingAction{docket.AddItem{Item: docket.BusinessItem, Text: "Review of closed minutes"},
		docket.PostAgenda{}} {
		if jan, err = e.ApplyMeeting(jan, a, T(t, "2027-01-04T09:00:00-06:00")); err != nil {
			t.Fatal(err)
		}
	}
	jan, err = e.ApplyMeeting(jan,
		docket.Convene{Seated: []string{"U_A", "U_B"}, Quorum: 2, Present: []string{"U_A", "U_B"}},
		T(t, "2027-01-12T17:01:00-06:00"))
	if err != nil {
		t.Fatal(err)
	}
	if jan, err = e.ApplyMeeting(jan, reviewMotion(1), T(t, "2027-01-12T17:30:00-06:00")); err != nil {
		t.Fatal(err)
	}
	if jan, err = e.ApplyMeeting(jan, docket.ReviewClosedMinutes{Item: 1, Kept: []string{m.Name}},
		T(t, "2027-01-12T17:40:00-06:00")); err != nil {
		t.Fatal(err)
	}
	if due := docket.ReviewDue([]docket.CommissionMeeting{m, jan}, e.Cal); due != docket.NewDate(2027, 7, 12) {
		t.Errorf("review due after the review of 12 Jan: %s", due)
	}
}

// TestRecordingDestroyedOnTheRecord: the verbatim recording of a closed session is kept 18 months
// and until the minutes are approved, then destroyed once the commission approves it
// (5 ILCS 120/2.06(c)); each refusal cites 2.06(c).
func TestRecordingDestroyedOnTheRecord(t *testing.T) {
	e := MustEngine(t)
	m := heldMeeting(t, e, "2026-12-15", "2026-12-15")
	if _, ok := m.RecordingsDestroyable(e.Cal); ok {
		t.Error("a recording of unapproved minutes has a destruction day")
	}
	_, err := e.ApplyMeeting(m,
		docket.DestroyRecording{Session: 1, On: docket.NewDate(2028, 7, 1), Approved: docket.NewDate(2028, 6, 20)},
		T(t, "2028-07-01T09:00:00-05:00"))
	wantRule(t, "destroying before approval of the minutes", err, docket.ECONFLICT, docket.OMARecording)
	seated := []string{"U_A", "U_B", "U_C"}
	yes := &docket.Vote{Seated: seated, Yes: []string{"U_A", "U_B"}, Absent: []string{"U_C"}, Quorum: 2,
		Carry: docket.MajorityOfVotesCast}
	m, err = e.ApplyMeeting(m, docket.ApproveMinutes{At: "2027-01-12", On: docket.NewDate(2027, 1, 12), Vote: yes},
		T(t, "2027-01-12T17:15:00-06:00"))
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := m.RecordingsDestroyable(e.Cal); !ok || d != docket.NewDate(2028, 6, 16) {
		t.Errorf("destroyable from %s %v", d, ok)
	}
	_, err = e.ApplyMeeting(m,
		docket.DestroyRecording{Session: 1, On: docket.NewDate(2028, 6, 15), Approved: docket.NewDate(2028, 6, 1)},
		T(t, "2028-06-15T09:00:00-05:00"))
	wantRule(t, "destroying on the anniversary, before 18 months have fully passed", err, docket.ECONFLICT,
		docket.OMARecording)
	_, err = e.ApplyMeeting(m,
		docket.DestroyRecording{Session: 2, On: docket.NewDate(2028, 6, 16), Approved: docket.NewDate(2028, 6, 1)},
		T(t, "2028-06-16T09:00:00-05:00"))
	wantRule(t, "destroying a session that was not held", err, docket.ENOTFOUND, docket.OMARecording)
	m, err = e.ApplyMeeting(m,
		docket.DestroyRecording{Session: 1, On: docket.NewDate(2028, 6, 16), Approved: docket.NewDate(2028, 6, 1)},
		T(t, "2028-06-16T09:00:00-05:00"))
	if err != nil || m.Minutes.Sessions[0].Destroyed != docket.NewDate(2028, 6, 16) {
		t.Fatalf("destroyed: %v", err)
	}
	_, err = e.ApplyMeeting(m,
		docket.DestroyRecording{Session: 1, On: docket.NewDate(2028, 6, 17), Approved: docket.NewDate(2028, 6, 1)},
		T(t, "2028-06-17T09:00:00-05:00"))
	wantRule(t, "destroying twice", err, docket.ECONFLICT, docket.OMARecording)
}
