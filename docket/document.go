package docket

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"slices"
)

// DocumentKind says what a document of the case file is.
type DocumentKind string

// The kinds of document kept with a case. (B) sends the respondent "a copy of the
// complaint"; (C)(3) sends the attorney "the complaint and all additional documents in the
// custody of the Commission".
const (
	ComplaintDocument      DocumentKind = "complaint"      // the complaint as received (A)
	ExhibitDocument        DocumentKind = "exhibit"        // filed with the complaint or later
	EvidenceDocument       DocumentKind = "evidence"       // received at the hearing (D), (E)
	CorrespondenceDocument DocumentKind = "correspondence" // letters received about the case
)

// DocumentKinds lists every DocumentKind.
var DocumentKinds = []DocumentKind{ComplaintDocument, ExhibitDocument, EvidenceDocument, CorrespondenceDocument}

// The media types a document may have: PDF, and images as a scanner makes them.
const (
	MediaPDF  = "application/pdf"
	MediaPNG  = "image/png"
	MediaJPEG = "image/jpeg"
)

// DefaultDocumentLimit is the largest document kept unless the configuration says
// otherwise: 25 MB, more than a scanned complaint of a hundred pages needs, and what
// common mail systems take as an attachment.
const DefaultDocumentLimit = 25 << 20

// pdfTrailer is how far from its end a PDF's end-of-file marker may be: ISO 32000-1,
// 7.5.5, puts "%%EOF" on the file's last line; readers (and Adobe's implementation notes)
// look for it in the last 1024 bytes, where editors leave trailing whitespace or junk.
const pdfTrailer = 1024

// SniffDocument says what data is, judged by its content and never by its name: a PDF
// starts with "%PDF-" and has "%%EOF" near its end; a PNG and a JPEG start with their
// signatures (PNG: ISO/IEC 15948, 5.2; JPEG: ITU T.81, the SOI marker FF D8 then a
// marker FF). Anything else, an empty file or one over limit bytes is refused, saying why.
func SniffDocument(name string, data []byte, limit int64) (mediaType string, err error) {
	field := "file"
	switch {
	case len(data) == 0:
		return "", Invalid("", field, fmt.Sprintf("%s is empty", name))
	case limit > 0 && int64(len(data)) > limit:
		return "", Invalid("", field,
			fmt.Sprintf("%s is %s; the limit for a document is %s", name, Size(int64(len(data))), Size(limit)))
	case bytes.HasPrefix(data, []byte("%PDF-")):
		// "%%EOF" is the PDF's end-of-file marker, two percent signs (ISO 32000-1, 7.5.5): the
		// refusal below prints it so, from "%%%%EOF" in its format.
		if !bytes.Contains(data[max(0, len(data)-pdfTrailer):], []byte("%%EOF")) {
			return "", Invalid("", field,
				fmt.Sprintf("%s starts like a PDF but has no %%%%EOF at its end: it is cut short or damaged", name))
		}
		return MediaPDF, nil
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return MediaPNG, nil
	case bytes.HasPrefix(data, []byte{0xFF, 0xD8, 0xFF}):
		return MediaJPEG, nil
	}
	return "", Invalid("", field,
		fmt.Sprintf("%s is not a PDF, PNG or JPEG file (by its content, whatever its name): a document of the case file is "+
			"a PDF or a scanned image", name))
}

// Size writes a number of bytes as people read it: "2.4 MB", "812 KB", "90 bytes".
func Size(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Upload is a file to add to a case file: its name as given, its bytes, and the title and
// kind it is kept under. A title left empty is the file's name; a kind, exhibit.
type Upload struct {
	Name  string
	Data  []byte
	Title string
	Kind  DocumentKind
}

// Document is a document of the case file as the case lists it. Its bytes are kept in the
// record by their SHA-256, which the event that added it carries, so the hash chain covers
// them.
type Document struct {
	SHA256    string       `json:"sha256"`
	Title     string       `json:"title"`
	Kind      DocumentKind `json:"kind"`
	MediaType string       `json:"media_type"`
	Size      int64        `json:"size"`
	AddedBy   string       `json:"added_by"`
	Added     Date         `json:"added"`
}

// AddDocument adds a document to the case file: its bytes are stored by the store in the
// same transaction, under SHA256. A document is withdrawn by voiding this event, never
// deleted: the bytes stay in the record.
type AddDocument struct {
	SHA256    string       `json:"sha256"` // hex, lower case
	Title     string       `json:"title"`
	Of        DocumentKind `json:"kind"` // what it is: complaint, exhibit, evidence, correspondence
	MediaType string       `json:"media_type"`
	Size      int64        `json:"size"`
	AddedBy   string       `json:"added_by"`
	Name      string       `json:"name,omitempty"` // the file's name as given, for the record
}

// Kind implements Action.
func (AddDocument) Kind() string { return "document" }

// Did implements Action.
func (a AddDocument) Did(Wording) Words {
	return said("document added to the case file: \"%s\" (%s, %s)", a.Title, a.Of, Size(a.Size))
}

func (a AddDocument) apply(x *applying) error {
	if b, err := hex.DecodeString(a.SHA256); err != nil || len(b) != 32 || hex.EncodeToString(b) != a.SHA256 {
		return Invalid("", "sha256", fmt.Sprintf("%q is not a SHA-256 in lower-case hex", a.SHA256))
	}
	if err := x.checkLine("title", "", a.Title, true, MaxName); err != nil {
		return err
	}
	if !slices.Contains(DocumentKinds, a.Of) {
		return Invalid("", "kind", fmt.Sprintf("%q is not a kind of document: %s", a.Of, join(DocumentKinds, ", ")))
	}
	if a.MediaType != MediaPDF && a.MediaType != MediaPNG && a.MediaType != MediaJPEG {
		return Invalid("", "media_type", fmt.Sprintf("%q is not a PDF, PNG or JPEG", a.MediaType))
	}
	if a.Size <= 0 {
		return Invalid("", "size", "a document has bytes")
	}
	if err := x.checkLine("name", "", a.Name, false, MaxName); err != nil {
		return err
	}
	for _, d := range x.c.Documents {
		if d.SHA256 == a.SHA256 {
			return conflict("", fmt.Sprintf("case %s already holds this document, as %q", x.c.Number, d.Title))
		}
	}
	by := a.AddedBy
	if by == "" {
		by = x.by
	}
	x.c.Documents = append(x.c.Documents,
		Document{SHA256: a.SHA256, Title: a.Title, Kind: a.Of, MediaType: a.MediaType, Size: a.Size, AddedBy: by,
			Added: x.today})
	return nil
}
