package docket

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// This file keeps the notice records truthful. (C)(1), (D) and (F) let the commission
// meet on a complaint only "upon not less than 48 hours' public notice", and (B) has both
// parties told the sufficiency meeting's date, time and place. So a posting is recorded
// only between the meeting's scheduling and now, and a step taken at a meeting (a ruling,
// a hearing's recess or conclusion, a public hearing held) is recorded only when the record
// shows that meeting's notice posted in time, or with an override that says why.

// Override is a step recorded although the record does not show a condition the
// ordinance sets for it, such as the 48 hours' public notice of (C)(1), with the reason
// the commission gave. It is kept on the case, so the card, the docket channel and every
// export show it.
type Override struct {
	Rule    string `json:"rule"`    // the subsection not shown met, e.g. "(C)(1)"
	Step    string `json:"step"`    // what was recorded: "ruling", "recess", "hearing's conclusion", "public hearing"
	Without string `json:"without"` // what the record lacks: "48 hours' posted notice of the sufficiency meeting"
	Reason  string `json:"reason"`
	On      Date   `json:"on"` // the day it was recorded
}

// MaxReason is the longest override reason: one line, long enough to say what happened.
const MaxReason = 500

// gap is a condition for a step that the record does not show met.
type gap struct {
	rule    string
	without string // as an Override says it
	problem string // as a refusal says it, with what to do about it
}

// noticeMet reports whether meeting m of kind k had its public notice posted at least the
// notice period before it started (C)(1), (D), (F).
func (e *Engine) noticeMet(k MeetingKind, m Meeting) bool {
	return !m.NoticePosted.IsZero() && !m.NoticePosted.After(e.noticeDue(k, m))
}

// noticeDue is the last instant to post the notice of meeting m of kind k: the notice
// period, counted in exact hours, before it starts.
func (e *Engine) noticeDue(k MeetingKind, m Meeting) time.Time {
	return m.Start.Add(-time.Duration(e.Ord.Period(meetingRules[k].notice).Amount) * time.Hour)
}

// noticeGap is the gap, if any, in the public notice of meeting m of kind k, at which the
// step is taken: no posting recorded, or one recorded less than the notice period before
// the meeting. The refusal gives the earliest lawful start of the meeting held again.
func (x *applying) noticeGap(k MeetingKind, m Meeting) []gap {
	if x.e.noticeMet(k, m) {
		return nil
	}
	mr := meetingRules[k]
	p := x.e.Ord.Period(mr.notice)
	g := gap{rule: mr.rule, without: fmt.Sprintf("%s' posted notice of the %s", p.describe(), mr.name)}
	redo := fmt.Sprintf("reschedule the %s: with its notice posted now, the earliest lawful start is %s", mr.name,
		x.e.shortTime(x.e.EarliestMeeting(mr.notice, x.at)))
	if m.NoticePosted.IsZero() {
		g.problem = fmt.Sprintf("the %s at %s needs %s' public notice, and no posting of its notice is recorded. If it was "+
			"posted in time, record that first (posted %s %s at=<time>); if not, %s",
			mr.name, x.e.shortTime(m.Start), p.describe(), x.number(), k, redo)
	} else {
		g.problem = fmt.Sprintf("the %s at %s needs %s' public notice, but its notice was posted at %s, only %s "+
			"before it; %s",
			mr.name, x.e.shortTime(m.Start), p.describe(), x.e.shortTime(m.NoticePosted),
			hoursMinutes(m.Start.Sub(m.NoticePosted)), redo)
	}
	return []gap{g}
}

// mailingGaps is the gap, if any, in the (B) notices: each party must be sent by certified
// mail the sufficiency meeting's date, time and place, as the meeting now stands.
func (x *applying) mailingGaps() []gap {
	var missing []string
	for _, p := range []Party{Respondent, Complainant} {
		if !slices.ContainsFunc(x.c.Mailings,
			func(m Mailing) bool { return m.Recipient == p && m.announces(x.c.Sufficiency) }) {
			missing = append(missing, string(p))
		}
	}
	if len(missing) == 0 {
		return nil
	}
	to := strings.Join(missing, " and the ")
	return []gap{{rule: "(B)", without: "a certified notice to the " + to + " of the sufficiency meeting",
		problem: fmt.Sprintf("no certified notice to the %s giving the sufficiency meeting's date, time and place (%s, %s) "+
			"is recorded as mailed; record the mailing first (mail %s %s <article no.>)",
			to, x.e.shortTime(x.c.Sufficiency.Start), x.c.Sufficiency.Place, x.number(), missing[0])}}
}

