// Package mailbook writes a day's firm mailing book: the list of the certified letters the
// clerk takes to the post office, in the manner of PS Form 3877 (Firm Mailing Book for
// Accountable Mail). The counter clerk checks each piece against its line and stamps the
// book, which the commission keeps as its proof of mailing: (B) and (C)(2) require the
// notices to be sent "by certified mail, return receipt requested", and the stamped book
// shows the day each piece was accepted.
package mailbook

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"slices"
	"strconv"
	"strings"
	"time"

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

// The book's printed layout, in millimetres from the top left of a US Letter page turned
// landscape: the untagged PDF (PDF) and the tagged one (TaggedPDF) are both drawn from it,
// so that they look the same.
const (
	pageW, pageH   = 279.4, 215.9
	margin         = 12.0
	stampW, stampH = 55.0, 24.0
	lineH, pad     = 4.5, 2.25 // a row's lines, and the space above and below them
	headH          = 8.0       // the row of column headings
	introLine      = 5.0       // the lines under the title
	totalLine      = 6.0       // the totals' lines
)

// widths are the columns' widths: 255 mm, the page less its margins.
var widths = []float64{10, 50, 48, 50, 18, 24, 32, 23}

// intro is the line under the title.
const intro = "In the manner of PS Form 3877. Certified Mail, return receipt requested (ordinance (B), (C)(2))."

// page is one page of the book as laid out: the heading's lines (each as it wraps), where
// the table starts, its rows, and on the last page the totals.
type page struct {
	head  [][]string // the intro, the sender and the date of mailing, each wrapped
	top   float64    // the table's top
	heads []string   // the columns' headings, each fitted to its column
	rows  []row
	last  bool
}

// row is one piece's line of the table: each cell's lines, and the row's height.
type row struct {
	cells  [][]line
	height float64
}

// line is a line of a cell as wrap breaks it; joined when it goes on with a word too long
// for the cell that the line before it began, rather than with a new word.
type line struct {
	text   string
	joined bool
}

// lines are texts as lines of a cell, each beginning a word.
func lines(texts ...string) []line {
	out := make([]line, len(texts))
	for i, t := range texts {
		out[i] = line{text: t}
	}
	return out
}

// newPDF is the untagged document the book is measured and drawn in: fpdf, in the Go fonts.
func newPDF() *fpdf.Fpdf {
	p := fpdf.New("L", "mm", "Letter", "")
	p.SetMargins(margin, margin, margin)
	p.SetAutoPageBreak(false, margin)
	p.AddUTF8FontFromBytes("go", "", goregular.TTF)
	p.AddUTF8FontFromBytes("go", "B", gobold.TTF)
	p.SetTitle(Title, true)
	p.SetCreator("ethicsbot", true)
	return p
}

// layout breaks the book into pages as p measures its text: each page repeats the heading
// and the columns' headings, a row goes on the next page when it would come within 30 mm
// of the page's foot, and the totals close the last page.
func (b Book) layout(p *fpdf.Fpdf) []page {
	text := letters.Printable
	// Left of the stamp's box, the heading's lines wrap as MultiCell wraps them (within its
	// cell margins of 1 mm a side).
	textW := pageW - 2*margin - stampW - 4
	p.SetFont("go", "", 9)
	var head [][]string
	for _, l := range []string{intro, text("Sender: " + oneLine(b.Sender.Name, b.Sender.Address)),
		"Date of mailing: " + b.Day.Long()} {
		head = append(head, p.SplitText(l, textW-2))
	}
	n := 0
	for _, h := range head {
		n += len(h)
	}
	top := max(margin+7+float64(n)*introLine, margin+stampH) + 2
	p.SetFont("go", "B", 8)
	heads := make([]string, len(columns))
	for i, c := range columns {
		heads[i] = fit(p, c, widths[i]-1)
	}
	p.SetFont("go", "", 9)
	pages := []page{{head: head, top: top, heads: heads}}
	y := top + headH
	for _, pc := range b.Pieces {
		cells := [][]line{lines(strconv.Itoa(pc.Line)), lines(pc.Article), wrap(p, text(pc.Addressee.Name), widths[2]-2),
			wrap(p, text(pc.Addressee.Address), widths[3]-2), nil, nil, nil, lines(pc.Case)}
		most := 1
		for _, c := range cells {
			most = max(most, len(c))
		}
		h := float64(most)*lineH + 2*pad
		if y+h > pageH-margin-30 {
			pages = append(pages, page{head: head, top: top, heads: heads})
			y = top + headH
		}
		pages[len(pages)-1].rows = append(pages[len(pages)-1].rows, row{cells: cells, height: h})
		y += h
	}
	pages[len(pages)-1].last = true
	return pages
}

