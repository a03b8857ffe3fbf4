package docket_test

import (
	"strings"
	"testing"

	"ethicsbot/docket"
)

// TestOfficerResponse: a recommendation for discipline sent to the officer with authority
// to discipline keeps its case on the docket until the officer's response is recorded.
func TestOfficerResponse(t *testing.T) {
	e := MustEngine(t)
	c := apply(t, e, closedHearingCase())
	if !c.OfficerAwaited() || c.Closed() {
		t.Fatalf("the final recommendation sent to the officer: awaited %v, closed %v", c.OfficerAwaited(), c.Closed())
	}
	a := docket.RecordOfficerResponse{Response: "written reprimand issued"}
	next, _, err := e.Apply(c, a, T(t, "2027-01-25T10:00:00-06:00"))
	if err != nil {
		t.Fatal(err)
	}
	if next.OfficerAwaited() || !next.Closed() || len(next.OfficerResponses) != 1 ||
		next.OfficerResponses[0].On != mustDate("2027-01-25") {
		t.Errorf("after the response: awaited %v, closed %v, %+v", next.OfficerAwaited(), next.Closed(),
			next.OfficerResponses)
	}
	if got, want := a.Did(docket.Wording{}).String(), "the response of the officer with authority to discipline to the "+
		`recommendation recorded: "written reprimand issued"`; got != want {
		t.Errorf("Did %q, want %q", got, want)
	}
	if _, _, err := e.Apply(next, a, T(t, "2027-01-26T10:00:00-06:00")); err == nil ||
		!strings.Contains(err.Error(), "has no recommendation for discipline awaiting the officer's response") {
		t.Errorf("a second response: %v", err)
	}
}

// TestFrivolousMatterWaits: an (H) meeting scheduled keeps its dismissed case on the
// docket, its papers all sent, until the commission acts on it or cancels the meeting.
func TestFrivolousMatterWaits(t *testing.T) {
	e := MustEngine(t)
	steps := frivolousMeetingHeld()
	c := apply(t, e, steps)
	if c.Closed() || !c.FrivolousPending {
		t.Errorf("an (H) matter waiting for its meeting: closed %v", c.Closed())
	}
	cancelled, _, err := e.Apply(c, docket.CancelMeeting{Meeting: docket.FrivolousMeeting, Reason: "no quorum"},
		T(t, "2027-01-05T09:00:00-06:00"))
	if err != nil {
		t.Fatal(err)
	}
	if !cancelled.Closed() {
		t.Error("its meeting cancelled, the (H) matter still keeps the case open")
	}
	roll := &docket.Vote{Seated: []string{"U_A", "U_B", "U_C"}, Yes: []string{"U_A"}, No: []string{"U_B", "U_C"},
		Quorum: 2, Carry: docket.MajorityOfVotesCast}
	failed, _, err := e.Apply(c, docket.FindFrivolous{Findings: "x", Fine: 1500, Knowingly: true, Vote: roll},
		T(t, "2027-01-13T19:00:00-06:00"))
	if err != nil {
		t.Fatal(err)
	}
	if failed.Frivolous != nil || !failed.Closed() {
		t.Errorf("a motion for the finding failed: finding %+v, closed %v", failed.Frivolous, failed.Closed())
	}
}
