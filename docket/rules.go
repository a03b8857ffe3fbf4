package docket

import (
	"fmt"
	"slices"
	"strings"
)

// DeadlineID names a deadline the ordinance sets. These IDs are used everywhere: in JSON,
// in the database and in reminders.
type DeadlineID string

// The ordinance's deadlines, in the order a case meets them.
const (
	FilingLimit              DeadlineID = "filing_limit"
	RespondentNotice         DeadlineID = "respondent_notice"
	ComplainantConfirmation  DeadlineID = "complainant_confirmation"
	SufficiencyRuling        DeadlineID = "sufficiency_ruling"
	SufficiencyMeetingNotice DeadlineID = "sufficiency_meeting_notice"
	HearingBy                DeadlineID = "hearing_by"
	HearingNotice            DeadlineID = "hearing_notice"
	DecisionDue              DeadlineID = "decision"
	ElectionDecision         DeadlineID = "election_decision"
	PublicHearingDemand      DeadlineID = "public_hearing_demand"
	PublicHearingBy          DeadlineID = "public_hearing"
	PublicHearingNotice      DeadlineID = "public_hearing_notice"
	FinalRecommendationDue   DeadlineID = "final_recommendation"
	// (H): the public notice of the meeting at which a complainant is heard before a
	// finding that the complaint was knowingly frivolous.
	FrivolousMeetingNotice DeadlineID = "frivolous_meeting_notice"

	// (C)(1): the ruling's notice to each party, within the ruling's 7 business days.
	RulingNoticeRespondent  DeadlineID = "ruling_notice_respondent"
	RulingNoticeComplainant DeadlineID = "ruling_notice_complainant"

	// Papers the ordinance requires without a time limit: tracked as open tasks.
	AdjudicationTask             DeadlineID = "adjudication_request"           // (C)(2)
	ReferralTask                 DeadlineID = "referral_transmittal"           // (C)(3)
	RecommendationRespondentTask DeadlineID = "recommendation_respondent"      // (E)(2)
	RecommendationOfficerTask    DeadlineID = "recommendation_officer"         // (E)(2)
	FinalRespondentTask          DeadlineID = "final_respondent"               // (F)
	FinalOfficerTask             DeadlineID = "final_officer"                  // (F)
	DismissalRespondentTask      DeadlineID = "dismissal_decision_respondent"  // (E)(1)
	DismissalComplainantTask     DeadlineID = "dismissal_decision_complainant" // (E)(1)
	FrivolousNoticeTask          DeadlineID = "frivolous_notice"               // (H)
	FrivolousFindingTask         DeadlineID = "frivolous_finding"              // (H)
	RecessedRespondentTask       DeadlineID = "recessed_hearing_respondent"    // (D)
	RecessedComplainantTask      DeadlineID = "recessed_hearing_complainant"   // (D)
	DemandAcknowledgementTask    DeadlineID = "demand_acknowledgement"         // (F)
	PublicHearingRespondentTask  DeadlineID = "public_hearing_respondent"      // (F)
	PublicHearingComplainantTask DeadlineID = "public_hearing_complainant"     // (F)

	// FinePayment is when a fine imposed under (E)(2), (F) or (H) is due. The ordinance
	// sets no time to pay; this is the commission's own term, counted in calendar days
	// from the day the fine may be enforced (Engine.Fines), so that every letter imposing
	// or confirming a fine gives a date, and the docket knows when one is overdue.
	FinePayment DeadlineID = "fine_payment"
	// ReferralFollowUp is when the clerk next asks the attorney where a referral stands
	// (C)(2), (C)(3): the ordinance hands the matter over and says nothing more; the
	// commission follows it at its own interval (referrals.remind_days) until it is closed.
	ReferralFollowUp DeadlineID = "referral_follow_up"

	// ElectionPeriod is not a deadline but the (G) window before an election in which a
	// complaint is expedited. It is a period like the others, so it is configured the same way.
	ElectionPeriod DeadlineID = "election_period"
)

// Unit is what a period counts.
type Unit string

