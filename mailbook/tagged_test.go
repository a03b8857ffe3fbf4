package mailbook_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	pdfread "github.com/ledongthuc/pdf"

	"ethicsbot/docket"
	"ethicsbot/letters"
	"ethicsbot/letters/pdfcheck"
	"ethicsbot/mailbook"
)

// chromium is the engine the tagged book is printed by; without Chromium the test is
// skipped, unless ETHICSBOT_BROWSER=require (as .ci/run sets) makes that a failure.
func chromium(t *testing.T) *letters.Chromium {
	t.Helper()
	path, err := letters.FindChromium()
	if err != nil {
		if os.Getenv("ETHICSBOT_BROWSER") == "require" {
			t.Fatalf("ETHICSBOT_BROWSER=require, but: %v", err)
		}
		t.Skipf("skipping the tagged mailing book: %v", err)
	}
	c := letters.NewChromium(path)
	t.Cleanup(func() { c.Close() })
	return c
}

// taggedName is the respondent of the tagged book's tests: long, with markup to escape.
const taggedName = "Maximiliana <b>Bartholomew</b>-Fitzgerald"

// longBook is a book of 12 pieces to respondent at a long address, over several pages.
func longBook(respondent string) mailbook.Book {
	day, _ := docket.ParseDate("2026-12-11")
	long := "Apartment 1204, The Residences at Lincoln Park West\n2400 North Lakeview Avenue, Building C\n" +
		"Springfield, IL 62703-4417"
	var cases []docket.Case
	for i := range 12 {
		cases = append(cases, docket.Case{
			Number:     "2026-0" + string(rune('1'+i/10)) + string(rune('0'+i%10)),
			Respondent: docket.Person{Name: respondent, Address: long},
			Mailings: []docket.Mailing{{Paper: docket.DismissalToRespondent, Recipient: docket.Respondent,
				Article: "9407111898765432101634", Mailed: day}},
		})
	}
	return mailbook.Of(cases, day, mailbook.Addressee{Name: "Ethics Commission of the City of Springfield",
		Address: "Office of the City Clerk, Room 101\nMunicipal Center\n800 East Monroe Street\nSpringfield, IL 62701-1999"},
		nil)
}

// pageTexts are the words of each page of pdf, as a text extractor reads them.
func pageTexts(t *testing.T, pdf []byte) []string {
	t.Helper()
	r, err := pdfread.NewReader(bytes.NewReader(pdf), int64(len(pdf)))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for i := 1; i <= r.NumPage(); i++ {
		text, _ := r.Page(i).GetPlainText(nil)
		out = append(out, strings.Join(strings.Fields(text), ""))
	}
	return out
}

