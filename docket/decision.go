package docket

import (
	"fmt"
	"strings"
)

// (E) and (F): the decision, the respondent's demand for a public hearing after a closed
// one, the public hearing and the final recommendation.

// Decide is the (E) decision: dismissal, or a recommendation for discipline and/or a fine.
type Decide struct {
	Dismiss        bool   `json:"dismiss,omitempty"`
	Findings       string `json:"findings,omitempty"`
	Recommendation string `json:"recommendation,omitempty"`
	Fine           int    `json:"fine,omitempty"`
	// Intentional is the (H) finding that the violation was intentional, which a fine needs.
	Intentional bool  `json:"intentional,omitempty"`
	On          Date  `json:"on,omitzero"` // zero: today
	Vote        *Vote `json:"vote,omitempty"`
}

// Kind implements Action.
func (Decide) Kind() string { return "decide" }

// Roll implements Voted.
func (a Decide) Roll() *Vote { return a.Vote }

// Did implements Action: "decision recorded (fine)".
func (a Decide) Did(Wording) Words { return said("decision recorded (%s)", a.outcome()) }

// Motion implements Voted: "that a fine of $2,500 be imposed on Jane Roe for an
// intentional violation (H) and the discipline "Written reprimand" be recommended to the
// Mayor (E)(2); findings: "..."", or "that the complaint be dismissed (E)(1)". The
// findings, the recommendation and the respondent's name are public by the decision
// (E)(2), so they are given once the case is public: by the decision itself, when it
// carried. A decision moved and failed leaves the case confidential: its motion says
// what kind of decision was moved, not the texts proposed.
func (a Decide) Motion(w Wording) Words {
	public := w.After != nil && w.After.Public()
	texts := func(field, proposed string) string {
		if public {
			return field
		}
		return proposed
	}
	if a.Dismiss {
		return said("that the complaint be dismissed (E)(1)%s", texts(findings(a.Findings), ""))
	}
	words := Words{{Text: "that "}}
	if a.Fine > 0 {
		words[0].Text += fined(a.Fine, party(w.After, Respondent), a.Intentional)
		if strings.TrimSpace(a.Recommendation) != "" {
			words[0].Text += " and "
		}
	}
	if strings.TrimSpace(a.Recommendation) != "" {
		words[0].Text += "the discipline " + texts(folded(a.Recommendation), "proposed") + " be recommended to "
		words = append(words, officer(w.After))
	}
	proposed := ""
	if strings.TrimSpace(a.Findings) != "" {
		proposed = ", on the findings proposed"
	}
	return append(words, Word{Text: " (E)(2)" + texts(findings(a.Findings), proposed)})
}

// outcome names the decision as /ethics decide does: dismiss, recommend or fine.
func (a Decide) outcome() string {
	switch {
	case a.Dismiss:
		return "dismiss"
	case a.Recommendation == "" && a.Fine > 0:
		return "fine"
	}
	return "recommend"
}

// Notice implements Noticed: (E) the decision is public, with its findings,
// recommendation and fine.
func (a Decide) Notice(w Wording) (Notice, bool) {
	r, ok := publicRecord(w.After, "decision", w.Loc)
	if !ok {
		return Notice{}, false
	}
	return Notice{Text: fmt.Sprintf("PUBLIC NOTICE %s. The Ethics Commission's decision in case %s, the %s, on %s: %s.%s",
		r.Rule, r.Case, parties(r), r.On.Long(), r.Text, byVote(r)),
		Quoted: []Labelled{{"Findings", r.Findings}, {"Recommendation", r.Recommendation}}, Fine: r.Fine}, true
}

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
	if err := x.needState("(E)", "decide: the decision follows the conclusion of the hearing",
		StateHearingDone); err != nil {
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
		return Invalid("(E)", "decision", "a dismissal (E)(1) carries no recommendation or fine (E)(2)")
	}
	if !a.Dismiss && strings.TrimSpace(a.Recommendation) == "" && a.Fine == 0 {
		return Invalid("(E)", "decision",
			"decide to dismiss (E)(1), or give a recommendation for discipline and/or a fine (E)(2)")
	}
	if err := x.checkIntent(a.Fine, a.Intentional); err != nil {
		return err
	}
	on, err := x.stepDate("on", "(E)", a.On, c.HearingConcluded, "the conclusion of the hearing")
	if err != nil {
		return err
	}
	c.Decision = &Decision{Dismissed: a.Dismiss, Findings: a.Findings, Recommendation: a.Recommendation, Fine: a.Fine,
		Intentional: a.Intentional, On: on}
	c.impose("(E)(2)", Respondent, a.Fine, on)
	c.DecisionIssued, c.DecisionDismissed = on, a.Dismiss
	// (E), (G): a late decision is recorded, since refusing it would block the commission,
	// and the case keeps how late it was.
	x.checkLate(x.e.after(DecisionDue, c.HearingConcluded), "decision", on)
	x.checkElectionLate("decision", on)
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

