package commands_test

import (
	"bytes"
	"database/sql"
	"image"
	"image/color"
	"image/png"
	"path/filepath"
	"strings"
	"testing"

	"codeberg.org/go-pdf/fpdf"
	"github.com/ledongthuc/pdf"

	"ethicsbot/commands"
	"ethicsbot/docket"
	"ethicsbot/letters"
	"ethicsbot/store"
)

// pdfPages reads a PDF's pages as text.
func pdfPages(t *testing.T, data []byte) []string {
	t.Helper()
	r, err := pdf.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("the PDF does not read back: %v", err)
	}
	var out []string
	for i := 1; i <= r.NumPage(); i++ {
		text, _ := r.Page(i).GetPlainText(nil)
		out = append(out, strings.Join(strings.Fields(text), ""))
	}
	return out
}

func squash(s string) string { return strings.Join(strings.Fields(s), "") }

// TestCaseFilePackets : a complaint filed with its PDF and an exhibit,
// the (B) notices mailed and a (C)(3) case referred. The respondent's packet holds the
// letter and the complaint's own pages; the attorney's, the letter, the index and both
// documents. Each letter is kept as sent with its mailing, given back byte for byte and
// never re-dated, and a draft before mailing says so; verify catches a changed byte in a
// stored document and in a stored letter.
func TestCaseFilePackets(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ethicsbot.db")
	s, clk, db := MustServiceAt(t, path)
	var err error
	s.Letters, err = letters.New(letters.Config{
		Commission: letters.Addressee{Name: "Ethics Commission", Address: "City Hall\n100 Main Street"},
		Attorney: letters.Addressee{Name: "Lionel Hutz", Title: "Corporation Counsel",
			Address: "Law Department\n100 Main Street"},
	}, s.Engine.Cal.Location())
	if err != nil {
		t.Fatal(err)
	}

	line := strings.Replace(fileLine, "section=103.10", "section=103.05",
		1) + ` respondent_address="34 Oak Avenue | Springfield, IL 62703" complainant_address="12 Elm Street | Springfield, IL 62702"`
	mustDo(t, s, clerk, line, "Filed")
	scan := fpdf.New("P", "mm", "Letter", "")
	scan.SetFont("Helvetica", "", 14)
	for _, l := range []string{"SIGNED COMPLAINT PAGE ONE", "SIGNED COMPLAINT PAGE TWO"} {
		scan.AddPage()
		scan.Cell(0, 10, l)
	}
	var complaint, photo bytes.Buffer
	if err := scan.Output(&complaint); err != nil {
		t.Fatal(err)
	}
	img := image.NewGray(image.Rect(0, 0, 60, 40))
	img.Set(3, 3, color.White)
	if err := png.Encode(&photo, img); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Attach(ctx, docket.Act{By: clerk, At: s.Now()}, "2026-001", docket.DefaultDocumentLimit, []docket.Upload{
		{Name: "complaint.pdf", Data: complaint.Bytes(), Title: "Complaint as received", Kind: docket.ComplaintDocument},
		{Name: "email.png", Data: photo.Bytes(), Title: "Screenshot of the email", Kind: docket.ExhibitDocument},
	}); err != nil {
		t.Fatal(err)
	}
	mustDo(t, s, clerk, `schedule 2026-001 sufficiency 2026-12-07T17:00 place="City Hall"`, "scheduled")

	// Before mailing, the letter is a draft.
	r := mustDo(t, s, clerk, "letters 2026-001 respondent", "draft")
	if ps := pdfPages(t, r.Files[0].Data); !strings.Contains(ps[0], "DRAFT") {
		t.Errorf("the letter before mailing is not marked as a draft: %q", ps[0])
	}
	noticed(t, s)
	r = mustDo(t, s, clerk, "letters 2026-001 respondent", "as sent")
	sent := r.Files[0].Data
	ps := pdfPages(t, sent)
	if len(ps) != 3 || strings.Contains(ps[0], "DRAFT") ||
		!strings.Contains(ps[0], squash("CERTIFIED MAIL, RETURN RECEIPT REQUESTED")) ||
		!strings.Contains(ps[0], squash("9407 1118 9876 5432 1016 34")) ||
		!strings.Contains(ps[0], squash("Friday 4 December 2026")) ||
		!strings.Contains(ps[1], "SIGNEDCOMPLAINTPAGEONE") || !strings.Contains(ps[2], "SIGNEDCOMPLAINTPAGETWO") {
		t.Fatalf("the respondent's packet is not the letter as mailed and the complaint's two pages: %q", ps)
	}

	clk.now = clk.now.AddDate(0, 0, 4)
	mustDo(t, s, comm, "rule 2026-001 attorney_referral", "ruling recorded")
	r = mustDo(t, s, clerk, "letters 2026-001 referral", "draft")
	mustDo(t, s, clerk, "delivered 2026-001 referral", "recorded")
	r = mustDo(t, s, clerk, "letters 2026-001 referral", "as sent")
	ps = pdfPages(t, r.Files[0].Data)
	if len(ps) < 5 || strings.Contains(ps[0], "DRAFT") {
		t.Fatalf("the transmittal has %d pages, want the letter, the index, the complaint's two and the exhibit's one: %q",
			len(ps), ps)
	}
	idx := ps[len(ps)-4]
	c, _ := db.Case(ctx, "2026-001")
	for _, w := range []string{"Indexofthecasefile", "Complaintasreceived", "Screenshotoftheemail",
		c.Documents[0].SHA256[:16], c.Documents[1].SHA256[:16]} {
		if !strings.Contains(idx, w) {
			t.Errorf("the index lacks %q: %q", w, idx)
		}
	}
	if !strings.Contains(ps[len(ps)-3], "SIGNEDCOMPLAINTPAGEONE") ||
		!strings.Contains(ps[len(ps)-2], "SIGNEDCOMPLAINTPAGETWO") {
		t.Errorf("the complaint's pages do not follow the index: %q", ps)
	}

	// Days later, the respondent's letter is the one mailed, byte for byte: not re-dated.
	clk.now = clk.now.AddDate(0, 0, 10)
	if r := do(s, clerk, "letters 2026-001 respondent"); len(r.Files) != 1 || !bytes.Equal(r.Files[0].Data, sent) {
		t.Fatalf("the letter as sent was made again: %s", replyText(r))
	}

	if v, err := db.Verify(ctx); err != nil || v.Broken != nil {
		t.Fatalf("verify: %v %v", v.Broken, err)
	}
	raw, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	tamper := func(sha string, data []byte) {
		t.Helper()
		if _, err := raw.Exec(`DROP TRIGGER documents_no_update; UPDATE documents SET data = ? WHERE sha256 = ?;
			CREATE TRIGGER documents_no_update BEFORE UPDATE ON documents BEGIN SELECT RAISE(ABORT, 'documents are append-only'); END;`, data, sha); err != nil {
			t.Fatal(err)
		}
	}
	changed := func(b []byte) []byte {
		out := bytes.Clone(b)
		out[len(out)/2] ^= 1
		return out
	}
	tamper(c.Documents[0].SHA256, changed(complaint.Bytes()))
	if v, err := db.Verify(ctx); err != nil || v.Broken == nil ||
		!strings.Contains(v.Broken.String(), `"Complaint as received"`) {
		t.Errorf("verify after a byte of the complaint changed: %v %v", v.Broken, err)
	}
	tamper(c.Documents[0].SHA256, complaint.Bytes())
	ml, _ := c.Sent(docket.RespondentNoticePaper)
	tamper(ml.Letter.SHA256, changed(sent))
	if v, err := db.Verify(ctx); err != nil || v.Broken == nil ||
		!strings.Contains(v.Broken.String(), "respondent letter as sent") {
		t.Errorf("verify after a byte of the letter as sent changed: %v %v", v.Broken, err)
	}
	if r := do(s, clerk, "letters 2026-001 respondent"); len(r.Files) != 0 {
		t.Error("a changed letter was given out")
	}
}

