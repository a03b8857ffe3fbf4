package docket

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// State is where a case stands in the ordinance's procedure.
type State string

// The states of a case, in the order of the procedure.
const (
	StateReceived        State = "received"          // (A) filed; (B) notices due
	StateNoticesSent     State = "notices_sent"      // (B) both parties notified; awaiting (C)(1) review
	StateDismissed       State = "dismissed"         // (C)(2) insufficient or no probable cause, or (E)(1)
	StateReferred        State = "referred"          // (C)(2) judicial adjudication, or (C)(3) §103.05
	StateHearingPending  State = "hearing_pending"   // (C)(2) probable cause; hearing to be scheduled
	StateHearingSet      State = "hearing_scheduled" // (D) a hearing session is scheduled
	StateHearingRecessed State = "hearing_recessed"  // (E) recessed, to reconvene
	StateHearingDone     State = "hearing_concluded" // (E) decision due within 30 days
	StateDecided         State = "decided"           // (E)(2) recommendation and/or fine issued
	StateDemanded        State = "public_hearing_demanded"
	StatePublicSet       State = "public_hearing_scheduled"
	StatePublicHeld      State = "public_hearing_held"
	StateFinal           State = "final" // (F) final recommendation issued
)

// States lists every State, in the order of the procedure.
var States = []State{StateReceived, StateNoticesSent, StateDismissed, StateReferred, StateHearingPending,
	StateHearingSet,
	StateHearingRecessed, StateHearingDone, StateDecided, StateDemanded, StatePublicSet, StatePublicHeld, StateFinal}

// Closed reports whether nothing more happens in a case in this state, apart from an (H)
// finding against the complainant. A decided case stays open while a demand may come.
func (s State) Closed() bool {
	return s == StateDismissed || s == StateReferred || s == StateFinal
}

// Closed reports whether the case needs nothing more from the commission: dismissed,
// referred, finally decided, or decided after an open hearing, where (F) gives no demand;
// every paper the ordinance requires for it has been sent; every fine it imposed has been
// paid, referred for collection or waived; every referral to the attorney is closed with
// its outcome; no (H) matter waits for its meeting; and no officer's response to a
// recommendation for discipline is awaited; and every certified mailing
// that came back has had the next step the commission chose for it (MailPolicy). A dismissed or referred
// case stays on the docket, and in the reminders, until its notices are done.
func (c *Case) Closed() bool {
	done := c.State.Closed() || c.State == StateDecided && !c.HearingClosed
	return done && len(c.PapersOwed()) == 0 && !slices.ContainsFunc(c.Returned, ReturnedMail.waiting) &&
		!slices.ContainsFunc(c.Fines, FineOwed.owed) && !slices.ContainsFunc(c.Referrals, Referral.open) &&
		!c.FrivolousPending && !c.OfficerAwaited()
}

// Person is a party to a complaint.
type Person struct {
	Name    string `json:"name"`
	SlackID string `json:"slack_id,omitempty"`
	// Address is the party's postal address, lines separated by "\n" (CheckAddress); Email
	// an e-mail address; Representative the attorney who receives copies. All are
	// confidential like the complaint, and set at filing or by SetParty.
	Address        string         `json:"address,omitempty"`
	Email          string         `json:"email,omitempty"`
	Representative Representative `json:"representative,omitzero"`
}

// MeetingKind names one of the commission's meetings on a case.
type MeetingKind string

// The meetings the ordinance provides for.
const (
	SufficiencyMeeting MeetingKind = "sufficiency"       // (C)(1)
	HearingMeeting     MeetingKind = "hearing"           // (D)
	RecessedHearing    MeetingKind = "recessed_hearing"  // (E): a recessed hearing reconvened
	PublicHearing      MeetingKind = "public_hearing"    // (F)
	FrivolousMeeting   MeetingKind = "frivolous_meeting" // (H): the complainant heard before a finding
)

