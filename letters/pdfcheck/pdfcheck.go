// Package pdfcheck checks, for the tests, that a PDF is tagged (PDF/UA-1, ISO 14289-1) and
// archival (PDF/A-2b, ISO 19005-2) as far as a PDF library can tell, and has two
// independent readers of PDF check it: qpdf (its syntax, cross-reference sections and
// streams) and poppler's pdfinfo (the structure tree with the text of each element, as
// an assistive technology is given it). No validator of PDF/UA or PDF/A as a whole (veraPDF,
// a Java program) is installable here from the package registries that CI reaches; what
// these checks do not cover is said in docs/record.md, "What the record keeps as sent".
package pdfcheck

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"ethicsbot/letters"
)

// Result is what Check finds in a PDF: the structure tree as a screen
// reader walks it, and the failures of the checks of PDF/UA-1 and PDF/A-2 that a PDF
// library can make.
type Result struct {
	Tree     []string // each structure element, indented by its depth: "  H1", "    Span"
	Failures []string
}

// Check checks data as a tagged (ISO 14289-1) and archival (ISO 19005-2) PDF, as far
// as reading its objects allows: the catalog marks it tagged (/MarkInfo /Marked true),
// names its language (/Lang) and has a structure tree (/StructTreeRoot) whose every
// element has a standard or role-mapped type; the title is in the information dictionary
// and shown as the window's title (/DisplayDocTitle); every font is embedded; every
// figure has alternative text (/Alt); the XMP metadata declares PDF/A-2 and PDF/UA-1; the
// output intent has an ICC profile; the trailer has a file identifier.
func Check(data []byte, title string) (Result, error) {
	api.DisableConfigDir()
	conf := model.NewDefaultConfiguration()
	conf.ValidationMode = model.ValidationRelaxed
	ctx, err := api.ReadAndValidate(bytes.NewReader(data), conf)
	if err != nil {
		return Result{}, err
	}
	x := ctx.XRefTable
	var out Result
	fail := func(f string, a ...any) { out.Failures = append(out.Failures, fmt.Sprintf(f, a...)) }
	root, err := x.DereferenceDict(*x.Root)
	if err != nil {
		return Result{}, err
	}
	deref := func(o types.Object) types.Object {
		o, _ = x.Dereference(o)
		return o
	}
	dict := func(o types.Object) types.Dict {
		d, _ := deref(o).(types.Dict)
		return d
	}
	str := func(o types.Object) string {
		s, err := types.StringOrHexLiteral(deref(o))
		if err != nil || s == nil {
			return ""
		}
		return *s
	}
	if mi := dict(root["MarkInfo"]); mi == nil || deref(mi["Marked"]) != types.Boolean(true) {
		fail("the catalog's /MarkInfo does not say /Marked true (ISO 14289-1, 7.1)")
	}
	if lang := str(root["Lang"]); lang != letters.Lang {
		fail("the catalog's /Lang is %q, not %q (ISO 14289-1, 7.2)", lang, letters.Lang)
	}
	if vp := dict(root["ViewerPreferences"]); vp == nil || deref(vp["DisplayDocTitle"]) != types.Boolean(true) {
		fail("the viewer preferences do not show the title (/DisplayDocTitle true, ISO 14289-1, 7.1)")
	}
	if x.Info == nil || str(dict(*x.Info)["Title"]) != title {
		fail("the information dictionary's /Title is not %q", title)
	}
	if len(x.ID) == 0 {
		fail("the trailer has no /ID (ISO 19005-2, 6.1.3)")
	}
	// The XMP metadata.
	if md := root["Metadata"]; md == nil {
		fail("the catalog has no /Metadata (ISO 19005-2, 6.6.2.1)")
	} else if sd, ok := deref(md).(types.StreamDict); !ok {
		fail("/Metadata is not a stream")
	} else {
		if sd.FilterPipeline != nil {
			fail("the metadata stream is filtered")
		}
		if err := sd.Decode(); err != nil {
			return Result{}, err
		}
		xmp := string(sd.Content)
		for _, want := range []string{`pdfaid:part="2"`, `pdfaid:conformance="B"`, `pdfuaid:part="1"`,
			"<pdfaSchema:prefix>pdfuaid</pdfaSchema:prefix>", `<rdf:li xml:lang="x-default">` + title + "</rdf:li>"} {
			if !strings.Contains(xmp, want) {
				fail("the XMP metadata lacks %s", want)
			}
		}
	}
	// The output intent.
	if oi, _ := deref(root["OutputIntents"]).(types.Array); len(oi) == 0 {
		fail("the catalog has no /OutputIntents (ISO 19005-2, 6.2.3)")
	} else if d := dict(oi[0]); d == nil || d.NameEntry("S") == nil || *d.NameEntry("S") != "GTS_PDFA1" ||
		d["DestOutputProfile"] == nil {
		fail("the output intent is not GTS_PDFA1 with an ICC profile")
	}
	// Every font embedded: each object that is a font descriptor has a font file.
	for n, e := range x.Table {
		if e == nil || e.Free || e.Object == nil {
			continue
		}
		d, ok := e.Object.(types.Dict)
		if !ok || d.Type() == nil || *d.Type() != "FontDescriptor" {
			continue
		}
		if d["FontFile"] == nil && d["FontFile2"] == nil && d["FontFile3"] == nil {
			fail("the font %s (object %d) is not embedded (ISO 19005-2, 6.2.11.4)", str(d["FontName"]), n)
		}
		// Only the Go fonts the page carries: a font of the system's would make the
		// document depend on the machine that printed it.
		if name := d.NameEntry("FontName"); name == nil || !strings.Contains(*name, "+Go") {
			fail("the font %v (object %d) is not one of the Go fonts", name, n)
		}
	}
	// Every painting outside the tags is an artifact (ISO 14289-1, 7.1).
	for p := 1; p <= ctx.PageCount; p++ {
		pd, _, _, err := ctx.PageDict(p, false)
		if err != nil {
			return Result{}, err
		}
		refs, ok := pd["Contents"].(types.Array)
		if !ok {
			refs = types.Array{pd["Contents"]}
		}
		for _, r := range refs {
			sd, _, err := x.DereferenceStreamDict(r)
			if err != nil || sd == nil {
				return Result{}, fmt.Errorf("page %d: %v", p, err)
			}
			if err := sd.Decode(); err != nil {
				return Result{}, err
			}
			if n, err := letters.UnmarkedPaint(sd.Content); err != nil || n > 0 {
				fail("page %d paints %d times neither tagged nor as an artifact (ISO 14289-1, 7.1) %v", p, n, err)
			}
		}
	}
	// The structure tree.
	st := dict(root["StructTreeRoot"])
	if st == nil {
		fail("the catalog has no /StructTreeRoot (ISO 14289-1, 7.1)")
		return out, nil
	}
	roles := dict(st["RoleMap"])
	// What a list's elements may hold (ISO 32000-1, 14.8.4.3.3).
	allowed := map[string][]string{"L": {"LI", "L", "Caption"}, "LI": {"Lbl", "LBody"}}
	var walk func(o types.Object, depth int, parent string)
	walk = func(o types.Object, depth int, parent string) {
		switch k := deref(o).(type) {
		case types.Array:
			for _, c := range k {
				walk(c, depth, parent)
			}
		case types.Dict:
			s := k.NameEntry("S")
			if s == nil {
				return // a marked-content or object reference: the content itself
			}
			name := *s
			if ok, has := allowed[parent]; has && !slices.Contains(ok, name) {
				fail("a %s holds a %s (ISO 32000-1, 14.8.4.3.3)", parent, name)
			}
			if !standard[name] {
				if m := roles.NameEntry(name); m == nil || !standard[*m] {
					fail("the structure type %s is neither standard nor role-mapped to one (ISO 14289-1, 7.1)", name)
				}
			}
			if name == "Figure" && str(k["Alt"]) == "" && str(k["ActualText"]) == "" {
				fail("a figure has no alternative text (ISO 14289-1, 7.3)")
			}
			out.Tree = append(out.Tree, strings.Repeat("  ", depth)+name)
			walk(k["K"], depth+1, name)
		}
	}
	walk(st["K"], 0, "")
	return out, nil
}

