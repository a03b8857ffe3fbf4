package letters

import (
	"fmt"

	"codeberg.org/go-pdf/fpdf"
)

// The (C)(3) index of the case file is drawn by fpdf, as it always was, so that the
// packet's pages stay as they are; fpdf cannot tag, but it can write what PDF calls marked
// content around what it draws (RawWriteStr). tagger marks each part of the index as the
// content of a structure element (ISO 32000-1, 14.7.4: BDC with an MCID), and the foot of
// each page as an artifact; enclosing then adds those elements to the letter's structure
// tree in the packet, so that a screen reader reads the index after the letter: its title,
// its paragraphs, and its table with the columns' headings.

// structElem is a structure element of the index: its type, its attributes as PDF, its
// children, and its own content, each marked-content sequence by page and MCID.
type structElem struct {
	role  string
	attrs string
	kids  []*structElem
	marks []markRef
}

// markRef is a marked-content sequence: its page (1 for the index's first) and MCID.
type markRef struct{ page, mcid int }

// tagger marks what p draws as the content of structure elements.
type tagger struct {
	p    *fpdf.Fpdf
	root *structElem
	cur  *structElem // the element whose content is being drawn, nil between elements
	next map[int]int // each page's next MCID
}

// newTagger marks what p draws under a root element of type role. The foot that p's
// footer draws is marked an artifact; an element whose content goes on over a page break
// gets a marked-content sequence on each page.
func newTagger(p *fpdf.Fpdf, role string, footer func()) *tagger {
	t := &tagger{p: p, root: &structElem{role: role}, next: map[int]int{}}
	p.SetFooterFunc(func() {
		if t.cur != nil {
			p.RawWriteStr("EMC")
		}
		p.RawWriteStr("/Artifact BMC")
		footer()
		p.RawWriteStr("EMC")
	})
	p.SetHeaderFunc(func() {
		if t.cur != nil {
			t.open()
		}
	})
	return t
}

// add is a new element of type role, with attrs, the last child of parent.
func (t *tagger) add(parent *structElem, role, attrs string) *structElem {
	e := &structElem{role: role, attrs: attrs}
	parent.kids = append(parent.kids, e)
	return e
}

// draw marks what draw draws as the content of e.
func (t *tagger) draw(e *structElem, draw func()) {
	t.cur = e
	t.open()
	draw()
	t.p.RawWriteStr("EMC")
	t.cur = nil
}

// open begins a marked-content sequence of the current element on the current page.
func (t *tagger) open() {
	page := t.p.PageNo()
	id := t.next[page]
	t.next[page]++
	t.cur.marks = append(t.cur.marks, markRef{page: page, mcid: id})
	t.p.RawWriteStr(fmt.Sprintf("/%s <</MCID %d>> BDC", t.cur.role, id))
}

// tagged is what a tagger marked in a document of pages pages: its structure.
type tagged struct {
	root  *structElem
	pages int
}

// result is what t marked, once its document is drawn.
func (t *tagger) result() *tagged { return &tagged{root: t.root, pages: t.p.PageNo()} }

// wrapped draws text as MultiCell(w, h, text, "", "L", false) does, line by line, but
// each line that wraps keeps the space where it wraps: MultiCell drops it, and a reader
// of the lines, a screen reader's among them, runs the words on either side into one ("of
// thecommission"). A space at the end of a line set to the left draws nothing. w is the
// width, 0 for as far as the right margin.
func wrapped(p *fpdf.Fpdf, w, h float64, text string) {
	if w == 0 {
		pw, _ := p.GetPageSize()
		_, _, r, _ := p.GetMargins()
		w = pw - r - p.GetX()
	}
	x := p.GetX()
	lines := p.SplitText(text, w)
	for i, l := range lines {
		if i < len(lines)-1 {
			l += " "
		}
		p.SetX(x)
		p.CellFormat(w, h, l, "", 2, "L", false, 0, "")
	}
}
