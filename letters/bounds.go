package letters

import (
	"fmt"
	"time"

	"ethicsbot/docket"
)

// The bounds of reading a document of the case file. (B) and (C)(3) copy the case file's
// documents to the parties, so ethicsbot reads each one it is given: when it is added, and
// again when a packet encloses it. A document comes from anyone who writes to the
// commission, and a PDF can be made to cost any amount of work to read: arrays nested a
// million deep (a stack overflow in the PDF library, which no Go program survives), a page
// tree that claims a billion pages, a stream that inflates to gigabytes. So every reading
// is bounded, first by a scan of the file's syntax that costs no more than its size
// (scanPDF), then by doing the reading itself in a process of its own, with its own limits
// on memory, stack and time (reader.go): whatever the PDF library does with a document, the
// bot goes on. A document beyond a bound is refused, naming the bound.
const (
	// MaxNesting is how deep a PDF's arrays and dictionaries may be nested in one another.
	// A document's structures nest a few levels (a page's resources, a font's widths); qpdf,
	// the reference PDF toolkit, ignores anything nested deeper than 500.
	MaxNesting = 500
	// MaxObjects is how many objects a PDF may have (or declare in its cross-reference
	// /Size): some 50 for each of MaxDocumentPages pages, several times what a scanner or an
	// office program writes.
	MaxObjects = 100_000
	// MaxDocumentPages is how many pages a document of the case file may have: a complaint
	// scanned with its exhibits is tens of pages, and the attorney's (C)(3) transmittal
	// prints them all.
	MaxDocumentPages = 2_000
	// MaxDecoded is how many bytes a PDF's compressed streams other than images may inflate
	// to, all together: the PDF library inflates page contents and fonts to merge a packet. A
	// scanned page's contents are a few hundred bytes; a drawing's, a few megabytes.
	MaxDecoded = 256 << 20
	// MaxPixels is how many pixels an image may have, width times height: a Legal page
	// scanned at 600 dpi is 43 million.
	MaxPixels = 50_000_000
	// ReaderMemory is the memory a reading process may use (its data segment, RLIMIT_DATA),
	// and ReaderMemoryPerByte how much more for each byte of the documents it reads: pdfcpu
	// needs some three times a packet's bytes to merge it (100 MB of documents merged in
	// 315 MB), and a document of 25 MB, hostile or not, is read within 1.1 GB.
	ReaderMemory        = 1 << 30
	ReaderMemoryPerByte = 4
	// ReaderStack is the stack a reading process's goroutines may grow to (Go's default is
	// 1 GB): a document within MaxNesting needs well under 1 MB, and a deeper recursion in
	// the PDF library ends at this size, at once, instead of after a gigabyte.
	ReaderStack = 64 << 20
	// ReaderTime is how long one reading process may take, and ReaderTimePerMB how much
	// longer for each megabyte of the documents it reads: reading a document of 10 MB takes
	// under a second, merging a packet of 100 MB some 7 seconds of processor time, and
	// longer on a machine that is doing other work.
	ReaderTime      = 60 * time.Second
	ReaderTimePerMB = time.Second
	// Readers is how many reading processes run at once: the bot answers other commands
	// while documents are read, and holds no more than Readers readings' memory for them.
	Readers = 2
)

// readBounds are the bounds in force; the tests lower them (export_test.go).
type readBounds struct {
	Nesting, Objects, Pages int
	Decoded, Pixels         int64
	Memory, Stack           int64
	Time                    time.Duration
}

var bounds = readBounds{Nesting: MaxNesting, Objects: MaxObjects, Pages: MaxDocumentPages, Decoded: MaxDecoded,
	Pixels: MaxPixels, Memory: ReaderMemory, Stack: ReaderStack, Time: ReaderTime}

// forBytes are the bounds of a reading of n bytes of documents: its memory and time grow
// with them (ReaderMemoryPerByte, ReaderTimePerMB).
func (b readBounds) forBytes(n int64) readBounds {
	b.Memory += ReaderMemoryPerByte * n
	b.Time += time.Duration((n+1<<20-1)>>20) * ReaderTimePerMB
	return b
}

// beyond is the refusal of a document that passes a bound: what it is or would be, and
// the bound.
type beyond struct{ what, limit string }

func (e *beyond) Error() string { return fmt.Sprintf("%s; the limit is %s", e.what, e.limit) }

// bytesOf writes a bound of n bytes as the documents give it: "1 GB", "1.1 GB", "64 MB".
func bytesOf(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GB", n>>30)
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MB", n>>20)
	}
	return docket.Size(n)
}

// count writes n with thousands separators, as the documents print the bounds.
func count(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
