package letters

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/api"
)

// TestTaggerOverPageBreak: a paragraph that fpdf carries over a page break is marked on
// each page, an MCID of each page's own, its sequence closed before the page's foot, which
// is an artifact, and opened again on the next page: every page paints only within marked
// content, and each page's sequences are balanced.
func TestTaggerOverPageBreak(t *testing.T) {
	p := newDocument("Tagger", margin)
	tg := newTagger(p, "Sect", func() { pageFoot(p, "Tagger") })
	p.AddPage()
	p.SetFont("go", "", 10)
	head := tg.add(tg.root, "H1", "")
	tg.draw(head, func() { p.MultiCell(0, 7, "Heading", "", "C", false) })
	para := tg.add(tg.root, "P", "")
	tg.draw(para, func() { wrapped(p, 0, 5, strings.Repeat("A sentence that goes on and on. ", 400)) })
	var out bytes.Buffer
	if err := p.Output(&out); err != nil {
		t.Fatal(err)
	}
	if len(para.marks) < 2 {
		t.Fatalf("the paragraph has the marked-content sequences %v, want one on each of its pages", para.marks)
	}
	for i, m := range para.marks {
		if want := (markRef{page: i + 1, mcid: 0}); i > 0 && m != want {
			t.Errorf("sequence %d is %+v, want %+v", i, m, want)
		}
	}
	if para.marks[0] != (markRef{page: 1, mcid: 1}) || head.marks[0] != (markRef{page: 1, mcid: 0}) {
		t.Errorf("page 1's sequences: heading %v, paragraph %v", head.marks, para.marks)
	}
	ctx, err := api.ReadContext(bytes.NewReader(out.Bytes()), pdfConfig())
	if err != nil {
		t.Fatal(err)
	}
	if err := ctx.EnsurePageCount(); err != nil {
		t.Fatal(err)
	}
	if ctx.PageCount != len(para.marks) || tg.result().pages != ctx.PageCount {
		t.Errorf("%d pages, %d sequences of the paragraph, %d pages told", ctx.PageCount, len(para.marks),
			tg.result().pages)
	}
	for n := 1; n <= ctx.PageCount; n++ {
		pd, _, _, err := ctx.PageDict(n, false)
		if err != nil {
			t.Fatal(err)
		}
		content, err := pageContent(ctx, pd)
		if err != nil {
			t.Fatal(err)
		}
		if u, err := UnmarkedPaint(content); err != nil || u != 0 {
			t.Errorf("page %d paints %d times outside marked content (%v)", n, u, err)
		}
		if _, _, err := markArtifacts(content); err != nil {
			t.Errorf("page %d: %v", n, err)
		}
		if !strings.Contains(string(content), "/Artifact BMC") {
			t.Errorf("page %d's foot is not an artifact", n)
		}
	}
}
