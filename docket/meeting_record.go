package docket

import (
	"fmt"
	"strings"
	"time"
)

// This file holds the pure shapes of a meeting of the commission as a body: its
// agenda, as the Open Meetings Act has it posted (5 ILCS 120/2.02), and the record of what
// happened at it, from which its minutes are drafted (5 ILCS 120/2.06). They carry no state
// of their own: the meeting entity builds them from its events, the letters package draws
// them, and openmeetings.go holds the Act's clocks and checks.
//
// Members are named by their Slack ids here. A renderer turns an id into the text it
// prints with a Names function the caller supplies from the configuration.

// Names turns a member's id into the text a document prints for them: "Ann Alder, Chair".
// A nil Names prints the id itself.
type Names func(id string) string

// Name is n(id), or id when n is nil or gives "".
func (n Names) Name(id string) string {
	if n == nil {
		return id
	}
	if s := n(id); strings.TrimSpace(s) != "" {
		return s
	}
	return id
}

// MeetingName names a meeting of the commission by its local date, "2027-01-12", with a
// letter for a second or later meeting that day: "2027-01-12b", "2027-01-12c".
type MeetingName string

// NewMeetingName names the nth meeting (1, 2, ...) held on d: d itself for the first, then
// d with b, c, ... up to z.
func NewMeetingName(d Date, n int) (MeetingName, error) {
	if d.IsZero() || n < 1 || n > 26 {
		return "", Invalid("", "meeting",
			fmt.Sprintf("a meeting is named by its date and a letter b to z for a second or later meeting that day; there is "+
				"no meeting %d on %s", n, d))
	}
	if n == 1 {
		return MeetingName(d.String()), nil
	}
	return MeetingName(d.String() + string(rune('a'+n-1))), nil
}

// ParseMeetingName reads a meeting's name as a user types it: 2027-01-12 or 2027-01-12b.
func ParseMeetingName(s string) (MeetingName, error) {
	s = strings.TrimSpace(s)
	bad := Invalid("", "meeting",
		fmt.Sprintf("%q is not a meeting: name a meeting by its date, 2027-01-12, or 2027-01-12b for the second that day", s))
	day, suffix := s, ""
	if len(s) == len("2006-01-02")+1 {
		day, suffix = s[:len(s)-1], s[len(s)-1:]
		if suffix < "b" || suffix > "z" {
			return "", bad
		}
	}
	if _, err := ParseDate(day); err != nil || len(day) != len("2006-01-02") {
		return "", bad
	}
	return MeetingName(day + suffix), nil
}

// Date is the local date a meeting is named for.
func (n MeetingName) Date() Date {
	s := string(n)
	if len(s) > len("2006-01-02") {
		s = s[:len("2006-01-02")]
	}
	d, _ := ParseDate(s)
	return d
}

// ItemKind is what an item of a meeting's agenda is.
type ItemKind string

// The kinds of agenda item, in the order of business a commission usually follows.
const (
	CallToOrder   ItemKind = "call_to_order"
	RollCallItem  ItemKind = "roll_call"
	MinutesItem   ItemKind = "minutes"        // approval of the minutes of an earlier meeting (5 ILCS 120/2.06(b))
	PublicComment ItemKind = "public_comment" // 5 ILCS 120/2.06(g)
	CaseItem      ItemKind = "case"           // a step of a case taken at the meeting: its MeetingKind
	BusinessItem  ItemKind = "business"       // other business, in the clerk's words
	Adjournment   ItemKind = "adjournment"
)

// ItemKinds lists every ItemKind.
var ItemKinds = []ItemKind{CallToOrder, RollCallItem, MinutesItem, PublicComment, CaseItem, BusinessItem, Adjournment}

