package docket_test

import (
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
)

// reviewMotion is the commission's vote on item, at a meeting seated as reviewAt seats it.
func reviewMotion(item int) docket.MoveBusiness {
	return docket.MoveBusiness{Item: item, Text: "To find which closed minutes still need confidentiality",
		At: mustTime("2027-01-12T17:30:00-06:00"),
		Vote: &docket.Vote{Seated: []string{"U_A", "U_B"}, Yes: []string{"U_A", "U_B"}, Quorum: 2,
			Carry: docket.MajorityOfVotesCast}}
}

// reviewAt is the meeting of 12 Jan 2027, called to order, whose posted agenda has the
// review as item 1, and unposted item 2, added after the posting.
func reviewAt(t *testing.T, e *docket.Engine) docket.CommissionMeeting {
	t.Helper()
	jan := meetingAt(t, e, "2027-01-12", "2027-01-12T17:00:00-06:00", "2026-11-01T09:00:00-06:00")
	var err error
	for _, a := range []struct {
		act docket.MeetingAction
		at  string
	}{
		{docket.AddItem{Item: docket.BusinessItem, Text: "Semi-annual review of the minutes of closed meetings"},
			"2027-01-04T09:00:00-06:00"},
		{docket.PostAgenda{}, "2027-01-04T09:05:00-06:00"},
		{docket.AddItem{Item: docket.BusinessItem, Text: "Release of minutes"}, "2027-01-04T09:10:00-06:00"},
		{docket.Convene{Seated: []string{"U_A", "U_B"}, Quorum: 2, Present: []string{"U_A", "U_B"}},
			"2027-01-12T17:01:00-06:00"},
	} {
		if jan, err = e.ApplyMeeting(jan, a.act, T(t, a.at)); err != nil {
			t.Fatalf("%s: %v", a.act.Kind(), err)
		}
	}
	return jan
}

// refused applies a to m at at and wants it refused with code, citing rule.
func refused(t *testing.T, e *docket.Engine, m docket.CommissionMeeting, a docket.MeetingAction, at time.Time,
	what, code, rule string) {
	t.Helper()
	_, err := e.ApplyMeeting(m, a, at)
	wantRule(t, what, err, code, rule)
}

