//go:build ignore

// Command gen writes the hostile documents of this folder (README.md lists them and what
// each must do): go run gen.go, from this folder. A file over 64 KB is written gzipped, as
// NAME.gz, and the tests inflate it: a PDF of arrays nested 1.9 million deep is 3.8 MB, and
// 4 KB compressed.
package main

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"image"
	"image/jpeg"
	"log"
	"math/rand/v2"
	"os"
	"strings"
)

// pdf is a PDF of the objects given, numbered from 1, with its cross-reference table and
// trailer; object 1 is the catalog.
func pdf(objs ...string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	x := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, x)
	return b.Bytes()
}

// packed is a PDF of the objects given, numbered from 1, and then an object stream (ISO
// 32000-1, 7.5.7) holding one more object, packed, its data encoded by encode under the
// filter given, which the page (object 3) has as its /MediaBox, for an array, or its
// /Resources, for a dictionary, so that a reader must read it; a cross-reference stream
// (7.5.8) lists them all, as a reader needs to find an object in an object stream.
func packed(filter string, encode func([]byte) []byte, packedObj string, objs ...string) []byte {
	objs[2] = fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox %d 0 R >>", len(objs)+2)
	if strings.HasPrefix(packedObj, "<<") {
		objs[2] = fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources %d 0 R >>", len(objs)+2)
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	var xref bytes.Buffer
	entry := func(kind byte, a uint32, c uint16) {
		xref.WriteByte(kind)
		binary.Write(&xref, binary.BigEndian, a)
		binary.Write(&xref, binary.BigEndian, c)
	}
	entry(0, 0, 65535)
	for i, o := range objs {
		entry(1, uint32(b.Len()), 0)
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	stm := len(objs) + 1
	entry(1, uint32(b.Len()), 0)
	body := fmt.Sprintf("%d 0 ", stm+1)
	fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", stm,
		stream(fmt.Sprintf("/Type /ObjStm /N 1 /First %d /Filter /%s", len(body),
			filter), encode([]byte(body+packedObj))))
	entry(2, uint32(stm), 0)
	x := b.Len()
	entry(1, uint32(x), 0)
	fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\nstartxref\n%d\n%%%%EOF\n", stm+2,
		stream(fmt.Sprintf("/Type /XRef /Size %d /W [1 4 2] /Root 1 0 R", stm+3), xref.Bytes()), x)
	return b.Bytes()
}

// The catalog, the page tree and one page, objects 1 to 3, that most files below start with.
const (
	catalog = "<< /Type /Catalog /Pages 2 0 R >>"
	pages   = "<< /Type /Pages /Kids [3 0 R] /Count 1 >>"
	page    = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>"
)

// stream is a stream object of data with the dictionary entries given.
func stream(entries string, data []byte) string {
	return fmt.Sprintf("<< %s /Length %d >>\nstream\n%s\nendstream", entries, len(data), data)
}

func deflate(data []byte) []byte {
	var b bytes.Buffer
	w, _ := zlib.NewWriterLevel(&b, zlib.BestCompression)
	w.Write(data)
	w.Close()
	return b.Bytes()
}

func nested(open, close string, n int) string {
	return strings.Repeat(open, n) + strings.Repeat(close, n)
}

// chunk is a PNG chunk (ISO/IEC 15948, 5.3).
func chunk(kind string, data []byte) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.BigEndian, uint32(len(data)))
	b.WriteString(kind)
	b.Write(data)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(append([]byte(kind), data...)))
	return b.Bytes()
}

func pngOf(w, h uint32, idat []byte) []byte {
	var ihdr bytes.Buffer
	binary.Write(&ihdr, binary.BigEndian, [2]uint32{w, h})
	ihdr.Write([]byte{8, 0, 0, 0, 0}) // 8-bit greyscale
	b := []byte("\x89PNG\r\n\x1a\n")
	b = append(b, chunk("IHDR", ihdr.Bytes())...)
	b = append(b, chunk("IDAT", idat)...)
	return append(b, chunk("IEND", nil)...)
}

