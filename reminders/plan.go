// Package reminders decides what is due to be said about the docket, and when: deadline
// reminders to the clerk, meeting reminders to the commissioners, the expedited cases'
// daily reminder and the morning digest. Plan is a pure function of the cases and the
// time; Sweep says what is due exactly once through an outbox; cron only triggers it.
package reminders

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// Policy is when reminders are said. Defaults gives the ones docs/deadlines.md, "Reminders" documents.
type Policy struct {
	At           time.Duration // time of day of deadline reminders (9:00)
	DaysBefore   []int         // business days before a due date to remind, besides the day itself (2, 1)
	MentionAfter int           // business days overdue from which the commissioners are mentioned (2)
	NoticeLead   time.Duration // remind this long before a notice must be posted, if not yet recorded (24h)
	MeetingLead  time.Duration // remind commissioners this long before a meeting (2h)
	DigestAt     time.Duration // time of day of the clerk's digest on business days (8:00)
	DigestWithin int           // the digest goes out only when something is due within this many business days (5)
	Routes       Routes        // where each kind of reminder goes (DefaultRoutes for a kind left out)
}

// Defaults is the policy unless configured otherwise.
func Defaults() Policy {
	return Policy{At: 9 * time.Hour, DaysBefore: []int{2, 1}, MentionAfter: 2, NoticeLead: 24 * time.Hour,
		MeetingLead: 2 * time.Hour, DigestAt: 8 * time.Hour, DigestWithin: 5, Routes: DefaultRoutes()}
}

// commissioners are the commissioners who may hear of case c: all but the recused, who
// are told nothing about it.
func (p *Planner) commissioners(c *docket.Case) []string {
	out := make([]string, 0, len(p.People.Commissioners))
	for _, u := range p.People.Commissioners {
		if _, recused := c.Recused(u); !recused {
			out = append(out, u)
		}
	}
	return out
}

// dests are users as destinations.
func dests(users []string) []outbox.Dest {
	to := make([]outbox.Dest, len(users))
	for i, u := range users {
		to[i] = outbox.Dest{User: u}
	}
	return to
}

// People are who reminders go to.
type People struct {
	Clerks        []string // Slack user ids: each gets the clerk's reminders and the digest
	Commissioners []string // Slack user ids
	Docket        string   // the private docket channel
}

// Reminder is one message due to be said to one destination. Its key is unique for all
// time, so the sweep says it once.
type Reminder struct {
	Case   string    // "" for the digest
	Series string    // a deadline id, "meeting:<kind>", "expedited" or "digest"
	Step   string    // which step of the series, e.g. "before-1:2026-12-08"
	At     time.Time // when it falls due
	To     outbox.Dest
	msg    message
}

// message is what a reminder will say, kept as data: most reminders a sweep plans were
// already said and only need their key, so the text is written only when asked.
type message struct {
	p       *Planner
	c       *docket.Case
	kind    byte // 'd' deadline, 'm' meeting, 'e' expedited, 'g' digest, 'a' agenda
	d       docket.Deadline
	s       step
	mk      docket.MeetingKind
	now     time.Time
	prefix  string
	sched   struct{ election docket.Date }
	dg      *digest
	agenda  *agendaText   // 'a': a meeting's agenda, for the notices of several cases
	minutes *minutesClock // 'n': a clock of a meeting's minutes (5 ILCS 120/2.06)
	media   *mediaLapse   // 'l': a news medium's request that lapses (5 ILCS 120/2.02(b))
}

