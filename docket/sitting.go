package docket

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
)

// A meeting of the commission as a body: the Open Meetings Act (5 ILCS 120)
// governs the meeting as a whole, with one agenda posted 48 hours ahead (2.02), whatever
// cases it takes. A CommissionMeeting is named by its date ("2027-01-12", a second one
// that day "2027-01-12b") and holds items: the case steps held at it (the sufficiency
// review (C)(1), a hearing (D), a recessed session (E), a public hearing (F), an (H)
// hearing), and the commission's other business (approval of minutes, public comment,
// free text).
//
// The case steps are not copied into the meeting: each case keeps its own meeting (Facts),
// from which the ordinance's deadlines are counted, and a case step is an item of the
// commission meeting whose start and place it has (Fold). The meeting's own record holds
// what belongs to the meeting alone: its start, place and kind, its other business, which
// items are closed, the postings of its notice, a cancellation.

// BusinessKinds lists the kinds of item that are not case steps, as a clerk adds them.
var BusinessKinds = []ItemKind{BusinessItem, MinutesItem, PublicComment}

// MeetingItem is one item of a meeting's agenda.
type MeetingItem struct {
	Kind ItemKind `json:"kind"`
	Text string   `json:"text,omitempty"` // the item in words; for minutes, whose (e.g. "2026-12-08")
	// Case and Step name a case step (Kind CaseItem); they are filled by Fold, never stored.
	Case      string      `json:"case,omitempty"`
	Step      MeetingKind `json:"step,omitempty"`
	Closed    bool        `json:"closed,omitempty"`    // closed to the public (5 ILCS 120/2(c))
	Authority string      `json:"authority,omitempty"` // the exception that allows closing it
	Added     time.Time   `json:"added,omitzero"`
	// NoticePosted is, for a case step, when the case records its notice posted; filled
	// by Fold.
	NoticePosted time.Time `json:"-"`
}

// AgendaItem is the item as the agenda and the minutes draw it (meeting_record.go).
func (i MeetingItem) AgendaItem() AgendaItem {
	it := AgendaItem{Kind: i.Kind, Case: i.Case, Step: i.Step, Text: i.Text, Closed: i.Closed, Exception: i.Authority}
	if i.Kind == MinutesItem {
		it.Minutes, it.Text = MeetingName(i.Text), ""
	}
	return it
}

// Title says the item as the agenda prints it (AgendaItem.Words). A case step names the
// case by its number and the step, never a party: the complaint is confidential until the
// ordinance makes it public (I).
func (i MeetingItem) Title() string {
	return i.AgendaItem().Title()
}

// AgendaPosting is one posting of a meeting's notice and agenda.
type AgendaPosting struct {
	At      time.Time `json:"at"`
	Amended bool      `json:"amended,omitempty"` // a re-posting after the agenda changed
	// Agenda is the agenda as this posting gave it (Doc), kept so that the public notice
	// board shows what was posted, and not what the clerk has drafted since (5 ILCS
	// 120/2.02); nil in a record from before it was kept, and for a meeting folded from
	// its cases.
	Agenda *Agenda `json:"agenda,omitempty"`
}

// CommissionMeeting is a meeting of the commission. Its stored part is built by its
// events (MeetingAction); Fold adds the case steps it holds.
type CommissionMeeting struct {
	Name    string    `json:"name"` // "2027-01-12", "2027-01-12b"
	Start   time.Time `json:"start"`
	Place   string    `json:"place"`
	Special bool      `json:"special,omitempty"` // a special meeting (5 ILCS 120/2.02(a)), not a regular one
	Created time.Time `json:"created,omitzero"`
	// Items are the other business, in the order added; case steps are added by Fold.
	Items []MeetingItem `json:"items,omitempty"`
	// Postings are the postings of the notice, in order; Changed is when the agenda last
	// changed after a posting, and Stale says the notice as posted no longer shows it: it
	// must be posted again, marked amended.
	Postings []AgendaPosting `json:"postings,omitempty"`
	Changed  time.Time       `json:"changed,omitzero"`
	Stale    bool            `json:"stale,omitempty"`
	// Cancelled is when the meeting was cancelled, and why; Moved the starts and places it
	// had before each move.
	Cancelled time.Time `json:"cancelled,omitzero"`
	Reason    string    `json:"reason,omitempty"`
	Moved     []Moved   `json:"moved,omitempty"`
	// Corrections are the corrections of its own record once it was held (CorrectMeeting).
	Corrections []MeetingCorrection `json:"corrections,omitempty"`
	// Minutes is the record of the meeting as it happens (session.go): the roll, arrivals
	// and departures, closed sessions and adjournment, from which its minutes are drafted.
	Minutes MinutesRecord `json:"minutes,omitzero"`
	// ClosedFor are the agenda numbers of the items each closed session was entered for, in
	// the order of Minutes.Sessions.
	ClosedFor []int `json:"closed_for,omitempty"`
	// ItemNotes are the clerk's narrative on the items, by number (minutes.go); Approvals
	// the roll calls on approving the minutes, at later meetings; Published when the
	// approved open minutes were made public, as PublishedText; ReviewedClosed says the
	// commission reviewed the minutes of its closed meetings at this meeting (2.06(d)).
	ItemNotes      []ItemNote        `json:"item_notes,omitempty"`
	Movers         []MotionMover     `json:"movers,omitempty"`   // who moved and seconded the motions
	Business       []MoveBusiness    `json:"business,omitempty"` // the motions on other business (business_motion.go)
	Approvals      []MinutesApproval `json:"approvals,omitempty"`
	Published      time.Time         `json:"published,omitzero"`
	PublishedText  string            `json:"published_text,omitempty"`
	ReviewedClosed bool              `json:"reviewed_closed,omitempty"`
	// Review is the review of the closed minutes made at this meeting, with its
	// determination (review.go); zero on a review recorded before determinations were kept.
	Review ClosedReview `json:"review,omitzero"`
	// Adopted are the schedules of regular meetings the commission adopted at this meeting
	// (2.03, regular.go).
	Adopted []AdoptedSchedule `json:"adopted,omitempty"`

	// Folded is set by Fold on a meeting that has no record of its own yet: the case steps
	// of several cases at one start and place, scheduled before meetings were kept.
	Folded bool `json:"-"`
	// Collides names, as Fold finds them, the other meetings recorded, not cancelled, at
	// the same start and place: their case steps cannot be told apart (CheckCollisions).
	Collides []string `json:"-"`
	// Regular is set by WithRegular on a regular meeting of the year's schedule (2.03)
	// that nothing is recorded of yet (Folded too, with no items).
	Regular bool `json:"-"`
	// Cases are the case steps held at the meeting, filled by Fold, in case order.
	Cases []MeetingItem `json:"-"`
}

