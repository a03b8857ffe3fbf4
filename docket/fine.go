package docket

import (
	"fmt"
	"slices"
)

// A fine's terms: who owes it, how much, from when it may be enforced and when it is due.
// (H) sets the range, $1,001 to $5,000; (E)(2) and (F) impose it on the violator, (H) on a
// person who knowingly filed a frivolous complaint; (F) stays its enforcement while the
// respondent may demand, or has demanded, a public hearing after a closed one. The
// ordinance gives no time to pay: the commission's term is the fine_payment period
// (payment.due_days), counted from the day enforcement may begin.

// FineOwed is a fine imposed, as the schedule counts its payment: the act that imposed
// it, who owes it, the day, and the day it was settled (zero while it is owed).
type FineOwed struct {
	Rule    string `json:"rule"` // "(E)(2)", "(F)" or "(H)"
	Payer   Party  `json:"payer"`
	On      Date   `json:"on"`
	Settled Date   `json:"settled,omitzero"` // paid in full, referred for collection or waived
}

// owed reports whether the fine is still owed: neither paid in full, referred for
// collection nor waived.
func (f FineOwed) owed() bool { return f.Settled.IsZero() }

// impose records a fine imposed by the act under rule on payer, on day on: the (F) final
// recommendation replaces the (E)(2) fine, with its own or none.
func (c *Case) impose(rule string, payer Party, fine int, on Date) {
	if rule == "(F)" {
		c.Fines = slices.DeleteFunc(c.Fines, func(f FineOwed) bool { return f.Rule == "(E)(2)" })
	}
	if fine > 0 {
		c.Fines = append(c.Fines, FineOwed{Rule: rule, Payer: payer, On: on})
	}
}

// fineFrom is the day a fine imposed under rule on day on may be enforced, from which its
// payment is counted: the day itself; for an (E)(2) fine after a closed hearing, the last
// day of (F)'s window to demand a public hearing. false while a demand stays it (F).
func (e *Engine) fineFrom(f *Facts, rule string, on Date) (Date, bool) {
	if rule != "(E)(2)" || !f.HearingClosed || f.RecommendationIssued.IsZero() {
		return on, true
	}
	if !f.DemandReceived.IsZero() {
		return 0, false
	}
	return e.after(PublicHearingDemand, f.RecommendationIssued).Due, true
}

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
		// (F): enforcement waits for the window to demand a public hearing to close.
		f.DemandBy, _ = e.DemandBy(c)
		from, ok := e.fineFrom(&c.Facts, rule, f.On)
		if f.Stayed = !ok; ok {
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

// FineTotals are the dollars of fines, for the annual report: imposed, paid, waived, and
// still owed, of which referred for collection.
type FineTotals struct {
	Imposed, Paid, Waived, Outstanding, Collection int
}

// FineTotals adds up the fines of case c in force (the (F) final recommendation's in place
// of the (E)(2) decision's) and what became of them (SettleFine).
func (c *Case) FineTotals() FineTotals {
	var t FineTotals
	for _, rule := range []string{"(E)(2)", "(F)", "(H)"} {
		a := c.FineAccount(rule)
		t.Imposed, t.Paid, t.Waived = t.Imposed+a.Imposed, t.Paid+a.Paid, t.Waived+a.Waived
		t.Outstanding, t.Collection = t.Outstanding+a.Outstanding, t.Collection+a.Collection
	}
	return t
}

// FineAccount is the fine case c imposed under rule, "(E)(2)", "(F)" or "(H)", and what
// became of it; zero for a fine replaced by the final recommendation's, or none. A fine
// imposed before fines were tracked has no settlements: it counts as outstanding.
func (c *Case) FineAccount(rule string) FineTotals {
	var t FineTotals
	switch {
	case rule == "(F)" && c.Final != nil:
		t.Imposed = c.Final.Fine
	case rule == "(E)(2)" && c.Final == nil && c.Decision != nil && !c.Decision.Dismissed:
		t.Imposed = c.Decision.Fine
	case rule == "(H)" && c.Frivolous != nil:
		t.Imposed = c.Frivolous.Fine
	}
	left, referred := t.Imposed, false
	for _, s := range c.Settlements {
		if s.Rule != rule {
			continue
		}
		switch s.How {
		case FinePaid:
			t.Paid += s.Amount
			left -= s.Amount
		case FineWaived:
			t.Waived += left
		case FineCollection:
			referred = true
		}
	}
	t.Outstanding = t.Imposed - t.Paid - t.Waived
	if referred {
		t.Collection = t.Outstanding // what the collector has not yet obtained
	}
	return t
}

// FineLines says where each fine of case c stands, for its card: what was received,
// referred or waived, and what is still owed and by when. Plain text: names in it are
// data for the renderer to escape.
func (e *Engine) FineLines(c *Case) []string {
	var out []string
	for _, s := range c.Settlements {
		out = append(out, s.Rule+": "+s.String())
	}
	for _, f := range c.Fines {
		if !f.owed() {
			continue
		}
		line := fmt.Sprintf("%s: $%s of $%s owed by %s", f.Rule, Dollars(c.fineAmount(f)-c.paid(f)),
			Dollars(c.fineAmount(f)), party(c, f.Payer))
		if from, ok := e.fineFrom(&c.Facts, f.Rule, f.On); ok {
			line += ", due by " + e.after(FinePayment, from).Due.Long()
		} else {
			line += ", stayed by the demand for a public hearing (F)"
		}
		out = append(out, line)
	}
	return out
}
