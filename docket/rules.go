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

// Party says who must act by a deadline.
type Party string

// Parties that owe a deadline.
const (
	Commission  Party = "commission"
	Respondent  Party = "respondent" // the (F) window is the respondent's right, not a duty
	Complainant Party = "complainant"
)

// Period is one row of the ordinance's table of time limits.
type Period struct {
	ID      DeadlineID
	Rule    string // subsection, e.g. "(C)(1)"
	Amount  int
	Unit    Unit
	Trigger string // what the period counts from, e.g. "receipt"
	Duty    string // what must happen by the deadline, for messages
	Party   Party  // who must act
	units   []Unit // the units this period may be configured in
}

var (
	dateUnits   = []Unit{BusinessDays, Days, Weeks, Years}
	noticeUnits = []Unit{Hours}
	windowUnits = []Unit{Days, Weeks}
)

// defaultPeriods is the ordinance's table, in the order deadlines are listed.
var defaultPeriods = []Period{
	{FilingLimit, "(I)", 1, Years, "the alleged violation", "complaint filed", Complainant, dateUnits},
	{RespondentNotice, "(B)", 3, BusinessDays, "receipt", "respondent notice by certified mail", Commission, dateUnits},
	{ComplainantConfirmation, "(B)", 3, BusinessDays, "receipt", "complainant confirmation by certified mail", Commission, dateUnits},
	{SufficiencyRuling, "(C)(1)", 7, BusinessDays, "receipt", "sufficiency and probable-cause ruling", Commission, dateUnits},
	{RulingNoticeRespondent, "(C)(1)", 7, BusinessDays, "receipt", "notice of the ruling to the respondent", Commission, dateUnits},
	{RulingNoticeComplainant, "(C)(1)", 7, BusinessDays, "receipt", "notice of the ruling to the complainant", Commission, dateUnits},
	{SufficiencyMeetingNotice, "(C)(1)", 48, Hours, "the sufficiency meeting", "public notice of the sufficiency meeting", Commission, noticeUnits},
	{HearingBy, "(C)(2)", 4, Weeks, "receipt", "hearing date scheduled", Commission, dateUnits},
	{HearingNotice, "(D)", 48, Hours, "the hearing", "public notice of the hearing", Commission, noticeUnits},
	{DecisionDue, "(E)", 30, Days, "the hearing concluded", "decision: dismissal, or recommendation and/or fine", Commission, dateUnits},
	{ElectionDecision, "(G)", 7, Days, "receipt", "expedited (E) decision before the election", Commission, dateUnits},
	{PublicHearingDemand, "(F)", 7, BusinessDays, "the recommendation or fine was issued", "respondent's demand for a public hearing", Respondent, dateUnits},
	{PublicHearingBy, "(F)", 14, Days, "the demand was received", "public hearing held", Commission, dateUnits},
	{PublicHearingNotice, "(F)", 48, Hours, "the public hearing", "public notice of the public hearing", Commission, noticeUnits},
	{FinalRecommendationDue, "(F)", 7, Days, "the public hearing was held", "final recommendation issued publicly", Commission, dateUnits},
	// (H): the ordinance fines only a person who "knowingly files a frivolous complaint";
	// the complainant is heard first, at a meeting noticed like the others (48 hours, as
	// (C)(1), (D) and (F) give every meeting on a complaint), and told of it by certified
	// mail, as (B) tells the parties of the first meeting.
	{FrivolousMeetingNotice, "(H)", 48, Hours, "the (H) meeting", "public notice of the meeting on a frivolous complaint", Commission, noticeUnits},
	{AdjudicationTask, "(C)(2)", 0, Task, "the ruling", "written request to the attorney for judicial adjudication", Commission, nil},
	{ReferralTask, "(C)(3)", 0, Task, "the ruling", "transmittal of the complaint and its documents to the attorney", Commission, nil},
	{RecommendationRespondentTask, "(E)(2)", 0, Task, "the decision", "recommendation delivered to the respondent", Commission, nil},
	{RecommendationOfficerTask, "(E)(2)", 0, Task, "the decision", "recommendation delivered to the officer with authority to discipline", Commission, nil},
	{FinalRespondentTask, "(F)", 0, Task, "the final recommendation", "final recommendation delivered to the respondent", Commission, nil},
	{FinalOfficerTask, "(F)", 0, Task, "the final recommendation", "final recommendation delivered to the officer with authority to discipline", Commission, nil},
	// (E)(1): a dismissal after a hearing is a decision on a complaint both parties were
	// heard on; the ordinance sets no form, so it is a task without a date, like (E)(2)'s.
	{DismissalRespondentTask, "(E)(1)", 0, Task, "the decision", "notice of the dismissal delivered to the respondent", Commission, nil},
	{DismissalComplainantTask, "(E)(1)", 0, Task, "the decision", "notice of the dismissal delivered to the complainant", Commission, nil},
	{FrivolousNoticeTask, "(H)", 0, Task, "the decision to hold the (H) meeting", "certified notice to the complainant of the meeting at which to be heard", Commission, nil},
	{ElectionPeriod, "(G)", 60, Days, "the election", "expedited track for complaints filed before an election", Commission, windowUnits},
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
		return fmt.Errorf("the hearing section (C)(2) and the referral section (C)(3) must be two different section numbers, not %q and %q", hearing, referral)
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
