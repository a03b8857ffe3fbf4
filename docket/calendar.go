package docket

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/rickar/cal/v2"
	"github.com/rickar/cal/v2/aa"
	"github.com/rickar/cal/v2/us"
)

// DefaultZone is the commission's time zone unless configured otherwise.
const DefaultZone = "America/Chicago"

// Two calendars count the ordinance's periods, and both are data:
//
//   - Business days are the days the commission's office is open: Monday to Friday, except
//     the statutory holidays the office closes for, on the days their statutes fix, and the
//     closures the configuration adds (an observed Friday, Pulaski Day, a snow day).
//   - The 5 ILCS 70/1.11 roll moves the last day of a period counted in days, weeks or
//     years past "Saturday or Sunday or ... a holiday as defined or fixed in any statute now
//     or hereafter in force in this State", and past each such day that follows. It skips
//     nothing else: an office closure that no statute fixes does not extend a period.

// sundayToMonday is Lincoln's Birthday's observance (5 ILCS 490/60): "When February twelfth
// shall fall on a Sunday, the following Monday shall be held and considered the holiday."
// No Illinois statute moves a Saturday holiday to the Friday before; Juneteenth's says so
// expressly (5 ILCS 490/63).
var sundayToMonday = []cal.AltDay{{Day: time.Sunday, Offset: 1}}

// weekendShift is the federal observance rule (5 U.S.C. 6103(b)): a Saturday holiday is
// observed the Friday before, a Sunday holiday the Monday after. No Illinois statute fixes
// these days, so they are office closures only, added by the weekend_observance option.
var weekendShift = []cal.AltDay{{Day: time.Saturday, Offset: -1}, {Day: time.Sunday, Offset: 1}}

// Holiday is a recurring day: a statutory holiday, or a recurring office closure.
type Holiday struct {
	ID      string // stable name used in configuration, e.g. "columbus_day"
	Def     *cal.Holiday
	Statute string // the Illinois statute that fixes it; "" for an office closure only
	Office  bool   // the office closes for it unless configured otherwise
}

// asFixed returns h with the observance its statute gives, in place of rickar/cal's
// federal one.
func asFixed(h *cal.Holiday, observed []cal.AltDay) *cal.Holiday {
	c := *h
	c.Observed = observed
	return &c
}

// generalElectionDay is the day of the general election for members of the House of
// Representatives, a holiday under 10 ILCS 5/17-25: the Tuesday next after the first
// Monday in November of even-numbered years (10 ILCS 5/2A-1.1).
var generalElectionDay = &cal.Holiday{Name: "General Election Day", Type: cal.ObservancePublic, Month: time.November,
	Func: func(_ *cal.Holiday, year int) time.Time {
		if year%2 != 0 {
			return time.Time{}
		}
		d := time.Date(year, time.November, 1, 0, 0, 0, 0, cal.DefaultLoc)
		for d.Weekday() != time.Monday {
			d = d.AddDate(0, 0, 1)
		}
		return d.AddDate(0, 0, 1)
	}}

// pulaskiDay is Casimir Pulaski's Birthday, the first Monday in March (5 ILCS 490/15).
var pulaskiDay = &cal.Holiday{Name: "Casimir Pulaski's Birthday", Type: cal.ObservancePublic,
	Month: time.March, Weekday: time.Monday, Offset: 1, Func: cal.CalcWeekdayOffset}

// StatutoryHolidays are the holidays Illinois statutes fix, on the days they fix: the days
// the 5 ILCS 70/1.11 roll skips. The office closes for those marked Office unless
// configured otherwise. The list in 205 ILCS 630/17 is the source for each day; the
// section of the State Commemorative Dates Act (5 ILCS 490) is given where it sets the
// observance. Good Friday, also on that list, is left out: see GoodFriday.
var StatutoryHolidays = []Holiday{
	{"new_years_day", asFixed(us.NewYear, nil), "205 ILCS 630/17", true},
	{"mlk_day", us.MlkDay, "205 ILCS 630/17", true},
	{"lincolns_birthday", &cal.Holiday{Name: "Lincoln's Birthday", Type: cal.ObservancePublic,
		Month: time.February, Day: 12, Observed: sundayToMonday, Func: cal.CalcDayOfMonth}, "5 ILCS 490/60", true},
	{"presidents_day", us.PresidentsDay, "205 ILCS 630/17", true},
	{"pulaski_day", pulaskiDay, "5 ILCS 490/15", false},
	{"memorial_day", us.MemorialDay, "205 ILCS 630/17", true},
	{"juneteenth", asFixed(us.Juneteenth, nil), "5 ILCS 490/63", true},
	{"independence_day", asFixed(us.IndependenceDay, nil), "205 ILCS 630/17", true},
	{"labor_day", us.LaborDay, "205 ILCS 630/17", true},
	{"columbus_day", us.ColumbusDay, "205 ILCS 630/17", true},
	{"veterans_day", asFixed(us.VeteransDay, nil), "205 ILCS 630/17", true},
	{"general_election_day", generalElectionDay, "10 ILCS 5/17-25", false},
	{"thanksgiving_day", us.ThanksgivingDay, "205 ILCS 630/17", true},
	{"christmas_day", asFixed(us.ChristmasDay, nil), "205 ILCS 630/17", true},
}

