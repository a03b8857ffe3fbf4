package docket

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// The meeting as it happens: the roll at the call to order and whether a
// quorum is physically present (5 ILCS 120/2.01), arrivals and departures, the closed
// sessions, each entered by a roll call in open session citing its exception (2a) and left
// by a recorded return, and the adjournment. They are recorded on the meeting's own record
// (CommissionMeeting.Minutes, the MinutesRecord its minutes are drafted from, 2.06).

// Convene records the call to order: who is present and absent of the seated members.
type Convene struct {
	Seated  []string  `json:"seated"`           // every seated commissioner, as configured
	Quorum  int       `json:"quorum"`           // members physically present needed to act
	Present []string  `json:"present"`          // present at the call to order
	Remote  []string  `json:"remote,omitempty"` // of those, present by audio or video conference (2.06(a))
	At      time.Time `json:"at,omitzero"`      // zero: when the action is taken
	// Emergency is the nature of the emergency that calls a meeting whose notice and agenda
	// were not posted 48 hours ahead (5 ILCS 120/2.02(a)); empty for any other meeting.
	Emergency string `json:"emergency,omitempty"`
}

// Kind implements MeetingAction.
func (Convene) Kind() string { return "convene" }

func (a Convene) applyMeeting(e *Engine, m *CommissionMeeting, at time.Time) error {
	when := orNow(a.At, at)
	switch {
	case !m.Cancelled.IsZero():
		return Conflict("", "meeting", fmt.Sprintf("meeting %s was cancelled", m.Name))
	case !m.Minutes.Convened.IsZero():
		return Conflict(OMAMinutes, "meeting",
			fmt.Sprintf("meeting %s was called to order at %s", m.Name, e.shortTime(m.Minutes.Convened)))
	case when.Before(m.Start):
		return Conflict(OMANotice, "at",
			fmt.Sprintf("meeting %s was noticed for %s and cannot be called to order before", m.Name, e.shortTime(m.Start)))
	case when.After(at):
		return Invalid(OMAMinutes, "at", "a call to order cannot be recorded before it happens")
	case a.Emergency == "" && !m.NoticedInTime():
		// "Public notice of any special meeting ... shall be given at least 48 hours before
		// such meeting, which notice shall also include the agenda", except "in the event
		// of a bona fide emergency" (5 ILCS 120/2.02(a)).
		moved := ""
		if len(m.Moved) > 0 {
			// "Public notice ... of any rescheduled regular meeting" is given as a special
			// meeting's is (2.02(a)): the notice posted before the move was for another time.
			moved = " at its new time and place (a rescheduled meeting is noticed as a special one is)"
		}
		return Conflict(OMANotice, "meeting", fmt.Sprintf("meeting %s cannot be called to order: its notice and "+
			"agenda were not posted%s 48 hours before it (by %s). Hold it later, noticed 48 hours ahead, or record it as "+
			"an emergency meeting with the nature of the emergency (emergency=\"...\") and post its notice as soon as "+
			"practicable", m.Name, moved, e.shortTime(AgendaCutoff(m.Start))))
	case len(a.Seated) == 0:
		return Invalid(OMAQuorum, "present", "no commissioners are seated; the configuration names them")
	case len(a.Present) == 0:
		return Invalid(OMAQuorum, "present", "give the members present at the call to order: present=@ann,@ben")
	}
	for _, who := range append(slices.Clone(a.Present), a.Remote...) {
		if !slices.Contains(a.Seated, who) {
			return Invalid(OMAQuorum, "present", who+" is not a seated commissioner")
		}
	}
	for _, who := range a.Remote {
		if !slices.Contains(a.Present, who) {
			return Invalid(OMAQuorum, "remote", who+" is given as present by conference but not as present")
		}
	}
	r := &m.Minutes
	r.Meeting, r.Place, r.Special = MeetingName(m.Name), m.Place, m.Special
	if err := CheckLine("emergency", OMANotice, a.Emergency, false, MaxText); err != nil {
		return err
	}
	r.Seated, r.Quorum, r.Convened = slices.Clone(a.Seated), a.Quorum, when.In(e.Cal.Location())
	r.Emergency = a.Emergency
	r.Present, r.Remote, r.Absent = inSeatOrder(a.Seated, a.Present), slices.Clone(a.Remote), nil
	for _, who := range a.Seated {
		if !slices.Contains(a.Present, who) {
			r.Absent = append(r.Absent, who)
		}
	}
	return nil
}

// inSeatOrder lists some in the order of seated.
func inSeatOrder(seated, some []string) []string {
	var out []string
	for _, s := range seated {
		if slices.Contains(some, s) {
			out = append(out, s)
		}
	}
	return out
}

