package web_test

import (
	"strings"
	"testing"

	"ethicsbot/docket"
)

// TestClosedItemIsNotAClosedMeeting: a case step considered in closed session is one item
// of a meeting whose call to order, roll call, public comment and adjournment are open
// (5 ILCS 120/2a closes a part of a meeting, by vote); the board marks it a closed
// session, never a closed meeting.
func TestClosedItemIsNotAClosedMeeting(t *testing.T) {
	f := newFixture(t)
	when := "2026-12-09T10:00:00-06:00"
	res, err := f.db.File(ctx, docket.Act{By: "U_CLERK", At: at(t, when)}, docket.File{Complainant: docket.Person{Name: "A"},
		Respondent: docket.Person{Name: "B"}, Sections: []string{"103.10"}, Received: at(t, when), Summary: "s"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.Apply(ctx, docket.Act{By: "U_CLERK", At: at(t, "2026-12-09T11:00:00-06:00")}, res.Case.Number,
		docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: at(t, "2026-12-14T17:00:00-06:00"),
			Place: "City Hall, Room 3", Closed: true, Authority: "5 ILCS 120/2(c)(4)"}); err != nil {
		t.Fatal(err)
	}
	_, _, index := get(t, f.board.Handler(), "/")
	upcoming, _, _ := strings.Cut(index, `id="changed"`)
	if !strings.Contains(upcoming, `<span class="badge closed">Closed session</span>`) ||
		strings.Contains(upcoming, "Closed meeting") {
		t.Errorf("a closed item is marked a closed meeting:\n%s", upcoming)
	}
}
