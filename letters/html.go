package letters

import (
	"encoding/base64"
	"fmt"
	"html"
	"strings"

	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
)

// The tagged documents (PDF/UA-1, ISO 14289-1) are drawn from the same blocks as the
// untagged ones, written as semantic HTML with a print stylesheet that keeps the layout:
// the title is the one h1, a heading an h2, @item lines a list, @row lines a table whose
// first cell heads its row, every other line a paragraph. A browser engine (Chromium,
// see engine.go) prints it, and its tags follow the HTML's structure in reading order.
// The page is US Letter with the margins of layout.go, in the Go fonts embedded in the
// page, so that the engine draws the same glyphs as the untagged layout and printable
// holds for both. The first page of a letter keeps the No. 10 window envelope's places:
// the blocks after @at window are set in a box at exactly the window's place.

var (
	goRegular64 = base64.StdEncoding.EncodeToString(goregular.TTF)
	goBold64    = base64.StdEncoding.EncodeToString(gobold.TTF)
)

// goFaces are the Go fonts as CSS font faces, in the page and in its head and foot, so that
// Chromium needs no font of the system's.
var goFaces = `@font-face{font-family:"Go";font-weight:normal;src:url(data:font/ttf;base64,` + goRegular64 + `)}` +
	`@font-face{font-family:"Go";font-weight:bold;src:url(data:font/ttf;base64,` + goBold64 + `)}`

// Lang is the language of every document ethicsbot draws (PDF/UA-1, 7.2: the natural
// language is declared), as BCP 47 names it.
const Lang = "en-US"

// pt writes a length in points for CSS.
func pt(v float64) string { return fmt.Sprintf("%.2fpt", v) }

// mm writes a length in millimetres for CSS.
func mm(v float64) string { return fmt.Sprintf("%.2fmm", v) }

// htmlOf writes blocks as the HTML the engine prints, titled title. windowSize is the
// address block's type size, as the untagged layout chose it (0 without a window).
func htmlOf(blocks []block, title string, windowType float64) string {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html lang="` + Lang + `"><head><meta charset="utf-8"><title>`)
	b.WriteString(html.EscapeString(regular.printable(title)))
	b.WriteString(`</title><style>`)
	b.WriteString(goFaces)
	// The page's margins are layout.go's; the first page starts 1/2 in. from the top.
	fmt.Fprintf(&b, `@page{size:8.5in 11in;margin:%s %s %s %s}@page:first{margin-top:%s}`,
		mm(margin), mm(margin), mm(margin), mm(margin), mm(firstTop))
	b.WriteString(`html{margin:0;padding:0}body{margin:0;padding:0 1mm;font-family:"Go";color:#000;line-height:1.35}` +
		`p,h1,h2,ul,li,table{margin:0;padding:0}p,h1,h2,li,td,th{white-space:pre-wrap;overflow-wrap:anywhere}` +
		`h1{text-align:center;font-weight:bold}h2{font-weight:bold;break-after:avoid}` +
		`.lead{break-after:avoid}.c{text-align:center}.r{text-align:right}` +
		`ul{list-style:none}table{border-collapse:collapse}th{font-weight:normal;text-align:left;vertical-align:top}` +
		`td{vertical-align:top}hr{border:0;border-top:0.2mm solid #000;margin:1mm 0 2mm 0}` +
		// The first page's places, rows of a grid of fixed heights: the head (the return
		// address, the date), the endorsement, the window; the text starts below.
		`.first{display:grid;grid-template-rows:` + mm(endorsementY-firstTop) + ` ` +
		mm(windowTop-endorsementY) + ` ` + mm(bodyTop-windowTop) + `;height:` + mm(bodyTop-firstTop) + `}` +
		`.head{display:grid;grid-row:1;align-content:start}.head>.a{grid-area:1/1}.head>.b{grid-area:2/1}`)
	b.WriteString(`</style></head><body>`)
	w := htmlWriter{b: &b, size: bodySize, windowType: windowType}
	w.blocks(blocks)
	b.WriteString(`</body></html>`)
	return b.String()
}

// htmlWriter writes blocks as HTML, keeping the type size @size sets and which of the
// first page's places it is in.
type htmlWriter struct {
	b          *strings.Builder
	size       float64
	windowType float64
	open       string // "ul" or "table" while a list or a table is open
	first      bool   // inside the first page's box of places (@at)
	head       string // the class of the head's part open: "a" or "b"; "" when none
	inHead     bool   // the head's grid is open
	breakNext  bool   // @page: the next element starts a page
	gap        bool   // an empty line between two items: the next item is set off by half a line
}

// lines writes text, its line breaks kept, escaped for HTML.
func (w *htmlWriter) text(s string) string {
	return strings.ReplaceAll(html.EscapeString(regular.printable(s)), "\n", "<br>")
}

// style is the inline style of an element in type size sz, with more.
func (w *htmlWriter) style(sz float64, more string) string {
	s := "font-size:" + pt(sz) + more
	if w.breakNext {
		s += ";break-before:page"
		w.breakNext = false
	}
	return ` style="` + s + `"`
}

// close ends the list or table open, if any.
func (w *htmlWriter) close() {
	if w.open != "" {
		w.b.WriteString("</" + w.open + ">")
		w.open = ""
	}
}

func (w *htmlWriter) closeHead() {
	w.close()
	if w.head != "" {
		w.b.WriteString(`</div>`)
		w.head = ""
	}
}

// openFirst opens the first page's box of places (@at) and the grid of
// its head: what comes before @at top and what follows it share the first row (the return
// address at the left, the date at the right), and @at below starts the second.
func (w *htmlWriter) openFirst() {
	w.first = true
	w.b.WriteString(`<div class="first">`)
	w.b.WriteString(`<div class="head">`)
	w.inHead = true
	w.part("a")
}

