package docket

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
)

// The year's schedule of regular meetings (5 ILCS 120/2.03): "every public body shall
// give public notice of the schedule of regular meetings at the beginning of each
// calendar or fiscal year and shall state the regular dates, times, and places of such
// meetings". ethicsbot takes the schedule from the configuration (meetings.regular): the
// commission adopts it once a year, by its own vote, as a list of dates, and a list says
// exactly what 2.03 asks to be stated; a rule such as "the second Tuesday" cannot say the
// exceptions the commission makes for a holiday or an election day.
//
// A regular meeting of the schedule is a meeting of the commission before anything is
// recorded of it: WithRegular shows it beside the recorded meetings, marked Folded and
// Regular, so that it becomes a recorded meeting the first time something joins it, as a
// meeting folded from its cases does.

// RegularSchedule is the commission's schedule of regular meetings: each on one of Dates,
// at Clock after midnight (local time), at Place.
type RegularSchedule struct {
	Place string
	Clock time.Duration // the time of day the meetings start, e.g. 18h
	Dates []Date        // in order, each once
}

// NewRegularSchedule checks a schedule: a place, a time of day, and dates in order, each
// once. A refusal names 5 ILCS 120/2.03, which asks the dates, times and places.
func NewRegularSchedule(place string, clock time.Duration, dates []Date) (RegularSchedule, error) {
	if len(dates) == 0 {
		return RegularSchedule{}, nil
	}
	if err := CheckLine("place", OMASchedule, place, true, MaxName); err != nil {
		return RegularSchedule{}, Invalid(OMASchedule, "place",
			"the schedule of regular meetings states their place: give meetings.regular.place, "+
				"e.g. \"City Hall, Council Chambers\"")
	}
	if clock <= 0 || clock >= 24*time.Hour {
		return RegularSchedule{}, Invalid(OMASchedule, "time",
			"the schedule of regular meetings states their time: give meetings.regular.time, e.g. 18:00")
	}
	ds := slices.Clone(dates)
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	for i := 1; i < len(ds); i++ {
		if ds[i] == ds[i-1] {
			return RegularSchedule{}, Invalid(OMASchedule, "dates",
				fmt.Sprintf("%s is listed twice among the regular meetings; list each date once", ds[i]))
		}
	}
	return RegularSchedule{Place: place, Clock: clock, Dates: ds}, nil
}

// OMASchedule is the Open Meetings Act's section on the yearly schedule of regular meetings.
const OMASchedule = "5 ILCS 120/2.03"

// Start is when the regular meeting on d starts, in loc: at the clock's wall time, also on
// the day the clocks change (midnight plus 18 hours is 19:00 on a spring-forward day).
func (r RegularSchedule) Start(d Date, loc *time.Location) time.Time {
	y, m, day := d.Parts()
	return time.Date(y, m, day, int(r.Clock/time.Hour), int(r.Clock%time.Hour/time.Minute), 0, 0, loc)
}

// Year returns the dates of year y's regular meetings, in order.
func (r RegularSchedule) Year(y int) []Date {
	var out []Date
	for _, d := range r.Dates {
		if dy, _, _ := d.Parts(); dy == y {
			out = append(out, d)
		}
	}
	return out
}

// Years lists the years the schedule has meetings in, in order.
func (r RegularSchedule) Years() []int {
	var out []int
	for _, d := range r.Dates {
		if y, _, _ := d.Parts(); len(out) == 0 || out[len(out)-1] != y {
			out = append(out, y)
		}
	}
	return out
}

// Holidays lists the regular meetings that fall on a holiday of the calendar (the
// holidays of 5 ILCS 490 it keeps, and the commission's closures), as "Mon 2027-01-18,
// Martin Luther King Jr. Day": the Act does not forbid meeting then, but the principal
// office, where the agenda must stand posted (2.02), is closed, and the public expects no
// meeting. check-config warns of them.
func (r RegularSchedule) Holidays(c *Calendar) []string {
	var out []string
	for _, d := range r.Dates {
		if name := c.StatutoryHoliday(d); name != "" {
			out = append(out, d.Long()+", "+name)
		} else if wd := d.Weekday(); wd != time.Saturday && wd != time.Sunday && !c.IsBusinessDay(d) {
			out = append(out, d.Long()+", "+c.Closure(d))
		}
	}
	return out
}

