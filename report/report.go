// Package report computes the commission's annual report from its cases: the complaints
// received in a year, their outcomes, how long each step took, the share of the
// ordinance's deadlines met, the fines imposed and the cases expedited under (G). It is
// pure: it reads cases and an engine and is given the time; it writes Markdown, CSV, JSON
// and a PNG chart. PublicReport is the part anyone may see, with no case numbers.
//
// What each figure counts:
//   - Complaints received, outcomes, days to each step and cases expedited are about the
//     year's complaints: the cases whose receipt (A) falls in the year in the commission's
//     zone, as they stand when the report is made.
//   - Outcomes count parts. A complaint alleging both sections, ruled on part by part
//     ((C)(2) for the §103.10 part, (C)(3) for the §103.05 part), counts two parts, each
//     with its own outcome; every other complaint counts one. The record knows no
//     withdrawal: a complaint stays open until a ruling or decision disposes of it.
//   - Deadlines are those of every case that fell due in the year, met or missed; each
//     counts once, in the year it fell due. Only the commission's own deadlines count:
//     not the (I) filing limit, which is the complainant's, nor the (F) demand window,
//     which is the respondent's right; and not the papers the ordinance requires with no
//     time limit (undated tasks).
//   - Fines are those imposed in the year, of any case: by an (E)(2) decision, by an (F)
//     final recommendation, which replaces the decision's fine so it is counted once, and
//     for a knowingly frivolous complaint (H).
package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"ethicsbot/docket"
)

// Outcome is where one part of a complaint ended, or that it is still open.
type Outcome string

// The outcomes, in the order of the procedure.
const (
	DismissedInsufficient Outcome = "dismissed_insufficient"      // (C)(2): not sufficient to allege a violation
	DismissedNoCause      Outcome = "dismissed_no_probable_cause" // (C)(2): no probable cause
	JudicialReferral      Outcome = "judicial_referral"           // (C)(2): the attorney asked to adjudicate judicially
	AttorneyReferral      Outcome = "attorney_referral"           // (C)(3): §103.05, sent to the attorney
	DismissedAfterHearing Outcome = "dismissed_after_hearing"     // (E)(1)
	Recommendation        Outcome = "recommendation"              // (E)(2): discipline and/or a fine
	FinalRecommendation   Outcome = "final_recommendation"        // (F): after a public hearing
	Open                  Outcome = "open"                        // not yet disposed of
)

// Outcomes lists every Outcome in order.
var Outcomes = []Outcome{DismissedInsufficient, DismissedNoCause, JudicialReferral, AttorneyReferral,
	DismissedAfterHearing, Recommendation, FinalRecommendation, Open}

var outcomeInfo = map[Outcome]struct{ rule, name string }{
	DismissedInsufficient: {"(C)(2)", "dismissed as insufficient"},
	DismissedNoCause:      {"(C)(2)", "dismissed for no probable cause"},
	JudicialReferral:      {"(C)(2)", "referred for judicial adjudication"},
	AttorneyReferral:      {"(C)(3)", "referred to the attorney"},
	DismissedAfterHearing: {"(E)(1)", "dismissed after a hearing"},
	Recommendation:        {"(E)(2)", "recommendation for discipline and/or fine"},
	FinalRecommendation:   {"(F)", "final recommendation after a public hearing"},
	Open:                  {"", "still open"},
}

// Rule is the subsection that gives the outcome; "" for an open part.
func (o Outcome) Rule() string { return outcomeInfo[o].rule }

// Name is the outcome in words: "dismissed as insufficient".
func (o Outcome) Name() string { return outcomeInfo[o].name }

// Report is the year's figures. Case numbers appear in it (the worst times, the missed
// deadlines, the expedited cases), so it is for the commission, its clerk and attorney;
// Public is what anyone may see.
type Report struct {
	Year int       `json:"year"`
	Zone string    `json:"zone"`  // the commission's time zone, in which the year is counted
	AsOf time.Time `json:"as_of"` // when it was made: open parts and missed deadlines are as of then

	Received  int             `json:"complaints_received"` // (A): complaints received in the year
	Parts     int             `json:"parts"`               // the parts their outcomes count
	TwoPart   int             `json:"two_part_complaints"` // complaints alleging both sections, counted as two parts
	Outcomes  []OutcomeCount  `json:"outcomes"`            // every outcome, in order, zeros included
	Frivolous int             `json:"found_frivolous"`     // (H): of the year's complaints, found knowingly frivolous
	Months    []Month         `json:"months"`              // January to December
	Steps     []StepTime      `json:"steps"`               // days from receipt to each step
	Deadlines DeadlineFigures `json:"deadlines"`
	Fines     Fines           `json:"fines"`
	Expedited []Expedited     `json:"expedited"` // (G): the year's complaints filed before an election
	Notes     []string        `json:"notes"`     // what the figures count, for a reader
}

