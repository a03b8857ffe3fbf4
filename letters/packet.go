package letters

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"

	"codeberg.org/go-pdf/fpdf"
	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"

	"ethicsbot/docket"
)

// The packets are merged with pdfcpu (github.com/pdfcpu/pdfcpu, Apache 2.0), a pure-Go PDF
// processor maintained since 2017 that reads, validates and merges PDF files without cgo.
// Version v0.11.1 is the newest that the module list marks approved; v0.15.0 is served
// only from an earlier copy, not an approved release. fpdf, which draws the letters,
// writes PDFs but cannot read them.

// Files gives the bytes of the documents of a case file; store.Store is one.
type Files interface {
	DocumentData(ctx context.Context, number, sha string) ([]byte, error)
	// LetterData gives the bytes of a letter as sent that a mailing of the case kept.
	LetterData(ctx context.Context, number, sha string) ([]byte, error)
}

// pdfConfig is pdfcpu's configuration, with its configuration directory disabled: pdfcpu
// would otherwise write a config.yml into the user's configuration directory, and exit
// the process if it cannot.
var pdfConfig = sync.OnceValue(func() *model.Configuration {
	api.DisableConfigDir()
	c := model.NewDefaultConfiguration()
	c.ValidationMode = model.ValidationRelaxed
	return c
})

// enclosed is a document of the case file read for a packet: its bytes as one PDF (an
// image is put on a page of its own) and its number of pages.
type enclosed struct {
	doc   docket.Document
	pdf   []byte
	pages int
}

// Packet produces document k for case c as it goes into the envelope: the letter followed
// by what it encloses. The (B) notice to the respondent encloses the complaint as received,
// its own pages from the case file; the (C)(3) transmittal to the attorney encloses an
// index of every document in the case file and then the documents, in the order they were
// added. Any other document is the letter alone. A document of the case file that is not
// a readable PDF or image is refused, naming it: nothing is silently left out.
//
// Packet makes the packet as it goes out, unmarked: the one a mailing keeps as sent.
func (m *Maker) Packet(ctx context.Context, c *docket.Case, k Kind, today docket.Date, files Files) (Document, error) {
	return m.packet(ctx, c, k, today, files, "")
}

// packet is Packet, its letter's pages headed by mark if it is not "" (render).
func (m *Maker) packet(ctx context.Context, c *docket.Case, k Kind, today docket.Date, files Files,
	mark string) (Document, error) {
	info, isPaper := docket.Paper(k).Info()
	var docs []docket.Document
	switch {
	case isPaper && info.Documents:
		docs = c.Documents
	case isPaper && info.Complaint:
		if i := complaintDocument(c); i >= 0 {
			docs = c.Documents[i : i+1]
		}
	}
	if len(docs) > 0 && files == nil {
		return Document{}, docket.Unavailable(fmt.Sprintf("the %s encloses documents of the case file, and the case file "+
			"cannot be read here", k.Name()))
	}
	// refused is the refusal of the packet for a document of the case file that cannot be
	// read, naming it: when the packet's documents are read, or merged.
	refused := func(err error, first int) error {
		var u *unreadable
		if !errors.As(err, &u) || u.at < first || u.at >= first+len(docs) {
			return fmt.Errorf("case %s: the %s and its enclosures: %w", c.Number, k.Name(), err)
		}
		return docket.Invalid(info.Rule, "document",
			fmt.Sprintf("the %s cannot enclose the document %q of case %s: %v; void it and attach a readable copy with "+
				"/ethics attach %s", k.Name(), docs[u.at-first].Title, c.Number, u.err, c.Number))
	}
	job := readJob{Bounds: bounds}
	for _, d := range docs {
		data, err := files.DocumentData(ctx, c.Number, d.SHA256)
		if err != nil {
			return Document{}, err
		}
		job.Docs = append(job.Docs, readDoc{Media: d.MediaType, Data: data})
	}
	var encl []enclosed
	if len(docs) > 0 {
		got, err := read(ctx, job)
		if err != nil {
			return Document{}, refused(err, 0)
		}
		for i, d := range docs {
			e := enclosed{doc: d, pdf: got.PDFs[i], pages: got.Pages[i]}
			if e.pdf == nil {
				e.pdf = job.Docs[i].Data
			}
			encl = append(encl, e)
		}
	}
	letter, err := m.make(c, k, today, len(docs) > 0 && complaintDocument(c) >= 0, mark)
	letter.Draft = mark != "" && err == nil
	if err != nil || len(encl) == 0 {
		return letter, err
	}
	parts := [][]byte{letter.Data}
	var index *tagged // the index's structure, to join the letter's
	if info.Documents {
		var pdf []byte
		if pdf, index, err = m.index(c, encl); err != nil {
			return Document{}, err
		}
		parts = append(parts, pdf)
	}
	first := len(parts)
	for _, e := range encl {
		parts = append(parts, e.pdf)
	}
	merged, err := merge(ctx, parts)
	if err != nil {
		return Document{}, refused(err, first)
	}
	// The letter's pages keep their tags; the packet declares neither PDF/A nor PDF/UA,
	// which its enclosures as filed are not (docs/record.md, "What the record keeps as sent").
	after := 0 // the enclosures' pages, after the index
	for _, e := range encl {
		after += e.pages
	}
	if letter.Data, err = enclosing(merged, letter.Title, m.clock(), index, after); err != nil {
		return Document{}, fmt.Errorf("case %s: the %s and its enclosures: %w", c.Number, k.Name(), err)
	}
	return letter, nil
}

