package reminders

import (
	"strconv"
	"time"

	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// Reminders of the meetings themselves: the clerk is told to prepare
// and post a regular meeting's agenda ahead of its 48-hour mark (5 ILCS 120/2.02), and
// the morning digest lists meetings, one line each with its count of items, rather than
// one line per case notice.

// PrepareBusinessDays is how many business days before a regular meeting's 48-hour mark
// the clerk is reminded to prepare and post its agenda: time to gather the items, print
// the agenda and post it at the meeting place and the principal office, which 2.02 wants
// done by the mark, not on it. The Act sets no such lead; three business days is this
// commission's practice, the same for every meeting, so it is a constant, not a setting.
const PrepareBusinessDays = 3

// meetingsEvery is how often the sweep reads the meetings to find an agenda to prepare.
// A reminder said three business days ahead loses nothing by a quarter of an hour.
const meetingsEvery = 15 * time.Minute

// PrepareSeries is the series of the reminders to prepare a regular meeting's agenda.
const PrepareSeries = "agenda_prepare"

// prepareReminders returns, for each regular meeting among ms (not special, not
// cancelled) that has items and no posting recorded, the clerks' reminder to prepare and
// post its agenda: due at the reminders' time of day (Policy.At), PrepareBusinessDays
// business days before the day of its 48-hour mark, and said until the mark, not after
// (the case notices' own reminders say a missed posting). skip leaves out one already said.
func (p *Planner) prepareReminders(ms []docket.CommissionMeeting, now time.Time,
	skip func(outbox.Key) bool) []Reminder {
	loc := p.Engine.Cal.Location()
	var out []Reminder
	for i := range ms {
		m := &ms[i]
		items := len(m.Agenda())
		cutoff := m.AgendaDue()
		if m.Special || !m.Cancelled.IsZero() || items == 0 || !m.Posted().IsZero() || !now.Before(cutoff) {
			continue
		}
		at := wall(p.Engine.Cal.SubBusinessDays(p.Engine.Cal.DateOf(cutoff), PrepareBusinessDays), p.Policy.At, loc)
		if now.Before(at) {
			continue
		}
		// The clerk's task: where reminders.to sends the clerk's tasks (the clerks' direct
		// messages by default).
		for _, to := range p.dests(ClerkTasks, p.People.Clerks) {
			r := Reminder{Series: PrepareSeries, Step: m.Name + "|" + strconv.FormatInt(m.Start.Unix(), 10), At: at, To: to,
				msg: message{p: p, kind: 'a', now: now,
					agenda: &agendaText{name: m.Name, start: m.Start, place: m.Place, items: items, prepare: cutoff}}}
			if skip != nil && skip(r.Key()) {
				continue
			}
			out = append(out, r)
		}
	}
	return out
}

// prepareText is what the reminder to prepare an agenda says.
func (p *Planner) prepareText(m message) outbox.Markup {
	a, loc := m.agenda, p.Engine.Cal.Location()
	return outbox.Format("Agenda of the regular meeting of %s (%s, %s) to be posted by %s, %s; no posting is recorded "+
		"yet, rule %s. Check it with `/ethics agenda %s`, post it at the meeting place and the principal office, then "+
		"record it once for every item: `/ethics posted %s`.",
		a.start.In(loc).Format("Mon 2 Jan 2006 15:04 MST"), a.name, a.place, a.prepare.In(loc).Format("Mon 2 Jan 15:04 MST"),
		itemCount(a.items), docket.OMANotice, a.name, a.name)
}

// itemCount says "1 item", "5 items".
func itemCount(n int) string {
	if n == 1 {
		return "1 item"
	}
	return strconv.Itoa(n) + " items"
}

// digestNotice is a case's 48-hour notice due within the digest's horizon, kept aside so
// that the digest lists its meeting once.
type digestNotice struct {
	c *docket.Case
	d docket.Deadline
}

// finishDigest adds the digest's meeting lines: one per meeting whose notice is due within
// the horizon (the case notices gathered by start and place, and the regular meetings
// with items not yet posted), with its count of items. A case notice whose meeting the
// record does not know keeps its own line.
func (p *Planner) finishDigest(dg *digest, ms []docket.CommissionMeeting, now time.Time) {
	e, loc := p.Engine, p.Engine.Cal.Location()
	horizon := e.Cal.AddBusinessDays(e.Cal.DateOf(now), p.Policy.DigestWithin)
	listed := map[string]bool{}
	line := func(m *docket.CommissionMeeting) bool {
		if listed[m.Name] {
			return false
		}
		listed[m.Name] = true
		cutoff := m.AgendaDue()
		state := "to be posted by " + docket.ShortTime(cutoff, now, loc)
		if !now.Before(cutoff) {
			state = "not recorded as posted by " + docket.ShortTime(cutoff, now, loc) + ", its 48-hour mark"
		}
		dg.lines = append(dg.lines,
			outbox.Format("• Meeting %s (%s, %s): agenda %s, %s, rule %s.", m.Name,
				m.Start.In(loc).Format("Mon 2 Jan 15:04 MST"), m.Place, state, itemCount(len(m.Agenda())), docket.OMANotice))
		return true
	}
	for _, n := range dg.notices {
		if m := docket.MeetingAt(ms, n.d.Meeting, n.c.Meeting(n.d.Of).Place); m != nil {
			// The button records the posting of a case step's notice, which records the
			// meeting's for every item (/ethics posted <case> <step>).
			if form := formOf(e, n.c, n.d); line(m) && form != "" {
				dg.actions = append(dg.actions, outbox.Action{Label: "Meeting " + m.Name + ": agenda posted", Form: form})
			}
			continue
		}
		dg.lines = append(dg.lines, outbox.Format("• %s: %s", n.c.Number, p.describe(n.c, n.d, now)))
		if form := formOf(e, n.c, n.d); form != "" {
			dg.actions = append(dg.actions, outbox.Action{Label: n.c.Number + ": " + n.d.Period.Duty, Form: form})
		}
	}
	for i := range ms {
		m := &ms[i]
		if m.Special || !m.Cancelled.IsZero() || len(m.Agenda()) == 0 || !m.Posted().IsZero() || !now.Before(m.Start) ||
			e.Cal.DateOf(m.AgendaDue()) > horizon {
			continue
		}
		line(m)
	}
}
