package commands_test

import (
	"strings"
	"testing"
	"time"
)

// TestFinalActionOnThePostedAgendaOMA202c: 5 ILCS 120/2.02(c). A vote that is final action
// on a matter the agenda as posted did not set forth (a case step or an item of other
// business added after the posting, never posted again) is refused, naming the section and
// the way forward: discuss it, and vote at a later meeting whose agenda sets it forth.
func TestFinalActionOnThePostedAgendaOMA202c(t *testing.T) {
	s, clk, _ := MustService(t)
	mustDo(t, s, clerk, fileLine, "Filed as case")
	mustDo(t, s, clerk, `meeting 2026-12-15T17:00 place="City Hall, Room 201"`, "meeting created")
	mustDo(t, s, clerk, `agenda 2026-12-15 add "Election of a chair"`, "item added")
	mustDo(t, s, clerk, `posted 2026-12-15`, "notice and agenda posted")
	// Added after the posting, and not posted again.
	clk.now = clk.now.Add(24 * time.Hour)
	mustDo(t, s, clerk, `agenda 2026-12-15 add "Purchase of a recorder"`, "item added")
	mustDo(t, s, clerk, `schedule 2026-001 sufficiency meeting=2026-12-15`, "")
	clk.now = time.Date(2026, 12, 15, 23, 1, 0, 0, time.UTC) // Tue 15 Dec 17:01 CST
	mustDo(t, s, clerk, `convene 2026-12-15 present=U_COMM1,U_COMM2`, "A quorum is present")
	for _, cmd := range []string{`rule 2026-001 probable_cause`,
		`minutes 2026-12-15 motion item=3 "To buy a recorder" yes=U_COMM1,U_COMM2`} {
		got := replyText(do(s, comm, cmd))
		if cmd[0] == 'm' {
			got = replyText(do(s, clerk, cmd))
		}
		for _, want := range []string{"5 ILCS 120/2.02(c)", "not on", "as posted", "a later meeting"} {
			if !strings.Contains(got, want) {
				t.Errorf("/ethics %s: %q lacks %q", cmd, got, want)
			}
		}
	}
	// The item the posting gave takes its vote.
	mustDo(t, s, clerk, `minutes 2026-12-15 motion item=1 "To elect Ann Alder chair" yes=U_COMM1,U_COMM2`, "")
}
