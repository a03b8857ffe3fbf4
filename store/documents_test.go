package store_test

import (
	"bytes"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"path/filepath"
	"strings"
	"testing"

	"ethicsbot/docket"
)

// pdf is a small file that is a PDF by its content.
var pdf = []byte("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")

// TestDocumentsAreKeptAndVerified: a document added to a case is stored under its SHA-256,
// with an event that carries the hash; verify checks the bytes, and a changed byte is a
// broken record naming the document and the case. The table refuses update and delete.
func TestDocumentsAreKeptAndVerified(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ethicsbot.db")
	s := MustOpenPath(t, path)
	a := mustFile(t, s, "2026-12-04T10:00:00-06:00", "Jane Roe")
	png := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{1}, 100)...)
	res, err := s.Attach(ctx, docket.Act{By: "U_CLERK", At: T(t, "2026-12-04T11:00:00-06:00")}, a.Number, docket.DefaultDocumentLimit,
		[]docket.Upload{
			{Name: "complaint.pdf", Data: pdf, Title: "Complaint as received", Kind: docket.ComplaintDocument},
			{Name: "scan/photo.png", Data: png},
		})
	if err != nil {
		t.Fatal(err)
	}
	ds := res.Case.Documents
	if len(ds) != 2 || ds[0].Title != "Complaint as received" || ds[0].MediaType != docket.MediaPDF ||
		ds[0].Size != int64(len(pdf)) ||
		ds[1].Title != "photo.png" || ds[1].Kind != docket.ExhibitDocument || ds[1].MediaType != docket.MediaPNG ||
		ds[1].AddedBy != "U_CLERK" {
		t.Fatalf("documents %+v", ds)
	}
	got, err := s.DocumentData(ctx, a.Number, ds[0].SHA256)
	if err != nil || !bytes.Equal(got, pdf) {
		t.Fatalf("DocumentData: %v", err)
	}
	mustVerify(t, s)

	t.Run("RefusedTogether", func(t *testing.T) {
		fake := []byte("Dear commission, this is not a PDF.")
		_, err := s.Attach(ctx, docket.Act{By: "U_CLERK", At: T(t, "2026-12-04T11:30:00-06:00")}, a.Number, docket.DefaultDocumentLimit,
			[]docket.Upload{
				{Name: "exhibit.pdf", Data: append([]byte("%PDF-1.4 but cut"), 'x')}, {Name: "letter.pdf", Data: fake},
			})
		if err == nil || !strings.Contains(err.Error(), "exhibit.pdf starts like a PDF but has no %%EOF") {
			t.Errorf("a cut PDF: %v", err)
		}
		_, err = s.Attach(ctx, docket.Act{By: "U_CLERK", At: T(t, "2026-12-04T11:30:00-06:00")}, a.Number, 10,
			[]docket.Upload{{Name: "big.pdf", Data: pdf}})
		if err == nil || !strings.Contains(err.Error(), "the limit for a document is 10 bytes") {
			t.Errorf("over the limit: %v", err)
		}
		_, err = s.Attach(ctx, docket.Act{By: "U_CLERK", At: T(t, "2026-12-04T11:30:00-06:00")}, a.Number, docket.DefaultDocumentLimit,
			[]docket.Upload{{Name: "again.pdf", Data: pdf}})
		if err == nil || !strings.Contains(err.Error(), `already holds this document, as "Complaint as received"`) {
			t.Errorf("the same bytes twice: %v", err)
		}
		if c, _ := s.Case(ctx, a.Number); len(c.Documents) != 2 {
			t.Errorf("a refused attach recorded %d documents", len(c.Documents)-2)
		}
	})

	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{`UPDATE documents SET data = x'00'`, `DELETE FROM documents`} {
		if _, err := db.Exec(q); err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Errorf("%s: %v", q, err)
		}
	}
	// One byte changed, by someone who drops the trigger and puts it back.
	changed := bytes.Replace(pdf, []byte("Catalog"), []byte("Catalof"), 1)
	if _, err := db.Exec(`DROP TRIGGER documents_no_update; UPDATE documents SET data = ? WHERE sha256 = ?;
		CREATE TRIGGER documents_no_update BEFORE UPDATE ON documents BEGIN SELECT RAISE(ABORT, 'documents are append-only'); END;`, changed, ds[0].SHA256); err != nil {
		t.Fatal(err)
	}
	r, err := s.Verify(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := `event 2 (case 2026-001): the document "Complaint as received" (SHA-256 ` + ds[0].SHA256[:12] + `) it added no longer matches its hash`; r.Broken == nil || !strings.HasPrefix(r.Broken.String(), want) {
		t.Errorf("verify found %v, want %q", r.Broken, want)
	}
	if _, err := s.DocumentData(ctx, a.Number, ds[0].SHA256); err == nil {
		t.Error("a changed document was given out")
	}
	// Deleted, by someone who drops the other trigger.
	if _, err := db.Exec(`DROP TRIGGER documents_no_delete; DELETE FROM documents WHERE sha256 = ?;
		CREATE TRIGGER documents_no_delete BEFORE DELETE ON documents BEGIN SELECT RAISE(ABORT, 'documents are append-only'); END;`, ds[0].SHA256); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Verify(ctx); err != nil || r.Broken == nil ||
		!strings.Contains(r.Broken.String(),
			`event 2 (case 2026-001): the document "Complaint as received" (SHA-256 `+ds[0].SHA256[:12]+`) it added is missing from the record`) {
		t.Errorf("verify after a deletion found %v %v", r.Broken, err)
	}
	// And a guard dropped for good.
	if _, err := db.Exec(`DROP TRIGGER documents_no_update`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO documents (sha256, size, data) VALUES (?, ?, ?)`, ds[0].SHA256, len(pdf),
		pdf); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Verify(ctx); err != nil || r.Broken == nil ||
		!strings.Contains(r.Broken.String(),
			"the trigger documents_no_update, which keeps the documents append-only, was dropped") {
		t.Errorf("verify without the guard found %v %v", r.Broken, err)
	}
}

// TestDocumentWithdrawnByVoid: voiding the event that added a document takes it out of the
// case file; its bytes stay in the record, and verify still checks them.
func TestDocumentWithdrawnByVoid(t *testing.T) {
	s := MustOpen(t)
	a := mustFile(t, s, "2026-12-04T10:00:00-06:00", "Jane Roe")
	if _, err := s.Attach(ctx, docket.Act{By: "U_CLERK", At: T(t, "2026-12-04T11:00:00-06:00")}, a.Number, docket.DefaultDocumentLimit, []docket.Upload{{Name: "c.pdf", Data: pdf}}); err != nil {
		t.Fatal(err)
	}
	res, err := s.Apply(ctx, docket.Act{By: "U_COMM1", At: T(t, "2026-12-04T12:00:00-06:00")}, a.Number,
		docket.Void{Seq: 2, Of: "document", Reason: "attached to the wrong case"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Case.Documents) != 0 {
		t.Fatalf("a voided document is still listed: %+v", res.Case.Documents)
	}
	if _, err := s.DocumentData(ctx, a.Number, "x"); err == nil {
		t.Error("a document the case does not list was given")
	}
	mustVerify(t, s)
}

// TestLetterKeptWithItsMailing: a mailing whose letter as sent carries its bytes has them
// kept in the transaction that records it, readable by the hash the event carries, and
// the case's mailing holds the hash, not the bytes. Bytes that do not match the mailing's
// record of them are refused, and nothing is recorded.
func TestLetterKeptWithItsMailing(t *testing.T) {
	s := MustOpen(t)
	c := mustFile(t, s, "2026-12-04T10:00:00-06:00", "Jane Roe")
	mustApply(t, s, c.Number, "2026-12-04T10:30:00-06:00", docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting,
		Start: T(t, "2026-12-09T17:00:00-06:00"), Place: "City Hall"})
	sum := sha256.Sum256(pdf)
	letter := func(data []byte) *docket.SentLetter {
		return &docket.SentLetter{SHA256: hex.EncodeToString(sum[:]), Size: int64(len(pdf)),
			Dated: docket.NewDate(2026, 12, 4), PDF: data}
	}
	mail := docket.RecordMailing{Recipient: docket.Respondent, Article: "94071118987654321712"}
	at := docket.Act{By: "U_CLERK", At: T(t, "2026-12-04T11:00:00-06:00")}

	t.Run("Mismatched", func(t *testing.T) {
		bad := mail
		bad.Letter = letter(append([]byte("x"), pdf[1:]...))
		if _, err := s.Apply(ctx, at, c.Number, bad); err == nil ||
			!strings.Contains(err.Error(), "the letter given does not match the mailing's record of it") {
			t.Fatalf("a letter whose bytes are not those recorded: %v", err)
		}
		if got, _ := s.Case(ctx, c.Number); len(got.Mailings) != 0 {
			t.Errorf("a refused letter recorded its mailing: %+v", got.Mailings)
		}
	})

	mail.Letter = letter(pdf)
	res, err := s.Apply(ctx, at, c.Number, mail)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Case.Mailings) != 1 || res.Case.Mailings[0].Letter == nil ||
		res.Case.Mailings[0].Letter.SHA256 != hex.EncodeToString(sum[:]) || res.Case.Mailings[0].Letter.PDF != nil {
		t.Fatalf("the mailing as the case keeps it: %+v", res.Case.Mailings)
	}
	got, err := s.LetterData(ctx, c.Number, hex.EncodeToString(sum[:]))
	if err != nil || !bytes.Equal(got, pdf) {
		t.Fatalf("the letter as sent: %q, %v", got, err)
	}
	mustVerify(t, s)
}
