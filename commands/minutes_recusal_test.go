package commands_test

import (
	"strings"
	"testing"
	"time"

	"ethicsbot/commands"
)

// recusedAtMinutes holds meeting 2026-12-15 with four commissioners: U_COMM3 recused from
// case 2026-001, whose sufficiency review is item 1, taken in closed session; U_COMM4
// absent. The ruling's roll call, taken after the return to open session, defaults to the
// members present: U_COMM1 and U_COMM2 yes, U_COMM3 recused, U_COMM4 absent.
func recusedAtMinutes(t *testing.T) *commands.Service {
	t.Helper()
	s, clk, _ := MustService(t)
	reconfigure(s, func(st *commands.Settings) {
		st.Roles.Commissioners = []string{comm, "U_COMM2", "U_COMM3", "U_COMM4"}
		st.Voting = commands.Voting{Required: true, Quorum: 2}
	})
	withLetters(t, s)
	oneCaseMeeting(t, s)
	mustDo(t, s, clerk, `recuse 2026-001 commissioner=U_COMM3 reason="knows the complainant"`, "recused")
	noticed(t, s)
	clk.now = time.Date(2026, 12, 15, 23, 5, 0, 0, time.UTC) // Tue 15 Dec 17:05 CST
	mustDo(t, s, clerk, `convene 2026-12-15 present=U_COMM1,U_COMM2,U_COMM3`, "A quorum is present")
	clk.now = clk.now.Add(5 * time.Minute)
	mustDo(t, s, clerk, `session 2026-12-15 close 1 closed="5 ILCS 120/2(c)(4)" recorded=yes`, "closed session entered")
	clk.now = clk.now.Add(20 * time.Minute)
	mustDo(t, s, clerk, `session 2026-12-15 open`, "returned to open session")
	mustDo(t, s, comm, `rule 2026-001 insufficient`, "adopted 2–0, 1 absent, 1 recused")
	mustDo(t, s, clerk, `adjourn 2026-12-15`, "adjourned")
	return s
}

// TestRecusalHoldsInTheMinutes: a member recused from a case is never recorded as moving or
// seconding the motions on its item, whoever types it, nor may they add a note to the item,
// which would land in closed minutes they are refused a copy of; a member the roll call
// records absent is not recorded as moving or seconding either (5 ILCS 120/2.06(a)). Each
// refusal names the recusal or the roll, and records nothing.
func TestRecusalHoldsInTheMinutes(t *testing.T) {
	s := recusedAtMinutes(t)
	const recusal = "U_COMM3 is recused from case 2026-001 (they recused themselves on Fri 2026-12-04: knows the " +
		"complainant) and takes no part in its business"
	for _, tc := range []struct{ name, user, line, want string }{
		{"RecusedMoverByTheClerk", clerk, "moved item=1 mover=U_COMM3 seconder=U_COMM1", "mover: " + recusal},
		{"RecusedSeconderByTheClerk", clerk, "moved item=1 mover=U_COMM1 seconder=U_COMM3", "seconder: " + recusal},
		{"RecusedMoverByThemselves", "U_COMM3", "moved item=1 mover=U_COMM3 seconder=U_COMM1",
			"you are recused from case 2026-001"},
		{"RecusedMemberRecordsOthers", "U_COMM3", "moved item=1 mover=U_COMM1 seconder=U_COMM2",
			"you are recused from case 2026-001"},
		{"AbsentMover", clerk, "moved item=1 mover=U_COMM4 seconder=U_COMM1",
			"mover: U_COMM4 is recorded absent in the roll call on the motion, and a member absent neither moves nor " +
				"seconds it: the minutes record who was present; give the member who did (rule 5 ILCS 120/2.06(a))"},
		{"AbsentSeconder", clerk, "moved item=1 mover=U_COMM1 seconder=U_COMM4", "seconder: U_COMM4 is recorded absent"},
		{"RecusedNote", "U_COMM3", `note item=1 "The respondent's email was campaign material."`,
			"you are recused from case 2026-001"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := do(s, tc.user, "minutes 2026-12-15 "+tc.line)
			if got := replyText(r); !strings.Contains(got, "Not done") || !strings.Contains(got, tc.want) {
				t.Errorf("%s as %s:\n%s\nwant %q", tc.line, tc.user, got, tc.want)
			}
			if len(r.Posts) != 0 {
				t.Errorf("a refusal posted %d messages", len(r.Posts))
			}
		})
	}
	_, closed := minutesMarkdown(mustDo(t, s, clerk, "minutes 2026-12-15", "its minutes"), "2026-12-15")
	if strings.Contains(closed, "campaign material") || strings.Contains(closed, "Motion by") {
		t.Errorf("a refused mover or note is in the closed minutes:\n%s", closed)
	}
	// The members who took part are recorded, and a note on the meeting as a whole is not
	// the case's business.
	mustDo(t, s, clerk, "minutes 2026-12-15 moved item=1 mover=U_COMM1 seconder=U_COMM2", "who moved motion 1")
	mustDo(t, s, "U_COMM3", `minutes 2026-12-15 note "Public comment: none."`, "on the meeting as a whole")
	open, _ := minutesMarkdown(mustDo(t, s, clerk, "minutes 2026-12-15", "its minutes"), "2026-12-15")
	if !strings.Contains(open, `Motion by U\_COMM1, seconded by U\_COMM2`) || !strings.Contains(open,
		`Recused: U\_COMM3.`) || !strings.Contains(open, `Absent: U\_COMM4.`) {
		t.Errorf("the open minutes:\n%s", open)
	}
}