// OutcomeCount is how many parts of the year's complaints have an outcome.
type OutcomeCount struct {
	Outcome Outcome `json:"outcome"`
	Rule    string  `json:"rule"`
	Name    string  `json:"name"`
	Parts   int     `json:"parts"`
}

// Month is one month's figures: complaints received in it and their parts' outcomes,
// and the deadlines that fell due in it.
type Month struct {
	Month           string          `json:"month"` // 2026-03
	Received        int             `json:"complaints_received"`
	Outcomes        map[Outcome]int `json:"outcomes"` // parts by outcome; outcomes with none left out
	DeadlinesMet    int             `json:"deadlines_met"`
	DeadlinesMissed int             `json:"deadlines_missed"`
}

// Step names a step of the procedure whose time from receipt the report measures.
type Step string

// The steps measured, in order.
const (
	StepNotices       Step = "notices_mailed"       // (B): both parties' notices sent
	StepRuling        Step = "sufficiency_ruling"   // (C)(1)
	StepRulingNotices Step = "ruling_notices"       // (C)(1): both parties told of the ruling
	StepHearing       Step = "hearing"              // (D): the hearing's first session
	StepDecision      Step = "decision"             // (E)
	StepFinal         Step = "final_recommendation" // (F)
)

// StepTime is how many calendar days the year's complaints took from receipt to a step:
// the median and the worst, with the case that took longest (the first, on a tie).
type StepTime struct {
	Step       Step    `json:"step"`
	Rule       string  `json:"rule"`
	Name       string  `json:"name"`
	Cases      int     `json:"cases"` // complaints that have reached the step
	MedianDays float64 `json:"median_days"`
	WorstDays  int     `json:"worst_days"`
	WorstCase  string  `json:"worst_case"`
}

// DeadlineFigures are the commission's deadlines that fell due in the year: how many
// were met, and each one missed.
type DeadlineFigures struct {
	Met      int     `json:"met"`
	Missed   int     `json:"missed"`
	ShareMet float64 `json:"share_met"` // Met / (Met + Missed); 0 when none fell due
	List     []Miss  `json:"missed_deadlines"`
}

// Miss is one missed deadline: the case, the rule and when it was due; done late, or
// not done at all.
type Miss struct {
	Case     string            `json:"case"`
	Deadline docket.DeadlineID `json:"deadline"`
	Rule     string            `json:"rule"`
	Duty     string            `json:"duty"`
	Due      docket.Date       `json:"due"`              // the day it fell due
	DueAt    time.Time         `json:"due_at,omitzero"`  // for a 48-hour notice, the instant
	DoneLate bool              `json:"done_late"`        // done after it; false: not done
	DoneOn   docket.Date       `json:"done_on,omitzero"` // when done late, if the record gives the day
}

// Fines are the fines imposed in the year, in whole dollars, and what became of them as of
// the report's date: paid, waived by vote, and still outstanding, of which referred for
// collection.
type Fines struct {
	Count       int         `json:"count"`
	Total       int         `json:"total"`
	Paid        int         `json:"paid"`
	Waived      int         `json:"waived"`
	Outstanding int         `json:"outstanding"`
	Collection  int         `json:"referred_for_collection"`
	ByRule      []FineGroup `json:"by_rule"`
}

// FineGroup is the fines imposed in the year under one rule.
type FineGroup struct {
	Rule  string `json:"rule"`
	Name  string `json:"name"`
	Count int    `json:"count"`
	Total int    `json:"total"`
	// What became of them; left out of the public report (PublicOf).
	Paid        int `json:"paid,omitempty"`
	Waived      int `json:"waived,omitempty"`
	Outstanding int `json:"outstanding,omitempty"`
	Collection  int `json:"referred_for_collection,omitempty"`
}

// Expedited is one of the year's complaints filed in the (G) period before an election
// at which the respondent is a candidate, and where its expedited decision stands.
type Expedited struct {
	Case     string        `json:"case"`
	Election docket.Date   `json:"election"`
	Due      docket.Date   `json:"decision_due"`
	Status   docket.Status `json:"status"` // met, open or missed
}

