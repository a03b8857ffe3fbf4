package docket

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
)

// File is (A): a complaint received by the commission. It opens a case.
type File struct {
	Complainant   Person    `json:"complainant"`
	Respondent    Person    `json:"respondent"`
	Sections      []string  `json:"sections"`
	ViolationDate Date      `json:"violation_date,omitzero"`
	Received      time.Time `json:"received"`
	Elections     []Date    `json:"elections,omitempty"` // (G) the respondent is a candidate
	Summary       string    `json:"summary"`
}

// Kind implements Action.
func (File) Kind() string { return "file" }

func (a File) apply(x *applying) error {
	if x.c.State != "" {
		return conflict("(A)", "this case is already filed")
	}
	for _, check := range []error{
		CheckLine("respondent", "(A)", a.Respondent.Name, true, MaxName),
		CheckLine("complainant", "(A)", a.Complainant.Name, true, MaxName),
		checkSlackID("respondent_slack_id", a.Respondent.SlackID),
		checkSlackID("complainant_slack_id", a.Complainant.SlackID),
		checkText("summary", a.Summary, true, MaxSummary),
	} {
		if check != nil {
			return check
		}
	}
	if len(a.Sections) == 0 {
		return invalid("section", "(A)", fmt.Sprintf("required: the section alleged, %s or %s", x.e.Ord.HearingSection, x.e.Ord.ReferralSection))
	}
	received := a.Received
	if received.IsZero() {
		received = x.at
	}
	if received.After(x.at) {
		return invalid("received", "(A)", fmt.Sprintf("%s is in the future: it is now %s", x.e.shortTime(received), x.e.shortTime(x.at)))
	}
	c := x.c
	c.State = StateReceived
	c.Complainant, c.Respondent, c.Summary = a.Complainant, a.Respondent, a.Summary
	c.Received = received
	c.Sections = dedupe(a.Sections)
	c.ViolationDate = a.ViolationDate
	c.Elections = dedupe(a.Elections)
	s := x.e.Schedule(&c.Facts, time.Time{})
	if s.TimeBarred != nil && *s.TimeBarred {
		d, _ := s.Find(FilingLimit)
		x.warn("(I)", "time-barred: the complaint was received on %s, after the last day to file, %s", s.Received.Long(), d.Due.Long())
	}
	if s.Expedited {
		d, _ := s.Find(ElectionDecision)
		x.warn("(G)", "EXPEDITED: received within %d days before the election on %s; the decision is due by %s", x.e.Ord.Period(ElectionPeriod).Amount, s.Election.Long(), d.Due.Long())
	}
	return nil
}