// AgendaItem is one item of business on a meeting's agenda.
type AgendaItem struct {
	Kind ItemKind `json:"kind"`
	// Case and Step say which case and which of its steps a CaseItem takes: "2026-001",
	// SufficiencyMeeting.
	Case string      `json:"case,omitempty"`
	Step MeetingKind `json:"step,omitempty"`
	// Minutes names the meeting whose minutes a MinutesItem approves.
	Minutes MeetingName `json:"minutes,omitempty"`
	// Text is a BusinessItem's subject, in the clerk's words (user text: data, never markup).
	Text string `json:"text,omitempty"`
	// Closed items are taken in closed session, under Exception: a subsection of
	// 5 ILCS 120/2(c), "5 ILCS 120/2(c)(4)". The rest of the meeting stays open.
	Closed    bool   `json:"closed,omitempty"`
	Exception string `json:"exception,omitempty"`
}

// Agenda is a meeting's agenda as its public notice gives it (5 ILCS 120/2.02): the
// meeting, where and when, and its items in the order of business.
type Agenda struct {
	Meeting MeetingName `json:"meeting"`
	Start   time.Time   `json:"start"` // with the commission's zone, as printed
	Place   string      `json:"place"`
	// Special is a special meeting; else a regular meeting of the year's schedule (2.03).
	Special bool `json:"special,omitempty"`
	// Amended is an agenda changed after it was first posted, re-posted as amended.
	Amended bool         `json:"amended,omitempty"`
	Items   []AgendaItem `json:"items"`
	// Posted is when the agenda as it stands was posted (CommissionMeeting.Posted), the
	// day it is dated by; zero for a draft not yet posted.
	Posted time.Time `json:"posted,omitzero"`
}

// MeetingMotion is a motion made at a meeting and its roll call. The roll call is a Vote,
// the same record the case's own actions carry (commission.go): who was seated, how each
// voted yes, no or abstained, who was absent or recused, and the quorum and majority it
// was counted by.
type MeetingMotion struct {
	At       time.Time `json:"at,omitzero"`
	Text     string    `json:"text"` // what was moved, in the clerk's words
	Mover    string    `json:"mover,omitempty"`
	Seconder string    `json:"seconder,omitempty"`
	Roll     *Vote     `json:"roll,omitempty"` // nil: no roll call recorded (a voice vote)
	// Action is the kind of the case action the motion adopts ("rule", "decide"), or "".
	// A final action may not be taken in closed session (5 ILCS 120/2(e)): see
	// CheckFinalActionOpen.
	Action string `json:"action,omitempty"`
	// Words are what was moved on a case's act, as the act says it (Voted.Motion), with the
	// facts a document names from the configuration (the officer with authority to
	// discipline); Text is the same words, plain. Empty for a motion of the meeting's own.
	Words Words `json:"words,omitempty"`
}

// Movement is a member arriving after the call to order, or leaving before adjournment.
type Movement struct {
	Member string    `json:"member"`
	At     time.Time `json:"at"`
}

// MinutesEntry is what happened on one agenda item.
type MinutesEntry struct {
	Item AgendaItem `json:"item"`
	// Session is the closed session (1-based, into MinutesRecord.Sessions) in which the item
	// was taken; 0 when it was taken in open session.
	Session int             `json:"session,omitempty"`
	Motions []MeetingMotion `json:"motions,omitempty"`
	Notes   []string        `json:"notes,omitempty"` // the clerk's narrative on this item
}

// ClosedSession is one closed session of a meeting: entered by a roll call in open session
// citing the exception (5 ILCS 120/2a), and the return to open session.
type ClosedSession struct {
	Exception string        `json:"exception"` // "5 ILCS 120/2(c)(4)"
	Motion    MeetingMotion `json:"motion"`    // the roll call to close, taken in open session
	Entered   time.Time     `json:"entered"`
	Returned  time.Time     `json:"returned,omitzero"` // zero: not recorded yet
	// Recorded says a verbatim recording was made, as 5 ILCS 120/2.06(a) requires of every
	// closed meeting; its destruction is timed by RecordingDestroyable.
	Recorded bool `json:"recorded,omitempty"`
	// Destroyed is the day the recording was destroyed, as 2.06(c) allows
	// (CheckRecordingDestruction); zero while it is kept.
	Destroyed Date `json:"destroyed,omitzero"`
}

