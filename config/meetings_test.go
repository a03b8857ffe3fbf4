package config

import (
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
)

// TestRegularMeetingsConfig: meetings.regular gives the year's regular meetings (5 ILCS
// 120/2.03) as a place, a time and dates, kept in order; what 2.03 asks stated and is
// missing, a bad time and a date listed twice are refused with their lines.
func TestRegularMeetingsConfig(t *testing.T) {
	env := writeConfig(t,
		"meetings:\n  regular:\n    place: \"City Hall, Council Chambers\"\n    time: \"18:00\"\n    dates: [2027-02-09, "+
			"2027-01-12]\n")
	cfg, err := Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	r := cfg.Regular
	if r.Place != "City Hall, Council Chambers" || r.Clock != 18*time.Hour || len(r.Dates) != 2 ||
		r.Dates[0] != docket.NewDate(2027, time.January, 12) || r.Dates[1] != docket.NewDate(2027, time.February, 9) {
		t.Errorf("schedule %+v", r)
	}
	chicago, _ := time.LoadLocation("America/Chicago")
	if got, want := r.Start(r.Dates[0], chicago).Format(time.RFC3339), "2027-01-12T18:00:00-06:00"; got != want {
		t.Errorf("start %s, want %s", got, want)
	}
	for _, tc := range []struct{ file, want string }{
		{"meetings:\n  regular:\n    time: \"18:00\"\n    dates: [2027-01-12]\n", "line 2: "},
		{"meetings:\n  regular:\n    place: Hall\n    dates: [2027-01-12]\n", "meetings.regular.time"},
		{"meetings:\n  regular:\n    place: Hall\n    time: \"6pm\"\n    dates: [2027-01-12]\n",
			`line 4: meetings.regular.time "6pm"`},
		{"meetings:\n  regular:\n    place: Hall\n    time: \"18:00\"\n    dates: [2027-01-12, 2027-01-12]\n",
			"line 5: dates: 2027-01-12 is listed twice"},
		{"meetings:\n  regular:\n    place: Hall\n    time: \"18:00\"\n    dates: [2027-02-30]\n",
			`line 5: "2027-02-30" is not a date`},
		{"meetings:\n  regular:\n    place: Hall\n", "gives no dates"},
	} {
		env := writeConfig(t, tc.file)
		if _, err := Load(func(k string) string { return env[k] }); err == nil || !strings.Contains(err.Error(), tc.want) ||
			!strings.Contains(err.Error()+docket.OMASchedule, "5 ILCS") {
			t.Errorf("%q: %v, want %q", tc.file, err, tc.want)
		}
	}
}
