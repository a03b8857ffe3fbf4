// Package mailbook writes a day's firm mailing book: the list of the certified letters the
// clerk takes to the post office, in the manner of PS Form 3877 (Firm Mailing Book for
// Accountable Mail). The counter clerk checks each piece against its line and stamps the
// book, which the commission keeps as its proof of mailing: (B) and (C)(2) require the
// notices to be sent "by certified mail, return receipt requested", and the stamped book
// shows the day each piece was accepted.
package mailbook

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"codeberg.org/go-pdf/fpdf"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"

	"ethicsbot/docket"
	"ethicsbot/letters"
)

// Addressee is a name and a postal address, as the letters' configuration gives them.
type Addressee struct {
	Name    string
	Address string // lines separated by newlines; "" when not recorded
}

// Piece is one line of the book: one certified letter.
type Piece struct {
	Line      int
	Article   string // as USPS prints it: 9407 1118 9876 5432 1016 34
	Addressee Addressee
	// Case is the sender's reference: the case number alone. The book is handed over the
	// counter, and a complaint is confidential until the ordinance makes it public, so
	// what each paper is stays out of it.
	Case string
}

// Book is the mailing book of one day.
type Book struct {
	Sender Addressee
	Day    docket.Date
	Pieces []Piece
}

// Of is the book of day: every paper of cases recorded as sent by certified mail that day,
// by case number and then in the order recorded. The parties' names are the case's; the
// attorney and the officer are officials, whose names and addresses the configuration
// gives (officials). A party's postal address is the one recorded (docket.SetParty), or
// blank for the clerk to fill in when none is.
func Of(cases []docket.Case, day docket.Date, sender Addressee, officials map[docket.Party]Addressee) Book {
	b := Book{Sender: sender, Day: day}
	for _, c := range cases {
		for _, m := range c.Mailings {
			if m.Article == "" || m.Mailed != day {
				continue
			}
			to := Addressee{}
			// A party's address as it stood when the piece was mailed (the mailing keeps it);
			// a record from before mailings kept it gives the address recorded now.
			at := func(p docket.Person) Addressee {
				if m.Address != "" {
					return Addressee{Name: p.Name, Address: m.Address}
				}
				return Addressee{Name: p.Name, Address: p.Address}
			}
			switch m.Recipient {
			case docket.Respondent:
				to = at(c.Respondent)
			case docket.Complainant:
				to = at(c.Complainant)
			default:
				to = officials[m.Recipient]
				if to.Name == "" {
					to.Name = "the " + string(m.Recipient)
				}
			}
			b.Pieces = append(b.Pieces,
				Piece{Line: len(b.Pieces) + 1, Article: docket.GroupArticle(m.Article), Addressee: to, Case: c.Number})
		}
	}
	return b
}

// Title is the book's heading.
const Title = "Firm Mailing Book for Accountable Mail"

// columns are the book's columns, as PS Form 3877 has them for certified mail: the
// postage and fees are the counter's to fill in.
var columns = []string{"No.", "Article number", "Addressee", "Address", "Postage", "Certified fee",
	"Return receipt fee", "Reference"}

// Markdown writes the book as a Markdown document, for the screen or a printer.
func (b Book) Markdown() string {
	var w strings.Builder
	fmt.Fprintf(&w, "# %s\n\n", Title)
	w.WriteString("In the manner of PS Form 3877. Certified Mail, return receipt requested (ordinance (B), (C)(2)).\n\n")
	fmt.Fprintf(&w, "**Sender:** %s\n\n", md(oneLine(b.Sender.Name, b.Sender.Address)))
	fmt.Fprintf(&w, "**Date of mailing:** %s\n\n", b.Day.Long())
	if len(b.Pieces) == 0 {
		fmt.Fprintf(&w, "No certified mail is recorded as mailed on %s.\n", b.Day.Long())
		return w.String()
	}
	w.WriteString("| " + strings.Join(columns, " | ") + " |\n")
	w.WriteString(strings.Repeat("|---", len(columns)) + "|\n")
	for _, p := range b.Pieces {
		fmt.Fprintf(&w, "| %d | %s | %s | %s |  |  |  | %s |\n", p.Line, p.Article, md(p.Addressee.Name),
			md(oneLine(p.Addressee.Address)), p.Case)
	}
	fmt.Fprintf(&w, "\nTotal number of pieces listed by sender: **%d**\n\n", len(b.Pieces))
	w.WriteString("Total number of pieces received at post office: ________\n\n")
	w.WriteString("Postmaster, per (name of receiving employee): ______________________________\n\n")
	w.WriteString("Postmark and date of receipt:\n")
	return w.String()
}

// oneLine joins the non-empty lines of parts with commas: an address on one line.
func oneLine(parts ...string) string {
	var out []string
	for _, p := range parts {
		for _, l := range strings.Split(p, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				out = append(out, l)
			}
		}
	}
	return strings.Join(out, ", ")
}

