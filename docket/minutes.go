package docket

import (
	"fmt"
	"slices"
	"time"
)

// The minutes of a meeting after the meeting (5 ILCS 120/2.06): the clerk's
// narrative added to the draft, the commission's approval of them by roll call at a later
// meeting (2.06(b)), the approved open minutes made public (2.06(b)), the verbatim
// recording of a closed session kept and destroyed (2.06(c)), and the semi-annual review of
// the closed minutes (2.06(d)). Each is an event of the meeting's own record.

// ItemNote is the clerk's narrative on one item of a meeting's agenda, by its number.
type ItemNote struct {
	Item int    `json:"item"`
	Text string `json:"text"`
}

// MotionMover says who moved and who seconded motion Motion (from 1, as the minutes list
// them) on item Item of a meeting's agenda: what the record of a roll call does not hold.
type MotionMover struct {
	Item     int    `json:"item"`
	Motion   int    `json:"motion"`
	Mover    string `json:"mover"`
	Seconder string `json:"seconder,omitempty"`
}

// Kind implements MeetingAction.
func (MotionMover) Kind() string { return "motion_mover" }

func (a MotionMover) applyMeeting(e *Engine, m *CommissionMeeting, at time.Time) error {
	if err := draftable(e, m); err != nil {
		return err
	}
	if a.Item < 1 || a.Item > len(m.Agenda()) {
		return NotFound(OMAMinutes, "item",
			fmt.Sprintf("meeting %s has no item %d; it has %d", m.Name, a.Item, len(m.Agenda())))
	}
	if a.Motion < 1 {
		return Invalid(OMAMinutes, "motion", "give the motion's number on the item, from 1, as the draft minutes list them")
	}
	for _, who := range []struct{ field, id string }{{"mover", a.Mover}, {"seconder", a.Seconder}} {
		if who.id == "" && who.field == "seconder" {
			continue
		}
		if !slices.Contains(m.Minutes.Seated, who.id) {
			return Invalid(OMAMinutes, who.field,
				fmt.Sprintf("%s is not a commissioner seated at meeting %s: a motion is made and seconded by members",
					who.id, m.Name))
		}
	}
	if a.Mover == a.Seconder {
		return Invalid(OMAMinutes, "seconder", "a motion is seconded by another member than its mover")
	}
	m.Movers = append(m.Movers, a)
	return nil
}

// TakesPart refuses member who as the field ("mover", "seconder") of motion mo, taken at the
// meeting of record r on an item whose case is c (nil for other business): a member takes
// part in a motion as its roll call records them. One it records recused from the case
// takes no part in the case's business (Vote.LeaveOutRecused), so neither moves nor seconds
// its motions, whoever types it; one it records absent was not there to (5 ILCS
// 120/2.06(a): the minutes record the members present and absent). A motion without a roll
// call is judged by the case's recusals and the meeting's roll at its time (PresentAt). The
// roll call decides, not a recusal declared after it: the minutes record what happened.
func (r MinutesRecord) TakesPart(mo MeetingMotion, c *Case, who, field string) error {
	var recused, absent bool
	if v := mo.Roll; v != nil {
		recused, absent = slices.Contains(v.Recused, who), slices.Contains(v.Absent, who)
	} else {
		if c != nil {
			_, recused = c.Recused(who)
		}
		absent = !mo.At.IsZero() && !slices.Contains(r.PresentAt(mo.At), who)
	}
	switch {
	case recused:
		from := "is recorded recused in the roll call on the motion"
		if c != nil {
			why := "as the roll call on the motion records"
			if w, ok := c.Recused(who); ok {
				why = thirdPerson.Replace(w)
			}
			from = fmt.Sprintf("is recused from case %s (%s)", c.Number, why)
		}
		return Invalid("", field,
			fmt.Sprintf("%s %s and takes no part in its business: a recused member neither moves nor seconds its motions; "+
				"give the member who did", who, from))
	case absent:
		return Invalid(OMARecord, field,
			fmt.Sprintf("%s is recorded absent in the roll call on the motion, and a member absent neither moves nor seconds "+
				"it: the minutes record who was present; give the member who did", who))
	}
	return nil
}

