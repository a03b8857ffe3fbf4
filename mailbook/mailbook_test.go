package mailbook_test

import (
	"bytes"
	"strings"
	"testing"

	pdfread "github.com/ledongthuc/pdf"

	"ethicsbot/docket"
	"ethicsbot/mailbook"
)

// TestOf: the book lists the certified mailings of the day only, not deliveries nor other
// days'; an official's configured name and address are printed, a party's name alone; and
// a name is data in the Markdown table, never markup that could end its cell.
func TestOf(t *testing.T) {
	day, _ := docket.ParseDate("2026-12-11")
	other, _ := docket.ParseDate("2026-12-10")
	cases := []docket.Case{{
		Number:      "2026-001",
		Respondent:  docket.Person{Name: "Jane | Roe *x*", Address: "34 Oak Avenue\nSpringfield, IL 62703"},
		Complainant: docket.Person{Name: "John Doe"},
		Mailings: []docket.Mailing{
			{Paper: docket.DismissalToRespondent, Recipient: docket.Respondent, Article: "9407111898765432101634", Mailed: day},
			{Paper: docket.DismissalToComplainant, Recipient: docket.Complainant, Article: "9407111898765432101535",
				Mailed: other},
			{Paper: docket.AdjudicationRequest, Recipient: docket.Attorney, Mailed: day},
			{Paper: docket.RecommendationToOfficer, Recipient: docket.Officer, Article: "94071118987654321712", Mailed: day},
		},
	}}
	b := mailbook.Of(cases, day, mailbook.Addressee{Name: "Ethics Commission"},
		map[docket.Party]mailbook.Addressee{docket.Officer: {Name: "Pat Quimby",
			Address: "100 Main Street\nSpringfield, IL 62701"}})
	if len(b.Pieces) != 2 || b.Pieces[0].Addressee.Address != "34 Oak Avenue\nSpringfield, IL 62703" ||
		b.Pieces[1].Addressee.Name != "Pat Quimby" {
		t.Fatalf("pieces %+v", b.Pieces)
	}
	md := b.Markdown()
	for _, want := range []string{
		`| 1 | 9407 1118 9876 5432 1016 34 | Jane \| Roe \*x\* | 34 Oak Avenue, Springfield, IL 62703 |`,
		"| 2 | 9407 1118 9876 5432 1712 | Pat Quimby | 100 Main Street, Springfield, IL 62701 |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("book lacks %q:\n%s", want, md)
		}
	}
	pdf, err := b.PDF()
	if err != nil || !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Errorf("PDF: %v", err)
	}
}

// TestOfPrintsTheAddressAsMailed: a party who moved after the mailing appears at the
// address the piece went to, which the mailing keeps.
func TestOfPrintsTheAddressAsMailed(t *testing.T) {
	day, _ := docket.ParseDate("2026-12-11")
	cases := []docket.Case{{
		Number: "2026-001", Respondent: docket.Person{Name: "Jane Roe", Address: "99 Moved Street\nChicago, IL 60601"},
		Mailings: []docket.Mailing{{Paper: docket.DismissalToRespondent, Recipient: docket.Respondent,
			Article: "9407111898765432101634", Mailed: day, Address: "34 Oak Avenue\nSpringfield, IL 62703"}},
	}}
	b := mailbook.Of(cases, day, mailbook.Addressee{Name: "Ethics Commission"}, nil)
	if len(b.Pieces) != 1 || b.Pieces[0].Addressee.Address != "34 Oak Avenue\nSpringfield, IL 62703" {
		t.Errorf("pieces %+v", b.Pieces)
	}
}

// TestPDFPrintsAddressesInFull: the sender's return address and each addressee's name and
// address are printed to the ZIP code, wrapped within their cells, never cut short with an
// ellipsis, over as many pages as the pieces need.
func TestPDFPrintsAddressesInFull(t *testing.T) {
	pdf, err := longBook("Maximiliana Bartholomew-Fitzgerald Quintanilla-Vanderbilt").PDF()
	if err != nil {
		t.Fatal(err)
	}
	r, err := pdfread.NewReader(bytes.NewReader(pdf), int64(len(pdf)))
	if err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	for i := 1; i <= r.NumPage(); i++ {
		text, _ := r.Page(i).GetPlainText(nil)
		all.WriteString(text)
	}
	text := strings.Join(strings.Fields(all.String()), " ")
	if r.NumPage() < 2 {
		t.Errorf("12 pieces of five lines each fit on %d page", r.NumPage())
	}
	if strings.Contains(text, "…") {
		t.Errorf("something was cut short with an ellipsis:\n%s", text)
	}
	for _, want := range []string{"Springfield, IL 62701-1999", "800 East Monroe Street", "Springfield, IL 62703-4417",
		"Lakeview Avenue, Building C", "Quintanilla-Vanderbilt"} {
		if n := strings.Count(strings.ReplaceAll(text, " ", ""), strings.ReplaceAll(want, " ", "")); n == 0 {
			t.Errorf("the book lacks %q:\n%s", want, text)
		}
	}
	if n := strings.Count(strings.ReplaceAll(text, " ", ""), "62703-4417"); n != 12 {
		t.Errorf("%d addressees' ZIP codes printed, want 12", n)
	}
}
