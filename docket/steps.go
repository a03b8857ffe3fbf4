package docket

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// row returns the ordinance's row for id as the defaults give it. What a row says beyond
// its period (its papers, its command, its meetings) is not configurable, so every
// ordinance shares it.
func row(id DeadlineID) (*Period, bool) {
	i := slices.IndexFunc(defaultPeriods, func(p Period) bool { return p.ID == id })
	if i < 0 {
		return nil, false
	}
	return &defaultPeriods[i], true
}

// PaperFor returns the paper that meets deadline id in case c, from the row's Papers: for
// the (C)(1) ruling notices, the (C)(2) notice of dismissal when the ruling dismissed the
// complaint or a part of it.
func (c *Case) PaperFor(id DeadlineID) (PaperInfo, bool) {
	r, ok := row(id)
	if !ok {
		return PaperInfo{}, false
	}
	for _, p := range r.Papers {
		info, ok := p.Info()
		if !ok {
			continue
		}
		dismissal := p == DismissalToRespondent || p == DismissalToComplainant
		if len(r.Papers) > 1 && dismissal != c.dismissedAtC() {
			continue
		}
		return info, true
	}
	return PaperInfo{}, false
}

// Command is the /ethics command, without "/ethics", that records deadline d of case c
// as met: the certified mailing or the delivery of the paper that meets it, or the row's
// Record with the case number and the meeting filled in. "" for a step the commission
// does not record itself.
func (c *Case) Command(d Deadline) string {
	if pi, ok := c.PaperFor(d.ID); ok {
		return c.PaperCommand(pi.Paper)
	}
	if d.Period == nil {
		return ""
	}
	return strings.NewReplacer("{case}", c.Number, "{meeting}", string(d.Of)).Replace(d.Period.Record)
}

// PaperCommand is the /ethics command, without "/ethics", that records paper p of case c
// as sent, as its row in the table of papers says: its certified mailing with the article
// number, for a paper the ordinance sends certified, or its delivery. "" for a paper the
// ordinance does not have.
func (c *Case) PaperCommand(p Paper) string {
	info, ok := p.Info()
	switch {
	case !ok:
		return ""
	case info.Certified:
		return "mail " + c.Number + " " + string(p) + " <article no.>"
	}
	return "delivered " + c.Number + " " + string(p)
}

// once is the date of a step that happens once, if it has: none for the zero date.
func once(d Date) []Date {
	if d.IsZero() {
		return nil
	}
	return []Date{d}
}

// fromReceipt is the day the commission received the complaint (A), from which (B), the
// (C)(1) ruling and its notices, (C)(2)'s hearing and (G) count.
func fromReceipt(e *Engine, f *Facts) []Date { return []Date{e.Cal.DateOf(f.Received)} }

// rulingDay is the day of the (C)(1) ruling: as recorded, or, for a ruling recorded
// without its date, the sufficiency meeting's; zero if neither is known.
func (f *Facts) rulingDay(c *Calendar) Date {
	if f.RulingDate.IsZero() && f.Ruling != "" && f.Sufficiency.Scheduled() {
		return c.DateOf(f.Sufficiency.Start)
	}
	return f.RulingDate
}

// adjudicationElected is when (C)(2)'s request to the attorney is called for: from the
// ruling that elected it (its day, if known), or once the request is recorded.
func adjudicationElected(e *Engine, f *Facts) []Date {
	if f.Ruling != JudicialReferral && f.AdjudicationRequested.IsZero() {
		return nil
	}
	return []Date{f.rulingDay(e.Cal)}
}

// referredToAttorney is when (C)(3)'s transmittal to the attorney is called for: from the
// ruling that referred the complaint, or its §103.05 part (its day, if known), or once the
// transmittal is recorded.
func referredToAttorney(e *Engine, f *Facts) []Date {
	if f.Ruling != AttorneyReferral && f.ReferralRuling != AttorneyReferral && f.ReferralTransmitted.IsZero() {
		return nil
	}
	return []Date{f.rulingDay(e.Cal)}
}

// frivolousHeard is when (H)'s notice to the complainant of the meeting at which to be
// heard is called for: from the day the meeting was scheduled (its start, in records from
// before that was kept).
func frivolousHeard(e *Engine, f *Facts) []Date {
	if !f.FrivolousHearing.Scheduled() {
		return nil
	}
	scheduled := f.FrivolousHearing.ScheduledAt
	if scheduled.IsZero() {
		scheduled = f.FrivolousHearing.Start
	}
	return []Date{e.Cal.DateOf(scheduled)}
}