// totals are the lines that close the book, under the table of its last page.
func (b Book) totals() []string {
	return []string{fmt.Sprintf("Total number of pieces listed by sender: %d", len(b.Pieces)),
		"Total number of pieces received at post office: ________",
		"Postmaster, per (name of receiving employee): ______________________________"}
}

// PDF draws the book on US Letter paper, landscape, as a table with a box for the
// post office's stamp. Each page repeats the heading; the totals close the last. The
// sender's return address and each addressee's name and address are printed in full,
// wrapped within their cells, line by line as they are addressed: the counter clerk
// checks each piece against its line, so nothing is cut short. It is untagged: TaggedPDF
// draws the same pages tagged.
func (b Book) PDF() ([]byte, error) {
	p := newPDF()
	for _, pg := range b.layout(p) {
		p.AddPage()
		p.SetFont("go", "B", 14)
		p.CellFormat(0, 7, Title, "", 1, "L", false, 0, "")
		p.SetFont("go", "", 9)
		for _, h := range pg.head {
			for _, l := range h {
				p.CellFormat(0, introLine, l, "", 1, "L", false, 0, "")
			}
		}
		// The post office's stamp: postmark and date of receipt.
		p.Rect(pageW-margin-stampW, margin, stampW, stampH, "D")
		p.SetXY(pageW-margin-stampW, margin+1)
		p.SetFont("go", "", 7)
		p.CellFormat(stampW, 4, stampLabel, "", 0, "C", false, 0, "")
		p.SetXY(margin, pg.top)
		p.SetFont("go", "B", 8)
		for i, c := range pg.heads {
			p.CellFormat(widths[i], headH, c, "1", 0, "C", false, 0, "")
		}
		p.Ln(-1)
		p.SetFont("go", "", 9)
		for _, r := range pg.rows {
			x, y := margin, p.GetY()
			for i, c := range r.cells {
				p.Rect(x, y, widths[i], r.height, "D")
				for j, l := range c {
					p.SetXY(x+1, y+pad+float64(j)*lineH)
					p.CellFormat(widths[i]-2, lineH, l.text, "", 0, "L", false, 0, "")
				}
				x += widths[i]
			}
			p.SetXY(margin, y+r.height)
		}
		if pg.last {
			p.Ln(4)
			p.SetFont("go", "", 10)
			for _, l := range b.totals() {
				p.CellFormat(0, totalLine, l, "", 1, "L", false, 0, "")
			}
		}
	}
	var out bytes.Buffer
	if err := p.Output(&out); err != nil {
		return nil, fmt.Errorf("drawing the mailing book: %w", err)
	}
	return out.Bytes(), nil
}

// stampLabel is the label of the post office's box.
const stampLabel = "Postmark and date of receipt"

