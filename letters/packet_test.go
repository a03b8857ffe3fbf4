package letters_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
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
// pdfcpu and by poppler), its language and title; and, as its enclosures are the parties'
// documents as filed, neither tagged nor archival, it declares neither PDF/A nor PDF/UA,
// which the letter alone does. Its syntax passes qpdf.
func TestTaggedPacketKeepsTheLetter(t *testing.T) {
	m := taggedMaker(t)
	f := files{}
	c := received()
	f.add(c, "Signed complaint", docket.ComplaintDocument, docket.MediaPDF,
		scanned(t, "COMPLAINT PAGE ONE", "COMPLAINT PAGE TWO"))
	r := ruled(docket.AttorneyReferral)
	r.Documents = c.Documents
	for _, tc := range []struct {
		kind letters.Kind
		c    *docket.Case
	}{{"respondent", c}, {"referral", r}} {
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
			if !slices.Equal(got.Tree, want.Tree) {
				t.Errorf("the packet's structure tree is not the letter's:\n%s\nwant\n%s", strings.Join(got.Tree, "\n"),
					strings.Join(want.Tree, "\n"))
			}
			for _, f := range got.Failures {
				for _, bad := range []string{"/MarkInfo", "/Lang", "/DisplayDocTitle", "/Title", "/StructTreeRoot", "/ID",
					"not a stream", "filtered"} {
					if strings.Contains(f, bad) {
						t.Errorf("the packet lost what the letter had: %s", f)
					}
				}
			}
			for _, claim := range []string{`pdfaid:part="2"`, `pdfuaid:part="1"`, "/OutputIntents"} {
				if !slices.ContainsFunc(got.Failures, func(f string) bool { return strings.Contains(f, claim) }) {
					t.Errorf("the packet with enclosures as filed still declares %s", claim)
				}
			}
			if !slices.ContainsFunc(got.Failures, func(f string) bool { return strings.Contains(f, "neither tagged") }) {
				t.Errorf("the enclosures' pages were changed: they paint nothing outside the tags: %v", got.Failures)
			}
			qpdfCheck(t, packet.Data)
			if st := pdfcheck.StructText(t, packet.Data); st != "" && !strings.Contains(st, `"Case 2026-001"`) {
				t.Errorf("poppler does not read the letter's text in the packet's tree:\n%s", st)
			}
		})
	}
}