// movers puts who moved and seconded each motion on the entries of r, the last word for a
// motion standing.
func (r *MinutesRecord) movers(ms []MotionMover) {
	for _, mv := range ms {
		if mv.Item < 1 || mv.Item > len(r.Entries) || mv.Motion > len(r.Entries[mv.Item-1].Motions) {
			continue
		}
		mo := &r.Entries[mv.Item-1].Motions[mv.Motion-1]
		mo.Mover, mo.Seconder = mv.Mover, mv.Seconder
	}
}

// MinutesApproval is a roll call at meeting At, on day On, on approving the minutes of
// the meeting: carried or failed, it is on the record of both meetings' minutes.
type MinutesApproval struct {
	At   MeetingName `json:"at"`
	On   Date        `json:"on"`
	Vote Vote        `json:"vote"`
}

// MinutesNote adds the clerk's narrative to a meeting's minutes before they are approved:
// a summary of discussion that 5 ILCS 120/2.06(a) requires and the record cannot give.
// Item is the item's number on the agenda, or 0 for the meeting as a whole.
type MinutesNote struct {
	Item int    `json:"item,omitempty"`
	Text string `json:"text"`
}

// Kind implements MeetingAction.
func (MinutesNote) Kind() string { return "minutes_note" }

func (a MinutesNote) applyMeeting(e *Engine, m *CommissionMeeting, at time.Time) error {
	if err := checkText("text", a.Text, true, MaxText); err != nil {
		err.(*Error).Rule = OMAMinutes
		return err
	}
	if err := draftable(e, m); err != nil {
		return err
	}
	if a.Item < 0 || a.Item > len(m.Agenda()) {
		return NotFound(OMAMinutes, "item",
			fmt.Sprintf("meeting %s has no item %d; it has %d (0, or no item=, is the meeting as a whole)", m.Name, a.Item,
				len(m.Agenda())))
	}
	if a.Item == 0 {
		m.Minutes.Notes = append(m.Minutes.Notes, a.Text)
		return nil
	}
	m.ItemNotes = append(m.ItemNotes, ItemNote(a))
	return nil
}

// draftable refuses to change the draft of minutes of a meeting that was never called to
// order, or whose minutes are approved: approved minutes stand as approved, and a
// correction is the commission's, moved at a later meeting.
func draftable(e *Engine, m *CommissionMeeting) error {
	if m.Minutes.Convened.IsZero() {
		return Conflict(OMAMinutes, "meeting",
			fmt.Sprintf("meeting %s has not been called to order: its minutes have nothing to record yet", m.Name))
	}
	if !m.Minutes.Approved.IsZero() {
		return Conflict(OMAMinutes, "meeting",
			fmt.Sprintf("the minutes of meeting %s were approved on %s, at the meeting of %s: they stand as approved, and "+
				"only the commission may correct them, by a vote at a later meeting", m.Name, m.Minutes.Approved.Long(),
				m.Minutes.ApprovedAt))
	}
	return nil
}

// ApproveMinutes records the roll call, taken at the later meeting At on day On, on
// approving the minutes of the meeting (5 ILCS 120/2.06(b)): the open and the closed
// minutes together, as one item of At's agenda. A vote that carries approves them: they
// lose the DRAFT mark; one that fails is on the record, and they stay a draft. The command
// checks that At holds the item and is in open session (CheckApprovalAt).
type ApproveMinutes struct {
	At   MeetingName `json:"at"`
	On   Date        `json:"on"`
	Vote *Vote       `json:"vote"`
}

// Kind implements MeetingAction.
func (ApproveMinutes) Kind() string { return "minutes_approval" }

