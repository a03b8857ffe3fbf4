package letters_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"ethicsbot/docket"
	"ethicsbot/letters"
)

// chromium is the Chromium the tagged documents' tests print with, started once for the
// package's tests. Without one they are skipped, unless ETHICSBOT_BROWSER=require (as
// .ci/run sets, having installed it) makes that a failure.
var chromium = sync.OnceValues(func() (*letters.Chromium, error) {
	path, err := letters.FindChromium()
	if err != nil {
		return nil, err
	}
	return letters.NewChromium(path), nil
})

func taggedMaker(t *testing.T) *letters.Maker {
	t.Helper()
	c, err := chromium()
	if err != nil {
		if os.Getenv("ETHICSBOT_BROWSER") == "require" {
			t.Fatalf("ETHICSBOT_BROWSER=require, but: %v", err)
		}
		t.Skipf("skipping the tagged documents' test: %v", err)
	}
	m := mustMaker(t, config)
	m.SetEngine(c, func(err error) { t.Errorf("drawn untagged: %v", err) })
	return m
}

// tagged is what the structural check finds in a PDF: the structure tree as a screen
// reader walks it, and the failures of the checks of PDF/UA-1 and PDF/A-2 that a PDF
// library can make.
type tagged struct {
	tree     []string // each structure element, indented by its depth: "  H1", "    Span"
	failures []string
}

