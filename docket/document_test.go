package docket_test

import (
	"bytes"
	"strings"
	"testing"

	"ethicsbot/docket"
)

// TestSniffDocument: a document is judged by its content, never by its name: a text file
// named .pdf is refused, a PDF named .txt is a PDF; the size limit holds.
func TestSniffDocument(t *testing.T) {
	pdf := []byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\r\n")
	for _, tc := range []struct {
		name  string
		data  []byte
		limit int64
		want  string // the media type, or what the refusal says
	}{
		{"complaint.pdf", pdf, docket.DefaultDocumentLimit, docket.MediaPDF},
		{"complaint.txt", pdf, docket.DefaultDocumentLimit, docket.MediaPDF},
		{"letter.pdf", []byte("Dear Commission,\nI complain.\n"), docket.DefaultDocumentLimit,
			"letter.pdf is not a PDF, PNG or JPEG file (by its content, whatever its name)"},
		{"fake.pdf", []byte("this was notes.txt, renamed %PDF-1.4 %%EOF"), docket.DefaultDocumentLimit,
			"is not a PDF, PNG or JPEG"},
		{"cut.pdf", append([]byte("%PDF-1.4\n"), bytes.Repeat([]byte("x"), 2000)...), docket.DefaultDocumentLimit,
			"cut.pdf starts like a PDF but has no %%EOF at its end"},
		{"eof-early.pdf", append([]byte("%PDF-1.4\n%%EOF\n"), bytes.Repeat([]byte("x"), 2000)...),
			docket.DefaultDocumentLimit, "has no %%EOF at its end"},
		{"scan.png", []byte("\x89PNG\r\n\x1a\n\x00\x00"), docket.DefaultDocumentLimit, docket.MediaPNG},
		{"photo.jpg", []byte{0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10}, docket.DefaultDocumentLimit, docket.MediaJPEG},
		{"photo.gif", []byte("GIF89a..."), docket.DefaultDocumentLimit, "is not a PDF, PNG or JPEG"},
		{"empty.pdf", nil, docket.DefaultDocumentLimit, "empty.pdf is empty"},
		{"big.pdf", pdf, 40, "big.pdf is 52 bytes; the limit for a document is 40 bytes"},
		{"huge.pdf", make([]byte, 26<<20), docket.DefaultDocumentLimit,
			"huge.pdf is 26.0 MB; the limit for a document is 25.0 MB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := docket.SniffDocument(tc.name, tc.data, tc.limit)
			if strings.Contains(tc.want, "/") {
				if err != nil || got != tc.want {
					t.Fatalf("SniffDocument = %q, %v; want %q", got, err, tc.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("SniffDocument = %q, %v; want a refusal saying %q", got, err, tc.want)
			}
		})
	}
}