func (a ApproveMinutes) applyMeeting(e *Engine, m *CommissionMeeting, at time.Time) error {
	if err := draftable(e, m); err != nil {
		return err
	}
	if m.Minutes.Adjourned.IsZero() {
		return Conflict(OMAMinutes, "meeting",
			fmt.Sprintf("the adjournment of meeting %s is not recorded: its minutes are not complete (/ethics "+
				"adjourn %s at=...)", m.Name, m.Name))
	}
	if a.At.Date() <= DateIn(m.Start, e.Cal.Location()) || string(a.At) == m.Name {
		return Invalid(OMAMinutes, "at",
			fmt.Sprintf("the minutes of meeting %s are approved at a later meeting, not at %s", m.Name, a.At))
	}
	if a.Vote == nil {
		return Invalid(OMAMinutes, "yes",
			"the approval of minutes is a roll call: give the votes, or let them default to the members present")
	}
	v := *a.Vote
	if err := v.check(&Case{}, OMAMinutes); err != nil {
		return err
	}
	m.Approvals = append(m.Approvals, MinutesApproval{At: a.At, On: a.On, Vote: v})
	if v.Carried() {
		m.Minutes.Approved, m.Minutes.ApprovedAt = a.On, a.At
	}
	return nil
}

// CheckApprovalAt refuses to take the vote approving the minutes of meeting minutesOf at
// meeting later at instant now unless later is in progress, in open session (a final act
// of the commission, 5 ILCS 120/2(e)), and its agenda holds "approval of the minutes of"
// minutesOf (5 ILCS 120/2.02(c): the agenda sets forth what is acted on). It returns the
// item's number on later's agenda.
func CheckApprovalAt(later *CommissionMeeting, minutesOf string, now time.Time) (int, error) {
	if !later.InSession(now) {
		return 0, Conflict(OMAMinutes, "at",
			fmt.Sprintf("meeting %s is not in progress: the minutes are approved by a roll call at a meeting, once it is "+
				"called to order (/ethics convene %s present=...)", later.Name, later.Name))
	}
	if later.Minutes.SessionAt(now) > 0 {
		return 0, Conflict(OMAFinal, "at",
			"meeting "+later.Name+" is in closed session: the approval of minutes is final action, voted in open session "+
				"(/ethics session "+later.Name+" open)")
	}
	for i, it := range later.Agenda() {
		if it.Kind == MinutesItem && it.Text == minutesOf {
			return i + 1, nil
		}
	}
	return 0, Conflict(OMANotice, "at",
		fmt.Sprintf("the agenda of meeting %s has no item approving the minutes of %s, and a public body acts only on what "+
			"its agenda sets forth (5 ILCS 120/2.02(c)): add it before the 48 hours, `/ethics agenda %s add item=minutes %s`, "+
			"or approve them at a later meeting", later.Name, minutesOf, later.Name, minutesOf))
}

// PublishMinutes makes the approved open minutes of the meeting public on the board, as
// the clerk publishes them (Text, the minutes as approved): "within 10 days after the
// approval of such minutes" (5 ILCS 120/2.06(b), MinutesPublicDue). The closed minutes are
// never published by it: only the 2.06(d) review may make them public.
type PublishMinutes struct {
	Text string `json:"text"`
}

// Kind implements MeetingAction.
func (PublishMinutes) Kind() string { return "minutes_published" }

func (a PublishMinutes) applyMeeting(e *Engine, m *CommissionMeeting, at time.Time) error {
	if m.Minutes.Approved.IsZero() {
		return Conflict(OMAMinutes, "meeting",
			fmt.Sprintf("the minutes of meeting %s are not approved: only approved open minutes are made public (5 ILCS "+
				"120/2.06(b)); a draft never is", m.Name))
	}
	if !m.Published.IsZero() {
		return Conflict(OMAMinutes, "meeting",
			fmt.Sprintf("the approved open minutes of meeting %s were made public on %s", m.Name, e.shortTime(m.Published)))
	}
	if a.Text == "" {
		return Invalid(OMAMinutes, "text", "the minutes to publish are empty")
	}
	m.Published, m.PublishedText = at.In(e.Cal.Location()), a.Text
	return nil
}

