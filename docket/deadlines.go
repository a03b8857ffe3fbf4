package docket

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// Ruling is the commission's (C) ruling on sufficiency and probable cause.
type Ruling string

// The rulings (C) allows.
const (
	Insufficient     Ruling = "insufficient"      // (C)(2): dismissed, notice made public
	NoProbableCause  Ruling = "no_probable_cause" // (C)(2): dismissed, notice made public
	ProbableCause    Ruling = "probable_cause"    // (C)(2): hearing within 4 weeks of receipt
	JudicialReferral Ruling = "judicial_referral" // (C)(2): attorney asked to adjudicate judicially
	AttorneyReferral Ruling = "attorney_referral" // (C)(3): §103.05 complaint sent to the attorney
)

// Rulings lists every Ruling, for validation and help text.
var Rulings = []Ruling{Insufficient, NoProbableCause, ProbableCause, JudicialReferral, AttorneyReferral}

// Meeting is a meeting of the commission on one case: the sufficiency meeting (C)(1), the
// hearing (D), a reconvened session of a recessed hearing (E), or the public hearing (F).
type Meeting struct {
	Start        time.Time `json:"start,omitzero"` // zero: not scheduled
	Place        string    `json:"place,omitempty"`
	Closed       bool      `json:"closed,omitempty"`       // closed to the public under the Open Meetings Act
	Authority    string    `json:"authority,omitempty"`    // the Open Meetings Act exception that allows closing it
	NoticePosted time.Time `json:"notice_posted,omitzero"` // when its public notice was posted; zero: not yet
	ScheduledAt  time.Time `json:"scheduled_at,omitzero"`  // when it was scheduled as it now stands; zero in records from before this was kept
}

// Scheduled reports whether the meeting has a start.
func (m Meeting) Scheduled() bool { return !m.Start.IsZero() }

// Access says whether the meeting is open to the public or closed, and under which
// exception of the Open Meetings Act (5 ILCS 120/2(c)).
func (m Meeting) Access() string {
	if m.Closed {
		return "closed under " + m.Authority
	}
	return "open to the public"
}

