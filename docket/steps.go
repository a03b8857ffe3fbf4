package docket

import (
	"slices"
	"strings"
)

// row returns the ordinance's row for id as the defaults give it. What a row says beyond
// its period (its papers, its command, its meetings) is not configurable, so every
// ordinance shares it.
func row(id DeadlineID) (*Period, bool) {
	i := slices.IndexFunc(defaultPeriods, func(p Period) bool { return p.ID == id })
	if i < 0 {
		return nil, false
	}
	return &defaultPeriods[i], true
}

// PaperFor returns the paper that meets deadline id in case c, from the row's Papers: for
// the (C)(1) ruling notices, the (C)(2) notice of dismissal when the ruling dismissed the
// complaint or a part of it.
func (c *Case) PaperFor(id DeadlineID) (PaperInfo, bool) {
	r, ok := row(id)
	if !ok {
		return PaperInfo{}, false
	}
	for _, p := range r.Papers {
		info, ok := p.Info()
		if !ok {
			continue
		}
		dismissal := p == DismissalToRespondent || p == DismissalToComplainant
		if len(r.Papers) > 1 && dismissal != c.dismissedAtC() {
			continue
		}
		return info, true
	}
	return PaperInfo{}, false
}

// Command is the /ethics command, without "/ethics", that records deadline d of case c
// as met: the certified mailing or the delivery of the paper that meets it, or the row's
// Record with the case number and the meeting filled in. "" for a step the commission
// does not record itself.
func (c *Case) Command(d Deadline) string {
	if pi, ok := c.PaperFor(d.ID); ok {
		if pi.Certified {
			return "mail " + c.Number + " " + string(pi.Paper) + " <article no.>"
		}
		return "delivered " + c.Number + " " + string(pi.Paper)
	}
	if d.Period == nil {
		return ""
	}
	return strings.NewReplacer("{case}", c.Number, "{meeting}", string(d.Of)).Replace(d.Period.Record)
}