// Units a period may count in.
const (
	BusinessDays Unit = "business_days" // the Nth business day strictly after the trigger
	Days         Unit = "days"          // calendar days, then rolled to a business day
	Weeks        Unit = "weeks"         // 7 calendar days each, then rolled
	Years        Unit = "years"         // same month and day, then rolled
	Hours        Unit = "hours"         // an exact duration before a meeting starts
	Task         Unit = "task"          // no time limit: a step the ordinance requires, tracked until done
)

// Clerical reports whether meeting the period's deadline is the clerk's work rather than
// an act of the commission: a paper to send or deliver ((B), (C)(1), (C)(2), (E)(2), (F)),
// a meeting's notice to post ((C)(1), (D), (F), 5 ILCS 120/2.02), or the next step of
// certified mail that came back. The others (the ruling, the hearing scheduled and held,
// the decision, the final recommendation) the commission takes as a body, at a meeting.
// Reminders are routed by it (reminders.Routes).
func (p *Period) Clerical() bool {
	return p.Clerk || len(p.Papers) > 0 || len(p.Meetings) > 0 || strings.HasPrefix(string(p.ID), resendPrefix)
}

// Party says who must act by a deadline.
type Party string

// Parties that owe a deadline.
const (
	Commission  Party = "commission"
	Respondent  Party = "respondent" // the (F) window is the respondent's right, not a duty
	Complainant Party = "complainant"
)

// Period is one step of the procedure, as the ordinance sets it: one row of its table of
// time limits and of the papers and tasks it requires. Every consumer reads the row: the
// schedule counts its period from its trigger, the reminders, the docket and the case
// card say its Duty, the reminders and the digest give the command that records it, and
// the papers owed and the letters follow its Papers. TestStepsTable walks the table and
// fails on a row that lacks what a consumer needs.
type Period struct {
	ID     DeadlineID
	Rule   string // subsection, e.g. "(C)(1)"
	Amount int
	Unit   Unit
	// Trigger is what the period counts from, e.g. "receipt".
	Trigger string
	// Duty is what must happen by the deadline, in the words of its reminder, its line on
	// the docket and the case card, and a correction's recalculation.
	Duty  string
	Party Party // who must act
	// Papers are the papers whose sending completes the step, the usual one first: the
	// (C)(1) notice of the ruling is the (C)(2) notice of dismissal when the ruling
	// dismissed the complaint (Case.PaperFor chooses). Recording one sent, with
	// `/ethics mail` or `/ethics delivered`, meets it.
	Papers []Paper
	// Record is the /ethics command, without "/ethics", that records a step no paper
	// completes: {case} stands for the case number and {meeting} for the meeting whose
	// notice is due (see Case.Command). Empty for a step the commission does not record
	// itself: the complainant's filing (I), the respondent's demand (F), the (G) window.
	Record string
	// Meetings are the meetings whose public notice the row's period gives: a row in
	// hours has one or more; MeetingKind.Notice reads them.
	Meetings []MeetingKind
	// Due and Done schedule a step from its row alone: Due gives the dates its period
	// counts from in the facts (in the engine's zone), one deadline each, and Done the
	// dates it was done, the i-th for the i-th (a zero date: not yet); without a Done, the
	// dates its paper was sent, as Facts.PapersSent keeps them. For a row with papers, the
	// papers owed and Case.Needs read them too, for how many dates each gives, which must
	// then depend neither on the zone nor on a period's length. A row counted in hours has no Due: its
	// deadlines are the public notices of its Meetings the facts schedule, each met when
	// posted. Only (G)'s window, not a step, has neither.
	Due  func(e *Engine, f *Facts) []Date
	Done func(e *Engine, f *Facts) []Date
	// Implied says that a later fact implies the step was done, on a date the facts do not
	// give: its deadline is then met, as sparse facts are read (the ruling issued, so the
	// meeting at which it issued was held).
	Implied func(f *Facts) bool
	// Rules are, for a row whose deadlines answer to different acts, the rule of each, the
	// i-th for the i-th: a fine's is the act that imposed it. Nil: the row's Rule.
	Rules func(e *Engine, f *Facts) []string
	// Count counts the deadline from a date Due gave, where the period alone does not:
	// (G)'s decision, due by the eve of the election at the latest. Nil: the period after
	// the date (Engine.after).
	Count func(e *Engine, f *Facts, from Date) Deadline
	// Owed says whether case c owes the row's paper, where that is not whether Due gives
	// more dates than Done: the (C)(1) notice of the ruling is owed once the commission
	// has ruled, though its deadline runs from receipt. Nil: that count (Case.PapersOwed).
	Owed func(c *Case) bool
	// Needs says whether case c needs the row's paper info now, or why not, naming the
	// rule (Case.Needs): what the paper must say has been decided. Nil: once Due gives a
	// date.
	Needs func(c *Case, info PaperInfo) error
	// Moot, for a task, says when its paper is no longer called for though never recorded
	// as sent: the notice of a hearing once the hearing has been held. It is then neither
	// reminded nor owed (Case.PapersOwed), so it does not keep the case open; it may still
	// be recorded as sent. A case closed by an ethicsbot that did not yet have the task
	// stays closed when a newer one reads its record (store.Verify compares the two).
	Moot func(f *Facts) bool
	// Clerk marks a step the clerk records that is neither a paper nor a notice: a fine's
	// payment (Clerical).
	Clerk bool
	units []Unit // the units this period may be configured in
}

