package docket

import "time"

// NextDue is the earliest instant by which something about c falls due: the start of the
// day of its earliest undone deadline (the instant of a 48-hour notice, 5 ILCS 120/2.02),
// the start of a scheduled meeting, or, for a case expedited under (G) without its
// decision, its receipt, since the clerk is reminded of it every business day. Whoever
// reminds ahead of a due date counts back from this instant with its own lead times; an
// instant already past means the case is due now. It is zero when nothing about c is
// pending. It is a pure function of the case's facts under e, so the store keeps it with
// the case and a sweep need read only the cases whose instant has come.
func (e *Engine) NextDue(c *Case) time.Time {
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
	sched := e.Schedule(&c.Facts, time.Time{})
	for _, d := range sched.Deadlines {
		if d.Done {
			continue
		}
		if !d.DueAt.IsZero() {
			earlier(d.DueAt)
		} else if !d.Due.IsZero() {
			earlier(d.Due.In(loc))
		}
	}
	for _, k := range MeetingKinds {
		if m := c.Meeting(k); m.Scheduled() {
			earlier(m.Start)
		}
	}
	if sched.Expedited && c.DecisionIssued.IsZero() {
		earlier(c.Received)
	}
	return next.UTC()
}
