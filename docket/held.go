package docket

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// A meeting held stays as it was. Once called to order, its minutes record its date, time
// and place and each item it took up (5 ILCS 120/2.06(a)): nothing moves or cancels it,
// takes a case step out of it or puts one in, and a fact of its own record entered in
// error (its place, its start) is corrected on the meeting itself, with a reason, carrying
// its case steps with it, and the correction is listed with its minutes.

// WasHeld reports whether meeting m was held: called to order, so that minutes record it.
func (m *CommissionMeeting) WasHeld() bool { return !m.Minutes.Convened.IsZero() }

// minutesWords says, for a refusal, how the minutes of meeting m, held, record it: as a
// draft, as approved, or as approved and public on the board.
func (e *Engine) minutesWords(m *CommissionMeeting) string {
	switch {
	case m.Minutes.Approved.IsZero():
		return "its draft minutes record it"
	case m.Published.IsZero():
		return fmt.Sprintf("its minutes, approved on %s at the meeting of %s, record it", m.Minutes.Approved.Long(),
			m.Minutes.ApprovedAt)
	}
	return fmt.Sprintf("its minutes, approved on %s at the meeting of %s and public on the board since %s, record it",
		m.Minutes.Approved.Long(), m.Minutes.ApprovedAt, e.shortTime(m.Published))
}

// correctMeetingAdvice tells how a fact of a held meeting's own record is corrected.
func correctMeetingAdvice(m *CommissionMeeting) string {
	return fmt.Sprintf("If its place or start is recorded wrong, correct the meeting itself, with a reason: "+
		"/ethics correct %s place=\"...\" reason=\"...\" (or start=), which carries its items with it.", m.Name)
}

// CheckChangeable refuses to move or cancel (what: "moved", "cancelled") meeting m at
// instant at: once it was held, saying so and how its minutes record it, whatever its
// items (a case step's own refusal would speak of the case); once it was cancelled or has
// begun, as its record does.
func (e *Engine) CheckChangeable(m *CommissionMeeting, what string, at time.Time) error {
	if m.WasHeld() {
		return Conflict(OMARecord, "meeting",
			fmt.Sprintf("meeting %s was held: it was called to order at %s, and %s then and there; a meeting held cannot be "+
				"%s. %s", m.Name, e.shortTime(m.Minutes.Convened), e.minutesWords(m), what, correctMeetingAdvice(m)))
	}
	return checkOpen(e, m, at)
}

// CheckHeldItem refuses an amendment of case number (a correction or a void; entries, its
// record before it) that takes its step k out of meeting m, held, or, with joins, puts it
// in: a meeting held keeps the items it took up, as its minutes record them (5 ILCS
// 120/2.06(a)). What the meeting took up is what the case's record had scheduled there
// when it was called to order (StepsAt), so an amendment that puts a step back where the
// meeting held it, or takes out one it did not, is allowed: it mends a record that was
// changed before such a change was refused.
func (e *Engine) CheckHeldItem(m *CommissionMeeting, number string, entries []Entry, k MeetingKind, joins bool) error {
	start, place := m.SlotAt(m.Minutes.Convened)
	was, err := e.StepsAt(number, entries, m.Minutes.Convened, start, place)
	if err != nil {
		return err
	}
	if slices.Contains(was, k) == joins {
		return nil
	}
	step := fmt.Sprintf("the %s of case %s", meetingRules[k].name, number)
	if joins {
		return Conflict(OMARecord, "meeting",
			fmt.Sprintf("this would put %s at meeting %s, held at %s, which did not take it up: its minutes record the "+
				"items it did, and a meeting held keeps its items; schedule the step at a meeting to come", step, m.Name,
				e.shortTime(m.Minutes.Convened)))
	}
	return Conflict(OMARecord, "meeting",
		fmt.Sprintf("%s was taken up at meeting %s, held at %s; %s there: a step of a meeting held cannot be moved out "+
			"of it. %s", step, m.Name, e.shortTime(m.Minutes.Convened), e.minutesWords(m), correctMeetingAdvice(m)))
}

// MeetingCorrection is a correction of a held meeting's own record: the fact ("place",
// "start"), as it was recorded and as corrected, in words, why, and when the correction
// was made; WasStart and WasPlace are where and when the meeting was recorded before it.
type MeetingCorrection struct {
	Field    string    `json:"field"`
	From     string    `json:"from"`
	To       string    `json:"to"`
	Reason   string    `json:"reason"`
	At       time.Time `json:"at"`
	WasStart time.Time `json:"was_start"`
	WasPlace string    `json:"was_place"`
}

// Words says the correction as the minutes list it: `On Friday 11 December 2026, the place
// of the meeting recorded as "City Hall" was corrected to "Council Chambers": a typing
// error.`
func (c MeetingCorrection) Words(loc *time.Location) string {
	return fmt.Sprintf("On %s, the %s of the meeting recorded as %q was corrected to %q: %s.",
		longDay(DateIn(c.At, loc)), c.Field, c.From, c.To, strings.TrimRight(c.Reason, "."))
}

// SlotAt is the start and place meeting m was recorded at, at instant t: before the
// corrections made since.
func (m *CommissionMeeting) SlotAt(t time.Time) (time.Time, string) {
	start, place := m.Start, m.Place
	for i := len(m.Corrections) - 1; i >= 0; i-- {
		if c := m.Corrections[i]; c.At.After(t) {
			start, place = c.WasStart, c.WasPlace
		}
	}
	return start, place
}

