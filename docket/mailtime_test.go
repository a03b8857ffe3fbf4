package docket_test

import (
	"strings"
	"testing"

	"ethicsbot/docket"
)

// TestNoTimeToMail: (C)(1) gives the ruling and its notices to both parties one last day,
// seven business days after receipt; a sufficiency meeting that leaves no business day
// between it and that day warns, naming the last day and the day to hold it by. Received
// Fri 4 Dec 2026, the notices are due Tue 15 Dec.
func TestNoTimeToMail(t *testing.T) {
	e := MustEngine(t)
	c := apply(t, e, []step{{"2026-12-04T10:00:00-06:00", filing, docket.StateReceived, ""}})
	for _, tc := range []struct {
		name, start, want string
	}{
		{"AWeekAhead", "2026-12-08T17:00:00-06:00", ""},
		{"TheDayBefore", "2026-12-14T17:00:00-06:00", ""},
		{"OnTheLastDay", "2026-12-15T17:00:00-06:00", "the sufficiency meeting on Tue 2026-12-15 leaves no business day " +
			"to mail the notices of its ruling, due by Tue 2026-12-15: hold it by Mon 2026-12-14"},
		{"AfterTheRulingDeadline", "2026-12-16T17:00:00-06:00", ""}, // warned of as after the ruling deadline
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := e.NoTimeToMail(&c, T(t, tc.start))
			if tc.want == "" && got != "" || tc.want != "" && !strings.HasPrefix(got, tc.want) {
				t.Errorf("NoTimeToMail(%s) = %q, want %q", tc.start, got, tc.want)
			}
			_, ws, err := e.Apply(c, docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, tc.start),
				Place: "City Hall"}, T(t, "2026-12-04T11:00:00-06:00"))
			if err != nil {
				t.Fatal(err)
			}
			warned := false
			for _, w := range ws {
				warned = warned || w.Rule == "(C)(1)" && strings.Contains(w.Message, "leaves no business day")
			}
			if warned != (tc.want != "") {
				t.Errorf("scheduling for %s warns that it leaves no time to mail: %v (%v)", tc.start, warned, ws)
			}
		})
	}
}
