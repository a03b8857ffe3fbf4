package letters_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
	"ethicsbot/letters"
)

// corpus is what becomes of each hostile document: refused when added, saying why (want),
// or read ("" for want). A packet that encloses it, had it been put in the record without
// that check, is refused for the same reason, or made; packet says so where it differs.
var corpus = []struct{ file, want, packet string }{
	{file: "nested-arrays.pdf.gz", want: "nested more than 500 deep; the limit is 500 levels"},
	{file: "deep-dictionaries.pdf.gz", want: "nested more than 500 deep; the limit is 500 levels"},
	{file: "nested-501.pdf", want: "nested more than 500 deep; the limit is 500 levels"},
	{file: "nested-500.pdf"},
	{file: "objstm-nested.pdf", want: "nested more than 500 deep; the limit is 500 levels"},
	{file: "objstm-escaped.pdf", want: "nested more than 500 deep; the limit is 500 levels"},
	{file: "objstm-hex-arrays.pdf.gz", want: "(1.0 GB of memory, 64 MB of stack, 64 seconds): it needed more than " +
		"64 MB of stack"},
	{file: "objstm-hex-dictionaries.pdf.gz", want: "(1.0 GB of memory, 64 MB of stack, 64 seconds): it needed more " +
		"than 64 MB of stack"},
	{file: "objstm-readable.pdf"},
	{file: "loop-kids.pdf", want: "it is not a readable PDF (pdfcpu: validatePagesDict: missing parent node)"},
	{file: "loop-parent.pdf", want: "it is not a readable PDF (pdfcpu: validatePagesDict: missing parent node)"},
	{file: "billion-pages.pdf", want: "its page tree claims 1,000,000,000 pages; the limit is 2,000 pages"},
	{file: "deep-page-tree.pdf.gz"},
	{file: "many-objects.pdf.gz", want: "it has more than 100,000 objects; the limit is 100,000 objects"},
	{file: "declared-objects.pdf", want: "it has more than 100,000 objects; the limit is 100,000 objects"},
	{file: "billion-objects.pdf"},
	{file: "flate-bomb.pdf.gz", want: "its compressed streams inflate to more than 256 MB; the limit is 256 MB"},
	{file: "objstm-bomb.pdf.gz", want: "its compressed streams inflate to more than 256 MB; the limit is 256 MB"},
	{file: "truncated.pdf", want: "truncated.pdf starts like a PDF but has no %%EOF at its end", packet: "made"},
	{file: "truncated-eof.pdf"},
	{file: "garbage.pdf", want: "it is not a readable PDF (pdfcpu: "},
	{file: "polyglot.pdf"},
	{file: "readable.pdf"},
	{file: "not-zlib.png", want: "it is not a readable image (zlib: invalid header)"},
	{file: "huge.png", want: "it is an image of 100000 by 100000 pixels, 10,000,000,000; the limit is 50,000,000 pixels"},
	{file: "torn.jpg", want: "it is not a readable image (unexpected EOF)"},
}

// TestHostileDocuments: each document of the hostile corpus is refused when added, naming
// the file and the bound or the reason, or read; each reading ends within the bounds of
// time and memory; and this process, which a stack overflow in the PDF library used to end,
// goes on to read the next.
func TestHostileDocuments(t *testing.T) {
	ctx := context.Background()
	for _, tc := range corpus {
		t.Run(tc.file, func(t *testing.T) {
			name := strings.TrimSuffix(tc.file, ".gz")
			data := letters.HostileFile(t, tc.file)
			start := time.Now()
			err := letters.CheckUploads(ctx, []docket.Upload{{Name: name, Data: data}}, docket.DefaultDocumentLimit)
			took := time.Since(start)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) ||
				!strings.Contains(err.Error(), name+" ")):
				t.Fatalf("got %v, want a refusal naming %s and saying %q", err, name, tc.want)
			}
			if limit := letters.Bounds().Time + 5*time.Second; took > limit {
				t.Errorf("it took %v to judge, more than %v", took, limit)
			}
			media, err := docket.SniffDocument(name, data, docket.DefaultDocumentLimit)
			if err != nil {
				return
			}
			cpu, rss, _ := letters.ReadCost(ctx, media, data)
			t.Logf("%d bytes, judged in %v; its reading took %v of processor time and %.0f MB of memory", len(data),
				took.Round(time.Millisecond), cpu.Round(time.Millisecond), float64(rss)/(1<<20))
			if rss > letters.Bounds().Memory {
				t.Errorf("its reading took %d bytes of memory, more than the bound", rss)
			}
		})
	}
	if err := letters.CheckUploads(ctx,
		[]docket.Upload{{Name: "readable.pdf", Data: letters.HostileFile(t, "readable.pdf")}},
		docket.DefaultDocumentLimit); err != nil {
		t.Fatalf("after the corpus, a readable PDF: %v", err)
	}
}

