package docket

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/rickar/cal/v2"
	"github.com/rickar/cal/v2/us"
)

// DefaultZone is the commission's time zone unless configured otherwise.
const DefaultZone = "America/Chicago"

// weekendShift is the observance rule for fixed-date holidays: a Saturday holiday is
// observed the Friday before, a Sunday holiday the Monday after.
var weekendShift = []cal.AltDay{{Day: time.Saturday, Offset: -1}, {Day: time.Sunday, Offset: 1}}

// Holiday is a recurring day on which the commission's office is closed. Its dates and
// observance come from rickar/cal.
type Holiday struct {
	ID  string // stable name used in configuration, e.g. "columbus_day"
	Def *cal.Holiday
}

// DefaultHolidays are the closures a business day skips unless configured otherwise:
// the US federal holidays plus Lincoln's Birthday, from Illinois' state list.
var DefaultHolidays = []Holiday{
	{"new_years_day", us.NewYear},
	{"mlk_day", us.MlkDay},
	{"lincolns_birthday", &cal.Holiday{Name: "Lincoln's Birthday", Type: cal.ObservancePublic,
		Month: time.February, Day: 12, Observed: weekendShift, Func: cal.CalcDayOfMonth}},
	{"presidents_day", us.PresidentsDay},
	{"memorial_day", us.MemorialDay},
	{"juneteenth", us.Juneteenth},
	{"independence_day", us.IndependenceDay},
	{"labor_day", us.LaborDay},
	{"columbus_day", us.ColumbusDay},
	{"veterans_day", us.VeteransDay},
	{"thanksgiving_day", us.ThanksgivingDay},
	{"christmas_day", us.ChristmasDay},
}

// OptionalHolidays are recurring closures a commission may add by ID.
var OptionalHolidays = []Holiday{
	{"day_after_thanksgiving", us.DayAfterThanksgivingDay},
}

// CalendarConfig says which days the commission's office is closed, and where it is.
type CalendarConfig struct {
	Zone     string   // IANA zone; "" means DefaultZone
	Remove   []string // IDs of DefaultHolidays the commission does not observe
	Add      []string // IDs of OptionalHolidays it does observe
	Closures []Date   // one-off closures, e.g. a snow day
}

// Calendar knows the commission's business days and time zone. It is immutable after
// NewCalendar, so one Calendar serves every goroutine.
type Calendar struct {
	loc    *time.Location
	first  Date
	closed []uint64        // bit per day from first: closed for a holiday or closure
	names  map[Date]string // why a closed weekday is closed
}

// Holidays are computed for these years; beyond them only weekends are closed. Input dates
// are limited to MinYear..MaxYear, and the margin covers periods counted past either end.
const (
	calFirstYear = MinYear - 2
	calLastYear  = MaxYear + 2
)

// NewCalendar builds the calendar described by cfg. Unknown holiday IDs and unknown zones
// are errors naming what was wrong.
func NewCalendar(cfg CalendarConfig) (*Calendar, error) {
	zone := cfg.Zone
	if zone == "" {
		zone = DefaultZone
	}
	loc, err := time.LoadLocation(zone)
	if err != nil || zone == "Local" {
		return nil, fmt.Errorf("time zone %q is not a known IANA zone such as %s", zone, DefaultZone)
	}
	holidays, err := chooseHolidays(cfg.Remove, cfg.Add)
	if err != nil {
		return nil, err
	}
	c := &Calendar{
		loc:   loc,
		first: NewDate(calFirstYear, time.January, 1),
		names: make(map[Date]string),
	}
	last := NewDate(calLastYear, time.December, 31)
	c.closed = make([]uint64, (int(last-c.first)+64)/64)
	for _, h := range holidays {
		for y := calFirstYear; y <= calLastYear; y++ {
			actual, observed := h.Def.Calc(y)
			if observed.IsZero() {
				continue
			}
			d := NewDate(observed.Date())
			name := h.Def.Name
			if !sameDay(actual, observed) {
				name += " (observed)"
			}
			c.close(d, name)
		}
	}
	for _, d := range cfg.Closures {
		if d.IsZero() {
			return nil, fmt.Errorf("a closure day is missing its date")
		}
		c.close(d, "office closed")
	}
	return c, nil
}

