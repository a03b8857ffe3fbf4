package docket_test

import (
	"strings"
	"testing"

	"ethicsbot/docket"
)

// TestCheckHolidayOMA201: 5 ILCS 120/2.01, no meeting on a legal holiday unless the regular
// meeting day falls on it. Each row a day a clerk would recognise; the refusal names the
// holiday and the ways forward (another day, the regular meeting).
func TestCheckHolidayOMA201(t *testing.T) {
	e := MustEngine(t)
	for _, tc := range []struct {
		name, start string
		regular     bool
		rule        string
	}{
		{"VeteransDaySpecial", "2026-11-11T17:00:00-06:00", false, docket.OMAHoliday},
		{"VeteransDayRegular", "2026-11-11T17:00:00-06:00", true, ""},
		{"PulaskiDaySpecial", "2027-03-01T17:00:00-06:00", false, docket.OMAHoliday},
		{"LincolnsBirthday", "2027-02-12T17:00:00-06:00", false, docket.OMAHoliday},
		{"ChristmasDay", "2026-12-25T10:00:00-06:00", false, docket.OMAHoliday},
		{"DayAfterChristmas", "2026-12-28T17:00:00-06:00", false, ""},
		{"GoodFridayNoStatute", "2027-03-26T17:00:00-05:00", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := e.CheckHoliday(T(t, tc.start), tc.regular)
			wantRule(t, tc.name, err, docket.ECONFLICT, tc.rule)
			if err != nil && !strings.Contains(docket.ErrorMessage(err), "regular meeting of the year's schedule") {
				t.Errorf("refusal %q names no way forward", docket.ErrorMessage(err))
			}
		})
	}
}

// TestHolidayGuardsEveryMeetingOMA201: a special meeting created on a legal holiday, a case
// step's own meeting set on one and a meeting moved onto one are refused (5 ILCS
// 120/2.01); the regular meeting of the schedule on that day is not; a case rebuilt from a
// record kept before the rule keeps its holiday meeting.
func TestHolidayGuardsEveryMeetingOMA201(t *testing.T) {
	e := MustEngine(t)
	now := T(t, "2027-02-01T09:00:00-06:00")
	pulaski := T(t, "2027-03-01T18:00:00-06:00")
	create := docket.CreateMeeting{Name: "2027-03-01", Start: pulaski, Place: "City Hall", Special: true}
	_, err := e.ApplyMeeting(docket.CommissionMeeting{}, create, now)
	wantRule(t, "special on Pulaski Day", err, docket.ECONFLICT, docket.OMAHoliday)
	create.Special, create.Regular = false, true
	if _, err := e.ApplyMeeting(docket.CommissionMeeting{}, create, now); err != nil {
		t.Errorf("the regular meeting on Pulaski Day was refused: %v", err)
	}
	create.Regular = false
	_, err = e.ApplyMeeting(docket.CommissionMeeting{}, create, now)
	wantRule(t, "off the schedule on Pulaski Day", err, docket.ECONFLICT, docket.OMAHoliday)

	m := meetingAt(t, e, "2027-02-23", "2027-02-23T18:00:00-06:00", "2027-02-01T09:00:00-06:00")
	_, err = e.ApplyMeeting(m, docket.MoveMeeting{Start: pulaski, Place: m.Place}, now)
	wantRule(t, "moved onto Pulaski Day", err, docket.ECONFLICT, docket.OMAHoliday)
	if _, err := e.ApplyMeeting(m, docket.MoveMeeting{Start: pulaski, Place: m.Place, Regular: true}, now); err != nil {
		t.Errorf("moving onto the regular meeting of Pulaski Day was refused: %v", err)
	}

	file := filing
	file.Received = T(t, "2027-02-01T09:00:00-06:00")
	c, _, err := e.Apply(docket.Case{}, file, now)
	if err != nil {
		t.Fatal(err)
	}
	step := docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2027-02-12T10:00:00-06:00"),
		Place: "City Hall"}
	_, _, err = e.Apply(c, step, now)
	wantRule(t, "sufficiency meeting on Lincoln's Birthday", err, docket.ECONFLICT, docket.OMAHoliday)
	ok := step
	ok.Start = T(t, "2027-02-05T10:00:00-06:00")
	if _, _, err := e.Apply(c, ok, now); err != nil {
		t.Errorf("a sufficiency meeting on a Friday was refused: %v", err)
	}
	// A record kept before the rule: the case as rebuilt keeps its holiday meeting.
	entries := []docket.Entry{{Seq: 1, At: now, Action: file}, {Seq: 2, At: now, Action: step}}
	if r, err := e.Rebuild("2027-001", entries); err != nil || !r.Sufficiency.Start.Equal(step.Start) {
		t.Errorf("rebuilding a holiday meeting recorded before the rule: %+v, %v", r.Sufficiency, err)
	}
}