// Part is one of a meeting's two sets of minutes: the open minutes, public once approved,
// and the closed minutes, confidential until the commission finds under 5 ILCS 120/2.06(d)
// that they need no longer be.
type Part string

// The parts of a meeting's minutes.
const (
	OpenPart   Part = "open"
	ClosedPart Part = "closed"
)

// MinutesRecord is what was recorded of a meeting, from which its minutes are drafted
// (5 ILCS 120/2.06(a): "the date, time and place of the meeting; the members of the public
// body recorded as either present or absent and whether the members were physically
// present or present by means of video or audio conference; and a summary of discussion on
// all matters proposed, deliberated, or decided, and a record of any votes taken").
type MinutesRecord struct {
	Meeting MeetingName `json:"meeting"`
	Place   string      `json:"place"`
	Special bool        `json:"special,omitempty"`
	// Seated are the members seated on the commission at the meeting, in the order the
	// roll is called; Quorum is how many of them must be physically present to act
	// (DefaultQuorum unless the configuration says otherwise; QuorumAt).
	Seated   []string  `json:"seated"`
	Quorum   int       `json:"quorum"`
	Convened time.Time `json:"convened"` // the call to order, with the commission's zone
	// Emergency is the nature of the emergency that called the meeting without 48 hours'
	// notice (5 ILCS 120/2.02(a)); empty for a meeting noticed in time.
	Emergency string          `json:"emergency,omitempty"`
	Present   []string        `json:"present,omitempty"`
	Absent    []string        `json:"absent,omitempty"`
	Remote    []string        `json:"remote,omitempty"` // present by video or audio conference (2.06(a))
	Arrived   []Movement      `json:"arrived,omitempty"`
	Left      []Movement      `json:"left,omitempty"`
	Entries   []MinutesEntry  `json:"entries,omitempty"`
	Sessions  []ClosedSession `json:"sessions,omitempty"`
	Adjourned time.Time       `json:"adjourned,omitzero"` // zero: not recorded yet
	Notes     []string        `json:"notes,omitempty"`    // the clerk's narrative on the meeting as a whole
	// Approved is the date the commission approved the minutes, at meeting ApprovedAt;
	// zero while they are a draft.
	Approved Date `json:"approved,omitzero"`
	// Released is the day the commission's review found the closed minutes no longer need
	// confidential treatment and made them public (5 ILCS 120/2.06(d)); zero while they are
	// confidential.
	Released   Date        `json:"released,omitzero"`
	ApprovedAt MeetingName `json:"approved_at,omitempty"`
	// Corrections are the corrections of the meeting's own record made after it was held,
	// listed with its minutes (CorrectMeeting); filled by DraftMinutes.
	Corrections []MeetingCorrection `json:"corrections,omitempty"`
}

// longDay formats a date as an agenda or minutes prints it: "Tuesday 12 January 2027".
func longDay(d Date) string { return d.utc().Format("Monday 2 January 2006") }

// Words is the item's business as the agenda and the minutes word it, without its number
// or its access: "Public comment (5 ILCS 120/2.06(g)).". A BusinessItem's Text is
// returned as the clerk typed it: it is data, escaped where the document is built.
func (it AgendaItem) Words() string {
	switch it.Kind {
	case CallToOrder:
		return "Call to order."
	case RollCallItem:
		return "Roll call and determination of a quorum."
	case MinutesItem:
		s := "Approval of the minutes of the meeting of " + longDay(it.Minutes.Date())
		if it.Minutes.Date().String() != string(it.Minutes) {
			s += " (" + string(it.Minutes) + ")"
		}
		return s + " (5 ILCS 120/2.06(b))."
	case PublicComment:
		// "Any person shall be permitted an opportunity to address public officials under
		// the rules established and recorded by the public body" (5 ILCS 120/2.06(g)).
		return "Public comment (5 ILCS 120/2.06(g))."
	case CaseItem:
		return caseItemWords(it.Step, it.Case)
	case BusinessItem:
		return it.Text
	case Adjournment:
		return "Adjournment."
	}
	return string(it.Kind)
}

