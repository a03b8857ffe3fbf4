package letters_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"slices"
	"strings"
	"testing"

	"codeberg.org/go-pdf/fpdf"
	"github.com/ledongthuc/pdf"

	"ethicsbot/docket"
	"ethicsbot/letters"
	"ethicsbot/letters/pdfcheck"
)

// files is a case file in memory.
type files map[string][]byte

func (f files) DocumentData(_ context.Context, _, sha string) ([]byte, error) {
	if b, ok := f[sha]; ok {
		return b, nil
	}
	return nil, docket.NotFound("", "document", "no document "+sha)
}

func (f files) LetterData(ctx context.Context, number, sha string) ([]byte, error) {
	return f.DocumentData(ctx, number, sha)
}

// add puts data in the case file of c as a document of kind k.
func (f files) add(c *docket.Case, title string, k docket.DocumentKind, media string, data []byte) {
	h := sha256.Sum256(data)
	sha := hex.EncodeToString(h[:])
	f[sha] = data
	c.Documents = append(c.Documents,
		docket.Document{SHA256: sha, Title: title, Kind: k, MediaType: media, Size: int64(len(data)),
			Added: docket.NewDate(2026, 12, 4)})
}

// scanned is a PDF of pages, each printing its line, as a scanner's would be.
func scanned(t *testing.T, lines ...string) []byte {
	t.Helper()
	p := fpdf.New("P", "mm", "Letter", "")
	p.SetFont("Helvetica", "", 14)
	for _, l := range lines {
		p.AddPage()
		p.Cell(0, 10, l)
	}
	var b bytes.Buffer
	if err := p.Output(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func photo(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 40, 30))
	for x := range 40 {
		img.Set(x, 15, color.Black)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func pages(t *testing.T, data []byte) []string {
	t.Helper()
	r, err := pdf.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("the packet does not read back: %v", err)
	}
	var out []string
	for i := 1; i <= r.NumPage(); i++ {
		text, _ := r.Page(i).GetPlainText(nil)
		out = append(out, text)
	}
	return out
}

// TestPackets: the (B) notice is the letter followed by the complaint's own pages; the
// (C)(3) transmittal is the letter, the index of the case file, and every document, an
// image on a page of its own.
func TestPackets(t *testing.T) { packets(t, mustMaker(t, config)) }

// TestTaggedPackets: the packets of tagged letters are the same: the letter, the index
// and the case file's documents, with the same page counts.
func TestTaggedPackets(t *testing.T) { packets(t, taggedMaker(t)) }

// packets checks the packets of m's letters.
func packets(t *testing.T, m *letters.Maker) {
	f := files{}
	c := received()
	f.add(c, "Signed complaint", docket.ComplaintDocument, docket.MediaPDF,
		scanned(t, "COMPLAINT PAGE ONE", "COMPLAINT PAGE TWO"))
	f.add(c, "Photo of the email", docket.ExhibitDocument, docket.MediaPNG, photo(t))

	d, err := m.Packet(context.Background(), c, "respondent", today, f)
	if err != nil {
		t.Fatal(err)
	}
	ps := pages(t, d.Data)
	if len(ps) != 3 || !Contains(ps[0], "Notice of Complaint") ||
		!Contains(ps[0], "Copy of the complaint as received: Signed complaint") ||
		!Contains(ps[1], "COMPLAINT PAGE ONE") || !Contains(ps[2], "COMPLAINT PAGE TWO") {
		t.Fatalf("the respondent's packet is not the letter and the complaint's two pages: %q", ps)
	}
	if Contains(ps[0], "Used city email to campaign.") {
		t.Errorf("the letter prints the typed summary although the complaint as received is enclosed")
	}

	r := ruled(docket.AttorneyReferral)
	r.Documents = c.Documents
	d, err = m.Packet(context.Background(), r, "referral", today, f)
	if err != nil {
		t.Fatal(err)
	}
	ps = pages(t, d.Data)
	if len(ps) != 5 {
		t.Fatalf("the transmittal has %d pages, want the letter, the index, two of the complaint and one of the photo: %q",
			len(ps), ps)
	}
	idx := ps[1]
	for _, w := range []string{"Index of the case file", "Signed complaint", "complaint", "Photo of the email", "exhibit",
		"4 Dec 2026", "1-2", c.Documents[0].SHA256[:16], c.Documents[1].SHA256[:16]} {
		if !Contains(idx, w) {
			t.Errorf("the index lacks %q:\n%s", w, idx)
		}
	}
	if !Contains(ps[2], "COMPLAINT PAGE ONE") || !Contains(ps[3], "COMPLAINT PAGE TWO") {
		t.Errorf("the complaint's pages do not follow the index: %q", ps[2:])
	}
	if !Contains(idx, "2 documents, 3 pages") || !Contains(ps[0], "Index of the case file (2 documents)") {
		t.Errorf("the counts of the index and of the letter's enclosures:\n%s\n%s", idx, ps[0])
	}
	t.Run("OneDocument", func(t *testing.T) {
		// The counts agree with their number: "1 document, 1 page", never "1 documents".
		one := ruled(docket.AttorneyReferral)
		of := files{}
		of.add(one, "Photo of the email", docket.ExhibitDocument, docket.MediaPNG, photo(t))
		d, err := m.Packet(context.Background(), one, "referral", today, of)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(pages(t, d.Data), "\n")
		if !Contains(text, "1 document, 1 page;") || !Contains(text, "Index of the case file (1 document)") {
			t.Errorf("the counts of one document of one page:\n%s", text)
		}
	})

	t.Run("ErrUnreadable", func(t *testing.T) {
		bad := received()
		bf := files{}
		bf.add(bad, "Torn scan", docket.ComplaintDocument, docket.MediaPDF, []byte("%PDF-1.4\nnot a pdf at all\n%%EOF\n"))
		_, err := m.Packet(context.Background(), bad, "respondent", today, bf)
		if err == nil || !strings.Contains(err.Error(), `"Torn scan"`) || !strings.Contains(err.Error(), "(B)") {
			t.Fatalf("got %v, want a refusal naming the document and the rule", err)
		}
	})
	t.Run("WithoutCaseFile", func(t *testing.T) {
		d, err := m.Packet(context.Background(), received(), "respondent", today, nil)
		if err != nil {
			t.Fatal(err)
		}
		if text := Text(t, d.Data); !Contains(text, "Used city email to campaign.") ||
			!Contains(text, "no copy of the complaint as received is in the case file") {
			t.Errorf("a case without the complaint's document encloses its text, and says so:\n%s", text)
		}
	})
}

var _ letters.Files = files{}

// TestTaggedPacketKeepsTheLetter: the packet of a tagged letter keeps the letter's pages
// tagged, its structure tree whole (the same elements as the letter alone, read by
// pdfcpu and by poppler), its language and title; the (C)(3) index of the case file, drawn
// as before, joins that tree after the letter: a section with its heading, paragraphs and
// table, the first row heading the columns, each paragraph read with the spaces where its
// lines wrap. As its enclosures are the parties' documents as filed, neither tagged nor
// archival, the packet declares neither PDF/A nor PDF/UA, which the letter alone does, and
// only the enclosures' pages paint outside the tags. Its syntax passes qpdf.
func TestTaggedPacketKeepsTheLetter(t *testing.T) {
	m := taggedMaker(t)
	f := files{}
	c := received()
	f.add(c, "Signed complaint", docket.ComplaintDocument, docket.MediaPDF,
		scanned(t, "COMPLAINT PAGE ONE", "COMPLAINT PAGE TWO"))
	r := ruled(docket.AttorneyReferral)
	r.Documents = c.Documents
	index := []string{"  Sect", "    H1", "    P", "    Table", "      TR", "        TH", "        TH", "        TH",
		"        TH", "        TH", "        TH", "      TR", "        TD", "        TD", "        TD", "        TD",
		"        TD", "        TD", "    P"}
	for _, tc := range []struct {
		kind    letters.Kind
		c       *docket.Case
		index   []string // the index's elements, after the letter's
		letter  int      // the letter's pages, and the index's
		tagged  int      // the pages tagged: the letter's and the index's
		readsAs []string // what poppler reads in the tree
	}{
		{"respondent", c, nil, 1, 1, []string{`"Case 2026-001"`}},
		{"referral", r, index, 1, 2, []string{`"Case 2026-001"`, `"Index of the case file, case 2026-001"`,
			"in the custody of the commission concerning", "/Scope /Column", `"SHA-256"`, `"Signed complaint"`,
			`"1 document, 2 pages; the page numbers count from the first page after this index."`}},
	} {
		t.Run(string(tc.kind), func(t *testing.T) {
			packet, err := m.Packet(context.Background(), tc.c, tc.kind, today, f)
			if err != nil {
				t.Fatal(err)
			}
			alone, err := m.EnclosingLetter(tc.c, tc.kind, today)
			if err != nil {
				t.Fatal(err)
			}
			want, err := checkTagged(alone.Data, alone.Title)
			if err != nil || len(want.Failures) > 0 {
				t.Fatalf("the letter alone: %v %v", err, want.Failures)
			}
			got, err := checkTagged(packet.Data, packet.Title)
			if err != nil {
				t.Fatal(err)
			}
			if w := append(slices.Clone(want.Tree), tc.index...); !slices.Equal(got.Tree, w) {
				t.Errorf("the packet's structure tree is not the letter's and the index's:\n%s\nwant\n%s",
					strings.Join(got.Tree, "\n"), strings.Join(w, "\n"))
			}
			for _, f := range got.Failures {
				for _, bad := range []string{"/MarkInfo", "/Lang", "/DisplayDocTitle", "/Title", "/StructTreeRoot", "/ID",
					"not a stream", "filtered", "neither standard nor role-mapped"} {
					if strings.Contains(f, bad) {
						t.Errorf("the packet lost what the letter had: %s", f)
					}
				}
				for p := 1; p <= tc.tagged; p++ {
					if strings.HasPrefix(f, fmt.Sprintf("page %d paints", p)) {
						t.Errorf("the letter's or the index's page is not all tagged: %s", f)
					}
				}
			}
			for _, claim := range []string{`pdfaid:part="2"`, `pdfuaid:part="1"`, "/OutputIntents"} {
				if !slices.ContainsFunc(got.Failures, func(f string) bool { return strings.Contains(f, claim) }) {
					t.Errorf("the packet with enclosures as filed still declares %s", claim)
				}
			}
			if !slices.ContainsFunc(got.Failures, func(f string) bool {
				return strings.HasPrefix(f, fmt.Sprintf("page %d paints", tc.tagged+1))
			}) {
				t.Errorf("the enclosure's page was changed: it paints nothing outside the tags: %v", got.Failures)
			}
			qpdfCheck(t, packet.Data)
			if st := pdfcheck.StructText(t, packet.Data); st != "" {
				if el := pdfcheck.Elements(st); !slices.Equal(el, got.Tree) {
					t.Errorf("poppler reads another structure tree:\n%s", st)
				}
				for _, w := range tc.readsAs {
					if !strings.Contains(st, w) {
						t.Errorf("poppler does not read %s in the packet's tree:\n%s", w, st)
					}
				}
			}
		})
	}
}

// TestTaggedIndexOverPages: an index of many documents, over two pages, is tagged on
// both: every document a row of its table, the foot of each page an artifact, and the
// closing paragraph, wherever it falls, one element.
func TestTaggedIndexOverPages(t *testing.T) {
	m := taggedMaker(t)
	f := files{}
	r := ruled(docket.AttorneyReferral)
	for i := range 45 {
		f.add(r, fmt.Sprintf("Exhibit %d: a photograph of the email of %d May", i+1, i%28+1), docket.ExhibitDocument,
			docket.MediaPNG, photoOf(t, i))
	}
	packet, err := m.Packet(context.Background(), r, "referral", today, f)
	if err != nil {
		t.Fatal(err)
	}
	got, err := checkTagged(packet.Data, packet.Title)
	if err != nil {
		t.Fatal(err)
	}
	tree := strings.Join(got.Tree, "\n") + "\n"
	if n := strings.Count(tree, "      TR\n"); n != 46 {
		t.Errorf("%d rows in the index's table, want a row of headings and 45", n)
	}
	alone, err := m.EnclosingLetter(r, "referral", today)
	if err != nil {
		t.Fatal(err)
	}
	tagged := len(pages(t, packet.Data)) - 45 // the letter's pages and the index's
	if index := tagged - len(pages(t, alone.Data)); index < 2 {
		t.Fatalf("the index has %d pages, want more than one", index)
	}
	for _, f := range got.Failures {
		for p := 1; p <= tagged; p++ {
			if strings.HasPrefix(f, fmt.Sprintf("page %d paints", p)) {
				t.Errorf("the index's page is not all tagged: %s", f)
			}
		}
	}
	qpdfCheck(t, packet.Data)
	if st := pdfcheck.StructText(t, packet.Data); st != "" {
		if el := pdfcheck.Elements(st); !slices.Equal(el, got.Tree) {
			t.Errorf("poppler reads another structure tree:\n%s", st)
		}
		if !strings.Contains(st, `"Exhibit 45: a photograph of the email of 17 May"`) {
			t.Errorf("the last row is not read:\n%s", st)
		}
	}
}

// photoOf is an image different for each i, so that each is a document of its own.
func photoOf(t *testing.T, i int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 40, 30))
	img.Set(i%40, i/40, color.Black)
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
