package report_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"ethicsbot/docket"
	"ethicsbot/report"
)

// TestPublicFiguresIgnoreConfidentialComplaints: the public figures of an ended year do not
// move when a complaint is filed with a receipt date in that year, nor when a complaint's
// receipt is corrected into it, as long as the ordinance has made nothing of it public; the
// commission's own report counts it at once. Once its sufficiency meeting is noticed
// (C)(1), the public notice names it, and it counts.
func TestPublicFiguresIgnoreConfidentialComplaints(t *testing.T) {
	e := mustEngine(t)
	now := instant(t, asOf) // Fri 2027-01-15: 2026 has ended
	base := year2026(t, e)
	before := report.PublicOf(base, 2026, e, now)

	// Filed on Mon 11 Jan 2027, received (it says) on Mon 2 Nov 2026: backdated.
	backdated := walk(t, e, "2026-005",
		[]act{{"2027-01-11T10:00:00-06:00", filing(t, "2026-11-02T10:00:00-06:00", "103.10")}})
	// Filed on Tue 12 Jan 2027 as received that day, then corrected to Wed 30 Dec 2026.
	orig := filing(t, "2027-01-12T09:00:00-06:00", "103.10")
	filed := walk(t, e, "2027-001", []act{{"2027-01-12T09:00:00-06:00", orig}})
	f := orig
	f.Received = instant(t, "2026-12-30T09:00:00-06:00")
	payload, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	entries := []docket.Entry{{ID: 1, Seq: 1, By: "U_CLERK", At: instant(t, "2027-01-12T09:00:00-06:00"), Action: orig}}
	corrected, err := e.Amend(filed, entries,
		docket.Correct{Seq: 1, Of: "file", Field: "received", From: "x", To: "y", Reason: "typed the wrong year",
			Action: payload}, "U_CLERK", instant(t, "2027-01-13T09:00:00-06:00"))
	if err != nil {
		t.Fatal(err)
	}
	for name, extra := range map[string]docket.Case{"Backdated": backdated, "Corrected": corrected} {
		t.Run(name, func(t *testing.T) {
			cases := append(append([]docket.Case{}, base...), extra)
			if got := report.Of(cases, 2026, e, now); got.Received != report.Of(base, 2026, e, now).Received+1 {
				t.Fatalf("the commission's report does not count the complaint: %d", got.Received)
			}
			if got := report.PublicOf(cases, 2026, e, now); !reflect.DeepEqual(got, before) {
				t.Errorf("a confidential complaint moved 2026's public figures:\n%+v\nwas\n%+v", got, before)
			}
		})
	}
	t.Run("Noticed", func(t *testing.T) {
		noticed, _, err := e.Apply(backdated, meeting(t, docket.SufficiencyMeeting, "2027-01-20T17:00:00-06:00"), now)
		if err != nil {
			t.Fatal(err)
		}
		got := report.PublicOf(append(append([]docket.Case{}, base...), noticed), 2026, e, now)
		if got.Received != before.Received+1 || got.Months[10].Received != 1 {
			t.Errorf("a complaint whose meeting is noticed is not counted: %d received, November %d", got.Received,
				got.Months[10].Received)
		}
	})
}
