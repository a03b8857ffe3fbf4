package docket_test

import (
	"testing"

	"ethicsbot/docket"
)

// TestMoveBusiness: a motion on an item of other business is recorded with its roll call
// while the meeting is in open session, and refused on a case's item, in closed session,
// after the meeting, or without a roll call.
func TestMoveBusiness(t *testing.T) {
	e := MustEngine(t)
	m := heldMeeting(t, e, "2026-12-15", "2026-12-15") // item 1, closed 17:05 to 17:20
	seated := []string{"U_A", "U_B", "U_C"}
	roll := &docket.Vote{Seated: seated, Yes: []string{"U_A", "U_B"}, Absent: []string{"U_C"}, Quorum: 2,
		Carry: docket.MajorityOfVotesCast}
	move := func(at string, v *docket.Vote) docket.MoveBusiness {
		return docket.MoveBusiness{Item: 1, Text: "To accept the evaluation", At: T(t, at), Vote: v}
	}
	_, err := e.ApplyMeeting(m, move("2026-12-15T17:10:00-06:00", roll), T(t, "2026-12-15T17:10:00-06:00"))
	wantRule(t, "a motion in closed session", err, docket.ECONFLICT, docket.OMAFinal)
	_, err = e.ApplyMeeting(m, move("2026-12-15T17:45:00-06:00", roll), T(t, "2026-12-15T17:45:00-06:00"))
	wantRule(t, "a motion after the adjournment", err, docket.ECONFLICT, docket.OMAMinutes)
	_, err = e.ApplyMeeting(m, move("2026-12-15T17:25:00-06:00", nil), T(t, "2026-12-15T17:25:00-06:00"))
	wantRule(t, "a motion without its roll call", err, docket.EINVALID, docket.OMAMinutes)
	bad := move("2026-12-15T17:25:00-06:00", roll)
	bad.Item = 2
	_, err = e.ApplyMeeting(m, bad, T(t, "2026-12-15T17:25:00-06:00"))
	wantRule(t, "a motion on no item", err, docket.ENOTFOUND, docket.OMAMinutes)
	m, err = e.ApplyMeeting(m, move("2026-12-15T17:25:00-06:00", roll), T(t, "2026-12-15T17:25:00-06:00"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.ApplyMeeting(m, move("2026-12-15T17:26:00-06:00", roll), T(t, "2026-12-15T17:26:00-06:00"))
	wantRule(t, "the same motion twice", err, docket.ECONFLICT, docket.OMAMinutes)
	r, err := m.Record(nil, e, nil)
	if err != nil {
		t.Fatal(err)
	}
	if mo := r.Entries[0].Motions; len(mo) != 1 || mo[0].Text != "To accept the evaluation" || mo[0].Roll == nil ||
		!mo[0].Roll.Carried() {
		t.Errorf("the draft's motions on item 1: %+v", mo)
	}
}
