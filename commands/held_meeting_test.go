package commands_test

import (
	"strings"
	"testing"
	"time"

	"ethicsbot/commands"
	"ethicsbot/store"
)

// heldAndApproved holds meeting 2026-12-15 (the Hall) with the sufficiency reviews of
// cases 2026-001, ruled on, and 2026-002, not reached; its minutes are approved at the
// meeting of 2027-01-12 and made public. Meeting 2027-01-20 is to come.
func heldAndApproved(t *testing.T) (*commands.Service, *clock, *store.Store) {
	t.Helper()
	s, clk, db := MustService(t)
	withLetters(t, s)
	oneCaseMeeting(t, s)
	mustDo(t, s, clerk, strings.Replace(fileLine, "Jane Roe", "Richard Roe", 1), "Filed as case")
	mustDo(t, s, clerk, `schedule 2026-002 sufficiency meeting=2026-12-15`, "added")
	mustDo(t, s, clerk, `posted 2026-12-15`, "for all 2 items")
	mustDo(t, s, clerk, "mail 2026-001 respondent 9407 1118 9876 5432 1016 34", "recorded")
	mustDo(t, s, clerk, "mail 2026-001 complainant 9407 1118 9876 5432 1015 35", "recorded")
	mustDo(t, s, clerk, `meeting 2027-01-12T17:00 place="Hall"`, "created")
	mustDo(t, s, clerk, `agenda 2027-01-12 add item=minutes 2026-12-15`, "item added")
	mustDo(t, s, clerk, `posted 2027-01-12`, "posted")
	mustDo(t, s, clerk, `meeting 2027-01-20T17:00 place="Hall"`, "created")
	clk.now = time.Date(2026, 12, 15, 23, 5, 0, 0, time.UTC) // Tue 15 Dec 17:05 CST
	mustDo(t, s, clerk, `convene 2026-12-15 present=U_COMM1,U_COMM2`, "A quorum is present")
	mustDo(t, s, comm, `rule 2026-001 insufficient`, "ruling recorded")
	clk.now = clk.now.Add(30 * time.Minute)
	mustDo(t, s, clerk, `adjourn 2026-12-15`, "adjourned")
	clk.now = time.Date(2027, 1, 12, 23, 5, 0, 0, time.UTC) // Tue 12 Jan 17:05 CST
	mustDo(t, s, clerk, `convene 2027-01-12 present=U_COMM1,U_COMM2`, "A quorum is present")
	mustDo(t, s, clerk, `minutes 2026-12-15 approve at=2027-01-12`, "adopted 2–0")
	mustDo(t, s, clerk, `minutes 2026-12-15 publish`, "on the public board")
	clk.now = clk.now.Add(30 * time.Minute)
	mustDo(t, s, clerk, `adjourn 2027-01-12`, "adjourned")
	clk.now = clk.now.Add(24 * time.Hour)
	return s, clk, db
}

