package report

import (
	"maps"
	"time"
)

// PublicReport is the part of the annual report anyone may see, for the public board:
// counts and outcomes only. It holds no case number, no name, no allegation and no list
// of missed deadlines; nothing in it points to one case. Fines appear only as the (E)(2)
// and (F) fines the ordinance makes public information, in totals; the (H) fines on
// complainants are left out.
type PublicReport struct {
	Year int       `json:"year"`
	Zone string    `json:"zone"`
	AsOf time.Time `json:"as_of"`

	Received  int            `json:"complaints_received"`
	Parts     int            `json:"parts"`
	TwoPart   int            `json:"two_part_complaints"`
	Outcomes  []OutcomeCount `json:"outcomes"`
	Frivolous int            `json:"found_frivolous"`
	Months    []Month        `json:"months"`

	DeadlinesMet    int `json:"deadlines_met"`
	DeadlinesMissed int `json:"deadlines_missed"`
	Expedited       int `json:"expedited"`

	Fines []FineGroup `json:"fines"` // (E)(2) and (F)
}

// Public is the part of r anyone may see: see PublicReport.
func (r Report) Public() PublicReport {
	p := PublicReport{
		Year: r.Year, Zone: r.Zone, AsOf: r.AsOf,
		Received: r.Received, Parts: r.Parts, TwoPart: r.TwoPart, Frivolous: r.Frivolous,
		Outcomes:        append([]OutcomeCount{}, r.Outcomes...),
		DeadlinesMet:    r.Deadlines.Met,
		DeadlinesMissed: r.Deadlines.Missed,
		Expedited:       len(r.Expedited),
		Fines:           []FineGroup{},
	}
	for _, m := range r.Months {
		m.Outcomes = maps.Clone(m.Outcomes)
		p.Months = append(p.Months, m)
	}
	for _, g := range r.Fines.ByRule {
		if g.Rule != "(H)" {
			p.Fines = append(p.Fines, g)
		}
	}
	return p
}
