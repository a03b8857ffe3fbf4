package report

import (
	"maps"
	"time"
)

// PublicReport is the part of the annual report anyone may see, for the public board:
// counts and outcomes only. It holds no case number, no name, no allegation and no list
// of missed deadlines. Fines appear only as the (E)(2) and (F) fines the ordinance makes
// public information, in totals; the (H) fines on complainants are left out. So are the
// count of complaints found frivolous (H) and of complaints expedited under (G): in a
// small year they would point to one complainant, or tell that a candidate is accused.
// The board shows it only for a year that has ended, so that no count moves when a
// confidential complaint is filed.
type PublicReport struct {
	Year int       `json:"year"`
	Zone string    `json:"zone"`
	AsOf time.Time `json:"as_of"`

	Received int            `json:"complaints_received"`
	Parts    int            `json:"parts"`
	TwoPart  int            `json:"two_part_complaints"`
	Outcomes []OutcomeCount `json:"outcomes"`
	Months   []Month        `json:"months"`

	DeadlinesMet    int `json:"deadlines_met"`
	DeadlinesMissed int `json:"deadlines_missed"`

	Fines []FineGroup `json:"fines"` // (E)(2) and (F)
}

// Public is the part of r anyone may see: see PublicReport.
func (r Report) Public() PublicReport {
	p := PublicReport{
		Year: r.Year, Zone: r.Zone, AsOf: r.AsOf,
		Received: r.Received, Parts: r.Parts, TwoPart: r.TwoPart,
		Outcomes:        append([]OutcomeCount{}, r.Outcomes...),
		DeadlinesMet:    r.Deadlines.Met,
		DeadlinesMissed: r.Deadlines.Missed,
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