// Did implements Action.
func (DemandPublicHearing) Did(Wording) Words {
	return said("demand for a public hearing recorded; enforcement is stayed (F)")
}

func (a DemandPublicHearing) apply(x *applying) error {
	c := x.c
	if err := x.needState("(F)", "record a demand for a public hearing: it follows a recommendation or fine",
		StateDecided); err != nil {
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
		return Invalid("(F)", "received",
			fmt.Sprintf("the demand came on %s, after the window closed on %s (%s)", on.Long(), window.Due.Long(),
				window.Basis()))
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

// Did implements Action.
func (HoldPublicHearing) Did(Wording) Words { return said("public hearing held") }

func (a HoldPublicHearing) apply(x *applying) error {
	c := x.c
	if err := x.checkOverride("(F)", a.Override); err != nil {
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
	// Intentional is the (H) finding that the violation was intentional, which a fine needs.
	Intentional bool  `json:"intentional,omitempty"`
	On          Date  `json:"on,omitzero"` // zero: today
	Vote        *Vote `json:"vote,omitempty"`
}

// Kind implements Action.
func (IssueFinal) Kind() string { return "final_recommendation" }

// Roll implements Voted.
func (a IssueFinal) Roll() *Vote { return a.Vote }

// Did implements Action.
func (IssueFinal) Did(Wording) Words { return said("final recommendation issued") }

// Motion implements Voted: "that the final recommendation "..." be issued publicly to Jane
// Roe and to the Mayor, and a fine of $2,500 be imposed on Jane Roe (F)".
func (a IssueFinal) Motion(w Wording) Words {
	who := party(w.After, Respondent)
	words := Words{{Text: "that the final recommendation " + folded(a.Text) + " be issued publicly to " + who +
		" and to "}, officer(w.After)}
	last := " (F)"
	if a.Fine > 0 {
		last = ", and " + fined(a.Fine, who, a.Intentional) + last
	}
	return append(words, Word{Text: last})
}

// Notice implements Noticed: (F) the final recommendation is issued publicly.
func (a IssueFinal) Notice(w Wording) (Notice, bool) {
	r, ok := publicRecord(w.After, "final_recommendation", w.Loc)
	if !ok {
		return Notice{}, false
	}
	return Notice{Text: fmt.Sprintf("PUBLIC NOTICE %s. The Ethics Commission's final recommendation in case %s, the %s, "+
		"on %s.%s", r.Rule, r.Case, parties(r), r.On.Long(), byVote(r)),
		Quoted: []Labelled{{"Final recommendation", r.Text}}, Fine: r.Fine}, true
}

func (a IssueFinal) apply(x *applying) error {
	return x.voted(a.Vote, a.Kind(), "final recommendation", "(F)", func() error { return a.issue(x) })
}

// issue records the final recommendation, once the commission has adopted it.
func (a IssueFinal) issue(x *applying) error {
	c := x.c
	if err := x.needState("(F)", "issue the final recommendation: it follows the public hearing",
		StatePublicHeld); err != nil {
		return err
	}
	if err := checkText("text", a.Text, true, MaxText); err != nil {
		return err
	}
	if err := x.checkFine(a.Fine); err != nil {
		return err
	}
	if err := x.checkIntent(a.Fine, a.Intentional); err != nil {
		return err
	}
	on, err := x.stepDate("on", "(F)", a.On, c.PublicHearingHeld, "the public hearing")
	if err != nil {
		return err
	}
	c.Final = &Finding{Text: a.Text, Fine: a.Fine, Intentional: a.Intentional, On: on}
	c.impose("(F)", Respondent, a.Fine, on) // confirmed or changed: the final's fine replaces the decision's
	c.State, c.FinalRecommendation = StateFinal, on
	x.checkLate(x.e.after(FinalRecommendationDue, c.PublicHearingHeld), "final recommendation", on)
	return nil
}