// mapped maps xs by f: a row's Due, Done and Rules of a step that recurs.
func mapped[X, Y any](xs []X, f func(X) Y) []Y {
	ys := make([]Y, len(xs))
	for i, x := range xs {
		ys[i] = f(x)
	}
	return ys
}

// enforceableFine is a fine owed that may be enforced, and the day from which it may.
type enforceableFine struct {
	FineOwed
	from Date
}

// enforceable lists the fines of f that may be enforced, each with the day from which the
// commission's term to pay runs (Engine.fineFrom): none while (F) stays it.
func (e *Engine) enforceable(f *Facts) []enforceableFine {
	var out []enforceableFine
	for _, fo := range f.Fines {
		if from, ok := e.fineFrom(f, fo.Rule, fo.On); ok {
			out = append(out, enforceableFine{fo, from})
		}
	}
	return out
}

// recommended is when (E)(2)'s recommendation calls for its delivery to the respondent and
// to the officer with authority to discipline: the day it issued.
func recommended(_ *Engine, f *Facts) []Date { return once(f.RecommendationIssued) }

// finallyRecommended is when (F)'s final recommendation calls for its delivery: the day it
// issued.
func finallyRecommended(_ *Engine, f *Facts) []Date { return once(f.FinalRecommendation) }

// dismissedAfterHearing is when an (E)(1) dismissal after the hearing calls for its
// notices: the decision, if it dismissed the complaint.
func dismissedAfterHearing(_ *Engine, f *Facts) []Date {
	if !f.DecisionDismissed {
		return nil
	}
	return []Date{f.DecisionIssued}
}

// reconvening is when a recessed hearing calls for its notices to the parties (D): once the
// session it reconvenes at is scheduled, from the day of the session that recessed, so
// that the clerk is reminded before the parties are due to come.
func reconvening(e *Engine, f *Facts) []Date {
	if !f.Reconvened.Scheduled() {
		return nil
	}
	recessed := f.Hearing.Start
	if n := len(f.Sessions); n > 0 {
		recessed = f.Sessions[n-1].Start
	}
	return []Date{e.Cal.DateOf(recessed)}
}

// hearingHeard is when a recessed hearing's notices are moot: the hearing has concluded,
// or the (E) decision is issued.
func hearingHeard(f *Facts) bool { return !f.HearingConcluded.IsZero() || !f.DecisionIssued.IsZero() }

// publicHearingHeard is when the (F) demand's acknowledgement and the public hearing's
// notices are moot: the public hearing has been held, or the final recommendation issued.
func publicHearingHeard(f *Facts) bool {
	return !f.PublicHearingHeld.IsZero() || !f.FinalRecommendation.IsZero()
}

// frivolousFound is when the (H) finding calls for its notice to the complainant: the day
// it was made.
func frivolousFound(_ *Engine, f *Facts) []Date { return once(f.FrivolousFound) }

// demanded is when the (F) demand calls for its acknowledgement: the day it was received.
func demanded(_ *Engine, f *Facts) []Date { return once(f.DemandReceived) }

// publicHearingSet is when the (F) public hearing calls for its notices to the parties: once
// it is scheduled, from the day the demand was received, so that the clerk is reminded at
// once, well before the hearing.
func publicHearingSet(e *Engine, f *Facts) []Date {
	if !f.PublicHearing.Scheduled() {
		return nil
	}
	if !f.DemandReceived.IsZero() {
		return []Date{f.DemandReceived}
	}
	return []Date{e.Cal.DateOf(f.PublicHearing.Start)}
}

// noticed is the meetings of kind k the facts schedule, each of which needs its public
// notice: a recessed hearing's earlier sessions, held, and the one it reconvenes at.
func (f *Facts) noticed(k MeetingKind) []Meeting {
	var ms []Meeting
	if k == RecessedHearing {
		ms = append(ms, f.Sessions...)
	}
	if m := *f.meeting(k); m.Scheduled() {
		ms = append(ms, m)
	}
	return ms
}

// scheduler is one walk of Engine.ScheduleInto over the table of steps: the schedule it
// builds, and the day and instant that decide what is missed.
type scheduler struct {
	e     *Engine
	f     *Facts
	now   time.Time
	today Date
	s     Schedule
}