// Title says the item as the agenda prints it: its business in words, without the final
// full stop, and for a closed item the exception it is closed under.
func (it AgendaItem) Title() string {
	t := strings.TrimSuffix(it.Words(), ".")
	if it.Closed {
		t += " (closed session, " + it.Exception + ")"
	}
	return t
}

// Check refuses an agenda that no notice may post: a meeting without a name, start or
// place, an item of an unknown kind or missing what it needs, a closed item without a
// valid exception of 5 ILCS 120/2(c), or text past the docket's limits. The error names
// the item and the rule.
func (a Agenda) Check() error {
	if _, err := ParseMeetingName(string(a.Meeting)); err != nil {
		return err
	}
	if a.Start.IsZero() {
		return Invalid(OMANotice, "start", "the meeting has no start: the notice gives its date and time")
	}
	if err := CheckLine("place", OMANotice, a.Place, true, MaxName); err != nil {
		return err
	}
	if len(a.Items) == 0 {
		return Invalid(OMANotice, "agenda", "the agenda has no items")
	}
	for i, it := range a.Items {
		if err := it.check(i + 1); err != nil {
			return err
		}
	}
	return nil
}

// check refuses item n of an agenda that is incomplete or malformed.
func (it AgendaItem) check(n int) error {
	field := fmt.Sprintf("item %d", n)
	switch it.Kind {
	case CaseItem:
		if it.Case == "" || caseItemWords(it.Step, it.Case) == "" {
			return Invalid(OMANotice, field,
				fmt.Sprintf("a case item names its case and one of its meetings, %s", join(MeetingKinds, ", ")))
		}
		if err := CheckLine(field, OMANotice, it.Case, true, MaxName); err != nil {
			return err
		}
	case MinutesItem:
		if _, err := ParseMeetingName(string(it.Minutes)); err != nil {
			return Invalid(OMAMinutes, field, "an approval of minutes names the meeting whose minutes it approves, 2027-01-12")
		}
	case BusinessItem:
		// 5 ILCS 120/2.02(c): the agenda sets forth "the general subject matter" of what
		// will be acted on, so the subject is required.
		if err := checkText(field, it.Text, true, MaxText); err != nil {
			err.(*Error).Rule = OMANotice
			return err
		}
	case CallToOrder, RollCallItem, PublicComment, Adjournment:
	default:
		return Invalid(OMANotice, field,
			fmt.Sprintf("%q is not an agenda item: the items are %s", it.Kind, join(ItemKinds, ", ")))
	}
	if it.Closed {
		if _, err := ParseException(it.Exception); err != nil {
			err.(*Error).Field = field
			return err
		}
	}
	return nil
}

