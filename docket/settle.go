package docket

import (
	"fmt"
	"slices"
	"strings"
)

// SettleFine records what became of a fine the commission imposed (E)(2), (F), (H): a
// payment received (its amount, day and receipt number), its referral for collection once
// it is overdue, or its waiver by the commission's vote. The ordinance imposes fines and
// says nothing more of them; the record follows each until it is settled, so that a case
// with a fine owed stays on the docket (Case.Closed) and its payment is reminded
// (fine_payment).
type SettleFine struct {
	// Payer is who owes the fine: the respondent (E)(2), (F), or the complainant (H).
	Payer Payer  `json:"payer"`
	How   Settle `json:"how"`
	// Amount is a payment's whole dollars; a payment may be part of the fine.
	Amount int `json:"amount,omitempty"`
	// Receipt is the number of the receipt the city gave for a payment.
	Receipt string `json:"receipt,omitempty"`
	// To is to whom a fine was referred for collection: "Corporation Counsel".
	To   string `json:"to,omitempty"`
	On   Date   `json:"on,omitzero"`    // zero: today
	Vote *Vote  `json:"vote,omitempty"` // a waiver's roll call
}

// Payer names who owes a fine, as a clerk types it.
type Payer = Party

// Settle is how a fine was settled.
type Settle string

// The ways a fine is settled.
const (
	FinePaid       Settle = "paid"       // a payment received; in full, the fine is settled
	FineCollection Settle = "collection" // referred for collection, once overdue
	FineWaived     Settle = "waived"     // waived by the commission's vote
)

// Settles lists the ways a fine is settled, as /ethics fine takes them.
var Settles = []Settle{FinePaid, FineCollection, FineWaived}

// Settlement is what SettleFine recorded of a fine.
type Settlement struct {
	Rule    string `json:"rule"` // the fine's act: "(E)(2)", "(F)" or "(H)"
	Payer   Party  `json:"payer"`
	How     Settle `json:"how"`
	Amount  int    `json:"amount,omitempty"`
	Receipt string `json:"receipt,omitempty"`
	To      string `json:"to,omitempty"`
	On      Date   `json:"on"`
}

// Kind implements Action.
func (SettleFine) Kind() string { return "fine" }

// Roll implements Voted: a waiver's roll call.
func (a SettleFine) Roll() *Vote { return a.Vote }

// Did implements Action: "payment of $1,500 received on the fine imposed on the
// complainant (H), receipt R-0042", "fine imposed on the respondent (E)(2) referred for
// collection to Corporation Counsel", "fine imposed on the complainant (H) waived".
func (a SettleFine) Did(w Wording) Words {
	on := "the fine imposed on " + party(w.After, a.Payer)
	if f, ok := fineOwed(w.Before, a.Payer); ok {
		on += " " + f.Rule
	}
	switch a.How {
	case FinePaid:
		return said("payment of $%s received on %s, receipt %s%s", Dollars(a.Amount), on, Quoted(a.Receipt),
			a.remains(w.After))
	case FineCollection:
		return said("%s referred for collection to %s", on, Quoted(a.To))
	}
	return said("%s waived", on)
}

// remains says what is left of the fine after a payment: "; paid in full", or "; $1,000
// remains owed".
func (a SettleFine) remains(after *Case) string {
	if after == nil {
		return ""
	}
	if f, ok := fineOwed(after, a.Payer); ok && f.owed() {
		return fmt.Sprintf("; $%s remains owed", Dollars(after.fineAmount(f)-after.paid(f)))
	}
	return "; paid in full"
}

// Motion implements Voted: "that the fine of $1,500 imposed on John Doe under (H) be
// waived".
func (a SettleFine) Motion(w Wording) Words {
	f, _ := fineOwed(w.After, a.Payer)
	return said("that the fine of $%s imposed on %s under %s be waived", Dollars(w.After.fineAmount(f)),
		party(w.After, a.Payer), f.Rule)
}

func (a SettleFine) apply(x *applying) error {
	if a.How != FineWaived {
		if a.Vote != nil {
			return Invalid("(H)", "yes", "only a waiver is voted: a payment or a referral for collection is recorded by "+
				"the clerk")
		}
		return a.settle(x)
	}
	if a.Vote == nil && !x.replay {
		return Invalid("(H)", "yes", "a fine is waived only by the commission's vote: give its roll call, every seated "+
			"commissioner not recused under yes=, no=, abstain= or absent=")
	}
	return x.voted(a.Vote, a.Kind(), "waiver of a fine", "(H)", func() error { return a.settle(x) })
}

