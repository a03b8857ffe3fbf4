package docket

import (
	"crypto/sha256"
	"fmt"
	"time"
)

// NextDue is the earliest instant by which something about c falls due: the start of the
// day of its earliest undone deadline (the instant of a 48-hour notice, 5 ILCS 120/2.02),
// the start of the day a paper without a time limit became required (its receipt if the
// day is not known), the start of a scheduled meeting that had not begun at asOf, or, for
// a case expedited under (G) without its decision, its receipt, since the clerk is
// reminded of it every business day. asOf is the instant of the case's last event: a
// meeting that began before it has nothing more to be reminded of, and would otherwise
// keep the case due until its next event. Whoever reminds ahead of a due date counts back
// from this instant with its own lead times; an instant already past means the case is
// due now. It is zero when nothing about c is pending. It is a pure function of the case's
// facts and asOf under e (see DueBasis), so the store keeps it with the case and a sweep
// need read only the cases whose instant has come.
func (e *Engine) NextDue(c *Case, asOf time.Time) time.Time {
	sched := e.Schedule(&c.Facts, time.Time{})
	return e.NextDueOf(c, &sched, asOf)
}

// NextDueOf is NextDue of c whose schedule sched is already derived (Schedule, at any
// time: Done and the dates do not depend on it), for a caller that derives more from it.
func (e *Engine) NextDueOf(c *Case, sched *Schedule, asOf time.Time) time.Time {
	if c.Closed() {
		return time.Time{}
	}
	loc := e.Cal.Location()
	var next time.Time
	earlier := func(t time.Time) {
		if !t.IsZero() && (next.IsZero() || t.Before(next)) {
			next = t
		}
	}
	for _, d := range sched.Deadlines {
		if d.Done {
			continue
		}
		switch {
		case !d.DueAt.IsZero():
			earlier(d.DueAt)
		case !d.Due.IsZero():
			earlier(d.Due.In(loc))
		case !d.From.IsZero():
			// A paper without a time limit is due from the day it is required, and stays
			// due until it is sent.
			earlier(d.From.In(loc))
		default:
			earlier(c.Received)
		}
	}
	for _, k := range MeetingKinds {
		if m := c.Meeting(k); m.Scheduled() && m.Start.After(asOf) {
			earlier(m.Start)
		}
	}
	if sched.Expedited && c.DecisionIssued.IsZero() {
		earlier(c.Received)
	}
	return next.UTC()
}

// NextDueRules is the version of the rules NextDue derives by that are code, not data: the
// rows' Due, Done and Moot functions and NextDue itself. Raise it with any change to them
// that moves a case's next due instant; DueBasis then differs, and the store derives every
// open case's instant again when the bot next starts. The rows' data (periods, units,
// parties) and the calendar are in DueBasis already.
const NextDueRules = 2 // 2: a day begins where its midnight is skipped (Date.In)

// DueBasis fingerprints what NextDue is derived under: NextDueRules, the ordinance's
// table of periods, the mail policy, the time zone, and every business day and statutory
// holiday of the calendar's years (the configured holidays, closures and proclamations as
// they fall). Two engines with the same basis give every case the same next due instant, so
// a store keeps the basis with the instants it wrote, and knows them stale when it differs.
func (e *Engine) DueBasis() string {
	h := sha256.New()
	fmt.Fprintf(h, "rules %d\nzone %s\nmail %s %s\n", NextDueRules, e.Cal.loc.String(), e.Mail.Unclaimed,
		e.Mail.Undeliverable)
	for _, p := range e.Ord.periods {
		fmt.Fprintf(h, "period %s %s %d %s %s %s %v %v %v\n", p.ID, p.Rule, p.Amount, p.Unit, p.Trigger, p.Party,
			p.Papers, p.Meetings, p.Clerk)
	}
	for _, bits := range [][]uint64{e.Cal.closed, e.Cal.statutory} {
		fmt.Fprintf(h, "days %d:", e.Cal.first)
		for _, w := range bits {
			fmt.Fprintf(h, " %x", w)
		}
		fmt.Fprintln(h)
	}
	return fmt.Sprintf("%d:%x", NextDueRules, h.Sum(nil)[:16])
}

// Nearest is the step of a case, in its schedule sched, that the docket and the clerk's
// desk list as its next: of the steps not met and not the respondent's, the one that
// falls first by DocketInstant (the first in the table among equals), a missed filing
// limit (I) left out. ok is false when there is none. Met and missed do not depend on the
// time sched was counted at for the steps it keeps, so the store keeps the instant with
// the case and reads the docket in its order through an index.
func (e *Engine) Nearest(sched *Schedule) (next Deadline, at time.Time, ok bool) {
	for _, dl := range sched.Deadlines {
		if dl.Status == Met || dl.Period.Party == Respondent || dl.Status == Missed && dl.ID == FilingLimit {
			continue
		}
		if w := e.DocketInstant(dl); !ok || w.Before(at) {
			next, at, ok = dl, w, true
		}
	}
	return next, at, ok
}

// Undated is the DocketInstant of a task without a time limit: after every dated step.
var Undated = time.Unix(1<<39, 0)

// DocketInstant is when d falls, in the docket's order: a notice's instant, or the end of
// its due date; a task without a time limit, Undated.
func (e *Engine) DocketInstant(d Deadline) time.Time {
	if !d.DueAt.IsZero() {
		return d.DueAt
	}
	if !d.Dated() {
		return Undated
	}
	return d.Due.AddDays(1).In(e.Cal.Location())
}