// MeetingKinds lists every MeetingKind.
var MeetingKinds = []MeetingKind{SufficiencyMeeting, HearingMeeting, RecessedHearing, PublicHearing, FrivolousMeeting}

// meetingNames are the meetings as people say them.
var meetingNames = map[MeetingKind]string{
	SufficiencyMeeting: "sufficiency meeting",
	HearingMeeting:     "hearing",
	RecessedHearing:    "recessed hearing",
	PublicHearing:      "public hearing",
	FrivolousMeeting:   "meeting on whether the complaint was knowingly frivolous",
}

// meetingWhat are the meetings as a notice's deadline names them ("48 hours before the
// hearing at ..."), where it differs from "the " and its name.
var meetingWhat = map[MeetingKind]string{FrivolousMeeting: "the (H) meeting"}

// what is the meeting as a notice's deadline names it.
func (k MeetingKind) what() string {
	if w, ok := meetingWhat[k]; ok {
		return w
	}
	return "the " + meetingNames[k]
}

// meetingRule is what the procedure says of one kind of meeting: the deadline of its
// public notice, that deadline's subsection, and its name.
type meetingRule struct {
	notice DeadlineID
	rule   string
	name   string
}

// meetingRules says, for each kind, which notice period applies and its subsection, as
// the table of steps gives them (Period.Meetings), and its name.
var meetingRules = func() map[MeetingKind]meetingRule {
	out := make(map[MeetingKind]meetingRule, len(meetingNames))
	for _, p := range defaultPeriods {
		for _, k := range p.Meetings {
			out[k] = meetingRule{p.ID, p.Rule, meetingNames[k]}
		}
	}
	return out
}()

// WithdrawnMeeting is a meeting cancelled, or moved to another time or place, before it
// began.
type WithdrawnMeeting struct {
	Kind    MeetingKind `json:"kind"`
	Meeting Meeting     `json:"meeting"`
	At      time.Time   `json:"at"`                // when it was cancelled or moved
	Reason  string      `json:"reason,omitempty"`  // a cancellation's reason, as recorded
	MovedTo time.Time   `json:"moved_to,omitzero"` // zero: cancelled
}

// Name returns the meeting kind as people say it: "sufficiency meeting".
func (k MeetingKind) Name() string { return meetingRules[k].name }

// Rule returns the subsection that requires the meeting's notice: (C)(1), (D), (F) or (H).
func (k MeetingKind) Rule() string { return meetingRules[k].rule }

// Notice returns the deadline of the meeting's public notice.
func (k MeetingKind) Notice() DeadlineID { return meetingRules[k].notice }

// Mailing is a paper sent: by certified mail, return receipt requested, with its article
// number, or delivered otherwise (by hand, first-class mail, e-mail), without one.
type Mailing struct {
	Paper     Paper  `json:"paper,omitempty"`     // empty in records from before papers were named
	Recipient Party  `json:"recipient"`           // respondent, complainant, attorney or officer
	Article   string `json:"article"`             // USPS article number, digits only; "" for a delivery
	Mailed    Date   `json:"mailed"`              // the day it was mailed or delivered
	Returned  Date   `json:"returned,omitzero"`   // return receipt signed
	SignedBy  string `json:"signed_by,omitempty"` // who signed the return receipt, as printed on it
	// Failed is how the piece came back without a signed receipt, on FailedOn.
	Failed    MailOutcome `json:"failed,omitempty"`
	FailedOn  Date        `json:"failed_on,omitzero"`
	Satisfies string      `json:"satisfies,omitempty"`
	// Address is the party's postal address as it stood when the piece was mailed: what
	// the mailing book (PS Form 3877) proves was sent, whatever is corrected later. ""
	// for an official, and in records from before addresses were kept.
	Address string `json:"address,omitempty"`
	// (B): the sufficiency meeting the notice announced, as it stood when mailed.
	MeetingStart time.Time `json:"meeting_start,omitzero"`
	MeetingPlace string    `json:"meeting_place,omitempty"`
	// Letter is the PDF that went out, kept in the record as sent: the letters give it
	// byte for byte, never re-dated. nil in records from before letters were kept.
	Letter *SentLetter `json:"letter,omitempty"`
	// Officer is, for a paper to the officer with authority to discipline (E)(2), (F), the
	// key of the officer the case named when it went (SetOfficer): a re-print goes to whom
	// it went. "" for anyone else, and in records from before it was kept.
	Officer string `json:"officer,omitempty"`
}