// Text is what the reminder says.
func (r Reminder) Text() outbox.Markup {
	m := r.msg
	p, c, d, now := m.p, m.c, m.d, m.now
	switch m.kind {
	case 'd':
		text := outbox.Escape(m.prefix) + p.describe(c, d, now)
		if overdue := p.overdueBusinessDays(d, p.Engine.Cal.DateOf(now)); overdue >= p.Policy.MentionAfter {
			if who := p.commissioners(c); len(who) > 0 {
				text += outbox.Format(" Commissioners: %s.", mentions(who))
			}
		}
		if m.s.missed {
			return text + outbox.Format(" No posting is recorded. If it was posted in time, record it with `/ethics %s`; if "+
				"not, the meeting cannot lawfully be held then: reschedule it.", c.Command(d))
		}
		if says := howToRecord(p.Engine, c, d); says != "" {
			return text + " " + says
		}
		return text + " "
	case 'm':
		mt := c.Meeting(m.mk)
		return outbox.Format("%sthe %s is %s at %s, %s.", m.prefix, m.mk.Name(),
			mt.Start.In(p.Engine.Cal.Location()).Format("Mon 2 Jan at 15:04 MST"), mt.Place, mt.Access())
	case 'e':
		return outbox.Format("%sthe respondent is a candidate at the election of %s; the decision is due by %s (%s).",
			m.prefix, m.sched.election.ShortFrom(p.Engine.Cal.DateOf(now)), d.Due.ShortFrom(p.Engine.Cal.DateOf(now)),
			leftText(p.Engine, d, now))
	case 'a':
		return p.agendaReminderText(m)
	case 'n':
		return p.minutesReminderText(m)
	case 'l':
		return p.mediaLapseText(m)
	case 'g':
		today := p.Engine.Cal.DateOf(now)
		return outbox.Format("Docket for %s: due within %d business days or overdue:\n%s", today.Long(),
			p.Policy.DigestWithin, outbox.Join(m.dg.lines, "\n"))
	}
	return ""
}

// Key is the reminder's outbox key: case, series, step and destination.
func (r Reminder) Key() outbox.Key {
	return outbox.Key{Case: r.Case, Series: r.Series, Step: r.Step, To: r.To}
}

// step is one point of a series, before it is addressed.
type step struct {
	kind    string      // "before-2", "due", "overdue", "lead", "missed", "day-before", "daily"
	day     docket.Date // the date the step names, for date deadlines
	instant int64       // or the instant it names, for notices and meetings (Unix seconds)
	at      time.Time
	missed  bool // a notice deadline passed without a recorded posting
}

// name is the step's part of the outbox key, e.g. "before-2:2026-12-09" or "lead:1796943600".
// It is built only for the step chosen, not for every candidate.
func (s step) name() string {
	if s.instant != 0 {
		return s.kind + ":" + strconv.FormatInt(s.instant, 10)
	}
	return s.kind + ":" + s.day.String()
}

// latest returns the latest step at or before now. After downtime, or when a deadline
// appears late, only the most recent step is said, never the ones it supersedes.
func latest(steps []step, now time.Time) (step, bool) {
	var best step
	found := false
	for _, s := range steps {
		if !s.at.After(now) && (!found || s.at.After(best.at)) {
			best, found = s, true
		}
	}
	return best, found
}

// wall is the instant of a local wall-clock time on date d. 09:00 is 09:00 on the days the
// clocks change too.
func wall(d docket.Date, clock time.Duration, loc *time.Location) time.Time {
	y, m, day := d.Parts()
	return time.Date(y, m, day, int(clock/time.Hour), int(clock%time.Hour/time.Minute), 0, 0, loc)
}

// Planner works out reminders.
type Planner struct {
	Engine *docket.Engine
	Policy Policy
	People People
	// Regular is the schedule of regular meetings in force (meetings.regular): the clerk is
	// reminded to have next year's adopted (5 ILCS 120/2.03, minutes.go).
	Regular docket.RegularSchedule
}

// Plan returns the reminders due at now for case c: for each series, its latest step at
// or before now, addressed to each of its destinations.
func (p *Planner) Plan(c *docket.Case, now time.Time) []Reminder {
	sched := p.Engine.Schedule(&c.Facts, now)
	return p.plan(nil, c, &sched, now, nil)
}

