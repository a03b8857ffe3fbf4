// Package reminders decides what is due to be said about the docket, and when: deadline
// reminders to the clerk, meeting reminders to the commissioners, the expedited cases'
// daily reminder and the morning digest. Plan is a pure function of the cases and the
// time; Sweep says what is due exactly once through an outbox; cron only triggers it.
package reminders

import (
	"fmt"
	"strings"
	"time"

	"ethicsbot/docket"
)

// Policy is when reminders are said. Defaults gives the ones the README documents.
type Policy struct {
	At           time.Duration // time of day of deadline reminders (9:00)
	DaysBefore   []int         // business days before a due date to remind, besides the day itself (2, 1)
	MentionAfter int           // business days overdue from which the commissioners are mentioned (2)
	NoticeLead   time.Duration // remind this long before a notice must be posted, if not yet recorded (24h)
	MeetingLead  time.Duration // remind commissioners this long before a meeting (2h)
	DigestAt     time.Duration // time of day of the clerk's digest on business days (8:00)
	DigestWithin int           // the digest goes out only when something is due within this many business days (5)
}

// Defaults is the policy unless configured otherwise.
func Defaults() Policy {
	return Policy{At: 9 * time.Hour, DaysBefore: []int{2, 1}, MentionAfter: 2, NoticeLead: 24 * time.Hour,
		MeetingLead: 2 * time.Hour, DigestAt: 8 * time.Hour, DigestWithin: 5}
}

// People are who reminders go to.
type People struct {
	Clerk         string   // Slack user id
	Commissioners []string // Slack user ids
	Docket        string   // the private docket channel
}

// Dest is where one copy of a reminder goes: a channel, or a user's direct messages.
type Dest struct {
	Channel string
	User    string
}

func (d Dest) String() string {
	if d.User != "" {
		return "@" + d.User
	}
	return "#" + strings.TrimPrefix(d.Channel, "#")
}

// Reminder is one message due to be said to one destination. Its key is unique for all
// time, so the sweep says it once.
type Reminder struct {
	Case   string    // "" for the digest
	Series string    // a deadline id, "meeting:<kind>", "expedited" or "digest"
	Step   string    // which step of the series, e.g. "before-1:2026-12-08"
	At     time.Time // when it falls due
	To     Dest
	Text   string
}

// Key is the reminder's outbox key: case, series, and step at destination.
func (r Reminder) Key() (caseNumber, series, step string) {
	return r.Case, r.Series, r.Step + "@" + r.To.String()
}

// step is one point of a series, before it is addressed.
type step struct {
	name string
	at   time.Time
	note string // what the step says, after the deadline's description
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
}