// announces reports whether m is a (B) notice that gave meeting's date, time and place.
func (m Mailing) announces(meeting Meeting) bool {
	return m.Satisfies == "(B)" && m.MeetingStart.Equal(meeting.Start) && m.MeetingPlace == meeting.Place
}

// Decision is the (E) decision after a hearing.
type Decision struct {
	Dismissed      bool   `json:"dismissed,omitempty"`      // (E)(1)
	Findings       string `json:"findings,omitempty"`       // (E): public
	Recommendation string `json:"recommendation,omitempty"` // (E)(2): discipline recommended
	Fine           int    `json:"fine,omitempty"`           // (E)(2), (H): whole dollars
	Intentional    bool   `json:"intentional,omitempty"`    // (H): the violation was found intentional, as a fine requires
	On             Date   `json:"on"`
}

// Finding is an (F) final recommendation or an (H) frivolous-complaint finding.
type Finding struct {
	Text string `json:"text"`
	Fine int    `json:"fine,omitempty"`
	// (H): a fine needs the finding that the violation was intentional, or that the
	// complaint was filed knowingly frivolous.
	Intentional bool `json:"intentional,omitempty"`
	Knowingly   bool `json:"knowingly,omitempty"`
	On          Date `json:"on"`
}

// Enforcement is a step taken to enforce the recommendation or fine: the fine collected,
// the discipline imposed. (F) stays it while a public hearing may be, or has been, demanded.
type Enforcement struct {
	What string `json:"what"`
	On   Date   `json:"on"`
}

// Case is one complaint and everything that has happened to it. Its Facts drive the
// deadlines; the rest is the record the public and the parties are told about.
type Case struct {
	Number      string `json:"number"` // YYYY-NNN, assigned by the store
	State       State  `json:"state"`
	Complainant Person `json:"complainant"`
	Respondent  Person `json:"respondent"`
	Summary     string `json:"summary"` // confidential allegation text
	Facts

	Mailings  []Mailing `json:"mailings,omitempty"`
	Decision  *Decision `json:"decision,omitempty"`
	Final     *Finding  `json:"final,omitempty"`
	Frivolous *Finding  `json:"frivolous,omitempty"`
	Recesses  int       `json:"recesses,omitempty"`
	// ReferralSection is the (C)(3) section whose part of the complaint had a ruling of
	// its own (Facts.ReferralRuling), as the ordinance numbered it then.
	ReferralSection string        `json:"referral_section,omitempty"`
	Enforced        []Enforcement `json:"enforced,omitempty"`
	// Settlements are what became of the fines (Facts.Fines): each payment received, a
	// referral for collection, a waiver, in order (SettleFine).
	Settlements []Settlement `json:"settlements,omitempty"`
	// ReferralReports are what the attorney reported of each referral, in order
	// (ReportReferral).
	ReferralReports []ReferralReport `json:"referral_reports,omitempty"`
	// OfficerResponses are the responses of the officer with authority to discipline to
	// the recommendations sent, in order (RecordOfficerResponse).
	OfficerResponses []OfficerResponse `json:"officer_responses,omitempty"`
	Cancelled        int               `json:"cancelled_meetings,omitempty"`
	// Withdrawn are the meetings cancelled or moved before they began, with the notice
	// each had: the public may have read it, so the board keeps it, marked.
	Withdrawn []WithdrawnMeeting `json:"withdrawn,omitempty"`

	// Officer is the key of the officer with authority to discipline to whom the (E)(2)
	// and (F) recommendations go, among those the configuration lists (letters.officers);
	// "" is the default, the mayor (SetOfficer).
	Officer string `json:"officer,omitempty"`

	Recusals []Recusal `json:"recusals,omitempty"`
	Votes    []Adopted `json:"votes,omitempty"`   // roll calls that carried, in order
	Motions  []Motion  `json:"motions,omitempty"` // roll calls that failed: on the record, changing nothing

	Amendments []Amendment `json:"amendments,omitempty"` // corrections and voids, in order
	// Overrides are the steps recorded without what the ordinance requires for them, and why.
	Overrides []Override `json:"overrides,omitempty"`
	// Late are the steps recorded after their last day (E), (F), (G), and how late.
	Late []LateAct `json:"late,omitempty"`
	// Ground is a (C)(2) dismissal's ground when it is not the ruling's own: time_barred (I).
	Ground Ground `json:"ground,omitempty"`
	// Documents are the case file: the complaint as received, exhibits, evidence and
	// correspondence, in the order added; a voided addition is not listed.
	Documents []Document `json:"documents,omitempty"`
}

