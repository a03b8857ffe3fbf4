package docket

import (
	"fmt"
)

// (D): the hearing, its recesses and its conclusion.

// RecessHearing records that the hearing recessed, to reconvene at a later session.
type RecessHearing struct {
	// Override is why it is recorded without the session's notice (D) requires.
	Override string `json:"override,omitempty"`
}

// Kind implements Action.
func (RecessHearing) Kind() string { return "recess_hearing" }

// Did implements Action.
func (RecessHearing) Did(Wording) Words { return said("hearing recessed") }

func (a RecessHearing) apply(x *applying) error {
	c := x.c
	if err := x.checkOverride("(D)", a.Override); err != nil {
		return err
	}
	if err := x.needState("(E)", "recess the hearing", StateHearingSet); err != nil {
		return err
	}
	s := c.currentSession()
	if s.Start.After(x.at) {
		return conflict("(E)", fmt.Sprintf("the hearing session at %s has not begun", x.e.shortTime(s.Start)))
	}
	if err := x.override("recess", a.Override, x.noticeGap(c.sessionKind(), s)); err != nil {
		return err
	}
	c.State = StateHearingRecessed
	c.HearingClosed = c.HearingClosed || s.Closed // (F): any closed session counts
	c.Recesses++
	return nil
}

// sessionKind is the kind of the hearing session now scheduled.
func (c *Case) sessionKind() MeetingKind {
	if c.Reconvened.Scheduled() {
		return RecessedHearing
	}
	return HearingMeeting
}

// currentSession is the hearing session now scheduled: the reconvened one if any.
func (c *Case) currentSession() Meeting {
	if c.Reconvened.Scheduled() {
		return c.Reconvened
	}
	return c.Hearing
}

// ConcludeHearing records that the hearing, or a recessed hearing, concluded.
type ConcludeHearing struct {
	On Date `json:"on,omitzero"` // zero: today

	// Override is why it is recorded without the session's notice (D) requires.
	Override string `json:"override,omitempty"`
}

// Kind implements Action.
func (ConcludeHearing) Kind() string { return "conclude_hearing" }

// Did implements Action.
func (ConcludeHearing) Did(Wording) Words { return said("hearing concluded") }

func (a ConcludeHearing) apply(x *applying) error {
	c := x.c
	if err := x.checkOverride("(D)", a.Override); err != nil {
		return err
	}
	if err := x.needState("(E)", "conclude the hearing", StateHearingSet); err != nil {
		return err
	}
	s := c.currentSession()
	if s.Start.After(x.at) {
		return conflict("(E)", fmt.Sprintf("the hearing session at %s has not begun", x.e.shortTime(s.Start)))
	}
	on, err := x.stepDate("on", "(E)", a.On, x.e.Cal.DateOf(s.Start), "the hearing session")
	if err != nil {
		return err
	}
	if err := x.override("hearing's conclusion", a.Override, x.noticeGap(c.sessionKind(), s)); err != nil {
		return err
	}
	c.State, c.HearingConcluded = StateHearingDone, on
	c.HearingClosed = c.HearingClosed || s.Closed // (F): any closed session counts
	return nil
}