// TestReadingLimits: a document that the scan lets by (here because its bounds are lifted)
// and that makes the PDF library run for minutes, or allocate without end, is stopped by
// the limits of its reading process, and refused naming the limit it met.
func TestReadingLimits(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		bounds     func(*letters.ReadBounds)
		want       string
	}{
		// 1.6 MB: 3 seconds and 2 more for its size; 1 GB and 4 times its size.
		{"Time", "deep-dictionaries.pdf.gz",
			func(b *letters.ReadBounds) { b.Nesting, b.Stack, b.Time = 1<<30, 1<<30, 3*time.Second },
			"it cannot be read within the limits of a reading (1.0 GB of memory, 1 GB of stack, 5 seconds): it took " +
				"longer than 5 seconds"},
		// 1.0 MB: 256 MB and 4 times its size.
		{"Memory", "objstm-bomb.pdf.gz", func(b *letters.ReadBounds) { b.Decoded, b.Memory = 1<<40, 256<<20 },
			"it cannot be read within the limits of a reading (260.0 MB of memory, 64 MB of stack, 61 seconds): it " +
				"needed more than 260.0 MB of memory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			letters.WithBounds(t, tc.bounds)
			name := strings.TrimSuffix(tc.file, ".gz")
			start := time.Now()
			err := letters.CheckUploads(context.Background(),
				[]docket.Upload{{Name: name, Data: letters.HostileFile(t, tc.file)}},
				docket.DefaultDocumentLimit)
			if err == nil || !strings.Contains(err.Error(), name+" cannot be added: "+tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
			t.Logf("refused in %v", time.Since(start).Round(time.Millisecond))
		})
	}
}

// TestPacketsOfHostileDocuments: documents that passed no check (put in the record before
// there was one, or by hand) are read within the same bounds when a packet encloses them:
// the (B) notice that encloses one beyond them is refused, naming the document and the
// limit, and the next packet is made.
func TestPacketsOfHostileDocuments(t *testing.T) {
	m := mustMaker(t, config)
	for _, tc := range corpus {
		t.Run(tc.file, func(t *testing.T) {
			data := letters.HostileFile(t, tc.file)
			media := docket.MediaPDF
			switch {
			case strings.HasSuffix(tc.file, ".png"):
				media = docket.MediaPNG
			case strings.HasSuffix(tc.file, ".jpg"):
				media = docket.MediaJPEG
			}
			c, f := received(), files{}
			f.add(c, "Complaint "+tc.file, docket.ComplaintDocument, media, data)
			d, err := m.Packet(context.Background(), c, "respondent", today, f)
			want := tc.want
			if tc.packet != "" {
				want = ""
			}
			if want == "" {
				if err != nil {
					t.Fatalf("the packet is refused: %v", err)
				}
				if ps := pages(t, d.Data); len(ps) < 2 || !Contains(ps[0], "Notice of Complaint") {
					t.Fatalf("the packet is not the letter and the complaint: %q", ps)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), "the notice of the complaint to the respondent cannot enclose the "+
				`document "Complaint `+tc.file+`" of case 2026-001: `) || !strings.Contains(err.Error(), want) {
				t.Fatalf("got %v, want the packet refused, naming the document and saying %q", err, want)
			}
		})
	}
	c, f := received(), files{}
	f.add(c, "Signed complaint", docket.ComplaintDocument, docket.MediaPDF, letters.HostileFile(t, "readable.pdf"))
	if _, err := m.Packet(context.Background(), c, "respondent", today, f); err != nil {
		t.Fatalf("after the corpus, a readable complaint: %v", err)
	}
}