// TestMailingWithoutItsLetter: a mailing whose letter ethicsbot cannot make (here the
// complainant's address is not recorded) is recorded all the same, since the deadlines run
// from it, and the reply says that no copy was kept and why. Printed later, the letter is
// a re-print of the paper mailed, and says so: not a draft waiting for its mailing.
func TestMailingWithoutItsLetter(t *testing.T) {
	s, _, db := MustService(t)
	var err error
	s.Letters, err = letters.New(letters.Config{Commission: letters.Addressee{Name: "Ethics Commission",
		Address: "City Hall"}}, s.Engine.Cal.Location())
	if err != nil {
		t.Fatal(err)
	}
	mustDo(t, s, clerk, fileLine, "Filed")
	mustDo(t, s, clerk, `schedule 2026-001 sufficiency 2026-12-07T17:00 place="City Hall"`, "scheduled")
	mustDo(t, s, clerk, "mail 2026-001 complainant 9407 1118 9876 5432 1015 35",
		"No copy of the letter was kept with this mailing, as ethicsbot could not make it: the complainant's postal "+
			"address is not recorded")
	c, _ := db.Case(ctx, "2026-001")
	if ml, ok := c.Sent(docket.ComplainantConfirmPaper); !ok || ml.Letter != nil {
		t.Fatalf("the mailing: %+v %v", ml, ok)
	}
	mustDo(t, s, clerk, `party 2026-001 complainant address="12 Elm Street | Springfield, IL 62702"`, "recorded")
	r := mustDo(t, s, clerk, "letters 2026-001 complainant",
		"(mailed 2026-12-04; no copy was kept at mailing; this is a re-print, not the letter as sent)")
	if strings.Contains(replyText(r), "draft") {
		t.Errorf("the re-print is called a draft: %s", replyText(r))
	}
	if ps := pdfPages(t, r.Files[0].Data); !strings.Contains(ps[0],
		squash("RE-PRINT: mailed Friday 4 December 2026; no copy was kept at mailing")) || strings.Contains(ps[0], "DRAFT") {
		t.Errorf("the re-print's pages are not headed as one: %q", ps[0])
	}
}