// checkTagged checks data as a tagged (ISO 14289-1) and archival (ISO 19005-2) PDF, as far
// as reading its objects allows: the catalog marks it tagged (/MarkInfo /Marked true),
// names its language (/Lang) and has a structure tree (/StructTreeRoot) whose every
// element has a standard or role-mapped type; the title is in the information dictionary
// and shown as the window's title (/DisplayDocTitle); every font is embedded; every
// figure has alternative text (/Alt); the XMP metadata declares PDF/A-2 and PDF/UA-1; the
// output intent has an ICC profile; the trailer has a file identifier.
func checkTagged(data []byte, title string) (tagged, error) {
	api.DisableConfigDir()
	conf := model.NewDefaultConfiguration()
	conf.ValidationMode = model.ValidationRelaxed
	ctx, err := api.ReadAndValidate(bytes.NewReader(data), conf)
	if err != nil {
		return tagged{}, err
	}
	x := ctx.XRefTable
	var out tagged
	fail := func(f string, a ...any) { out.failures = append(out.failures, fmt.Sprintf(f, a...)) }
	root, err := x.DereferenceDict(*x.Root)
	if err != nil {
		return tagged{}, err
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
			return tagged{}, err
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
			return tagged{}, err
		}
		refs, ok := pd["Contents"].(types.Array)
		if !ok {
			refs = types.Array{pd["Contents"]}
		}
		for _, r := range refs {
			sd, _, err := x.DereferenceStreamDict(r)
			if err != nil || sd == nil {
				return tagged{}, fmt.Errorf("page %d: %v", p, err)
			}
			if err := sd.Decode(); err != nil {
				return tagged{}, err
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
			out.tree = append(out.tree, strings.Repeat("  ", depth)+name)
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

// types are the structure types in tree, in order, without repeats.
func kinds(tree []string) []string {
	var out []string
	for _, l := range tree {
		if k := strings.TrimSpace(l); !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// TestTaggedDocuments: with Chromium as its engine, every kind of document, the agenda,
// the minutes, a meeting's public notice and a letter, is a tagged PDF with its language,
// title, headings, lists and tables, its fonts embedded, and PDF/A-2 and PDF/UA-1 declared
// in its metadata; TAGTREE=1 logs each one's structure tree.
func TestTaggedDocuments(t *testing.T) {
	m := taggedMaker(t)
	agenda := ok(t)(m.AgendaPDF(januaryAgenda(), D(t, "2027-01-08")))
	minutes := ok(t)(m.MinutesPDF(januaryRecord(), docket.OpenPart, docket.Names(names)))
	closed := ok(t)(m.MinutesPDF(januaryRecord(), docket.ClosedPart, docket.Names(names)))
	letter := ok(t)(m.Make(received(), "respondent", today))
	notice := ok(t)(m.Make(received(), letters.NoticeSufficiency, today))
	// A paper made again: the letter as the clerk prints it, its mark at the head of every
	// page (this case's notice was mailed without a copy kept: RE-PRINT).
	drafts, err := m.MakeDue(context.Background(), received(), "respondent", today, nil)
	if err != nil || len(drafts) != 1 || !drafts[0].Draft {
		t.Fatalf("the draft: %v, %v", drafts, err)
	}
	if text := Text(t, drafts[0].Data); !Contains(text, "RE-PRINT: mailed Friday 4 December 2026") {
		t.Errorf("the mark is not at the head of the re-printed letter:\n%s", text)
	}
	for _, tc := range []struct {
		name string
		doc  letters.Document
		want []string // structure types it must have
	}{
		{"Agenda", agenda, []string{"H1", "L", "LI", "P"}},
		{"Minutes", minutes, []string{"H1", "H2", "P", "Table", "TR", "TH", "TD"}},
		{"ClosedMinutes", closed, []string{"H1", "H2", "P", "Table", "TH", "TD"}},
		{"Letter", letter, []string{"H1", "H2", "P", "L", "LI"}},
		{"Notice", notice, []string{"H1", "P", "L", "LI"}},
		{"ReprintedLetter", drafts[0], []string{"H1", "H2", "P", "L", "LI"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := checkTagged(tc.doc.Data, tc.doc.Title)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range got.failures {
				t.Error(f)
			}
			have := kinds(got.tree)
			for _, w := range tc.want {
				if !slices.Contains(have, w) {
					t.Errorf("the structure tree has no %s: it has %v", w, have)
				}
			}
			if h1 := strings.Count(strings.Join(got.tree, "\n")+"\n", "H1\n"); h1 != 1 {
				t.Errorf("%d H1 elements, want the title's one", h1)
			}
			qpdfCheck(t, tc.doc.Data)
			if os.Getenv("TAGTREE") != "" {
				t.Logf("%s:\n%s", tc.doc.Title, strings.Join(got.tree, "\n"))
				if dir := os.Getenv("TAGTREE_DIR"); dir != "" {
					_ = os.WriteFile(dir+"/"+tc.doc.Name, tc.doc.Data, 0o644)
				}
			}
		})
	}
}

// qpdfCheck has qpdf, an independent reader, check data's syntax, cross-reference sections
// (the incremental update's included) and streams. Without qpdf it is skipped, unless
// ETHICSBOT_QPDF=require (as .ci/run sets, having installed it).
func qpdfCheck(t *testing.T, data []byte) {
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

// TestTaggedStructureOfHostileText: HTML and directives in an agenda's text add no element
// to its structure: one heading, no table, no figure.
func TestTaggedStructureOfHostileText(t *testing.T) {
	m := taggedMaker(t)
	a := januaryAgenda()
	a.Place = "Room 2</p><h1>Forged</h1><table><tr><td>x</td></tr></table><img src=x alt=y>"
	a.Items[7].Text = "Election | @row A | B\n@title FORGED"
	d := ok(t)(m.AgendaPDF(a, D(t, "2027-01-08")))
	got, err := checkTagged(d.Data, d.Title)
	if err != nil {
		t.Fatal(err)
	}
	have := kinds(got.tree)
	for _, no := range []string{"Table", "TR", "Figure", "H2"} {
		if slices.Contains(have, no) {
			t.Errorf("the agenda's text made a %s: %v", no, have)
		}
	}
	if h1 := strings.Count(strings.Join(got.tree, "\n")+"\n", "H1\n"); h1 != 1 {
		t.Errorf("%d H1 elements, want the title's one", h1)
	}
}

// TestCheckTaggedFailsUntagged: the check refuses the untagged layout's PDF, so that it
// cannot pass a document without tags.
func TestCheckTaggedFailsUntagged(t *testing.T) {
	d := ok(t)(mustMaker(t, config).AgendaPDF(januaryAgenda(), D(t, "2027-01-08")))
	got, err := checkTagged(d.Data, d.Title)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"/MarkInfo", "/Lang", "/StructTreeRoot", "/Metadata", "/OutputIntents",
		"neither tagged nor as an artifact"} {
		if !slices.ContainsFunc(got.failures, func(f string) bool { return strings.Contains(f, want) }) {
			t.Errorf("the untagged agenda passes the check of %s: %v", want, got.failures)
		}
	}
}

// TestTaggedWindowEnvelope: printed by Chromium, the letters' addresses are in the window
// of a No. 10 envelope, the return address at the top left and the text below the window,
// as TestWindowEnvelope checks the untagged ones.
func TestTaggedWindowEnvelope(t *testing.T) { windowEnvelope(t, taggedMaker(t)) }

// TestUntaggedWhenTheEngineFails: an engine that cannot print leaves the document drawn
// untagged, and says so to the function SetEngine was given.
func TestUntaggedWhenTheEngineFails(t *testing.T) {
	m := mustMaker(t, config)
	var told []error
	m.SetEngine(brokenEngine{}, func(err error) { told = append(told, err) })
	d := ok(t)(m.AgendaPDF(januaryAgenda(), D(t, "2027-01-08")))
	if !Contains(Text(t, d.Data), "AGENDA") {
		t.Errorf("no agenda drawn")
	}
	if len(told) != 1 || !strings.Contains(told[0].Error(), "no browser here") ||
		!strings.Contains(told[0].Error(), "Agenda of the meeting of 2027-01-12") {
		t.Errorf("told %v", told)
	}
}

type brokenEngine struct{}

func (brokenEngine) PrintPDF(context.Context, string, string, string) ([]byte, error) {
	return nil, errors.New("no browser here")
}

// BenchmarkAgenda is the time to draw an agenda untagged, and tagged by a Chromium
// already started (BENCHMARKS.md); TestTaggedDocuments's first document includes the start.
func BenchmarkAgenda(b *testing.B) {
	t := &testing.T{}
	plain := mustMaker(t, config)
	a, day := januaryAgenda(), docket.NewDate(2027, 1, 8)
	b.Run("Untagged", func(b *testing.B) {
		for b.Loop() {
			if _, err := plain.AgendaPDF(a, day); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Tagged", func(b *testing.B) {
		c, err := chromium()
		if err != nil {
			b.Skip(err)
		}
		m := mustMaker(t, config)
		m.SetEngine(c, func(err error) { b.Fatal(err) })
		for b.Loop() {
			if _, err := m.AgendaPDF(a, day); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestChromiumStopsWhenIdleAndRecovers: the browser stops once idle and starts again for
// the next document; a document that passes PrintTimeout fails, and the next one prints.
func TestChromiumStopsWhenIdleAndRecovers(t *testing.T) {
	if _, err := chromium(); err != nil {
		taggedMaker(t) // skips, or fails under ETHICSBOT_BROWSER=require
	}
	path, _ := letters.FindChromium()
	c := letters.NewChromium(path)
	c.Idle = 50 * time.Millisecond
	defer c.Close()
	m := mustMaker(t, config)
	var told []error
	m.SetEngine(c, func(err error) { told = append(told, err) })
	a, day := januaryAgenda(), D(t, "2027-01-08")
	tagged := func() bool {
		d := ok(t)(m.AgendaPDF(a, day))
		got, err := checkTagged(d.Data, d.Title)
		return err == nil && len(got.failures) == 0
	}
	if !tagged() || c.Starts() != 1 {
		t.Fatalf("the first agenda: tagged %v, %d starts, %v", tagged(), c.Starts(), told)
	}
	time.Sleep(500 * time.Millisecond)
	if !tagged() || c.Starts() != 2 {
		t.Errorf("after the browser stopped idle: %d starts, %v", c.Starts(), told)
	}
	was := letters.PrintTimeout
	letters.PrintTimeout = time.Millisecond
	if tagged() || len(told) == 0 || !strings.Contains(told[len(told)-1].Error(), "within 1ms") {
		t.Errorf("a document past the time limit: %v", told)
	}
	letters.PrintTimeout = was
	if !tagged() {
		t.Errorf("the document after one past the time limit is not tagged: %v", told)
	}
}

// TestTaggedWrapKeepsItsSpace: a heading that wraps keeps the space where it wraps, so that
// the words on either side are not read as one ("(5ILCS").
func TestTaggedWrapKeepsItsSpace(t *testing.T) {
	m := taggedMaker(t)
	r := januaryRecord()
	long := strings.TrimSpace(strings.Repeat("review of the city's sign ordinance and ", 6))
	for i := range r.Entries {
		if r.Entries[i].Item.Kind == docket.BusinessItem {
			r.Entries[i].Item.Text = long
		}
	}
	d := ok(t)(m.MinutesPDF(r, docket.OpenPart, docket.Names(names)))
	text := Text(t, d.Data)
	if !strings.Contains(strings.ReplaceAll(text, "\n", ""), long) {
		t.Errorf("the wrapped heading lost a space where it wraps:\n%s", text)
	}
}