// Facts are what has happened in a case, as far as the ordinance's clocks care. Every
// deadline is derived from Facts; none is stored.
type Facts struct {
	Received      time.Time `json:"received,omitzero"`       // (A): when the commission received the complaint
	ViolationDate Date      `json:"violation_date,omitzero"` // (I): date of the alleged violation, if known
	Sections      []string  `json:"sections,omitempty"`      // sections alleged, e.g. "103.10"
	Elections     []Date    `json:"elections,omitempty"`     // (G): elections at which the respondent is a candidate

	Sufficiency                   Meeting `json:"sufficiency,omitzero"`                     // (C)(1)
	RespondentNoticeMailed        Date    `json:"respondent_notice_mailed,omitzero"`        // (B)
	ComplainantConfirmationMailed Date    `json:"complainant_confirmation_mailed,omitzero"` // (B)
	Ruling                        Ruling  `json:"ruling,omitempty"`                         // (C): on the complaint, or on its §103.10 part when it alleges both sections
	ReferralRuling                Ruling  `json:"referral_ruling,omitempty"`                // (C)(3): on the §103.05 part of a complaint that alleges both sections
	RulingDate                    Date    `json:"ruling_date,omitzero"`                     // (C)(1): when the ruling issued; zero: at the sufficiency meeting
	RulingNoticeRespondent        Date    `json:"ruling_notice_respondent,omitzero"`        // (C)(1): notice of the ruling sent to the respondent
	RulingNoticeComplainant       Date    `json:"ruling_notice_complainant,omitzero"`       // (C)(1): and to the complainant
	AdjudicationRequested         Date    `json:"adjudication_requested,omitzero"`          // (C)(2): written request to the attorney
	ReferralTransmitted           Date    `json:"referral_transmitted,omitzero"`            // (C)(3): complaint and documents sent to the attorney

	Hearing          Meeting   `json:"hearing,omitzero"`           // (D): the hearing's first session
	Reconvened       Meeting   `json:"reconvened,omitzero"`        // (E): the latest session of a recessed hearing, if any
	Sessions         []Meeting `json:"sessions,omitempty"`         // (E): earlier reconvened sessions, held and recessed again, in order
	HearingConcluded Date      `json:"hearing_concluded,omitzero"` // (E)
	HearingClosed    bool      `json:"hearing_closed,omitempty"`   // (F): any session was closed to the public

	DecisionIssued       Date    `json:"decision_issued,omitzero"`              // (E): dismissal, or recommendation and/or fine
	RecommendationIssued Date    `json:"recommendation_issued,omitzero"`        // (E)(2): recommendation for discipline and/or fine issued
	RecommendationToResp Date    `json:"recommendation_to_respondent,omitzero"` // (E)(2): delivered to the respondent
	RecommendationToOff  Date    `json:"recommendation_to_officer,omitzero"`    // (E)(2): and to the officer with authority to discipline
	DemandReceived       Date    `json:"demand_received,omitzero"`              // (F): respondent's written demand for a public hearing
	PublicHearing        Meeting `json:"public_hearing,omitzero"`
	PublicHearingHeld    Date    `json:"public_hearing_held,omitzero"`
	FinalRecommendation  Date    `json:"final_recommendation,omitzero"`     // (F)
	FinalToResp          Date    `json:"final_to_respondent,omitzero"`      // (F): delivered to the respondent
	FinalToOff           Date    `json:"final_to_officer,omitzero"`         // (F): and to the officer with authority to discipline
	DecisionDismissed    bool    `json:"decision_dismissed,omitempty"`      // (E)(1): the decision dismissed the complaint
	DismissalToResp      Date    `json:"dismissal_to_respondent,omitzero"`  // (E)(1): notice of it delivered to the respondent
	DismissalToComp      Date    `json:"dismissal_to_complainant,omitzero"` // (E)(1): and to the complainant

	FrivolousHearing      Meeting `json:"frivolous_meeting,omitzero"`       // (H): the meeting at which the complainant is heard
	FrivolousNoticeMailed Date    `json:"frivolous_notice_mailed,omitzero"` // (H): its certified notice to the complainant
	// FrivolousFound is the day of the (H) finding, which calls for its certified notice
	// to the complainant (FrivolousFinding); zero in records from before that notice was
	// tracked, so that a case they closed stays closed.
	FrivolousFound Date `json:"frivolous_found,omitzero"`
	// FrivolousPending is true while an (H) meeting is scheduled and the commission has not
	// acted on it: no finding made, no motion for one failed. The case stays on the docket
	// meanwhile. False in records from before it was kept.
	FrivolousPending bool `json:"frivolous_pending,omitempty"`
	// AwaitingOfficer is the day a recommendation for discipline went to the officer with
	// authority to discipline (E)(2), (F), until the officer's response is recorded
	// (RecordOfficerResponse); zero otherwise, and in records from before it was kept.
	AwaitingOfficer Date `json:"awaiting_officer,omitzero"`
	// Fines are the fines imposed (E)(2), (F), (H), each until it is settled: paid in full,
	// referred for collection or waived (SettleFine). Each is the fine_payment step. Empty
	// in records from before fines were tracked, so that a case they closed stays closed.
	Fines []FineOwed `json:"fines,omitempty"`
	// Referrals are the matters sent to the attorney (C)(2), (C)(3), each followed until
	// it is closed with its outcome (ReportReferral). Empty in records from before
	// referrals were followed, so that a case they closed stays closed.
	Referrals []Referral `json:"referrals,omitempty"`
	// Returned are the certified mailings that came back refused, unclaimed or
	// undeliverable, and when the next step the commission chose for each was taken.
	Returned []ReturnedMail `json:"returned_mail,omitempty"`

	// PapersSent are the dates each paper was sent that no field above records: the papers of
	// the steps whose rows have no Done of their own, which read these instead (Period.Done).
	PapersSent map[Paper][]Date `json:"papers_sent,omitempty"`
}

// Status says where a deadline stands.
type Status string

// Deadline statuses.
const (
	Met    Status = "met"    // done on or before the deadline
	Open   Status = "open"   // not done, and the deadline has not passed
	Missed Status = "missed" // done late, or not done and the deadline has passed
)