// plan appends to out the reminders due at now for c, whose schedule is sched, leaving
// out those skip reports as already said.
func (p *Planner) plan(out []Reminder, c *docket.Case, sched *docket.Schedule, now time.Time,
	skip func(outbox.Key) bool) []Reminder {
	e, loc := p.Engine, p.Engine.Cal.Location()
	today := e.Cal.DateOf(now)
	prefix := c.Number + ": "
	if sched.Expedited {
		prefix = c.Number + " EXPEDITED (G): "
	}
	steps := make([]step, 0, 8)
	emit := func(series string, s step, to []outbox.Dest, msg message) {
		name := s.name()
		msg.p, msg.c, msg.s, msg.now, msg.prefix = p, c, s, now, prefix
		for _, d := range to {
			if d.User == "" && d.Channel == "" {
				continue
			}
			r := Reminder{Case: c.Number, Series: series, Step: name, At: s.at, To: d, msg: msg}
			if skip != nil && skip(r.Key()) {
				continue
			}
			out = append(out, r)
		}
	}
	for _, d := range sched.Deadlines {
		if !reminded(d) {
			continue
		}
		steps = p.deadlineSteps(steps[:0], d, today, loc)
		s, ok := latest(steps, now)
		if !ok {
			continue
		}
		emit(string(d.ID), s, p.dests(deadlineKind(d), p.People.Clerks), message{kind: 'd', d: d})
	}
	for _, k := range docket.MeetingKinds {
		m := c.Meeting(k)
		if !m.Scheduled() || !m.Start.After(now) {
			continue
		}
		start := m.Start.In(loc)
		dayBefore := e.Cal.SubBusinessDays(e.Cal.DateOf(start), 1)
		steps := []step{
			{kind: "day-before", instant: start.Unix(), at: wall(dayBefore, p.Policy.At, loc)},
			{kind: "lead", instant: start.Unix(), at: start.Add(-p.Policy.MeetingLead)},
		}
		s, ok := latest(steps, now)
		if !ok {
			continue
		}
		emit("meeting:"+string(k), s, p.dests(MeetingReminders, p.commissioners(c)), message{kind: 'm', mk: k})
	}
	if sched.Expedited && c.DecisionIssued.IsZero() {
		if d, ok := sched.Find(docket.ElectionDecision); ok {
			s := step{kind: "daily", day: today, at: wall(today, p.Policy.At, loc)}
			if !s.at.After(now) && today >= sched.Received {
				msg := message{kind: 'e', d: d}
				msg.sched.election = sched.Election
				emit("expedited", s, p.dests(Expedited, p.People.Clerks), msg)
			}
		}
	}
	return out
}

// Lookahead is how far ahead of now a case's next due instant (docket.Engine.NextDue)
// may lie and still have a reminder due at now, or a line in the digest if digest: a case
// whose instant is later has nothing to say now. A date deadline is reminded from
// DaysBefore business days ahead (a due date on a day the office is closed, one business
// day more), a meeting from the business day before it or MeetingLead ahead, a notice
// NoticeLead ahead of its instant, and the digest lists DigestWithin business days ahead.
func (p *Planner) Lookahead(now time.Time, digest bool) time.Time {
	e := p.Engine
	days := 1 // a meeting's reminder, the business day before it
	for _, n := range p.Policy.DaysBefore {
		days = max(days, n)
	}
	if digest {
		days = max(days, p.Policy.DigestWithin)
	}
	until := e.Cal.AddBusinessDays(e.Cal.DateOf(now), days+1).In(e.Cal.Location())
	for _, lead := range []time.Duration{p.Policy.NoticeLead, p.Policy.MeetingLead} {
		if t := now.Add(lead); t.After(until) {
			until = t
		}
	}
	return until
}

// reminded reports whether the clerk is reminded of d: it is the commission's to meet, and
// not yet done.
func reminded(d docket.Deadline) bool { return !d.Done && d.Period.Party == docket.Commission }

// Steps returns the reminders the clerk gets of deadline d as it stands at now, each by
// its step's name in the outbox (a name is said once per deadline) with when it falls due;
// of those due at now, a sweep says only the latest. None for a deadline that is done or
// is a party's to meet. A correction's reply compares the steps of a deadline before and
// after, to say which reminders are now due and which will not be said.
func (p *Planner) Steps(d docket.Deadline, now time.Time) map[string]time.Time {
	if !reminded(d) {
		return nil
	}
	steps := p.deadlineSteps(nil, d, p.Engine.Cal.DateOf(now), p.Engine.Cal.Location())
	out := make(map[string]time.Time, len(steps))
	for _, s := range steps {
		out[s.name()] = s.at
	}
	return out
}

