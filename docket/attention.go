package docket

import (
	"slices"
	"time"
)

// Attention is what of a case needs the commission's attention, as the clerk's desk lists
// it, with the instants each line starts and stops being listed: the commission's steps
// overdue (5 ILCS 70/1.11 counts them, docs/deadlines.md), the certified mailings that
// came back and await their next step (B), and the papers the ordinance requires that are
// not yet recorded as sent, (B), (C), (E), (F), (H). It depends on the case's facts and the
// calendar alone, not on the time it is derived at, so the store keeps its lines' spans
// with the case and counts the lines listed at any instant without decoding a case.
type Attention struct {
	// Steps are the commission's steps not done that are, or will be, listed, in the
	// order of the schedule.
	Steps []AttentionStep
	// Owed are the papers owed (Case.PapersOwed) that no returned mailing's task sends
	// again, in order, each with the instant an overdue step names it instead.
	Owed []OwedPaper
}

// AttentionStep is a step of the commission not done that needs its attention.
type AttentionStep struct {
	Deadline Deadline
	// Returned is true for the task of a certified mailing that came back: listed until
	// done. Otherwise the step is listed as overdue from From (Engine.MissedFrom).
	Returned bool
	From     time.Time
}

// OwedPaper is a paper owed, listed among the papers owed until Named, when an overdue step
// of the commission sends it and names it instead; zero if none does.
type OwedPaper struct {
	Paper Paper
	Named time.Time
}

// Attention is what of c, whose schedule is sched, needs the commission's attention (see
// Attention). sched may be counted at any time: Done and the dates do not depend on it.
func (e *Engine) Attention(c *Case, sched *Schedule) Attention {
	var a Attention
	resent := map[Paper]bool{}
	named := map[Paper]time.Time{}
	for _, dl := range sched.Deadlines {
		if dl.Done || dl.Period.Party != Commission {
			continue
		}
		if paper, _, ok := e.ResendOf(c, dl); ok {
			a.Steps = append(a.Steps, AttentionStep{Deadline: dl, Returned: true})
			resent[paper] = true
			continue
		}
		if !dl.Dated() { // a task without a time limit is never overdue
			continue
		}
		from := e.MissedFrom(dl)
		a.Steps = append(a.Steps, AttentionStep{Deadline: dl, From: from})
		if pi, ok := c.PaperFor(dl.ID); ok {
			if t, seen := named[pi.Paper]; !seen || from.Before(t) {
				named[pi.Paper] = from
			}
		}
	}
	for _, p := range c.PapersOwed() {
		if !resent[p] {
			a.Owed = append(a.Owed, OwedPaper{Paper: p, Named: named[p]})
		}
	}
	return a
}

// MissedFrom is the first instant at which the dated deadline d, not done, is missed: the
// start of the day after its due date, or just after the instant of a 48-hour notice
// (5 ILCS 120/2.02). Zero for a task without a time limit, never missed.
func (e *Engine) MissedFrom(d Deadline) time.Time {
	switch {
	case !d.DueAt.IsZero():
		return d.DueAt.Add(time.Nanosecond)
	case !d.Due.IsZero():
		return d.Due.AddDays(1).In(e.Cal.Location())
	}
	return time.Time{}
}

// At is what a lists at now: its steps listed then (the returned mailings' tasks, and the
// steps overdue), and the papers owed that none of those names.
func (a Attention) At(now time.Time) (steps []Deadline, owed []Paper) {
	for _, st := range a.Steps {
		if st.Returned || !now.Before(st.From) {
			steps = append(steps, st.Deadline)
		}
	}
	for _, p := range a.Owed {
		if p.Named.IsZero() || now.Before(p.Named) {
			owed = append(owed, p.Paper)
		}
	}
	return steps, owed
}

// Span is when a line of a case's Attention is listed: from From (zero: from the first)
// until just before Until (zero: for as long as the case stays as it is).
type Span struct {
	From, Until time.Time
}

// Spans are the spans of a's lines, one per line it can list: a step each, and one for the
// papers owed, listed while any of them is not named by an overdue step. At(now) lists as
// many lines as there are spans holding now (Span.Holds).
func (a Attention) Spans() []Span {
	spans := make([]Span, 0, len(a.Steps)+1)
	for _, st := range a.Steps {
		spans = append(spans, Span{From: st.From})
	}
	if len(a.Owed) > 0 {
		var until time.Time
		if !slices.ContainsFunc(a.Owed, func(p OwedPaper) bool { return p.Named.IsZero() }) {
			for _, p := range a.Owed {
				if p.Named.After(until) {
					until = p.Named
				}
			}
		}
		spans = append(spans, Span{Until: until})
	}
	return spans
}

// Holds reports whether the line of sp is listed at now.
func (sp Span) Holds(now time.Time) bool {
	return !now.Before(sp.From) && (sp.Until.IsZero() || now.Before(sp.Until))
}
