package reminders

import (
	"context"
	"strconv"
	"strings"
	"time"

	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// Reminders grouped by meeting: the 48-hour notices of the case steps held at
// one meeting of the commission are one posting of one agenda (5 ILCS 120/2.02), so the
// clerk is reminded of the agenda once, "Agenda of Tue 12 Jan 2027 to be posted by Sun 10
// Jan 17:00 CST, 5 items", not once per case.

// AgendaSeries is the series of the reminders of a meeting's agenda.
const AgendaSeries = "agenda"

// Meetings gives the sweep the commission's meetings, if its Cases has them (store.Store
// does): their names and whole agendas.
type Meetings interface {
	Meetings(ctx context.Context) ([]docket.CommissionMeeting, error)
}

// MeetingsOn is Meetings that can give only the meetings that start on the days from first
// to last, in the commission's zone, named and with their case steps as Meetings gives
// them; store.Store is one. The sweep reads those of the days it looks at (meetingDays),
// not every meeting past and coming.
type MeetingsOn interface {
	MeetingsOn(ctx context.Context, first, last docket.Date) ([]docket.CommissionMeeting, error)
}

// meetingDays are the first and last days of the meetings the sweep at now looks up. The
// agendas gathered (agendaReminders) and the digest's case notices (finishDigest) look up
// the meetings at their own starts. The reminders to prepare an agenda (prepareReminders)
// and the digest's list of meetings (finishDigest) take only meetings not yet begun whose
// 48-hour mark (docket.AgendaCutoff) falls by the PrepareBusinessDays-th business day from
// today, or by the DigestWithin-th if the digest is due: a reminder dated
// PrepareBusinessDays business days before the mark's day is due by today only if that day
// is at most PrepareBusinessDays business days after today. Such a meeting starts at most
// 48 hours after the end of that day: two days later, three across a change of the clock.
func (p *Planner) meetingDays(now time.Time, groups map[agendaKey]*agendaGroup, dg *digest, digestDue bool) (
	first, last docket.Date) {
	cal := p.Engine.Cal
	today := cal.DateOf(now)
	ahead := PrepareBusinessDays
	if digestDue {
		ahead = max(ahead, p.Policy.DigestWithin)
	}
	first, last = today, cal.AddBusinessDays(today, ahead).AddDays(3)
	at := func(start time.Time) {
		d := cal.DateOf(start)
		first, last = min(first, d), max(last, d)
	}
	for _, g := range groups {
		at(g.rs[0].msg.d.Meeting)
	}
	if digestDue {
		for _, n := range dg.notices {
			at(n.d.Meeting)
		}
	}
	return first, last
}

// agendaKey is what makes reminders of case notices one reminder of an agenda: the same
// meeting (start and place), the same step and the same destination.
type agendaKey struct {
	start int64
	place string
	step  string
	to    outbox.Dest
}

// agendaGroup is the reminders of one agenda, gathered across cases.
type agendaGroup struct {
	rs    []Reminder
	cases []string
}

// isNotice reports whether r reminds of a meeting's 48-hour notice, which a meeting of
// several items posts once.
func isNotice(r Reminder) bool { return r.msg.kind == 'd' && !r.msg.d.DueAt.IsZero() }

// noticeSeries are the series of the 48-hour notices' reminders: the deadlines counted in
// hours before a meeting (the table of steps, rules.go).
func noticeSeries(o docket.Ordinance) map[string]bool {
	out := map[string]bool{}
	for _, p := range o.Periods() {
		if p.Unit == docket.Hours {
			out[string(p.ID)] = true
		}
	}
	return out
}

// gatherAgendas takes the notice reminders out of rs into groups, and returns the rest.
func gatherAgendas(rs []Reminder, groups map[agendaKey]*agendaGroup, order *[]agendaKey) []Reminder {
	rest := rs[:0]
	for _, r := range rs {
		if !isNotice(r) {
			rest = append(rest, r)
			continue
		}
		m := r.msg.c.Meeting(r.msg.d.Of)
		k := agendaKey{start: r.msg.d.Meeting.Unix(), place: m.Place, step: r.Step, to: r.To}
		g, ok := groups[k]
		if !ok {
			g = &agendaGroup{}
			groups[k] = g
			*order = append(*order, k)
		}
		g.rs = append(g.rs, r)
		g.cases = append(g.cases, r.Case)
	}
	return rest
}

// agendaReminders returns, for each group, its one reminder if it holds the notices of
// several cases, or the case's own if of one. meetings, if known, name the meeting and
// count its other business; skip leaves out a reminder already said.
func (p *Planner) agendaReminders(groups map[agendaKey]*agendaGroup, order []agendaKey,
	meetings []docket.CommissionMeeting, skip func(outbox.Key) bool) []Reminder {
	var out []Reminder
	for _, k := range order {
		g := groups[k]
		if len(g.rs) == 1 {
			if skip == nil || !skip(g.rs[0].Key()) {
				out = append(out, g.rs[0])
			}
			continue
		}
		first := g.rs[0]
		start := first.msg.d.Meeting
		name, items := "", len(g.rs)
		if m := docket.MeetingAt(meetings, start, k.place); m != nil {
			name, items = m.Name, len(m.Agenda())
		}
		if name == "" {
			name = p.Engine.NameMeeting(start, nil)
		}
		r := Reminder{Series: AgendaSeries, Step: name + "|" + first.Step, At: first.At, To: k.to,
			msg: message{p: p, kind: 'a', d: first.msg.d, s: first.msg.s, now: first.msg.now,
				agenda: &agendaText{name: name, start: start, place: k.place, items: items, cases: g.cases}}}
		if skip != nil && skip(r.Key()) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// agendaText is what an agenda's reminder says.
type agendaText struct {
	name  string
	start time.Time
	place string
	items int
	cases []string
	// prepare, if set, is the 48-hour mark of a regular meeting whose agenda the clerk is
	// reminded to prepare and post (regular.go).
	prepare time.Time
}

func (p *Planner) agendaReminderText(m message) outbox.Markup {
	a, loc := m.agenda, p.Engine.Cal.Location()
	if !a.prepare.IsZero() {
		return p.prepareText(m)
	}
	items := "1 item"
	if a.items != 1 {
		items = strconv.Itoa(a.items) + " items"
	}
	due := m.d.DueAt.In(loc).Format("Mon 2 Jan 15:04 MST")
	text := outbox.Format("Agenda of %s to be posted by %s, %s (cases %s), rule %s.",
		a.start.In(loc).Format("Mon 2 Jan 2006"), due, items, strings.Join(a.cases, ", "), docket.OMANotice)
	if m.s.missed {
		return text + outbox.Format(" No posting is recorded. If it was posted in time, record it with `/ethics posted "+
			"%s`; if not, the meeting cannot lawfully be held then: move it.", a.name)
	}
	return text + outbox.Format(" Post it at the meeting place and the principal office, then record it once for every "+
		"item: `/ethics posted %s`.", a.name)
}