// Plan returns the reminders due at now for case c: for each series, its latest step at
// or before now, addressed to each of its destinations.
func (p *Planner) Plan(c *docket.Case, now time.Time) []Reminder {
	e, loc := p.Engine, p.Engine.Cal.Location()
	sched := e.Schedule(&c.Facts, now)
	today := e.Cal.DateOf(now)
	prefix := c.Number + ": "
	if sched.Expedited {
		prefix = c.Number + " EXPEDITED (G): "
	}
	clerkAndDocket := []Dest{{User: p.People.Clerk}, {Channel: p.People.Docket}}
	var out []Reminder
	emit := func(series string, s step, to []Dest, text string) {
		for _, d := range to {
			if d.User == "" && d.Channel == "" {
				continue
			}
			out = append(out, Reminder{Case: c.Number, Series: series, Step: s.name, At: s.at, To: d, Text: text})
		}
	}
	for _, d := range sched.Deadlines {
		if d.Done || d.Period.Party != docket.Commission {
			continue
		}
		steps := p.deadlineSteps(c, d, today, loc)
		s, ok := latest(steps, now)
		if !ok {
			continue
		}
		text := prefix + p.describe(c, d, now)
		if overdue := p.overdueBusinessDays(d, today); overdue >= p.Policy.MentionAfter && len(p.People.Commissioners) > 0 {
			text += " Commissioners: " + mentions(p.People.Commissioners) + "."
		}
		if s.note != "" {
			text += " " + s.note
		} else {
			text += " " + howToRecord(c, d)
		}
		emit(string(d.ID), s, clerkAndDocket, text)
	}
	for _, k := range docket.MeetingKinds {
		m := c.Meeting(k)
		if !m.Scheduled() || !m.Start.After(now) {
			continue
		}
		start := m.Start.In(loc)
		dayBefore := e.Cal.SubBusinessDays(e.Cal.DateOf(start), 1)
		steps := []step{
			{name: fmt.Sprintf("day-before:%d", start.Unix()), at: wall(dayBefore, p.Policy.At, loc)},
			{name: fmt.Sprintf("lead:%d", start.Unix()), at: start.Add(-p.Policy.MeetingLead)},
		}
		s, ok := latest(steps, now)
		if !ok {
			continue
		}
		var to []Dest
		for _, u := range p.People.Commissioners {
			to = append(to, Dest{User: u})
		}
		emit("meeting:"+string(k), s, to, fmt.Sprintf("%sthe %s is %s at %s, %s.",
			prefix, k.Name(), start.Format("Mon 2 Jan at 15:04 MST"), m.Place, access(m)))
	}
	if sched.Expedited && c.DecisionIssued.IsZero() {
		if d, ok := sched.Find(docket.ElectionDecision); ok {
			s := step{name: "daily:" + today.String(), at: wall(today, p.Policy.At, loc)}
			if !s.at.After(now) && today >= sched.Received {
				emit("expedited", s, clerkAndDocket, fmt.Sprintf("%sthe respondent is a candidate at the election of %s; the decision is due by %s (%s).",
					prefix, sched.Election.Short(), d.Due.Short(), leftText(e, d, now)))
			}
		}
	}
	return out
}

// deadlineSteps are the points at which a deadline is mentioned: business days before,
// the day itself, and each day after while it is not done. A notice deadline is mentioned
// a lead time before it, and once when missed.
func (p *Planner) deadlineSteps(c *docket.Case, d docket.Deadline, today docket.Date, loc *time.Location) []step {
	e := p.Engine
	if !d.DueAt.IsZero() {
		return []step{
			{name: fmt.Sprintf("lead:%d", d.DueAt.Unix()), at: d.DueAt.Add(-p.Policy.NoticeLead)},
			{name: fmt.Sprintf("missed:%d", d.DueAt.Unix()), at: d.DueAt, note: "No posting is recorded. If it was posted in time, record it with `/ethics " + recordCommand(c, d) + "`; if not, the meeting cannot lawfully be held then: reschedule it."},
		}
	}
	var steps []step
	for _, n := range p.Policy.DaysBefore {
		day := e.Cal.SubBusinessDays(d.Due, n)
		steps = append(steps, step{name: fmt.Sprintf("before-%d:%s", n, d.Due), at: wall(day, p.Policy.At, loc)})
	}
	steps = append(steps, step{name: "due:" + d.Due.String(), at: wall(d.Due, p.Policy.At, loc)})
	// Overdue: daily until done. Only yesterday's and today's can be the latest.
	for _, day := range []docket.Date{today - 1, today} {
		if day > d.Due {
			steps = append(steps, step{name: "overdue:" + day.String(), at: wall(day, p.Policy.At, loc)})
		}
	}
	return steps
}

// overdueBusinessDays is how many business days a date deadline is past due.
func (p *Planner) overdueBusinessDays(d docket.Deadline, today docket.Date) int {
	if d.DueAt.IsZero() && d.Due < today {
		return p.Engine.Cal.BusinessDaysUntil(d.Due, today)
	}
	return 0
}

// describe says the deadline as a message: "respondent notice by certified mail due Wed
// 9 Dec (2 business days), rule (B)."
func (p *Planner) describe(c *docket.Case, d docket.Deadline, now time.Time) string {
	if !d.DueAt.IsZero() {
		return fmt.Sprintf("%s due by %s (%s), rule %s.", d.Period.Duty, d.DueAt.In(p.Engine.Cal.Location()).Format("Mon 2 Jan 15:04 MST"), leftText(p.Engine, d, now), d.Rule)
	}
	return fmt.Sprintf("%s due %s (%s), rule %s.", d.Period.Duty, d.Due.Short(), leftText(p.Engine, d, now), d.Rule)
}

