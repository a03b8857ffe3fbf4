package docket

import "fmt"

// A fine's terms: who owes it, how much, from when it may be enforced and when it is due.
// (H) sets the range, $1,001 to $5,000; (E)(2) and (F) impose it on the violator, (H) on a
// person who knowingly filed a frivolous complaint; (F) stays its enforcement while the
// respondent may demand, or has demanded, a public hearing after a closed one. The
// ordinance gives no time to pay: the commission's term is the fine_payment period
// (payment.due_days), counted from the day enforcement may begin.

// Fine is a fine the commission imposed, as the record stands.
type Fine struct {
	Rule   string // "(E)(2)", "(F)" or "(H)": the act that imposed it
	Amount int    // whole dollars
	On     Date   // the day it was imposed
	Payer  Party  // Respondent (E)(2), (F); Complainant (H)
	Name   string // the person fined
	// DemandBy is, for an (E)(2) fine after a closed hearing, the last day the respondent's
	// written demand for a public hearing may be received (F); zero otherwise.
	DemandBy Date
	// Stayed says that a demand for a public hearing stays enforcement (F): no date is due
	// until the final recommendation confirms or changes the fine.
	Stayed bool
	// Due is the last day to pay, counted by the fine_payment period from the day
	// enforcement may begin; zero while Stayed. After a closed hearing, it is counted from
	// DemandBy and holds only if no demand is received by then.
	Due Deadline
}

// Fines lists the fines of case c in force, in order: the (E)(2) fine on the respondent
// until the (F) final recommendation replaces it (with its own fine, or none), and the
// (H) fine on the complainant.
func (e *Engine) Fines(c *Case) []Fine {
	var out []Fine
	rules := []string{"(E)(2)", "(H)"}
	if c.Final != nil {
		rules[0] = "(F)"
	}
	for _, r := range rules {
		if f, ok := e.FineBy(c, r); ok {
			out = append(out, f)
		}
	}
	return out
}

// FineBy is the fine the act under rule imposed in case c, "(E)(2)", "(F)" or "(H)", as
// its letter states it; false when that act imposed none. The (E)(2) fine is given as
// the decision imposed it, even once the final recommendation has replaced it.
func (e *Engine) FineBy(c *Case, rule string) (Fine, bool) {
	switch {
	case rule == "(F)" && c.Final != nil && c.Final.Fine > 0:
		return Fine{Rule: rule, Amount: c.Final.Fine, On: c.Final.On, Payer: Respondent, Name: c.Respondent.Name,
			Due: e.after(FinePayment, c.Final.On)}, true
	case rule == "(E)(2)" && c.Decision != nil && !c.Decision.Dismissed && c.Decision.Fine > 0:
		f := Fine{Rule: rule, Amount: c.Decision.Fine, On: c.Decision.On, Payer: Respondent, Name: c.Respondent.Name}
		from := f.On
		if by, ok := e.DemandBy(c); ok {
			// (F): enforcement waits for the window to demand a public hearing to close.
			f.DemandBy, from = by, by
		}
		if f.Stayed = !c.DemandReceived.IsZero(); !f.Stayed {
			f.Due = e.after(FinePayment, from)
		}
		return f, true
	case rule == "(H)" && c.Frivolous != nil && c.Frivolous.Fine > 0:
		h := c.Frivolous
		return Fine{Rule: rule, Amount: h.Fine, On: h.On, Payer: Complainant, Name: c.Complainant.Name,
			Due: e.after(FinePayment, h.On)}, true
	}
	return Fine{}, false
}

// FineRange says the range of a fine (H) sets: "$1,001 to $5,000".
func (o Ordinance) FineRange() string {
	return fmt.Sprintf("$%s to $%s", Dollars(o.FineMin), Dollars(o.FineMax))
}

// DemandBy is the last day the respondent's written demand for a public hearing may be
// received (F), when the hearing was closed and a recommendation or fine has issued; false
// otherwise: after an open hearing there is no demand to make.
func (e *Engine) DemandBy(c *Case) (Date, bool) {
	if !c.HearingClosed || c.RecommendationIssued.IsZero() {
		return 0, false
	}
	return e.after(PublicHearingDemand, c.RecommendationIssued).Due, true
}