// Of computes the report for year from cases under engine, as of now. Cases may be in
// any order; none is changed.
func Of(cases []docket.Case, year int, engine *docket.Engine, now time.Time) Report {
	loc := engine.Cal.Location()
	r := Report{Year: year, Zone: loc.String(), AsOf: now.In(loc), Outcomes: []OutcomeCount{},
		Expedited: []Expedited{}, Deadlines: DeadlineFigures{List: []Miss{}}}
	for m := range 12 {
		r.Months = append(r.Months,
			Month{Month: docket.NewDate(year, time.Month(m+1), 1).String()[:7], Outcomes: map[Outcome]int{}})
	}
	counts := make(map[Outcome]int)
	days := make(map[Step][]caseDays)
	fines := map[string]*FineGroup{}
	today := engine.Cal.DateOf(now)
	buf := make([]docket.Deadline, 0, 32)

	// Cases in number order, so ties and lists come out the same whatever the input order.
	order := make([]int, len(cases))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(cases[a].Number, cases[b].Number) })

	for _, i := range order {
		c := &cases[i]
		received := engine.Cal.DateOf(c.Received)
		sched := engine.ScheduleInto(buf, &c.Facts, now)
		buf = sched.Deadlines
		r.deadlines(c.Number, sched, loc)
		addFines(fines, c, year)
		if yearOf(received) != year {
			continue
		}
		// (A): a complaint received in the year.
		r.Received++
		_, month, _ := received.Parts()
		mo := &r.Months[month-1]
		mo.Received++
		parts := partsOf(c, engine.Ord)
		if len(parts) == 2 {
			r.TwoPart++
		}
		for _, o := range parts {
			r.Parts++
			counts[o]++
			mo.Outcomes[o]++
		}
		if c.Frivolous != nil {
			r.Frivolous++
		}
		for _, st := range stepsOf(c, engine, today) {
			days[st.step] = append(days[st.step], caseDays{c.Number, int(st.on - received)})
		}
		// (G): filed in the period before an election at which the respondent stands.
		if sched.Expedited {
			d, _ := sched.Find(docket.ElectionDecision)
			r.Expedited = append(r.Expedited, Expedited{Case: c.Number, Election: sched.Election, Due: d.Due, Status: d.Status})
		}
	}
	for _, o := range Outcomes {
		r.Outcomes = append(r.Outcomes, OutcomeCount{Outcome: o, Rule: o.Rule(), Name: o.Name(), Parts: counts[o]})
	}
	for _, s := range stepInfo {
		r.Steps = append(r.Steps, timeOf(s.step, s.rule, s.name, days[s.step]))
	}
	slices.SortStableFunc(r.Deadlines.List, func(a, b Miss) int {
		if a.Due != b.Due {
			return int(a.Due - b.Due)
		}
		return 0
	})
	if n := r.Deadlines.Met + r.Deadlines.Missed; n > 0 {
		r.Deadlines.ShareMet = float64(r.Deadlines.Met) / float64(n)
	}
	for _, g := range fineGroups {
		fg := FineGroup{Rule: g.Rule, Name: g.Name}
		if f := fines[g.Rule]; f != nil {
			fg = *f
		}
		r.Fines.ByRule = append(r.Fines.ByRule, fg)
		r.Fines.Count += fg.Count
		r.Fines.Total += fg.Total
		r.Fines.Paid += fg.Paid
		r.Fines.Waived += fg.Waived
		r.Fines.Outstanding += fg.Outstanding
		r.Fines.Collection += fg.Collection
	}
	r.Notes = notes(engine.Ord)
	return r
}

// yearOf is the calendar year of d.
func yearOf(d docket.Date) int {
	y, _, _ := d.Parts()
	return y
}

// partsOf is the outcome of each part of c: two for a complaint alleging both sections
// that has, or will have, a ruling on each part; one otherwise.
func partsOf(c *docket.Case, o docket.Ordinance) []Outcome {
	main := mainOutcome(c)
	if c.ReferralRuling != "" {
		// (C)(3): the §103.05 part's own ruling is its outcome.
		return []Outcome{main, rulingOutcome(c.ReferralRuling)}
	}
	if c.Ruling == "" && slices.Contains(c.Sections, o.HearingSection) && slices.Contains(c.Sections, o.ReferralSection) {
		return []Outcome{Open, Open} // both parts await their rulings
	}
	return []Outcome{main}
}