// PublishedBy is the day by which the approved open minutes must be public, and whether
// the minutes are approved at all (MinutesPublicDue).
func (m *CommissionMeeting) PublishedBy(c *Calendar) (Date, bool) {
	if m.Minutes.Approved.IsZero() {
		return 0, false
	}
	return c.MinutesPublicDue(m.Minutes.Approved), true
}

// Held is the day the meeting was held, in the commission's zone: the day its 2.06 clocks
// count from.
func (m *CommissionMeeting) Held(c *Calendar) Date {
	if !m.Minutes.Convened.IsZero() {
		return c.DateOf(m.Minutes.Convened)
	}
	return c.DateOf(m.Start)
}

// RegularDays are the days of the regular meetings among ms (5 ILCS 120/2.03): recorded,
// not special, not cancelled. The year's schedule, where it is configured, is the better
// list; until then the recorded regular meetings are the ones known.
func RegularDays(ms []CommissionMeeting, c *Calendar) []Date {
	var out []Date
	for i := range ms {
		if ms[i].Special || !ms[i].Cancelled.IsZero() || ms[i].Folded {
			continue
		}
		out = append(out, c.DateOf(ms[i].Start))
	}
	return out
}

// ApprovalDue is the day by which the minutes of meeting m must be approved (5 ILCS
// 120/2.06(b), MinutesApprovalDue), counting the regular meetings among ms.
func (m *CommissionMeeting) ApprovalDue(c *Calendar, ms []CommissionMeeting) (Date, bool) {
	return c.MinutesApprovalDue(m.Held(c), RegularDays(ms, c))
}

// approvalFor returns the roll calls, among ms, taken at meeting name on approving the
// minutes of meeting of.
func approvalsAt(ms []CommissionMeeting, name, of string) []MinutesApproval {
	var out []MinutesApproval
	for i := range ms {
		if ms[i].Name != of {
			continue
		}
		for _, a := range ms[i].Approvals {
			if string(a.At) == name {
				out = append(out, a)
			}
		}
	}
	return out
}

// AddApprovals puts on record r of meeting m the roll calls taken at it on approving the
// minutes of the earlier meetings its agenda names (among ms), on their items.
func (r *MinutesRecord) AddApprovals(m *CommissionMeeting, ms []CommissionMeeting) {
	for i := range r.Entries {
		e := &r.Entries[i]
		if e.Item.Kind != MinutesItem {
			continue
		}
		for _, a := range approvalsAt(ms, m.Name, string(e.Item.Minutes)) {
			v := a.Vote
			e.Motions = append(e.Motions,
				MeetingMotion{Text: "To approve the minutes of the meeting of " + longDay(e.Item.Minutes.Date()), Roll: &v})
		}
	}
}

// itemNotes attaches the clerk's narrative to the entries of r, by item number.
func (r *MinutesRecord) itemNotes(notes []ItemNote) {
	for _, n := range notes {
		if n.Item >= 1 && n.Item <= len(r.Entries) {
			r.Entries[n.Item-1].Notes = append(r.Entries[n.Item-1].Notes, n.Text)
		}
	}
}

// cloneMinutesParts copies the slices of m's minutes beyond its record, so that a refused
// action leaves the meeting as it was.
func (m *CommissionMeeting) cloneMinutesParts() {
	m.ItemNotes, m.Approvals, m.Movers = slices.Clone(m.ItemNotes), slices.Clone(m.Approvals), slices.Clone(m.Movers)
	m.Business = slices.Clone(m.Business)
	m.Corrections = slices.Clone(m.Corrections)
	m.Adopted = slices.Clone(m.Adopted)
}