// clone returns a copy that shares no slices or pointers with c, so an Apply that fails
// part-way leaves the caller's case untouched.
func (c Case) clone() Case {
	c.Sections = slices.Clone(c.Sections)
	c.Elections = slices.Clone(c.Elections)
	c.Sessions = slices.Clone(c.Sessions)
	c.Fines, c.Settlements = slices.Clone(c.Fines), slices.Clone(c.Settlements)
	c.Referrals, c.ReferralReports = slices.Clone(c.Referrals), slices.Clone(c.ReferralReports)
	c.OfficerResponses = slices.Clone(c.OfficerResponses)
	c.Enforced = slices.Clone(c.Enforced)
	c.Withdrawn = slices.Clone(c.Withdrawn)
	c.Mailings = slices.Clone(c.Mailings)
	c.Returned = slices.Clone(c.Returned)
	c.Recusals, c.Votes, c.Motions = slices.Clone(c.Recusals), slices.Clone(c.Votes), slices.Clone(c.Motions)
	c.Amendments = slices.Clone(c.Amendments)
	c.Overrides = slices.Clone(c.Overrides)
	c.Late = slices.Clone(c.Late)
	if c.PapersSent != nil {
		sent := make(map[Paper][]Date, len(c.PapersSent))
		for p, ds := range c.PapersSent {
			sent[p] = slices.Clone(ds)
		}
		c.PapersSent = sent
	}
	c.Documents = slices.Clone(c.Documents)
	if c.Decision != nil {
		d := *c.Decision
		c.Decision = &d
	}
	if c.Final != nil {
		f := *c.Final
		c.Final = &f
	}
	if c.Frivolous != nil {
		f := *c.Frivolous
		c.Frivolous = &f
	}
	return c
}

// Meeting returns the case's meeting of kind k (zero Start if none is scheduled).
func (c *Case) Meeting(k MeetingKind) Meeting {
	return *c.meeting(k)
}

// meeting is the meeting of kind k: for a recessed hearing, the session it reconvenes at.
func (f *Facts) meeting(k MeetingKind) *Meeting {
	switch k {
	case SufficiencyMeeting:
		return &f.Sufficiency
	case HearingMeeting:
		return &f.Hearing
	case RecessedHearing:
		return &f.Reconvened
	case PublicHearing:
		return &f.PublicHearing
	case FrivolousMeeting:
		return &f.FrivolousHearing
	}
	return &Meeting{}
}

// EnforcementStayed reports whether (F) stays the recommendation or fine: a demand for a
// public hearing is pending and no final recommendation has issued.
func (c *Case) EnforcementStayed() bool {
	return !c.DemandReceived.IsZero() && c.Final == nil
}