func sameDay(a, b time.Time) bool {
	ay, am, ad := a.Date()
	by, bm, bd := b.Date()
	return ay == by && am == bm && ad == bd
}

func chooseHolidays(remove, add []string) ([]Holiday, error) {
	var out []Holiday
	for _, h := range DefaultHolidays {
		if !slices.Contains(remove, h.ID) {
			out = append(out, h)
		}
	}
	for _, id := range remove {
		if !slices.ContainsFunc(DefaultHolidays, func(h Holiday) bool { return h.ID == id }) {
			return nil, fmt.Errorf("cannot remove holiday %q: the default holidays are %s", id, holidayIDs(DefaultHolidays))
		}
	}
	for _, id := range add {
		i := slices.IndexFunc(OptionalHolidays, func(h Holiday) bool { return h.ID == id })
		if i < 0 {
			return nil, fmt.Errorf("cannot add holiday %q: the optional holidays are %s (list one-off closures by date)", id, holidayIDs(OptionalHolidays))
		}
		out = append(out, OptionalHolidays[i])
	}
	return out, nil
}

func holidayIDs(hs []Holiday) string {
	ids := make([]string, len(hs))
	for i, h := range hs {
		ids[i] = h.ID
	}
	sort.Strings(ids)
	return strings.Join(ids, ", ")
}

// close marks d closed. A weekend day keeps "Saturday"/"Sunday" as its reason.
func (c *Calendar) close(d Date, name string) {
	i := int(d - c.first)
	if i < 0 || i >= len(c.closed)*64 {
		return
	}
	c.closed[i/64] |= 1 << (i % 64)
	if prev, ok := c.names[d]; ok && prev != name {
		name = prev + "; " + name
	}
	c.names[d] = name
}

// Location returns the commission's time zone.
func (c *Calendar) Location() *time.Location { return c.loc }

// DateOf returns the local date of instant t in the commission's zone.
func (c *Calendar) DateOf(t time.Time) Date { return DateIn(t, c.loc) }

// IsBusinessDay reports whether d is Monday to Friday and not a holiday or closure.
func (c *Calendar) IsBusinessDay(d Date) bool {
	if wd := d.Weekday(); wd == time.Saturday || wd == time.Sunday {
		return false
	}
	i := int(d - c.first)
	if i < 0 || i >= len(c.closed)*64 {
		return true
	}
	return c.closed[i/64]&(1<<(i%64)) == 0
}

// Closure says why d is not a business day ("a weekend", "New Year's Day (observed)"),
// and "" for a business day.
func (c *Calendar) Closure(d Date) string {
	if c.IsBusinessDay(d) {
		return ""
	}
	if name, ok := c.names[d]; ok {
		return name
	}
	return "a weekend"
}

// AddBusinessDays returns the nth business day strictly after d. d itself never counts,
// business day or not. n must be at least 1.
func (c *Calendar) AddBusinessDays(d Date, n int) Date {
	for n > 0 {
		d++
		if c.IsBusinessDay(d) {
			n--
		}
	}
	return d
}

// SubBusinessDays returns the nth business day strictly before d.
func (c *Calendar) SubBusinessDays(d Date, n int) Date {
	for n > 0 {
		d--
		if c.IsBusinessDay(d) {
			n--
		}
	}
	return d
}

// RollForward returns d if it is a business day, else the next business day after it
// (5 ILCS 70/1.11).
func (c *Calendar) RollForward(d Date) Date {
	for !c.IsBusinessDay(d) {
		d++
	}
	return d
}

// BusinessDaysUntil counts the business days after from up to and including to: 0 when to
// is from or a closed day right after it, negative when to is before from.
func (c *Calendar) BusinessDaysUntil(from, to Date) int {
	if to < from {
		return -c.BusinessDaysUntil(to, from)
	}
	n := 0
	for d := from + 1; d <= to; d++ {
		if c.IsBusinessDay(d) {
			n++
		}
	}
	return n
}
