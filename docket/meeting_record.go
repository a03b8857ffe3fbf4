package docket

import (
	"fmt"
	"strings"
	"time"
)

// This file holds the pure shapes of a meeting of the commission as a body (issue 19): its
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
		return "", invalid("meeting", "", fmt.Sprintf("a meeting is named by its date and a letter b to z for a second or later meeting that day; there is no meeting %d on %s", n, d))
	}
	if n == 1 {
		return MeetingName(d.String()), nil
	}
	return MeetingName(d.String() + string(rune('a'+n-1))), nil
}

// ParseMeetingName reads a meeting's name as a user types it: 2027-01-12 or 2027-01-12b.
func ParseMeetingName(s string) (MeetingName, error) {
	s = strings.TrimSpace(s)
	bad := invalid("meeting", "", fmt.Sprintf("%q is not a meeting: name a meeting by its date, 2027-01-12, or 2027-01-12b for the second that day", s))
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
	Seated    []string        `json:"seated"`
	Quorum    int             `json:"quorum"`
	Convened  time.Time       `json:"convened"` // the call to order, with the commission's zone
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
	Approved   Date        `json:"approved,omitzero"`
	ApprovedAt MeetingName `json:"approved_at,omitempty"`
}