// Deadline is one time limit that applies to a case: when it falls, the rule, how it was
// counted, and whether it has been met.
type Deadline struct {
	ID     DeadlineID
	Rule   string
	Due    Date      // for deadlines that fall on a date
	DueAt  time.Time // for the 48-hour notices, an instant
	Status Status
	Done   bool    // its step has happened, on time or late: nothing more to remind
	DoneOn Date    // the day it happened, when the facts give it
	Period *Period // the row of the ordinance's table it comes from

	// The trail of the count, rendered by Basis.
	From     Date        // the trigger's date (date deadlines and tasks), if known
	Landed   Date        // where a calendar period landed, if it then moved to a business day
	Closure  string      // why 5 ILCS 70/1.11 excludes Landed as a last day
	Election Date        // (G): the election whose eve capped the deadline, if it did
	Meeting  time.Time   // the meeting a notice deadline counts back from
	What     string      // that meeting, in words
	Of       MeetingKind // that meeting's kind, whose notice the command posts
}

// Basis says how the deadline was counted, for a clerk to check by hand:
// "3 business days after receipt on Fri 2026-12-04".
func (d Deadline) Basis() string {
	if !d.DueAt.IsZero() {
		return fmt.Sprintf("%s before %s at %s", d.Period.describe(), d.What, d.Meeting.Format("Mon 2006-01-02 15:04 MST"))
	}
	if !d.Dated() {
		basis := "the ordinance sets no time for it; it is required once " + d.Period.Trigger + " has issued"
		if !d.From.IsZero() {
			basis += fmt.Sprintf(", on %s", d.From.Long())
		}
		if d.Done {
			basis += fmt.Sprintf("; done on %s", d.DoneOn.Long())
		}
		return basis
	}
	basis := fmt.Sprintf("%s after %s on %s", d.Period.describe(), d.Period.Trigger, d.From.Long())
	if !d.Landed.IsZero() {
		basis += fmt.Sprintf(" is %s, %s; moved to the next day that is not a weekend or a statutory holiday (5 "+
			"ILCS 70/1.11)", d.Landed.Long(), d.Closure)
	}
	if !d.Election.IsZero() {
		basis += fmt.Sprintf("; capped at the day before the election on %s", d.Election.Long())
	}
	return basis
}

// MarshalJSON writes the deadline as `ethicsbot deadlines` documents it.
func (d Deadline) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		ID     DeadlineID `json:"id"`
		Rule   string     `json:"rule"`
		Due    Date       `json:"due,omitzero"`
		DueAt  time.Time  `json:"due_at,omitzero"`
		Basis  string     `json:"basis"`
		Status Status     `json:"status"`
	}{d.ID, d.Rule, d.Due, d.DueAt, d.Basis(), d.Status})
}

// Schedule is every deadline that applies to a case, derived from its Facts.
type Schedule struct {
	Received   Date       `json:"received"`
	TimeBarred *bool      `json:"time_barred,omitempty"` // (I): present when the violation date is known
	Expedited  bool       `json:"expedited"`             // (G)
	Election   Date       `json:"election,omitzero"`     // (G): the election that expedites it
	Deadlines  []Deadline `json:"deadlines"`
}

// Find returns the deadline with id, if it applies.
func (s Schedule) Find(id DeadlineID) (Deadline, bool) {
	i := slices.IndexFunc(s.Deadlines, func(d Deadline) bool { return d.ID == id })
	if i < 0 {
		return Deadline{}, false
	}
	return s.Deadlines[i], true
}

// Engine derives deadlines from facts under one ordinance and one calendar.
type Engine struct {
	Cal *Calendar
	Ord Ordinance
	// Mail is the commission's next step after a certified mailing came back; the zero
	// policy is the default (see MailPolicy).
	Mail MailPolicy
}

// Schedule returns the deadlines that apply to f. now decides whether an undone deadline
// has been missed; a zero now leaves every undone deadline open. f must be valid (see
// Facts.Validate).
func (e *Engine) Schedule(f *Facts, now time.Time) Schedule {
	return e.ScheduleInto(make([]Deadline, 0, len(e.Ord.periods)), f, now)
}