// Public reports whether the ordinance has made the case's outcome public: a (C)(2)
// dismissal, an (E) decision, or an (F) final recommendation.
func (c *Case) Public() bool {
	switch {
	case c.State == StateDismissed, c.dismissedAtC(): // (C)(2): a dismissal, or of one part
		return true
	case c.Decision != nil, c.Final != nil:
		return true
	}
	return false
}

// Result is what recording a request's actions did.
type Result struct {
	Case     Case
	Before   Case // the case as it was just before, read in the same transaction
	Warnings []Warning
	// Steps are the actions as recorded, one per event, in order.
	Steps []Step
	// Replayed is true when the request had already been recorded (a retry): nothing new
	// was written, and Case is the case as it stands.
	Replayed bool
}

// Act is who records an action, when, and on which request: what every call that records
// carries beside the action itself. Every event names who acted; a retry of a request
// with the same Request records nothing new.
type Act struct {
	By      string    // Slack user id of who acted
	Request string    // idempotency key, the same for a retry of the same request; "" for none
	At      time.Time // when it is recorded
}

// Step is one action as the record holds it: the event that recorded it, who took it and
// when, the case just before and just after, and what the engine warned. What ethicsbot
// says about an action is derived from its Step, not from a comparison of two states, so a
// notice says what the action did.
type Step struct {
	Event    int64 // the event's id in the log
	By       string
	At       time.Time
	Action   Action
	Before   *Case
	After    *Case
	Warnings []Warning
}

// NoticedMeeting is the start of the meeting whose public notice the step posts, if it
// posts one: a meeting scheduled, moved or cancelled (5 ILCS 120/2.02), as the news media's
// copies of the notice need it.
func (st Step) NoticedMeeting() (time.Time, bool) {
	switch a := st.Action.(type) {
	case ScheduleMeeting:
		return st.After.Meeting(a.Meeting).Start, true
	case CancelMeeting:
		return st.Before.Meeting(a.Meeting).Start, true
	}
	return time.Time{}, false
}

// Election is an election at which a respondent may be a candidate (G).
type Election struct {
	Date Date   `json:"date"`
	Name string `json:"name"`
}

// Warning is something the clerk should know about an action that was nonetheless allowed.
type Warning struct {
	Rule    string
	Message string
}

// String writes the warning with its rule.
func (w Warning) String() string { return w.Message + " (rule " + w.Rule + ")" }

// Action is one step of the procedure: filing, scheduling, mailing, ruling, deciding.
// Apply checks it against the case's state and the ordinance.
type Action interface {
	// Kind names the action in the event log, e.g. "file".
	Kind() string
	// Did says what the action did, in plain words, for the docket channel's line and the
	// case's history: "hearing scheduled for Thu 10 Dec 2026 17:00 CST at Council Chambers".
	Did(w Wording) Words
	apply(x *applying) error
}

// applying carries what an action needs: the case being changed, the engine, when the
// action is taken and the warnings collected.
type applying struct {
	e        *Engine
	c        *Case
	by       string // who acts; "" when not known (replays, tools)
	at       time.Time
	today    Date
	warnings []Warning
	// replay is set when a case is rebuilt from its record: requirements added to the
	// forms since an event was recorded (a ruling per section, a finding of intent) are not
	// asked of it again.
	replay bool
}

func (x *applying) warn(rule, format string, a ...any) {
	x.warnings = append(x.warnings, Warning{rule, fmt.Sprintf(format, a...)})
}

// Apply performs a on c at instant at, and returns the new case and any warnings. On error,
// c is unchanged and the error is an *Error that names the rule.
func (e *Engine) Apply(c Case, a Action, at time.Time) (Case, []Warning, error) {
	return e.apply(c, a, "", at)
}