// Moved is where and when a meeting was before it moved.
type Moved struct {
	Start time.Time `json:"start"`
	Place string    `json:"place"`
	At    time.Time `json:"at"`
	// Postings is how many postings of the notice the meeting had when it moved: those
	// gave its old time and place (NoticedInTime). Zero on a move recorded before it was
	// kept, when At alone tells them apart.
	Postings int `json:"postings,omitempty"`
}

// Agenda returns every item of the meeting: the case steps, then the other business.
func (m *CommissionMeeting) Agenda() []MeetingItem {
	return append(slices.Clone(m.Cases), m.Items...)
}

// Posted is when the notice as it now stands was posted: the last posting, if none came
// before the agenda last changed; zero if it is not posted.
func (m *CommissionMeeting) Posted() time.Time {
	if n := len(m.Postings); n > 0 && !m.Stale {
		return m.Postings[n-1].At
	}
	return time.Time{}
}

// NoticedInTime reports whether the meeting's notice and agenda were first posted at least
// 48 hours before it (5 ILCS 120/2.02(a)), as a meeting must be to be called to order. A
// meeting moved is a rescheduled meeting, noticed as a special one is: only a posting made
// after its last move, for its new time and place, counts.
func (m *CommissionMeeting) NoticedInTime() bool {
	var since Moved
	if n := len(m.Moved); n > 0 {
		since = m.Moved[n-1]
	}
	for i, p := range m.Postings {
		if i >= since.Postings && !p.At.Before(since.At) {
			return !p.At.After(AgendaCutoff(m.Start))
		}
	}
	return false
}

// Amended reports whether the agenda changed after the notice was first posted.
func (m *CommissionMeeting) Amended() bool {
	return len(m.Postings) > 0 && (m.Stale || m.Postings[len(m.Postings)-1].Amended)
}

// AgendaDue is the last moment the agenda may be posted, or changed: 48 hours before the
// meeting (5 ILCS 120/2.02(a), AgendaCutoff).
func (m *CommissionMeeting) AgendaDue() time.Time { return AgendaCutoff(m.Start) }

// OrderOfBusiness is the meeting's agenda as its public notice, its agenda PDF (Doc) and
// the board list it: each item in words (AgendaItem.Words; a closed one with its
// exception), in the same order and numbering, and nothing the posted agenda lacks (5 ILCS
// 120/2.02(c): the agenda sets forth what the meeting takes up). A recorded meeting's
// other business is listed only once its agenda is posted: until then the public knows
// only the case steps, from their own notices.
func (m *CommissionMeeting) OrderOfBusiness() []string {
	var out []string
	for _, it := range m.Agenda() {
		if it.Kind != CaseItem && !m.Folded && len(m.Postings) == 0 {
			continue
		}
		out = append(out, it.Title()+".")
	}
	return out
}

// Doc is the meeting's agenda as a notice posts it and letters draw it (meeting_record.go).
func (m *CommissionMeeting) Doc() Agenda {
	a := Agenda{Meeting: MeetingName(m.Name), Start: m.Start, Place: m.Place, Special: m.Special, Amended: m.Amended(),
		Posted: m.Posted()}
	for _, it := range m.Agenda() {
		a.Items = append(a.Items, it.AgendaItem())
	}
	return a
}

