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

// Start is when the regular meeting on d starts, in loc.
func (r RegularSchedule) Start(d Date, loc *time.Location) time.Time {
	y, m, day := d.Parts()
	return time.Date(y, m, day, 0, 0, 0, 0, loc).Add(r.Clock)
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
