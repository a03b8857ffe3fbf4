package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ethicsbot/app"
	"ethicsbot/app/apptest"
	"ethicsbot/letters"
	"ethicsbot/letters/pdfcheck"
	"ethicsbot/mailbook"
)

// TestMailbookCommand: `ethicsbot mailbook DATE` lists the day's certified letters in the
// manner of PS Form 3877, each with its article number and addressee, a blank address and
// postage, and the count for the counter clerk; --pdf writes the same as a PDF; a day
// without certified mail lists none and writes no PDF; the record is only read.
func TestMailbookCommand(t *testing.T) {
	env := twoCases(t)
	db := env["ETHICSBOT_DB"]
	before, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "book.pdf")
	code, out, errOut := runCLI(t, env, "", "mailbook", "2026-12-04", "--pdf", file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"# Firm Mailing Book for Accountable Mail",
		"PS Form 3877",
		"**Sender:** Ethics Commission of Springfield, City Hall, Room 201, Springfield, IL 62701",
		"**Date of mailing:** Fri 2026-12-04",
		"| No. | Article number | Addressee | Address | Postage | Certified fee | Return receipt fee | Reference |",
		"| 1 | 9407 1118 9876 5432 1699 | Olga Secretive | 34 Oak Avenue, Springfield, IL 62703 |  |  |  | 2026-001 |",
		"| 2 | 9407 1118 9876 5432 1712 | Jane Roe | 34 Oak Avenue, Springfield, IL 62703 |  |  |  | 2026-002 |",
		"Total number of pieces listed by sender: **2**",
		"Postmaster, per (name of receiving employee)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("book lacks %q:\n%s", want, out)
		}
	}
	for _, secret := range []string{"Acme", "gift", "notice of the complaint", "Quentin"} {
		if strings.Contains(out, secret) {
			t.Errorf("the book, handed over the counter, tells %q:\n%s", secret, out)
		}
	}
	text := apptest.PDFText(t, file)
	for _, want := range []string{"FirmMailingBookforAccountableMail", "94071118987654321699", "OlgaSecretive",
		"94071118987654321712", "JaneRoe", "Postmarkanddateofreceipt", "Totalnumberofpieceslistedbysender:2"} {
		if !strings.Contains(text, want) {
			t.Errorf("the PDF lacks %q:\n%s", want, text)
		}
	}

	code, out, _ = runCLI(t, env, "", "mailbook", "2026-12-05")
	if code != 0 || !strings.Contains(out, "No certified mail is recorded as mailed on Sat 2026-12-05.") ||
		strings.Contains(out, "| 1 |") {
		t.Errorf("a day without mail: exit %d\n%s", code, out)
	}
	empty := filepath.Join(t.TempDir(), "none.pdf")
	if code, _, errOut := runCLI(t, env, "", "mailbook", "2026-12-05", "--pdf", empty); code == 0 ||
		!strings.Contains(errOut, "no mailing book was written") {
		t.Errorf("a PDF of no mail: exit %d, %s", code, errOut)
	}
	if _, err := os.Stat(empty); err == nil {
		t.Error("a PDF of no mail was written")
	}
	for _, bad := range [][]string{{"mailbook"}, {"mailbook", "2026-02-30"}, {"mailbook", "2026-12-04", "2026-12-05"}} {
		if code, _, errOut := runCLI(t, env, "", bad...); code != app.ExitUsage ||
			!strings.Contains(errOut, "usage: ethicsbot mailbook DATE") {
			t.Errorf("%v: exit %d, %s", bad, code, errOut)
		}
	}
	after, err := os.ReadFile(db)
	if err != nil || string(after) != string(before) {
		t.Error("mailbook changed the record")
	}
}

// TestMailbookCommandTagged: with Chromium installed, `ethicsbot mailbook --pdf` writes the
// book tagged and archival (PDF/UA-1, PDF/A-2b), as the letters are; without it the test is
// skipped, unless ETHICSBOT_BROWSER=require (as .ci/run sets) makes that a failure.
func TestMailbookCommandTagged(t *testing.T) {
	if _, err := letters.FindChromium(); err != nil {
		if os.Getenv("ETHICSBOT_BROWSER") == "require" {
			t.Fatalf("ETHICSBOT_BROWSER=require, but: %v", err)
		}
		t.Skip(err)
	}
	env := twoCases(t)
	file := filepath.Join(t.TempDir(), "book.pdf")
	if code, _, errOut := runCLI(t, env, "", "mailbook", "2026-12-04", "--pdf", file); code != 0 ||
		strings.Contains(errOut, "untagged") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	got, err := pdfcheck.Check(data, mailbook.Title)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range got.Failures {
		t.Error(f)
	}
	if !slices.Contains(pdfcheck.Kinds(got.Tree), "TH") {
		t.Errorf("the book's table has no headings: %v", got.Tree)
	}
}
