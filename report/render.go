package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"ethicsbot/csvsafe"
	"ethicsbot/docket"
)

// Line is one line of the report as text: a title, a section heading, or an item under
// it. Markdown writes the lines for a terminal or a file; a chat transport writes the same
// lines in its own markup.
type Line struct {
	Level int // 1: the title; 2: a section heading; 0: an item
	Text  string
}

// Lines is the report as text, section by section.
func (r Report) Lines() []Line {
	var out []Line
	head := func(level int, format string, a ...any) { out = append(out, Line{level, fmt.Sprintf(format, a...)}) }
	item := func(format string, a ...any) { head(0, format, a...) }

	head(1, "Ethics Commission annual report, %d", r.Year)
	item("As of %s, in %s.", r.AsOf.Format("Mon 2006-01-02 15:04 MST"), r.Zone)

	head(2, "Complaints received (A)")
	item("%s received in %d.", plural(r.Received, "complaint"), r.Year)
	if r.TwoPart > 0 {
		item("%s alleged both sections and %s ruled on part by part, so the outcomes count %s.",
			plural(r.TwoPart, "complaint"), map[bool]string{true: "is", false: "are"}[r.TwoPart == 1], plural(r.Parts, "part"))
	}

	head(2, "Outcomes")
	for _, o := range r.Outcomes {
		item("%s: %d", withRule(o.Name, o.Rule), o.Parts)
	}
	item("of the dismissed, found knowingly frivolous (H): %d", r.Frivolous)

	head(2, "Days from receipt to each step")
	for _, s := range r.Steps {
		if s.Cases == 0 {
			item("%s: no complaint of %d has reached it", withRule(s.Name, s.Rule), r.Year)
			continue
		}
		item("%s: %s, median %s days, worst %d days (%s)", withRule(s.Name, s.Rule), plural(s.Cases, "complaint"),
			days(s.MedianDays), s.WorstDays, s.WorstCase)
	}

	d := r.Deadlines
	head(2, "Deadlines")
	if d.Met+d.Missed == 0 {
		item("No deadline of the commission's fell due in %d.", r.Year)
	} else {
		item("%d of %s that fell due in %d met (%s); %d missed.", d.Met, plural(d.Met+d.Missed, "deadline"), r.Year,
			percent(d.Met, d.Met+d.Missed), d.Missed)
	}
	for _, m := range d.List {
		item("missed: %s, %s, due %s; %s", m.Case, withRule(m.Duty, m.Rule), due(m), doneText(m))
	}

	head(2, "Fines imposed")
	item("%s, $%s in all.", plural(r.Fines.Count, "fine"), docket.Dollars(r.Fines.Total))
	for _, g := range r.Fines.ByRule {
		item("%s %s: %d, $%s", g.Rule, g.Name, g.Count, docket.Dollars(g.Total))
	}
	if f := r.Fines; f.Count > 0 {
		item("Of these, as of %s: $%s paid, $%s waived, $%s outstanding (of which $%s referred for collection).",
			r.AsOf.Format("Mon 2 Jan 2006"), docket.Dollars(f.Paid), docket.Dollars(f.Waived), docket.Dollars(f.Outstanding),
			docket.Dollars(f.Collection))
	}

	head(2, "Expedited before an election (G)")
	item("%s of %d expedited.", plural(len(r.Expedited), "complaint"), r.Year)
	for _, x := range r.Expedited {
		item("%s: election %s, decision due %s, %s", x.Case, x.Election.Long(), x.Due.Long(), x.Status)
	}

	head(2, "Notes")
	for _, n := range r.Notes {
		item("%s", n)
	}
	return out
}

// Markdown writes the report as Markdown: headings and lists, readable as plain text.
func (r Report) Markdown() string {
	var b strings.Builder
	for i, l := range r.Lines() {
		switch {
		case l.Level > 0 && i > 0:
			fmt.Fprintf(&b, "\n%s %s\n\n", strings.Repeat("#", l.Level), l.Text)
		case l.Level > 0:
			fmt.Fprintf(&b, "%s %s\n\n", strings.Repeat("#", l.Level), l.Text)
		default:
			fmt.Fprintf(&b, "- %s\n", l.Text)
		}
	}
	return b.String()
}

// CSVHeader is the CSV report's columns. The CSV is long: one figure a row, named by its
// section and item, with the rule, the month and the case it concerns where it has one.
var CSVHeader = []string{"section", "item", "rule", "month", "case", "value"}