// ScheduleInto is Schedule appending the deadlines to buf[:0], so that a sweep over many
// cases can reuse one buffer. It is a walk over the table of steps: each row gives its
// deadlines in the facts (Period.Due, or, counted in hours, the notices of its Meetings),
// in the table's order, which is the order in which a case meets them.
func (e *Engine) ScheduleInto(buf []Deadline, f *Facts, now time.Time) Schedule {
	// A complaint received after office hours, or on a weekend or a holiday, is counted from
	// its calendar date, the day it arrived, not from the next business day: of the two
	// readings the ordinance allows, the one that gives the earlier deadline, so that no
	// period runs past what a court could hold (docs/deadlines.md, "Where the law leaves a
	// choice").
	received := e.Cal.DateOf(f.Received)
	sc := scheduler{e: e, f: f, now: now, s: Schedule{Received: received, Deadlines: buf[:0]}}
	if !now.IsZero() {
		sc.today = e.Cal.DateOf(now)
	}
	for i := range e.Ord.periods {
		sc.row(&e.Ord.periods[i])
	}
	s := sc.s
	// (I): the last day to file is one year after the alleged violation.
	if d, ok := s.Find(FilingLimit); ok {
		barred := received > d.Due
		s.TimeBarred = &barred
	}
	// (G): expedited decision for a complaint filed in the period before an election.
	s.Election, s.Expedited = e.expeditingElection(received, f.Elections)
	// (B), (C)(2): a certified mailing that came back, and the next step chosen for it.
	s.Deadlines = e.resendTasks(s.Deadlines, f)
	return s
}

// hearingPath reports whether the case goes to a hearing: a ruling of probable cause, or,
// in sparse facts, no ruling given but a later step of the hearing path, which implies it.
func (f *Facts) hearingPath() bool {
	if f.Ruling != "" {
		return f.Ruling == ProbableCause
	}
	return f.Hearing.Scheduled() || f.Reconvened.Scheduled() || len(f.Sessions) > 0 || !f.HearingConcluded.IsZero() ||
		!f.RecommendationIssued.IsZero() || !f.DemandReceived.IsZero() || f.PublicHearing.Scheduled() ||
		!f.PublicHearingHeld.IsZero() || !f.FinalRecommendation.IsZero()
}

// hearingBegun reports whether a later fact implies the hearing was held, so that it was
// scheduled (C)(2): a session, its conclusion, or anything after the (E) decision.
func (f *Facts) hearingBegun() bool {
	return f.Reconvened.Scheduled() || len(f.Sessions) > 0 || !f.HearingConcluded.IsZero() || !f.DecisionIssued.IsZero() ||
		!f.RecommendationIssued.IsZero() || f.afterDecision()
}

// afterDecision reports whether a later fact implies the (E) decision issued: its delivery,
// a demand for a public hearing, or anything after it (F).
func (f *Facts) afterDecision() bool {
	return !f.RecommendationToResp.IsZero() || !f.RecommendationToOff.IsZero() || !f.DemandReceived.IsZero() ||
		f.PublicHearing.Scheduled() || !f.PublicHearingHeld.IsZero() || f.finalIssued()
}

// finalIssued reports whether the (F) final recommendation issued, which implies the
// public hearing was held.
func (f *Facts) finalIssued() bool {
	return !f.FinalRecommendation.IsZero() || !f.FinalToResp.IsZero() || !f.FinalToOff.IsZero()
}

// disposedAtC reports whether the (C) ruling disposed of the complaint: dismissed as
// insufficient or without probable cause, or referred to the attorney. Such a ruling is
// the commission's decision for (G).
func (f *Facts) disposedAtC() bool {
	return f.Ruling != "" && f.Ruling != ProbableCause
}

// decided is the day the commission decided the complaint, for (G): the (E) decision, or
// the (C) ruling that disposed of it.
func (f *Facts) decided(c *Calendar) Date {
	if !f.DecisionIssued.IsZero() || !f.disposedAtC() {
		return f.DecisionIssued
	}
	if !f.RulingDate.IsZero() {
		return f.RulingDate
	}
	if f.Sufficiency.Scheduled() {
		return c.DateOf(f.Sufficiency.Start)
	}
	return 0
}

// Dated reports whether the deadline falls on a date or at an instant. A paper the
// ordinance requires without a time limit is an undated task: open until it is done,
// never missed.
func (d Deadline) Dated() bool { return !d.Due.IsZero() || !d.DueAt.IsZero() }

