package docket

import (
	"fmt"
	"slices"
	"time"
)

// LateAct is a step recorded after the last day the ordinance gives it. Refusing it would
// block the commission, so it is recorded, and the case keeps how late it was: the reply,
// the docket line and the case card say so, naming the rule.
type LateAct struct {
	Rule string `json:"rule"` // "(E)", "(F)", "(G)"
	Step string `json:"step"` // what was recorded late: "decision", "final recommendation"
	Due  Date   `json:"due"`  // its last day
	On   Date   `json:"on"`   // the day it was recorded as done
}

// Days is how many calendar days late the step was.
func (l LateAct) Days() int { return int(l.On - l.Due) }

// String writes the late act for people: "decision on Mon 2027-02-01 late by 3 days:
// due by Fri 2027-01-29 (E)".
func (l LateAct) String() string {
	return fmt.Sprintf("%s on %s late by %s: due by %s %s", l.Step, l.On.Long(), Count(l.Days(), "day"),
		l.Due.Long(), l.Rule)
}

// checkLate records, and warns of, step done on day on after d, its deadline.
func (x *applying) checkLate(d Deadline, step string, on Date) {
	if d.Due.IsZero() || on <= d.Due {
		return
	}
	l := LateAct{Rule: d.Rule, Step: step, Due: d.Due, On: on}
	x.c.Late = append(x.c.Late, l)
	x.warn(d.Rule, "late by %s: the %s on %s was due by %s (%s)", Count(l.Days(), "day"), step, on.Long(),
		d.Due.Long(), d.Basis())
}

// expedited returns the case's (G) deadline and its election, if the case is expedited.
func (x *applying) expedited() (Deadline, Date, bool) {
	received := x.e.Cal.DateOf(x.c.Received)
	election, ok := x.e.expeditingElection(received, x.c.Elections)
	if !ok {
		return Deadline{}, 0, false
	}
	return x.e.electionDecision(received, election), election, true
}

// checkElectionLate records, and warns of, the commission's decision of an expedited case
// on day on after its (G) date.
func (x *applying) checkElectionLate(step string, on Date) {
	if g, _, ok := x.expedited(); ok {
		x.checkLate(g, step, on)
	}
}

// warnAfterElectionDate warns when a meeting of an expedited case, before its decision, is
// set after the (G) date: the decision cannot be on time.
func (x *applying) warnAfterElectionDate(name string, start time.Time) {
	g, election, ok := x.expedited()
	if !ok || x.c.Decision != nil || x.c.disposedAtC() {
		return
	}
	if day := x.e.Cal.DateOf(start); day > g.Due {
		x.warn("(G)",
			"the %s on %s is after %s, the last day for the expedited decision before the election on %s: the decision "+
				"will be late", name, day.Long(), g.Due.Long(), election.Long())
	}
}

// whyNotExpedited says, when the respondent is a candidate but the complaint is not
// expedited, why not: "not expedited under (G): the election on Tue 6 Apr 2027 is 64 days
// after receipt; (G) applies to complaints filed in the 60 days before it".
func (x *applying) whyNotExpedited(elections []Date) {
	received := x.e.Cal.DateOf(x.c.Received)
	if _, ok := x.e.expeditingElection(received, x.c.Elections); ok || len(elections) == 0 {
		return
	}
	p := x.e.Ord.Period(ElectionPeriod)
	for _, el := range elections {
		when := el.utc().Format("Mon 2 Jan 2006")
		if el <= received {
			x.warn("(G)",
				"not expedited under (G): the election on %s is not after receipt on %s; (G) applies to complaints filed in the "+
					"%s before it", when, received.Long(), p.describe())
			continue
		}
		x.warn("(G)",
			"not expedited under (G): the election on %s is %s after receipt; (G) applies to complaints filed in the "+
				"%s before it", when, Count(int(el-received), "day"), p.describe())
	}
}

// frivolousNoticeGiven reports whether a certified notice to the complainant gave the (H)
// meeting's date, time and place as it now stands.
func (x *applying) frivolousNoticeGiven() bool {
	m := x.c.FrivolousHearing
	return slices.ContainsFunc(x.c.Mailings, func(ml Mailing) bool {
		return ml.Paper == FrivolousNotice && ml.MeetingStart.Equal(m.Start) && ml.MeetingPlace == m.Place
	})
}

// frivolousGaps is what the record lacks before an (H) finding against the complainant:
// a meeting held, noticed 48 hours ahead, of which the complainant had certified notice.
func (x *applying) frivolousGaps() []gap {
	m := x.c.FrivolousHearing
	without := "a meeting, noticed 48 hours ahead, at which the complainant could be heard"
	if !m.Scheduled() {
		return []gap{{rule: "(H)", without: without,
			problem: fmt.Sprintf("the complainant must first be heard: schedule the meeting (schedule %s frivolous_meeting "+
				"<start> place=\"...\"), post its notice 48 hours ahead, mail the complainant its certified notice (mail %s "+
				"frivolous_notice <article no.>), and record the finding once it has met", x.number(), x.number())}}
	}
	if m.Start.After(x.at) {
		return []gap{{rule: "(H)", without: without,
			problem: fmt.Sprintf("the meeting at which the complainant may be heard, at %s, has not begun; record the finding "+
				"once it has met", x.e.shortTime(m.Start))}}
	}
	gaps := x.noticeGap(FrivolousMeeting, m)
	if !x.frivolousNoticeGiven() {
		gaps = append(gaps, gap{rule: "(H)", without: "a certified notice to the complainant of the meeting",
			problem: fmt.Sprintf("no certified notice to the complainant giving the meeting's date, time and place (%s, %s) "+
				"is recorded as mailed; record the mailing first (mail %s frivolous_notice <article no.>)", x.e.shortTime(m.Start),
				m.Place, x.number())})
	}
	return gaps
}
