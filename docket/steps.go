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
		if pi.Certified {
			return "mail " + c.Number + " " + string(pi.Paper) + " <article no.>"
		}
		return "delivered " + c.Number + " " + string(pi.Paper)
	}
	if d.Period == nil {
		return ""
	}
	return strings.NewReplacer("{case}", c.Number, "{meeting}", string(d.Of)).Replace(d.Period.Record)
}

// once is the date of a step that happens once, if it has: none for the zero date.
func once(d Date) []Date {
	if d.IsZero() {
		return nil
	}
	return []Date{d}
}

// recommended is when (E)(2)'s recommendation calls for its delivery to the respondent and
// to the officer with authority to discipline: the day it issued.
func recommended(f *Facts, _ *Calendar) []Date { return once(f.RecommendationIssued) }

// finallyRecommended is when (F)'s final recommendation calls for its delivery: the day it
// issued.
func finallyRecommended(f *Facts, _ *Calendar) []Date { return once(f.FinalRecommendation) }

// dismissedAfterHearing is when an (E)(1) dismissal after the hearing calls for its
// notices: the decision, if it dismissed the complaint.
func dismissedAfterHearing(f *Facts, _ *Calendar) []Date {
	if !f.DecisionDismissed {
		return nil
	}
	return []Date{f.DecisionIssued}
}

// reconvening is when a recessed hearing calls for its notices to the parties (D): once the
// session it reconvenes at is scheduled, from the day of the session that recessed, so
// that the clerk is reminded before the parties are due to come.
func reconvening(f *Facts, c *Calendar) []Date {
	if !f.Reconvened.Scheduled() {
		return nil
	}
	recessed := f.Hearing.Start
	if n := len(f.Sessions); n > 0 {
		recessed = f.Sessions[n-1].Start
	}
	return []Date{c.DateOf(recessed)}
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
func frivolousFound(f *Facts, _ *Calendar) []Date { return once(f.FrivolousFound) }

// demanded is when the (F) demand calls for its acknowledgement: the day it was received.
func demanded(f *Facts, _ *Calendar) []Date { return once(f.DemandReceived) }

// publicHearingSet is when the (F) public hearing calls for its notices to the parties: once
// it is scheduled, from the day the demand was received, so that the clerk is reminded at
// once, well before the hearing.
func publicHearingSet(f *Facts, c *Calendar) []Date {
	if !f.PublicHearing.Scheduled() {
		return nil
	}
	if !f.DemandReceived.IsZero() {
		return []Date{f.DemandReceived}
	}
	return []Date{c.DateOf(f.PublicHearing.Start)}
}

// fromRows counts, for every row that schedules itself (Period.Due), a deadline from each
// date its row gives, done on the matching date of Done: a task without a time limit, or a
// period counted after the date as every other is.
func (e *Engine) fromRows(f *Facts, add func(d Deadline, done Date), addTask func(id DeadlineID, from, done Date)) {
	for i := range e.Ord.periods {
		p := &e.Ord.periods[i]
		if p.Due == nil {
			continue
		}
		done := p.done(f)
		for j, from := range p.Due(f, e.Cal) {
			var on Date
			if j < len(done) {
				on = done[j]
			}
			if on.IsZero() && p.moot(f) {
				continue
			}
			if p.Unit == Task {
				addTask(p.ID, from, on)
			} else {
				add(e.after(p.ID, from), on)
			}
		}
	}
}

// moot reports whether the row's paper is no longer called for (Period.Moot).
func (p *Period) moot(f *Facts) bool { return p.Moot != nil && p.Moot(f) }

// counting is the calendar Case.PapersOwed and Case.Needs give a row's Due, which have no
// engine: they ask only how many dates it gives, and that does not depend on the zone.
var counting = &Calendar{loc: time.UTC}

// owedByRows lists the papers of the rows that schedule themselves that are called for
// and not yet all sent.
func (c *Case) owedByRows() []Paper {
	var owed []Paper
	for i := range defaultPeriods {
		p := &defaultPeriods[i]
		if p.Due != nil && len(p.Papers) > 0 && !p.moot(&c.Facts) && len(p.Due(&c.Facts, counting)) > len(p.done(&c.Facts)) {
			owed = append(owed, p.Papers[0])
		}
	}
	return owed
}

// rowNeeds is Case.Needs for a paper of a row that schedules itself: the case needs it
// once the row gives a date to count from. ok is false for the other papers.
func (c *Case) rowNeeds(info PaperInfo) (ok bool, err error) {
	for i := range defaultPeriods {
		p := &defaultPeriods[i]
		if p.Due == nil || !slices.Contains(p.Papers, info.Paper) {
			continue
		}
		if len(p.Due(&c.Facts, counting)) == 0 {
			why := fmt.Sprintf("case %s does not need the %s: %s has not happened", c.Number, info.Name, p.Trigger)
			return true, conflict(info.Rule, why)
		}
		return true, nil
	}
	return false, nil
}

// done is the dates row p's step was done in f: its Done, or, for a row without one, the
// dates its paper was sent as Facts.PapersSent records them.
func (p *Period) done(f *Facts) []Date {
	if p.Done != nil {
		return p.Done(f)
	}
	return f.PapersSent[p.Papers[0]]
}

// recordedAsSent reports whether paper pp's sending is kept in Facts.PapersSent: it meets
// a row that schedules itself and has no Done of its own.
func recordedAsSent(pp Paper) bool {
	for i := range defaultPeriods {
		p := &defaultPeriods[i]
		if p.Due != nil && p.Done == nil && slices.Contains(p.Papers, pp) {
			return true
		}
	}
	return false
}