func dateStatus(due, done, today Date) Status {
	switch {
	case !done.IsZero() && done <= due:
		return Met
	case !done.IsZero(), !today.IsZero() && today > due:
		return Missed
	}
	return Open
}

func instantStatus(due, done, now time.Time) Status {
	switch {
	case !done.IsZero() && !done.After(due):
		return Met
	case !done.IsZero(), !now.IsZero() && now.After(due):
		return Missed
	}
	return Open
}

// Left is how much time is left before d at now, counted as its rule counts: business days
// for a business-day period, calendar days for the others ("day" also when it is due
// today, with n 0), whole hours ("hour") for a notice. late is true once it has passed;
// then n is how late, in calendar days, or in hours for a notice.
func (e *Engine) Left(d Deadline, now time.Time) (n int, unit string, late bool) {
	if !d.DueAt.IsZero() {
		if now.After(d.DueAt) {
			return int(now.Sub(d.DueAt).Hours()), "hour", true
		}
		return int(d.DueAt.Sub(now).Hours()), "hour", false
	}
	today := e.Cal.DateOf(now)
	switch {
	case d.Due < today:
		return int(today - d.Due), "day", true
	case d.Period.Unit == BusinessDays && d.Due > today:
		return e.Cal.BusinessDaysUntil(today, d.Due), "business day", false
	}
	return int(d.Due - today), "day", false
}

// Count writes n of unit for people: "1 business day", "3 days".
func Count(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

// after counts a period forward from the date its trigger happened: business days are
// counted strictly after from, skipping the days the office is closed; calendar periods
// land on from + N (years by Date.AddYears) and roll past Saturdays, Sundays and statutory
// holidays only (5 ILCS 70/1.11).
func (e *Engine) after(id DeadlineID, from Date) Deadline {
	p := e.Ord.Period(id)
	d := Deadline{ID: id, Rule: p.Rule, Period: p, From: from}
	var raw Date
	switch p.Unit {
	case BusinessDays:
		d.Due = e.Cal.AddBusinessDays(from, p.Amount)
		return d
	case Days:
		raw = from.AddDays(p.Amount)
	case Weeks:
		raw = from.AddDays(7 * p.Amount)
	case Years:
		raw = from.AddYears(p.Amount)
	}
	d.Due = e.Cal.RollForward(raw)
	if d.Due != raw {
		d.Landed, d.Closure = raw, e.Cal.Excluded(raw)
	}
	return d
}

// before counts an exact number of hours back from a meeting's start: the latest instant
// its public notice may be posted.
func (e *Engine) before(id DeadlineID, what string, start time.Time) Deadline {
	p := e.Ord.Period(id)
	start = start.In(e.Cal.Location())
	due := start.Add(-time.Duration(p.Amount) * time.Hour)
	return Deadline{ID: id, Rule: p.Rule, DueAt: due, Period: p, Meeting: start, What: what}
}

// EarliestMeeting returns the earliest start a meeting of this kind may have if its notice
// is posted at posted: the notice period later, rounded up to the minute.
func (e *Engine) EarliestMeeting(id DeadlineID, posted time.Time) time.Time {
	p := e.Ord.Period(id)
	return roundUpMinute(posted.In(e.Cal.Location()).Add(time.Duration(p.Amount) * time.Hour))
}

// expeditingElection returns the earliest election whose (G) period holds the receipt date:
// election − 60 days ≤ received ≤ election − 1 day.
func (e *Engine) expeditingElection(received Date, elections []Date) (Date, bool) {
	p := e.Ord.Period(ElectionPeriod)
	days := p.Amount
	if p.Unit == Weeks {
		days *= 7
	}
	var best Date
	for _, el := range elections {
		if el.AddDays(-days) <= received && received <= el.AddDays(-1) && (best.IsZero() || el < best) {
			best = el
		}
	}
	return best, !best.IsZero()
}

// electionDecision is (G)'s deadline: 7 days after receipt, rolled like any calendar period,
// but never later than the day before the election.
func (e *Engine) electionDecision(received, election Date) Deadline {
	d := e.after(ElectionDecision, received)
	if eve := election.AddDays(-1); d.Due > eve {
		d.Due, d.Election = eve, election
	}
	return d
}
