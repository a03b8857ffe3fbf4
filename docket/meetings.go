package docket

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// The commission's meetings on a case: scheduling, cancelling, and the posting of their
// public notices (the Open Meetings Act, 5 ILCS 120/2.02, and the ordinance's notice periods).

// ScheduleMeeting schedules, or reschedules, one of the commission's meetings on a case.
// Its public notice cannot be posted before it is scheduled, so it must start at least the
// notice period after it is scheduled.
type ScheduleMeeting struct {
	Meeting   MeetingKind `json:"meeting"`
	Start     time.Time   `json:"start"`
	Place     string      `json:"place"`
	Closed    bool        `json:"closed,omitempty"`
	Authority string      `json:"authority,omitempty"` // Open Meetings Act exception for a closed meeting
	// Regular says the start is a regular meeting's of the schedule (5 ILCS 120/2.03,
	// RegularSchedule.Holds), as the command found it: a case step's own meeting, or one it
	// joins that is not regular, may not be on a legal holiday (CheckHoliday).
	Regular bool `json:"regular,omitempty"`
}

// Kind implements Action.
func (ScheduleMeeting) Kind() string { return "schedule_meeting" }

// Did implements Action: "hearing scheduled for Thu 10 Dec 2026 10:00 CST at Council
// Chambers"; "rescheduled" when it moved a meeting still to come.
func (a ScheduleMeeting) Did(w Wording) Words {
	verb := "scheduled"
	if w.moves(a.Meeting) {
		verb = "rescheduled"
	}
	return said("%s %s for %s at %s", a.Meeting.Name(), verb, w.When(a.Start), a.Place)
}

// MeetingOf implements MeetingAct.
func (a ScheduleMeeting) MeetingOf() MeetingKind { return a.Meeting }

// Notice implements Noticed: (C)(1), (D), (F) the meeting's public notice, or its move.
func (a ScheduleMeeting) Notice(w Wording) (Notice, bool) {
	if w.After == nil {
		return Notice{}, false
	}
	c := w.After
	notice := MeetingNotice(a.Meeting, c.Meeting(a.Meeting), w.Loc)
	if w.moves(a.Meeting) {
		return Notice{Text: fmt.Sprintf("PUBLIC NOTICE, RESCHEDULED. Ethics Commission, case %s: the %s set for %s is "+
			"moved to: %s.", c.Number, a.Meeting.Name(), w.Before.Meeting(a.Meeting).Start.In(w.Loc).Format(noticeAt),
			notice)}, true
	}
	return Notice{Text: fmt.Sprintf("PUBLIC NOTICE. Ethics Commission, case %s: %s.", c.Number, notice)}, true
}