// GoodFriday is on the lists of 205 ILCS 630/17 and 10 ILCS 5/1-6(b), but whether it is
// "a holiday as defined or fixed in any statute" for 5 ILCS 70/1.11 is unsettled: the bank
// act only lets banks close, the Election Code's list is for that Code alone, no section
// of the State Commemorative Dates Act fixes it, State offices stay open, and a Good
// Friday school holiday was held unconstitutional (Metzl v. Leininger, 57 F.3d 618 (7th
// Cir. 1995)). ethicsbot takes the reading that sets the earlier deadline: Good Friday
// does not extend a period. An office that closes on it adds good_friday.
var GoodFriday = Holiday{"good_friday",
	aa.GoodFriday.Clone(&cal.Holiday{Name: "Good Friday", Type: cal.ObservancePublic}), "", false}

// weekendObservance is the option that closes the office on the federal observed days of
// the fixed-date holidays it closes for (weekendShift).
const weekendObservance = "weekend_observance"

// DefaultHolidays are the statutory holidays the office closes for unless configured
// otherwise.
var DefaultHolidays = func() []Holiday {
	var out []Holiday
	for _, h := range StatutoryHolidays {
		if h.Office {
			out = append(out, h)
		}
	}
	return out
}()

// OptionalHolidays are recurring office closures a commission may add by ID: statutory
// holidays the office does not close for by default, and days no statute fixes.
var OptionalHolidays = []Holiday{
	{"day_after_thanksgiving", us.DayAfterThanksgivingDay, "", false},
	GoodFriday,
	StatutoryHolidays[slices.IndexFunc(StatutoryHolidays, func(h Holiday) bool { return h.ID == "pulaski_day" })],
	StatutoryHolidays[slices.IndexFunc(StatutoryHolidays, func(h Holiday) bool { return h.ID == "general_election_day" })],
	{weekendObservance, nil, "", false},
}

// CalendarConfig says which days the commission's office is closed, and where it is. Its
// closures change business days only: the 5 ILCS 70/1.11 roll follows the statutes alone,
// and the days proclaimed under them.
type CalendarConfig struct {
	Zone     string   // IANA zone; "" means DefaultZone
	Remove   []string // IDs of DefaultHolidays the office does not close for
	Add      []string // IDs of OptionalHolidays it does close for
	Closures []Date   // one-off closures, e.g. a snow day
	// Proclaimed are days the Governor proclaims legal holidays (205 ILCS 630/17): holidays
	// defined by statute, so the 5 ILCS 70/1.11 roll skips them, and the office is closed.
	Proclaimed []Date
}

