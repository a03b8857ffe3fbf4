package reminders

import (
	"context"
	"strconv"
	"time"

	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// The clocks of a meeting's minutes (5 ILCS 120/2.06), reminded to the clerk
// and the docket channel as the ordinance's own date deadlines are (deadlineSteps): before,
// on and after the day, until done.
//   - The minutes of a meeting are approved "within 30 days after that meeting or at the
//     public body's second subsequent regular meeting, whichever is later" (2.06(b)):
//     done when a roll call approves them.
//   - Approved open minutes are public "within 10 days after the approval" (2.06(b)):
//     done when they are on the board (/ethics minutes <meeting> publish).
//   - The commission reviews the minutes of its closed meetings "no less than
//     semi-annually" (2.06(d)): done when a review is recorded at a meeting.
//   - Next year's schedule of regular meetings is adopted and noticed "at the beginning of
//     each calendar year" (2.03): from 1 November, due at the year's last regular meeting
//     (docket.NextScheduleDue), done when its adoption is recorded at a meeting.

// The series of the minutes' reminders.
const (
	MinutesApprovalSeries = "minutes-approval"
	MinutesPublicSeries   = "minutes-public"
	ClosedReviewSeries    = "closed-minutes-review"
	ScheduleSeries        = "regular-schedule-adoption"
)

// RecordedMeetings gives the sweep the meetings of the commission as recorded, without the
// case steps folded into them (store.Store does): all the minutes' clocks need.
type RecordedMeetings interface {
	RecordedMeetings(ctx context.Context) ([]docket.CommissionMeeting, error)
}

// minutesClock is one clock of the minutes, as a reminder says it.
type minutesClock struct {
	series  string
	meeting string      // "" for the review, which is of every closed meeting; the year for the schedule
	from    docket.Date // the schedule's: the day its reminders start
	due     docket.Date
}

// minutesClocks are the clocks of the commission's meetings ms that are running at today:
// minutes held and not approved, approved and not public, the next review of the closed
// minutes, and next year's schedule of regular meetings.
func (p *Planner) minutesClocks(ms []docket.CommissionMeeting, today docket.Date) []minutesClock {
	cal := p.Engine.Cal
	var out []minutesClock
	for i := range ms {
		m := &ms[i]
		if m.Folded || !m.Cancelled.IsZero() || m.Minutes.Convened.IsZero() {
			continue
		}
		if m.Minutes.Approved.IsZero() {
			due, _ := m.ApprovalDue(cal, ms)
			out = append(out, minutesClock{series: MinutesApprovalSeries, meeting: m.Name, due: due})
		} else if m.Published.IsZero() {
			due, _ := m.PublishedBy(cal)
			out = append(out, minutesClock{series: MinutesPublicSeries, meeting: m.Name, due: due})
		}
	}
	if due := docket.ReviewDue(ms, cal); !due.IsZero() {
		out = append(out, minutesClock{series: ClosedReviewSeries, due: due})
	}
	if year, from, due, ok := docket.NextScheduleDue(p.Regular, ms, today); ok {
		out = append(out, minutesClock{series: ScheduleSeries, meeting: strconv.Itoa(year), from: from, due: due})
	}
	return out
}

// minutesPeriod counts the minutes' clocks in calendar days, as 2.06 does.
var minutesPeriod = &docket.Period{Party: docket.Commission}

// minutesReminders returns the reminders of the minutes' clocks of meetings ms due at now,
// leaving out those skip reports as already said.
func (p *Planner) minutesReminders(ms []docket.CommissionMeeting, now time.Time,
	skip func(outbox.Key) bool) []Reminder {
	loc := p.Engine.Cal.Location()
	today := p.Engine.Cal.DateOf(now)
	// The clerk's tasks: where reminders.to sends them (the clerks' direct messages by
	// default).
	to := p.dests(ClerkTasks, p.People.Clerks)
	var out []Reminder
	var steps []step
	for _, c := range p.minutesClocks(ms, today) {
		d := docket.Deadline{Due: c.due, Period: minutesPeriod}
		steps = p.deadlineSteps(steps[:0], d, today, loc)
		if !c.from.IsZero() {
			// Said first when the clock starts, in good time to put it on an agenda.
			// On the first business day from then: the clerk is at work.
			first := p.Engine.Cal.RollForward(c.from)
			steps = append(steps, step{kind: "required", day: c.from, at: wall(first, p.Policy.At, loc)})
		}
		s, ok := latest(steps, now)
		if !ok {
			continue
		}
		name := s.name()
		if c.meeting != "" {
			name = c.meeting + "|" + name
		}
		oc := c
		for _, dest := range to {
			r := Reminder{Series: c.series, Step: name, At: s.at, To: dest,
				msg: message{p: p, kind: 'n', d: d, s: s, now: now, minutes: &oc}}
			if skip != nil && skip(r.Key()) {
				continue
			}
			out = append(out, r)
		}
	}
	return out
}

// minutesReminderText is what a reminder of the minutes' clocks says.
func (p *Planner) minutesReminderText(m message) outbox.Markup {
	c := m.minutes
	due := c.due.ShortFrom(p.Engine.Cal.DateOf(m.now))
	left := leftText(p.Engine, m.d, m.now)
	switch c.series {
	case MinutesApprovalSeries:
		return outbox.Format("Minutes of %s to be approved by %s (%s), rule %s: within 30 days after the meeting or at the "+
			"second regular meeting after it, whichever is later. Put their approval on a meeting's agenda, `/ethics agenda "+
			"<meeting> add item=minutes %s`, and record the roll call there: `/ethics minutes %s approve at=<meeting>`.",
			c.meeting, due, left, docket.OMAMinutes, c.meeting, c.meeting)
	case ScheduleSeries:
		return outbox.Format("Schedule of regular meetings for %s to be adopted by %s (%s), rule %s: it is noticed at "+
			"the beginning of the year. Put its adoption on a meeting's agenda, `/ethics agenda <meeting> add Adoption of "+
			"the %s schedule of regular meetings`; enter the dates in meetings.regular and reload; record the vote, "+
			"`/ethics minutes <meeting> motion item=N \"To adopt the schedule of regular meetings for %s\"`, and the "+
			"adoption: `/ethics minutes <meeting> adopted-schedule item=N year=%s`.",
			c.meeting, due, left, docket.OMASchedule, c.meeting, c.meeting, c.meeting)
	case MinutesPublicSeries:
		return outbox.Format("Approved open minutes of %s to be made public by %s (%s), rule %s. Put them on the board: "+
			"`/ethics minutes %s publish`.",
			c.meeting, due, left, docket.OMAMinutes, c.meeting)
	}
	return outbox.Format("Review of the minutes of the closed meetings due by %s (%s), rule %s: the commission meets to "+
		"decide whether they need still be confidential. Put it on a meeting's agenda, closed under 5 ILCS 120/2(c)(21) if "+
		"need be, record the vote on it and the determination: `/ethics minutes <meeting> reviewed item=N "+
		"release=<meetings whose closed minutes are made public>`.",
		due, left, docket.OMAReview)
}
