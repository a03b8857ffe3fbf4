package commands_test

import (
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
)

// TestFoldedMeetingRecordedUnpostedWhenAnItemIs: a meeting
// folded from two cases' steps of which only one had its notice posted is shown with its
// agenda to be posted, and is recorded so when something is done to it: not as posted at
// the one item's posting.
func TestFoldedMeetingRecordedUnpostedWhenAnItemIs(t *testing.T) {
	s, clk, db := MustService(t)
	for _, who := range []string{"Jane Roe", "Richard Roe"} {
		mustDo(t, s, clerk, strings.Replace(fileLine, "Jane Roe", who, 1), "Filed as case")
	}
	for _, n := range []string{"2026-001", "2026-002"} {
		if _, err := db.Apply(ctx, docket.Act{By: clerk, At: clk.now}, n,
			docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: time.Date(2026, 12, 15, 23, 0, 0, 0, time.UTC),
				Place: "City Hall"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Apply(ctx, docket.Act{By: clerk, At: clk.now}, "2026-001",
		docket.PostNotice{Meeting: docket.SufficiencyMeeting}); err != nil {
		t.Fatal(err)
	}
	mustDo(t, s, clerk, `meetings`, "*2026-12-15* Tue 15 Dec 2026 17:00 CST, City Hall: 2 items; agenda to be posted")
	mustDo(t, s, clerk, `agenda 2026-12-15 add "Election of a chair"`, "item added")
	ms, err := db.Meetings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m, err := docket.FindMeeting(ms, "2026-12-15")
	if err != nil || m.Folded || len(m.Postings) != 0 {
		t.Errorf("the meeting as recorded: folded %v, postings %+v, %v", m.Folded, m.Postings, err)
	}
}