// Holds reports whether start is the start of a regular meeting of r, in loc: the regular
// meeting 5 ILCS 120/2.01 lets be held on a legal holiday. A meeting at another hour of a
// regular meeting day is not it, nor one moved there: a rescheduled meeting is noticed as a
// special one is (2.02(a)).
func (r RegularSchedule) Holds(start time.Time, loc *time.Location) bool {
	return slices.ContainsFunc(r.Dates, func(d Date) bool { return r.Start(d, loc).Equal(start) })
}

// Equal reports whether two schedules state the same dates, time and place.
func (r RegularSchedule) Equal(o RegularSchedule) bool {
	return r.Place == o.Place && r.Clock == o.Clock && slices.Equal(r.Dates, o.Dates)
}

// WithRegular returns ms (as Fold gives them, in order of start) with the regular meetings
// of r that no meeting holds yet, each named by its date (Engine.NameMeeting) and marked
// Folded and Regular. A regular meeting is held by a meeting that starts, or started
// before it moved, at its start, wherever: a regular meeting moved to another room, or
// cancelled, is still that meeting. The result is in order of start.
func (e *Engine) WithRegular(ms []CommissionMeeting, r RegularSchedule) []CommissionMeeting {
	if len(r.Dates) == 0 {
		return ms
	}
	var taken []string
	for _, m := range ms {
		taken = append(taken, m.Name)
	}
	out := slices.Clone(ms)
	for _, d := range r.Dates {
		start := r.Start(d, e.Cal.Location())
		if slices.ContainsFunc(ms, func(m CommissionMeeting) bool { return m.HeldAt(start) }) {
			continue
		}
		name := e.NameMeeting(start, taken)
		taken = append(taken, name)
		out = append(out, CommissionMeeting{Name: name, Start: start, Place: r.Place, Folded: true, Regular: true})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Start.Equal(out[j].Start) {
			return out[i].Start.Before(out[j].Start)
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// HeldAt reports whether m is the meeting set for start: it starts then, or did before it
// was moved. A regular meeting moved to another day or room, or cancelled, is still the
// regular meeting of its date.
func (m *CommissionMeeting) HeldAt(start time.Time) bool {
	return m.Start.Equal(start) || slices.ContainsFunc(m.Moved, func(mv Moved) bool { return mv.Start.Equal(start) })
}

// IsRegular reports whether m is a regular meeting of r: not special, and held at one of
// r's meetings (HeldAt).
func (r RegularSchedule) IsRegular(m *CommissionMeeting, loc *time.Location) bool {
	return !m.Special && slices.ContainsFunc(r.Dates, func(d Date) bool { return m.HeldAt(r.Start(d, loc)) })
}

// stepBy is, for each case step held at a meeting, the ordinance's deadline by which the
// meeting must be held: the (C)(1) ruling is made at the sufficiency meeting, the (C)(2)
// hearing and the (F) public hearing have their own last days. A recessed session (E) and
// an (H) meeting have none.
var stepBy = map[MeetingKind]DeadlineID{
	SufficiencyMeeting: SufficiencyRuling,
	HearingMeeting:     HearingBy,
	PublicHearing:      PublicHearingBy,
}

// NextRegular is the regular meeting (of r, among ms as WithRegular gives them) that case
// c's step k joins with meeting=next: the first not cancelled whose agenda is still open
// at now (5 ILCS 120/2.02's 48 hours, AgendaCutoff) and that the step's own notice period
// allows (EarliestMeeting), if it is held by the step's deadline (stepBy). A later
// regular meeting would only miss the deadline by more, so when the first misses it, none
// will: the refusal names the deadline and suggests a special meeting, which 2.02 allows
// on 48 hours' notice.
func (e *Engine) NextRegular(ms []CommissionMeeting, r RegularSchedule, c *Case, k MeetingKind,
	now time.Time) (*CommissionMeeting, error) {
	if err := checkKind(k); err != nil {
		return nil, err
	}
	loc := e.Cal.Location()
	special := fmt.Sprintf("schedule a special meeting instead: `/ethics meeting <start> place=\"...\" special`, then "+
		"`/ethics schedule %s %s meeting=<its name>`", c.Number, k)
	if len(r.Dates) == 0 {
		return nil, NotFound(OMASchedule, "meeting",
			"no regular meetings are configured (meetings.regular in the configuration, the year's schedule under 5 ILCS "+
				"120/2.03); name the meeting, or "+special)
	}
	earliest := e.EarliestMeeting(k.Notice(), now)
	var next *CommissionMeeting
	for i := range ms {
		m := &ms[i]
		if m.Special || !m.Cancelled.IsZero() || !r.IsRegular(m, loc) || m.Start.Before(earliest) ||
			!now.Before(AgendaCutoff(m.Start)) {
			continue
		}
		next = m
		break
	}
	if next == nil {
		last := r.Start(r.Dates[len(r.Dates)-1], loc)
		return nil, NotFound(OMASchedule, "meeting",
			fmt.Sprintf("no regular meeting of the schedule is left with time for its 48 hours' notice (the last is %s); add "+
				"next year's dates to meetings.regular, or %s", e.shortTime(last), special))
	}
	id, ok := stepBy[k]
	if !ok {
		return next, nil
	}
	for _, d := range e.Schedule(&c.Facts, now).Deadlines {
		if d.ID != id || d.Due.IsZero() || d.Done {
			continue
		}
		if held := e.Cal.DateOf(next.Start); held > d.Due {
			return nil, Conflict(d.Rule, "meeting",
				fmt.Sprintf("the next regular meeting with time for its 48 hours' notice, %s on %s, is after the %s deadline, %s "+
					"(%s): the %s must be held by then; %s",
					next.Name, held.Long(), strings.ReplaceAll(string(d.ID), "_", " "), d.Due.Long(), d.Rule, k.Name(), special))
		}
	}
	return next, nil
}

// AdoptSchedule records that the commission, at this meeting, adopted by its vote the
// schedule of its regular meetings for Year (5 ILCS 120/2.03): the dates, time and place
// the configuration (meetings.regular) holds for that year when the clerk records it. It
// is taken up under an item of other business of the posted agenda, decided by the motion
// recorded on it (2.02(c)). A later adoption for the same year is a change of the schedule.
type AdoptSchedule struct {
	Item  int           `json:"item"`
	Year  int           `json:"year"`
	Place string        `json:"place"`
	Clock time.Duration `json:"clock"`
	Dates []Date        `json:"dates"`
}

// AdoptedSchedule is an adoption recorded at a meeting (CommissionMeeting.Adopted).
type AdoptedSchedule struct {
	AdoptSchedule
	At time.Time `json:"at"`
}

// Kind implements MeetingAction.
func (AdoptSchedule) Kind() string { return "schedule_adopted" }

func (a AdoptSchedule) applyMeeting(e *Engine, m *CommissionMeeting, at time.Time) error {
	if m.Minutes.Convened.IsZero() || m.Minutes.Convened.After(at) {
		return Conflict(OMASchedule, "meeting",
			fmt.Sprintf("meeting %s has not been called to order: the schedule is adopted by a vote at a meeting", m.Name))
	}
	how := fmt.Sprintf("put the adoption on the agenda of a meeting (`/ethics agenda %s add Adoption of the %d "+
		"schedule of regular meetings`, before its 48 hours), record the vote on it (`/ethics minutes %s motion item=N "+
		"\"To adopt the schedule of regular meetings for %d\"`), then `/ethics minutes %s adopted-schedule item=N "+
		"year=%d`", m.Name, a.Year, m.Name, a.Year, m.Name, a.Year)
	if err := m.decidedItem(e, a.Item, OMASchedule, "adoption of the schedule", how); err != nil {
		return err
	}
	if held, _, _ := e.Cal.DateOf(m.Minutes.Convened).Parts(); a.Year < held || a.Year > held+1 {
		return Invalid(OMASchedule, "year", fmt.Sprintf("a meeting of %d adopts the schedule of %d or %d, not of %d",
			held, held, held+1, a.Year))
	}
	r, err := NewRegularSchedule(a.Place, a.Clock, a.Dates)
	if err != nil {
		return err
	}
	if len(r.Dates) == 0 || len(r.Year(a.Year)) != len(r.Dates) {
		return Invalid(OMASchedule, "year", fmt.Sprintf("the schedule adopted for %d lists the dates of %d's regular "+
			"meetings, and only those: enter them in meetings.regular and reload first", a.Year, a.Year))
	}
	if slices.ContainsFunc(m.Adopted, func(o AdoptedSchedule) bool { return o.Year == a.Year }) {
		return Conflict(OMASchedule, "year", fmt.Sprintf("the adoption of the %d schedule is already recorded at "+
			"meeting %s", a.Year, m.Name))
	}
	m.Adopted = append(m.Adopted, AdoptedSchedule{AdoptSchedule: a, At: at.In(e.Cal.Location())})
	return nil
}

// Words is the adoption as the minutes of the meeting report it.
func (a AdoptedSchedule) Words(loc *time.Location) string {
	var days []string
	for _, d := range a.Dates {
		days = append(days, d.In(loc).Format("Mon 2 Jan"))
	}
	return fmt.Sprintf("The commission adopted the schedule of its regular meetings for %d (5 ILCS 120/2.03): at %s, "+
		"%s, on %s.", a.Year, time.Time{}.Add(a.Clock).Format("15:04"), a.Place, strings.Join(days, ", "))
}

// ScheduleAdopted is the latest adoption among ms of year's schedule, if any.
func ScheduleAdopted(ms []CommissionMeeting, year int) (AdoptedSchedule, bool) {
	var out AdoptedSchedule
	for i := range ms {
		for _, a := range ms[i].Adopted {
			if a.Year == year && a.At.After(out.At) {
				out = a
			}
		}
	}
	return out, !out.At.IsZero()
}

// ScheduleHeadsUp is the day of the year from which the clerk is reminded that next year's
// schedule is to be adopted: 1 November leaves the commission's last one or two regular
// meetings of the year to vote on it, and the clerk time to notice it "at the beginning of
// each calendar ... year" (2.03).
const ScheduleHeadsUp = 11 // November

// NextScheduleDue says, at today, whether next year's schedule of regular meetings is
// still to be adopted, and by when, where a schedule r is configured at all: from 1 November (ScheduleHeadsUp) until an adoption of
// next year's schedule is recorded among ms, due the day of the last regular meeting of
// this year's schedule r still to come (the last chance to adopt it at a regular meeting),
// or on 31 December when none is left, a special meeting being the way.
func NextScheduleDue(r RegularSchedule, ms []CommissionMeeting, today Date) (year int, from, due Date, ok bool) {
	y, _, _ := today.Parts()
	from = NewDate(y, ScheduleHeadsUp, 1)
	// A commission that keeps no schedule here (no meetings.regular) keeps it elsewhere:
	// it is not reminded of what ethicsbot does not hold.
	if today < from || len(r.Dates) == 0 {
		return 0, 0, 0, false
	}
	if _, adopted := ScheduleAdopted(ms, y+1); adopted {
		return 0, 0, 0, false
	}
	due = NewDate(y, 12, 31)
	if ds := r.Year(y); len(ds) > 0 && ds[len(ds)-1] >= today {
		due = ds[len(ds)-1]
	}
	return y + 1, from, due, true
}

// ScheduleChangeNotice is how many days ahead a change of the regular meeting dates is
// published in a newspaper: "at least 10 days' notice of such change shall be given by
// publication in a newspaper of general circulation in the area" (2.03).
const ScheduleChangeNotice = 10

// CheckScheduleChange refuses a change from schedule old to next that reaches a regular
// meeting fewer than ScheduleChangeNotice days after today (a date added or dropped, or
// the time or place of one changed; the dates of a year old had none of are next year's
// schedule, not a change), which 2.03 does not allow; otherwise it returns the
// first day a meeting changes, whose newspaper notice is due ScheduleChangeNotice days
// before it (zero when nothing to come changes).
func CheckScheduleChange(old, next RegularSchedule, today Date) (Date, error) {
	var changed []Date
	same := old.Place == next.Place && old.Clock == next.Clock
	for _, d := range old.Dates {
		if d >= today && (!same || !slices.Contains(next.Dates, d)) {
			changed = append(changed, d)
		}
	}
	for _, d := range next.Dates {
		// A year whose dates old held none of is a new year's schedule, noticed "at the
		// beginning of each calendar ... year" (2.03), not a change of regular meeting dates.
		y, _, _ := d.Parts()
		if d >= today && len(old.Year(y)) > 0 && (!same || !slices.Contains(old.Dates, d)) {
			changed = append(changed, d)
		}
	}
	if len(changed) == 0 {
		return 0, nil
	}
	slices.Sort(changed)
	first := changed[0]
	if first < today.AddDays(ScheduleChangeNotice) {
		return 0, Conflict(OMASchedule, "meetings.regular",
			fmt.Sprintf("the change reaches the regular meeting of %s, fewer than %d days away: a change of the regular "+
				"meeting dates is published in a newspaper at least %d days ahead. Leave that meeting as it is and "+
				"cancel it (/ethics cancel) or hold a special meeting instead (/ethics meeting <start> special), and change "+
				"only meetings from %s on", first.Long(), ScheduleChangeNotice, ScheduleChangeNotice,
				today.AddDays(ScheduleChangeNotice).Long()))
	}
	return first, nil
}