// CheckAgendaOpen refuses a case step's joining meeting m at instant at once the 48 hours
// before it have begun (5 ILCS 120/2.02, CheckAgendaChange).
func (e *Engine) CheckAgendaOpen(m *CommissionMeeting, at time.Time) error {
	return CheckAgendaChange(m.Start, at, e.Cal.Location(), "adding an item", AdviseLaterMeeting)
}

// MeetingAction is an event of a meeting's own record.
type MeetingAction interface {
	// Kind names the action in the record, e.g. "meeting".
	Kind() string
	applyMeeting(e *Engine, m *CommissionMeeting, at time.Time) error
}

// ApplyMeeting performs a on m at instant at and returns the new meeting; on error m is
// unchanged and the error is an *Error that names the rule.
func (e *Engine) ApplyMeeting(m CommissionMeeting, a MeetingAction, at time.Time) (CommissionMeeting, error) {
	if a == nil {
		return m, Invalid("", "action", "missing")
	}
	if at.IsZero() {
		return m, Invalid("", "at", "an action needs the time it is taken")
	}
	if _, create := a.(CreateMeeting); !create && m.Name == "" {
		return m, NotFound("", "meeting", "there is no such meeting; create it with /ethics meeting")
	}
	if _, create := a.(CreateMeeting); create && m.Name != "" {
		return m, Conflict("", "meeting", "meeting "+m.Name+" already exists")
	}
	next := m
	next.Items = slices.Clone(m.Items)
	next.Postings = slices.Clone(m.Postings)
	next.Moved = slices.Clone(m.Moved)
	next.Cases = slices.Clone(m.Cases)
	next.Minutes = m.Minutes.clone()
	next.ClosedFor = slices.Clone(m.ClosedFor)
	next.cloneMinutesParts()
	if err := a.applyMeeting(e, &next, at); err != nil {
		return m, err
	}
	return next, nil
}

// CreateMeeting creates a meeting of the commission. Name is given by the store, from the
// date and the meetings already that day (NameMeeting).
type CreateMeeting struct {
	Name    string    `json:"name"`
	Start   time.Time `json:"start"`
	Place   string    `json:"place"`
	Special bool      `json:"special,omitempty"`
	// Posted is, for a meeting folded from its cases (Fold) and now recorded, when its
	// notice was posted as the cases record it; zero otherwise.
	Posted time.Time `json:"posted,omitzero"`
	// Since is, for a meeting folded from its cases, when its first case step was
	// scheduled: its agenda dates from then, not from when it is recorded (LastChange).
	Since time.Time `json:"since,omitzero"`
	// Regular says the start is a regular meeting's of the adopted schedule (5 ILCS
	// 120/2.03, RegularSchedule.Holds), as the command found it: only then may it be on a
	// legal holiday (CheckHoliday). A special meeting is never regular.
	Regular bool `json:"regular,omitempty"`
}

// Kind implements MeetingAction.
func (CreateMeeting) Kind() string { return "meeting" }

func (a CreateMeeting) applyMeeting(e *Engine, m *CommissionMeeting, at time.Time) error {
	if a.Name == "" {
		return Invalid("", "meeting", "a meeting needs its name")
	}
	if a.Start.IsZero() {
		return Invalid(OMANotice, "start", "give when the meeting starts, e.g. 2027-01-12T17:00")
	}
	if _, err := ParseMeetingName(a.Name); err != nil {
		return err
	}
	if err := CheckLine("place", OMANotice, a.Place, true, MaxName); err != nil {
		return err
	}
	if !a.Start.After(at) {
		return Invalid(OMANotice, "start",
			fmt.Sprintf("the meeting would start at %s, which has passed", e.shortTime(a.Start)))
	}
	if a.Posted.IsZero() && a.Since.IsZero() {
		// A new meeting, not one folded from its cases and recorded now.
		if err := CheckNewMeeting(a.Start, at, e.Cal.Location()); err != nil {
			return err
		}
		if err := e.CheckHoliday(a.Start, a.Regular && !a.Special); err != nil {
			return err
		}
	}
	created := at
	if !a.Since.IsZero() && a.Since.Before(at) {
		created = a.Since
	}
	*m = CommissionMeeting{Name: a.Name, Start: a.Start.In(e.Cal.Location()), Place: a.Place, Special: a.Special,
		Created: created.In(e.Cal.Location())}
	if !a.Posted.IsZero() {
		m.Postings = []AgendaPosting{{At: a.Posted.In(e.Cal.Location())}}
	}
	return nil
}

// AddItem puts an item of other business on a meeting's agenda (not a case step: those
// join by being scheduled at the meeting). Closed with Authority, the item is taken in
// closed session under that exception of 5 ILCS 120/2(c).
type AddItem struct {
	Item      ItemKind `json:"item"`
	Text      string   `json:"text,omitempty"`
	Authority string   `json:"authority,omitempty"` // "": open
}

// Kind implements MeetingAction.
func (AddItem) Kind() string { return "agenda_item" }