// DestroyRecording records the destruction of the verbatim recording of closed session
// Session (from 1) of the meeting, on day On, which the commission approved on Approved
// (5 ILCS 120/2.06(c)(1)). It is refused before RecordingDestroyable: 18 months after the
// meeting, and once the minutes of the closed session are approved.
type DestroyRecording struct {
	Session  int  `json:"session"`
	On       Date `json:"on"`
	Approved Date `json:"approved,omitzero"`
}

// Kind implements MeetingAction.
func (DestroyRecording) Kind() string { return "recording_destroyed" }

func (a DestroyRecording) applyMeeting(e *Engine, m *CommissionMeeting, at time.Time) error {
	r := &m.Minutes
	if len(r.Sessions) == 0 {
		return NotFound(OMARecording, "session",
			fmt.Sprintf("meeting %s had no closed session, so no verbatim recording is kept of it", m.Name))
	}
	if a.Session < 1 || a.Session > len(r.Sessions) {
		return NotFound(OMARecording, "session",
			fmt.Sprintf("meeting %s had %d closed session%s; there is no session %d", m.Name, len(r.Sessions),
				plural(len(r.Sessions)), a.Session))
	}
	s := &r.Sessions[a.Session-1]
	switch {
	case !s.Recorded:
		return Conflict(OMARecording, "session",
			fmt.Sprintf("closed session %d of meeting %s is not recorded as recorded verbatim, so there is no "+
				"recording to destroy", a.Session, m.Name))
	case !s.Destroyed.IsZero():
		return Conflict(OMARecording, "session",
			fmt.Sprintf("the recording of closed session %d of meeting %s was destroyed on %s", a.Session, m.Name,
				s.Destroyed.Long()))
	case a.On > e.Cal.DateOf(at):
		return Invalid(OMARecording, "on", "a destruction cannot be recorded before it happens")
	}
	if err := CheckRecordingDestruction(m.Held(e.Cal), r.Approved, a.Approved, a.On); err != nil {
		return err
	}
	s.Destroyed = a.On
	return nil
}

// RecordingsDestroyable is the earliest day the verbatim recordings of m's closed sessions
// may be destroyed (RecordingDestroyable), and whether there is such a day yet: not while
// the minutes are unapproved, nor for a meeting with no recorded closed session.
func (m *CommissionMeeting) RecordingsDestroyable(c *Calendar) (Date, bool) {
	for _, s := range m.Minutes.Sessions {
		if s.Recorded {
			return RecordingDestroyable(m.Held(c), m.Minutes.Approved)
		}
	}
	return 0, false
}

// Record is the record meeting m's minutes are drafted from (DraftMinutes): what was
// recorded at it, the roll calls its cases record that day (read with get, with the
// entries of each case's record, from which each motion is worded), the roll calls taken
// at it on approving earlier meetings' minutes (among all), and the clerk's notes.
func (m *CommissionMeeting) Record(all []CommissionMeeting, e *Engine,
	get func(number string) (Case, []Entry, error)) (MinutesRecord, error) {
	cases := map[string]*Case{}
	entries := map[string][]Entry{}
	for _, it := range m.Cases {
		if _, ok := cases[it.Case]; ok {
			continue
		}
		c, record, err := get(it.Case)
		if err != nil {
			return MinutesRecord{}, err
		}
		cases[it.Case], entries[it.Case] = &c, record
	}
	r := m.DraftMinutes(cases, e.Cal.Location())
	r.wordMotions(e, cases, entries)
	r.AddApprovals(m, all)
	r.businessMotions(m.Business)
	r.movers(m.Movers)
	r.reportOn(m.Review.Item, m.Review.Words())
	for _, a := range m.Adopted {
		r.reportOn(a.Item, a.Words(e.Cal.Location()))
	}
	if rel, ok := ReleasedClosed(all, m.Name); ok {
		r.Released = e.Cal.DateOf(rel.At)
	}
	return r, nil
}