// TestAHeldMeetingStaysAsItWas: a step of a meeting held cannot be corrected out of it
// (which made a phantom meeting "2026-12-15b" on the board, and left the real one with
// fewer items than its approved minutes), nor can the meeting be moved or cancelled; each
// refusal names the meeting and how its minutes record it (5 ILCS 120/2.06(a)). Its own
// place or start, recorded wrong, is corrected on the meeting, with a reason, carrying
// its items with it, and the correction is listed with its minutes.
func TestAHeldMeetingStaysAsItWas(t *testing.T) {
	s, _, db := heldAndApproved(t)
	const minutes = "its minutes, approved on Tue 2027-01-12 at the meeting of 2027-01-12 and public on the board since " +
		"Tue 12 Jan 2027 17:05 CST, record it"
	for _, tc := range []struct{ name, line, want string }{
		{"CorrectPlace", `correct 2026-001 place="Council Chambers" meeting=sufficiency reason="typo"`,
			"the sufficiency meeting of case 2026-001 was taken up at meeting 2026-12-15, held at Tue 15 Dec 2026 17:05 " +
				"CST; " + minutes + " there: a step of a meeting held cannot be moved out of it."},
		{"CorrectStart", `correct 2026-002 start=2026-12-15T18:00 meeting=sufficiency reason="typo"`,
			"the sufficiency meeting of case 2026-002 was taken up at meeting 2026-12-15"},
		{"Move", `move 2026-12-15 2027-02-01T17:00`,
			"meeting 2026-12-15 was held: it was called to order at Tue 15 Dec 2026 17:05 CST, and " + minutes +
				" then and there; a meeting held cannot be moved."},
		{"Cancel", `cancel 2026-12-15`, "meeting 2026-12-15 was held"},
		{"CorrectMeetingOnAnotherDay", `correct 2026-12-15 start=2026-12-16T17:00 reason="typo"`,
			"meeting 2026-12-15 is named by its day"},
		{"CorrectMeetingAfterItsCallToOrder", `correct 2026-12-15 start=2026-12-15T17:30 reason="typo"`,
			"was called to order at Tue 15 Dec 2026 17:05 CST, so it started no later"},
		{"CorrectMeetingWithoutReason", `correct 2026-12-15 place="Council Chambers"`, "reason"},
		{"CorrectMeetingToCome", `correct 2027-01-20 place="Council Chambers" reason="typo"`,
			"meeting 2027-01-20 has not been called to order"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := do(s, clerk, tc.line)
			if got := replyText(r); !strings.Contains(got, "Not done") || !strings.Contains(got, tc.want) {
				t.Errorf("%s:\n%s\nwant %q", tc.line, got, tc.want)
			}
			if len(r.Posts) != 0 {
				t.Errorf("a refusal posted %d messages", len(r.Posts))
			}
		})
	}
	list := replyText(mustDo(t, s, clerk, "meetings", "Past meetings"))
	if strings.Contains(list, "2026-12-15b") || !strings.Contains(list, "*2026-12-15* Tue 15 Dec 2026 17:00 CST, Hall: "+
		"2 items") {
		t.Errorf("the meetings after the refusals:\n%s", list)
	}

	r := mustDo(t, s, clerk, `correct 2026-12-15 place="Council Chambers" reason="The meeting sat in the Chambers."`,
		"Meeting *2026-12-15*: its place corrected, with its 2 items (The meeting sat in the Chambers.).")
	const fixed = `On Wednesday 13 January 2027, the place of the meeting recorded as "Hall" was corrected to ` +
		`"Council Chambers": The meeting sat in the Chambers.`
	if got := replyText(r); !strings.Contains(got, "Case 2026-001: event 2 corrected: place") ||
		!strings.Contains(got, "Case 2026-002: event 2 corrected: place") || !strings.Contains(got, fixed) {
		t.Errorf("the meeting's correction:\n%s", got)
	}
	mustDo(t, s, clerk, `correct 2026-12-15 start=2026-12-15T17:02 reason="The clock was slow."`, "its start corrected")
	list = replyText(mustDo(t, s, clerk, "meetings", "Past meetings"))
	if strings.Contains(list, "2026-12-15b") || !strings.Contains(list,
		"*2026-12-15* Tue 15 Dec 2026 17:02 CST, Council Chambers: 2 items") {
		t.Errorf("the meetings after the meeting's correction:\n%s", list)
	}
	open, _ := minutesMarkdown(mustDo(t, s, clerk, "minutes 2026-12-15", "as approved"), "2026-12-15")
	if !strings.Contains(open, "## Corrections to the record") || !strings.Contains(open, "Council Chambers") ||
		!strings.Contains(open, `the start of the meeting recorded as "Tue 15 Dec 2026 17:00 CST" was corrected to `+
			`"Tue 15 Dec 2026 17:02 CST": The clock was slow.`) {
		t.Errorf("the minutes do not list the corrections:\n%s", open)
	}
	if rep, err := db.Verify(ctx); err != nil || rep.Broken != nil || rep.Differs != nil {
		t.Errorf("verify after the meeting's correction: %v %v %v", rep.Broken, rep.Differs, err)
	}
}

// TestVerifyNamesAMeetingWhoseItemsDifferFromItsApprovedMinutes: a step not reached at a
// meeting and rescheduled after its minutes were approved leaves the meeting with fewer
// items than they record; verify names the meeting and the step.
func TestVerifyNamesAMeetingWhoseItemsDifferFromItsApprovedMinutes(t *testing.T) {
	s, _, db := heldAndApproved(t)
	if rep, err := db.Verify(ctx); err != nil || rep.Broken != nil || rep.Differs != nil {
		t.Fatalf("verify before: %v %v %v", rep.Broken, rep.Differs, err)
	}
	mustDo(t, s, clerk, `schedule 2026-002 sufficiency meeting=2027-01-20`, "2026-002")
	rep, err := db.Verify(ctx)
	if err != nil {
		t.Fatal(err)
	}
	const want = "meeting 2026-12-15 no longer holds the sufficiency meeting of case 2026-002, which it held when its " +
		"minutes were approved, at Tue 12 Jan 2027 17:05 CST: its items differ from its approved minutes"
	if rep.Broken != nil || rep.Differs == nil || !strings.Contains(rep.Differs.String(), want) {
		t.Errorf("verify: broken %v, differs %v, want %q", rep.Broken, rep.Differs, want)
	}
}