// leftText is the time left or overdue, in the unit the rule counts.
func leftText(e *docket.Engine, d docket.Deadline, now time.Time) string {
	if !d.DueAt.IsZero() {
		if now.After(d.DueAt) {
			return "passed"
		}
		return fmt.Sprintf("in %d hours", int(d.DueAt.Sub(now).Hours()))
	}
	today := e.Cal.DateOf(now)
	switch {
	case d.Due == today:
		return "today"
	case d.Due < today:
		return plural(int(today-d.Due), "day") + " overdue"
	case d.Period.Unit == docket.BusinessDays:
		return plural(e.Cal.BusinessDaysUntil(today, d.Due), "business day")
	}
	return plural(int(d.Due-today), "day")
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

func mentions(users []string) string {
	m := make([]string, len(users))
	for i, u := range users {
		m[i] = "<@" + u + ">"
	}
	return strings.Join(m, " ")
}

func access(m docket.Meeting) string {
	if m.Closed {
		return "closed under " + m.Authority
	}
	return "open to the public"
}

// howToRecord tells the clerk the command that meets the deadline.
func howToRecord(c *docket.Case, d docket.Deadline) string {
	if cmd := recordCommand(c, d); cmd != "" {
		return "Record it with `/ethics " + cmd + "`."
	}
	return ""
}

// recordCommand is the /ethics command, without /ethics, that meets the deadline.
func recordCommand(c *docket.Case, d docket.Deadline) string {
	cmd := map[docket.DeadlineID]string{
		docket.RespondentNotice:         "mail " + c.Number + " respondent <article no.>",
		docket.ComplainantConfirmation:  "mail " + c.Number + " complainant <article no.>",
		docket.SufficiencyRuling:        "rule " + c.Number + " <ruling>",
		docket.SufficiencyMeetingNotice: "posted " + c.Number + " sufficiency",
		docket.HearingBy:                "schedule " + c.Number + " hearing <start> place=\"...\"",
		docket.HearingNotice:            "posted " + c.Number + " hearing",
		docket.DecisionDue:              "decide " + c.Number + " <outcome>",
		docket.ElectionDecision:         "decide " + c.Number + " <outcome>",
		docket.PublicHearingBy:          "held " + c.Number,
		docket.PublicHearingNotice:      "posted " + c.Number + " public_hearing",
		docket.FinalRecommendationDue:   "final " + c.Number + " text=\"...\"",
	}[d.ID]
	if d.ID == docket.HearingNotice && c.Reconvened.Scheduled() {
		cmd = "posted " + c.Number + " recessed_hearing"
	}
	return cmd
}

// Digest is the clerk's morning summary, on business days at DigestAt, when something is
// due within DigestWithin business days; ok is false when there is nothing to say.
func (p *Planner) Digest(cases []*docket.Case, now time.Time) (Reminder, bool) {
	e, loc := p.Engine, p.Engine.Cal.Location()
	today := e.Cal.DateOf(now)
	at := wall(today, p.Policy.DigestAt, loc)
	if !e.Cal.IsBusinessDay(today) || now.Before(at) || p.People.Clerk == "" {
		return Reminder{}, false
	}
	horizon := e.Cal.AddBusinessDays(today, p.Policy.DigestWithin)
	var lines []string
	for _, c := range cases {
		for _, d := range e.Schedule(&c.Facts, now).Deadlines {
			due := d.Due
			if !d.DueAt.IsZero() {
				due = e.Cal.DateOf(d.DueAt)
			}
			if d.Done || d.Period.Party != docket.Commission || due > horizon {
				continue
			}
			lines = append(lines, fmt.Sprintf("• %s: %s", c.Number, p.describe(c, d, now)))
		}
	}
	if len(lines) == 0 {
		return Reminder{}, false
	}
	text := fmt.Sprintf("Docket for %s: due within %d business days or overdue:\n%s", today.Long(), p.Policy.DigestWithin, strings.Join(lines, "\n"))
	return Reminder{Series: "digest", Step: "daily:" + today.String(), At: at, To: Dest{User: p.People.Clerk}, Text: text}, true
}
