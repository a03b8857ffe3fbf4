package docket

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// PublicRecord is one thing about a case that the ordinance makes public: a meeting
// notice, a (C)(2) dismissal, an (E) decision with its findings, recommendation and fine,
// or an (F) final recommendation.
type PublicRecord struct {
	Case           string `json:"case"`
	Rule           string `json:"rule"`
	Record         string `json:"record"` // meeting_notice, dismissal, decision, final_recommendation
	On             Date   `json:"on"`
	Complainant    string `json:"complainant,omitempty"` // only once the case is public
	Respondent     string `json:"respondent,omitempty"`
	Ruling         string `json:"ruling,omitempty"`
	Ground         string `json:"ground,omitempty"`  // a dismissal's ground besides its ruling: time_barred (I)
	Section        string `json:"section,omitempty"` // a dismissal of one part of a complaint alleging both sections
	Findings       string `json:"findings,omitempty"`
	Recommendation string `json:"recommendation,omitempty"`
	Fine           int    `json:"fine,omitempty"`
	Text           string `json:"text,omitempty"`
	Tally          string `json:"tally,omitempty"` // the commission's roll call, e.g. "adopted 3–0"

	// A meeting notice's meeting, as the notice gives it.
	Meeting     MeetingKind `json:"meeting,omitempty"`
	Start       time.Time   `json:"start,omitzero"`
	Place       string      `json:"place,omitempty"`
	Closed      bool        `json:"closed,omitempty"`
	Authority   string      `json:"authority,omitempty"` // the Open Meetings Act exception of a closed meeting
	Agenda      []string    `json:"agenda,omitempty"`
	Withdrawn   string      `json:"withdrawn,omitempty"`   // "cancelled" or "moved": the notice no longer stands
	WithdrawnAt time.Time   `json:"withdrawn_at,omitzero"` // when it was cancelled or moved
	MovedTo     time.Time   `json:"moved_to,omitzero"`
	// MovedPlace is, for a notice moved, the place its meeting moved to.
	MovedPlace string `json:"moved_place,omitempty"`
	// Moves are the starts and places the notice's meeting had before it was moved to where
	// the notice gives it, oldest first, each with when it moved: the public keeps what it
	// was told (5 ILCS 120/2.02). Series is the key (Key) of the meeting's first notice, when
	// it moved since: the calendar keeps one event for the meeting through its moves and its
	// cancellation (SeriesKey).
	Moves  []Moved `json:"moves,omitempty"`
	Series string  `json:"series,omitempty"`
}

// Key names r among its case's public records, stably: a notice keeps its key while its
// meeting stands, and gets a new one when the meeting moves, is cancelled or is closed; an
// outcome keeps its key through a correction of its wording. The board keys its
// first-posted times by it.
func (r PublicRecord) Key() string {
	if r.Record != "meeting_notice" {
		return r.Record + ":" + r.Section
	}
	// A withdrawal's own time tells apart two withdrawals of notices alike (cancelled,
	// scheduled again the same, cancelled again).
	b, _ := json.Marshal([]any{r.Start.UTC(), r.Place, r.Closed, r.Authority, r.Withdrawn, r.MovedTo.UTC(),
		r.WithdrawnAt.UTC()})
	h := sha256.Sum256(b)
	return r.Record + ":" + string(r.Meeting) + ":" + hex.EncodeToString(h[:8])
}

// SeriesKey names the meeting r's notice is of, through its moves and its cancellation: the
// key its first notice had while it stood. A calendar event of the meeting keeps it (RFC
// 5545's UID), so that a subscribed calendar moves or cancels the event it has instead of
// adding another.
func (r PublicRecord) SeriesKey() string {
	if r.Series != "" {
		return r.Series
	}
	r.Withdrawn, r.WithdrawnAt, r.MovedTo = "", time.Time{}, time.Time{}
	return r.Key()
}

// Sequence counts the changes to the meeting r's notice is of since its first notice: each
// move, and its cancellation. It is RFC 5545's SEQUENCE of the meeting's calendar event,
// derived from the record, so the same record always gives the same feed.
func (r PublicRecord) Sequence() int {
	n := len(r.Moves)
	if r.Withdrawn == "cancelled" {
		n++
	}
	return n
}

// PublicForm numbers the form of what PublicRecords returns: the wording of notices and
// agendas, and the fields. Raise it with any change that makes PublicRecords say something
// else of a case already recorded; a store that keeps public records then words them
// afresh, keeping when each was first posted. 2: a notice gives the moves of its meeting.
const PublicForm = 2