var (
	dateUnits   = []Unit{BusinessDays, Days, Weeks, Years}
	noticeUnits = []Unit{Hours}
	windowUnits = []Unit{Days, Weeks}
)

// posted is the command that records a meeting's notice as posted (C)(1), (D), (F), (H).
const posted = "posted {case} {meeting}"

// defaultPeriods is the ordinance's table, in the order deadlines are listed: one row per
// step of the procedure.
var defaultPeriods = []Period{
	// (I): "A complaint ... must be filed within one year after the alleged violation."
	// The complainant's limit, not the commission's: nothing to record or remind.
	{ID: FilingLimit, Rule: "(I)", Amount: 1, Unit: Years, Trigger: "the alleged violation",
		Duty: "complaint filed", Party: Complainant, units: dateUnits,
		Due: func(_ *Engine, f *Facts) []Date { return once(f.ViolationDate) }, Done: fromReceipt},
	// (B): "Within three business days after the receipt of a complaint, the commission
	// shall send by certified mail, return receipt requested, a notice to the respondent."
	{ID: RespondentNotice, Rule: "(B)", Amount: 3, Unit: BusinessDays, Trigger: "receipt",
		Duty:  "respondent notice by certified mail",
		Party: Commission, units: dateUnits, Papers: []Paper{RespondentNoticePaper},
		Due: fromReceipt, Done: func(_ *Engine, f *Facts) []Date { return once(f.RespondentNoticeMailed) },
		Needs: sufficiencyGiven},
	// (B): "... a confirmation of the receipt of the complaint to the complainant within
	// three business days after receipt by the commission", by certified mail too.
	{ID: ComplainantConfirmation, Rule: "(B)", Amount: 3, Unit: BusinessDays, Trigger: "receipt",
		Duty:  "complainant confirmation by certified mail",
		Party: Commission, units: dateUnits, Papers: []Paper{ComplainantConfirmPaper},
		Due: fromReceipt, Done: func(_ *Engine, f *Facts) []Date { return once(f.ComplainantConfirmationMailed) },
		Needs: sufficiencyGiven},
	// (C)(1): the ruling on sufficiency and probable cause, "within seven business days
	// after receiving the complaint", at the meeting (C)(1) notices.
	{ID: SufficiencyRuling, Rule: "(C)(1)", Amount: 7, Unit: BusinessDays, Trigger: "receipt",
		Duty:  "sufficiency and probable-cause ruling",
		Party: Commission, units: dateUnits, Record: "rule {case} <ruling>",
		Due: fromReceipt, Done: func(e *Engine, f *Facts) []Date { return once(f.rulingDay(e.Cal)) },
		Implied: func(f *Facts) bool { return f.Ruling != "" || f.hearingPath() }},
	// (C)(1): "notice to the complainant and the respondent of the commission's ruling ...
	// within seven business days after receiving the complaint"; (C)(2): for a dismissal,
	// the notice of dismissal by certified mail is that notice.
	{ID: RulingNoticeRespondent, Rule: "(C)(1)", Amount: 7, Unit: BusinessDays, Trigger: "receipt",
		Duty:  "notice of the ruling to the respondent",
		Party: Commission, units: dateUnits, Papers: []Paper{RulingToRespondent, DismissalToRespondent},
		Due: fromReceipt, Done: func(_ *Engine, f *Facts) []Date { return once(f.RulingNoticeRespondent) },
		Owed: func(c *Case) bool { return c.Ruling != "" && c.RulingNoticeRespondent.IsZero() }, Needs: rulingNoticed},
	{ID: RulingNoticeComplainant, Rule: "(C)(1)", Amount: 7, Unit: BusinessDays, Trigger: "receipt",
		Duty:  "notice of the ruling to the complainant",
		Party: Commission, units: dateUnits, Papers: []Paper{RulingToComplainant, DismissalToComplainant},
		Due: fromReceipt, Done: func(_ *Engine, f *Facts) []Date { return once(f.RulingNoticeComplainant) },
		Owed: func(c *Case) bool { return c.Ruling != "" && c.RulingNoticeComplainant.IsZero() }, Needs: rulingNoticed},
	// (C)(2): "the commission may elect to notify in writing the attorney ... and request
	// that the complaint be adjudicated judicially": no time limit, a task.
	{ID: AdjudicationTask, Rule: "(C)(2)", Unit: Task, Trigger: "the ruling",
		Duty:  "written request to the attorney for judicial adjudication",
		Party: Commission, Papers: []Paper{AdjudicationRequest}, Due: adjudicationElected,
		Done: func(_ *Engine, f *Facts) []Date { return once(f.AdjudicationRequested) },
		Needs: func(c *Case, info PaperInfo) error {
			return c.needIf(info, c.Ruling == JudicialReferral, "the ruling was not judicial_referral")
		}},
	// (C)(3): "shall transmit to the attorney the complaint and all additional documents".
	{ID: ReferralTask, Rule: "(C)(3)", Unit: Task, Trigger: "the ruling",
		Duty:  "transmittal of the complaint and its documents to the attorney",
		Party: Commission, Papers: []Paper{ReferralTransmittal}, Due: referredToAttorney,
		Done: func(_ *Engine, f *Facts) []Date { return once(f.ReferralTransmitted) },
		Needs: func(c *Case, info PaperInfo) error {
			return c.needIf(info, c.Ruling == AttorneyReferral || c.ReferralRuling == AttorneyReferral,
				"no part of it was ruled attorney_referral")
		}},
	// (C)(1): "Upon not less than 48 hours' public notice, the commission shall meet."
	{ID: SufficiencyMeetingNotice, Rule: "(C)(1)", Amount: 48, Unit: Hours, Trigger: "the sufficiency meeting",
		Duty:  "public notice of the sufficiency meeting",
		Party: Commission, units: noticeUnits, Record: posted, Meetings: []MeetingKind{SufficiencyMeeting}},
	// (C)(2): "a hearing date scheduled within four weeks after the complaint's receipt".
	{ID: HearingBy, Rule: "(C)(2)", Amount: 4, Unit: Weeks, Trigger: "receipt",
		Duty:  "hearing date scheduled",
		Party: Commission, units: dateUnits, Record: `schedule {case} hearing <start> place="..."`,
		Due: func(e *Engine, f *Facts) []Date {
			if !f.hearingPath() {
				return nil
			}
			return fromReceipt(e, f)
		},
		Done: func(e *Engine, f *Facts) []Date {
			if !f.Hearing.Scheduled() {
				return nil
			}
			return []Date{e.Cal.DateOf(f.Hearing.Start)}
		},
		Implied: (*Facts).hearingBegun},
	// (D): "upon at least 48 hours' public notice of the meeting", and of each session of a
	// recessed hearing (E).
	{ID: HearingNotice, Rule: "(D)", Amount: 48, Unit: Hours, Trigger: "the hearing",
		Duty:  "public notice of the hearing",
		Party: Commission, units: noticeUnits, Record: posted,
		Meetings: []MeetingKind{HearingMeeting, RecessedHearing}},
	// (E): "Within 30 days after the date the hearing or any recessed hearing is concluded".
	{ID: DecisionDue, Rule: "(E)", Amount: 30, Unit: Days, Trigger: "the hearing concluded",
		Duty:  "decision: dismissal, or recommendation and/or fine",
		Party: Commission, units: dateUnits, Record: "decide {case} <outcome>",
		Due:     func(_ *Engine, f *Facts) []Date { return once(f.HearingConcluded) },
		Done:    func(_ *Engine, f *Facts) []Date { return once(f.DecisionIssued) },
		Implied: (*Facts).afterDecision},
	// (G): "the Commission shall render its decision as required under division (E) within
	// seven days after the complaint is filed".
	{ID: ElectionDecision, Rule: "(G)", Amount: 7, Unit: Days, Trigger: "receipt",
		Duty:  "expedited (E) decision before the election",
		Party: Commission, units: dateUnits, Record: "decide {case} <outcome>",
		Due: func(e *Engine, f *Facts) []Date {
			if _, ok := e.expeditingElection(e.Cal.DateOf(f.Received), f.Elections); !ok {
				return nil
			}
			return fromReceipt(e, f)
		},
		Count: func(e *Engine, f *Facts, received Date) Deadline {
			election, _ := e.expeditingElection(received, f.Elections)
			return e.electionDecision(received, election)
		},
		// Disposed of at (C), or decided under (E), on a date not given.
		Done:    func(e *Engine, f *Facts) []Date { return once(f.decided(e.Cal)) },
		Implied: func(f *Facts) bool { return f.disposedAtC() || f.afterDecision() }},
	// (F): the respondent's written demand, "within seven business days after the issuance
	// of the recommendation for discipline or imposition of a fine": a right, not a duty.
	{ID: PublicHearingDemand, Rule: "(F)", Amount: 7, Unit: BusinessDays,
		Trigger: "the recommendation or fine was issued",
		Duty:    "respondent's demand for a public hearing", Party: Respondent, units: dateUnits,
		Due: func(_ *Engine, f *Facts) []Date {
			if !f.HearingClosed {
				return nil
			}
			return once(f.RecommendationIssued)
		},
		Done: func(_ *Engine, f *Facts) []Date { return once(f.DemandReceived) },
		Implied: func(f *Facts) bool {
			return f.PublicHearing.Scheduled() || !f.PublicHearingHeld.IsZero() || !f.FinalRecommendation.IsZero()
		}},
	// (F): "Within 14 days after receiving the demand, the commission shall conduct a public
	// hearing".
	{ID: PublicHearingBy, Rule: "(F)", Amount: 14, Unit: Days, Trigger: "the demand was received",
		Duty: "public hearing held", Party: Commission, units: dateUnits, Record: "held {case}",
		Due:     func(_ *Engine, f *Facts) []Date { return once(f.DemandReceived) },
		Done:    func(_ *Engine, f *Facts) []Date { return once(f.PublicHearingHeld) },
		Implied: (*Facts).finalIssued},
	// (F): "upon at least 48 hours' public notice of the hearing".
	{ID: PublicHearingNotice, Rule: "(F)", Amount: 48, Unit: Hours, Trigger: "the public hearing",
		Duty:  "public notice of the public hearing",
		Party: Commission, units: noticeUnits, Record: posted, Meetings: []MeetingKind{PublicHearing}},
	// (F): "Within seven days thereafter, the commission shall publicly issue a final
	// recommendation".
	{ID: FinalRecommendationDue, Rule: "(F)", Amount: 7, Unit: Days, Trigger: "the public hearing was held",
		Duty:  "final recommendation issued publicly",
		Party: Commission, units: dateUnits, Record: `final {case} text="..."`,
		Due:     func(_ *Engine, f *Facts) []Date { return once(f.PublicHearingHeld) },
		Done:    func(_ *Engine, f *Facts) []Date { return once(f.FinalRecommendation) },
		Implied: func(f *Facts) bool { return !f.FinalToResp.IsZero() || !f.FinalToOff.IsZero() }},
	// (H): the ordinance fines only a person who "knowingly files a frivolous complaint";
	// the complainant is heard first, at a meeting noticed like the others (48 hours, as
	// (C)(1), (D) and (F) give every meeting on a complaint), and told of it by certified
	// mail, as (B) tells the parties of the first meeting.
	{ID: FrivolousMeetingNotice, Rule: "(H)", Amount: 48, Unit: Hours, Trigger: "the (H) meeting",
		Duty:  "public notice of the meeting on a frivolous complaint",
		Party: Commission, units: noticeUnits, Record: posted, Meetings: []MeetingKind{FrivolousMeeting}},
	// (H): the complainant's certified notice of the meeting at which to be heard.
	{ID: FrivolousNoticeTask, Rule: "(H)", Unit: Task, Trigger: "the decision to hold the (H) meeting",
		Duty:  "certified notice to the complainant of the meeting at which to be heard",
		Party: Commission, Papers: []Paper{FrivolousNotice}, Due: frivolousHeard,
		Done: func(_ *Engine, f *Facts) []Date { return once(f.FrivolousNoticeMailed) },
		// Owed until the finding is made, which the notice was to let the complainant answer.
		Owed: func(c *Case) bool {
			return c.FrivolousHearing.Scheduled() && c.Frivolous == nil && c.FrivolousNoticeMailed.IsZero()
		}, Needs: frivolousMeetingSet},
	// (E)(2), (F), (H): the ordinance is silent on when a fine is paid. The commission
	// sets a term (payment.due_days), counted from the day enforcement may begin: the
	// day of the fine, or, after a closed hearing, the day (F)'s window to demand a public
	// hearing closes with no demand. The clerk records its payment, its referral for
	// collection or the commission's waiver (SettleFine), and is reminded until then.
	{ID: FinePayment, Rule: "(E)(2)", Amount: 30, Unit: Days, Trigger: "the fine became enforceable",
		Duty: "fine paid, referred for collection or waived", Party: Commission, units: []Unit{Days}, Clerk: true,
		Record: "fine {case} paid amount=<dollars> receipt=<no.>",
		Due: func(e *Engine, f *Facts) []Date {
			return mapped(e.enforceable(f), func(fe enforceableFine) Date { return fe.from })
		},
		Done: func(e *Engine, f *Facts) []Date {
			return mapped(e.enforceable(f), func(fe enforceableFine) Date { return fe.Settled })
		},
		Rules: func(e *Engine, f *Facts) []string {
			return mapped(e.enforceable(f), func(fe enforceableFine) string { return fe.Rule })
		}},
	// (C)(2), (C)(3): a referral to the attorney is followed at the commission's interval,
	// from its sending or the attorney's last report, until it is closed with its outcome.
	{ID: ReferralFollowUp, Rule: "(C)(3)", Amount: 30, Unit: Days, Trigger: "the referral's sending or last report",
		Duty: "the attorney's report on the referral recorded", Party: Commission, units: []Unit{Days}, Clerk: true,
		Record: `referral {case} status="..."`,
		Due:    func(_ *Engine, f *Facts) []Date { return mapped(f.Referrals, func(r Referral) Date { return r.Last }) },
		Done: func(_ *Engine, f *Facts) []Date {
			return mapped(f.Referrals, func(r Referral) Date { return r.Closed })
		},
		Rules: func(_ *Engine, f *Facts) []string { return mapped(f.Referrals, Referral.Rule) }},
	// (E)(2): "Issue a recommendation for discipline to the alleged violator and to the
	// chief executive officer or other officer having authority to discipline".
	{ID: RecommendationRespondentTask, Rule: "(E)(2)", Unit: Task, Trigger: "the decision",
		Duty: "recommendation delivered to the respondent", Party: Commission, Papers: []Paper{RecommendationToResp},
		Due: recommended, Done: func(_ *Engine, f *Facts) []Date { return once(f.RecommendationToResp) },
		Needs: recommendationIssued},
	{ID: RecommendationOfficerTask, Rule: "(E)(2)", Unit: Task, Trigger: "the decision",
		Duty:  "recommendation delivered to the officer with authority to discipline",
		Party: Commission, Papers: []Paper{RecommendationToOfficer},
		Due: recommended, Done: func(_ *Engine, f *Facts) []Date { return once(f.RecommendationToOff) },
		Needs: recommendationIssued},
	// (F): "publicly issue a final recommendation to the alleged violator and to the chief
	// executive officer or other officer having authority to discipline".
	{ID: FinalRespondentTask, Rule: "(F)", Unit: Task, Trigger: "the final recommendation",
		Duty: "final recommendation delivered to the respondent", Party: Commission, Papers: []Paper{FinalToRespondent},
		Due: finallyRecommended, Done: func(_ *Engine, f *Facts) []Date { return once(f.FinalToResp) },
		Needs: finalIssued},
	{ID: FinalOfficerTask, Rule: "(F)", Unit: Task, Trigger: "the final recommendation",
		Duty:  "final recommendation delivered to the officer with authority to discipline",
		Party: Commission, Papers: []Paper{FinalToOfficer},
		Due: finallyRecommended, Done: func(_ *Engine, f *Facts) []Date { return once(f.FinalToOff) },
		Needs: finalIssued},
	// (E)(1): a dismissal after a hearing is a decision on a complaint both parties were
	// heard on; the ordinance sets no form, so it is a task without a date, like (E)(2)'s.
	{ID: DismissalRespondentTask, Rule: "(E)(1)", Unit: Task, Trigger: "the decision",
		Duty:  "notice of the dismissal delivered to the respondent",
		Party: Commission, Papers: []Paper{DecisionDismissalToResp},
		Due: dismissedAfterHearing, Done: func(_ *Engine, f *Facts) []Date { return once(f.DismissalToResp) },
		Needs: dismissalDecided},
	{ID: DismissalComplainantTask, Rule: "(E)(1)", Unit: Task, Trigger: "the decision",
		Duty:  "notice of the dismissal delivered to the complainant",
		Party: Commission, Papers: []Paper{DecisionDismissalToComp},
		Due: dismissedAfterHearing, Done: func(_ *Engine, f *Facts) []Date { return once(f.DismissalToComp) },
		Needs: dismissalDecided},
	// (H): the finding and the fine, with how and by when to pay, to the person fined by
	// certified mail; a task from the day of the finding until its mailing is recorded.
	{ID: FrivolousFindingTask, Rule: "(H)", Unit: Task, Trigger: "the (H) finding",
		Duty:  "certified notice to the complainant of the finding and the fine",
		Party: Commission, Papers: []Paper{FrivolousFinding}, Due: frivolousFound},
	// (D), (E): a recessed hearing reconvenes on a date no earlier notice gave, and both
	// parties must have the opportunity to be heard at it: each is told, a task from the day
	// the session is set until its notice is recorded as sent.
	{ID: RecessedRespondentTask, Rule: "(D)", Unit: Task, Trigger: "the recessed hearing's date",
		Duty: "notice of the recessed hearing to the respondent", Party: Commission, Papers: []Paper{RecessedToRespondent},
		Due: reconvening, Moot: hearingHeard, Needs: meetingScheduled},
	{ID: RecessedComplainantTask, Rule: "(D)", Unit: Task, Trigger: "the recessed hearing's date",
		Duty: "notice of the recessed hearing to the complainant", Party: Commission, Papers: []Paper{RecessedToComplainant},
		Due: reconvening, Moot: hearingHeard, Needs: meetingScheduled},
	// (F): the respondent's written demand stays enforcement; it is acknowledged in writing,
	// and both parties are told of the public hearing, at which they must be allowed "the
	// opportunity to present testimony and evidence".
	{ID: DemandAcknowledgementTask, Rule: "(F)", Unit: Task, Trigger: "the respondent's demand",
		Duty: "acknowledgement of the demand for a public hearing", Party: Commission, Papers: []Paper{DemandAcknowledgement},
		Due: demanded, Moot: publicHearingHeard, Needs: func(c *Case, info PaperInfo) error {
			return c.needIf(info, !c.DemandReceived.IsZero(), "no demand for a public hearing has been recorded")
		}},
	{ID: PublicHearingRespondentTask, Rule: "(F)", Unit: Task, Trigger: "the public hearing's date",
		Duty: "notice of the public hearing to the respondent", Party: Commission, Papers: []Paper{PublicHearingToResp},
		Due: publicHearingSet, Moot: publicHearingHeard, Needs: meetingScheduled},
	{ID: PublicHearingComplainantTask, Rule: "(F)", Unit: Task, Trigger: "the public hearing's date",
		Duty: "notice of the public hearing to the complainant", Party: Commission, Papers: []Paper{PublicHearingToComp},
		Due: publicHearingSet, Moot: publicHearingHeard, Needs: meetingScheduled},
	// (G): "filed during the 60 days preceding the date of any election at which the
	// respondent is a candidate": a window, not a step.
	{ID: ElectionPeriod, Rule: "(G)", Amount: 60, Unit: Days, Trigger: "the election",
		Duty: "expedited track for complaints filed before an election", Party: Commission, units: windowUnits},
}