// complaintFiled is a service with letters set up, and case 2026-001 filed with the
// parties' addresses, its sufficiency meeting scheduled and data as its complaint as
// received, put in the record as it is, without the check of an upload.
func complaintFiled(t *testing.T, data []byte) (*commands.Service, *store.Store) {
	t.Helper()
	s, _, db := MustService(t)
	var err error
	s.Letters, err = letters.New(letters.Config{Commission: letters.Addressee{Name: "Ethics Commission",
		Address: "City Hall"}}, s.Engine.Cal.Location())
	if err != nil {
		t.Fatal(err)
	}
	mustDo(t, s, clerk,
		fileLine+` respondent_address="34 Oak Avenue | Springfield, IL 62703" complainant_address="12 Elm Street | Springfield, IL 62702"`, "Filed")
	if _, err := db.Attach(ctx, docket.Act{By: clerk, At: s.Now()}, "2026-001", docket.DefaultDocumentLimit, []docket.Upload{
		{Name: "complaint.pdf", Data: data, Title: "Complaint as received", Kind: docket.ComplaintDocument},
	}); err != nil {
		t.Fatal(err)
	}
	mustDo(t, s, clerk, `schedule 2026-001 sufficiency 2026-12-07T17:00 place="City Hall"`, "scheduled")
	return s, db
}