// part opens a part of the head: class "a" or "b".
func (w *htmlWriter) part(class string) {
	w.closeHead()
	if !w.inHead {
		w.b.WriteString(`<div class="head">`)
		w.inHead = true
	}
	w.head = class
	fmt.Fprintf(w.b, `<div class="%s">`, class)
}

// place leaves the head for a place of the first page, in grid row row, with style.
func (w *htmlWriter) place(row int, style string) {
	w.closeHead()
	if w.inHead {
		w.b.WriteString(`</div>`)
		w.inHead = false
	}
	w.head = "place"
	fmt.Fprintf(w.b, `<div style="grid-row:%d%s">`, row, style)
}

func (w *htmlWriter) blocks(blocks []block) {
	line := func(sz float64) float64 { return sz * 1.35 } // in points, as layout.go leads
	for _, bl := range blocks {
		if bl.kind == "at" {
			w.openFirst()
			break
		}
	}
	for i := 0; i < len(blocks); i++ {
		bl := blocks[i]
		if bl.kind != "item" && w.open == "ul" && !(bl.kind == "text" && bl.text == "" && i+1 < len(blocks) &&
			blocks[i+1].kind == "item") {
			w.close()
		}
		if bl.kind != "row" && w.open == "table" {
			w.close()
		}
		lead := ""
		if keepsWithNext(blocks, i) {
			lead = ` class="lead"`
		}
		switch bl.kind {
		case "text":
			if bl.text == "" {
				w.gap = w.open == "ul"
				if w.open == "" {
					fmt.Fprintf(w.b, `<div%s></div>`, w.style(w.size, ";height:"+pt(line(w.size)/2)))
				}
				continue
			}
			fmt.Fprintf(w.b, `<p%s%s>%s</p>`, lead, w.style(w.size, ""), w.text(bl.text))
		case "title":
			fmt.Fprintf(w.b, `<h1%s>%s</h1>`, w.style(w.size*1.45, ";margin-bottom:"+pt(line(w.size)/2)),
				w.text(bl.text))
		case "heading":
			fmt.Fprintf(w.b, `<h2%s>%s</h2>`, w.style(w.size*1.15, ";margin-top:"+pt(line(w.size)/3)), w.text(bl.text))
		case "bold":
			if strings.TrimSpace(bl.text) == "" {
				continue
			}
			fmt.Fprintf(w.b, `<p%s%s>%s</p>`, lead, w.style(w.size, ";font-weight:bold"), w.text(bl.text))
		case "center", "right":
			fmt.Fprintf(w.b, `<p class="%s"%s>%s</p>`, bl.kind[:1], w.style(w.size, ""), w.text(bl.text))
		case "item":
			if w.open != "ul" {
				w.close()
				fmt.Fprintf(w.b, `<ul%s>`, w.style(w.size, ""))
				w.open = "ul"
			}
			gap := ""
			if w.gap {
				gap = ";margin-top:" + pt(line(w.size)/2)
				w.gap = false
			}
			fmt.Fprintf(w.b, `<li%s>%s</li>`, w.style(w.size, gap), w.text(bl.text))
		case "row":
			if w.open != "table" {
				fmt.Fprintf(w.b, `<table%s>`, w.style(w.size, ";margin-left:"+pt(w.size*1.5)))
				w.open = "table"
			}
			w.b.WriteString(`<tr>`)
			for k, c := range bl.cells {
				if k == 0 {
					fmt.Fprintf(w.b, `<th scope="row" style="padding-right:%s">%s</th>`, pt(w.size), w.text(c))
					continue
				}
				fmt.Fprintf(w.b, `<td>%s</td>`, w.text(c))
			}
			w.b.WriteString(`</tr>`)
		case "space":
			fmt.Fprintf(w.b, `<div%s></div>`, w.style(w.size, ";height:"+pt(line(w.size))))
		case "rule":
			w.b.WriteString(`<hr>`)
		case "page":
			w.breakNext = true
		case "size":
			fmt.Sscan(bl.text, &w.size)
		case "at":
			i = w.at(blocks, i)
		}
	}
	w.endFirst()
}

// endFirst closes the first page's box of places, if open.
func (w *htmlWriter) endFirst() {
	w.closeHead()
	if w.inHead {
		w.b.WriteString(`</div>`)
		w.inHead = false
	}
	if w.first {
		w.b.WriteString(`</div>`)
		w.first = false
	}
}

// at moves to the place of the first page that blocks[i] names, and returns the index of
// the last block it wrote: the window's lines are written here.
func (w *htmlWriter) at(blocks []block, i int) int {
	switch blocks[i].text {
	case "top":
		w.part("a")
	case "below":
		w.part("b")
	case "endorsement":
		w.place(2, "")
	case "window":
		// The address block: every line up to @at body, in the window, in the type size
		// the untagged layout chose, leaded as it leads them.
		w.place(3, fmt.Sprintf(";margin-left:%s;width:%s;line-height:1.15", mm(windowLeft-margin), mm(windowWidth)))
		j := i + 1
		for ; j < len(blocks) && !(blocks[j].kind == "at" && blocks[j].text == "body"); j++ {
			bl := blocks[j]
			if bl.text == "" || bl.kind == "space" {
				continue
			}
			weight := "normal"
			if bl.kind == "bold" {
				weight = "bold"
			}
			fmt.Fprintf(w.b, `<p style="font-size:%s;font-weight:%s;white-space:normal">%s</p>`, pt(w.windowType), weight,
				w.text(bl.text))
		}
		return j - 1
	case "body":
		w.endFirst()
	}
	return i
}