// StepsAt lists the steps of case number that its record, entries, had scheduled at start
// and place just before instant t: the events recorded before it, as corrected and voided
// before it. (An event at t itself is taken as after: the demo console records many
// actions at one instant, and a step is always scheduled at a meeting before the meeting.)
func (e *Engine) StepsAt(number string, entries []Entry, t, start time.Time, place string) ([]MeetingKind, error) {
	var then []Entry
	for _, en := range entries {
		if en.At.Before(t) {
			then = append(then, en)
		}
	}
	if len(then) == 0 {
		return nil, nil
	}
	c, err := e.Rebuild(number, then)
	if err != nil {
		return nil, err
	}
	var out []MeetingKind
	for _, k := range MeetingKinds {
		if m := c.Meeting(k); m.Scheduled() && m.Start.Equal(start) && m.Place == place {
			out = append(out, k)
		}
	}
	return out, nil
}

// HeldStep is a case step as an item of a meeting: the case and which of its meetings.
type HeldStep struct {
	Case string
	Step MeetingKind
}

// CheckApprovedItems refuses meeting m, as Fold gives it, whose case steps differ from
// approved, those it held when its minutes were approved (at instant at): its items are
// what the approved minutes record (5 ILCS 120/2.06(a)), and a step moved out of it since,
// or into it, leaves the record and the minutes at odds.
func (e *Engine) CheckApprovedItems(m *CommissionMeeting, approved []HeldStep, at time.Time) error {
	now := map[HeldStep]bool{}
	for _, it := range m.Cases {
		now[HeldStep{it.Case, it.Step}] = true
	}
	then := map[HeldStep]bool{}
	for _, h := range approved {
		then[h] = true
		if !now[h] {
			return Conflict(OMARecord, "",
				fmt.Sprintf("meeting %s no longer holds the %s of case %s, which it held when its minutes were approved, at %s: "+
					"its items differ from its approved minutes; /ethics history %s shows what moved it", m.Name,
					meetingRules[h.Step].name, h.Case, e.shortTime(at), h.Case))
		}
	}
	for _, it := range m.Cases {
		if h := (HeldStep{it.Case, it.Step}); !then[h] {
			return Conflict(OMARecord, "",
				fmt.Sprintf("meeting %s holds the %s of case %s, which it did not hold when its minutes were approved, at %s: "+
					"its items differ from its approved minutes; /ethics history %s shows what moved it", m.Name,
					meetingRules[h.Step].name, h.Case, e.shortTime(at), h.Case))
		}
	}
	return nil
}

// CorrectMeeting corrects a fact of a held meeting's own record entered in error: its
// place, or its start (the same day: a meeting is named by its day, and no later than its
// call to order). Reason says why. The store corrects, in the same transaction, each case
// step the meeting holds, so that they stay its items; the correction is listed with its
// minutes (MinutesRecord.Corrections). A meeting not held is moved instead (MoveMeeting),
// which posts its notice again.
type CorrectMeeting struct {
	Place  string    `json:"place,omitempty"`
	Start  time.Time `json:"start,omitzero"`
	Reason string    `json:"reason"`
}

// Kind implements MeetingAction.
func (CorrectMeeting) Kind() string { return "meeting_corrected" }

func (a CorrectMeeting) applyMeeting(e *Engine, m *CommissionMeeting, at time.Time) error {
	if !m.WasHeld() {
		return Conflict(OMARecord, "meeting",
			fmt.Sprintf("meeting %s has not been called to order, so no minutes record it: a meeting to come is moved, with "+
				"its notice posted again (/ethics move %s <start> place=\"...\")", m.Name, m.Name))
	}
	if err := CheckLine("reason", OMARecord, a.Reason, true, MaxName); err != nil {
		return err
	}
	fix := MeetingCorrection{Reason: a.Reason, At: at.In(e.Cal.Location()), WasStart: m.Start, WasPlace: m.Place}
	switch {
	case (a.Place == "") == a.Start.IsZero():
		return Invalid(OMARecord, "place", "correct one fact of the meeting at a time: its place=, or its start=")
	case a.Place != "":
		if err := CheckLine("place", OMARecord, a.Place, true, MaxName); err != nil {
			return err
		}
		if a.Place == m.Place {
			return Invalid(OMARecord, "place", fmt.Sprintf("meeting %s already records the place %q", m.Name, a.Place))
		}
		fix.Field, fix.From, fix.To = "place", m.Place, a.Place
		m.Place, m.Minutes.Place = a.Place, a.Place
	default:
		loc := e.Cal.Location()
		switch {
		case a.Start.Equal(m.Start):
			return Invalid(OMARecord, "start", fmt.Sprintf("meeting %s already records the start %s", m.Name,
				e.shortTime(m.Start)))
		case DateIn(a.Start, loc) != DateIn(m.Start, loc):
			return Invalid(OMARecord, "start",
				fmt.Sprintf("meeting %s is named by its day, %s: a start on another day would be another meeting's, not a "+
					"correction of this one's", m.Name, DateIn(m.Start, loc).Long()))
		case a.Start.After(m.Minutes.Convened):
			return Invalid(OMARecord, "start",
				fmt.Sprintf("meeting %s was called to order at %s, so it started no later", m.Name,
					e.shortTime(m.Minutes.Convened)))
		}
		fix.Field, fix.From, fix.To = "start", e.shortTime(m.Start), e.shortTime(a.Start)
		m.Start = a.Start.In(loc)
	}
	m.Corrections = append(m.Corrections, fix)
	return nil
}