func (a AddItem) applyMeeting(e *Engine, m *CommissionMeeting, at time.Time) error {
	if !slices.Contains(BusinessKinds, a.Item) {
		return Invalid(OMANotice, "item",
			fmt.Sprintf("unknown item %q: use %s; a case step joins by /ethics schedule <case> <step> meeting=%s", a.Item,
				join(BusinessKinds, ", "), m.Name))
	}
	if err := CheckLine("text", OMANotice, a.Text, a.Item == BusinessItem, MaxName); err != nil {
		return err
	}
	if a.Item == MinutesItem {
		if _, err := ParseMeetingName(a.Text); err != nil {
			return Invalid(OMAMinutes, "text", "name the meeting whose minutes are approved, e.g. 2026-12-08")
		}
	}
	authority := ""
	if a.Authority != "" {
		var err error
		if authority, err = ParseException(a.Authority); err != nil {
			return err
		}
	}
	if err := checkOpen(e, m, at); err != nil {
		return err
	}
	if err := CheckAgendaChange(m.Start, at, e.Cal.Location(), "adding an item", AdviseLaterMeeting); err != nil {
		return err
	}
	m.Items = append(m.Items,
		MeetingItem{Kind: a.Item, Text: a.Text, Closed: authority != "", Authority: authority,
			Added: at.In(e.Cal.Location())})
	m.changed(at)
	return nil
}

// CloseItem closes an item of other business to the public under an exception of
// 5 ILCS 120/2(c). Item counts the meeting's other business from 1, as /ethics agenda
// lists it after the case steps.
type CloseItem struct {
	Item      int    `json:"item"`
	Authority string `json:"authority"`
}

// Kind implements MeetingAction.
func (CloseItem) Kind() string { return "close_item" }

func (a CloseItem) applyMeeting(e *Engine, m *CommissionMeeting, at time.Time) error {
	if a.Item < 1 || a.Item > len(m.Items) {
		return NotFound("", "item",
			fmt.Sprintf("meeting %s has no item %d of other business; it has %d", m.Name, a.Item, len(m.Items)))
	}
	authority, err := ParseException(a.Authority)
	if err != nil {
		return err
	}
	if err := checkOpen(e, m, at); err != nil {
		return err
	}
	it := &m.Items[a.Item-1]
	if it.Closed {
		return Conflict(OMAClose, "item", fmt.Sprintf("the item is already closed under %s", it.Authority))
	}
	if err := CheckAgendaChange(m.Start, at, e.Cal.Location(), "closing an open item to the public",
		AdviseLaterMeeting); err != nil {
		return err
	}
	it.Closed, it.Authority = true, authority
	m.changed(at)
	return nil
}

// AgendaChanged records that a case step joined or left the meeting after its notice was
// posted: the notice must be posted again, marked amended. The store records it with the
// case's own event.
type AgendaChanged struct {
	What string `json:"what"`
}

// Kind implements MeetingAction.
func (AgendaChanged) Kind() string { return "agenda_changed" }

func (a AgendaChanged) applyMeeting(e *Engine, m *CommissionMeeting, at time.Time) error {
	m.changed(at)
	return nil
}

// changed marks the agenda changed after a posting.
func (m *CommissionMeeting) changed(at time.Time) {
	if len(m.Postings) > 0 {
		m.Changed, m.Stale = at, true
	}
}

// PostAgenda records that the meeting's notice and agenda was physically posted at the
// meeting place and the principal office (5 ILCS 120/2.02(a)), once for all its items.
type PostAgenda struct {
	Posted time.Time `json:"posted,omitzero"` // zero: when the action is taken
}

// Kind implements MeetingAction.
func (PostAgenda) Kind() string { return "agenda_posted" }

func (a PostAgenda) applyMeeting(e *Engine, m *CommissionMeeting, at time.Time) error {
	if err := checkOpen(e, m, at); err != nil {
		return err
	}
	posted := a.Posted
	if posted.IsZero() {
		posted = at
	}
	if posted.After(at) {
		return Invalid(OMANotice, "at", "a posting cannot be recorded before it happens")
	}
	if !m.Posted().IsZero() {
		return Conflict(OMANotice, "",
			fmt.Sprintf("the agenda of meeting %s as it stands was already posted at %s", m.Name, e.shortTime(m.Posted())))
	}
	if len(m.Agenda()) == 0 {
		// 5 ILCS 120/2.02(a) has the notice give the meeting's agenda, and 2.02(c) has it set
		// forth the general subject matter of any final action: a notice with no item would
		// tell the public nothing may be taken up. Refused rather than posted as "none yet",
		// since a posting is what starts the 48 hours and an item added later restarts them.
		return Conflict(OMANotice, "agenda", fmt.Sprintf("meeting %s has no items on its agenda, so there is no agenda "+
			"to post: add its items first (/ethics schedule <case> <step> meeting=%s, /ethics agenda %s add \"...\")",
			m.Name, m.Name, m.Name))
	}
	if err := e.CheckPostedAfterChange(m, posted); err != nil {
		return err
	}
	m.Postings = append(m.Postings, AgendaPosting{At: posted.In(e.Cal.Location()), Amended: len(m.Postings) > 0})
	m.Stale = false
	doc := m.Doc()
	m.Postings[len(m.Postings)-1].Agenda = &doc
	return nil
}