// TestARollCallAgreesWithTheMeetingsRoll: at a meeting in progress, a roll call lists as
// voting only members the meeting's roll records present, and as absent only those it
// records absent (5 ILCS 120/2.06(a)); an arrival is recorded first.
func TestARollCallAgreesWithTheMeetingsRoll(t *testing.T) {
	s, clk, _ := MustService(t)
	reconfigure(s, func(st *commands.Settings) { st.Roles.Commissioners = []string{comm, "U_COMM2", "U_COMM3"} })
	oneCaseMeeting(t, s)
	noticed(t, s)
	clk.now = time.Date(2026, 12, 15, 23, 5, 0, 0, time.UTC) // Tue 15 Dec 17:05 CST
	mustDo(t, s, clerk, `convene 2026-12-15 present=U_COMM1,U_COMM2`, "Absent: <@U_COMM3>")
	for _, tc := range []struct{ name, line, want string }{
		{"AbsentVotes", "rule 2026-001 insufficient yes=U_COMM1,U_COMM3 absent=U_COMM2",
			"yes: U_COMM3 is recorded absent from meeting 2026-12-15 at Tue 15 Dec 2026 17:05 CST, and takes no part in its " +
				"roll calls; if they arrived, record it first: /ethics convene 2026-12-15 late=U_COMM3 (rule 5 ILCS " +
				"120/2.06(a))"},
		{"AbsentVotesNo", "rule 2026-001 insufficient no=U_COMM3", "no: U_COMM3 is recorded absent"},
		{"PresentCalledAbsent", "rule 2026-001 insufficient yes=U_COMM1 absent=U_COMM2,U_COMM3",
			"absent: U_COMM2 is recorded present at meeting 2026-12-15 at Tue 15 Dec 2026 17:05 CST"},
		{"AbsentClosesTheMeeting", `session 2026-12-15 close 1 closed="5 ILCS 120/2(c)(4)" yes=U_COMM1,U_COMM2,U_COMM3`,
			"yes: U_COMM3 is recorded absent"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := replyText(do(s, comm, tc.line)); !strings.Contains(got, "Not done") ||
				!strings.Contains(got, tc.want) {
				t.Errorf("%s:\n%s\nwant %q", tc.line, got, tc.want)
			}
		})
	}
	clk.now = clk.now.Add(5 * time.Minute)
	mustDo(t, s, clerk, `convene 2026-12-15 late=U_COMM3`, "arrivals and departures recorded")
	mustDo(t, s, comm, "rule 2026-001 insufficient yes=U_COMM1,U_COMM3 no=U_COMM2", "adopted 2–1")
}