// TestTaggedBook: printed by Chromium, the book is a tagged PDF (PDF/UA-1) made archival
// (PDF/A-2b), as the letters are: one heading, the title; on each page a table whose first
// row heads the eight columns (TH) and whose every other row has a cell (TD) in each, the
// blank fee columns included, so that each cell is read with its column's heading; the
// heading repeated on later pages is an artifact, not read again; a name broken within a
// word, as it is too long for its cell, is read as one word. It has the pages of the
// untagged book, each with the same text. poppler reads the same tree, and qpdf the syntax.
func TestTaggedBook(t *testing.T) {
	c := chromium(t)
	b := longBook(taggedName)
	pdf, err := b.TaggedPDF(context.Background(), c, time.Date(2026, 12, 11, 9, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	got, err := pdfcheck.Check(pdf, mailbook.Title)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range got.Failures {
		t.Error(f)
	}
	plain, err := b.PDF()
	if err != nil {
		t.Fatal(err)
	}
	tagged, untagged := pageTexts(t, pdf), pageTexts(t, plain)
	if len(untagged) != 3 || !slices.Equal(tagged, untagged) {
		t.Errorf("the tagged book's pages are not the untagged book's:\n%q\n%q", tagged, untagged)
	}
	tree := strings.Join(got.Tree, "\n") + "\n"
	if n := strings.Count(tree, "H1\n"); n != 1 {
		t.Errorf("%d headings H1, want the title's one:\n%s", n, tree)
	}
	if n := strings.Count(tree, "Table\n"); n != len(untagged) {
		t.Errorf("%d tables, want one a page (%d)", n, len(untagged))
	}
	// Each row's cells, as the tree lists them: a row is TR, then its TH or TD.
	var rows [][]string
	for _, l := range got.Tree {
		switch strings.TrimSpace(l) {
		case "TR":
			rows = append(rows, nil)
		case "TH", "TD":
			rows[len(rows)-1] = append(rows[len(rows)-1], strings.TrimSpace(l))
		}
	}
	if len(rows) != 3+12 {
		t.Fatalf("%d rows, want 3 of headings and 12 pieces", len(rows))
	}
	for i, r := range rows {
		want := "TD"
		if len(r) > 0 && r[0] == "TH" {
			want = "TH"
		}
		if len(r) != 8 || slices.ContainsFunc(r, func(c string) bool { return c != want }) {
			t.Errorf("row %d has the cells %v, want 8 %s", i, r, want)
		}
	}
	qpdfCheck := pdfcheck.QPDF
	qpdfCheck(t, pdf)
	st := pdfcheck.StructText(t, pdf)
	if st != "" {
		if el := pdfcheck.Elements(st); !slices.Equal(el, got.Tree) {
			t.Errorf("poppler reads another structure tree:\n%s", st)
		}
		for _, want := range []string{"/Scope /Column", `"Return receipt fee"`, `"<b>Bartholomew</b>-Fitzgerald"`,
			`"Total number of pieces listed by sender: 12"`} {
			if !strings.Contains(st, want) {
				t.Errorf("the structure tree lacks %s:\n%s", want, st)
			}
		}
		if n := strings.Count(st, `"Firm Mailing Book for Accountable Mail"`); n != 1 {
			t.Errorf("the title is read %d times, want once: the later pages' heading is an artifact", n)
		}
	}
}

// TestPrintFallsBackUntagged: without an engine, or when it fails, the book is drawn
// untagged, and the failure is told.
func TestPrintFallsBackUntagged(t *testing.T) {
	b := longBook(taggedName)
	plain, err := b.PDF()
	if err != nil {
		t.Fatal(err)
	}
	var told []error
	pdf, err := b.Print(context.Background(), broken{}, time.Now(), func(err error) { told = append(told, err) })
	if err != nil || !slices.Equal(pageTexts(t, pdf), pageTexts(t, plain)) {
		t.Fatalf("the book drawn untagged: %v", err)
	}
	if len(told) != 1 || !strings.Contains(told[0].Error(), "no browser here") ||
		!strings.Contains(told[0].Error(), "drawn untagged") {
		t.Errorf("told %v", told)
	}
	pdf, err = b.Print(context.Background(), nil, time.Now(), nil)
	if got, _ := pdfcheck.Check(pdf, mailbook.Title); err != nil || len(got.Tree) > 0 {
		t.Errorf("without an engine: %v, tree %v", err, got.Tree)
	}
}

type broken struct{}

func (broken) PrintPDF(context.Context, string, string, string) ([]byte, error) {
	return nil, errors.New("no browser here")
}

// BenchmarkBook is the time to draw the three-page book untagged, and tagged by a Chromium
// already started (the first print starts it).
func BenchmarkBook(b *testing.B) {
	book := longBook(taggedName)
	b.Run("Untagged", func(b *testing.B) {
		for b.Loop() {
			if _, err := book.PDF(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Tagged", func(b *testing.B) {
		path, err := letters.FindChromium()
		if err != nil {
			b.Skip(err)
		}
		c := letters.NewChromium(path)
		defer c.Close()
		if _, err := book.TaggedPDF(context.Background(), c, time.Now()); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if _, err := book.TaggedPDF(context.Background(), c, time.Now()); err != nil {
				b.Fatal(err)
			}
		}
	})
}
