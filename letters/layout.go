package letters

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"codeberg.org/go-pdf/fpdf"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"
)

// Text is text that came from outside ethicsbot's templates: a party's name, a place, the
// complaint, the commission's address. A template prints it with {{.Field}}, and it comes
// out escaped for the layout language (see the package doc): its line breaks are line
// breaks inside the line that holds it, never new lines of the layout, and it never begins
// a line. So no value, whatever it holds, can make a heading, a page break or any other
// part of the document's structure. Its field is unexported, so a template cannot reach
// the raw string either.
type Text struct{ s string }

// T makes a Text of s.
func T(s string) Text { return Text{s} }

// String returns the text escaped for the layout: `\&` first (an escape that prints
// nothing, so the text never starts a line), backslashes doubled, and each line break
// written `\n`.
func (t Text) String() string {
	var b strings.Builder
	b.WriteString(`\&`)
	for _, r := range t.s {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case '\n', '\u2028', '\u2029':
			b.WriteString(`\n`)
		case '|':
			// Never a separator of @row's cells.
			b.WriteString(`\|`)
		case '\r':
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Empty reports whether the text is empty or only spaces, for {{if}} in a template.
func (t Text) Empty() bool { return strings.TrimSpace(t.s) == "" }

// block is one line of the layout: a directive and its text.
type block struct {
	kind string // "text", "title", "heading", "bold", "right", "center", "space", "rule", "page", "size", "at", "item", "row"
	text string // decoded text; for size, the number; for at, the position; for row, its cells joined by ": "
	// cells are a row's cells, decoded: the first is the row's header (the vote of a roll
	// call), the rest its data.
	cells []string
}

// directives are the layout's directives, each written at the start of a line as @name.
var directives = map[string]bool{"title": true, "heading": true, "bold": true, "right": true, "center": true,
	"space": true, "rule": true, "page": true, "size": true, "at": true, "item": true, "row": true}

// parseLayout reads a template's output into blocks. A line that begins with @ is a
// directive; any other line is text. An unknown directive is an error, so a mistyped one
// is seen rather than printed.
func parseLayout(out string) ([]block, error) {
	var blocks []block
	for n, line := range strings.Split(out, "\n") {
		line = strings.TrimRight(line, " \t\r")
		if rest, ok := strings.CutPrefix(line, "@"); ok {
			name, arg, _ := strings.Cut(rest, " ")
			if !directives[name] {
				return nil, fmt.Errorf("line %d: unknown directive @%s; the directives are @title, @heading, @bold, @center, "+
					"@right, @size, @space, @rule, @page, @at, @item and @row", n+1, name)
			}
			b := block{kind: name, text: decode(strings.TrimSpace(arg))}
			if name == "row" {
				for _, c := range splitCells(strings.TrimSpace(arg)) {
					b.cells = append(b.cells, decode(strings.TrimSpace(c)))
				}
				b.text = strings.Join(b.cells, ": ")
			}
			if name == "size" {
				if v, err := strconv.ParseFloat(b.text, 64); err != nil || v < 6 || v > 72 {
					return nil, fmt.Errorf("line %d: @size %q is not a type size from 6 to 72 points", n+1, arg)
				}
			}
			if name == "at" {
				if _, ok := positions[b.text]; !ok {
					return nil, fmt.Errorf("line %d: @at %q is not a position of the first page; the positions are top, below, "+
						"endorsement, window and body", n+1, arg)
				}
			}
			blocks = append(blocks, b)
			continue
		}
		blocks = append(blocks, block{kind: "text", text: decode(line)})
	}
	return blocks, nil
}

// splitCells splits the argument of @row at each | that no backslash escapes (Text
// escapes every | it holds, so no value can add a cell).
func splitCells(arg string) []string {
	var cells []string
	start := 0
	for i := 0; i < len(arg); i++ {
		switch arg[i] {
		case '\\':
			i++
		case '|':
			cells = append(cells, arg[start:i])
			start = i + 1
		}
	}
	return append(cells, arg[start:])
}

// decode undoes Text's escapes: `\&` prints nothing, `\\` is a backslash, `\|` a bar and
// `\n` a line break. A backslash before anything else is printed as it is.
func decode(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch s[i+1] {
		case '&':
		case '\\':
			b.WriteByte('\\')
		case '|':
			b.WriteByte('|')
		case 'n':
			b.WriteByte('\n')
		default:
			b.WriteByte('\\')
			continue
		}
		i++
	}
	return b.String()
}

// glyphs says which characters the embedded font can draw.
type glyphs struct{ font *sfnt.Font }

var regular = mustFont(goregular.TTF)

func mustFont(ttf []byte) glyphs {
	f, err := sfnt.Parse(ttf)
	if err != nil {
		panic("letters: the embedded Go font does not parse: " + err.Error())
	}
	return glyphs{f}
}

// printable returns s with every character the font cannot draw written as its code
// point, [U+1F600], so that nothing is dropped or drawn as an empty box without a trace.
// Tabs become spaces, and other control and invisible formatting characters are written
// as code points too.
func (g glyphs) printable(s string) string {
	var b strings.Builder
	var buf sfnt.Buffer
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteRune(r)
		case r == '\t':
			b.WriteString("    ")
		case r == utf8.RuneError || r > 0xFFFF || unicode.IsControl(r) || unicode.Is(unicode.Cf, r):
			fmt.Fprintf(&b, "[U+%04X]", r)
		default:
			if i, err := g.font.GlyphIndex(&buf, r); err != nil || i == 0 {
				fmt.Fprintf(&b, "[U+%04X]", r)
				continue
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Type sizes, in points, and the page's margins, in millimetres.
const (
	bodySize = 11.0
	margin   = 25.0
)

// The first page of a letter is laid out for a No. 10 window envelope, so that a clerk
// folds it in three and mails it as printed. A No. 10 envelope is 4 1/8 by 9 1/2 in.; its
// standard window is 1 1/8 by 4 1/2 in., 7/8 in. from the left edge and 1/2 in. from the
// bottom (the window that envelope makers and billing software are built around, and the
// one USPS's addressing guidance shows; USPS asks for at least 1/8 in. of clear space
// between the address and every edge of the window). A US Letter sheet folded in three
// has a top panel 11/3 in. high; resting on the envelope's bottom, the window shows the
// sheet from 2.04 in. to 3.17 in. below its top edge, and, however the 8 1/2 in. sheet
// slides across the 9 1/2 in. envelope, from 7/8 in. to 4 3/8 in. from its left edge. With
// the 1/8 in. clearance, the address block is kept within 2 3/16 to 3 1/32 in. from the
// top and 1 to 4 1/4 in. from the left. The return address goes above it, at the top left,
// where a double-window envelope shows it, and the certified-mail endorsement between
// the two.
const (
	inch         = 25.4
	firstTop     = inch / 2            // the return address and the date: 1/2 in. from the top
	endorsementY = 1.5 * inch          // the certified-mail endorsement and article number
	windowTop    = (2 + 3.0/16) * inch // the address block's first line
	windowBottom = (3 + 1.0/32) * inch // the address block ends above this
	windowLeft   = 1.0 * inch          // the address block's left edge
	windowWidth  = 3.25 * inch         // to 4 1/4 in. from the left
	bodyTop      = (3 + 5.0/16) * inch // the letter's text starts below the window
	panel        = 11.0 / 3 * inch     // the folds, in thirds of the sheet
	windowSizes  = "10 9 8"            // the address's type sizes tried, largest first (USPS asks for 8 pt at least)
)

// positions are the places of the first page that @at moves to.
var positions = map[string]float64{"top": firstTop, "below": 0, "endorsement": endorsementY, "window": windowTop,
	"body": bodyTop}

// draftMark heads every page of a draft: a paper not yet mailed.
const draftMark = "DRAFT: not the letter as mailed; the copy as sent is kept in the record once its mailing is recorded"

// reprintMark heads every page of a paper printed again whose mailing is recorded without
// a copy as sent (its letter could not be made at mailing, or the record is older than the
// copies): it is neither a draft to be mailed nor the letter that went out.
func reprintMark(mailed string) string {
	return "RE-PRINT: mailed " + mailed + "; no copy was kept at mailing; this is a re-print, not the letter as sent"
}

// errTooManyPages stops a document that runs past MaxPages.
var errTooManyPages = errors.New("the document has too many pages")

// errWindow is a recipient's address that does not fit the envelope's window.
type errWindow struct{ lines, fit int }

func (e errWindow) Error() string {
	return fmt.Sprintf("the name and address take %d lines even in 8-point type, and the window of a No. 10 envelope "+
		"shows %d: shorten the address", e.lines, e.fit)
}

// newDocument starts a PDF on US Letter paper in the Go fonts, whose first page starts top
// millimetres down, with title in its properties and, with the page number, at the foot
// of each page.
func newDocument(title string, top float64) *fpdf.Fpdf {
	p := fpdf.New("P", "mm", "Letter", "")
	p.SetMargins(margin, top, margin)
	p.SetAutoPageBreak(true, margin)
	p.AddUTF8FontFromBytes("go", "", goregular.TTF)
	p.AddUTF8FontFromBytes("go", "B", gobold.TTF)
	p.SetTitle(regular.printable(title), true)
	p.SetCreator("ethicsbot", true)
	p.SetFooterFunc(func() { pageFoot(p, title) })
	return p
}

// pageFoot draws the foot of p's page: the title and the page number, in 8-point type,
// centred 15 mm from the page's bottom.
func pageFoot(p *fpdf.Fpdf, title string) {
	p.SetY(-15)
	p.SetFont("go", "", 8)
	p.CellFormat(0, 5, fmt.Sprintf("%s, page %d", regular.printable(title), p.PageNo()), "", 0, "C", false, 0, "")
}

// render draws blocks as a PDF on US Letter paper, in the Go fonts, with a page number at
// the foot of each page. It stops with errTooManyPages once the document passes MaxPages.
//
// A mark, if not "", heads every page: a letter before it is mailed (draftMark), or one
// printed again for a paper whose copy as sent is not in the record (reprintMark), is never
// taken for the letter that went out.
func render(blocks []block, title string, mark string) ([]byte, error) {
	p := newDocument(title, firstTop)
	if mark != "" {
		p.SetHeaderFunc(func() {
			x, y := p.GetXY()
			p.SetFont("go", "B", 9)
			p.SetTextColor(180, 0, 0)
			p.SetXY(margin, 4)
			p.CellFormat(0, 5, mark, "", 0, "C", false, 0, "")
			p.SetTextColor(0, 0, 0)
			p.SetXY(x, y)
		})
	}
	p.AddPage()
	// Only the first page starts 1/2 in. from the top; the others keep the margin.
	p.SetTopMargin(margin)
	size := bodySize
	low := p.GetY()                                                // the lowest point written on the page, so that @at never overprints
	line := func(sz float64) float64 { return sz * 0.3528 * 1.35 } // points to mm, with leading
	write := func(style string, sz float64, align, text string) {
		p.SetFont("go", style, sz)
		page := p.PageNo()
		p.MultiCell(0, line(sz), regular.printable(text), "", align, false)
		if p.PageNo() != page {
			low = 0
		}
		low = max(low, p.GetY())
	}
	usedAt := false
	for i := 0; i < len(blocks); i++ {
		b := blocks[i]
		if keepsWithNext(blocks, i) {
			// A heading, or a line that leads into a list ("Enclosures:"), never stands
			// alone at the foot of a page: if it and the first line after it do not fit,
			// both go to the next page.
			style, sz := "", size
			if b.kind == "heading" {
				style, sz = "B", size*1.15
			}
			p.SetFont("go", style, sz)
			w, h := p.GetPageSize()
			need := float64(len(p.SplitText(regular.printable(b.text), w-2*margin)))*line(sz) + line(size)
			if b.kind == "heading" {
				need += line(size) / 3
			}
			if p.GetY()+need > h-margin {
				p.AddPage()
				low = p.GetY()
			}
		}
		switch b.kind {
		case "text":
			if b.text == "" {
				p.Ln(line(size) / 2)
				continue
			}
			write("", size, "L", b.text)
		case "title":
			write("B", size*1.45, "C", b.text)
			p.Ln(line(size) / 2)
		case "heading":
			p.Ln(line(size) / 3)
			write("B", size*1.15, "L", b.text)
		case "bold":
			write("B", size, "L", b.text)
		case "item":
			write("", size, "L", b.text)
		case "row":
			// A row of a table (a roll call's vote and its members), on a line of its own,
			// indented.
			write("", size, "L", "      "+b.text)
		case "center":
			write("", size, "C", b.text)
		case "right":
			write("", size, "R", b.text)
		case "space":
			p.Ln(line(size))
		case "rule":
			y := p.GetY() + 1
			w, _ := p.GetPageSize()
			p.Line(margin, y, w-margin, y)
			p.SetY(y + 2)
			low = max(low, p.GetY())
		case "page":
			p.AddPage()
			low = p.GetY()
		case "size":
			size, _ = strconv.ParseFloat(b.text, 64)
		case "at":
			if p.PageNo() != 1 {
				return nil, fmt.Errorf("@at %s: the positions are on the first page, and the text above has run on to page %d",
					b.text, p.PageNo())
			}
			if !usedAt {
				usedAt = true
				foldMarks(p)
			}
			switch y := positions[b.text]; b.text {
			case "top":
				p.SetY(y)
			case "below":
				p.SetY(low)
			case "window":
				// The address block: every line up to @at body, in the window.
				j := i + 1
				for j < len(blocks) && !(blocks[j].kind == "at" && blocks[j].text == "body") {
					j++
				}
				if j == len(blocks) {
					return nil, errors.New("@at window has no @at body after it to end the address block")
				}
				if low > y+0.01 {
					return nil, fmt.Errorf("@at window: the lines above run %.0f mm past the top of the envelope's window; "+
						"shorten them", low-y)
				}
				if err := window(p, blocks[i+1:j]); err != nil {
					return nil, err
				}
				low = windowBottom
				i = j - 1
			default:
				if low > y+0.01 {
					return nil, fmt.Errorf("@at %s: the lines above run %.0f mm past it (%.2f in. from the top); shorten them", b.text,
						low-y, y/inch)
				}
				p.SetY(y)
				low = y
			}
		}
		if p.PageNo() > MaxPages {
			return nil, errTooManyPages
		}
	}
	var out bytes.Buffer
	if err := p.Output(&out); err != nil {
		return nil, fmt.Errorf("drawing %s: %w", title, err)
	}
	return out.Bytes(), nil
}

// keepsWithNext reports whether block i must be on the same page as the first line of
// what follows it: a heading, or a line of text that ends with a colon and leads into
// the lines after it, such as a list of enclosures.
func keepsWithNext(blocks []block, i int) bool {
	b := blocks[i]
	if i+1 >= len(blocks) || strings.TrimSpace(b.text) == "" {
		return false
	}
	return b.kind == "heading" || b.kind == "text" && strings.HasSuffix(strings.TrimSpace(b.text), ":")
}

// foldMarks draws short marks at the left edge where the sheet is folded in three, so that
// the address lands in the window.
func foldMarks(p *fpdf.Fpdf) {
	p.SetDrawColor(150, 150, 150)
	p.SetLineWidth(0.2)
	for _, y := range []float64{panel, 2 * panel} {
		p.Line(4, y, 9, y)
	}
	p.SetDrawColor(0, 0, 0)
}

// window prints the recipient's lines in the envelope's window, in the largest of
// windowSizes that fits; none fitting is an errWindow. Empty lines are left out.
func window(p *fpdf.Fpdf, blocks []block) error {
	var lines []string
	var bold []bool
	for _, b := range blocks {
		if b.text == "" || b.kind == "space" {
			continue
		}
		for _, l := range strings.Split(regular.printable(b.text), "\n") {
			lines, bold = append(lines, l), append(bold, b.kind == "bold")
		}
	}
	sz, lh, err := windowSize(p, lines)
	if err != nil {
		return err
	}
	p.SetY(windowTop)
	for k, l := range lines {
		style := ""
		if bold[k] {
			style = "B"
		}
		p.SetFont("go", style, sz)
		p.SetX(windowLeft)
		p.MultiCell(windowWidth, lh, l, "", "L", false)
	}
	p.SetY(bodyTop)
	return nil
}

// addressType is the type size of the address block of blocks (the lines from @at window
// to @at body) as window prints it; 0 if they have none, or none fits.
func addressType(blocks []block) float64 {
	var lines []string
	in := false
	for _, b := range blocks {
		switch {
		case b.kind == "at":
			in = b.text == "window"
		case in && b.text != "" && b.kind != "space":
			lines = append(lines, strings.Split(regular.printable(b.text), "\n")...)
		}
	}
	if len(lines) == 0 {
		return 0
	}
	sz, _, _ := windowSize(newDocument("", firstTop), lines)
	return sz
}

// windowSize is the largest of windowSizes in which lines fit the window, wrapped at its
// width, with its line height; none fitting is an errWindow.
func windowSize(p *fpdf.Fpdf, lines []string) (sz, lh float64, err error) {
	var fit, n int
	for _, f := range strings.Fields(windowSizes) {
		sz, _ = strconv.ParseFloat(f, 64)
		lh = sz * 0.3528 * 1.15
		p.SetFont("go", "", sz)
		n = 0
		for _, l := range lines {
			n += len(p.SplitText(l, windowWidth))
		}
		fit = int((windowBottom - windowTop) / lh)
		if n <= fit {
			return sz, lh, nil
		}
	}
	return 0, 0, errWindow{lines: n, fit: fit}
}

// CheckWindow checks a configured recipient (the attorney, an officer) as a letter to them
// prints in the window of a No. 10 envelope: their name, title and address lines must fit
// it (see window), and no line may wrap there, since USPS reads the city, state and ZIP
// code from one last line (USPS Publication 28, 2). setting names them in the refusal.
func CheckWindow(setting string, a Addressee) error {
	var lines []string
	for _, l := range append([]string{a.Name, a.Title}, strings.Split(a.Address, "\n")...) {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, regular.printable(l))
		}
	}
	p := newDocument("", firstTop)
	sz, _, err := windowSize(p, lines)
	if err != nil {
		return fmt.Errorf("%s: does not fit the window of a No. 10 envelope: %v", setting, err)
	}
	p.SetFont("go", "", sz)
	for _, l := range lines {
		if len(p.SplitText(l, windowWidth)) > 1 {
			return fmt.Errorf("%s: the line %q is too wide for the window of a No. 10 envelope and would wrap: break the "+
				"address into its lines (a YAML block, address: |, or lines separated by \"|\"), since the Postal Service reads "+
				"the city, state and ZIP code from one last line", setting, l)
		}
	}
	return nil
}