// Ordinance is the commission's ordinance as data: its periods, its fine range and the
// section numbers that decide where a sufficient complaint goes. The defaults are this
// city's; other towns that adopted the same model ordinance change the numbers by
// configuration alone.
type Ordinance struct {
	periods []Period

	// (H): fines are whole dollars from FineMin to FineMax.
	FineMin, FineMax int
	// (C)(2): a sufficient complaint under HearingSection with probable cause goes to a hearing.
	HearingSection string
	// (C)(3): a sufficient complaint under ReferralSection goes to the corporation's attorney.
	ReferralSection string
}

// DefaultOrdinance returns this city's ordinance: Ord. O-16-04.
func DefaultOrdinance() Ordinance {
	return Ordinance{
		periods:         append([]Period(nil), defaultPeriods...),
		FineMin:         1001,
		FineMax:         5000,
		HearingSection:  "103.10",
		ReferralSection: "103.05",
	}
}

// Periods returns the table, in order.
func (o Ordinance) Periods() []Period { return append([]Period(nil), o.periods...) }

// Period returns the row for id. Every DeadlineID has one; the row is shared and must not
// be changed (Override copies the table before changing it).
func (o Ordinance) Period(id DeadlineID) *Period {
	for i := range o.periods {
		if o.periods[i].ID == id {
			return &o.periods[i]
		}
	}
	panic("docket: no period " + string(id)) // unreachable: every DeadlineID is in defaultPeriods
}