// LastChange is when the agenda of meeting m last changed, and what changed: its creation,
// an item added (a case step when it was scheduled there), a move, or a change after a
// posting (Changed). A notice posted before it cannot show the agenda as it stands.
func (m *CommissionMeeting) LastChange() (time.Time, string) {
	last, what := m.Created, "the meeting was created"
	later := func(t time.Time, w string) {
		if t.After(last) {
			last, what = t, w
		}
	}
	for i, it := range m.Agenda() {
		later(it.Added, fmt.Sprintf("item %d was added", i+1))
	}
	for _, mv := range m.Moved {
		later(mv.At, "the meeting was moved")
	}
	later(m.Changed, "the agenda changed")
	return last, what
}

// CheckPostedAfterChange refuses to record the notice of meeting m as posted at posted,
// before its agenda last changed (LastChange): the notice posted then did not set forth the
// agenda as it stands, so it cannot be the one 5 ILCS 120/2.02(a) requires 48 hours ahead.
// The error names the earliest time that may be given.
func (e *Engine) CheckPostedAfterChange(m *CommissionMeeting, posted time.Time) error {
	last, what := m.LastChange()
	if !last.IsZero() && posted.Before(last) {
		return Invalid(OMANotice, "at",
			fmt.Sprintf("the agenda of meeting %s was not as it stands at %s: %s at %s, and a notice posted before cannot set "+
				"forth it; give at= no earlier than %s, when it was posted", m.Name, e.shortTime(posted), what, e.shortTime(last),
				e.shortTime(last)))
	}
	return nil
}

// CancelCommissionMeeting cancels a meeting that has not begun, with all its items; the
// store cancels each case step with it, in the same transaction.
type CancelCommissionMeeting struct {
	Reason string `json:"reason,omitempty"`
}

// Kind implements MeetingAction.
func (CancelCommissionMeeting) Kind() string { return "meeting_cancelled" }

func (a CancelCommissionMeeting) applyMeeting(e *Engine, m *CommissionMeeting, at time.Time) error {
	if err := CheckLine("reason", "", a.Reason, false, MaxName); err != nil {
		return err
	}
	if err := e.CheckChangeable(m, "cancelled", at); err != nil {
		return err
	}
	m.Cancelled, m.Reason = at.In(e.Cal.Location()), a.Reason
	return nil
}

// MoveMeeting moves a meeting that has not begun to another start or place, with all its
// items; the store reschedules each case step with it, in the same transaction. The
// notice must be posted again, 48 hours before the new start.
type MoveMeeting struct {
	Start time.Time `json:"start"`
	Place string    `json:"place"`
	// Regular says the new start is a regular meeting's of the schedule (CreateMeeting.Regular):
	// a meeting moved onto a legal holiday is refused otherwise.
	Regular bool `json:"regular,omitempty"`
}

// Kind implements MeetingAction.
func (MoveMeeting) Kind() string { return "meeting_moved" }

func (a MoveMeeting) applyMeeting(e *Engine, m *CommissionMeeting, at time.Time) error {
	if err := CheckLine("place", OMANotice, a.Place, true, MaxName); err != nil {
		return err
	}
	if err := e.CheckChangeable(m, "moved", at); err != nil {
		return err
	}
	if a.Start.Equal(m.Start) && a.Place == m.Place {
		return Conflict("", "", "meeting "+m.Name+" is already then and there")
	}
	if err := CheckAgendaChange(a.Start, at, e.Cal.Location(), "moving the meeting there", AdviseLaterStart); err != nil {
		return err
	}
	if !a.Start.Equal(m.Start) {
		if err := e.CheckHoliday(a.Start, a.Regular && !m.Special); err != nil {
			return err
		}
	}
	m.Moved = append(m.Moved, Moved{Start: m.Start, Place: m.Place, At: at, Postings: len(m.Postings)})
	m.Start, m.Place = a.Start.In(e.Cal.Location()), a.Place
	m.changed(at)
	return nil
}

// checkOpen refuses a change to a meeting cancelled or begun.
func checkOpen(e *Engine, m *CommissionMeeting, at time.Time) error {
	if !m.Cancelled.IsZero() {
		return Conflict("", "meeting", fmt.Sprintf("meeting %s was cancelled on %s", m.Name, e.shortTime(m.Cancelled)))
	}
	if !at.Before(m.Start) {
		return Conflict("", "meeting", fmt.Sprintf("meeting %s began at %s", m.Name, e.shortTime(m.Start)))
	}
	return nil
}

