package letters_test

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"ethicsbot/docket"
	"ethicsbot/letters"
	"ethicsbot/letters/pdfcheck"
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

// tagged is what the structural check finds (pdfcheck.Check).
type tagged = pdfcheck.Result

// checkTagged checks data as a tagged and archival PDF (pdfcheck.Check).
func checkTagged(data []byte, title string) (tagged, error) { return pdfcheck.Check(data, title) }

// kinds are the structure types in tree, in order, without repeats.
func kinds(tree []string) []string { return pdfcheck.Kinds(tree) }

// qpdfCheck has qpdf check data (pdfcheck.QPDF).
func qpdfCheck(t *testing.T, data []byte) { t.Helper(); pdfcheck.QPDF(t, data) }

// TestTaggedDocuments: with Chromium as its engine, every kind of document, the agenda,
// the minutes, a meeting's public notice and a letter, is a tagged PDF with its language,
// title, headings, lists and tables, its fonts embedded, and PDF/A-2 and PDF/UA-1 declared
// in its metadata, and poppler reads the same structure tree as pdfcpu; TAGTREE=1 logs each
// one's structure tree with its text, as poppler reads it.
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
			for _, f := range got.Failures {
				t.Error(f)
			}
			have := kinds(got.Tree)
			for _, w := range tc.want {
				if !slices.Contains(have, w) {
					t.Errorf("the structure tree has no %s: it has %v", w, have)
				}
			}
			if h1 := strings.Count(strings.Join(got.Tree, "\n")+"\n", "H1\n"); h1 != 1 {
				t.Errorf("%d H1 elements, want the title's one", h1)
			}
			qpdfCheck(t, tc.doc.Data)
			// poppler, another reader, finds the same tree.
			st := pdfcheck.StructText(t, tc.doc.Data)
			if el := pdfcheck.Elements(st); st != "" && !slices.Equal(el, got.Tree) {
				t.Errorf("poppler reads another structure tree:\n%s\npdfcpu's:\n%s", st, strings.Join(got.Tree, "\n"))
			}
			if os.Getenv("TAGTREE") != "" {
				t.Logf("%s:\n%s", tc.doc.Title, st)
				if dir := os.Getenv("TAGTREE_DIR"); dir != "" {
					_ = os.WriteFile(dir+"/"+tc.doc.Name, tc.doc.Data, 0o644)
				}
			}
		})
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
	have := kinds(got.Tree)
	for _, no := range []string{"Table", "TR", "Figure", "H2"} {
		if slices.Contains(have, no) {
			t.Errorf("the agenda's text made a %s: %v", no, have)
		}
	}
	if h1 := strings.Count(strings.Join(got.Tree, "\n")+"\n", "H1\n"); h1 != 1 {
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
		if !slices.ContainsFunc(got.Failures, func(f string) bool { return strings.Contains(f, want) }) {
			t.Errorf("the untagged agenda passes the check of %s: %v", want, got.Failures)
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
		return err == nil && len(got.Failures) == 0
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