// Calendar knows the commission's business days, the statutory holidays and its time
// zone. It is immutable after NewCalendar, so one Calendar serves every goroutine.
type Calendar struct {
	loc       *time.Location
	first     Date
	closed    []uint64        // bit per day from first: the office is closed
	statutory []uint64        // bit per day from first: a statutory holiday (5 ILCS 70/1.11)
	names     map[Date]string // why a closed weekday is closed
	holidays  map[Date]string // which statutory holiday a day is (shared, read-only)
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
	holidays, observe, err := chooseHolidays(cfg.Remove, cfg.Add)
	if err != nil {
		return nil, err
	}
	c := &Calendar{
		loc:   loc,
		first: NewDate(calFirstYear, time.January, 1),
		names: make(map[Date]string),
	}
	// The statutory holidays are the same for every commission: computed once, shared.
	c.statutory, c.holidays = statutoryDays()
	c.closed = make([]uint64, len(c.statutory))
	if len(cfg.Proclaimed) > 0 {
		// A copy of the shared days, with the proclaimed ones added.
		bits, names := slices.Clone(c.statutory), maps.Clone(c.holidays)
		for _, d := range cfg.Proclaimed {
			if d.IsZero() {
				return nil, fmt.Errorf("a proclaimed holiday is missing its date")
			}
			if c.set(bits, d) {
				names[d] = "a legal holiday proclaimed by the Governor"
			}
			c.close(d, "a legal holiday proclaimed by the Governor")
		}
		c.statutory, c.holidays = bits, names
	}
	for _, h := range holidays {
		each(h.Def, func(d Date, name string) { c.close(d, name) })
		if observe && h.Def.Day != 0 && h.Def.Offset == 0 { // a fixed-date holiday
			each(asFixed(h.Def, weekendShift), func(d Date, name string) {
				if strings.HasSuffix(name, "(observed)") {
					c.close(d, name)
				}
			})
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

// each calls f with every day holiday h falls on in the calendar's years, and its name.
func each(h *cal.Holiday, f func(d Date, name string)) {
	for y := calFirstYear; y <= calLastYear; y++ {
		actual, observed := h.Calc(y)
		if observed.IsZero() {
			continue
		}
		name := h.Name
		if !sameDay(actual, observed) {
			name += " (observed)"
		}
		f(NewDate(observed.Date()), name)
	}
}

// statutoryDays returns the days of StatutoryHolidays in the calendar's years, as bits
// from its first day and by name. They are read-only once built.
var statutoryDays = sync.OnceValues(func() ([]uint64, map[Date]string) {
	first, last := NewDate(calFirstYear, time.January, 1), NewDate(calLastYear, time.December, 31)
	bits, names := make([]uint64, (int(last-first)+64)/64), make(map[Date]string)
	for _, h := range StatutoryHolidays {
		each(h.Def, func(d Date, name string) {
			i := int(d - first)
			if i >= 0 && i < len(bits)*64 {
				bits[i/64] |= 1 << (i % 64)
				names[d] = name
			}
		})
	}
	return bits, names
})

func sameDay(a, b time.Time) bool {
	ay, am, ad := a.Date()
	by, bm, bd := b.Date()
	return ay == by && am == bm && ad == bd
}

// chooseHolidays returns the recurring closures of the office, and whether it also closes
// on the federal observed days.
func chooseHolidays(remove, add []string) ([]Holiday, bool, error) {
	var out []Holiday
	for _, h := range DefaultHolidays {
		if !slices.Contains(remove, h.ID) {
			out = append(out, h)
		}
	}
	for _, id := range remove {
		if !slices.ContainsFunc(DefaultHolidays, func(h Holiday) bool { return h.ID == id }) {
			return nil, false, fmt.Errorf("cannot remove holiday %q: the default holidays are %s", id,
				holidayIDs(DefaultHolidays))
		}
	}
	observe := false
	for _, id := range add {
		i := slices.IndexFunc(OptionalHolidays, func(h Holiday) bool { return h.ID == id })
		if i < 0 {
			return nil, false, fmt.Errorf("cannot add holiday %q: the optional holidays are %s (list one-off closures by date)",
				id, holidayIDs(OptionalHolidays))
		}
		if id == weekendObservance {
			observe = true
			continue
		}
		out = append(out, OptionalHolidays[i])
	}
	return out, observe, nil
}

func holidayIDs(hs []Holiday) string {
	ids := make([]string, len(hs))
	for i, h := range hs {
		ids[i] = h.ID
	}
	sort.Strings(ids)
	return strings.Join(ids, ", ")
}

// set sets d's bit in bits, reporting whether d is within the calendar's years.
func (c *Calendar) set(bits []uint64, d Date) bool {
	i := int(d - c.first)
	if i < 0 || i >= len(bits)*64 {
		return false
	}
	bits[i/64] |= 1 << (i % 64)
	return true
}

func (c *Calendar) has(bits []uint64, d Date) bool {
	i := int(d - c.first)
	if i < 0 || i >= len(bits)*64 {
		return false
	}
	return bits[i/64]&(1<<(i%64)) != 0
}

// close marks d closed. A weekend day keeps "Saturday"/"Sunday" as its reason.
func (c *Calendar) close(d Date, name string) {
	if !c.set(c.closed, d) {
		return
	}
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
	return !c.has(c.closed, d)
}

// StatutoryHoliday names the statutory holiday d is, on the day its statute fixes
// ("Casimir Pulaski's Birthday"), and "" when d is none.
func (c *Calendar) StatutoryHoliday(d Date) string {
	if !c.has(c.statutory, d) {
		return ""
	}
	return c.holidays[d]
}

// Excluded says why 5 ILCS 70/1.11 excludes d as a last day ("a weekend", "Lincoln's
// Birthday"), and "" when d may be a last day.
func (c *Calendar) Excluded(d Date) string {
	if wd := d.Weekday(); wd == time.Saturday || wd == time.Sunday {
		return "a weekend"
	}
	return c.StatutoryHoliday(d)
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

// RollForward returns the last day of a period counted in days, weeks or years whose
// count lands on d (5 ILCS 70/1.11): d itself unless it is a Saturday, a Sunday or a
// statutory holiday, else the next day that is none of these. An office closure that no
// statute fixes does not move it.
func (c *Calendar) RollForward(d Date) Date {
	for c.Excluded(d) != "" {
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