// meetingDecoders decode each MeetingAction kind from the record.
var meetingDecoders = map[string]func([]byte) (MeetingAction, error){
	CreateMeeting{}.Kind():           decodeMeeting[CreateMeeting],
	AddItem{}.Kind():                 decodeMeeting[AddItem],
	CloseItem{}.Kind():               decodeMeeting[CloseItem],
	AgendaChanged{}.Kind():           decodeMeeting[AgendaChanged],
	PostAgenda{}.Kind():              decodeMeeting[PostAgenda],
	CancelCommissionMeeting{}.Kind(): decodeMeeting[CancelCommissionMeeting],
	MoveMeeting{}.Kind():             decodeMeeting[MoveMeeting],
	AdoptSchedule{}.Kind():           decodeMeeting[AdoptSchedule],
	CorrectMeeting{}.Kind():          decodeMeeting[CorrectMeeting],
	Convene{}.Kind():                 decodeMeeting[Convene],
	MemberMoves{}.Kind():             decodeMeeting[MemberMoves],
	EnterClosed{}.Kind():             decodeMeeting[EnterClosed],
	ReturnToOpen{}.Kind():            decodeMeeting[ReturnToOpen],
	Adjourn{}.Kind():                 decodeMeeting[Adjourn],
	MinutesNote{}.Kind():             decodeMeeting[MinutesNote],
	MotionMover{}.Kind():             decodeMeeting[MotionMover],
	MoveBusiness{}.Kind():            decodeMeeting[MoveBusiness],
	ApproveMinutes{}.Kind():          decodeMeeting[ApproveMinutes],
	PublishMinutes{}.Kind():          decodeMeeting[PublishMinutes],
	DestroyRecording{}.Kind():        decodeMeeting[DestroyRecording],
	ReviewClosedMinutes{}.Kind():     decodeMeeting[ReviewClosedMinutes],
}

func decodeMeeting[T MeetingAction](payload []byte) (MeetingAction, error) {
	var a T
	err := json.Unmarshal(payload, &a)
	return a, err
}

// DecodeMeetingAction reads a meeting event's action from its kind and JSON payload.
func DecodeMeetingAction(kind string, payload []byte) (MeetingAction, error) {
	decode, ok := meetingDecoders[kind]
	if !ok {
		return nil, Invalid("", "kind", fmt.Sprintf("unknown meeting action %q", kind))
	}
	a, err := decode(payload)
	if err != nil {
		return nil, Invalid("", "payload", fmt.Sprintf("cannot read a %s action: %v", kind, err))
	}
	return a, nil
}

// NameMeeting names a meeting starting at start: its date in the commission's time zone,
// "2027-01-12", and for a second meeting that day "2027-01-12b", then "c", and so on.
// taken are the names in use.
func (e *Engine) NameMeeting(start time.Time, taken []string) string {
	day := start.In(e.Cal.Location()).Format("2006-01-02")
	// The names of that day already taken, once: looking each candidate up in the whole
	// list made folding n meetings of one day cost n³ (1 s at 1,000; BENCHMARKS.md).
	same := map[string]bool{}
	for _, t := range taken {
		if strings.HasPrefix(t, day) {
			same[t] = true
		}
	}
	return freeName(day, same)
}

// freeName is the first of day, day+"b", day+"c", ... that taken does not hold.
func freeName(day string, taken map[string]bool) string {
	name, _ := nextFreeName(day, 0, taken)
	return name
}

// nextFreeName is freeName beginning at the suffix from (0 for day alone), which the caller
// knows to be the first that may be free; it returns the suffix of the name found too.
func nextFreeName(day string, from rune, taken map[string]bool) (string, rune) {
	named := func(c rune) string {
		if c == 0 {
			return day
		}
		return day + string(c)
	}
	c := from
	for taken[named(c)] {
		if c == 0 {
			c = 'b'
		} else {
			c++
		}
	}
	return named(c), c
}

// Fold builds the commission's meetings from the meetings' own records (stored) and the
// cases: each case step scheduled (its start and place) is an item of the meeting at that
// start and place that is not cancelled. Case steps at a start and place that no record
// holds (scheduled before meetings were kept) are folded into a meeting
// named by its date after the recorded ones, marked Folded; steps of several cases at one
// start and place make one meeting. Reading never writes: the store records a folded
// meeting only when something is done to it. The result is in order of start.
func (e *Engine) Fold(stored []CommissionMeeting, cases []*Case) []CommissionMeeting {
	f := e.NewFolding(stored)
	sorted := slices.Clone(cases)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Number < sorted[j].Number })
	for _, c := range sorted {
		f.Add(c)
	}
	return f.Meetings()
}

// Folding is Fold taken one case at a time, so that a caller reading the cases from a
// record need not hold them all: it keeps only the scheduled steps it has seen, never the
// cases.
type Folding struct {
	e   *Engine
	out []CommissionMeeting
	at  map[foldKey]int
	// taken are the names in use, as a set: NameMeeting's scan of a list per folded meeting
	// made folding n meetings cost n² (660 MB allocated at 10,000 cases; BENCHMARKS.md).
	taken map[string]bool
	// next is, for each day a meeting was named on, the suffix of the last name given: the
	// names only fill up, so the next search starts there, not at the day's first name
	// again (a day of n folded meetings would make n² names to try).
	next  map[string]rune
	loose []looseStep
}

