package commands_test

import (
	"strings"
	"testing"
	"time"
)

// TestConveneNeedsNoticeOMA202: 5 ILCS 120/2.02(a). A meeting whose notice and agenda were
// not posted 48 hours ahead is not called to order, and so enters no closed session and
// takes no action; the refusal names the section and the ways forward. As an emergency
// meeting, with the nature of the emergency, it is, and its minutes say so.
func TestConveneNeedsNoticeOMA202(t *testing.T) {
	s, clk, _ := MustService(t)
	withLetters(t, s)
	mustDo(t, s, clerk, `meeting 2026-12-15T17:00 place="City Hall, Room 201"`, "meeting created")
	mustDo(t, s, clerk, `agenda 2026-12-15 add "Repair of the council chamber"`, "item added")
	clk.now = time.Date(2026, 12, 15, 23, 5, 0, 0, time.UTC) // Tue 15 Dec 17:05 CST
	got := replyText(do(s, clerk, `convene 2026-12-15 present=U_COMM1,U_COMM2`))
	for _, want := range []string{"cannot be called to order", "not posted 48 hours before it", "5 ILCS 120/2.02",
		"Hold it later", `emergency="..."`} {
		if !strings.Contains(got, want) {
			t.Errorf("a meeting never noticed, called to order: %q lacks %q", got, want)
		}
	}
	if got := replyText(do(s, clerk, `session 2026-12-15 close 1 closed="5 ILCS 120/2(c)(1)"`)); !strings.Contains(got,
		"is not in progress") {
		t.Errorf("a closed session entered at a meeting never called to order: %s", got)
	}
	mustDo(t, s, clerk, `convene 2026-12-15 present=U_COMM1,U_COMM2 emergency="the council chamber's roof fell in"`,
		"called to order as an emergency meeting (5 ILCS 120/2.02(a))")
	r := mustDo(t, s, clerk, `minutes 2026-12-15`, "")
	var text string
	for _, f := range r.Files {
		if strings.HasSuffix(f.Name, ".md") {
			text += string(f.Data)
		}
	}
	if !strings.Contains(text, "It was an emergency meeting, called without 48 hours' notice (5 ILCS 120/2.02(a)): "+
		"the council chamber's roof fell in.") {
		t.Errorf("the draft minutes do not say it was an emergency meeting:\n%s", text)
	}
}

// TestRescheduledMeetingNoticedAgainOMA202: 5 ILCS 120/2.02(a). A meeting moved is a
// rescheduled meeting, noticed as a special one is: the notice posted for its old time does
// not let it be called to order at the new one; a posting after the move, 48 hours ahead,
// does.
func TestRescheduledMeetingNoticedAgainOMA202(t *testing.T) {
	s, clk, _ := MustService(t)
	mustDo(t, s, clerk, `meeting 2026-12-17T17:00 place="City Hall, Room 201"`, "meeting created")
	mustDo(t, s, clerk, `agenda 2026-12-17 add "Election of a chair"`, "item added")
	mustDo(t, s, clerk, `posted 2026-12-17`, "notice and agenda posted")
	// Moved three days earlier, on the Friday before: the old notice was posted in time
	// for the new start too, but it gave another day.
	clk.now = time.Date(2026, 12, 4, 18, 0, 0, 0, time.UTC) // Fri 4 Dec 12:00 CST
	mustDo(t, s, clerk, `move 2026-12-17 2026-12-14T17:00`, "moved to")
	clk.now = time.Date(2026, 12, 14, 23, 5, 0, 0, time.UTC) // Mon 14 Dec 17:05 CST
	got := replyText(do(s, clerk, `convene 2026-12-17 present=U_COMM1,U_COMM2`))
	for _, want := range []string{"cannot be called to order", "at its new time and place", "5 ILCS 120/2.02"} {
		if !strings.Contains(got, want) {
			t.Errorf("a moved meeting never noticed again, called to order: %q lacks %q", got, want)
		}
	}
	// Noticed again 48 hours ahead, it is called to order.
	s2, clk2, _ := MustService(t)
	mustDo(t, s2, clerk, `meeting 2026-12-17T17:00 place="City Hall, Room 201"`, "meeting created")
	mustDo(t, s2, clerk, `agenda 2026-12-17 add "Election of a chair"`, "item added")
	mustDo(t, s2, clerk, `posted 2026-12-17`, "notice and agenda posted")
	clk2.now = time.Date(2026, 12, 4, 18, 0, 0, 0, time.UTC)
	mustDo(t, s2, clerk, `move 2026-12-17 2026-12-14T17:00`, "moved to")
	mustDo(t, s2, clerk, `posted 2026-12-17`, "notice and agenda posted")
	clk2.now = time.Date(2026, 12, 14, 23, 5, 0, 0, time.UTC)
	mustDo(t, s2, clerk, `convene 2026-12-17 present=U_COMM1,U_COMM2`, "A quorum is present")
}