// deadlineSteps are the points at which a deadline is mentioned: business days before,
// the day itself, and each day after while it is not done. A notice deadline is mentioned
// a lead time before it, and once when missed.
func (p *Planner) deadlineSteps(buf []step, d docket.Deadline, today docket.Date, loc *time.Location) []step {
	e := p.Engine
	if !d.Dated() {
		// A paper without a time limit: said once, when it becomes required; the digest
		// lists it every business day until it is done.
		if d.From.IsZero() {
			return buf
		}
		return append(buf, step{kind: "required", day: d.From, at: wall(d.From, p.Policy.At, loc)})
	}
	if !d.DueAt.IsZero() {
		return append(buf,
			step{kind: "lead", instant: d.DueAt.Unix(), at: d.DueAt.Add(-p.Policy.NoticeLead)},
			step{kind: "missed", instant: d.DueAt.Unix(), at: d.DueAt, missed: true})
	}
	steps := buf
	for _, n := range p.Policy.DaysBefore {
		day := e.Cal.SubBusinessDays(d.Due, n)
		steps = append(steps, step{kind: beforeKind(n), day: d.Due, at: wall(day, p.Policy.At, loc)})
	}
	steps = append(steps, step{kind: "due", day: d.Due, at: wall(d.Due, p.Policy.At, loc)})
	// Overdue: daily until done. Only yesterday's and today's can be the latest.
	for _, day := range [2]docket.Date{today - 1, today} {
		if day > d.Due {
			steps = append(steps, step{kind: "overdue", day: day, at: wall(day, p.Policy.At, loc)})
		}
	}
	return steps
}

var beforeKinds = map[int]string{}

// beforeKind names the step n business days before a due date: "before-2".
func beforeKind(n int) string {
	if k, ok := beforeKinds[n]; ok {
		return k
	}
	return "before-" + strconv.Itoa(n)
}

func init() {
	for n := 1; n <= 30; n++ {
		beforeKinds[n] = "before-" + strconv.Itoa(n)
	}
}

// overdueBusinessDays is how many business days a date deadline is past due.
func (p *Planner) overdueBusinessDays(d docket.Deadline, today docket.Date) int {
	if d.Dated() && d.DueAt.IsZero() && d.Due < today {
		return p.Engine.Cal.BusinessDaysUntil(d.Due, today)
	}
	return 0
}

// describe says the deadline as a message: "respondent notice by certified mail due Wed
// 9 Dec (2 business days), rule (B)."
func (p *Planner) describe(c *docket.Case, d docket.Deadline, now time.Time) outbox.Markup {
	if !d.Dated() {
		return outbox.Format("%s not yet recorded as sent (no time limit), rule %s.", d.Period.Duty, d.Rule)
	}
	if !d.DueAt.IsZero() {
		return outbox.Format("%s due by %s (%s), rule %s.", d.Period.Duty,
			docket.ShortTime(d.DueAt, now, p.Engine.Cal.Location()), leftText(p.Engine, d, now), d.Rule)
	}
	return outbox.Format("%s due %s (%s), rule %s.", d.Period.Duty, d.Due.ShortFrom(p.Engine.Cal.DateOf(now)),
		leftText(p.Engine, d, now), d.Rule)
}

// leftText is the time left or overdue, in the unit the rule counts.
func leftText(e *docket.Engine, d docket.Deadline, now time.Time) string {
	n, unit, late := e.Left(d, now)
	switch {
	case unit == "hour" && late:
		return "passed"
	case unit == "hour":
		return fmt.Sprintf("in %d hours", n)
	case late:
		return docket.Count(n, unit) + " overdue"
	case n == 0:
		return "today"
	}
	return docket.Count(n, unit)
}

func mentions(users []string) outbox.Markup {
	m := make([]outbox.Markup, len(users))
	for i, u := range users {
		m[i] = outbox.Mention(u)
	}
	return outbox.Join(m, " ")
}

// command is the /ethics command that records deadline d of case c as met, as its row
// says (docket.Case.Command), or, for a returned mailing's task, the sending again
// (docket.Engine.ResendCommand); "" for a step the commission does not record itself.
func command(e *docket.Engine, c *docket.Case, d docket.Deadline) string {
	if cmd := e.ResendCommand(c, d); cmd != "" {
		return cmd
	}
	return c.Command(d)
}