// orNow is t, or at if t is zero.
func orNow(t, at time.Time) time.Time {
	if t.IsZero() {
		return at
	}
	return t
}

// inProgress refuses an action on a meeting not called to order, or adjourned, and one
// recorded at an instant when that has not come (at is now): the minutes record what
// happened (5 ILCS 120/2.06(a)), as PostAgenda refuses a posting to come.
func inProgress(e *Engine, m *CommissionMeeting, when, at time.Time) error {
	switch {
	case when.After(at):
		return Invalid(OMAMinutes, "at",
			fmt.Sprintf("%s is later than now, %s: record it once it has happened", e.shortTime(when), e.shortTime(at)))
	case m.Minutes.Convened.IsZero():
		return Conflict(OMAMinutes, "meeting",
			fmt.Sprintf("meeting %s has not been called to order: /ethics convene %s present=...", m.Name, m.Name))
	case !m.Minutes.Adjourned.IsZero():
		return Conflict(OMAMinutes, "meeting",
			fmt.Sprintf("meeting %s adjourned at %s", m.Name, e.shortTime(m.Minutes.Adjourned)))
	case when.Before(m.Minutes.Convened):
		return Invalid(OMAMinutes, "at",
			fmt.Sprintf("meeting %s was called to order at %s", m.Name, e.shortTime(m.Minutes.Convened)))
	}
	return nil
}

// MemberMoves records members arriving late or leaving early.
type MemberMoves struct {
	Late []string  `json:"late,omitempty"`
	Left []string  `json:"left,omitempty"`
	At   time.Time `json:"at,omitzero"` // zero: when the action is taken
}

// Kind implements MeetingAction.
func (MemberMoves) Kind() string { return "members_moved" }

func (a MemberMoves) applyMeeting(e *Engine, m *CommissionMeeting, at time.Time) error {
	when := orNow(a.At, at).In(e.Cal.Location())
	if err := inProgress(e, m, when, at); err != nil {
		return err
	}
	if len(a.Late) == 0 && len(a.Left) == 0 {
		return Invalid(OMAMinutes, "late", "give who arrived, late=@cal, or who left, left=@ann")
	}
	r := &m.Minutes
	present := r.PresentAt(when)
	for _, who := range a.Late {
		switch {
		case !slices.Contains(r.Seated, who):
			return Invalid(OMAQuorum, "late", who+" is not a seated commissioner")
		case slices.Contains(present, who):
			return Conflict(OMAMinutes, "late", who+" is already present")
		}
		r.Arrived = append(r.Arrived, Movement{Member: who, At: when})
	}
	for _, who := range a.Left {
		if !slices.Contains(r.PresentAt(when), who) {
			return Conflict(OMAMinutes, "left", who+" is not present")
		}
		r.Left = append(r.Left, Movement{Member: who, At: when})
	}
	return nil
}

// EnterClosed records the vote, taken by roll call in open session, to close the meeting
// for an item under an exception of 5 ILCS 120/2(c), and the entry into closed session
// (5 ILCS 120/2a). Item is the item's number on the agenda (Agenda), from 1.
type EnterClosed struct {
	Item      int       `json:"item"`
	Exception string    `json:"exception"`
	Vote      *Vote     `json:"vote"`
	At        time.Time `json:"at,omitzero"`
	// Recorded says the closed session is recorded verbatim, as 5 ILCS 120/2.06(a)
	// requires; its recording is kept until RecordingDestroyable.
	Recorded bool `json:"recorded,omitempty"`
}

// Kind implements MeetingAction.
func (EnterClosed) Kind() string { return "closed_session" }

func (a EnterClosed) applyMeeting(e *Engine, m *CommissionMeeting, at time.Time) error {
	when := orNow(a.At, at).In(e.Cal.Location())
	if err := inProgress(e, m, when, at); err != nil {
		return err
	}
	agenda := m.Agenda()
	if a.Item < 1 || a.Item > len(agenda) {
		return NotFound(OMAClose, "item", fmt.Sprintf("meeting %s has no item %d; it has %d", m.Name, a.Item, len(agenda)))
	}
	it := agenda[a.Item-1]
	exception := a.Exception
	if exception == "" {
		exception = it.Authority
	}
	if exception == "" {
		return Invalid(OMAClose, "closed",
			fmt.Sprintf("item %d is open on the agenda: cite the exception of 5 ILCS 120/2(c) that allows closing it, "+
				"closed=\"5 ILCS 120/2(c)(1)\"", a.Item))
	}
	exception, err := ParseException(exception)
	if err != nil {
		return err
	}
	r := &m.Minutes
	if err := CheckCloseVote(a.Vote, exception, r.SessionAt(when)); err != nil {
		return err
	}
	r.Sessions = append(r.Sessions, ClosedSession{Exception: exception, Entered: when, Recorded: a.Recorded,
		Motion: MeetingMotion{At: when,
			Text: fmt.Sprintf("To close the meeting for item %d, %s, under %s", a.Item,
				strings.TrimSuffix(it.AgendaItem().Words(), "."), exception), Roll: a.Vote}})
	m.ClosedFor = append(m.ClosedFor, a.Item)
	return nil
}