// number is the case's number for a message, or a placeholder before it has one.
func (x *applying) number() string {
	if x.c.Number == "" {
		return "<number>"
	}
	return x.c.Number
}

// hoursMinutes writes a duration for a clerk: "47 hours", "47 hours 30 minutes".
func hoursMinutes(d time.Duration) string {
	h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
	s := Count(h, "hour")
	if m > 0 {
		s += " " + Count(m, "minute")
	}
	return s
}

// override refuses step when the record shows gaps in what the ordinance sets for it,
// unless reason (checked with applying.checkOverride first) overrides them; then each gap is kept
// on the case as an Override. A reason given where nothing needs overriding is refused, so
// that the record holds no override of nothing.
func (x *applying) override(step, reason string, gaps []gap) error {
	if len(gaps) == 0 {
		if reason != "" {
			return Invalid("", "override",
				"nothing needs overriding: the record shows what the ordinance requires for this step; record it without override=")
		}
		return nil
	}
	if reason == "" {
		problems := make([]string, len(gaps))
		for i, g := range gaps {
			problems[i] = g.problem
		}
		return conflict(overrideRule(gaps),
			fmt.Sprintf("cannot record the %s: %s. To record it anyway, give the reason: override=\"<reason>\"",
				step, strings.Join(problems, "; and ")))
	}
	for _, g := range gaps {
		x.c.Overrides = append(x.c.Overrides,
			Override{Rule: g.rule, Step: step, Without: g.without, Reason: reason, On: x.today})
	}
	return nil
}

// checkOverride refuses an override reason that is not one line of text, under rule, the
// subsection whose requirement it would override. No reason is no override.
func (x *applying) checkOverride(rule, reason string) error {
	if reason == "" {
		return nil
	}
	return x.checkLine("override", rule, reason, true, MaxReason)
}

// overrideRule names the subsections of gaps: "(C)(1)", "(C)(1), (B)".
func overrideRule(gaps []gap) string {
	var rules []string
	for _, g := range gaps {
		if !slices.Contains(rules, g.rule) {
			rules = append(rules, g.rule)
		}
	}
	return strings.Join(rules, ", ")
}

// checkPosting refuses a posting time outside the span in which the notice of m, of kind
// k, can have been posted: from when the meeting was scheduled as it now stands (for a
// record made before that was kept, from the complaint's receipt) until now, and before the
// meeting. A notice posted earlier announced something else; one in the future is not yet
// posted.
func (x *applying) checkPosting(k MeetingKind, m Meeting, posted time.Time) error {
	mr := meetingRules[k]
	from, what := m.ScheduledAt, "the "+mr.name+" was scheduled as it now stands"
	if from.IsZero() {
		from, what = x.c.Received, "the complaint was received"
	}
	switch {
	case posted.After(x.at):
		return Invalid(mr.rule, "posted",
			fmt.Sprintf("%s is in the future: it is now %s; record the posting once it is done", x.e.shortTime(posted),
				x.e.shortTime(x.at)))
	case posted.Before(from):
		return Invalid(mr.rule, "posted",
			fmt.Sprintf("%s is before %s, at %s: a notice of this %s cannot have been posted then", x.e.shortTime(posted), what,
				x.e.shortTime(from), mr.name))
	case !posted.Before(m.Start):
		return Invalid(mr.rule, "posted",
			fmt.Sprintf("%s is not before the %s at %s", x.e.shortTime(posted), mr.name, x.e.shortTime(m.Start)))
	}
	return nil
}

// warnClosedDeadline warns, when a meeting is scheduled, if the last instant to post its
// notice falls on a day the office is closed (a weekend or a holiday), and says by when to
// post it instead: on the last business day before, or, if that day has passed, by the
// instant itself.
func (x *applying) warnClosedDeadline(k MeetingKind, m Meeting) {
	mr := meetingRules[k]
	due := x.e.noticeDue(k, m)
	day := x.e.Cal.DateOf(due)
	if x.e.Cal.IsBusinessDay(day) {
		return
	}
	closed := x.e.Cal.Closure(day)
	switch open := x.e.Cal.SubBusinessDays(day, 1); {
	case open > x.today:
		x.warn(mr.rule, "the notice of the %s must be posted by %s, %s: post it before the office closes on %s", mr.name,
			x.e.shortTime(due), closed, open.Short())
	case open == x.today:
		x.warn(mr.rule, "the notice of the %s must be posted by %s, %s: post it before the office closes today, %s", mr.name,
			x.e.shortTime(due), closed, open.Short())
	default:
		x.warn(mr.rule,
			"the notice of the %s must be posted by %s, %s, while the office is closed: arrange for it to be posted by then",
			mr.name, x.e.shortTime(due), closed)
	}
}
