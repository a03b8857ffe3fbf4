package letters

import (
	"bytes"
	"compress/zlib"
	"crypto/md5"
	_ "embed" // the sRGB profile of the output intent
	"encoding/hex"
	"encoding/xml"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// srgb is the International Color Consortium's sRGB profile (icc/LICENSE.color.org: may
// be copied and embedded without restriction), the output intent of every archival
// document: Chromium paints in DeviceRGB and DeviceGray, which PDF/A allows only with an
// output intent (ISO 19005-2, 6.2.3 and 6.2.4.3).
//
//go:embed icc/sRGB2014.icc
var srgb []byte

// archival makes a tagged PDF that Chromium printed archival: PDF/A-2b (ISO 19005-2)
// declared, with the XMP metadata PDF/A asks for (6.6), the same as the document
// information dictionary, the sRGB output intent (6.2.3) and a file identifier in the
// trailer (6.1.3), and PDF/UA-1 declared in the same metadata (ISO 14289-1, 5). It is an
// incremental update (ISO 32000-1, 7.5.6): Chromium's bytes, its tags and embedded fonts
// included, stay as printed, and a new catalog, information dictionary and cross-reference
// section follow them. made is the day and time the document is made.
//
// With folds, the first page gets the fold marks of the window envelope's layout
// (foldMarks), which Chromium does not draw in the page's margin, as an artifact.
func archival(pdf []byte, title string, made time.Time, folds bool) ([]byte, error) {
	u, err := newUpdate(pdf)
	if err != nil {
		return nil, err
	}
	ctx, x, root, size := u.ctx, u.ctx.XRefTable, u.root, u.size
	producer := u.producer()
	icc, intent, meta, info, catalog := size, size+1, size+2, size+3, x.Root.ObjectNumber.Value()
	object := u.object
	object(icc, fmt.Sprintf("<</N 3/Length %d>>stream\n%s\nendstream", len(srgb), srgb))
	object(intent, fmt.Sprintf("<</Type/OutputIntent/S/GTS_PDFA1/OutputConditionIdentifier(sRGB IEC61966-2.1)"+
		"/Info(sRGB IEC61966-2.1)/DestOutputProfile %d 0 R>>", icc))
	u.metadata(meta, info, title, producer, made, true)
	next := size + 4
	for p := 1; p <= ctx.PageCount; p++ {
		// Each page whose content paints outside the tags gets a new content stream with
		// that marked as an artifact, and the page object a new version that draws it.
		pd, ref, _, err := ctx.PageDict(p, false)
		if err != nil || pd == nil || ref == nil {
			return nil, fmt.Errorf("page %d of the printed PDF: %v", p, err)
		}
		content, err := pageContent(ctx, pd)
		if err != nil {
			return nil, fmt.Errorf("page %d of the printed PDF: %w", p, err)
		}
		marked, changed, err := markArtifacts(content)
		if err != nil {
			return nil, fmt.Errorf("page %d of the printed PDF: %w", p, err)
		}
		if folds && p == 1 {
			// First, where the page's coordinates are still the default: points from the
			// bottom left of the 11 in. page.
			var f bytes.Buffer
			f.WriteString("/Artifact BMC q 0.588 G 0.567 w\n")
			for _, y := range []float64{panel, 2 * panel} {
				fmt.Fprintf(&f, "%.2f %.2f m %.2f %.2f l S\n", 4/inch*72, 792-y/inch*72, 9/inch*72, 792-y/inch*72)
			}
			f.WriteString("Q EMC\n")
			marked, changed = append(f.Bytes(), marked...), true
		}
		if !changed {
			continue
		}
		var z bytes.Buffer
		zw := zlib.NewWriter(&z)
		zw.Write(marked)
		zw.Close()
		object(next, fmt.Sprintf("<</Length %d/Filter/FlateDecode>>stream\n%s\nendstream", z.Len(), z.Bytes()))
		page := pd.Clone().(types.Dict)
		page.Update("Contents", *types.NewIndirectRef(next, 0))
		object(ref.ObjectNumber.Value(), page.PDFString())
		next++
	}
	// A list item's content is its body (LBody, ISO 32000-1, 14.8.4.3.3), which Chromium
	// tags NonStruct: each such element gets a new version that says LBody.
	for _, ref := range listBodies(x, root) {
		d, err := x.DereferenceDict(ref)
		if err != nil || d == nil {
			continue
		}
		body := d.Clone().(types.Dict)
		body.Update("S", types.Name("LBody"))
		object(ref.ObjectNumber.Value(), body.PDFString())
	}
	root.Update("OutputIntents", types.Array{*types.NewIndirectRef(intent, 0)})
	return u.finish(catalog, meta, info, next), nil
}

// update is an incremental update of a PDF (ISO 32000-1, 7.5.6): the bytes as they are,
// then new objects, a cross-reference section for them and a trailer that points back.
type update struct {
	pdf     []byte
	ctx     *model.Context
	root    types.Dict
	size    int // the first object number free for new objects
	prev    int // the offset of the last cross-reference section
	b       bytes.Buffer
	offsets map[int]int
}

// newUpdate reads pdf with pdfcpu, its catalog and trailer, to add an update to it.
func newUpdate(pdf []byte) (*update, error) {
	ctx, err := api.ReadContext(bytes.NewReader(pdf), pdfConfig())
	if err != nil {
		return nil, fmt.Errorf("reading the printed PDF: %w", err)
	}
	if err := ctx.EnsurePageCount(); err != nil {
		return nil, fmt.Errorf("reading the printed PDF's pages: %w", err)
	}
	x := ctx.XRefTable
	root, err := x.DereferenceDict(*x.Root)
	if err != nil || root == nil {
		return nil, fmt.Errorf("the printed PDF has no catalog: %v", err)
	}
	if x.Size == nil {
		return nil, errors.New("the printed PDF's trailer has no /Size")
	}
	prev, err := lastXref(pdf)
	if err != nil {
		return nil, err
	}
	u := &update{pdf: pdf, ctx: ctx, root: root, size: *x.Size, prev: prev, offsets: map[int]int{}}
	u.b.Write(pdf)
	if !bytes.HasSuffix(pdf, []byte("\n")) {
		u.b.WriteByte('\n')
	}
	return u, nil
}

// producer is the producer the information dictionary names, followed by ethicsbot's.
func (u *update) producer() string {
	x := u.ctx.XRefTable
	if x.Info != nil {
		if info, err := x.DereferenceDict(*x.Info); err == nil && info != nil {
			if p, err := types.StringOrHexLiteral(info["Producer"]); err == nil && p != nil && *p != "" {
				return *p + "; ethicsbot"
			}
		}
	}
	return "ethicsbot"
}

// object writes object n with body.
func (u *update) object(n int, body string) {
	u.offsets[n] = u.b.Len()
	fmt.Fprintf(&u.b, "%d 0 obj\n%s\nendobj\n", n, body)
}

// metadata writes the XMP metadata as object meta (xmpPacket, with conforms) and the
// information dictionary that says the same as object info.
func (u *update) metadata(meta, info int, title, producer string, made time.Time, conforms bool) {
	date := types.DateString(made)
	xmp := xmpPacket(title, producer, made.Format("2006-01-02T15:04:05-07:00"), conforms)
	// The metadata stream is not filtered, so that it can be read without PDF (6.6.2.1).
	u.object(meta, fmt.Sprintf("<</Type/Metadata/Subtype/XML/Length %d>>stream\n%s\nendstream", len(xmp), xmp))
	u.object(info, fmt.Sprintf("<</Title %s/Creator(ethicsbot)/Producer %s/CreationDate(%s)/ModDate(%s)>>",
		pdfText(title), pdfText(producer), date, date))
}

// finish writes the catalog (root, as changed) as object catalog with the metadata meta, the
// cross-reference section and the trailer, with size objects in all and a file identifier
// made from the bytes before the update, and returns the updated PDF.
func (u *update) finish(catalog, meta, info, size int) []byte {
	u.root.Update("Metadata", *types.NewIndirectRef(meta, 0))
	u.object(catalog, u.root.PDFString())
	xref := u.b.Len()
	u.b.WriteString("xref\n")
	for _, n := range slices.Sorted(maps.Keys(u.offsets)) {
		fmt.Fprintf(&u.b, "%d 1\n%010d 00000 n \n", n, u.offsets[n])
	}
	id := hex.EncodeToString(fileID(u.pdf))
	fmt.Fprintf(&u.b, "trailer\n<</Size %d/Root %d 0 R/Info %d 0 R/Prev %d/ID[<%s><%s>]>>\nstartxref\n%d\n%%%%EOF\n",
		size, catalog, info, u.prev, id, id, xref)
	return u.b.Bytes()
}

// enclosing is the packet of a tagged letter merged with the enclosures as filed (merged):
// the letter's pages keep their tags, its structure tree, language and title, but the
// enclosures, the parties' own documents, are neither tagged nor archival, and ethicsbot
// cannot make them so without altering them. So the packet's metadata, made anew as an
// incremental update, no longer declares PDF/A-2b and PDF/UA-1 as the letter's does: a
// file that declared them would say what is not so (ISO 19005-2, 6.2.11.4: every font
// embedded; ISO 14289-1, 7.1: all content tagged or an artifact).
//
// index, if not nil, is the structure of the (C)(3) index of the case file, whose pages
// follow the letter's and come before the enclosures' after pages: it joins the letter's
// structure tree, after the letter, in the same update.
func enclosing(merged []byte, title string, made time.Time, index *tagged, after int) ([]byte, error) {
	u, err := newUpdate(merged)
	if err != nil {
		return nil, err
	}
	if u.root["StructTreeRoot"] == nil { // the letter was drawn untagged: it declares nothing
		return merged, nil
	}
	meta, info, next := u.size, u.size+1, u.size+2
	if ref, ok := u.root["Metadata"].(types.IndirectRef); ok {
		// The letter's metadata is replaced, not left beside the packet's.
		meta, info, next = ref.ObjectNumber.Value(), u.size, u.size+1
	}
	u.metadata(meta, info, title, u.producer(), made, false)
	// The output intent is the letter's: it describes its pages' colours, not the
	// enclosures'; without a claim of PDF/A it is dropped rather than left to mislead.
	u.root.Delete("OutputIntents")
	if index != nil {
		if next, err = u.joinStructure(index, u.ctx.PageCount-after-index.pages+1, next); err != nil {
			return nil, fmt.Errorf("joining the index's structure to the letter's: %w", err)
		}
	}
	return u.finish(u.ctx.XRefTable.Root.ObjectNumber.Value(), meta, info, next), nil
}

// joinStructure writes the elements of doc, whose first page is page first of the PDF, as
// objects from number next on, its root the last child of the structure tree's document
// element; each of its pages gets the key of its entry in the parent tree (StructParents),
// and the parent tree the entries, an element for each MCID (ISO 32000-1, 14.7.4.4). It
// returns the next object number free.
func (u *update) joinStructure(doc *tagged, first, next int) (int, error) {
	x := u.ctx.XRefTable
	stRef, ok := u.root["StructTreeRoot"].(types.IndirectRef)
	if !ok {
		return 0, errors.New("the structure tree's root is not an object of its own")
	}
	st, err := x.DereferenceDict(stRef)
	if err != nil || st == nil {
		return 0, fmt.Errorf("the structure tree's root: %v", err)
	}
	// The parent of the joined root: the document element, or the tree's root itself.
	parent, parentDict := stRef, st
	if ref, ok := st["K"].(types.IndirectRef); ok {
		if d, err := x.DereferenceDict(ref); err == nil && d != nil && d.NameEntry("S") != nil {
			parent, parentDict = ref, d
		}
	}
	ptRef, ok := st["ParentTree"].(types.IndirectRef)
	if !ok {
		return 0, errors.New("the parent tree is not an object of its own")
	}
	pt, err := x.DereferenceDict(ptRef)
	if err != nil || pt == nil || pt["Kids"] != nil {
		return 0, fmt.Errorf("the parent tree is not one flat list of numbers (/Nums): %v", err)
	}
	nums, _ := x.DereferenceArray(pt["Nums"])
	key := 0
	if k, ok := st["ParentTreeNextKey"].(types.Integer); ok {
		key = k.Value()
	}
	for i := 0; i+1 < len(nums); i += 2 {
		if k, ok := nums[i].(types.Integer); ok && k.Value() >= key {
			key = k.Value() + 1
		}
	}
	// Each element's object number, in the order written.
	num := map[*structElem]int{}
	var number func(e *structElem)
	number = func(e *structElem) {
		num[e] = next
		next++
		for _, k := range e.kids {
			number(k)
		}
	}
	number(doc.root)
	pages := map[int]int{} // the index's page: its page object
	for p := 1; p <= doc.pages; p++ {
		_, ref, _, err := u.ctx.PageDict(first+p-1, false)
		if err != nil || ref == nil {
			return 0, fmt.Errorf("page %d: %v", first+p-1, err)
		}
		pages[p] = ref.ObjectNumber.Value()
	}
	owners := map[int]map[int]int{} // page, MCID: the element's object
	var write func(e *structElem, parent int)
	write = func(e *structElem, parent int) {
		var k strings.Builder
		for _, m := range e.marks {
			fmt.Fprintf(&k, "<</Type/MCR/Pg %d 0 R/MCID %d>>", pages[m.page], m.mcid)
			if owners[m.page] == nil {
				owners[m.page] = map[int]int{}
			}
			owners[m.page][m.mcid] = num[e]
		}
		for _, c := range e.kids {
			fmt.Fprintf(&k, "%d 0 R ", num[c])
		}
		u.object(num[e], fmt.Sprintf("<</Type/StructElem/S/%s/P %d 0 R%s/K[%s]>>", e.role, parent, e.attrs,
			strings.TrimSpace(k.String())))
		for _, c := range e.kids {
			write(c, num[e])
		}
	}
	write(doc.root, parent.ObjectNumber.Value())
	for p := 1; p <= doc.pages; p++ {
		var arr strings.Builder
		for id := 0; id < len(owners[p]); id++ {
			fmt.Fprintf(&arr, "%d 0 R ", owners[p][id])
		}
		nums = append(nums, types.Integer(key), types.Array{})
		u.object(next, "["+strings.TrimSpace(arr.String())+"]")
		nums[len(nums)-1] = *types.NewIndirectRef(next, 0)
		next++
		pd, _, _, _ := u.ctx.PageDict(first+p-1, false)
		page := pd.Clone().(types.Dict)
		page.Update("StructParents", types.Integer(key))
		u.object(pages[p], page.PDFString())
		key++
	}
	tree := pt.Clone().(types.Dict)
	tree.Update("Nums", nums)
	u.object(ptRef.ObjectNumber.Value(), tree.PDFString())
	kids := types.Array{}
	switch k := parentDict["K"].(type) {
	case types.Array:
		kids = append(kids, k...)
	case nil:
	default:
		kids = append(kids, k)
	}
	parentDict = parentDict.Clone().(types.Dict)
	parentDict.Update("K", append(kids, *types.NewIndirectRef(num[doc.root], 0)))
	if parent == stRef {
		st = parentDict
	} else {
		u.object(parent.ObjectNumber.Value(), parentDict.PDFString())
		st = st.Clone().(types.Dict)
	}
	st.Update("ParentTreeNextKey", types.Integer(key))
	u.object(stRef.ObjectNumber.Value(), st.PDFString())
	return next, nil
}

// listBodies are the structure elements, written as objects of their own, that are the
// NonStruct children of a list item (LI).
func listBodies(x *model.XRefTable, root types.Dict) []types.IndirectRef {
	var out []types.IndirectRef
	seen := map[int]bool{}
	var walk func(o types.Object, parentLI bool, depth int)
	walk = func(o types.Object, parentLI bool, depth int) {
		if depth > 200 {
			return
		}
		if ref, ok := o.(types.IndirectRef); ok {
			if seen[ref.ObjectNumber.Value()] {
				return
			}
			seen[ref.ObjectNumber.Value()] = true
			if d, err := x.DereferenceDict(ref); err == nil && d != nil {
				if s := d.NameEntry("S"); s != nil && *s == "NonStruct" && parentLI {
					out = append(out, ref)
				}
			}
		}
		switch k, _ := x.Dereference(o); k := k.(type) {
		case types.Array:
			for _, c := range k {
				walk(c, parentLI, depth+1)
			}
		case types.Dict:
			s := k.NameEntry("S")
			if s == nil {
				return
			}
			walk(k["K"], *s == "LI", depth+1)
		}
	}
	if st, err := x.DereferenceDict(root["StructTreeRoot"]); err == nil && st != nil {
		walk(st["K"], false, 0)
	}
	return out
}

// pageContent is the decoded content of page pd: its content stream, or its streams
// joined.
func pageContent(ctx *model.Context, pd types.Dict) ([]byte, error) {
	var refs []types.Object
	switch c := pd["Contents"].(type) {
	case types.Array:
		refs = c
	case nil:
		return nil, nil
	default:
		refs = []types.Object{c}
	}
	var out []byte
	for _, r := range refs {
		sd, _, err := ctx.DereferenceStreamDict(r)
		if err != nil || sd == nil {
			return nil, fmt.Errorf("its content stream cannot be read: %v", err)
		}
		if err := sd.Decode(); err != nil {
			return nil, err
		}
		out = append(append(out, sd.Content...), '\n')
	}
	return out, nil
}

// fileID is the document's permanent identifier (ISO 32000-1, 14.4): a digest of the
// bytes printed (MD5, as the standard suggests: an identifier, not a seal).
func fileID(pdf []byte) []byte {
	sum := md5.Sum(pdf)
	return sum[:]
}

var startxref = regexp.MustCompile(`startxref\s+(\d+)\s+%%EOF\s*$`)

// lastXref is the offset of the file's last cross-reference section.
func lastXref(pdf []byte) (int, error) {
	m := startxref.FindSubmatch(pdf)
	if m == nil {
		return 0, errors.New("the printed PDF does not end with startxref")
	}
	return strconv.Atoi(string(m[1]))
}

// pdfText writes s as a PDF text string: UTF-16BE with its byte order mark (ISO 32000-1,
// 7.9.2.2), in hexadecimal.
func pdfText(s string) string {
	var b strings.Builder
	b.WriteString("<FEFF")
	for _, u := range utf16.Encode([]rune(regular.printable(s))) {
		fmt.Fprintf(&b, "%04X", u)
	}
	b.WriteString(">")
	return b.String()
}

// xmpPacket is the document's XMP metadata: with conforms, PDF/A-2b and PDF/UA-1
// identification, with the extension schema that PDF/A asks for pdfuaid, which it does not
// predefine (6.6.2.3); the title (dc:title, shown as the window's title: DisplayDocTitle),
// the language, and the producer and dates of the information dictionary.
func xmpPacket(title, producer, when string, conforms bool) string {
	identification, extension := identification, extension
	if !conforms {
		identification, extension = "", ""
	}
	esc := func(s string) string {
		var b strings.Builder
		_ = xml.EscapeText(&b, []byte(regular.printable(s)))
		return b.String()
	}
	return `<?xpacket begin="` + "\uFEFF" + `" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
` + identification + `<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
<dc:format>application/pdf</dc:format>
<dc:title><rdf:Alt><rdf:li xml:lang="x-default">` + esc(title) + `</rdf:li></rdf:Alt></dc:title>
<dc:language><rdf:Bag><rdf:li>` + Lang + `</rdf:li></rdf:Bag></dc:language>
</rdf:Description>
<rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" pdf:Producer="` + esc(producer) + `"/>
<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:CreatorTool="ethicsbot" xmp:CreateDate="` +
		when + `" xmp:ModifyDate="` + when + `" xmp:MetadataDate="` + when + `"/>
` + extension + `</rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`
}

// The identification as PDF/A-2b and PDF/UA-1 (ISO 19005-2, 6.6.4; ISO 14289-1, 5), and the
// extension schema PDF/A asks for pdfuaid.
const (
	identification = `<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/" pdfaid:part="2" ` +
		`pdfaid:conformance="B"/>
<rdf:Description rdf:about="" xmlns:pdfuaid="http://www.aiim.org/pdfua/ns/id/" pdfuaid:part="1"/>
`
	extension = `<rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" ` +
		`xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
<pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource">
<pdfaSchema:schema>PDF/UA Universal Accessibility Schema</pdfaSchema:schema>
<pdfaSchema:namespaceURI>http://www.aiim.org/pdfua/ns/id/</pdfaSchema:namespaceURI>
<pdfaSchema:prefix>pdfuaid</pdfaSchema:prefix>
<pdfaSchema:property><rdf:Seq><rdf:li rdf:parseType="Resource">
<pdfaProperty:name>part</pdfaProperty:name>
<pdfaProperty:valueType>Integer</pdfaProperty:valueType>
<pdfaProperty:category>internal</pdfaProperty:category>
<pdfaProperty:description>Indicates, which part of ISO 14289 standard is followed</pdfaProperty:description>
</rdf:li></rdf:Seq></pdfaSchema:property>
</rdf:li></rdf:Bag></pdfaExtension:schemas>
</rdf:Description>
`
)