// md escapes text for a Markdown table cell: a name is data, never markup, and a | in it
// must not end its cell.
func md(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\|*_`[]<>#~!", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// PDF draws the book on US Letter paper, landscape, as a table with a box for the
// post office's stamp. Each page repeats the heading; the totals close the last. The
// sender's return address and each addressee's name and address are printed in full,
// wrapped within their cells, line by line as they are addressed: the counter clerk
// checks each piece against its line, so nothing is cut short.
func (b Book) PDF() ([]byte, error) {
	p := fpdf.New("L", "mm", "Letter", "")
	const margin = 12.0
	p.SetMargins(margin, margin, margin)
	p.SetAutoPageBreak(false, margin)
	p.AddUTF8FontFromBytes("go", "", goregular.TTF)
	p.AddUTF8FontFromBytes("go", "B", gobold.TTF)
	p.SetTitle(Title, true)
	p.SetCreator("ethicsbot", true)
	widths := []float64{10, 50, 48, 50, 18, 24, 32, 23} // 255 mm: the page less its margins
	pageW, pageH := p.GetPageSize()
	const stampW, stampH = 55.0, 24.0
	text := letters.Printable
	header := func() {
		p.AddPage()
		p.SetFont("go", "B", 14)
		p.CellFormat(0, 7, Title, "", 1, "L", false, 0, "")
		p.SetFont("go", "", 9)
		// Left of the stamp's box, the sender's return address wraps onto as many lines as
		// it needs.
		textW := pageW - 2*margin - stampW - 4
		p.MultiCell(textW, 5,
			"In the manner of PS Form 3877. Certified Mail, return receipt requested (ordinance (B), (C)(2)).", "", "L", false)
		p.MultiCell(textW, 5, text("Sender: "+oneLine(b.Sender.Name, b.Sender.Address)), "", "L", false)
		p.MultiCell(textW, 5, "Date of mailing: "+b.Day.Long(), "", "L", false)
		top := max(p.GetY(), margin+stampH) + 2
		// The post office's stamp: postmark and date of receipt.
		p.Rect(pageW-margin-stampW, margin, stampW, stampH, "D")
		p.SetXY(pageW-margin-stampW, margin+1)
		p.SetFont("go", "", 7)
		p.CellFormat(stampW, 4, "Postmark and date of receipt", "", 0, "C", false, 0, "")
		p.SetXY(margin, top)
		p.SetFont("go", "B", 8)
		for i, c := range columns {
			p.CellFormat(widths[i], 8, fit(p, c, widths[i]-1), "1", 0, "C", false, 0, "")
		}
		p.Ln(-1)
		p.SetFont("go", "", 9)
	}
	header()
	const lineH, pad = 4.5, 2.25
	for _, pc := range b.Pieces {
		cells := [][]string{{strconv.Itoa(pc.Line)}, {pc.Article}, wrap(p, text(pc.Addressee.Name), widths[2]-2),
			wrap(p, text(pc.Addressee.Address), widths[3]-2), nil, nil, nil, {pc.Case}}
		lines := 1
		for _, c := range cells {
			lines = max(lines, len(c))
		}
		h := float64(lines)*lineH + 2*pad
		if p.GetY()+h > pageH-margin-30 {
			header()
		}
		x, y := margin, p.GetY()
		for i, c := range cells {
			p.Rect(x, y, widths[i], h, "D")
			for j, l := range c {
				p.SetXY(x+1, y+pad+float64(j)*lineH)
				p.CellFormat(widths[i]-2, lineH, l, "", 0, "L", false, 0, "")
			}
			x += widths[i]
		}
		p.SetXY(margin, y+h)
	}
	p.Ln(4)
	p.SetFont("go", "", 10)
	p.CellFormat(0, 6, fmt.Sprintf("Total number of pieces listed by sender: %d", len(b.Pieces)), "", 1, "L", false, 0, "")
	p.CellFormat(0, 6, "Total number of pieces received at post office: ________", "", 1, "L", false, 0, "")
	p.CellFormat(0, 6, "Postmaster, per (name of receiving employee): ______________________________", "", 1, "L",
		false, 0, "")
	var out bytes.Buffer
	if err := p.Output(&out); err != nil {
		return nil, fmt.Errorf("drawing the mailing book: %w", err)
	}
	return out.Bytes(), nil
}

// wrap breaks s into the lines that fit in width w at the current font: each of its own
// lines (an address's street, city and ZIP code) begins a line, and a line too long for
// the cell goes on under it, broken between words, or within a word longer than the cell.
func wrap(p *fpdf.Fpdf, s string, w float64) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l == "" {
			continue
		}
		line := ""
		for _, word := range strings.Fields(l) {
			next := strings.TrimSpace(line + " " + word)
			if p.GetStringWidth(next) <= w {
				line = next
				continue
			}
			if line != "" {
				out = append(out, line)
			}
			// A word longer than the cell is broken where it must be.
			r := []rune(word)
			for p.GetStringWidth(string(r)) > w && len(r) > 1 {
				n := len(r) - 1
				for n > 1 && p.GetStringWidth(string(r[:n])) > w {
					n--
				}
				out = append(out, string(r[:n]))
				r = r[n:]
			}
			line = string(r)
		}
		if line != "" {
			out = append(out, line)
		}
	}
	return out
}

// fit shortens s with an ellipsis until it fits in width w at the current font: a
// column's heading stays in its cell rather than running over the next.
func fit(p *fpdf.Fpdf, s string, w float64) string {
	if p.GetStringWidth(s) <= w {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && p.GetStringWidth(string(r)+"…") > w {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}