// Override changes one period's amount and unit. A unit the period cannot count in, or an
// amount out of range, is refused and o is unchanged.
func (o *Ordinance) Override(id DeadlineID, amount int, unit Unit) error {
	for i, p := range o.periods {
		if p.ID != id {
			continue
		}
		if len(p.units) == 0 {
			return fmt.Errorf("%s %s has no time limit in the ordinance, so there is no period to configure", id, p.Rule)
		}
		if unit == "" {
			unit = p.Unit
		}
		if !slices.Contains(p.units, unit) {
			return fmt.Errorf("period %s %s counts in %s, not %q", id, p.Rule, join(p.units, " or "), unit)
		}
		if max := maxAmount[unit]; amount < 1 || amount > max {
			return fmt.Errorf("period %s %s: amount %d is outside 1 to %d %s", id, p.Rule, amount, max, unit)
		}
		o.periods = append([]Period(nil), o.periods...)
		o.periods[i].Amount, o.periods[i].Unit = amount, unit
		return nil
	}
	ids := make([]string, len(o.periods))
	for i, p := range o.periods {
		ids[i] = string(p.ID)
	}
	return fmt.Errorf("no period %q: the periods are %s", id, strings.Join(ids, ", "))
}

// SetFines changes the (H) fine range.
func (o *Ordinance) SetFines(min, max int) error {
	if min < 1 || max < min {
		return fmt.Errorf("fine range $%d to $%d is not a range of positive whole dollars (H)", min, max)
	}
	o.FineMin, o.FineMax = min, max
	return nil
}

// SetSections changes the section numbers of (C)(2) and (C)(3).
func (o *Ordinance) SetSections(hearing, referral string) error {
	if hearing == "" || referral == "" || hearing == referral {
		return fmt.Errorf("the hearing section (C)(2) and the referral section (C)(3) must be two different section "+
			"numbers, not %q and %q", hearing, referral)
	}
	o.HearingSection, o.ReferralSection = hearing, referral
	return nil
}

var maxAmount = map[Unit]int{BusinessDays: 250, Days: 366, Weeks: 52, Years: 10, Hours: 720}

// describe writes a period's length for people: "3 business days", "1 year", "48 hours".
func (p Period) describe() string {
	unit := strings.ReplaceAll(string(p.Unit), "_", " ")
	if p.Amount == 1 {
		unit = strings.TrimSuffix(unit, "s")
	}
	return fmt.Sprintf("%d %s", p.Amount, unit)
}