// foldKey is where a meeting is: its start and its place.
type foldKey struct {
	start int64
	place string
}

// looseStep is a case step scheduled at a start and place that no recorded meeting holds.
type looseStep struct {
	item  MeetingItem
	start time.Time
	place string
	added time.Time
}

// NewFolding begins a Fold of the meetings' own records, stored.
func (e *Engine) NewFolding(stored []CommissionMeeting) *Folding {
	f := &Folding{e: e, out: make([]CommissionMeeting, 0, len(stored)), at: map[foldKey]int{},
		taken: make(map[string]bool, len(stored)), next: map[string]rune{}}
	for _, m := range stored {
		m.Cases = nil
		m.Folded = false
		m.Collides = nil
		f.out = append(f.out, m)
		f.taken[m.Name] = true
		if !m.Cancelled.IsZero() {
			continue
		}
		k := foldKey{m.Start.UnixNano(), m.Place}
		if j, dup := f.at[k]; dup {
			// Two meetings at one start and place (a record from before moves were
			// checked): the case steps there stay with the first, and both are marked so
			// that verify and any change to them name the collision (CheckCollisions).
			f.out[j].Collides = append(f.out[j].Collides, m.Name)
			f.out[len(f.out)-1].Collides = append(f.out[len(f.out)-1].Collides, f.out[j].Name)
			continue
		}
		f.at[k] = len(f.out) - 1
	}
	return f
}

// Add folds the steps case c has scheduled. Cases are added in order of their numbers; c
// is not kept.
func (f *Folding) Add(c *Case) {
	for _, st := range ScheduledSteps(c) {
		f.AddStep(st)
	}
}

// ScheduledStep is a case step scheduled at a meeting: its item on that meeting's agenda,
// and the meeting's start and place.
type ScheduledStep struct {
	Item  MeetingItem
	Start time.Time
	Place string
}

// ScheduledSteps are the steps c has scheduled, in the order of MeetingKinds: what Add
// folds of c, and what the store keeps of each case so that the meetings are folded
// without decoding every case.
func ScheduledSteps(c *Case) []ScheduledStep {
	var out []ScheduledStep
	for _, k := range MeetingKinds {
		if m := c.Meeting(k); m.Scheduled() {
			out = append(out, ScheduledStep{Item: caseItem(c, k, m), Start: m.Start, Place: m.Place})
		}
	}
	return out
}

// AddStep folds one case step, as Add does: the steps of the cases in order of their
// numbers, each case's in the order of ScheduledSteps.
func (f *Folding) AddStep(st ScheduledStep) {
	if i, ok := f.at[foldKey{st.Start.UnixNano(), st.Place}]; ok {
		f.out[i].Cases = append(f.out[i].Cases, st.Item)
		return
	}
	f.loose = append(f.loose, looseStep{item: st.Item, start: st.Start, place: st.Place, added: st.Item.Added})
}

