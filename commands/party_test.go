package commands_test

import (
	"bytes"
	"strings"
	"testing"

	"ethicsbot/docket"
	"ethicsbot/letters"
)

// TestPartyAddresses: a party's postal address is given at filing or with /ethics party,
// kept as lines, corrected like any fact, and never said in public: not in the notices
// channel, not in the public records the board shows, not in export --public. A letter to
// a party whose address is not recorded is refused, naming the party and the command.
func TestPartyAddresses(t *testing.T) {
	s, clk, db := MustService(t)
	m, err := letters.New(letters.Config{Commission: letters.Addressee{Name: "Ethics Commission",
		Address: "City Hall\n100 Main Street"}}, s.Engine.Cal.Location())
	if err != nil {
		t.Fatal(err)
	}
	s.Letters = m
	const secret = "34 Oak Avenue"
	mustDo(t, s, clerk,
		fileLine+` respondent_address="34 Oak Avenue | Springfield, IL 62703" respondent_email=jane@example.org`,
		"Filed as case *2026-001*")
	c, _ := db.Case(ctx, "2026-001")
	if c.Respondent.Address != "34 Oak Avenue\nSpringfield, IL 62703" || c.Respondent.Email != "jane@example.org" {
		t.Fatalf("respondent as filed: %+v", c.Respondent)
	}
	mustDo(t, s, clerk, `schedule 2026-001 sufficiency 2026-12-10T17:00 place="City Hall"`, "scheduled")
	letterOK := func(text string) {
		t.Helper()
		r := do(s, clerk, text)
		if got := replyText(r); strings.Contains(got, "Not done") || len(r.Files) != 1 {
			t.Fatalf("/ethics %s: %d files, %s", text, len(r.Files), got)
		}
	}
	letterOK("letters 2026-001 respondent") // the respondent's address is recorded
	mustDo(t, s, clerk, "letters 2026-001 complainant",
		"the complainant's postal address is not recorded: the confirmation of receipt to the complainant needs it; record "+
			"it with /ethics party 2026-001 complainant address=")

	r := mustDo(t, s, clerk,
		`party 2026-001 complainant address="12 Elm Street | Springfield, IL 62702" representative="Saul Goodman" representative_address="9800 Montgomery Blvd | Albuquerque, NM 87111"`,
		"the complainant's postal address and representative recorded")
	if p := posted(r, "C_DOCKET"); len(p) != 1 || strings.Contains(p[0], "Elm Street") {
		t.Errorf("the docket line says the address, or is missing: %q", p)
	}
	letterOK("letters 2026-001 complainant")
	mustDo(t, s, clerk, `party 2026-001 complainant email="not an address"`, "is not an e-mail address")
	// A representative's name alone keeps the address recorded for them.
	mustDo(t, s, clerk, `party 2026-001 complainant representative="Saul M. Goodman"`,
		"the complainant's representative recorded")
	mustDo(t, s, clerk, `party 2026-001 respondent address="a|b|c|d|e|f|g"`, "a postal address has at most 6")
	mustDo(t, s, clerk, `party 2026-001 respondent`, "give the party's address=")

	// Corrected like any fact: the latest event that recorded it, for the party named.
	mustDo(t, s, clerk, `correct 2026-001 address="12 Elm St | Springfield, IL 62702" reason="typo"`,
		"party=respondent or party=complainant")
	mustDo(t, s, clerk,
		`correct 2026-001 party=complainant address="12 Elm Street, Apt 2 | Springfield, IL 62702" reason="apartment left out"`,
		`event 3 corrected: address "12 Elm Street | Springfield, IL 62702" → "12 Elm Street, Apt 2 | Springfield, IL 62702" (apartment left out)`)
	mustDo(t, s, clerk, `correct 2026-001 party=respondent email=jroe@example.org reason="typo"`,
		"event 1 corrected: email")
	c, _ = db.Case(ctx, "2026-001")
	if c.Complainant.Address != "12 Elm Street, Apt 2\nSpringfield, IL 62702" ||
		c.Complainant.Representative != (docket.Representative{Name: "Saul M. Goodman",
			Address: "9800 Montgomery Blvd\nAlbuquerque, NM 87111"}) || c.Respondent.Email != "jroe@example.org" {
		t.Errorf("after corrections: %+v %+v", c.Complainant, c.Respondent)
	}
	if r, err := db.Verify(ctx); err != nil || r.Broken != nil {
		t.Fatalf("verify: %v %v", r.Broken, err)
	}
	mustDo(t, s, comm, "case 2026-001",
		"*Complainant:* John Doe; 12 Elm Street, Apt 2, Springfield, IL 62702; represented by Saul M. Goodman, 9800 "+
			"Montgomery Blvd, Albuquerque, NM 87111")

	// Confidential: a dismissal makes the case public; its addresses stay out.
	mustDo(t, s, clerk, "mail 2026-001 respondent 9407 1118 9876 5432 1016 34", "certified mailing recorded")
	mustDo(t, s, clerk, "mail 2026-001 complainant 9407 1118 9876 5432 1017 33", "certified mailing recorded")
	clk.now = clk.now.AddDate(0, 0, 7)
	mustDo(t, s, comm, `rule 2026-001 insufficient override="notice posted late"`, "ruling recorded")
	var buf bytes.Buffer
	if err := db.Export(ctx, &buf, "json", true); err != nil {
		t.Fatal(err)
	}
	recs, err := db.Public(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		buf.WriteString(rec.Record)
	}
	if !strings.Contains(buf.String(), "Jane Roe") {
		t.Fatalf("the case is not public, so the test shows nothing:\n%s", buf.String())
	}
	for _, leak := range []string{secret, "Elm Street", "Saul Goodman", "example.org"} {
		if strings.Contains(buf.String(), leak) {
			t.Errorf("public export or board holds %q:\n%s", leak, buf.String())
		}
	}
}
