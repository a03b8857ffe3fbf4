package docket

import (
	"fmt"
	"time"
)

// Date is a calendar date with no time of day: a local date in the commission's time zone.
// The ordinance counts its periods in dates, so deadlines are Dates; instants are converted
// to a Date with Calendar.DateOf before any counting.
//
// A Date is a day number, so Dates compare with < and == and add with AddDays. The zero
// Date means "no date".
type Date int32

// unixShift is the Date of 1970-01-01 (Date(1) is 0001-01-01).
const unixShift = 719163

// Years outside this span are refused on input: they are typing mistakes, not complaints.
const (
	MinYear = 1900
	MaxYear = 2200
)

// NewDate returns the Date for year, month and day, normalising overflow as time.Date does
// (Feb 29 in a common year becomes Mar 1): for counting years, use AddYears.
func NewDate(year int, month time.Month, day int) Date {
	return dateOfUTC(time.Date(year, month, day, 0, 0, 0, 0, time.UTC))
}

func dateOfUTC(t time.Time) Date {
	return Date(t.Unix()/86400 + unixShift)
}

// DateIn returns t's local date in loc.
func DateIn(t time.Time, loc *time.Location) Date {
	y, m, d := t.In(loc).Date()
	return NewDate(y, m, d)
}

// ParseDate reads a date written YYYY-MM-DD. Impossible dates such as 2026-02-30 are refused.
func ParseDate(s string) (Date, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a date written YYYY-MM-DD", s)
	}
	if y := t.Year(); y < MinYear || y > MaxYear {
		return 0, fmt.Errorf("%q is outside the years %d to %d", s, MinYear, MaxYear)
	}
	return dateOfUTC(t), nil
}

// IsZero reports whether d is the zero Date, "no date".
func (d Date) IsZero() bool { return d == 0 }

// utc returns midnight UTC of d, for formatting and field access only.
func (d Date) utc() time.Time { return time.Unix((int64(d)-unixShift)*86400, 0).UTC() }

// Parts returns d's year, month and day.
func (d Date) Parts() (year int, month time.Month, day int) { return d.utc().Date() }

// Weekday returns d's day of the week.
func (d Date) Weekday() time.Weekday {
	// 1970-01-01 was a Thursday.
	return time.Weekday(((int64(d)-unixShift)%7 + 7 + int64(time.Thursday)) % 7)
}

// AddDays returns the date n calendar days after d (before it if n < 0).
func (d Date) AddDays(n int) Date { return d + Date(n) }

// AddYears returns the same month and day n years later. 29 February in a year without
// one becomes 28 February: a year counted from 29 February ends on the last day of
// February, as a calendar year from 1 March ends on 28 February and as the common law
// reckons a leap day. time.Time.AddDate, which gives 1 March, is not used for years.
func (d Date) AddYears(n int) Date {
	y, m, day := d.Parts()
	if m == time.February && day == 29 {
		return NewDate(y+n, time.March, 1).AddDays(-1) // the last day of February
	}
	return NewDate(y+n, m, day)
}

// In returns the instant at which d begins in loc: its midnight, or, where the clocks go
// forward at midnight (America/Santiago, America/Havana) and d has none, the instant they
// do, for which time.Date would give the previous day's 23:00.
func (d Date) In(loc *time.Location) time.Time {
	y, m, day := d.Parts()
	t := time.Date(y, m, day, 0, 0, 0, 0, loc)
	if DateIn(t, loc) < d {
		_, t = t.ZoneBounds() // the end of the zone in force the day before: d's first instant
	}
	return t
}

// String formats d as YYYY-MM-DD, and the zero Date as "".
func (d Date) String() string {
	if d.IsZero() {
		return ""
	}
	return d.utc().Format(time.DateOnly)
}

// Long formats d with its weekday, as a clerk reads it: "Fri 2026-12-04".
func (d Date) Long() string { return d.utc().Format("Mon 2006-01-02") }

// Short formats d for messages: "Wed 9 Dec".
func (d Date) Short() string { return d.utc().Format("Mon 2 Jan") }

// ShortFrom formats d for a message read on today: "Wed 9 Dec" within today's year, and
// "Mon 4 Jan 2027" outside it, so that a deadline across the new year is not read as one
// in January of this year.
func (d Date) ShortFrom(today Date) string {
	if d.utc().Year() == today.utc().Year() {
		return d.Short()
	}
	return d.utc().Format("Mon 2 Jan 2006")
}

// ShortTime formats t in loc for a message read at now: "Mon 2 Jan at 15:04 MST" within
// now's year, with the year added outside it, as ShortFrom does for dates.
func ShortTime(t, now time.Time, loc *time.Location) string {
	t = t.In(loc)
	if t.Year() == now.In(loc).Year() {
		return t.Format("Mon 2 Jan 15:04 MST")
	}
	return t.Format("Mon 2 Jan 2006 15:04 MST")
}

// MarshalText writes d as YYYY-MM-DD.
func (d Date) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads a date written YYYY-MM-DD.
func (d *Date) UnmarshalText(b []byte) error {
	v, err := ParseDate(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}