// howToRecord tells the clerk the command that meets the deadline.
func howToRecord(e *docket.Engine, c *docket.Case, d docket.Deadline) outbox.Markup {
	if cmd := command(e, c, d); cmd != "" {
		return outbox.Format("Record it with `/ethics %s`.", cmd)
	}
	return ""
}

// placeholder is a part of a command that the user fills in: <article no.>, place="...".
var placeholder = regexp.MustCompile(`\s*(\w+=)?("\.\.\."|<[^>]*>)`)

// formOf is the command line of the form that records deadline d of case c, without its
// placeholders, for a button to open it filled in: "mail 2026-003 respondent". "" when
// the commission does not record the step itself.
func formOf(e *docket.Engine, c *docket.Case, d docket.Deadline) string {
	return strings.TrimSpace(placeholder.ReplaceAllString(command(e, c, d), ""))
}

// Actions are the steps the reminder offers as buttons: for a deadline, the
// form that records it, standing for the sentence that tells how to type it; for the
// expedited case's daily reminder, the decision's form; for the digest, one per line. A
// meeting reminder names no step the commissioners record, and offers none.
func (r Reminder) Actions() []outbox.Action {
	m := r.msg
	switch m.kind {
	case 'd', 'e':
		form := formOf(m.p.Engine, m.c, m.d)
		if form == "" {
			return nil
		}
		a := outbox.Action{Label: "Record: " + m.d.Period.Duty, Form: form}
		if m.kind == 'd' && !m.s.missed {
			a.Says = howToRecord(m.p.Engine, m.c, m.d)
		}
		return []outbox.Action{a}
	case 'g':
		return m.dg.actions
	}
	return nil
}

// digest is the clerks' morning summary, on business days at DigestAt, when something is
// due within DigestWithin business days or overdue. It is planned with the keys alone, one
// reminder to each clerk; lines collects what the sweep finds as it goes through the cases,
// and the text is written only if the digest is to be said.
type digest struct {
	rs      []Reminder
	lines   []outbox.Markup
	actions []outbox.Action // the forms of the lines' steps, as buttons
	notices []digestNotice  // the case notices, listed by meeting (finishDigest)
}

// newDigest returns the day's digest if one may be due at now.
func (p *Planner) newDigest(now time.Time) (*digest, bool) {
	e, loc := p.Engine, p.Engine.Cal.Location()
	today := e.Cal.DateOf(now)
	at := wall(today, p.Policy.DigestAt, loc)
	if !e.Cal.IsBusinessDay(today) || now.Before(at) {
		return nil, false
	}
	dg := &digest{}
	for _, to := range p.dests(Digest, p.People.Clerks) {
		dg.rs = append(dg.rs,
			Reminder{Series: "digest", Step: "daily:" + today.String(), At: at, To: to,
				msg: message{p: p, kind: 'g', now: now, dg: dg}})
	}
	return dg, true
}

// addToDigest puts c's deadlines that are due soon into the digest.
func (p *Planner) addToDigest(dg *digest, c *docket.Case, sched *docket.Schedule, now time.Time) {
	e := p.Engine
	horizon := e.Cal.AddBusinessDays(e.Cal.DateOf(now), p.Policy.DigestWithin)
	for _, d := range sched.Deadlines {
		due := d.Due
		switch {
		case !d.DueAt.IsZero():
			due = e.Cal.DateOf(d.DueAt)
		case !d.Dated():
			due = e.Cal.DateOf(now) // an open task without a time limit is listed every day until done
		}
		if d.Done || d.Period.Party != docket.Commission || due > horizon {
			continue
		}
		if !d.DueAt.IsZero() && d.Of != "" {
			dg.notices = append(dg.notices, digestNotice{c, d}) // one line per meeting (regular.go)
			continue
		}
		dg.lines = append(dg.lines, outbox.Format("• %s: %s", c.Number, p.describe(c, d, now)))
		if form := formOf(e, c, d); form != "" {
			dg.actions = append(dg.actions, outbox.Action{Label: c.Number + ": " + d.Period.Duty, Form: form})
		}
	}
}