func (e *Engine) apply(c Case, a Action, by string, at time.Time) (Case, []Warning, error) {
	return e.applyAs(c, a, by, at, false)
}

func (e *Engine) applyAs(c Case, a Action, by string, at time.Time, replay bool) (Case, []Warning, error) {
	if v := reflect.ValueOf(a); !v.IsValid() || v.Kind() == reflect.Pointer && v.IsNil() {
		return c, nil, Invalid("", "action", "missing")
	} else if v.Kind() == reflect.Pointer {
		a = v.Elem().Interface().(Action) // actions are values; accept a pointer to one
	}
	if at.IsZero() {
		return c, nil, Invalid("", "at", "an action needs the time it is taken")
	}
	next := c.clone()
	x := &applying{e: e, c: &next, by: by, at: at, today: e.Cal.DateOf(at), replay: replay}
	if _, isFiling := a.(File); !isFiling && c.State == "" {
		return c, nil, NotFound("", "", "there is no such case; file the complaint first")
	}
	if err := x.actorMayAct(a); err != nil {
		return c, nil, err
	}
	if err := a.apply(x); err != nil {
		return c, nil, err
	}
	if err := e.Validate(&next.Facts); err != nil {
		return c, nil, err
	}
	return next, x.warnings, nil
}

// needState refuses an action unless the case is in one of states.
func (x *applying) needState(rule, what string, states ...State) error {
	if slices.Contains(states, x.c.State) {
		return nil
	}
	return conflict(rule, fmt.Sprintf("cannot %s: case %s is %s", what, x.c.Number, describeState(x.c.State)))
}

// describeState says where a case stands in words.
func describeState(s State) string {
	switch s {
	case StateReceived:
		return "received, with its (B) notices not yet all mailed"
	case StateNoticesSent:
		return "awaiting the sufficiency ruling"
	case StateDismissed:
		return "dismissed"
	case StateReferred:
		return "referred to the corporation's attorney"
	case StateHearingPending:
		return "awaiting a hearing date"
	case StateHearingSet:
		return "scheduled for hearing"
	case StateHearingRecessed:
		return "in a recessed hearing"
	case StateHearingDone:
		return "awaiting the (E) decision"
	case StateDecided:
		return "decided"
	case StateDemanded:
		return "awaiting a public hearing date"
	case StatePublicSet:
		return "scheduled for a public hearing"
	case StatePublicHeld:
		return "awaiting the final recommendation"
	case StateFinal:
		return "closed by the final recommendation"
	}
	return string(s)
}

// checkText refuses text that is empty (when required), too long, not UTF-8, or holds
// control characters other than newlines and tabs.
func checkText(field, s string, required bool, max int) error {
	if strings.TrimSpace(s) == "" {
		if required {
			return Invalid("", field, "required")
		}
		return nil
	}
	if !utf8.ValidString(s) {
		return Invalid("", field, "is not valid UTF-8 text")
	}
	if n := utf8.RuneCountInString(s); n > max {
		return Invalid("", field, fmt.Sprintf("is %d characters; the limit is %d", n, max))
	}
	for _, r := range s {
		if unicode.IsControl(r) && r != '\n' && r != '\t' {
			return Invalid("", field, fmt.Sprintf("holds the control character %U", r))
		}
	}
	return nil
}

// CheckLine checks a one-line field (a name, a place, an Open Meetings Act authority): as
// checkText, and it refuses line breaks, tabs and the invisible format characters (see
// invisible), naming the one it found. A notice or a letter shows such a field inside a
// line of its own; a line break in it could forge a line of ethicsbot's, and an invisible
// character could make it read as something else, or look like a name it does not match.
func CheckLine(field, rule, s string, required bool, max int) error {
	if err := checkLineAsRecorded(field, rule, s, required, max); err != nil {
		return err
	}
	return checkInvisible(field, rule, s)
}

