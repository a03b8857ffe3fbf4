// Package csvsafe writes CSV that is safe to open in a spreadsheet. Every CSV ethicsbot
// writes (the record's export, the annual report) goes through it. It imports nothing of
// ours, so any package may use it.
package csvsafe

import (
	"encoding/csv"
	"io"
	"strings"
)

// Writer is a csv.Writer whose Write neutralises formula cells. A cell that begins with
// = + - @, a tab or a carriage return would be read as a formula by a spreadsheet (a
// respondent named =HYPERLINK(...), say): it is written with a ' before it, as OWASP
// recommends against CSV injection, so the spreadsheet shows it as text.
type Writer struct{ *csv.Writer }

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) Writer { return Writer{csv.NewWriter(w)} }

// Write writes one row, neutralising its cells in place.
func (w Writer) Write(row []string) error {
	for i, cell := range row {
		row[i] = Cell(cell)
	}
	return w.Writer.Write(row)
}

// Cell returns cell as it is safe to write: with a ' before it if a spreadsheet would
// read it as a formula.
func Cell(cell string) string {
	if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
		return "'" + cell
	}
	return cell
}
