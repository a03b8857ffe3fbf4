package commands_test

import (
	"bytes"
	"strings"
	"testing"

	"ethicsbot/commands"
	"ethicsbot/docket"
	"ethicsbot/store"
)

// TestDocumentsList: /ethics documents lists the case file, with title, kind, type, size,
// the SHA-256's start, who added each and when, and the event a void withdraws; a void
// takes a document off the list. A commissioner recused from the case sees none of it:
// the refusal is the recusal's, before anything is read.
func TestDocumentsList(t *testing.T) {
	s, _, db := MustService(t)
	reconfigure(s, func(st *commands.Settings) { st.Roles.Commissioners = []string{comm, "U_COMM2"} })
	mustDo(t, s, clerk, fileLine+" respondent_user=U_COMM2", "Filed as case *2026-001*")
	mustDo(t, s, clerk, "documents 2026-001", "Case 2026-001 has no documents in its case file")
	pdf := []byte("%PDF-1.4\nsigned complaint\n%%EOF\n")
	res, err := db.Attach(ctx, "2026-001", clerk, "", s.Now(), docket.DefaultDocumentLimit, nil, []store.NewDocument{
		{Name: "complaint.pdf", Data: pdf, Title: "Signed complaint", Kind: docket.ComplaintDocument},
		{Name: "exhibit-a.jpg", Data: []byte{0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3}, Title: "Exhibit A: the e-mail"},
	})
	if err != nil {
		t.Fatal(err)
	}
	sha := res.Case.Documents[0].SHA256
	r := mustDo(t, s, attorney, "documents 2026-001", "Case file of case 2026-001, 2 documents (confidential):")
	for _, want := range []string{
		"• *Signed complaint*: complaint, PDF, 32 bytes, SHA-256 " + sha[:12] + "…, added by <@U_CLERK> on Fri 2026-12-04 (event 2)",
		"• *Exhibit A: the e-mail*: exhibit, JPEG image, 7 bytes",
		"(event 3)",
	} {
		if !strings.Contains(replyText(r), want) {
			t.Errorf("list lacks %q:\n%s", want, replyText(r))
		}
	}
	const refusal = "Not done: you are recused from case 2026-001 (are the respondent), so you may neither see its details nor act or vote on it"
	if got := replyText(do(s, "U_COMM2", "documents 2026-001")); got != refusal {
		t.Errorf("recused member got:\n%s", got)
	}
	var public bytes.Buffer
	if err := db.Export(ctx, &public, "json", true); err != nil || strings.Contains(public.String(), "Signed complaint") || strings.Contains(public.String(), sha) {
		t.Errorf("export --public holds the case file: %v\n%s", err, public.String())
	}
	mustDo(t, s, comm, `void 2026-001 3 reason="attached to the wrong case"`, "event 3 (document) voided")
	if got := replyText(mustDo(t, s, clerk, "documents 2026-001", "1 documents")); strings.Contains(got, "Exhibit A") {
		t.Errorf("a voided document is listed:\n%s", got)
	}
	hist := replyText(mustDo(t, s, clerk, "history 2026-001", ""))
	if !strings.Contains(hist, `document added to the case file: "Signed complaint" (complaint, 32 bytes)`) {
		t.Errorf("history:\n%s", hist)
	}
}