// row appends the deadlines of row p: for a row counted in hours, one for the public
// notice of each of its Meetings the facts schedule; for the others, one from each date
// its Due gives, done on the matching date of its Done.
func (sc *scheduler) row(p *Period) {
	e, f := sc.e, sc.f
	if p.Unit == Hours {
		for _, k := range p.Meetings {
			for _, m := range f.noticed(k) {
				sc.notice(p, k, m)
			}
		}
		return
	}
	if p.Due == nil {
		return // a window, not a step: (G)'s 60 days
	}
	done := p.done(e, f)
	var rules []string
	if p.Rules != nil {
		rules = p.Rules(e, f)
	}
	for j, from := range p.Due(e, f) {
		var on Date
		if j < len(done) {
			on = done[j]
		}
		if on.IsZero() && p.moot(f) {
			continue
		}
		if p.Unit == Task {
			sc.task(p, from, on)
			continue
		}
		d := e.after(p.ID, from)
		if p.Count != nil {
			d = p.Count(e, f, from)
		}
		if j < len(rules) {
			d.Rule = rules[j]
		}
		sc.add(d, on, p.Implied != nil && p.Implied(f))
	}
}

// add appends date deadline d, done on day done. implied says that a later fact implies
// its step was done, on a date not given: undone, it is then met, as sparse facts are read
// (the ruling issued, so the meeting was held).
func (sc *scheduler) add(d Deadline, done Date, implied bool) {
	if done.IsZero() && implied {
		d.Status, d.Done = Met, true
	} else {
		d.Status, d.Done, d.DoneOn = dateStatus(d.Due, done, sc.today), !done.IsZero(), done
	}
	sc.s.Deadlines = append(sc.s.Deadlines, d)
}

// task appends the task of row p, required since from, done on day done: open until done,
// never missed.
func (sc *scheduler) task(p *Period, from, done Date) {
	d := Deadline{ID: p.ID, Rule: p.Rule, Period: p, Status: Open, Done: !done.IsZero(), DoneOn: done, From: from}
	if d.Done {
		d.Status = Met
	}
	sc.s.Deadlines = append(sc.s.Deadlines, d)
}

// notice appends the deadline of the public notice of meeting m, of kind k, by row p's
// hours before it starts (5 ILCS 120/2.02), met when the notice was posted.
func (sc *scheduler) notice(p *Period, k MeetingKind, m Meeting) {
	d := sc.e.before(p.ID, k.what(), m.Start)
	d.Of = k
	d.Status, d.Done = instantStatus(d.DueAt, m.NoticePosted, sc.now), !m.NoticePosted.IsZero()
	sc.s.Deadlines = append(sc.s.Deadlines, d)
}

// moot reports whether the row's paper is no longer called for (Period.Moot).
func (p *Period) moot(f *Facts) bool { return p.Moot != nil && p.Moot(f) }

// countingEngine is the engine Case.PapersOwed and Case.Needs give a row's Due and Done,
// which have none: they ask only how many dates each gives, and that depends neither on
// the zone nor on a period's length.
func countingEngine() *Engine {
	return &Engine{Cal: &Calendar{loc: time.UTC}, Ord: Ordinance{periods: defaultPeriods}}
}

// PapersOwed lists the papers the case needs that are not recorded as sent, in order: the
// papers of the rows that owe them (Period.Owed), or, for a row without an Owed, whose Due
// gives more dates than its Done, unless the paper is moot. A row of several papers owes
// the one Case.PaperFor chooses. The papers of (E)(1), (E)(2) and (F) are owed by a
// dismissal or a decision recorded since they were tracked; a case closed before keeps
// its closed state, so that the record's "open" column still agrees with it
// (store.Verify), and its letters can still be sent.
func (c *Case) PapersOwed() []Paper {
	var owed []Paper
	e := countingEngine()
	for i := range defaultPeriods {
		p := &defaultPeriods[i]
		if p.Due == nil || len(p.Papers) == 0 {
			continue
		}
		if p.Owed != nil && !p.Owed(c) ||
			p.Owed == nil && (p.moot(&c.Facts) || len(p.Due(e, &c.Facts)) <= len(p.done(e, &c.Facts))) {
			continue
		}
		if info, ok := c.PaperFor(p.ID); ok {
			owed = append(owed, info.Paper)
		}
	}
	return owed
}

// Needs returns nil if case c needs paper p now, or an error naming the rule that says
// why not: the paper does not apply to the case, or what it must say has not been decided.
// Letters and the record of mailings ask the same question here. The row the paper meets
// says it (Period.Needs); without one, the case needs the paper once the row gives a date
// to count from.
func (c *Case) Needs(p Paper) error {
	info, err := checkPaper(p)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(defaultPeriods, func(r Period) bool { return slices.Contains(r.Papers, p) })
	if i < 0 {
		return nil
	}
	r := &defaultPeriods[i]
	if r.Needs != nil {
		return r.Needs(c, info)
	}
	if len(r.Due(countingEngine(), &c.Facts)) == 0 {
		return c.needIf(info, false, r.Trigger+" has not happened")
	}
	return nil
}