// TestLettersWithADamagedDocument: a complaint attached as a damaged PDF keeps back only
// the letter that encloses it; /ethics letters gives the others and names the refusal.
func TestLettersWithADamagedDocument(t *testing.T) {
	s, _ := complaintFiled(t, []byte("%PDF-1.4\nnot a PDF at all\n%%EOF\n"))
	r := mustDo(t, s, clerk, "letters 2026-001", "2 document(s) produced")
	text := replyText(r)
	if len(r.Files) != 2 || !strings.Contains(text, "1 document(s) could not be produced") ||
		!strings.Contains(text, "`respondent` (B)") ||
		!strings.Contains(text, `"Complaint as received"`) || !strings.Contains(text, "2026-001-complainant.pdf") {
		t.Fatalf("%d files:\n%s", len(r.Files), text)
	}
}

// TestLettersWithAHostileDocument: a complaint already in the record (added before
// documents were bounded, or by hand) that is a PDF of arrays nested 1.9 million deep, which
// used to end the whole bot with a stack overflow in the PDF library at every /ethics
// letters and /ethics mail: the letters that enclose it are refused, naming it and the
// bound, and the others produced; the (B) mailing is recorded, saying that no copy was kept
// and why; and the service answers the next command.
func TestLettersWithAHostileDocument(t *testing.T) {
	s, db := complaintFiled(t, hostileFile(t, "nested-arrays.pdf.gz"))
	bound := "its arrays and dictionaries are nested more than 500 deep; the limit is 500 levels"
	text := replyText(mustDo(t, s, clerk, "letters 2026-001", "1 document(s) could not be produced"))
	if !strings.Contains(text, "`respondent` (B)") || !strings.Contains(text, `"Complaint as received"`) ||
		!strings.Contains(text, bound) {
		t.Errorf("the refusal does not name the letter, the document and the bound:\n%s", text)
	}
	mustDo(t, s, clerk, "mail 2026-001 respondent 9407 1118 9876 5432 1016 34",
		"No copy of the letter was kept with this mailing, as ethicsbot could not make it: the notice of the complaint "+
			`to the respondent cannot enclose the document "Complaint as received" of case 2026-001: `+bound)
	c, _ := db.Case(ctx, "2026-001")
	if _, ok := c.Sent(docket.RespondentNoticePaper); !ok {
		t.Fatal("the (B) mailing was not recorded")
	}
	mustDo(t, s, clerk, "mail 2026-001 complainant 9407 1118 9876 5432 1015 35", "recorded")
}

// TestCopyAsSentAfterArticleCorrected: the copy as sent is given unchanged after its
// mailing's article number is corrected, and the reply says which number it bears.
func TestCopyAsSentAfterArticleCorrected(t *testing.T) {
	s, _, _ := MustService(t)
	var err error
	s.Letters, err = letters.New(letters.Config{Commission: letters.Addressee{Name: "Ethics Commission",
		Address: "City Hall"}}, s.Engine.Cal.Location())
	if err != nil {
		t.Fatal(err)
	}
	mustDo(t, s, clerk,
		fileLine+` respondent_address="34 Oak Avenue | Springfield, IL 62703" complainant_address="12 Elm Street | Springfield, IL 62702"`, "Filed")
	mustDo(t, s, clerk, `schedule 2026-001 sufficiency 2026-12-07T17:00 place="City Hall"`, "scheduled")
	noticed(t, s)
	before := mustDo(t, s, clerk, "letters 2026-001 respondent", "as sent").Files[0].Data
	mustDo(t, s, clerk,
		`correct 2026-001 article="9407 1118 9876 5432 1610 34" was="9407 1118 9876 5432 1016 34" reason="misread the label"`,
		"corrected")
	r := mustDo(t, s, clerk, "letters 2026-001 respondent",
		"bears article 9407 1118 9876 5432 1016 34, corrected to 9407 1118 9876 5432 1610 34")
	if !bytes.Equal(r.Files[0].Data, before) {
		t.Error("the copy as sent changed with the correction")
	}
}