// checkLine is CheckLine for an action being applied. A case rebuilt from its record is
// not refused for an invisible character recorded before one-line fields refused it
// (only line breaks, tabs and direction controls were refused then): a requirement added
// since an event was recorded is not asked of it again (see applying.replay).
func (x *applying) checkLine(field, rule, s string, required bool, max int) error {
	if x.replay {
		return checkLineAsRecorded(field, rule, s, required, max)
	}
	return CheckLine(field, rule, s, required, max)
}

// checkLineAsRecorded is what CheckLine refused before it refused invisible characters.
func checkLineAsRecorded(field, rule, s string, required bool, max int) error {
	if err := checkText(field, s, required, max); err != nil {
		err.(*Error).Rule = rule
		return err
	}
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029':
			return Invalid(rule, field, "must be one line: it holds a line break")
		case r == '\t':
			return Invalid(rule, field, "must be one line: it holds a tab")
		case r >= '\u202a' && r <= '\u202e' || r >= '\u2066' && r <= '\u2069':
			return checkInvisible(field, rule, string(r))
		}
	}
	return nil
}

// Text limits. A summary fits a Slack modal's text input (3,000 characters).
const (
	MaxName    = 200
	MaxSummary = 3000
	MaxText    = 3000
)

// checkSlackID accepts "" or a Slack user id such as U024BE7LH.
func checkSlackID(field, id string) error {
	if id == "" {
		return nil
	}
	if len(id) < 3 || len(id) > 20 || (id[0] != 'U' && id[0] != 'W') {
		return Invalid("", field, fmt.Sprintf("%q is not a Slack user id such as U024BE7LH", id))
	}
	for _, r := range id[1:] {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return Invalid("", field, fmt.Sprintf("%q is not a Slack user id such as U024BE7LH", id))
		}
	}
	return nil
}

// checkIntent refuses a fine without the (H) finding that the violation was intentional.
func (x *applying) checkIntent(fine int, intentional bool) error {
	if fine == 0 || intentional || x.replay {
		return nil
	}
	return Invalid("(H)", "intentional",
		fmt.Sprintf("the commission may fine only a person who intentionally violates §%s: record that finding with "+
			"intentional=yes, or decide without a fine", x.e.Ord.HearingSection))
}

// checkFine refuses a fine outside the (H) range.
func (x *applying) checkFine(fine int) error {
	o := x.e.Ord
	if fine < 0 || fine > 0 && (fine < o.FineMin || fine > o.FineMax) {
		return Invalid("(H)", "fine",
			fmt.Sprintf("$%d is outside the range the commission may impose, $%s to $%s", fine, Dollars(o.FineMin),
				Dollars(o.FineMax)))
	}
	return nil
}

// Dollars formats whole dollars with thousands separators: 5000 → "5,000".
func Dollars(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// stepDate resolves the date an action says a step happened: today if not given. It is
// never in the future, and never before the step it follows (after, described by what),
// nor before the complaint was received.
func (x *applying) stepDate(field, rule string, on, after Date, what string) (Date, error) {
	if on.IsZero() {
		on = x.today
	}
	if on > x.today {
		return 0, Invalid(rule, field, fmt.Sprintf("%s is in the future; record a step once it has happened", on.Long()))
	}
	if received := x.e.Cal.DateOf(x.c.Received); after < received {
		after, what = received, "the complaint was received"
	}
	if on < after {
		return 0, Invalid(rule, field, fmt.Sprintf("%s is before %s on %s", on.Long(), what, after.Long()))
	}
	return on, nil
}

// join lists names for messages: "a, b, c".
func join[T ~string](xs []T, sep string) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = string(x)
	}
	return strings.Join(s, sep)
}

// shortTime formats an instant for messages in the commission's zone: "Tue 8 Dec 17:00".
func (e *Engine) shortTime(t time.Time) string {
	return t.In(e.Cal.Location()).Format("Mon 2 Jan 2006 15:04 MST")
}