// needIf is Case.Needs when case c needs paper info if ok, and why not otherwise.
func (c *Case) needIf(info PaperInfo, ok bool, why string) error {
	if ok {
		return nil
	}
	return conflict(info.Rule, fmt.Sprintf("case %s does not need the %s: %s", c.Number, info.Name, why))
}

// sufficiencyGiven is (B)'s Needs: the notices must give the date, time and place of the
// sufficiency meeting.
func sufficiencyGiven(c *Case, _ PaperInfo) error {
	if !c.Sufficiency.Scheduled() {
		return conflict("(B)",
			"the notice must give the date, time and place of the sufficiency meeting; schedule that meeting first")
	}
	return nil
}

// rulingNoticed is (C)(1)'s Needs for the notices of the ruling: once the commission has
// ruled, the notice of the ruling, or, for a ruling that dismissed the complaint or a part
// of it, the notice of dismissal (C)(2); a notice of probable cause once the hearing it
// must give is scheduled.
func rulingNoticed(c *Case, info PaperInfo) error {
	if info.Paper == DismissalToRespondent || info.Paper == DismissalToComplainant {
		return c.needIf(info, c.dismissedAtC(), "the (C) ruling did not dismiss it")
	}
	if err := c.needIf(info, c.Ruling != "", "the commission has not ruled"); err != nil {
		return err
	}
	if c.dismissedAtC() {
		return conflict("(C)(2)",
			fmt.Sprintf("the ruling dismissed the complaint, or a part of it, so its notice is the notice of dismissal, sent "+
				"by certified mail: %s", strings.Replace(string(info.Paper), "ruling_", "dismissal_", 1)))
	}
	// (C)(2): a notice of probable cause includes the hearing date.
	if c.Ruling == ProbableCause && !c.Hearing.Scheduled() {
		return conflict("(C)(2)",
			"the notice of a ruling of probable cause must include the hearing date; schedule the hearing first")
	}
	return nil
}

// recommendationIssued is (E)(2)'s Needs: a recommendation for discipline or a fine issued.
func recommendationIssued(c *Case, info PaperInfo) error {
	return c.needIf(info, c.Decision != nil && !c.Decision.Dismissed,
		"no recommendation for discipline or fine has been issued under (E)(2)")
}

// finalIssued is (F)'s Needs for the final recommendation's deliveries.
func finalIssued(c *Case, info PaperInfo) error {
	return c.needIf(info, c.Final != nil, "no final recommendation has been issued under (F)")
}

// dismissalDecided is (E)(1)'s Needs: the decision dismissed the complaint.
func dismissalDecided(c *Case, info PaperInfo) error {
	return c.needIf(info, c.Decision != nil && c.Decision.Dismissed, "the (E) decision has not dismissed the complaint")
}

// meetingScheduled is (D)'s and (F)'s Needs for the parties' notices of a meeting: each
// gives its date, time and place.
func meetingScheduled(c *Case, info PaperInfo) error {
	return c.needIf(info, c.Meeting(info.Meeting).Scheduled(),
		fmt.Sprintf("no %s is scheduled; schedule it first", meetingNames[info.Meeting]))
}

// frivolousMeetingSet is (H)'s Needs for the notice of the meeting: scheduled, and no
// finding made yet.
func frivolousMeetingSet(c *Case, info PaperInfo) error {
	if c.Frivolous != nil {
		return c.needIf(info, false, "the finding under (H) has been made")
	}
	return c.needIf(info, c.FrivolousHearing.Scheduled(),
		"no meeting on whether the complaint was knowingly frivolous is scheduled; schedule it first")
}

// done is the dates row p's step was done in f: its Done, or, for a row without one, the
// dates its paper was sent as Facts.PapersSent records them.
func (p *Period) done(e *Engine, f *Facts) []Date {
	if p.Done != nil {
		return p.Done(e, f)
	}
	return f.PapersSent[p.Papers[0]]
}

// recordedAsSent reports whether paper pp's sending is kept in Facts.PapersSent: it meets
// a row that has no Done of its own.
func recordedAsSent(pp Paper) bool {
	for i := range defaultPeriods {
		p := &defaultPeriods[i]
		if p.Due != nil && p.Done == nil && slices.Contains(p.Papers, pp) {
			return true
		}
	}
	return false
}