func (a ScheduleMeeting) apply(x *applying) error {
	if err := checkKind(a.Meeting); err != nil {
		return err
	}
	mr := meetingRules[a.Meeting]
	if err := x.checkLine("place", mr.rule, a.Place, true, MaxName); err != nil {
		return err
	}
	if a.Start.IsZero() {
		return Invalid(mr.rule, "start", "required: when the "+mr.name+" starts")
	}
	if a.Closed {
		if a.Meeting == PublicHearing {
			return Invalid("(F)", "closed", "the public hearing demanded under (F) cannot be closed to the public")
		}
		if strings.TrimSpace(a.Authority) == "" {
			return Invalid(mr.rule, "authority",
				"a closed meeting needs the Open Meetings Act exception that allows it, e.g. 5 ILCS 120/2(c)(4)")
		}
		if err := x.checkLine("authority", mr.rule, a.Authority, true, MaxName); err != nil {
			return err
		}
	} else if a.Authority != "" {
		return Invalid(mr.rule, "authority", "an Open Meetings Act exception is given only for a closed meeting")
	}
	if err := x.meetingAllowed(a.Meeting); err != nil {
		return err
	}
	if m := x.c.Meeting(a.Meeting); m.Scheduled() && m.Start.After(x.at) && m.Start.Equal(a.Start) && m.Place == a.Place &&
		m.Closed == a.Closed && m.Authority == a.Authority {
		// Nothing would change, and a notice of a move that is no move would mislead.
		return conflict(mr.rule,
			fmt.Sprintf("the %s is already scheduled for %s at %s; nothing was changed", mr.name,
				x.e.shortTime(m.Start), m.Place))
	}
	if !x.replay {
		// A record kept before the rule was applied keeps its meetings as they were held.
		if err := x.e.CheckHoliday(a.Start, a.Regular); err != nil {
			return err
		}
	}
	if earliest := x.e.EarliestMeeting(mr.notice, x.at); a.Start.Before(earliest) {
		p := x.e.Ord.Period(mr.notice)
		return Invalid(mr.rule, "start",
			fmt.Sprintf("a %s needs at least %s' public notice; the earliest lawful start is %s", mr.name, p.describe(),
				x.e.shortTime(earliest)))
	}
	c := x.c
	if a.Meeting == RecessedHearing && c.State == StateHearingRecessed && c.Reconvened.Scheduled() {
		// (D): a session held and recessed again keeps its own notice and its status.
		c.Sessions = append(c.Sessions, c.Reconvened)
	}
	m := c.meeting(a.Meeting)
	if m.Scheduled() && m.Start.After(x.at) {
		c.Withdrawn = append(c.Withdrawn, WithdrawnMeeting{Kind: a.Meeting, Meeting: *m, At: x.at, MovedTo: a.Start})
	}
	*m = Meeting{Start: a.Start.In(x.e.Cal.Location()), Place: a.Place, Closed: a.Closed, Authority: a.Authority,
		ScheduledAt: x.at.In(x.e.Cal.Location())}
	x.warnClosedDeadline(a.Meeting, *m)
	if a.Meeting != PublicHearing {
		x.warnAfterElectionDate(mr.name, a.Start)
	}
	switch a.Meeting {
	case SufficiencyMeeting:
		if slices.ContainsFunc(c.Mailings, func(ml Mailing) bool { return ml.Satisfies == "(B)" && !ml.announces(*m) }) {
			x.warn("(B)",
				"the notices already mailed give the old date, time or place; mail both parties notice of the sufficiency "+
					"meeting as it now stands")
		}
		if rd := x.e.after(SufficiencyRuling, x.e.Cal.DateOf(c.Received)); x.e.Cal.DateOf(a.Start) > rd.Due {
			x.warn("(C)(1)", "the sufficiency meeting on %s is after the ruling deadline, %s", x.e.Cal.DateOf(a.Start).Long(),
				rd.Due.Long())
		} else if late := x.e.NoTimeToMail(c, a.Start); late != "" {
			x.warn("(C)(1)", "%s", late)
		}
	case HearingMeeting:
		c.State = StateHearingSet
		if hb := x.e.after(HearingBy, x.e.Cal.DateOf(c.Received)); x.e.Cal.DateOf(a.Start) > hb.Due {
			x.warn("(C)(2)", "the hearing on %s is after the last day for it, %s", x.e.Cal.DateOf(a.Start).Long(), hb.Due.Long())
		}
	case RecessedHearing:
		c.State = StateHearingSet
	case PublicHearing:
		c.State = StatePublicSet
		if ph := x.e.after(PublicHearingBy, c.DemandReceived); x.e.Cal.DateOf(a.Start) > ph.Due {
			x.warn("(F)", "the public hearing on %s is after the last day for it, %s", x.e.Cal.DateOf(a.Start).Long(),
				ph.Due.Long())
		}
	case FrivolousMeeting:
		c.FrivolousPending = true // (H): on the docket until the commission acts on it
		if !c.FrivolousNoticeMailed.IsZero() && !x.frivolousNoticeGiven() {
			x.warn("(H)",
				"the notice mailed to the complainant gives the old date, time or place; mail the complainant notice of the "+
					"meeting as it now stands")
		}
	}
	return nil
}

// meetingAllowed says whether the case's state allows scheduling (or rescheduling) k.
func (x *applying) meetingAllowed(k MeetingKind) error {
	c := x.c
	// A session held without the 48 hours' notice (D) requires may be held again.
	started := func(m Meeting) bool { return m.Scheduled() && !m.Start.After(x.at) && x.e.noticeMet(HearingMeeting, m) }
	switch k {
	case SufficiencyMeeting:
		if err := x.needState("(C)(1)", "schedule the sufficiency meeting", StateReceived, StateNoticesSent); err != nil {
			return err
		}
	case HearingMeeting:
		if err := x.needState("(C)(2)", "schedule the hearing: it follows a ruling of probable cause", StateHearingPending,
			StateHearingSet); err != nil {
			return err
		}
		if c.State == StateHearingSet && (c.Reconvened.Scheduled() || started(c.Hearing)) {
			return conflict("(E)", "the hearing has begun; schedule a recessed_hearing to reconvene it")
		}
	case RecessedHearing:
		if err := x.needState("(E)", "schedule a recessed hearing: the hearing must first be recessed", StateHearingRecessed,
			StateHearingSet); err != nil {
			return err
		}
		if c.State == StateHearingSet && (!c.Reconvened.Scheduled() || started(c.Reconvened)) {
			return conflict("(E)", "no recessed hearing is waiting to reconvene; record a recess first")
		}
	case PublicHearing:
		return x.needState("(F)", "schedule the public hearing: it follows a demand after a closed hearing", StateDemanded,
			StatePublicSet)
	case FrivolousMeeting:
		if err := x.needState("(H)",
			"schedule a meeting on a frivolous complaint: only a dismissed complaint can be found frivolous",
			StateDismissed); err != nil {
			return err
		}
		if c.Frivolous != nil {
			return conflict("(H)", fmt.Sprintf("the complaint was already found frivolous on %s", c.Frivolous.On.Long()))
		}
	}
	return nil
}

// checkKind refuses a meeting kind the ordinance does not have.
func checkKind(k MeetingKind) error {
	if _, ok := meetingRules[k]; !ok {
		return Invalid("", "meeting", fmt.Sprintf("unknown meeting %q: use one of %s", k, join(MeetingKinds, ", ")))
	}
	return nil
}

// CancelMeeting cancels a scheduled meeting that has not started.
type CancelMeeting struct {
	Meeting MeetingKind `json:"meeting"`
	Reason  string      `json:"reason,omitempty"`
}