// mainOutcome is the outcome of the complaint, or of its §103.10 part: the latest step
// that disposed of it.
func mainOutcome(c *docket.Case) Outcome {
	switch {
	case c.Final != nil:
		return FinalRecommendation
	case c.Decision != nil && c.Decision.Dismissed:
		return DismissedAfterHearing
	case c.Decision != nil:
		return Recommendation
	}
	return rulingOutcome(c.Ruling)
}

// rulingOutcome is the outcome a (C) ruling gives, or Open for probable cause (the
// hearing decides) or no ruling yet.
func rulingOutcome(r docket.Ruling) Outcome {
	switch r {
	case docket.Insufficient:
		return DismissedInsufficient
	case docket.NoProbableCause:
		return DismissedNoCause
	case docket.JudicialReferral:
		return JudicialReferral
	case docket.AttorneyReferral:
		return AttorneyReferral
	}
	return Open
}

var stepInfo = []struct {
	step       Step
	rule, name string
}{
	{StepNotices, "(B)", "notices mailed to both parties"},
	{StepRuling, "(C)(1)", "sufficiency ruling"},
	{StepRulingNotices, "(C)(1)", "notice of the ruling to both parties"},
	{StepHearing, "(D)", "hearing"},
	{StepDecision, "(E)", "decision after the hearing"},
	{StepFinal, "(F)", "final recommendation"},
}

type stepDate struct {
	step Step
	on   docket.Date
}

// stepsOf lists the steps c has reached and the day of each.
func stepsOf(c *docket.Case, e *docket.Engine, today docket.Date) []stepDate {
	var out []stepDate
	add := func(s Step, on docket.Date) {
		if !on.IsZero() {
			out = append(out, stepDate{s, on})
		}
	}
	both := func(a, b docket.Date) docket.Date {
		if a.IsZero() || b.IsZero() {
			return 0
		}
		return max(a, b)
	}
	add(StepNotices, both(c.RespondentNoticeMailed, c.ComplainantConfirmationMailed))
	ruled := c.RulingDate
	if ruled.IsZero() && c.Ruling != "" && c.Sufficiency.Scheduled() {
		ruled = e.Cal.DateOf(c.Sufficiency.Start) // (C)(1): ruled at the sufficiency meeting
	}
	if c.Ruling != "" {
		add(StepRuling, ruled)
	}
	add(StepRulingNotices, both(c.RulingNoticeRespondent, c.RulingNoticeComplainant))
	if c.Hearing.Scheduled() {
		if on := e.Cal.DateOf(c.Hearing.Start); on <= today {
			add(StepHearing, on)
		}
	}
	add(StepDecision, c.DecisionIssued)
	add(StepFinal, c.FinalRecommendation)
	return out
}

type caseDays struct {
	number string
	days   int
}

// timeOf is the median and worst of ds, which are in case-number order.
func timeOf(step Step, rule, name string, ds []caseDays) StepTime {
	t := StepTime{Step: step, Rule: rule, Name: name, Cases: len(ds)}
	if len(ds) == 0 {
		return t
	}
	sorted := make([]int, len(ds))
	for i, d := range ds {
		sorted[i] = d.days
		if i == 0 || d.days > t.WorstDays {
			t.WorstDays, t.WorstCase = d.days, d.number
		}
	}
	slices.Sort(sorted)
	n := len(sorted)
	if n%2 == 1 {
		t.MedianDays = float64(sorted[n/2])
	} else {
		t.MedianDays = float64(sorted[n/2-1]+sorted[n/2]) / 2
	}
	return t
}

// deadlines counts the case's deadlines that fell due in the year.
func (r *Report) deadlines(number string, s docket.Schedule, loc *time.Location) {
	for _, d := range s.Deadlines {
		// Undated tasks have no time to miss; the (I) filing limit and the (F) demand
		// window bind the parties, not the commission.
		// A fine's payment (fine_payment) is the person fined's, and a referral's follow-up
		// (referral_follow_up) moves with each report: both terms are the commission's own,
		// not the ordinance's.
		if !d.Dated() || d.Period.Party != docket.Commission || d.Status == docket.Open || d.ID == docket.FinePayment ||
			d.ID == docket.ReferralFollowUp {
			continue
		}
		due := d.Due
		if !d.DueAt.IsZero() {
			due = docket.DateIn(d.DueAt, loc)
		}
		if yearOf(due) != r.Year {
			continue
		}
		_, month, _ := due.Parts()
		mo := &r.Months[month-1]
		if d.Status == docket.Met {
			r.Deadlines.Met++
			mo.DeadlinesMet++
			continue
		}
		r.Deadlines.Missed++
		mo.DeadlinesMissed++
		m := Miss{Case: number, Deadline: d.ID, Rule: d.Rule, Duty: d.Period.Duty, Due: due, DoneLate: d.Done,
			DoneOn: d.DoneOn}
		if !d.DueAt.IsZero() {
			m.DueAt = d.DueAt.In(loc)
		}
		r.Deadlines.List = append(r.Deadlines.List, m)
	}
}