// Meetings ends the Fold: the meetings in order of start.
func (f *Folding) Meetings() []CommissionMeeting {
	// Room for a meeting per loose step at most: a meeting is a large struct, and growing
	// the slice one folded meeting at a time copied all of them again and again.
	e, out := f.e, slices.Grow(f.out, len(f.loose))
	sort.SliceStable(f.loose, func(i, j int) bool { return f.loose[i].start.Before(f.loose[j].start) })
	for _, s := range f.loose {
		k := foldKey{s.start.UnixNano(), s.place}
		i, ok := f.at[k]
		if !ok {
			day := s.start.In(e.Cal.Location()).Format("2006-01-02")
			name, c := nextFreeName(day, f.next[day], f.taken)
			f.taken[name], f.next[day] = true, c
			fm := CommissionMeeting{Name: name, Start: s.start.In(e.Cal.Location()), Place: s.place,
				Created: s.added, Folded: true}
			out = append(out, fm)
			i = len(out) - 1
			f.at[k] = i
		}
		out[i].Cases = append(out[i].Cases, s.item)
	}
	// A folded meeting's notice is its items' own notices: it was posted, as one agenda,
	// only once every item's was, at the latest of them (5 ILCS 120/2.02: the public had
	// the whole agenda 48 hours ahead only if each item's notice was posted by then).
	for i := range out {
		if out[i].Folded {
			out[i].Postings = foldedPosting(out[i].Cases)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Start.Equal(out[j].Start) {
			return out[i].Start.Before(out[j].Start)
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// foldedPosting is the posting of a meeting folded from the case steps items: none if any
// item's notice is not posted, else one at the latest item's posting.
func foldedPosting(items []MeetingItem) []AgendaPosting {
	var last time.Time
	for _, it := range items {
		if it.NoticePosted.IsZero() {
			return nil
		}
		if it.NoticePosted.After(last) {
			last = it.NoticePosted
		}
	}
	if last.IsZero() {
		return nil
	}
	return []AgendaPosting{{At: last}}
}

func caseItem(c *Case, k MeetingKind, m Meeting) MeetingItem {
	return MeetingItem{Kind: CaseItem, Case: c.Number, Step: k, Closed: m.Closed, Authority: m.Authority,
		Added: m.ScheduledAt, NoticePosted: m.NoticePosted}
}

// FindMeeting returns the meeting named name among ms (as Fold gives them); the name is
// matched without regard to case.
func FindMeeting(ms []CommissionMeeting, name string) (*CommissionMeeting, error) {
	for i := range ms {
		if strings.EqualFold(ms[i].Name, strings.TrimSpace(name)) {
			return &ms[i], nil
		}
	}
	return nil, NotFound("", "meeting",
		fmt.Sprintf("there is no meeting %q; meetings are named by their date, e.g. 2027-01-12 (see /ethics meetings)", name))
}

// CheckCollisions refuses meetings ms (as Fold gives them) of which two, not cancelled,
// have one start and place: the case steps scheduled there could belong to either, and
// the public notice of each would announce the other's business (5 ILCS 120/2.02). With
// name, only a collision of that meeting is refused; with "", any.
func (e *Engine) CheckCollisions(ms []CommissionMeeting, name string) error {
	for i := range ms {
		m := &ms[i]
		if len(m.Collides) == 0 || (name != "" && !strings.EqualFold(m.Name, name)) {
			continue
		}
		return Conflict(OMANotice, "start",
			fmt.Sprintf("meetings %s and %s are both at %s, %s: the case steps scheduled then and there cannot be told apart; "+
				"move or cancel one of them", m.Name, strings.Join(m.Collides, " and "), e.shortTime(m.Start), m.Place))
	}
	return nil
}

// MeetingAt returns the meeting not cancelled at start and place among ms, if any.
func MeetingAt(ms []CommissionMeeting, start time.Time, place string) *CommissionMeeting {
	for i := range ms {
		if ms[i].Cancelled.IsZero() && ms[i].Start.Equal(start) && ms[i].Place == place {
			return &ms[i]
		}
	}
	return nil
}

// IndexMeetings returns MeetingAt over ms as a lookup by a map built once, for a caller
// that looks up many notices among one list of meetings (the board, at every change): the
// first meeting not cancelled at a start and place, as MeetingAt finds it.
func IndexMeetings(ms []CommissionMeeting) func(start time.Time, place string) *CommissionMeeting {
	type key struct {
		at    int64
		place string
	}
	index := make(map[key]*CommissionMeeting, len(ms))
	for i := range ms {
		k := key{ms[i].Start.UnixNano(), ms[i].Place}
		if _, ok := index[k]; !ok && ms[i].Cancelled.IsZero() {
			index[k] = &ms[i]
		}
	}
	return func(start time.Time, place string) *CommissionMeeting { return index[key{start.UnixNano(), place}] }
}

// HoldsItem returns the meeting among ms whose agenda holds case number's step k.
func HoldsItem(ms []CommissionMeeting, number string, k MeetingKind) *CommissionMeeting {
	for i := range ms {
		for _, it := range ms[i].Cases {
			if it.Case == number && it.Step == k {
				return &ms[i]
			}
		}
	}
	return nil
}

// CaseActions are actions on one case, recorded with a change of a meeting.
type CaseActions struct {
	Number  string
	Actions []Action
}

// MeetingChange is what one request does to a meeting of the commission and its cases,
// recorded in one transaction: all of it, or none.
type MeetingChange struct {
	// Meeting is the meeting acted on; "" when Create names it.
	Meeting string
	// Create creates the meeting first; its Name, if "", is chosen from its date and the
	// meetings that day (Engine.NameMeeting).
	Create *CreateMeeting
	// Cases are the case actions, recorded first, in order: a case step joining the
	// meeting, its notice posted with the meeting's, moved or cancelled with it.
	Cases []CaseActions
	// Actions are the meeting's own actions, recorded after the cases'.
	Actions []MeetingAction
	// Left is a recorded meeting a case step leaves for this one (rescheduled), if any: its
	// agenda changes too (AgendaChanged), so a posted notice is to be posted again.
	Left string
}

// MeetingResult is what a MeetingChange did.
type MeetingResult struct {
	Meeting  CommissionMeeting // as it stands after, folded with its case steps
	Cases    []Result          // each case's, in the order of MeetingChange.Cases
	Replayed bool              // the request had been recorded before: nothing new was
}

// clone returns a copy of r that shares no slice with it, so a refused action leaves the
// meeting as it was.
func (r MinutesRecord) clone() MinutesRecord {
	r.Seated, r.Present, r.Absent, r.Remote = slices.Clone(r.Seated), slices.Clone(r.Present), slices.Clone(r.Absent),
		slices.Clone(r.Remote)
	r.Arrived, r.Left = slices.Clone(r.Arrived), slices.Clone(r.Left)
	r.Entries, r.Sessions, r.Notes = slices.Clone(r.Entries), slices.Clone(r.Sessions), slices.Clone(r.Notes)
	r.Corrections = slices.Clone(r.Corrections)
	return r
}
