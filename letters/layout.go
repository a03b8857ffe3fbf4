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
	kind string // "text", "title", "heading", "bold", "right", "center", "space", "rule", "page", "size"
	text string // decoded text; for size, the number
}

// directives are the layout's directives, each written at the start of a line as @name.
var directives = map[string]bool{"title": true, "heading": true, "bold": true, "right": true, "center": true, "space": true, "rule": true, "page": true, "size": true}

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
				return nil, fmt.Errorf("line %d: unknown directive @%s; the directives are @title, @heading, @bold, @center, @right, @size, @space, @rule and @page", n+1, name)
			}
			b := block{kind: name, text: decode(strings.TrimSpace(arg))}
			if name == "size" {
				if v, err := strconv.ParseFloat(b.text, 64); err != nil || v < 6 || v > 72 {
					return nil, fmt.Errorf("line %d: @size %q is not a type size from 6 to 72 points", n+1, arg)
				}
			}
			blocks = append(blocks, b)
			continue
		}
		blocks = append(blocks, block{kind: "text", text: decode(line)})
	}
	return blocks, nil
}

// decode undoes Text's escapes: `\&` prints nothing, `\\` is a backslash and `\n` a line
// break. A backslash before anything else is printed as it is.
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

// errTooManyPages stops a document that runs past MaxPages.
var errTooManyPages = errors.New("the document has too many pages")

// render draws blocks as a PDF on US Letter paper, in the Go fonts, with a page number at
// the foot of each page. It stops with errTooManyPages once the document passes MaxPages.
func render(blocks []block, title string) ([]byte, error) {
	p := fpdf.New("P", "mm", "Letter", "")
	p.SetMargins(margin, margin, margin)
	p.SetAutoPageBreak(true, margin)
	p.AddUTF8FontFromBytes("go", "", goregular.TTF)
	p.AddUTF8FontFromBytes("go", "B", gobold.TTF)
	p.SetTitle(regular.printable(title), true)
	p.SetCreator("ethicsbot", true)
	p.SetFooterFunc(func() {
		p.SetY(-15)
		p.SetFont("go", "", 8)
		p.CellFormat(0, 5, fmt.Sprintf("%s, page %d", regular.printable(title), p.PageNo()), "", 0, "C", false, 0, "")
	})
	p.AddPage()
	size := bodySize
	line := func(sz float64) float64 { return sz * 0.3528 * 1.35 } // points to mm, with leading
	write := func(style string, sz float64, align, text string) {
		p.SetFont("go", style, sz)
		p.MultiCell(0, line(sz), regular.printable(text), "", align, false)
	}
	for _, b := range blocks {
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
		case "page":
			p.AddPage()
		case "size":
			size, _ = strconv.ParseFloat(b.text, 64)
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