// ReturnToOpen records the return to open session from the closed session in progress.
type ReturnToOpen struct {
	At time.Time `json:"at,omitzero"`
}

// Kind implements MeetingAction.
func (ReturnToOpen) Kind() string { return "open_session" }

func (a ReturnToOpen) applyMeeting(e *Engine, m *CommissionMeeting, at time.Time) error {
	when := orNow(a.At, at).In(e.Cal.Location())
	if err := inProgress(e, m, when, at); err != nil {
		return err
	}
	r := &m.Minutes
	n := r.SessionAt(when)
	if n == 0 {
		return Conflict(OMAClose, "", fmt.Sprintf("meeting %s is in open session", m.Name))
	}
	r.Sessions[n-1].Returned = when
	return nil
}

// Adjourn records the time of adjournment (2.06(a)). A closed session in progress must be
// left first: the meeting adjourns in open session.
type Adjourn struct {
	At time.Time `json:"at,omitzero"`
}

// Kind implements MeetingAction.
func (Adjourn) Kind() string { return "adjourn" }

func (a Adjourn) applyMeeting(e *Engine, m *CommissionMeeting, at time.Time) error {
	when := orNow(a.At, at).In(e.Cal.Location())
	if err := inProgress(e, m, when, at); err != nil {
		return err
	}
	if m.Minutes.SessionAt(when) > 0 {
		return Conflict(OMAClose, "",
			"the meeting is in closed session: record the return to open session first (/ethics session "+m.Name+" open)")
	}
	m.Minutes.Adjourned = when
	return nil
}

// InSession reports whether meeting m is in progress at t: called to order and not
// adjourned.
func (m *CommissionMeeting) InSession(t time.Time) bool {
	r := m.Minutes
	return !r.Convened.IsZero() && !t.Before(r.Convened) && (r.Adjourned.IsZero() || t.Before(r.Adjourned))
}

// SittingFor returns the meeting among ms in progress at t that holds a step of case
// number, if any.
func SittingFor(ms []CommissionMeeting, number string, t time.Time) *CommissionMeeting {
	for i := range ms {
		if !ms[i].InSession(t) {
			continue
		}
		for _, it := range ms[i].Cases {
			if it.Case == number {
				return &ms[i]
			}
		}
	}
	return nil
}

// DraftMinutes is the record the minutes of meeting m are drafted from (2.06): the roll,
// arrivals and departures, closed sessions and adjournment as recorded, and each item of
// the agenda, in the session it was taken in, with the roll calls its cases record as
// taken on the day of the meeting (adopted or failed). cases are the cases its items name.
// What the record does not hold (motions on other business, movers and seconders, the
// clerk's narrative) the clerk adds to the draft.
func (m *CommissionMeeting) DraftMinutes(cases map[string]*Case, loc *time.Location) MinutesRecord {
	r := m.Minutes.clone()
	r.Meeting, r.Place, r.Special = MeetingName(m.Name), m.Place, m.Special
	r.Corrections = slices.Clone(m.Corrections)
	day := DateIn(m.Start, loc)
	r.Entries = nil
	defer r.itemNotes(m.ItemNotes)
	for i, it := range m.Agenda() {
		e := MinutesEntry{Item: it.AgendaItem()}
		for n, item := range m.ClosedFor {
			if item == i+1 {
				e.Session = n + 1
			}
		}
		if c := cases[it.Case]; it.Kind == CaseItem && c != nil {
			// Each roll call carries the instant it was taken (Adopted.At), by which the
			// minutes place it in open or closed session (MinutesRecord.MotionSession): a
			// ruling on a closed item is voted after the return to open session, as
			// 5 ILCS 120/2(e) requires, and belongs to the open minutes.
			for _, v := range c.Votes {
				if v.On == day {
					e.Motions = append(e.Motions,
						MeetingMotion{At: v.At, Text: v.What + " " + v.Rule, Roll: &v.Vote, Action: v.Action})
				}
			}
			for _, v := range c.Motions {
				if v.On == day {
					e.Motions = append(e.Motions,
						MeetingMotion{At: v.At, Text: v.What + " " + v.Rule, Roll: &v.Vote, Action: v.Action})
				}
			}
		}
		r.Entries = append(r.Entries, e)
	}
	return r
}
