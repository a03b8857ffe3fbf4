package docket_test

import (
	"testing"

	"ethicsbot/docket"
)

func TestMeetingName(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want docket.MeetingName
		date string
		ok   bool
	}{
		{"2027-01-12", "2027-01-12", "2027-01-12", true},
		{" 2027-01-12b ", "2027-01-12b", "2027-01-12", true},
		{"2027-01-12z", "2027-01-12z", "2027-01-12", true},
		{"2027-01-12a", "", "", false}, // the first meeting of the day has no letter
		{"2027-01-12B", "", "", false},
		{"2027-02-30", "", "", false},
		{"2027-1-12b", "", "", false},
		{"12 Jan", "", "", false},
		{"", "", "", false},
	} {
		got, err := docket.ParseMeetingName(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseMeetingName(%q) = %q, %v; want %q, ok %v", tc.in, got, err, tc.want, tc.ok)
			continue
		}
		if err != nil && docket.ErrorCode(err) != docket.EINVALID {
			t.Errorf("ParseMeetingName(%q): error code %q, want invalid", tc.in, docket.ErrorCode(err))
		}
		if tc.ok && got.Date().String() != tc.date {
			t.Errorf("%q.Date() = %s, want %s", got, got.Date(), tc.date)
		}
	}
	for n, want := range map[int]docket.MeetingName{1: "2027-01-12", 2: "2027-01-12b", 3: "2027-01-12c", 26: "2027-01-12z"} {
		if got, err := docket.NewMeetingName(D(t, "2027-01-12"), n); err != nil || got != want {
			t.Errorf("NewMeetingName(2027-01-12, %d) = %q, %v; want %q", n, got, err, want)
		}
		if back, err := docket.ParseMeetingName(string(want)); err != nil || back != want {
			t.Errorf("ParseMeetingName(%q) = %q, %v: not its own inverse", want, back, err)
		}
	}
	for _, n := range []int{0, 27} {
		if _, err := docket.NewMeetingName(D(t, "2027-01-12"), n); err == nil {
			t.Errorf("NewMeetingName(.., %d): no error", n)
		}
	}
}
