package report

import (
	"maps"
	"strings"
	"time"

	"ethicsbot/docket"
)

// PublicReport is the part of the annual report anyone may see, for the public board:
// counts and outcomes only. It holds no case number, no name, no allegation and no list
// of missed deadlines. Fines appear only as the (E)(2) and (F) fines the ordinance makes
// public information, in totals; the (H) fines on complainants are left out. So are the
// count of complaints found frivolous (H) and of complaints expedited under (G): in a
// small year they would point to one complainant, or tell that a candidate is accused.
// The board shows it only for a year that has ended, and PublicOf makes it of the cases
// the ordinance has made known, so that no count moves when a confidential complaint is
// filed, backdated or corrected into an ended year.
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

// Empty reports whether the year counted nothing: no complaint received, no deadline met
// or missed. The board shows no figures for such a year.
func (p PublicReport) Empty() bool {
	return p.Received == 0 && p.DeadlinesMet+p.DeadlinesMissed == 0
}

// PublicOf is the public part of year's annual report, made of the cases the ordinance
// has made known and of no other: those with a public record (docket.PublicRecords), a
// meeting's public notice (C)(1), (D), (F), or an outcome made public (C)(2), (E), (F).
// Until then a complaint is confidential, and so is the fact that it was received: the
// ordinance makes public only those notices and outcomes. A complaint filed today with a
// receipt date in an ended year, or whose receipt is corrected into one, would otherwise
// add one to that year's complaints, months, open parts and missed deadlines on the public
// board, telling anyone that a confidential complaint exists and when it was received. It
// counts once its sufficiency meeting is noticed, as every complaint's is within seven
// business days after receipt (C)(1): then the public notice names it.
//
// The figures are otherwise as of now (see Of): an outcome made public later, or a
// correction of a case already public, still shows in its year.
func PublicOf(cases []docket.Case, year int, engine *docket.Engine, now time.Time) PublicReport {
	loc := engine.Cal.Location()
	known := make([]docket.Case, 0, len(cases))
	for i := range cases {
		if len(docket.PublicRecords(&cases[i], loc)) > 0 {
			known = append(known, cases[i])
		}
	}
	return Of(known, year, engine, now).public()
}

// public is r's figures in the shape anyone may see: see PublicReport. Only PublicOf
// makes it of public cases alone.
func (r Report) public() PublicReport {
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
			// (E)(2) makes "any fine imposed" public information, not its payment.
			p.Fines = append(p.Fines, FineGroup{Rule: g.Rule, Name: g.Name, Count: g.Count, Total: g.Total})
		}
	}
	return p
}

// MonthlyFigures are the figures the chart draws, month by month, as a table: the public
// board gives them beside the chart, so that they can be read without seeing it.
type MonthlyFigures struct {
	Columns []string // "Complaints received", each outcome counted in the year, "Deadlines met", "Deadlines missed"
	Rows    []MonthlyRow
}

// MonthlyRow is one month of MonthlyFigures: its name and its counts, in the order of the
// columns.
type MonthlyRow struct {
	Month  string // "Jan"
	Counts []int
}

// Monthly gives the chart's figures month by month: the complaints received, the parts of
// each outcome the chart shows (those with any in the year), and the deadlines met and
// missed.
func (p PublicReport) Monthly() MonthlyFigures {
	var shown []Outcome
	for _, o := range Outcomes {
		for _, m := range p.Months {
			if m.Outcomes[o] > 0 {
				shown = append(shown, o)
				break
			}
		}
	}
	f := MonthlyFigures{Columns: []string{"Complaints received"}}
	for _, o := range shown {
		f.Columns = append(f.Columns, strings.TrimSpace(strings.ToUpper(o.Name()[:1])+o.Name()[1:]+" "+o.Rule()))
	}
	f.Columns = append(f.Columns, "Deadlines met", "Deadlines missed")
	for i, m := range p.Months {
		row := MonthlyRow{Month: monthNames[i%12], Counts: []int{m.Received}}
		for _, o := range shown {
			row.Counts = append(row.Counts, m.Outcomes[o])
		}
		row.Counts = append(row.Counts, m.DeadlinesMet, m.DeadlinesMissed)
		f.Rows = append(f.Rows, row)
	}
	return f
}
