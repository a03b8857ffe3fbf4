package letters

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"strings"
	"testing"
)

// deflated is data compressed as a FlateDecode stream is.
func deflated(data []byte) []byte {
	var b bytes.Buffer
	w := zlib.NewWriter(&b)
	w.Write(data)
	w.Close()
	return b.Bytes()
}

// obj is an indirect object of a PDF's body; streamObj, a stream object.
func obj(n int, body string) string { return fmt.Sprintf("%d 0 obj\n%s\nendobj\n", n, body) }

func streamObj(n int, dict string, data []byte) string {
	return obj(n, fmt.Sprintf("<< %s >>\nstream\n%s\nendstream", dict, data))
}

// TestScanPDF: the scan counts what a PDF's syntax nests, and nothing else: brackets in a
// string, a comment, a hexadecimal string, a name or a stream's data are not nesting; a
// /Count is a page count only in a page tree node; an image's data is not inflated, and a
// stream is found by its /Length or, when that is not direct, by its endstream.
func TestScanPDF(t *testing.T) {
	b := bounds
	b.Nesting, b.Pages, b.Objects, b.Decoded = 3, 10, 5, 1000
	deep := "[[[[ ]]]]"
	binary := bytes.Repeat([]byte("[<<("), 100)
	for _, tc := range []struct {
		name, pdf, want string
	}{
		{"Nesting", obj(1, "[[[ ]]]"), ""},
		{"TooDeep", obj(1, deep), "nested more than 3 deep; the limit is 3 levels"},
		{"DictionariesTooDeep", obj(1, "<< /A [ << /B 1 >> ] /C << /D << /E << >> >> >> >>"), "nested more than 3 deep"},
		{"InStrings", obj(1, "[((("+deep+"))) (\\("+deep+") <5b5b5b5b> /a#5b#5b#5b#5b]"), ""},
		{"InComments", "%" + deep + "\n" + obj(1, "[ % [[[[[[\n ]"), ""},
		{"InStreamData", streamObj(1, fmt.Sprintf("/Length %d", len(binary)), binary), ""},
		{"InStreamDataByEndstream", streamObj(1, "/Length 9 0 R", binary), ""},
		{"InStreamDataWrongLength", streamObj(1, "/Length 3", binary), ""},
		{"AfterAStream", streamObj(1, "/Length 4", binary[:4]) + obj(2, deep), "nested more than 3 deep"},
		{"PageCount", obj(1, "<< /Type /Pages /Kids [] /Count 10 >>"), ""},
		{"PagesClaimed", obj(1, "<< /Kids [2 0 R] /Count 11 /Type /Pages >>"),
			"its page tree claims 11 pages; the limit is 10 pages"},
		{"PagesEscaped", obj(1, "<< /Type /Pag#65s /Count 11 >>"), "its page tree claims 11 pages"},
		{"OutlineCount", obj(1, "<< /Type /Outlines /Count 1000 >>"), ""},
		{"CountByReference", obj(1, "<< /Count 5 0 R /Type /Pages >>"), ""},
		{"Objects", strings.Repeat(obj(1, "null"), 5), ""},
		{"TooManyObjects", strings.Repeat(obj(1, "null"), 6), "it has more than 5 objects; the limit is 5 objects"},
		{"Inflated", streamObj(1, "/Filter /FlateDecode", deflated(make([]byte, 1000))), ""},
		{"InflatedTooMuch", streamObj(1, "/Filter /FlateDecode", deflated(make([]byte, 600))) +
			streamObj(2, "/Filter [/FlateDecode]", deflated(make([]byte, 600))),
			"its compressed streams inflate to more than 1000 bytes; the limit is 1000 bytes"},
		{"ImageNotInflated", streamObj(1, "/Subtype /Image /Filter /FlateDecode", deflated(make([]byte, 5000))), ""},
		{"OtherFilter", streamObj(1, "/Filter /LZWDecode", deflated(make([]byte, 5000))), ""},
		{"NotZlib", streamObj(1, "/Filter /FlateDecode", binary), ""},
		{"ObjectStream", streamObj(1, "/Type /ObjStm /N 2 /First 8 /Filter /FlateDecode",
			deflated([]byte("2 0 3 4 [[1]] [(]]]]]]]])]"))), ""},
		{"ObjectStreamTooDeep", streamObj(1, "/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode",
			deflated([]byte("2 0 "+deep))), "nested more than 3 deep"},
		{"ObjectStreamPlain", streamObj(1, "/Type /ObjStm /N 1 /First 4", []byte("2 0 "+deep)), "nested more than 3 deep"},
		{"ObjectStreamObjects", streamObj(1, "/Type /ObjStm /N 5 /First 4", []byte("2 0 null")),
			"it has more than 5 objects"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := scanPDF([]byte("%PDF-1.7\n"+tc.pdf+"trailer << /Size 9 >>\n%%EOF\n"), b)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
}

// FuzzScanPDF: the scan of any bytes ends, and never panics; a refusal names a bound.
func FuzzScanPDF(f *testing.F) {
	f.Add([]byte("%PDF-1.7\n1 0 obj << /Type /Pages /Count 3 /Kids [2 0 R] >> endobj\n%%EOF"))
	f.Add([]byte("1 0 obj << /Length 5 /Filter /FlateDecode >>\nstream\nxxxxx\nendstream endobj"))
	f.Add([]byte("<< /Type /ObjStm /N 1 >> stream\r\n2 0 [[(a\\)b)]]\nendstream"))
	f.Add([]byte("[<</A#20B <0a1> (x(y)z) % c\r/F [/Fl /AHx] >>]"))
	f.Add(deflated([]byte("[[[")))
	b := bounds
	b.Nesting, b.Objects, b.Decoded = 20, 50, 1<<16
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := scanPDF(data, b); err != nil && !strings.Contains(err.Error(), "the limit is") {
			t.Fatalf("a refusal that names no bound: %v", err)
		}
	})
}