// WriteCSV writes the report as CSV, one figure a row under CSVHeader:
//
//	received     complaints, parts, two_part_complaints
//	outcome      each outcome's parts; found_frivolous (H)
//	month        complaints_received, each outcome's parts, deadlines_met, deadlines_missed, by month
//	step         STEP_cases, STEP_median_days, STEP_worst_days (with the case)
//	deadlines    met, missed, share_met
//	missed       one row a missed deadline: its id, rule and case; the value is the day it fell due
//	fines        count, total, paid, waived, outstanding and referred_for_collection, then each for each rule
//	expedited    count, then one row a case: the value is its (G) decision's status
//
// Cells a spreadsheet would read as formulas are neutralised (see csvsafe).
func (r Report) WriteCSV(w io.Writer) error {
	cw := csvsafe.NewWriter(w)
	row := func(section, item, rule, month, cas string, value any) {
		cw.Write([]string{section, item, rule, month, cas, fmt.Sprint(value)})
	}
	cw.Write(append([]string(nil), CSVHeader...))
	row("received", "complaints", "(A)", "", "", r.Received)
	row("received", "parts", "", "", "", r.Parts)
	row("received", "two_part_complaints", "", "", "", r.TwoPart)
	for _, o := range r.Outcomes {
		row("outcome", string(o.Outcome), o.Rule, "", "", o.Parts)
	}
	row("outcome", "found_frivolous", "(H)", "", "", r.Frivolous)
	for _, m := range r.Months {
		row("month", "complaints_received", "(A)", m.Month, "", m.Received)
		for _, o := range Outcomes {
			if n := m.Outcomes[o]; n > 0 {
				row("month", string(o), o.Rule(), m.Month, "", n)
			}
		}
		row("month", "deadlines_met", "", m.Month, "", m.DeadlinesMet)
		row("month", "deadlines_missed", "", m.Month, "", m.DeadlinesMissed)
	}
	for _, s := range r.Steps {
		row("step", string(s.Step)+"_cases", s.Rule, "", "", s.Cases)
		if s.Cases > 0 {
			row("step", string(s.Step)+"_median_days", s.Rule, "", "", days(s.MedianDays))
			row("step", string(s.Step)+"_worst_days", s.Rule, "", s.WorstCase, s.WorstDays)
		}
	}
	d := r.Deadlines
	row("deadlines", "met", "", "", "", d.Met)
	row("deadlines", "missed", "", "", "", d.Missed)
	row("deadlines", "share_met", "", "", "", strconv.FormatFloat(d.ShareMet, 'f', 4, 64))
	for _, m := range d.List {
		row("missed", string(m.Deadline), m.Rule, m.Due.String()[:7], m.Case, m.Due)
	}
	fineRows := func(rule string, g FineGroup) {
		for _, v := range []struct {
			item  string
			value int
		}{{"count", g.Count}, {"total", g.Total}, {"paid", g.Paid}, {"waived", g.Waived}, {"outstanding", g.Outstanding},
			{"referred_for_collection", g.Collection}} {
			row("fines", v.item, rule, "", "", v.value)
		}
	}
	f := r.Fines
	fineRows("", FineGroup{Count: f.Count, Total: f.Total, Paid: f.Paid, Waived: f.Waived, Outstanding: f.Outstanding,
		Collection: f.Collection})
	for _, g := range r.Fines.ByRule {
		fineRows(g.Rule, g)
	}
	row("expedited", "count", "(G)", "", "", len(r.Expedited))
	for _, x := range r.Expedited {
		row("expedited", "case", "(G)", "", x.Case, x.Status)
	}
	cw.Flush()
	return cw.Error()
}

// WriteJSON writes v (a Report or a PublicReport) as indented JSON, with the field names
// of its tags.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func withRule(name, rule string) string {
	if rule == "" {
		return name
	}
	return name + " " + rule
}

// days writes a median: whole, or with its half.
func days(d float64) string { return strconv.FormatFloat(d, 'f', -1, 64) }

// percent writes met of n as a whole percentage, rounded down, so that a miss never
// shows as 100%.
func percent(met, n int) string { return strconv.Itoa(met*100/n) + "%" }

func due(m Miss) string {
	if !m.DueAt.IsZero() {
		return m.DueAt.Format("Mon 2006-01-02 15:04 MST")
	}
	return m.Due.Long()
}

func doneText(m Miss) string {
	switch {
	case m.DoneLate && !m.DoneOn.IsZero():
		return "done late, on " + m.DoneOn.Long()
	case m.DoneLate:
		return "done late"
	}
	return "not done"
}