// Check refuses a record whose minutes cannot be drafted truthfully: a closed entry in no
// recorded closed session, sessions out of order or overlapping, a final action taken in
// closed session (5 ILCS 120/2(e)), or a vote to close that 5 ILCS 120/2a does not allow.
func (r MinutesRecord) Check() error {
	if _, err := ParseMeetingName(string(r.Meeting)); err != nil {
		return err
	}
	if r.Convened.IsZero() {
		return Invalid(OMAMinutes, "convened",
			"the minutes give the time the meeting was called to order (5 ILCS 120/2.06(a))")
	}
	var last time.Time
	for i, s := range r.Sessions {
		field := fmt.Sprintf("closed session %d", i+1)
		if s.Entered.Before(last) || (!s.Returned.IsZero() && s.Returned.Before(s.Entered)) {
			return Invalid(OMAClose, field,
				"the closed sessions are recorded in order, each returned from before the next is entered")
		}
		if s.Returned.IsZero() && i < len(r.Sessions)-1 {
			return Invalid(OMAClose, field, "the return to open session is not recorded, yet another closed session follows")
		}
		if err := CheckCloseVote(s.Motion.Roll, s.Exception, 0); err != nil {
			err.(*Error).Field = field
			return err
		}
		last = s.Returned
	}
	for i, e := range r.Entries {
		field := fmt.Sprintf("item %d", i+1)
		if e.Session < 0 || e.Session > len(r.Sessions) {
			return Invalid(OMAClose, field, fmt.Sprintf("closed session %d is not recorded", e.Session))
		}
		for _, m := range e.Motions {
			if err := CheckOpenForAction(m.Action, r.MotionSession(e, m)); err != nil {
				err.(*Error).Field = field
				return err
			}
		}
	}
	return nil
}

// MotionSession is the closed session (1-based) motion m on entry e was voted in, 0 for
// open session: by the instant of its roll call alone when the record has it, else the
// session its item was taken in. A vote on a closed item taken after the return to open
// session (as 5 ILCS 120/2(e) requires of final action) is in open session, and in the
// open minutes; the item's discussion stays in the closed minutes.
//
// A roll call at the very instant a closed session was entered (the console, or two
// actions within a second) was taken before the entry: the vote to close is itself taken
// in open session at that instant (2a), and a final action recorded after the entry would
// have been refused then (CheckOpenForAction).
func (r MinutesRecord) MotionSession(e MinutesEntry, m MeetingMotion) int {
	if m.At.IsZero() {
		return e.Session
	}
	for i, s := range r.Sessions {
		if m.At.After(s.Entered) && (s.Returned.IsZero() || m.At.Before(s.Returned)) {
			return i + 1
		}
	}
	return 0
}

// Gaps lists what part of the minutes of r still lacks before the commission can approve
// them, for the clerk: what 5 ILCS 120/2.06(a) requires of minutes ("a summary of
// discussion on all matters proposed, deliberated, or decided, and a record of any votes
// taken") and of a closed meeting (its verbatim recording), and the times the record has
// not got. Empty when nothing is missing.
func (r MinutesRecord) Gaps(part Part) []string {
	var out []string
	closed := part == ClosedPart
	if !closed && r.Adjourned.IsZero() {
		out = append(out, "the time of adjournment")
	}
	for i, s := range r.Sessions {
		if s.Returned.IsZero() {
			out = append(out, fmt.Sprintf("the time of the return to open session from closed session %d", i+1))
		}
		if closed && !s.Recorded {
			out = append(out, fmt.Sprintf("that closed session %d was recorded verbatim (5 ILCS 120/2.06(a))", i+1))
		}
		if !closed && s.Motion.Roll == nil {
			out = append(out, fmt.Sprintf("the roll call on closing closed session %d (5 ILCS 120/2a)", i+1))
		}
	}
	for i, e := range r.Entries {
		switch e.Item.Kind {
		case CallToOrder, RollCallItem, Adjournment:
			continue
		}
		if (e.Session > 0) == closed && len(e.Notes) == 0 && len(e.Motions) == 0 {
			out = append(out, fmt.Sprintf("item %d: a summary of the discussion (5 ILCS 120/2.06(a))", i+1))
		}
		for j, m := range e.Motions {
			if (r.MotionSession(e, m) > 0) != closed {
				continue // in the other part of the minutes
			}
			if m.Mover == "" {
				out = append(out, fmt.Sprintf("item %d, motion %d: who moved it", i+1, j+1))
			}
			if m.Roll == nil {
				out = append(out, fmt.Sprintf("item %d, motion %d: the roll call", i+1, j+1))
			}
		}
	}
	return out
}