// PublicRecords lists what the ordinance makes public about c, and nothing else: no
// allegation text, and no party names unless the case has been made public.
func PublicRecords(c *Case, loc *time.Location) []PublicRecord {
	var out []PublicRecord
	add := func(r PublicRecord) {
		r.Case = c.Number
		if c.Public() {
			r.Complainant, r.Respondent = c.Complainant.Name, c.Respondent.Name
		}
		out = append(out, r)
	}
	notice := func(k MeetingKind, m Meeting) PublicRecord {
		return PublicRecord{Rule: k.Rule(), Record: "meeting_notice", On: DateIn(m.Start, loc),
			Text:    MeetingNotice(k, m, loc),
			Meeting: k, Start: m.Start.In(loc), Place: m.Place, Closed: m.Closed, Authority: m.Authority,
			Agenda: CaseAgenda(k, c.Number)}
	}
	// (C)(1), (D), (F): each meeting's notice, with earlier sessions of a recessed hearing
	// and the notices of meetings cancelled or moved, marked so.
	history := func(r PublicRecord, k MeetingKind, m Meeting, before int) PublicRecord {
		moves, first := c.movesOf(k, m, before)
		if len(moves) > 0 {
			for i := range moves {
				moves[i].Start, moves[i].At = moves[i].Start.In(loc), moves[i].At.In(loc)
			}
			r.Moves, r.Series = moves, notice(k, first).Key()
		}
		return r
	}
	for _, m := range c.Sessions {
		add(history(notice(RecessedHearing, m), RecessedHearing, m, len(c.Withdrawn)))
	}
	for _, k := range MeetingKinds {
		if m := c.Meeting(k); m.Scheduled() {
			add(history(notice(k, m), k, m, len(c.Withdrawn)))
		}
	}
	for i, w := range c.Withdrawn {
		r := notice(w.Kind, w.Meeting)
		r.Withdrawn, r.MovedTo, r.WithdrawnAt = "cancelled", w.MovedTo, w.At.In(loc)
		if !w.MovedTo.IsZero() {
			r.Withdrawn, r.MovedTo = "moved", w.MovedTo.In(loc)
			if next, ok := c.movedTo(i); ok {
				r.MovedPlace = next.Place
			}
		}
		add(history(r, w.Kind, w.Meeting, i))
	}
	if c.dismissedAtC() {
		// (C)(2): the notice of dismissal is made public; of one part, when the ruling
		// dismissed one part of a complaint alleging both sections.
		r := PublicRecord{Rule: "(C)(2)", Record: "dismissal", On: c.RulingDate, Ruling: string(c.Ruling),
			Ground: string(c.Ground), Tally: c.tally(Rule{}.Kind())}
		if c.ReferralRuling != "" {
			switch {
			case c.Ruling == Insufficient || c.Ruling == NoProbableCause:
				if c.ReferralRuling != Insufficient && c.ReferralRuling != NoProbableCause {
					r.Section = c.hearingSection()
				}
			default:
				r.Ruling, r.Section = string(c.ReferralRuling), c.referralSection()
			}
		}
		add(r)
	}
	if d := c.Decision; d != nil {
		add(PublicRecord{Rule: "(E)", Record: "decision", On: d.On, Findings: d.Findings, Recommendation: d.Recommendation,
			Fine:  d.Fine,
			Text:  map[bool]string{true: "complaint dismissed (E)(1)", false: "recommendation and/or fine (E)(2)"}[d.Dismissed],
			Tally: c.tally(Decide{}.Kind())})
	}
	if f := c.Final; f != nil {
		add(PublicRecord{Rule: "(F)", Record: "final_recommendation", On: f.On, Text: f.Text, Fine: f.Fine,
			Tally: c.tally(IssueFinal{}.Kind())})
	}
	return out
}

// movesOf follows the moves that brought meeting m of kind k where it stands back to its
// first notice, among the meetings withdrawn before the before-th: each start and place it
// had, oldest first, with when it moved, and the meeting as first noticed. A move is the
// withdrawn meeting moved to m's start by the rescheduling that scheduled m (ScheduledAt;
// any, in a record from before that was kept).
func (c *Case) movesOf(k MeetingKind, m Meeting, before int) ([]Moved, Meeting) {
	var moves []Moved
	for i := before - 1; i >= 0; i-- {
		if w := c.Withdrawn[i]; w.Kind == k && movedOnto(w, m) {
			moves = append(moves, Moved{Start: w.Meeting.Start, Place: w.Meeting.Place, At: w.At})
			m = w.Meeting
		}
	}
	slices.Reverse(moves)
	return moves, m
}

// movedTo is the meeting the i-th withdrawn meeting was moved to: the next of its kind that
// the move scheduled, withdrawn since or standing.
func (c *Case) movedTo(i int) (Meeting, bool) {
	w := c.Withdrawn[i]
	for _, n := range c.Withdrawn[i+1:] {
		if n.Kind == w.Kind && movedOnto(w, n.Meeting) {
			return n.Meeting, true
		}
	}
	standing := []Meeting{c.Meeting(w.Kind)}
	if w.Kind == RecessedHearing {
		standing = append(standing, c.Sessions...)
	}
	for _, m := range standing {
		if movedOnto(w, m) {
			return m, true
		}
	}
	return Meeting{}, false
}