// settle records the settlement, once the commission has voted a waiver.
func (a SettleFine) settle(x *applying) error {
	c := x.c
	if !slices.Contains(Settles, a.How) {
		return Invalid("(H)", "how", fmt.Sprintf("unknown %q: a fine is paid, referred for collection, or waived", a.How))
	}
	i := slices.IndexFunc(c.Fines, func(f FineOwed) bool { return f.Payer == a.Payer })
	if i < 0 {
		return conflict("(H)", fmt.Sprintf("case %s has no fine on the %s to settle: the record holds a fine from its "+
			"(E)(2) decision, (F) final recommendation or (H) finding", c.Number, a.Payer))
	}
	f := c.Fines[i]
	owed := c.fineAmount(f) - c.paid(f)
	// A fine referred for collection is still owed until paid: a payment the collector
	// obtains is recorded on it; the referral only handed on its enforcement.
	if !f.owed() && !(a.How == FinePaid && owed > 0 && c.referred(f)) {
		return conflict(f.Rule, fmt.Sprintf("the fine on the %s was settled on %s", a.Payer, f.Settled.Long()))
	}
	on, err := x.stepDate("on", f.Rule, a.On, f.On, "the fine")
	if err != nil {
		return err
	}
	s := Settlement{Rule: f.Rule, Payer: a.Payer, How: a.How, On: on}
	switch a.How {
	case FinePaid:
		if a.Amount < 1 || a.Amount > owed {
			return Invalid(f.Rule, "amount", fmt.Sprintf("give the dollars received, from $1 to the $%s owed",
				Dollars(owed)))
		}
		if err := x.checkLine("receipt", f.Rule, a.Receipt, true, MaxName); err != nil {
			return err
		}
		// One receipt is one payment: the same receipt again is the same payment typed or
		// sent twice, which would count its dollars twice.
		for _, p := range c.Settlements {
			if p.Rule == f.Rule && p.Payer == f.Payer && p.How == FinePaid &&
				strings.EqualFold(strings.TrimSpace(p.Receipt), strings.TrimSpace(a.Receipt)) {
				return conflict(f.Rule, fmt.Sprintf("receipt %s was recorded for a payment of $%s on %s: one receipt is "+
					"one payment", Quoted(a.Receipt), Dollars(p.Amount), p.On.Long()))
			}
		}
		s.Amount, s.Receipt = a.Amount, a.Receipt
	case FineCollection:
		if err := x.checkLine("to", f.Rule, a.To, true, MaxName); err != nil {
			return err
		}
		from, enforceable := x.e.fineFrom(&c.Facts, f.Rule, f.On)
		if !enforceable {
			return conflict("(F)", "the respondent's demand for a public hearing stays the fine until the final "+
				"recommendation: it cannot be referred for collection")
		}
		if due := x.e.after(FinePayment, from); on <= due.Due {
			return conflict(f.Rule, fmt.Sprintf("the fine is not overdue: it is due by %s (%s); refer it for collection "+
				"after that day", due.Due.Long(), due.Basis()))
		}
		s.To = a.To
	}
	c.Settlements = append(c.Settlements, s)
	if a.How != FinePaid || a.Amount == owed {
		c.Fines[i].Settled = on
	}
	return nil
}

// referred reports whether fine f was referred for collection.
func (c *Case) referred(f FineOwed) bool {
	return slices.ContainsFunc(c.Settlements, func(s Settlement) bool {
		return s.Rule == f.Rule && s.Payer == f.Payer && s.How == FineCollection
	})
}

// fineOwed is the fine of case c on payer, as the record keeps it.
func fineOwed(c *Case, payer Party) (FineOwed, bool) {
	if c == nil {
		return FineOwed{}, false
	}
	i := slices.IndexFunc(c.Fines, func(f FineOwed) bool { return f.Payer == payer })
	if i < 0 {
		return FineOwed{}, false
	}
	return c.Fines[i], true
}

// fineAmount is the dollars of fine f: the act's that imposed it.
func (c *Case) fineAmount(f FineOwed) int {
	switch {
	case f.Rule == "(H)" && c.Frivolous != nil:
		return c.Frivolous.Fine
	case f.Rule == "(F)" && c.Final != nil:
		return c.Final.Fine
	case f.Rule == "(E)(2)" && c.Decision != nil:
		return c.Decision.Fine
	}
	return 0
}

// paid is the dollars received on fine f.
func (c *Case) paid(f FineOwed) int {
	n := 0
	for _, s := range c.Settlements {
		if s.Rule == f.Rule && s.Payer == f.Payer && s.How == FinePaid {
			n += s.Amount
		}
	}
	return n
}

// String says what the settlement recorded: "$500 paid Wed 2027-01-20, receipt "R-0042"".
func (s Settlement) String() string {
	switch s.How {
	case FinePaid:
		return fmt.Sprintf("$%s paid %s, receipt %s", Dollars(s.Amount), s.On.Long(), Quoted(s.Receipt))
	case FineCollection:
		return fmt.Sprintf("referred for collection to %s on %s", Quoted(s.To), s.On.Long())
	}
	return "waived on " + s.On.Long()
}
