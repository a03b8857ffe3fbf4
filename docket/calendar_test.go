package docket_test

import (
	"testing"
	"time"

	"ethicsbot/docket"
)

// MustCalendar builds a calendar or stops the test.
func MustCalendar(tb testing.TB, cfg docket.CalendarConfig) *docket.Calendar {
	tb.Helper()
	c, err := docket.NewCalendar(cfg)
	if err != nil {
		tb.Fatalf("NewCalendar(%+v): %v", cfg, err)
	}
	return c
}

// D parses a YYYY-MM-DD date or stops the test.
func D(tb testing.TB, s string) docket.Date {
	tb.Helper()
	d, err := docket.ParseDate(s)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

func TestDate(t *testing.T) {
	for _, tc := range []struct {
		in      string
		weekday time.Weekday
		long    string
	}{
		{"1970-01-01", time.Thursday, "Thu 1970-01-01"},
		{"1969-12-31", time.Wednesday, "Wed 1969-12-31"},
		{"1900-01-01", time.Monday, "Mon 1900-01-01"},
		{"2026-12-04", time.Friday, "Fri 2026-12-04"},
		{"2028-02-29", time.Tuesday, "Tue 2028-02-29"},
		{"2200-12-31", time.Wednesday, "Wed 2200-12-31"},
	} {
		d := D(t, tc.in)
		if got := d.String(); got != tc.in {
			t.Errorf("ParseDate(%q).String() = %q", tc.in, got)
		}
		if got := d.Weekday(); got != tc.weekday {
			t.Errorf("%s.Weekday() = %v, want %v", tc.in, got, tc.weekday)
		}
		if got := d.Long(); got != tc.long {
			t.Errorf("%s.Long() = %q, want %q", tc.in, got, tc.long)
		}
	}
	t.Run("ImpossibleDates", func(t *testing.T) {
		for _, s := range []string{"2026-02-29", "2026-02-30", "2026-13-01", "2026-00-10", "2026-4-1", "26-04-01", "",
			"1899-12-31", "2201-01-01", "2026-04-01T00:00:00Z"} {
			if d, err := docket.ParseDate(s); err == nil {
				t.Errorf("ParseDate(%q) = %v, want an error", s, d)
			}
		}
	})
	t.Run("AddYearsLeapDay", func(t *testing.T) {
		// (I): a year from 29 February ends on 28 February, as a calendar year from 1 March
		// does; it was 1 March under time.AddDate.
		if got, want := D(t, "2028-02-29").AddYears(1), D(t, "2029-02-28"); got != want {
			t.Errorf("2028-02-29 + 1 year = %v, want %v", got, want)
		}
		if got, want := D(t, "2028-02-29").AddYears(4), D(t, "2032-02-29"); got != want {
			t.Errorf("2028-02-29 + 4 years = %v, want %v", got, want)
		}
	})
	t.Run("DateOfInstantUsesLocalDate", func(t *testing.T) {
		c := MustCalendar(t, docket.CalendarConfig{})
		// 03:00 UTC on the 5th is 21:00 in Chicago on the 4th.
		at := time.Date(2026, 12, 5, 3, 0, 0, 0, time.UTC)
		if got, want := c.DateOf(at), D(t, "2026-12-04"); got != want {
			t.Errorf("DateOf(%v) = %v, want %v", at, got, want)
		}
	})
}

func TestCalendarHolidays(t *testing.T) {
	c := MustCalendar(t, docket.CalendarConfig{})
	for _, tc := range []struct {
		date     string
		business bool
		why      string
	}{
		{"2026-12-04", true, ""},
		{"2026-12-05", false, "a weekend"},
		{"2026-12-06", false, "a weekend"},
		{"2026-12-25", false, "Christmas Day"},
		{"2027-01-01", false, "New Year's Day"},
		{"2027-01-18", false, "Martin Luther King Jr. Day"},
		{"2027-02-12", false, "Lincoln's Birthday"},
		// 5 ILCS 490/60 moves only a Sunday Lincoln's Birthday: Sat 2028-02-12 is not
		// observed on the Friday before, which is a business day.
		{"2028-02-11", true, ""},
		{"2023-02-13", false, "Lincoln's Birthday (observed)"}, // Feb 12 2023 was a Sunday
		{"2027-02-15", false, "Presidents' Day"},
		{"2027-05-31", false, "Memorial Day"},
		// 5 ILCS 490/63: "when June nineteenth shall fall on a Saturday or Sunday, neither
		// the preceding Friday nor the following Monday" is a holiday.
		{"2027-06-18", true, ""},
		// 205 ILCS 630/17 fixes the fourth day of July; no statute moves a Sunday one.
		{"2027-07-05", true, ""},
		{"2027-09-06", false, "Labor Day"},
		{"2026-10-12", false, "Columbus Day"},
		{"2026-11-11", false, "Veterans Day"},
		{"2026-11-26", false, "Thanksgiving Day"},
		{"2026-11-27", true, ""}, // the day after Thanksgiving is not a default closure
		// The federal observed Fridays are office closures only if configured
		// (weekend_observance): no Illinois statute fixes them.
		{"2027-12-24", true, ""},
		{"2027-12-31", true, ""}, // Jan 1 2028 is a Saturday
		// Pulaski Day (5 ILCS 490/15) and General Election Day (10 ILCS 5/17-25) are
		// statutory holidays the office does not close for unless configured.
		{"2027-03-01", true, ""},
		{"2026-11-03", true, ""},
		{"2028-01-03", true, ""},
		{"2020-06-19", true, ""}, // Juneteenth became a federal holiday in 2021
	} {
		d := D(t, tc.date)
		if got := c.IsBusinessDay(d); got != tc.business {
			t.Errorf("IsBusinessDay(%s) = %v, want %v", d.Long(), got, tc.business)
		}
		if got := c.Closure(d); got != tc.why {
			t.Errorf("Closure(%s) = %q, want %q", d.Long(), got, tc.why)
		}
	}
}

func TestCalendarConfig(t *testing.T) {
	t.Run("ExtraClosureAndOptionalHoliday", func(t *testing.T) {
		c := MustCalendar(t, docket.CalendarConfig{
			Add:      []string{"day_after_thanksgiving"},
			Closures: []docket.Date{D(t, "2026-12-24")},
		})
		for _, s := range []string{"2026-11-27", "2027-11-26", "2026-12-24"} {
			if c.IsBusinessDay(D(t, s)) {
				t.Errorf("%s should be closed", s)
			}
		}
		if got := c.Closure(D(t, "2026-12-24")); got != "office closed" {
			t.Errorf("Closure = %q", got)
		}
	})
	t.Run("WeekendObservance", func(t *testing.T) {
		c := MustCalendar(t, docket.CalendarConfig{Add: []string{"weekend_observance"}})
		for s, why := range map[string]string{
			"2027-12-31": "New Year's Day (observed)",
			"2027-12-24": "Christmas Day (observed)",
			"2027-06-18": "Juneteenth (observed)",
			"2027-07-05": "Independence Day (observed)",
			"2028-02-11": "Lincoln's Birthday (observed)",
		} {
			if got := c.Closure(D(t, s)); got != why {
				t.Errorf("Closure(%s) = %q, want %q", s, got, why)
			}
		}
		// A removed holiday has no observed day either.
		c = MustCalendar(t, docket.CalendarConfig{Add: []string{"weekend_observance"}, Remove: []string{"juneteenth"}})
		if !c.IsBusinessDay(D(t, "2027-06-18")) {
			t.Error("Juneteenth removed, but its observed Friday is closed")
		}
	})
	t.Run("ProclaimedHoliday", func(t *testing.T) {
		// 205 ILCS 630/17: a day the Governor proclaims a legal holiday is one defined by
		// statute, so 5 ILCS 70/1.11 skips it, unlike a snow day; the office is closed too.
		c := MustCalendar(t,
			docket.CalendarConfig{Proclaimed: []docket.Date{D(t, "2027-01-29")}, Closures: []docket.Date{D(t, "2027-02-05")}})
		if got := c.RollForward(D(t, "2027-01-29")); got != D(t, "2027-02-01") {
			t.Errorf("RollForward(proclaimed Fri 2027-01-29) = %s, want Mon 2027-02-01", got)
		}
		if got := c.RollForward(D(t, "2027-02-05")); got != D(t, "2027-02-05") {
			t.Errorf("RollForward(snow day Fri 2027-02-05) = %s, want it kept", got)
		}
		if c.IsBusinessDay(D(t, "2027-01-29")) {
			t.Error("the office is open on a proclaimed holiday")
		}
		// Another calendar shares the statutory days, not the proclamation.
		if got := MustCalendar(t, docket.CalendarConfig{}).RollForward(D(t, "2027-01-29")); got != D(t, "2027-01-29") {
			t.Errorf("a proclamation leaked into another calendar: %s", got)
		}
	})
	t.Run("StatutoryHolidaysTheOfficeAdds", func(t *testing.T) {
		c := MustCalendar(t, docket.CalendarConfig{Add: []string{"pulaski_day", "general_election_day", "good_friday"}})
		for s, why := range map[string]string{
			"2027-03-01": "Casimir Pulaski's Birthday",
			"2028-11-07": "General Election Day",
			"2027-03-26": "Good Friday",
		} {
			if got := c.Closure(D(t, s)); got != why {
				t.Errorf("Closure(%s) = %q, want %q", s, got, why)
			}
		}
		if !c.IsBusinessDay(D(t, "2027-11-02")) {
			t.Error("2027 has no general election (10 ILCS 5/2A-1.1: even years)")
		}
	})
	t.Run("RemoveDefaultHoliday", func(t *testing.T) {
		c := MustCalendar(t, docket.CalendarConfig{Remove: []string{"columbus_day"}})
		if !c.IsBusinessDay(D(t, "2026-10-12")) {
			t.Error("Columbus Day removed, but 2026-10-12 is still closed")
		}
		if c.IsBusinessDay(D(t, "2026-11-11")) {
			t.Error("removing Columbus Day opened Veterans Day")
		}
	})
	t.Run("Zone", func(t *testing.T) {
		c := MustCalendar(t, docket.CalendarConfig{Zone: "America/New_York"})
		if got := c.Location().String(); got != "America/New_York" {
			t.Errorf("Location() = %s", got)
		}
		if got := MustCalendar(t, docket.CalendarConfig{}).Location().String(); got != docket.DefaultZone {
			t.Errorf("default Location() = %s", got)
		}
	})
	for name, cfg := range map[string]docket.CalendarConfig{
		"ErrUnknownZone":       {Zone: "America/Springfield"},
		"ErrLocalZone":         {Zone: "Local"},
		"ErrRemoveUnknown":     {Remove: []string{"boxing_day"}},
		"ErrAddUnknown":        {Add: []string{"christmas_eve"}},
		"ErrAddDefaultAsExtra": {Add: []string{"columbus_day"}},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := docket.NewCalendar(cfg); err == nil {
				t.Fatalf("NewCalendar(%+v) succeeded, want an error", cfg)
			}
		})
	}
}