// wrap breaks s into the lines that fit in width w at the current font: each of its own
// lines (an address's street, city and ZIP code) begins a line, and a line too long for
// the cell goes on under it, broken between words, or within a word longer than the cell.
func wrap(p *fpdf.Fpdf, s string, w float64) []line {
	var out []line
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l == "" {
			continue
		}
		cur, joined := "", false
		for _, word := range strings.Fields(l) {
			next := strings.TrimSpace(cur + " " + word)
			if p.GetStringWidth(next) <= w {
				cur = next
				continue
			}
			if cur != "" {
				out = append(out, line{text: cur, joined: joined})
			}
			// A word longer than the cell is broken where it must be.
			r := []rune(word)
			joined = false
			for p.GetStringWidth(string(r)) > w && len(r) > 1 {
				n := len(r) - 1
				for n > 1 && p.GetStringWidth(string(r[:n])) > w {
					n--
				}
				out = append(out, line{text: string(r[:n]), joined: joined})
				r, joined = r[n:], true
			}
			cur = string(r)
		}
		if cur != "" {
			out = append(out, line{text: cur, joined: joined})
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

// HTML writes the book as the page Chromium prints as a tagged PDF: each page of the
// layout at the places PDF draws it, in the same fonts, so that the two look the same. The
// first page's heading is the document's heading (h1) and paragraphs; each page's pieces
// are a table whose first row heads its columns (th scope="col"), in reading order: the
// heading repeated at the top of the later pages is hidden from the accessibility tree,
// and so printed as an artifact, as a running head is (ISO 32000-1, 14.8.2.2.2). The text
// is data: every name and address is escaped.
func (b Book) HTML() string {
	p := newPDF()
	pages := b.layout(p)
	esc := func(s string) string { return html.EscapeString(letters.Printable(s)) }
	// An empty cell holds a no-break space: Chromium tags no cell that paints nothing, and a
	// row without its blank cells would give the next cells the wrong column's heading.
	// Each line begins on a line of its own, as fpdf draws it; a word too long for its cell
	// is written whole, in a box as wide as fpdf's line, and broken where fpdf breaks it,
	// so that it is read as one word.
	cell := func(ls []line, width float64) string {
		if len(ls) == 0 {
			return "&nbsp;"
		}
		var b strings.Builder
		for j, l := range ls {
			if j > 0 && !l.joined {
				b.WriteString("<br>")
			}
			b.WriteString(esc(l.text))
		}
		if !slices.ContainsFunc(ls, func(l line) bool { return l.joined }) {
			return b.String()
		}
		return fmt.Sprintf(`<div style="width:%.2fmm;white-space:normal;line-break:anywhere">%s</div>`, width,
			b.String())
	}
	text := func(ls []string) string {
		out := make([]string, len(ls))
		for i, l := range ls {
			out[i] = esc(l)
		}
		return strings.Join(out, "<br>")
	}
	mm := func(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) + "mm" }
	var w strings.Builder
	w.WriteString(`<!DOCTYPE html><html lang="` + letters.Lang + `"><head><meta charset="utf-8"><title>` +
		esc(Title) + `</title><style>` + letters.FontFaces())
	// The page has no margin of its own: every place is measured from its top left, as
	// fpdf measures it. A line of fpdf's is a box of its height with the text centred in
	// it: the same line-height in CSS.
	w.WriteString(`@page{size:11in 8.5in;margin:0}html,body{margin:0;padding:0}` +
		`body{font-family:"Go";color:#000}p,h1{margin:0;padding:0;font-weight:normal;white-space:nowrap}` +
		`.page{position:relative;width:` + mm(pageW) + `;height:` + mm(pageH-0.9) + `;overflow:hidden}` +
		`.page+.page{break-before:page}.head,.stamp,table,.totals{position:absolute}` +
		`.head{left:` + mm(margin+1) + `;top:` + mm(margin) + `}` +
		`h1{font-size:14pt;font-weight:bold;line-height:7mm}.head p{font-size:9pt;line-height:` + mm(introLine) + `}` +
		`.stamp{left:` + mm(pageW-margin-stampW) + `;top:` + mm(margin) + `;width:` + mm(stampW-0.2) + `;height:` +
		mm(stampH-0.2) + `;border:0.2mm solid #000}` +
		`.stamp p{margin-top:1mm;font-size:7pt;line-height:4mm;text-align:center}` +
		`table{left:` + mm(margin) + `;border-collapse:collapse;table-layout:fixed;width:` + mm(pageW-2*margin) + `}` +
		`th,td{border:0.2mm solid #000;padding:0;white-space:nowrap;overflow:hidden}` +
		`th{font-size:8pt;font-weight:bold;text-align:center;vertical-align:middle;height:` + mm(headH) + `}` +
		`td{font-size:9pt;vertical-align:top;line-height:` + mm(lineH) + `;padding:` + mm(pad) + ` 1mm 0 2mm}` +
		`.totals{left:` + mm(margin+1) + `}.totals p{font-size:10pt;line-height:` + mm(totalLine) + `}`)
	w.WriteString(`</style></head><body>`)
	for i, pg := range pages {
		w.WriteString(`<div class="page">`)
		if i == 0 {
			w.WriteString(`<div class="head"><h1>` + esc(Title) + `</h1>`)
		} else {
			w.WriteString(`<div class="head" aria-hidden="true"><p style="font-size:14pt;font-weight:bold;` +
				`line-height:7mm">` + esc(Title) + `</p>`)
		}
		for _, h := range pg.head {
			w.WriteString(`<p>` + text(h) + `</p>`)
		}
		w.WriteString(`</div>`)
		hidden := ""
		if i > 0 {
			hidden = ` aria-hidden="true"`
		}
		w.WriteString(`<div class="stamp"` + hidden + `><p>` + esc(stampLabel) + `</p></div>`)
		fmt.Fprintf(&w, `<table style="top:%s"><colgroup>`, mm(pg.top))
		for _, wd := range widths {
			fmt.Fprintf(&w, `<col style="width:%s">`, mm(wd))
		}
		w.WriteString(`</colgroup><thead><tr>`)
		for _, c := range pg.heads {
			w.WriteString(`<th scope="col">` + esc(c) + `</th>`)
		}
		w.WriteString(`</tr></thead><tbody>`)
		y := pg.top + headH
		for _, r := range pg.rows {
			fmt.Fprintf(&w, `<tr style="height:%s">`, mm(r.height))
			for k, c := range r.cells {
				w.WriteString(`<td>` + cell(c, widths[k]-2) + `</td>`)
			}
			w.WriteString(`</tr>`)
			y += r.height
		}
		w.WriteString(`</tbody></table>`)
		if pg.last {
			fmt.Fprintf(&w, `<div class="totals" style="top:%s">`, mm(y+4))
			for _, l := range b.totals() {
				w.WriteString(`<p>` + esc(l) + `</p>`)
			}
			w.WriteString(`</div>`)
		}
		w.WriteString(`</div>`)
	}
	w.WriteString(`</body></html>`)
	return w.String()
}

// TaggedPDF prints the book (HTML) by e, Chromium, as a tagged PDF (PDF/UA-1) made
// archival (PDF/A-2b), as the letters are, made when it is made: it looks as PDF draws it.
func (b Book) TaggedPDF(ctx context.Context, e letters.Engine, made time.Time) ([]byte, error) {
	return letters.PrintArchival(ctx, e, b.HTML(), Title, made)
}

// Print is the book as ethicsbot gives it: tagged by e (TaggedPDF) when there is an engine,
// else, or when it fails, untagged (PDF), and untagged is told why: the clerk takes the
// book to the post office today, tagged or not, and can print it again once Chromium works.
func (b Book) Print(ctx context.Context, e letters.Engine, made time.Time, untagged func(error)) ([]byte, error) {
	if e != nil {
		pdf, err := b.TaggedPDF(ctx, e, made)
		if err == nil {
			return pdf, nil
		}
		if untagged != nil {
			untagged(fmt.Errorf("%s of %s: drawn untagged, as the tagged PDF could not be made: %w", Title, b.Day.Long(),
				err))
		}
	}
	return b.PDF()
}
