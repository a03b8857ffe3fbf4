package docket

import (
	"fmt"
	"slices"
	"time"
)

// The intake of a complaint: (A) its filing, and (G) the elections that may expedite it.

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

// Did implements Action: "filed, received Fri 4 Dec 2026 10:00 CST".
func (a File) Did(w Wording) Words { return said("filed, received %s", w.When(w.orAt(a.Received))) }

// PartyDetails implements PartyAct: the filing records both parties.
func (a File) PartyDetails(p Party) (Person, bool) {
	switch p {
	case Respondent:
		return a.Respondent, true
	case Complainant:
		return a.Complainant, true
	}
	return Person{}, false
}

// WithPartyDetails implements PartyAct.
func (a File) WithPartyDetails(p Party, d Person) Action {
	switch p {
	case Respondent:
		a.Respondent = d
	case Complainant:
		a.Complainant = d
	}
	return a
}

func (a File) apply(x *applying) error {
	if x.c.State != "" {
		return conflict("(A)", "this case is already filed")
	}
	for _, check := range []error{
		x.checkLine("respondent", "(A)", a.Respondent.Name, true, MaxName),
		x.checkLine("complainant", "(A)", a.Complainant.Name, true, MaxName),
		checkSlackID("respondent_slack_id", a.Respondent.SlackID),
		checkSlackID("complainant_slack_id", a.Complainant.SlackID),
		checkText("summary", a.Summary, true, MaxSummary),
		x.checkContact("respondent", "(A)", a.Respondent),
		x.checkContact("complainant", "(A)", a.Complainant),
	} {
		if check != nil {
			return check
		}
	}
	if len(a.Sections) == 0 {
		return Invalid("(A)", "section",
			fmt.Sprintf("required: the section alleged, %s or %s", x.e.Ord.HearingSection, x.e.Ord.ReferralSection))
	}
	received := a.Received
	if received.IsZero() {
		received = x.at
	}
	if received.After(x.at) {
		return Invalid("(A)", "received",
			fmt.Sprintf("%s is in the future: it is now %s", x.e.shortTime(received), x.e.shortTime(x.at)))
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
		x.warn("(I)",
			"time-barred: the complaint was received on %s, after the last day to file, %s; the ruling on it is a dismissal "+
				"(rule %s insufficient ground=time_barred) unless overridden with a reason", s.Received.Long(),
			d.Due.Long(), x.number())
	}
	if s.Expedited {
		d, _ := s.Find(ElectionDecision)
		x.warn("(G)", "EXPEDITED: received within %d days before the election on %s; the decision is due by %s",
			x.e.Ord.Period(ElectionPeriod).Amount, s.Election.Long(), d.Due.Long())
	}
	x.whyNotExpedited(c.Elections)
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

// AddCandidacy records an election at which the respondent is a candidate. A complaint
// received in the (G) period before it is expedited.
type AddCandidacy struct {
	Election Date `json:"election"`
}

// Kind implements Action.
func (AddCandidacy) Kind() string { return "candidacy" }

// Did implements Action.
func (a AddCandidacy) Did(Wording) Words {
	return said("candidacy at the election on %s recorded", a.Election.Long())
}

func (a AddCandidacy) apply(x *applying) error {
	c := x.c
	if a.Election.IsZero() {
		return Invalid("(G)", "election", "required: the date of the election")
	}
	if c.State.Closed() || c.Decision != nil {
		return conflict("(G)",
			fmt.Sprintf("case %s is %s; (G) concerns the decision, which has been made", c.Number, describeState(c.State)))
	}
	if slices.Contains(c.Elections, a.Election) {
		return conflict("(G)", fmt.Sprintf("the election on %s is already recorded", a.Election.Long()))
	}
	wasExpedited := x.e.Schedule(&c.Facts, time.Time{}).Expedited
	c.Elections = append(c.Elections, a.Election)
	if s := x.e.Schedule(&c.Facts, time.Time{}); s.Expedited && !wasExpedited {
		d, _ := s.Find(ElectionDecision)
		x.warn("(G)",
			"EXPEDITED: the complaint was received within %d days before the election on %s; the decision is due by %s",
			x.e.Ord.Period(ElectionPeriod).Amount, s.Election.Long(), d.Due.Long())
	} else if !s.Expedited {
		x.whyNotExpedited([]Date{a.Election})
	}
	return nil
}
