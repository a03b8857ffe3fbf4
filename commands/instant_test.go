package commands_test

import (
	"testing"
	"time"
)

// TestLocalTimesAroundDaylightSaving: a local time the clocks go through twice (the hour
// repeated on the first Sunday of November) is refused with both its readings; a time
// with an offset, with or without seconds, with a T or a space, is taken as written; a
// local time the clocks skip is refused. Nothing refused is recorded.
func TestLocalTimesAroundDaylightSaving(t *testing.T) {
	s, clk, db := MustService(t)
	clk.now = time.Date(2027, 11, 9, 16, 0, 0, 0, time.UTC)
	file := func(received string) string {
		return `file respondent="Jane Roe" complainant="John Doe" section=103.10 summary="x" received=` + received
	}
	for _, tc := range []struct{ name, received, want string }{
		{"RepeatedHour", "2027-11-07T01:30",
			"received: 1:30 on Sun 7 Nov 2027 happens twice in America/Chicago: 01:30 CDT (-05:00) or 01:30 CST (-06:00); add " +
				"the offset, e.g. 2027-11-07T01:30-05:00 or 2027-11-07T01:30-06:00."},
		{"RepeatedHourWithSpace", `"2027-11-07 01:59:30"`,
			"received: 1:59:30 on Sun 7 Nov 2027 happens twice in America/Chicago: 01:59 CDT (-05:00) or 01:59 CST (-06:00)"},
		{"RepeatedHourAsTwoWords", "2027-11-07 01:00", "received: 1:00 on Sun 7 Nov 2027 happens twice"},
		{"SkippedHour", "2027-03-14T02:30",
			"received: 2027-03-14T02:30 does not exist in America/Chicago: the clocks skip that hour for daylight saving " +
				"time; choose another time."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mustDo(t, s, clerk, file(tc.received), tc.want)
			if all, _ := db.AllCases(ctx); len(all) != 0 {
				t.Fatalf("a refused time filed %d cases", len(all))
			}
		})
	}
	for _, tc := range []struct{ name, received, want string }{
		{"OffsetWithoutSeconds", "2027-11-07T01:30-06:00", "received Sun 7 Nov 2027 01:30 CST."},
		{"OffsetWithoutSecondsAfterSpace", `"2027-11-07 01:30-05:00"`, "received Sun 7 Nov 2027 01:30 CDT."},
		{"OffsetAsTwoWords", "2027-11-07 01:30-05:00", "received Sun 7 Nov 2027 01:30 CDT."},
		{"OffsetWithSeconds", "2027-11-07T01:30:00-06:00", "received Sun 7 Nov 2027 01:30 CST."},
		{"UTC", "2027-11-07T07:30Z", "received Sun 7 Nov 2027 01:30 CST."},
		{"HourAfterTheRepeat", "2027-11-07T02:30", "received Sun 7 Nov 2027 02:30 CST."},
		{"HourBeforeTheRepeat", "2027-11-07T00:30", "received Sun 7 Nov 2027 00:30 CDT."},
		{"DayOfSpringForward", "2027-03-14T03:30", "received Sun 14 Mar 2027 03:30 CDT."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mustDo(t, s, clerk, file(tc.received), tc.want)
		})
	}
}