func dedupe[T comparable](xs []T) []T {
	var out []T
	for _, x := range xs {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// ScheduleMeeting schedules, or reschedules, one of the commission's meetings on a case.
// Its public notice cannot be posted before it is scheduled, so it must start at least the
// notice period after it is scheduled.
type ScheduleMeeting struct {
	Meeting   MeetingKind `json:"meeting"`
	Start     time.Time   `json:"start"`
	Place     string      `json:"place"`
	Closed    bool        `json:"closed,omitempty"`
	Authority string      `json:"authority,omitempty"` // Open Meetings Act exception for a closed meeting
}

// Kind implements Action.
func (ScheduleMeeting) Kind() string { return "schedule_meeting" }

func (a ScheduleMeeting) apply(x *applying) error {
	if err := checkKind(a.Meeting); err != nil {
		return err
	}
	mr := meetingRules[a.Meeting]
	if err := CheckLine("place", mr.rule, a.Place, true, MaxName); err != nil {
		return err
	}
	if a.Start.IsZero() {
		return invalid("start", mr.rule, "required: when the "+mr.name+" starts")
	}
	if a.Closed {
		if a.Meeting == PublicHearing {
			return invalid("closed", "(F)", "the public hearing demanded under (F) cannot be closed to the public")
		}
		if strings.TrimSpace(a.Authority) == "" {
			return invalid("authority", mr.rule, "a closed meeting needs the Open Meetings Act exception that allows it, e.g. 5 ILCS 120/2(c)(4)")
		}
		if err := CheckLine("authority", mr.rule, a.Authority, true, MaxName); err != nil {
			return err
		}
	} else if a.Authority != "" {
		return invalid("authority", mr.rule, "an Open Meetings Act exception is given only for a closed meeting")
	}
	if err := x.meetingAllowed(a.Meeting); err != nil {
		return err
	}
	if m := x.c.Meeting(a.Meeting); m.Scheduled() && m.Start.After(x.at) && m.Start.Equal(a.Start) && m.Place == a.Place && m.Closed == a.Closed && m.Authority == a.Authority {
		// Nothing would change, and a notice of a move that is no move would mislead.
		return conflict(mr.rule, fmt.Sprintf("the %s is already scheduled for %s at %s; nothing was changed", mr.name, x.e.shortTime(m.Start), m.Place))
	}
	if earliest := x.e.EarliestMeeting(mr.notice, x.at); a.Start.Before(earliest) {
		p := x.e.Ord.Period(mr.notice)
		return invalid("start", mr.rule, fmt.Sprintf("a %s needs at least %s' public notice; the earliest lawful start is %s", mr.name, p.describe(), x.e.shortTime(earliest)))
	}
	c := x.c
	m := c.meeting(a.Meeting)
	*m = Meeting{Start: a.Start.In(x.e.Cal.Location()), Place: a.Place, Closed: a.Closed, Authority: a.Authority, ScheduledAt: x.at.In(x.e.Cal.Location())}
	x.warnClosedDeadline(a.Meeting, *m)
	switch a.Meeting {
	case SufficiencyMeeting:
		if slices.ContainsFunc(c.Mailings, func(ml Mailing) bool { return ml.Satisfies == "(B)" && !ml.announces(*m) }) {
			x.warn("(B)", "the notices already mailed give the old date, time or place; mail both parties notice of the sufficiency meeting as it now stands")
		}
		if rd := x.e.after(SufficiencyRuling, x.e.Cal.DateOf(c.Received)); x.e.Cal.DateOf(a.Start) > rd.Due {
			x.warn("(C)(1)", "the sufficiency meeting on %s is after the ruling deadline, %s", x.e.Cal.DateOf(a.Start).Long(), rd.Due.Long())
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
			x.warn("(F)", "the public hearing on %s is after the last day for it, %s", x.e.Cal.DateOf(a.Start).Long(), ph.Due.Long())
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
		if err := x.needState("(C)(2)", "schedule the hearing: it follows a ruling of probable cause", StateHearingPending, StateHearingSet); err != nil {
			return err
		}
		if c.State == StateHearingSet && (c.Reconvened.Scheduled() || started(c.Hearing)) {
			return conflict("(E)", "the hearing has begun; schedule a recessed_hearing to reconvene it")
		}
	case RecessedHearing:
		if err := x.needState("(E)", "schedule a recessed hearing: the hearing must first be recessed", StateHearingRecessed, StateHearingSet); err != nil {
			return err
		}
		if c.State == StateHearingSet && (!c.Reconvened.Scheduled() || started(c.Reconvened)) {
			return conflict("(E)", "no recessed hearing is waiting to reconvene; record a recess first")
		}
	case PublicHearing:
		return x.needState("(F)", "schedule the public hearing: it follows a demand after a closed hearing", StateDemanded, StatePublicSet)
	}
	return nil
}

// checkKind refuses a meeting kind the ordinance does not have.
func checkKind(k MeetingKind) error {
	if _, ok := meetingRules[k]; !ok {
		return invalid("meeting", "", fmt.Sprintf("unknown meeting %q: use one of %s", k, join(MeetingKinds, ", ")))
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
		return conflict(meetingRules[a.Meeting].rule, fmt.Sprintf("the %s began at %s and can no longer be cancelled", a.Meeting.Name(), x.e.shortTime(m.Start)))
	}
	if a.Meeting == SufficiencyMeeting && c.Ruling != "" || a.Meeting == HearingMeeting && c.Reconvened.Scheduled() {
		return conflict(meetingRules[a.Meeting].rule, "the "+a.Meeting.Name()+" has already been held")
	}
	*m = Meeting{}
	c.Cancelled++
	switch a.Meeting {
	case HearingMeeting:
		c.State = StateHearingPending
	case RecessedHearing:
		c.State = StateHearingRecessed
	case PublicHearing:
		c.State = StateDemanded
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

func (a PostNotice) apply(x *applying) error {
	if err := checkKind(a.Meeting); err != nil {
		return err
	}
	mr := meetingRules[a.Meeting]
	m := x.c.meeting(a.Meeting)
	if !m.Scheduled() {
		return &Error{Code: ENOTFOUND, Message: fmt.Sprintf("case %s has no %s scheduled; schedule it first", x.c.Number, mr.name)}
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
		x.warn(mr.rule, "the notice was posted at %s, less than %s before the %s", x.e.shortTime(posted), x.e.Ord.Period(mr.notice).describe(), mr.name)
	}
	return nil
}

// RecordMailing records a certified mailing, return receipt requested, to a party.
type RecordMailing struct {
	Recipient Party  `json:"recipient"`
	Article   string `json:"article"`
	Mailed    Date   `json:"mailed,omitzero"` // zero: today
}

// Kind implements Action.
func (RecordMailing) Kind() string { return "mail" }

// NormalizeArticle returns a USPS article number without spaces, or an error if it is not
// 20 to 22 digits.
func NormalizeArticle(s string) (string, error) {
	if strings.ContainsAny(s, "\n\r\t") {
		return "", invalid("article", "(B)", "must be one line: an article number is 20 to 22 digits, spaces allowed")
	}
	n := strings.Join(strings.Fields(s), "")
	if len(n) < 20 || len(n) > 22 || strings.Trim(n, "0123456789") != "" {
		return "", invalid("article", "(B)", fmt.Sprintf("%q is not a USPS certified-mail article number: it has 20 to 22 digits, spaces allowed", s))
	}
	return n, nil
}

func (a RecordMailing) apply(x *applying) error {
	if a.Recipient != Respondent && a.Recipient != Complainant {
		return invalid("recipient", "(B)", fmt.Sprintf("%q is not a party: use respondent or complainant", a.Recipient))
	}
	article, err := NormalizeArticle(a.Article)
	if err != nil {
		return err
	}
	c := x.c
	if slices.ContainsFunc(c.Mailings, func(m Mailing) bool { return m.Article == article }) {
		return conflict("(B)", fmt.Sprintf("article %s is already recorded on case %s", article, c.Number))
	}
	mailed, err := x.stepDate("mailed", "(B)", a.Mailed, 0, "")
	if err != nil {
		return err
	}
	m := Mailing{Recipient: a.Recipient, Article: article, Mailed: mailed}
	switch c.State {
	case StateReceived, StateNoticesSent:
		// (B): the notices must give the sufficiency meeting's date, time and place.
		if !c.Sufficiency.Scheduled() {
			return conflict("(B)", "the notice must give the date, time and place of the sufficiency meeting; schedule that meeting first")
		}
		m.Satisfies, m.MeetingStart, m.MeetingPlace = "(B)", c.Sufficiency.Start, c.Sufficiency.Place
		if a.Recipient == Respondent && c.RespondentNoticeMailed.IsZero() {
			c.RespondentNoticeMailed = mailed
		}
		if a.Recipient == Complainant && c.ComplainantConfirmationMailed.IsZero() {
			c.ComplainantConfirmationMailed = mailed
		}
		if !c.RespondentNoticeMailed.IsZero() && !c.ComplainantConfirmationMailed.IsZero() {
			c.State = StateNoticesSent
		}
	case StateDismissed, StateHearingPending, StateHearingSet:
		if c.Decision == nil {
			m.Satisfies = "(C)(2)" // notice of the dismissal, or of the hearing date
		}
	}
	c.Mailings = append(c.Mailings, m)
	return nil
}

// RecordReturnReceipt records the signed return receipt of a certified mailing.
type RecordReturnReceipt struct {
	Article  string `json:"article"`
	Returned Date   `json:"returned,omitzero"` // zero: today
}

// Kind implements Action.
func (RecordReturnReceipt) Kind() string { return "return_receipt" }

func (a RecordReturnReceipt) apply(x *applying) error {
	article, err := NormalizeArticle(a.Article)
	if err != nil {
		return err
	}
	c := x.c
	i := slices.IndexFunc(c.Mailings, func(m Mailing) bool { return m.Article == article })
	if i < 0 {
		return &Error{Code: ENOTFOUND, Field: "article", Message: fmt.Sprintf("no mailing with article %s is recorded on case %s; record the mailing first", article, c.Number)}
	}
	returned, err := x.stepDate("returned", "(B)", a.Returned, c.Mailings[i].Mailed, "the mailing")
	if err != nil {
		return err
	}
	if !c.Mailings[i].Returned.IsZero() {
		return conflict("(B)", fmt.Sprintf("the return receipt for article %s was recorded on %s", article, c.Mailings[i].Returned.Long()))
	}
	c.Mailings[i].Returned = returned
	return nil
}

// Rule is the commission's (C) ruling at the sufficiency meeting.
type Rule struct {
	Ruling Ruling `json:"ruling"`
	On     Date   `json:"on,omitzero"` // zero: today
	Vote   *Vote  `json:"vote,omitempty"`

	// Override is why the ruling is recorded without the notices (C)(1) and (B) require.
	Override string `json:"override,omitempty"`
}

// Kind implements Action.
func (Rule) Kind() string { return "rule" }

func (a Rule) apply(x *applying) error {
	return x.voted(a.Vote, a.Kind(), "ruling: "+strings.ReplaceAll(string(a.Ruling), "_", " "), "(C)", func() error { return a.rule(x) })
}

// rule records the ruling, once the commission has adopted it.
func (a Rule) rule(x *applying) error {
	c := x.c
	if err := checkOverride("(C)(1)", a.Override); err != nil {
		return err
	}
	if err := x.needState("(C)(1)", "rule on sufficiency", StateReceived, StateNoticesSent); err != nil {
		return err
	}
	if !c.Sufficiency.Scheduled() || c.Sufficiency.Start.After(x.at) {
		return conflict("(C)(1)", "the commission rules at its sufficiency meeting; schedule it, and record the ruling once it has met")
	}
	on, err := x.stepDate("on", "(C)(1)", a.On, x.e.Cal.DateOf(c.Sufficiency.Start), "the sufficiency meeting")
	if err != nil {
		return err
	}
	c.Ruling, c.RulingDate = a.Ruling, on
	if err := validateRuling(&c.Facts, x.e.Ord); err != nil {
		return err
	}
	// (C)(1): the meeting needs 48 hours' public notice; (B): both parties told of it.
	if err := x.override("ruling", a.Override, append(x.noticeGap(SufficiencyMeeting, c.Sufficiency), x.mailingGaps()...)); err != nil {
		return err
	}
	switch a.Ruling {
	case Insufficient, NoProbableCause:
		c.State = StateDismissed
	case ProbableCause:
		c.State = StateHearingPending
	case JudicialReferral, AttorneyReferral:
		c.State = StateReferred
	}
	return nil
}

// RecessHearing records that the hearing recessed, to reconvene at a later session.
type RecessHearing struct {
	// Override is why it is recorded without the session's notice (D) requires.
	Override string `json:"override,omitempty"`
}

// Kind implements Action.
func (RecessHearing) Kind() string { return "recess_hearing" }

func (a RecessHearing) apply(x *applying) error {
	c := x.c
	if err := checkOverride("(D)", a.Override); err != nil {
		return err
	}
	if err := x.needState("(E)", "recess the hearing", StateHearingSet); err != nil {
		return err
	}
	s := c.currentSession()
	if s.Start.After(x.at) {
		return conflict("(E)", fmt.Sprintf("the hearing session at %s has not begun", x.e.shortTime(s.Start)))
	}
	if err := x.override("recess", a.Override, x.noticeGap(c.sessionKind(), s)); err != nil {
		return err
	}
	c.State = StateHearingRecessed
	c.HearingClosed = c.HearingClosed || s.Closed // (F): any closed session counts
	c.Recesses++
	return nil
}

// sessionKind is the kind of the hearing session now scheduled.
func (c *Case) sessionKind() MeetingKind {
	if c.Reconvened.Scheduled() {
		return RecessedHearing
	}
	return HearingMeeting
}

// currentSession is the hearing session now scheduled: the reconvened one if any.
func (c *Case) currentSession() Meeting {
	if c.Reconvened.Scheduled() {
		return c.Reconvened
	}
	return c.Hearing
}

// ConcludeHearing records that the hearing, or a recessed hearing, concluded.
type ConcludeHearing struct {
	On Date `json:"on,omitzero"` // zero: today

	// Override is why it is recorded without the session's notice (D) requires.
	Override string `json:"override,omitempty"`
}

// Kind implements Action.
func (ConcludeHearing) Kind() string { return "conclude_hearing" }

func (a ConcludeHearing) apply(x *applying) error {
	c := x.c
	if err := checkOverride("(D)", a.Override); err != nil {
		return err
	}
	if err := x.needState("(E)", "conclude the hearing", StateHearingSet); err != nil {
		return err
	}
	s := c.currentSession()
	if s.Start.After(x.at) {
		return conflict("(E)", fmt.Sprintf("the hearing session at %s has not begun", x.e.shortTime(s.Start)))
	}
	on, err := x.stepDate("on", "(E)", a.On, x.e.Cal.DateOf(s.Start), "the hearing session")
	if err != nil {
		return err
	}
	if err := x.override("hearing's conclusion", a.Override, x.noticeGap(c.sessionKind(), s)); err != nil {
		return err
	}
	c.State, c.HearingConcluded = StateHearingDone, on
	c.HearingClosed = c.HearingClosed || s.Closed // (F): any closed session counts
	return nil
}

// Decide is the (E) decision: dismissal, or a recommendation for discipline and/or a fine.
type Decide struct {
	Dismiss        bool   `json:"dismiss,omitempty"`
	Findings       string `json:"findings,omitempty"`
	Recommendation string `json:"recommendation,omitempty"`
	Fine           int    `json:"fine,omitempty"`
	On             Date   `json:"on,omitzero"` // zero: today
	Vote           *Vote  `json:"vote,omitempty"`
}

// Kind implements Action.
func (Decide) Kind() string { return "decide" }

func (a Decide) apply(x *applying) error {
	what := "decision: recommendation and/or fine (E)(2)"
	if a.Dismiss {
		what = "decision: dismiss (E)(1)"
	}
	return x.voted(a.Vote, a.Kind(), what, "(E)", func() error { return a.decide(x) })
}

// decide records the decision, once the commission has adopted it.
func (a Decide) decide(x *applying) error {
	c := x.c
	if err := x.needState("(E)", "decide: the decision follows the conclusion of the hearing", StateHearingDone); err != nil {
		return err
	}
	for _, check := range []error{
		checkText("findings", a.Findings, false, MaxText),
		checkText("recommendation", a.Recommendation, false, MaxText),
		x.checkFine(a.Fine),
	} {
		if check != nil {
			return check
		}
	}
	if a.Dismiss && (a.Recommendation != "" || a.Fine != 0) {
		return invalid("decision", "(E)", "a dismissal (E)(1) carries no recommendation or fine (E)(2)")
	}
	if !a.Dismiss && strings.TrimSpace(a.Recommendation) == "" && a.Fine == 0 {
		return invalid("decision", "(E)", "decide to dismiss (E)(1), or give a recommendation for discipline and/or a fine (E)(2)")
	}
	on, err := x.stepDate("on", "(E)", a.On, c.HearingConcluded, "the conclusion of the hearing")
	if err != nil {
		return err
	}
	c.Decision = &Decision{Dismissed: a.Dismiss, Findings: a.Findings, Recommendation: a.Recommendation, Fine: a.Fine, On: on}
	c.DecisionIssued = on
	if a.Dismiss {
		c.State = StateDismissed
		return nil
	}
	c.State, c.RecommendationIssued = StateDecided, on
	return nil
}

// DemandPublicHearing is the respondent's (F) written demand for a public hearing after a
// closed one. It stays enforcement of the recommendation or fine.
type DemandPublicHearing struct {
	Received Date `json:"received,omitzero"` // zero: today
}

// Kind implements Action.
func (DemandPublicHearing) Kind() string { return "demand_public_hearing" }

func (a DemandPublicHearing) apply(x *applying) error {
	c := x.c
	if err := x.needState("(F)", "record a demand for a public hearing: it follows a recommendation or fine", StateDecided); err != nil {
		return err
	}
	if !c.HearingClosed {
		return conflict("(F)", "the hearing was open to the public, so there is no right to demand a public hearing")
	}
	on, err := x.stepDate("received", "(F)", a.Received, c.RecommendationIssued, "the recommendation or fine")
	if err != nil {
		return err
	}
	window := x.e.after(PublicHearingDemand, c.RecommendationIssued)
	if on > window.Due {
		return invalid("received", "(F)", fmt.Sprintf("the demand came on %s, after the window closed on %s (%s)", on.Long(), window.Due.Long(), window.Basis()))
	}
	c.State, c.DemandReceived = StateDemanded, on
	return nil
}

// HoldPublicHearing records that the (F) public hearing was held.
type HoldPublicHearing struct {
	On Date `json:"on,omitzero"` // zero: today

	// Override is why it is recorded without the hearing's notice (F) requires.
	Override string `json:"override,omitempty"`
}

// Kind implements Action.
func (HoldPublicHearing) Kind() string { return "public_hearing_held" }

func (a HoldPublicHearing) apply(x *applying) error {
	c := x.c
	if err := checkOverride("(F)", a.Override); err != nil {
		return err
	}
	if err := x.needState("(F)", "record the public hearing as held", StatePublicSet); err != nil {
		return err
	}
	if c.PublicHearing.Start.After(x.at) {
		return conflict("(F)", fmt.Sprintf("the public hearing at %s has not begun", x.e.shortTime(c.PublicHearing.Start)))
	}
	on, err := x.stepDate("on", "(F)", a.On, x.e.Cal.DateOf(c.PublicHearing.Start), "the public hearing")
	if err != nil {
		return err
	}
	if err := x.override("public hearing", a.Override, x.noticeGap(PublicHearing, c.PublicHearing)); err != nil {
		return err
	}
	c.State, c.PublicHearingHeld = StatePublicHeld, on
	return nil
}

// IssueFinal is the (F) final recommendation, issued publicly after the public hearing.
type IssueFinal struct {
	Text string `json:"text"`
	Fine int    `json:"fine,omitempty"`
	On   Date   `json:"on,omitzero"` // zero: today
	Vote *Vote  `json:"vote,omitempty"`
}

// Kind implements Action.
func (IssueFinal) Kind() string { return "final_recommendation" }

func (a IssueFinal) apply(x *applying) error {
	return x.voted(a.Vote, a.Kind(), "final recommendation", "(F)", func() error { return a.issue(x) })
}

// issue records the final recommendation, once the commission has adopted it.
func (a IssueFinal) issue(x *applying) error {
	c := x.c
	if err := x.needState("(F)", "issue the final recommendation: it follows the public hearing", StatePublicHeld); err != nil {
		return err
	}
	if err := checkText("text", a.Text, true, MaxText); err != nil {
		return err
	}
	if err := x.checkFine(a.Fine); err != nil {
		return err
	}
	on, err := x.stepDate("on", "(F)", a.On, c.PublicHearingHeld, "the public hearing")
	if err != nil {
		return err
	}
	c.Final = &Finding{Text: a.Text, Fine: a.Fine, On: on}
	c.State, c.FinalRecommendation = StateFinal, on
	return nil
}

// FindFrivolous is the (H) finding that the complainant knowingly filed a frivolous
// complaint, with a fine against the complainant.
type FindFrivolous struct {
	Findings string `json:"findings"`
	Fine     int    `json:"fine"`
	On       Date   `json:"on,omitzero"` // zero: today
	Vote     *Vote  `json:"vote,omitempty"`
}

// Kind implements Action.
func (FindFrivolous) Kind() string { return "frivolous" }

func (a FindFrivolous) apply(x *applying) error {
	return x.voted(a.Vote, a.Kind(), "finding that the complaint was knowingly frivolous", "(H)", func() error { return a.find(x) })
}

// find records the (H) finding, once the commission has adopted it.
func (a FindFrivolous) find(x *applying) error {
	c := x.c
	if err := x.needState("(H)", "find the complaint frivolous: only a dismissed complaint can be", StateDismissed); err != nil {
		return err
	}
	if c.Frivolous != nil {
		return conflict("(H)", fmt.Sprintf("the complaint was already found frivolous on %s", c.Frivolous.On.Long()))
	}
	if err := checkText("findings", a.Findings, true, MaxText); err != nil {
		return err
	}
	if a.Fine == 0 {
		return invalid("fine", "(H)", fmt.Sprintf("required: from $%s to $%s", Dollars(x.e.Ord.FineMin), Dollars(x.e.Ord.FineMax)))
	}
	if err := x.checkFine(a.Fine); err != nil {
		return err
	}
	dismissed := c.DecisionIssued // (E)(1), or the (C)(2) ruling
	if dismissed.IsZero() {
		dismissed = c.RulingDate
	}
	on, err := x.stepDate("on", "(H)", a.On, dismissed, "the dismissal")
	if err != nil {
		return err
	}
	c.Frivolous = &Finding{Text: a.Findings, Fine: a.Fine, On: on}
	return nil
}

// AddCandidacy records an election at which the respondent is a candidate. A complaint
// received in the (G) period before it is expedited.
type AddCandidacy struct {
	Election Date `json:"election"`
}

// Kind implements Action.
func (AddCandidacy) Kind() string { return "candidacy" }

func (a AddCandidacy) apply(x *applying) error {
	c := x.c
	if a.Election.IsZero() {
		return invalid("election", "(G)", "required: the date of the election")
	}
	if c.State.Closed() || c.Decision != nil {
		return conflict("(G)", fmt.Sprintf("case %s is %s; (G) concerns the decision, which has been made", c.Number, describeState(c.State)))
	}
	if slices.Contains(c.Elections, a.Election) {
		return conflict("(G)", fmt.Sprintf("the election on %s is already recorded", a.Election.Long()))
	}
	wasExpedited := x.e.Schedule(&c.Facts, time.Time{}).Expedited
	c.Elections = append(c.Elections, a.Election)
	if s := x.e.Schedule(&c.Facts, time.Time{}); s.Expedited && !wasExpedited {
		d, _ := s.Find(ElectionDecision)
		x.warn("(G)", "EXPEDITED: the complaint was received within %d days before the election on %s; the decision is due by %s", x.e.Ord.Period(ElectionPeriod).Amount, s.Election.Long(), d.Due.Long())
	}
	return nil
}

// actionDecoders reads each Kind of action back from the event log.
var actionDecoders = map[string]func([]byte) (Action, error){
	File{}.Kind():                decodeAs[File],
	ScheduleMeeting{}.Kind():     decodeAs[ScheduleMeeting],
	CancelMeeting{}.Kind():       decodeAs[CancelMeeting],
	PostNotice{}.Kind():          decodeAs[PostNotice],
	RecordMailing{}.Kind():       decodeAs[RecordMailing],
	RecordReturnReceipt{}.Kind(): decodeAs[RecordReturnReceipt],
	Rule{}.Kind():                decodeAs[Rule],
	RecessHearing{}.Kind():       decodeAs[RecessHearing],
	ConcludeHearing{}.Kind():     decodeAs[ConcludeHearing],
	Decide{}.Kind():              decodeAs[Decide],
	DemandPublicHearing{}.Kind(): decodeAs[DemandPublicHearing],
	HoldPublicHearing{}.Kind():   decodeAs[HoldPublicHearing],
	IssueFinal{}.Kind():          decodeAs[IssueFinal],
	FindFrivolous{}.Kind():       decodeAs[FindFrivolous],
	AddCandidacy{}.Kind():        decodeAs[AddCandidacy],
	Recuse{}.Kind():              decodeAs[Recuse],
	Correct{}.Kind():             decodeAs[Correct],
	Void{}.Kind():                decodeAs[Void],
}

func decodeAs[T Action](payload []byte) (Action, error) {
	var a T
	err := json.Unmarshal(payload, &a)
	return a, err
}

// DecodeAction reads an action back from its kind and JSON payload, as the event log
// stores them.
func DecodeAction(kind string, payload []byte) (Action, error) {
	decode, ok := actionDecoders[kind]
	if !ok {
		return nil, invalid("kind", "", fmt.Sprintf("unknown action %q", kind))
	}
	a, err := decode(payload)
	if err != nil {
		return nil, invalid("payload", "", fmt.Sprintf("cannot read a %s action: %v", kind, err))
	}
	return a, nil
}
