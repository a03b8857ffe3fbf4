package commands_test

import (
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
)

// TestNoMeetingOnALegalHolidayOMA201: 5 ILCS 120/2.01. A special meeting, or a case step's
// own meeting, set on a legal holiday is refused, naming the section, the holiday and the
// way forward (another day, or the regular meeting); the regular meeting of the adopted
// schedule may fall on one; a meeting not on the schedule is created special, and said so.
// Hand-checked: Fri 25 Dec 2026 is Christmas Day, Mon 1 Mar 2027 Casimir Pulaski's Birthday
// (5 ILCS 490/15), a regular meeting day of the schedule below.
func TestNoMeetingOnALegalHolidayOMA201(t *testing.T) {
	s, _, _ := MustService(t)
	mustDo(t, s, clerk, fileLine, "Filed as case")
	for _, cmd := range []string{
		`meeting 2026-12-25T10:00 special place="City Hall, Room 201"`,
		`meeting 2026-12-25T10:00 place="City Hall, Room 201"`,
		`schedule 2026-001 sufficiency 2026-12-25T10:00 place="City Hall, Room 201"`,
	} {
		r := do(s, clerk, cmd)
		for _, want := range []string{"Fri 2026-12-25 is Christmas Day, a legal holiday", "5 ILCS 120/2.01",
			"choose another day", "regular meeting of the year's schedule"} {
			if !strings.Contains(replyText(r), want) {
				t.Errorf("/ethics %s: %q lacks %q", cmd, replyText(r), want)
			}
		}
	}
	mustDo(t, s, clerk, `meetings`, "No meetings")

	withRegular(t, s, docket.NewDate(2027, time.January, 12), docket.NewDate(2027, time.March, 1))
	mustDo(t, s, clerk, `agenda 2027-03-01 add "Election of a chair"`, "Election of a chair")
	mustDo(t, s, clerk, `meeting 2027-03-01T10:00 place="City Hall, Council Chambers"`,
		"is Casimir Pulaski's Birthday, a legal holiday")
	mustDo(t, s, clerk, `meeting 2027-01-20T18:00 place="City Hall, Council Chambers"`,
		"special (not on the year's schedule of regular meetings, 5 ILCS 120/2.03) meeting created")
	// A regular meeting moved off its start is rescheduled, no longer the regular one.
	mustDo(t, s, clerk, `move 2027-01-12 2027-01-18T18:00`, "is Martin Luther King Jr. Day, a legal holiday")
}