func main() {
	files := map[string][]byte{}
	// The file that took the bot down: arrays nested 1.9 million deep, 3.8 MB, in an object no page uses.
	files["nested-arrays.pdf"] = pdf(catalog, pages, page, nested("[", "]", 1_900_000))
	// Dictionaries nested 200,000 deep as a page's entry.
	files["deep-dictionaries.pdf"] = pdf(catalog, pages,
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /X 4 0 R >>", nested("<< /A ", " >>", 200_000))
	// Just past the bound of 500 levels, and just within it.
	files["nested-501.pdf"] = pdf(catalog, pages, page, nested("[", "]", 501))
	files["nested-500.pdf"] = pdf(catalog, pages, page, nested("[", "]", 500))
	// A page tree whose node is its own kid, and one whose page is a page tree again.
	files["loop-kids.pdf"] = pdf(catalog, "<< /Type /Pages /Kids [2 0 R] /Count 1 >>")
	files["loop-parent.pdf"] = pdf(catalog, pages, "<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>")
	// A page tree of one page that claims a billion.
	files["billion-pages.pdf"] = pdf(catalog, "<< /Type /Pages /Kids [3 0 R] /Count 1000000000 >>", page)
	// A page tree 1,000 nodes deep, each with one kid: nothing is nested in the syntax, the
	// depth is in the references.
	{
		const n = 1_000
		objs := []string{catalog, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>"}
		for i := 3; i < n+2; i++ {
			objs = append(objs, fmt.Sprintf("<< /Type /Pages /Parent %d 0 R /Kids [%d 0 R] /Count 1 >>", i-1, i+1))
		}
		objs = append(objs, fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] >>", n+1))
		files["deep-page-tree.pdf"] = pdf(objs...)
	}
	// 150,000 objects, all numbered 4: a file's objects are counted as written.
	files["many-objects.pdf"] = bytes.Replace(pdf(catalog, pages, page, "null"), []byte("4 0 obj\nnull\nendobj\n"),
		bytes.Repeat([]byte("4 0 obj\nnull\nendobj\n"), 150_000), 1)
	// An object stream that declares 150,000 objects.
	files["declared-objects.pdf"] = packed("FlateDecode", deflate, "<< >>", catalog, pages, page)
	files["declared-objects.pdf"] = bytes.Replace(files["declared-objects.pdf"], []byte("/N 1 "), []byte("/N 150000 "), 1)
	// A cross-reference that declares a billion objects: the PDF library reads it.
	files["billion-objects.pdf"] = bytes.Replace(pdf(catalog, pages, page), []byte("/Size 4"),
		[]byte("/Size 1000000000"), 1)
	// A page whose contents inflate to 1 GB of zeros, from 1 MB.
	files["flate-bomb.pdf"] = pdf(catalog, pages,
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
		stream("/Filter /FlateDecode", deflate(make([]byte, 1<<30))))
	// The same bomb in an object stream.
	files["objstm-bomb.pdf"] = packed("FlateDecode", deflate, "<< >>"+strings.Repeat(" ", 1<<30), catalog, pages, page)
	// Arrays nested 1.9 million deep inside an object stream, compressed: only an inflated
	// scan sees them. The same, its filter written with #xx escapes, /Fl#61teDecode.
	files["objstm-nested.pdf"] = packed("FlateDecode", deflate, nested("[", "]", 1_900_000), catalog, pages, page)
	files["objstm-escaped.pdf"] = packed("Fl#61teDecode", deflate, nested("[", "]", 1_900_000), catalog, pages, page)
	// The same in hexadecimal (ASCIIHexDecode), which the scan does not open: only the limits
	// of the reading process stop the PDF library. And dictionaries nested 200,000 deep, which
	// the PDF library reads for minutes.
	hexOf := func(b []byte) []byte { return []byte(hex.EncodeToString(b) + ">") }
	files["objstm-hex-arrays.pdf"] = packed("ASCIIHexDecode", hexOf, nested("[", "]", 1_000_000), catalog, pages, page)
	files["objstm-hex-dictionaries.pdf"] = packed("ASCIIHexDecode", hexOf, nested("<< /A ", " >>", 200_000), catalog,
		pages, page)
	// A readable PDF packed the same way, to show that the others are refused for what they
	// hold.
	files["objstm-readable.pdf"] = packed("FlateDecode", deflate, "[0 0 612 792]", catalog, pages, page)
	// A readable PDF cut in half, and the same with its end-of-file marker put back.
	{
		whole := pdf(catalog, pages, page)
		files["truncated.pdf"] = whole[:len(whole)/2]
		files["truncated-eof.pdf"] = append(whole[:len(whole)/2:len(whole)/2], "\n%%EOF\n"...)
	}
	// A PDF's first and last bytes around random ones.
	{
		r := rand.New(rand.NewPCG(27, 27))
		junk := make([]byte, 32<<10)
		for i := range junk {
			junk[i] = byte(r.Uint32())
		}
		files["garbage.pdf"] = append(append([]byte("%PDF-1.4\n"), junk...), "\n%%EOF\n"...)
	}
	// A readable PDF that is also a ZIP archive, its end-of-file marker in the archive's
	// comment.
	{
		whole := pdf(catalog, pages, page)
		var z bytes.Buffer
		z.Write(whole)
		local := z.Len()
		z.WriteString("PK\x03\x04\x0a\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
			"\x05\x00\x00\x00a.txt")
		central := z.Len()
		z.WriteString("PK\x01\x02\x14\x00\x0a\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
			"\x05\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00")
		binary.Write(&z, binary.LittleEndian, uint32(local))
		z.WriteString("a.txt")
		end := z.Len()
		z.WriteString("PK\x05\x06\x00\x00\x00\x00\x01\x00\x01\x00")
		binary.Write(&z, binary.LittleEndian, uint32(end-central))
		binary.Write(&z, binary.LittleEndian, uint32(central))
		comment := "\n%%EOF\n"
		binary.Write(&z, binary.LittleEndian, uint16(len(comment)))
		z.WriteString(comment)
		files["polyglot.pdf"] = z.Bytes()
	}
	// A PNG whose image data is not zlib, one that claims 100,000 by 100,000 pixels, and a
	// JPEG whose header reads but whose scan is cut short.
	files["not-zlib.png"] = pngOf(64, 64, []byte("these bytes are not a zlib stream at all"))
	files["huge.png"] = pngOf(100_000, 100_000, deflate(make([]byte, 100_001)))
	{
		var j bytes.Buffer
		jpeg.Encode(&j, image.NewGray(image.Rect(0, 0, 64, 64)), nil)
		files["torn.jpg"] = j.Bytes()[:j.Len()/2]
	}
	// A readable PDF, to show the others are refused for what they are.
	files["readable.pdf"] = pdf(catalog, pages, page)

	for name, data := range files {
		if len(data) > 64<<10 {
			var b bytes.Buffer
			w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
			w.Write(data)
			w.Close()
			name, data = name+".gz", b.Bytes()
		}
		if err := os.WriteFile(name, data, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