// TestReviewDetermination: the semi-annual review (5 ILCS 120/2.06(d)) is taken up under an
// item of the posted agenda and decided by the vote recorded on it; its determination says
// which closed minutes are released and which stay confidential, the minutes of the meeting
// report it, and the released minutes are known to the board. Each refusal names its rule.
func TestReviewDetermination(t *testing.T) {
	e := MustEngine(t)
	approved := heldMeeting(t, e, "2026-12-15", "2026-12-15")
	seated := []string{"U_A", "U_B", "U_C"}
	yes := &docket.Vote{Seated: seated, Yes: []string{"U_A", "U_B"}, Absent: []string{"U_C"}, Quorum: 2,
		Carry: docket.MajorityOfVotesCast}
	approved, err := e.ApplyMeeting(approved, docket.ApproveMinutes{At: "2027-01-05", On: docket.NewDate(2027, 1, 5),
		Vote: yes}, T(t, "2027-01-05T17:15:00-06:00"))
	if err != nil {
		t.Fatal(err)
	}
	draft := heldMeeting(t, e, "2026-12-17", "2026-12-17")
	jan := reviewAt(t, e)
	all := []docket.CommissionMeeting{approved, draft, jan}
	text := func(m *docket.CommissionMeeting) (string, error) { return "CLOSED MINUTES OF " + m.Name, nil }

	// A draft is never released; a meeting not under review is named with those that are.
	_, err = docket.Determine(all, &jan, 1, []string{"2026-12-17"}, text)
	wantRule(t, "releasing a draft", err, docket.ECONFLICT, docket.OMAReview)
	_, err = docket.Determine(all, &jan, 1, []string{"2025-01-01"}, text)
	wantRule(t, "releasing what is not under review", err, docket.ENOTFOUND, docket.OMAReview)
	if err == nil || !strings.Contains(err.Error(), "2026-12-15, 2026-12-17") {
		t.Errorf("the refusal does not list what is under review: %v", err)
	}
	review, err := docket.Determine(all, &jan, 1, []string{"2026-12-15"}, text)
	if err != nil {
		t.Fatal(err)
	}
	if len(review.Released) != 1 || review.Released[0].Text != "CLOSED MINUTES OF 2026-12-15" ||
		strings.Join(review.Kept, ",") != "2026-12-17" {
		t.Fatalf("determination %+v", review)
	}
	at := T(t, "2027-01-12T17:40:00-06:00")

	// Before the vote: refused; under an item not on the posted agenda (2.02(c)): refused.
	_, err = e.ApplyMeeting(jan, review, at)
	wantRule(t, "a review with no vote", err, docket.ECONFLICT, docket.OMAReview)
	// A motion that failed decided nothing: the review is refused, naming 2.06(d).
	failed := reviewMotion(1)
	failed.Text, failed.At = "To release every closed minute", T(t, "2027-01-12T17:20:00-06:00")
	failed.Vote = &docket.Vote{Seated: []string{"U_A", "U_B"}, Yes: []string{"U_A"}, No: []string{"U_B"}, Quorum: 2,
		Carry: docket.MajorityOfVotesCast}
	lost, err := e.ApplyMeeting(jan, failed, failed.At)
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.ApplyMeeting(lost, review, at)
	wantRule(t, "a review after a motion that failed", err, docket.ECONFLICT, docket.OMAReview)
	if err == nil || !strings.Contains(err.Error(), "no motion on item 1 of meeting 2027-01-12 carried") {
		t.Errorf("the refusal after a failed motion: %v", err)
	}
	jan2, err := e.ApplyMeeting(jan, reviewMotion(1), T(t, "2027-01-12T17:30:00-06:00"))
	if err != nil {
		t.Fatal(err)
	}
	unposted, none := review, review
	unposted.Item, none.Item = 2, 0
	refused(t, e, jan2, unposted, at, "a review under an item not posted", docket.ECONFLICT, docket.OMAAgenda)
	refused(t, e, jan2, none, at, "a review under no item", docket.EINVALID, docket.OMAReview)

	jan2, err = e.ApplyMeeting(jan2, review, at)
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.ApplyMeeting(jan2, review, at)
	wantRule(t, "a second review at one meeting", err, docket.ECONFLICT, docket.OMAReview)

	all = []docket.CommissionMeeting{approved, draft, jan2}
	r, ok := docket.ReleasedClosed(all, "2026-12-15")
	if !ok || r.By != "2027-01-12" || !r.At.Equal(at) || r.Text != "CLOSED MINUTES OF 2026-12-15" {
		t.Errorf("release %+v %v", r, ok)
	}
	if _, ok := docket.ReleasedClosed(all, "2026-12-17"); ok {
		t.Error("minutes kept confidential are released")
	}
	// Released minutes are no longer under review at a later meeting; at the meeting that
	// released them they still are, so that the same request received twice determines the
	// same thing again (and is answered as a replay, not refused as a release of nothing).
	later := docket.CommissionMeeting{Name: "2027-07-13", Start: T(t, "2027-07-13T17:00:00-05:00")}
	if under := docket.UnderReview(all, &later); len(under) != 1 || under[0].Name != "2026-12-17" {
		t.Errorf("under review later: %d", len(under))
	}
	if again, err := docket.Determine(all, &jan2, 1, []string{"2026-12-15"}, text); err != nil ||
		len(again.Released) != 1 || again.Released[0].Meeting != "2026-12-15" {
		t.Errorf("the determination again at the reviewing meeting: %+v %v", again, err)
	}
	// The minutes of the meeting report the determination on its item, in open session.
	got, err := jan2.Record(all, e, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "Semi-annual review of the minutes of closed meetings (5 ILCS 120/2.06(d)): the commission determined " +
		"that the minutes of the closed sessions of the meeting of 2026-12-15 no longer require confidential treatment " +
		"and are available for public inspection; and that the need for confidentiality still exists as to the minutes " +
		"of the closed sessions of the meeting of 2026-12-17."
	if n := got.Entries[0].Notes; len(n) != 1 || n[0] != want {
		t.Errorf("minutes of the review:\n%q\nwant\n%q", n, want)
	}
}

// TestReviewAndAdoptionNotAfterApproval: the review's determination and the schedule's
// adoption are reported in the minutes of the meeting that made them; once those minutes
// are approved they stand as approved (5 ILCS 120/2.06(b)), so neither is recorded at it
// any more.
func TestReviewAndAdoptionNotAfterApproval(t *testing.T) {
	e := MustEngine(t)
	jan := reviewAt(t, e)
	var err error
	for _, a := range []struct {
		act docket.MeetingAction
		at  string
	}{
		{reviewMotion(1), "2027-01-12T17:30:00-06:00"},
		{docket.Adjourn{}, "2027-01-12T17:45:00-06:00"},
		{docket.ApproveMinutes{At: "2027-02-09", On: docket.NewDate(2027, 2, 9), Vote: reviewMotion(1).Vote},
			"2027-02-09T17:15:00-06:00"},
	} {
		if jan, err = e.ApplyMeeting(jan, a.act, T(t, a.at)); err != nil {
			t.Fatalf("%s: %v", a.act.Kind(), err)
		}
	}
	at := T(t, "2027-02-10T09:00:00-06:00")
	refused(t, e, jan, docket.ReviewClosedMinutes{Item: 1}, at, "a review after the minutes' approval",
		docket.ECONFLICT, docket.OMAMinutes)
	refused(t, e, jan, docket.AdoptSchedule{Item: 1, Year: 2027, Place: "City Hall", Clock: 18 * time.Hour,
		Dates: []docket.Date{d(2027, 3, 9)}}, at, "an adoption after the minutes' approval", docket.ECONFLICT,
		docket.OMAMinutes)
}