// standard are the standard structure types of ISO 32000-1, 14.8.4.
var standard = map[string]bool{}

func init() {
	for _, s := range strings.Fields("Document Part Art Sect Div BlockQuote Caption TOC TOCI Index NonStruct Private " +
		"P H H1 H2 H3 H4 H5 H6 L LI Lbl LBody Table TR TH TD THead TBody TFoot Span Quote Note Reference BibEntry " +
		"Code Link Annot Ruby RB RT RP Warichu WT WP Figure Formula Form") {
		standard[s] = true
	}
}

// Kinds are the structure types in tree, in order, without repeats.
func Kinds(tree []string) []string {
	var out []string
	for _, l := range tree {
		if k := strings.TrimSpace(l); !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// QPDF has qpdf, an independent reader, check data's syntax, cross-reference sections
// (the incremental update's included) and streams. Without qpdf it is skipped, unless
// ETHICSBOT_QPDF=require (as .ci/run sets, having installed it).
func QPDF(t testing.TB, data []byte) {
	t.Helper()
	qpdf, err := exec.LookPath("qpdf")
	if err != nil {
		if os.Getenv("ETHICSBOT_QPDF") == "require" {
			t.Fatal("ETHICSBOT_QPDF=require, but qpdf is not installed")
		}
		t.Log("qpdf is not installed (apt-get install qpdf): the PDF's syntax is not checked by it")
		return
	}
	f := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(f, data, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(qpdf, "--check", f).CombinedOutput()
	if err != nil || strings.Contains(string(out), "WARNING") {
		t.Errorf("qpdf --check: %v\n%s", err, out)
	}
}

// StructText is the structure tree of data as poppler's pdfinfo -struct-text reads it: each
// element, its attributes (a table heading's /Scope, a cell's /Headers) and the text it
// holds, indented by depth, as a screen reader is given it. Without pdfinfo it is "" and
// the test is told so, unless ETHICSBOT_POPPLER=require (as .ci/run sets, having
// installed poppler-utils) makes that a failure.
func StructText(t testing.TB, data []byte) string {
	t.Helper()
	pdfinfo, err := exec.LookPath("pdfinfo")
	if err != nil {
		if os.Getenv("ETHICSBOT_POPPLER") == "require" {
			t.Fatal("ETHICSBOT_POPPLER=require, but pdfinfo (poppler-utils) is not installed")
		}
		t.Log("pdfinfo is not installed (apt-get install poppler-utils): the structure tree is not read by it")
		return ""
	}
	f := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(f, data, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(pdfinfo, "-struct-text", f).CombinedOutput()
	if err != nil {
		t.Fatalf("pdfinfo -struct-text: %v\n%s", err, out)
	}
	return string(out)
}

// Elements are the structure elements of a StructText, each indented by its depth as
// Result.Tree has them, without their text and attributes: two readers of the same tree
// give the same Elements.
func Elements(structText string) []string {
	var out []string
	for _, l := range strings.Split(structText, "\n") {
		body := strings.TrimLeft(l, " ")
		if body == "" || body[0] == '"' || body[0] == '/' {
			continue
		}
		name, _, _ := strings.Cut(body, " ")
		out = append(out, l[:len(l)-len(body)]+strings.TrimSuffix(name, ":"))
	}
	return out
}