// movedOnto reports whether withdrawn meeting w was moved to m: m starts where w moved,
// and was scheduled by that move.
func movedOnto(w WithdrawnMeeting, m Meeting) bool {
	return !w.MovedTo.IsZero() && m.Scheduled() && w.MovedTo.Equal(m.Start) &&
		(m.ScheduledAt.IsZero() || m.ScheduledAt.Equal(w.At))
}

// hearingSection and referralSection are the two parts of a complaint alleging both
// sections, as the ruling on each recorded them.
func (c *Case) hearingSection() string {
	for _, s := range c.Sections {
		if s != c.ReferralSection {
			return s
		}
	}
	return ""
}

func (c *Case) referralSection() string { return c.ReferralSection }

// tally is the roll call that adopted the case's action of kind, or "" if none was taken.
func (c *Case) tally(kind string) string {
	for i := len(c.Votes) - 1; i >= 0; i-- {
		if c.Votes[i].Action == kind {
			return c.Votes[i].Vote.Tally()
		}
	}
	return ""
}

// MeetingNotice is a meeting's public notice in one line: kind, date, time, place, and
// whether it is open or closed, with the Open Meetings Act authority for a closed one.
func MeetingNotice(k MeetingKind, m Meeting, loc *time.Location) string {
	return fmt.Sprintf("%s on %s at %s, %s", k.Name(), m.Start.In(loc).Format("Mon 2 Jan 2006 at 15:04 MST"), m.Place,
		Access(m.Closed, m.Authority))
}

// Access says whether a meeting is open, or closed and under which Open Meetings Act
// exception: "open to the public", "closed to the public under 5 ILCS 120/2(c)(4)".
func Access(closed bool, authority string) string {
	if !closed {
		return "open to the public"
	}
	if authority == "" {
		return "closed to the public under the Open Meetings Act"
	}
	return "closed to the public under " + authority
}

// CaseAgenda is the order of business of a meeting about case number, as its public notice
// gives it: the Open Meetings Act (5 ILCS 120/2.02) requires the agenda with the notice.
// Its business stands between the parts of every meeting, as a commission meeting's agenda
// frames its items (Frame).
func CaseAgenda(k MeetingKind, number string) []string {
	opening, closing := Frame(nil)
	return slices.Concat(opening, []string{caseItemWords(k, number)}, closing)
}

// The parts of every meeting, in the words a notice gives them: it is called to order and
// its roll taken before any business, which a quorum must be present to take up (5 ILCS
// 120/2.01); public comment is given its place (5 ILCS 120/2.06(g)); it adjourns.
const (
	openingWords = "Call to order and roll call."
	commentWords = "Public comment."
	closingWords = "Adjournment."
)

// Frame is what every agenda shows around items, in the words of a notice: the call to
// order and roll call before them, public comment and adjournment after them, each only
// where items do not already hold it as an item of its own (an agenda the clerk wrote with
// them keeps them where the clerk put them). They are not numbered: an item's number is
// the one the clerk and the minutes use (item=), and the parts of every meeting are no
// business of it.
func Frame(items []AgendaItem) (opening, closing []string) {
	has := func(kinds ...ItemKind) bool {
		return slices.ContainsFunc(items, func(it AgendaItem) bool { return slices.Contains(kinds, it.Kind) })
	}
	if !has(CallToOrder, RollCallItem) {
		opening = append(opening, openingWords)
	}
	if !has(PublicComment) {
		closing = append(closing, commentWords)
	}
	if !has(Adjournment) {
		closing = append(closing, closingWords)
	}
	return opening, closing
}

// caseItemWords is the business of a meeting's item that takes step k of case number, as
// the agenda words it.
func caseItemWords(k MeetingKind, number string) string {
	return map[MeetingKind]string{
		SufficiencyMeeting: "Review of the sufficiency of complaint " + number + " and, if it is sufficient, determination " +
			"of whether there is probable cause to proceed (rule (C)(1)).",
		HearingMeeting:  "Hearing on complaint " + number + ": testimony and evidence of both parties (rule (D)).",
		RecessedHearing: "Reconvened session of the recessed hearing on complaint " + number + " (rules (D), (E)).",
		PublicHearing: "Public hearing on complaint " + number + ", demanded by the respondent: testimony and evidence " +
			"of both parties (rule (F)).",
		FrivolousMeeting: "Hearing of the complainant on whether " +
			"dismissed complaint " + number + " was knowingly frivolous, before any finding or fine (rule (H)).",
	}[k]
}

// When is the instant r is about, where the public notice board puts it and orders it: a
// meeting at its start, an outcome at the end of its day in loc, after the meeting at which
// it was decided.
func (r PublicRecord) When(loc *time.Location) time.Time {
	if !r.Start.IsZero() {
		return r.Start
	}
	return r.On.AddDays(1).In(loc).Add(-time.Second)
}

// Posting is one record the ordinance makes public, as the public notice board shows it:
// the record, and when it first appeared on the board. The store keeps postings; the
// board reads them.
type Posting struct {
	PublicRecord
	Posted time.Time `json:"posted_on_board"`
}
