package commands_test

import (
	"strings"
	"testing"
	"time"

	"ethicsbot/commands"
	"ethicsbot/letters"
)

// TestRecusedMemberAtAMeeting: a member recused from a case
// may not move to close the meeting for its item, is left out of that roll call and
// recorded as recused, is not listed as present in that closed session, and is not given
// the closed minutes that take the case.
func TestRecusedMemberAtAMeeting(t *testing.T) {
	s, clk, _ := MustService(t)
	reconfigure(s, func(st *commands.Settings) { st.Roles.Commissioners = []string{comm, "U_COMM2", "U_COMM3"} })
	for _, who := range []string{"Jane Roe", "Richard Roe"} {
		mustDo(t, s, clerk, strings.Replace(fileLine, "Jane Roe", who, 1), "Filed as case")
	}
	mustDo(t, s, clerk, `recuse 2026-002 commissioner=<@U_COMM3|cal> reason="knows the respondent"`, "recused")
	mustDo(t, s, clerk, `meeting 2026-12-15T17:00 place="City Hall"`, "created")
	mustDo(t, s, clerk, `schedule 2026-001 sufficiency meeting=2026-12-15`, "added")
	mustDo(t, s, clerk, `schedule 2026-002 sufficiency meeting=2026-12-15`, "added")
	mustDo(t, s, clerk, `posted 2026-12-15`, "for all 2 items")
	clk.now = time.Date(2026, 12, 15, 23, 5, 0, 0, time.UTC)
	mustDo(t, s, clerk, `convene 2026-12-15 present=U_COMM1,U_COMM2,U_COMM3`, "A quorum is present")
	clk.now = clk.now.Add(5 * time.Minute)
	if got := replyText(do(s, "U_COMM3", `session 2026-12-15 close 2 closed="5 ILCS 120/2(c)(4)"`)); !strings.Contains(got,
		"you are recused from case 2026-002") {
		t.Errorf("a recused member closing the meeting for their case: %s", got)
	}
	if got := replyText(do(s, clerk,
		`session 2026-12-15 close 2 closed="5 ILCS 120/2(c)(4)" yes=U_COMM1,U_COMM2,U_COMM3`)); !strings.Contains(got,
		"U_COMM3 is recused from case 2026-002") {
		t.Errorf("a recused member listed in the roll call to close: %s", got)
	}
	mustDo(t, s, clerk, `session 2026-12-15 close 2 closed="5 ILCS 120/2(c)(4)"`, "adopted 2–0, 1 recused")
	clk.now = clk.now.Add(10 * time.Minute)
	mustDo(t, s, clerk, `session 2026-12-15 open`, "returned to open session")
	mustDo(t, s, clerk, `adjourn 2026-12-15`, "adjourned")

	lm, err := letters.New(letters.Config{Commission: letters.Addressee{Name: "Ethics Commission",
		Address: "City Hall\n100 Main Street"}}, s.Engine.Cal.Location())
	if err != nil {
		t.Fatal(err)
	}
	s.Letters = lm
	closedMinutes := func(r commands.Response) string {
		for _, f := range r.Files {
			if f.Name == "meeting-2026-12-15-minutes-closed.md" {
				return string(f.Data)
			}
		}
		return ""
	}
	closed := closedMinutes(mustDo(t, s, clerk, `minutes 2026-12-15`, "meeting-2026-12-15-minutes-closed.pdf"))
	var present string
	for _, line := range strings.Split(closed, "\n") {
		if strings.Contains(line, "entered closed session") {
			present = line
			break
		}
	}
	if present == "" || strings.Contains(present, `U\_COMM3`) || !strings.Contains(present, `U\_COMM2`) ||
		!strings.Contains(closed, `Recused: U\_COMM3.`) {
		t.Errorf("the closed minutes' presence (%q):\n%s", present, closed)
	}
	r := mustDo(t, s, "U_COMM3", `minutes 2026-12-15`,
		"The closed minutes are not given to you: they take case 2026-002, from which you are recused")
	if closedMinutes(r) != "" || len(r.Files) != 2 {
		t.Errorf("a member recused from a case taken in closed session got %d files, the closed minutes among them: %v",
			len(r.Files), closedMinutes(r) != "")
	}
}