// imagePage puts an image on a US Letter page of its own, within the margins, as large
// as fits without distorting it.
func imagePage(media string, data []byte) ([]byte, error) {
	p := fpdf.New("P", "mm", "Letter", "")
	p.SetMargins(margin, margin, margin)
	p.SetAutoPageBreak(false, margin)
	p.SetCreator("ethicsbot", true)
	p.AddPage()
	kind := "PNG"
	if media == docket.MediaJPEG {
		kind = "JPG"
	}
	opt := fpdf.ImageOptions{ImageType: kind}
	info := p.RegisterImageOptionsReader("document", opt, bytes.NewReader(data))
	if err := p.Error(); err != nil {
		return nil, err
	}
	w, h := p.GetPageSize()
	bw, bh := w-2*margin, h-2*margin
	iw, ih := info.Extent()
	if iw <= 0 || ih <= 0 {
		return nil, errors.New("it has no size")
	}
	scale := min(bw/iw, bh/ih)
	p.ImageOptions("document", margin+(bw-iw*scale)/2, margin, iw*scale, ih*scale, false, opt, 0, "")
	var out bytes.Buffer
	if err := p.Output(&out); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// index draws the (C)(3) index of the case file: each document's number, title, kind,
// the date it was added, its pages and the first 16 hex digits of its SHA-256, by which
// the attorney can check a copy against the record. What it draws is marked as the
// content of the structure elements it returns (tagger): a section with the heading, the
// paragraphs and the table, whose first row heads its columns.
func (m *Maker) index(c *docket.Case, encl []enclosed) ([]byte, *tagged, error) {
	title := fmt.Sprintf("Case %s: index of the case file", c.Number)
	p := newDocument(title, margin)
	t := newTagger(p, "Sect", func() { pageFoot(p, title) })
	p.AddPage()
	p.SetFont("go", "B", 14)
	heading := regular.printable(fmt.Sprintf("Index of the case file, case %s", c.Number))
	t.draw(t.add(t.root, "H1", ""), func() { p.MultiCell(0, 7, heading, "", "C", false) })
	p.SetFont("go", "", 10)
	intro := regular.printable(fmt.Sprintf("The complaint of %s against %s and all additional documents in the custody of "+
		"the commission concerning the alleged violation (C)(3), in the order they follow this index. Each is "+
		"identified by the first 16 hexadecimal digits of its SHA-256 as kept in the commission's record.",
		c.Complainant.Name, c.Respondent.Name))
	t.draw(t.add(t.root, "P", ""), func() { wrapped(p, 0, 5, intro) })
	p.Ln(3)
	cols := []struct {
		head  string
		width float64
	}{{"No.", 10}, {"Title", 62}, {"Kind", 24}, {"Added", 24}, {"Pages", 13}, {"SHA-256", 33}}
	table := t.add(t.root, "Table", "")
	heads := t.add(table, "TR", "")
	p.SetFont("go", "B", 9)
	for _, col := range cols {
		t.draw(t.add(heads, "TH", "/A<</O/Table/Scope/Column>>"), func() {
			p.CellFormat(col.width, 6, col.head, "B", 0, "L", false, 0, "")
		})
	}
	p.Ln(-1)
	p.SetFont("go", "", 9)
	first := 1
	for i, e := range encl {
		row := []string{fmt.Sprint(i + 1), e.doc.Title, string(e.doc.Kind), e.doc.Added.In(m.loc).Format("2 Jan 2006"),
			fmt.Sprintf("%d-%d", first, first+e.pages-1), e.doc.SHA256[:16]}
		if e.pages == 1 {
			row[4] = fmt.Sprint(first)
		}
		first += e.pages
		// The title wraps within its column; the other cells take the row's height.
		x, y := p.GetXY()
		lines := p.SplitText(regular.printable(row[1]), cols[1].width-1)
		h := 5 * float64(max(1, len(lines)))
		if y+h > 279.4-margin {
			p.AddPage()
			x, y = p.GetXY()
		}
		tr := t.add(table, "TR", "")
		for j, col := range cols {
			p.SetXY(x, y)
			t.draw(t.add(tr, "TD", ""), func() {
				if j == 1 {
					// As MultiCell would draw the lines, each keeping the space where it wraps.
					for k, l := range lines {
						if k < len(lines)-1 {
							l += " "
						}
						p.SetXY(x, y+5*float64(k))
						p.CellFormat(col.width-1, 5, l, "", 0, "L", false, 0, "")
					}
				} else {
					p.CellFormat(col.width, 5, regular.printable(row[j]), "", 0, "L", false, 0, "")
				}
			})
			x += col.width
		}
		p.SetXY(margin, y+h)
	}
	p.Ln(2)
	counts := fmt.Sprintf("%s, %s; the page numbers count from the first page after this index.",
		docket.Count(len(encl), "document"), docket.Count(first-1, "page"))
	t.draw(t.add(t.root, "P", ""), func() { wrapped(p, 0, 5, counts) })
	var out bytes.Buffer
	if err := p.Output(&out); err != nil {
		return nil, nil, fmt.Errorf("drawing %s: %w", title, err)
	}
	return out.Bytes(), t.result(), nil
}

// merge joins PDFs into one, in order, in a reading process. A part it cannot merge is an
// *unreadable naming it.
func merge(ctx context.Context, parts [][]byte) ([]byte, error) {
	job := readJob{Bounds: bounds, Merge: true}
	for _, p := range parts {
		job.Docs = append(job.Docs, readDoc{Media: docket.MediaPDF, Data: p})
	}
	got, err := read(ctx, job)
	if err != nil {
		return nil, err
	}
	return got.Merged, nil
}

// CheckUploads reads each file to be added to a case file as the packets will read it:
// docket.SniffDocument judges its type by its content and its size against limit, then a
// PDF is scanned, read and its pages counted by pdfcpu, and an image decoded whole and put
// on a page, all within the bounds of a reading (bounds.go). A PDF is checked to be a PDF,
// not trusted by its name, nor by its first and last bytes. (B) sends the respondent a copy
// of the complaint and (C)(3) the attorney every document in the Commission's custody, so
// one that cannot be read is refused when it is added, not when the letter that encloses it
// is mailed. Every way of adding a document (the Slack shortcut, the console and ethicsbot
// attach) calls it before the record's Attach.
func CheckUploads(ctx context.Context, docs []docket.Upload, limit int64) error {
	job := readJob{Bounds: bounds}
	for _, d := range docs {
		media, err := docket.SniffDocument(d.Name, d.Data, limit)
		if err != nil {
			return err
		}
		job.Docs = append(job.Docs, readDoc{Media: media, Data: d.Data})
	}
	if len(docs) == 0 {
		return nil
	}
	_, err := read(ctx, job)
	if u := (*unreadable)(nil); errors.As(err, &u) {
		return docket.Invalid("", "file", fmt.Sprintf("%s cannot be added: %v. A document of the case file is "+
			"copied to the respondent (ordinance (B)) and to the attorney ((C)(3)), so it must be a readable PDF, "+
			"PNG or JPEG", docs[u.at].Name, u.err))
	}
	return err
}