func TestBusinessDayCounting(t *testing.T) {
	c := MustCalendar(t, docket.CalendarConfig{})
	closedFriday := MustCalendar(t, docket.CalendarConfig{Add: []string{"day_after_thanksgiving"}})
	observed := MustCalendar(t, docket.CalendarConfig{Add: []string{"weekend_observance"}})
	pulaski := MustCalendar(t, docket.CalendarConfig{Add: []string{"pulaski_day"}})
	for _, tc := range []struct {
		name string
		cal  *docket.Calendar
		from string
		n    int
		want string
	}{
		{"FridayPlus3", c, "2026-12-04", 3, "2026-12-09"},
		{"FridayPlus7", c, "2026-12-04", 7, "2026-12-15"},
		{"SaturdayNeverCounts", c, "2026-12-05", 3, "2026-12-09"},
		{"SundayNeverCounts", c, "2026-12-06", 1, "2026-12-07"},
		{"HolidayNeverCounts", c, "2027-01-01", 3, "2027-01-06"},
		{"YearEnd", c, "2026-12-30", 3, "2027-01-05"},
		{"YearEnd7", c, "2026-12-30", 7, "2027-01-11"},
		// No statute fixes Fri 2027-12-31 or Fri 2027-06-18 (5 ILCS 490/63): business days,
		// unless the office closes on the federal observed days (weekend_observance).
		{"NewYearOnSaturday", c, "2027-12-28", 3, "2027-12-31"},
		{"JuneteenthOnSaturday", c, "2027-06-16", 3, "2027-06-21"},
		{"NewYearObservedOnDec31", observed, "2027-12-28", 3, "2028-01-03"},
		{"JuneteenthObserved", observed, "2027-06-16", 3, "2027-06-22"},
		{"PulaskiDayOfficeClosed", pulaski, "2027-02-25", 3, "2027-03-03"},
		{"PulaskiDayOfficeOpen", c, "2027-02-25", 3, "2027-03-02"},
		{"LincolnAndPresidents", c, "2027-02-08", 7, "2027-02-19"},
		{"Thanksgiving", c, "2026-11-25", 3, "2026-12-01"},
		{"ThanksgivingFridayClosed", closedFriday, "2026-11-25", 3, "2026-12-02"},
		{"OneDay", c, "2026-12-07", 1, "2026-12-08"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			from := D(t, tc.from)
			got := tc.cal.AddBusinessDays(from, tc.n)
			if want := D(t, tc.want); got != want {
				t.Fatalf("%d business days after %s = %s, want %s", tc.n, from.Long(), got.Long(), want.Long())
			}
			if back := tc.cal.SubBusinessDays(got, tc.n); tc.cal.IsBusinessDay(from) && back != from {
				t.Errorf("%d business days before %s = %s, want %s", tc.n, got.Long(), back.Long(), from.Long())
			}
			if n := tc.cal.BusinessDaysUntil(from, got); n != tc.n {
				t.Errorf("BusinessDaysUntil(%s, %s) = %d, want %d", from, got, n, tc.n)
			}
		})
	}
	// 5 ILCS 70/1.11 skips Saturdays, Sundays and "a holiday as defined or fixed in any
	// statute", on the day the statute fixes, and nothing else: not an office closure.
	t.Run("RollForward", func(t *testing.T) {
		snow := MustCalendar(t,
			docket.CalendarConfig{Add: []string{"weekend_observance", "good_friday"},
				Closures: []docket.Date{D(t, "2027-01-05")}, Remove: []string{"columbus_day"}})
		for _, cal := range []*docket.Calendar{c, snow} {
			for from, want := range map[string]string{
				"2026-12-04": "2026-12-04",
				"2026-12-05": "2026-12-07",
				"2027-01-01": "2027-01-04",
				"2027-01-05": "2027-01-05", // a snow day no statute fixes
				"2027-12-31": "2027-12-31", // the observed Friday of New Year's Day 2028
				"2027-06-18": "2027-06-18", // 5 ILCS 490/63: Juneteenth is not observed on Friday
				"2028-02-11": "2028-02-11", // 5 ILCS 490/60: nor Lincoln's Birthday
				"2027-03-01": "2027-03-02", // 5 ILCS 490/15: Pulaski Day, office open or not
				"2026-11-03": "2026-11-04", // 10 ILCS 5/17-25: General Election Day
				"2027-10-11": "2027-10-12", // Columbus Day (205 ILCS 630/17), though the office opens
				"2027-03-26": "2027-03-26", // Good Friday: not taken as a statutory holiday
				"2023-02-12": "2023-02-14", // Sun, then Mon 2-13 by 5 ILCS 490/60
			} {
				if got := cal.RollForward(D(t, from)); got != D(t, want) {
					t.Errorf("RollForward(%s) = %s, want %s", from, got, want)
				}
			}
		}
	})
}