var fineGroups = []FineGroup{
	{Rule: "(E)(2)", Name: "imposed by a decision after a hearing"},
	{Rule: "(F)", Name: "imposed by a final recommendation after a public hearing"},
	{Rule: "(H)", Name: "imposed on a complainant for a knowingly frivolous complaint"},
}

// addFines adds c's fines imposed in year, and what became of each. (F): a final
// recommendation replaces the decision's fine, so a case with one counts only the final
// recommendation's.
func addFines(groups map[string]*FineGroup, c *docket.Case, year int) {
	add := func(rule string, on docket.Date) {
		a := c.FineAccount(rule)
		if a.Imposed == 0 || yearOf(on) != year {
			return
		}
		g := groups[rule]
		if g == nil {
			i := slices.IndexFunc(fineGroups, func(g FineGroup) bool { return g.Rule == rule })
			g = &FineGroup{Rule: rule, Name: fineGroups[i].Name}
			groups[rule] = g
		}
		g.Count++
		g.Total += a.Imposed
		g.Paid, g.Waived, g.Outstanding, g.Collection = g.Paid+a.Paid, g.Waived+a.Waived, g.Outstanding+a.Outstanding,
			g.Collection+a.Collection
	}
	switch {
	case c.Final != nil:
		add("(F)", c.Final.On)
	case c.Decision != nil && !c.Decision.Dismissed:
		add("(E)(2)", c.Decision.On)
	}
	if c.Frivolous != nil {
		add("(H)", c.Frivolous.On)
	}
}

// notes say what the figures count, for a reader of the report.
func notes(o docket.Ordinance) []string {
	return []string{
		"Complaints received, outcomes, days to each step and expedited cases are about the complaints received in the " +
			"year, as they stand on the date of the report.",
		"Outcomes count parts: a complaint " +
			"alleging both §" + o.HearingSection + " and §" + o.ReferralSection + " is ruled on part by part ((C)(2) and " +
			"(C)(3)) and counts as two parts, each with its outcome; every other complaint is one part.",
		"Days are calendar days from the day of receipt to the day of the step; the median of an even number of cases is " +
			"the mean of the middle two.",
		"Deadlines are the commission's own that fell due in the year, in any case; each counts once, in the year it fell " +
			"due. Papers the ordinance requires with no time limit (undated tasks) are not deadlines and are not counted; nor " +
			"are the (I) filing limit and the (F) window to demand a public hearing, which are the parties'.",
		"Fines are those imposed in the year, in any case. A final recommendation (F) replaces the decision's fine, so a " +
			"fine is counted once. Paid, waived and outstanding are as of the date of the report; a fine referred for " +
			"collection is outstanding until its payment is recorded. The ordinance sets no time to pay: a fine's payment " +
			"is not one of the commission's deadlines, nor is the follow-up of a referral to the attorney.",
	}
}

// ParseYear reads the year a report is asked for, as typed: four digits, from
// docket.MinYear to the year it is at now. The error names the field and says what to
// give.
func ParseYear(s string, now time.Time) (int, error) {
	this := now.Year()
	bad := func(msg string) error {
		return docket.Invalid("(A)", "year", msg)
	}
	if len(s) != 4 || strings.Trim(s, "0123456789") != "" {
		return 0, bad(fmt.Sprintf("%q is not a year: give its four digits, such as %d; complaints count in the year they "+
			"were received", s, this))
	}
	y, _ := strconv.Atoi(s)
	switch {
	case y < docket.MinYear:
		return 0, bad(fmt.Sprintf("%d is before %d, the first year the record can hold", y, docket.MinYear))
	case y > this:
		return 0, bad(fmt.Sprintf("%d has not begun: it is %d now", y, this))
	}
	return y, nil
}