// Kind implements Action.
func (CancelMeeting) Kind() string { return "cancel_meeting" }

// Did implements Action.
func (a CancelMeeting) Did(Wording) Words { return said("%s cancelled", a.Meeting.Name()) }

// Notice implements Noticed: the public is told the meeting it was given notice of is
// cancelled.
func (a CancelMeeting) Notice(w Wording) (Notice, bool) {
	if w.After == nil || w.Before == nil {
		return Notice{}, false
	}
	return Notice{Text: fmt.Sprintf("PUBLIC NOTICE, CANCELLED. Ethics Commission, case %s: the %s set for %s is "+
		"cancelled.", w.After.Number, a.Meeting.Name(), w.Before.Meeting(a.Meeting).Start.In(w.Loc).Format(noticeAt))}, true
}

func (a CancelMeeting) apply(x *applying) error {
	if err := checkKind(a.Meeting); err != nil {
		return err
	}
	if err := checkText("reason", a.Reason, false, MaxText); err != nil {
		return err
	}
	c := x.c
	m := c.meeting(a.Meeting)
	if !m.Scheduled() {
		return &Error{Code: ENOTFOUND, Message: fmt.Sprintf("case %s has no %s scheduled", c.Number, a.Meeting.Name())}
	}
	if !m.Start.After(x.at) {
		return conflict(meetingRules[a.Meeting].rule,
			fmt.Sprintf("the %s began at %s and can no longer be cancelled", a.Meeting.Name(), x.e.shortTime(m.Start)))
	}
	if a.Meeting == SufficiencyMeeting && c.Ruling != "" || a.Meeting == HearingMeeting && c.Reconvened.Scheduled() ||
		a.Meeting == FrivolousMeeting && c.Frivolous != nil {
		return conflict(meetingRules[a.Meeting].rule, "the "+a.Meeting.Name()+" has already been held")
	}
	c.Withdrawn = append(c.Withdrawn, WithdrawnMeeting{Kind: a.Meeting, Meeting: *m, At: x.at, Reason: a.Reason})
	*m = Meeting{}
	c.Cancelled++
	switch a.Meeting {
	case HearingMeeting:
		c.State = StateHearingPending
	case RecessedHearing:
		c.State = StateHearingRecessed
	case PublicHearing:
		c.State = StateDemanded
	case FrivolousMeeting:
		c.FrivolousPending = false // no meeting, no (H) matter waiting
	}
	return nil
}

// PostNotice records that a meeting's public notice was physically posted at the meeting
// place and the principal office.
type PostNotice struct {
	Meeting MeetingKind `json:"meeting"`
	Posted  time.Time   `json:"posted,omitzero"` // zero: when the action is taken
}

// Kind implements Action.
func (PostNotice) Kind() string { return "post_notice" }

// Did implements Action.
func (a PostNotice) Did(w Wording) Words {
	return said("notice of the %s posted %s", a.Meeting.Name(), w.When(w.orAt(a.Posted)))
}

// MeetingOf implements MeetingAct.
func (a PostNotice) MeetingOf() MeetingKind { return a.Meeting }

func (a PostNotice) apply(x *applying) error {
	if err := checkKind(a.Meeting); err != nil {
		return err
	}
	mr := meetingRules[a.Meeting]
	m := x.c.meeting(a.Meeting)
	if !m.Scheduled() {
		return &Error{Code: ENOTFOUND,
			Message: fmt.Sprintf("case %s has no %s scheduled; schedule it first", x.c.Number, mr.name)}
	}
	posted := a.Posted
	if posted.IsZero() {
		posted = x.at
	}
	if err := x.checkPosting(a.Meeting, *m, posted); err != nil {
		return err
	}
	m.NoticePosted = posted.In(x.e.Cal.Location())
	if due := m.Start.Add(-time.Duration(x.e.Ord.Period(mr.notice).Amount) * time.Hour); posted.After(due) {
		x.warn(mr.rule, "the notice was posted at %s, less than %s before the %s", x.e.shortTime(posted),
			x.e.Ord.Period(mr.notice).describe(), mr.name)
	}
	return nil
}

// NoTimeToMail says, of a sufficiency meeting of c starting at start, that it leaves no
// business day to mail the notices of its ruling, and "" when it does. (C)(1) gives the
// ruling and its notices to both parties the same last day, seven business days after
// receipt: a meeting held on that day, or on a day with no business day between it and
// that day, leaves the clerk no day to mail them by certified mail.
func (e *Engine) NoTimeToMail(c *Case, start time.Time) string {
	held := e.Cal.DateOf(start)
	due := e.after(RulingNoticeRespondent, e.Cal.DateOf(c.Received)).Due
	if held > due || e.Cal.AddBusinessDays(held, 1) <= due {
		return ""
	}
	return fmt.Sprintf("the sufficiency meeting on %s leaves no business day to mail the notices of its ruling, due by "+
		"%s: hold it by %s, or mail both notices the day it is held", held.Long(), due.Long(),
		e.Cal.SubBusinessDays(due, 1).Long())
}
