package letters_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"ethicsbot/docket"
	"ethicsbot/letters"
)

// referred is a case referred to the attorney under (C)(3) whose transmittal is mailed.
func referred() *docket.Case {
	c := ruled(docket.AttorneyReferral)
	c.Mailings = append(c.Mailings,
		docket.Mailing{Paper: docket.ReferralTransmittal, Recipient: docket.Attorney, Article: "9407111898765432101771",
			Mailed: docket.NewDate(2026, 12, 8), Satisfies: "(C)(3)"})
	return c
}

// TestTransmittalDoesNotListItself: the (C)(3) transmittal printed after its mailing lists
// the papers sent on the case, but not itself.
func TestTransmittalDoesNotListItself(t *testing.T) {
	c := referred()
	d, err := mustMaker(t, config).Make(c, letters.Kind(docket.ReferralTransmittal), today)
	if err != nil {
		t.Fatal(err)
	}
	text := Text(t, d.Data)
	info, _ := docket.ReferralTransmittal.Info()
	if Contains(text, "The "+info.Name+" (C)(3), mailed") {
		t.Errorf("the transmittal lists itself among the documents it transmits:\n%s", text)
	}
	if !Contains(text, "certified mail article 9407 1118 9876 5432 1016 34") {
		t.Errorf("the transmittal lacks the respondent's notice mailed before it:\n%s", text)
	}
}

// TestEmptyCaseFileHasNoIndex: with no document in the case file, the packet holds no
// index, so the enclosures do not name one.
func TestEmptyCaseFileHasNoIndex(t *testing.T) {
	d, err := mustMaker(t, config).Make(ruled(docket.AttorneyReferral), letters.Kind(docket.ReferralTransmittal), today)
	if err != nil {
		t.Fatal(err)
	}
	if text := Text(t, d.Data); Contains(text, "Index of the case file") ||
		!Contains(text, "The complaint as entered in the record") {
		t.Errorf("the enclosures of an empty case file:\n%s", text)
	}
}

// stored keeps data as the letter as sent of c's mailing of paper p.
func stored(f files, c *docket.Case, p docket.Paper, data []byte) {
	h := sha256.Sum256(data)
	sha := hex.EncodeToString(h[:])
	f[sha] = data
	for i := range c.Mailings {
		if c.Mailings[i].Paper == p {
			c.Mailings[i].Letter = &docket.SentLetter{SHA256: sha, Size: int64(len(data)), Dated: c.Mailings[i].Mailed}
		}
	}
}

// TestOneRefusalKeepsBackNoOther: a letter that cannot be made (an enclosure that is not a
// readable PDF; no commission address configured) is named with why, and every other
// document, the copies as sent first of all, is produced.
func TestOneRefusalKeepsBackNoOther(t *testing.T) {
	sent := []byte("%PDF-1.4\nthe respondent's notice as it went out\n%%EOF\n")
	t.Run("DamagedEnclosure", func(t *testing.T) {
		f := files{}
		c := ruled(docket.AttorneyReferral)
		stored(f, c, docket.RespondentNoticePaper, sent)
		f.add(c, "Complaint as received", docket.ComplaintDocument, docket.MediaPDF,
			[]byte("%PDF-1.4\ngarbage garbage\n%%EOF\n"))
		docs, err := mustMaker(t, config).MakeDue(context.Background(), c, "", today, f)
		var refused letters.Refusals
		if !errors.As(err, &refused) || len(refused) != 1 || refused[0].Kind != letters.Kind(docket.ReferralTransmittal) ||
			!strings.Contains(refused[0].Err.Error(), `"Complaint as received"`) {
			t.Fatalf("err = %v, want the transmittal alone refused, naming the document", err)
		}
		var de *docket.Error
		if !errors.As(err, &de) {
			t.Errorf("the refusals do not unwrap to the docket error: %v", err)
		}
		if len(docs) < 2 || docs[0].Kind != letters.Kind(docket.RespondentNoticePaper) ||
			string(docs[0].Data) != string(sent) {
			t.Fatalf("the other documents were not produced, the copy as sent first: %d", len(docs))
		}
	})
	t.Run("NoCommissionAddress", func(t *testing.T) {
		f := files{}
		c := received()
		stored(f, c, docket.RespondentNoticePaper, sent)
		docs, err := mustMaker(t, letters.Config{}).MakeDue(context.Background(), c, "", today, f)
		var refused letters.Refusals
		if !errors.As(err, &refused) || len(refused) != 2 ||
			!strings.Contains(err.Error(), "letters.commission.address: is not set") {
			t.Fatalf("err = %v, want the complainant's letter and the notice refused", err)
		}
		if len(docs) != 1 || docs[0].Sent == nil || string(docs[0].Data) != string(sent) {
			t.Fatalf("the copy as sent, which needs no configuration, was not given: %+v", docs)
		}
	})
}

// TestReprintOfAPaperMailedWithoutItsCopy: a paper mailed without a copy kept is printed
// as a re-print of what was mailed, not as a draft waiting for its mailing.
func TestReprintOfAPaperMailedWithoutItsCopy(t *testing.T) {
	docs, err := mustMaker(t, config).MakeDue(context.Background(), received(), letters.Kind(docket.RespondentNoticePaper),
		today, files{})
	if err != nil {
		t.Fatal(err)
	}
	d := docs[0]
	text := Text(t, d.Data)
	if !d.Draft || d.Mailed != docket.NewDate(2026, 12, 4) ||
		!Contains(text,
			"RE-PRINT: mailed Friday 4 December 2026; no copy was kept at mailing; this is a re-print, not the "+
				"letter as sent") || Contains(text, "DRAFT") {
		t.Errorf("mailed %v, draft %v:\n%s", d.Mailed, d.Draft, text)
	}
	docs, err = mustMaker(t, config).MakeDue(context.Background(), received(),
		letters.Kind(docket.ComplainantConfirmPaper), today, files{})
	if err != nil || !docs[0].Mailed.IsZero() || !Contains(Text(t, docs[0].Data), "DRAFT: not the letter as mailed") {
		t.Errorf("a paper not yet mailed is not a draft: %v", err)
	}
}

// TestCopyAsSentBearsItsArticle: after the article number of its mailing is corrected,
// the copy as sent is given unchanged, and says the number it bears and the corrected one.
func TestCopyAsSentBearsItsArticle(t *testing.T) {
	f := files{}
	c := received()
	stored(f, c, docket.RespondentNoticePaper, []byte("%PDF-1.4\nsent\n%%EOF\n"))
	c.Amendments = []docket.Amendment{{Seq: 3, Event: 2, Kind: "mail", Field: "article",
		From: "9407 1118 9876 5432 1099 99", To: "9407 1118 9876 5432 1016 34", Reason: "typo"}}
	docs, err := mustMaker(t, config).MakeDue(context.Background(), c,
		letters.Kind(docket.RespondentNoticePaper), today, f)
	if err != nil {
		t.Fatal(err)
	}
	if d := docs[0]; d.Sent == nil || d.Bears != "9407 1118 9876 5432 1099 99" ||
		d.Article != "9407 1118 9876 5432 1016 34" {
		t.Errorf("bears %q, article %q", d.Bears, d.Article)
	}
	c.Amendments = nil
	if docs, _ := mustMaker(t, config).MakeDue(context.Background(), c, letters.Kind(docket.RespondentNoticePaper), today,
		f); docs[0].Bears != "" {
		t.Errorf("an uncorrected copy bears %q", docs[0].Bears)
	}
}
