package commands_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/ledongthuc/pdf"

	"ethicsbot/commands"
	"ethicsbot/letters"
	"ethicsbot/store"
)

// TestOfficerPerCase: /ethics officer names, per case, the officer with authority to
// discipline among those the configuration lists; it is an event, on the
// card, corrected like any fact, and the (E)(2) letter to the officer is addressed to them.
// The mayor is the default; an officer not listed is refused, naming the field.
func TestOfficerPerCase(t *testing.T) {
	s, db := decidedWithOfficers(t)

	officerLetter := func() string {
		t.Helper()
		r := do(s, clerk, "letters 2026-001 recommendation_officer")
		if len(r.Files) != 1 {
			t.Fatalf("no letter to the officer: %s", replyText(r))
		}
		return pdfText(t, r.Files[0].Data)
	}
	if got := officerLetter(); !strings.Contains(got, "PatQuimby") {
		t.Errorf("by default the letter goes to the mayor:\n%s", got)
	}
	mustDo(t, s, clerk, "officer 2026-001 police_chief",
		`officer: "police_chief" is not an officer ethicsbot.yml lists; the officers are mayor, council, public_works`)
	r := mustDo(t, s, clerk, "officer 2026-001 public_works",
		"the officer with authority to discipline named: public_works")
	if p := posted(r, "C_DOCKET"); len(p) != 1 {
		t.Errorf("docket lines %q", p)
	}
	if got := officerLetter(); !strings.Contains(got, "DaleGribble") || strings.Contains(got, "PatQuimby") {
		t.Errorf("the letter does not go to the officer named:\n%s", got)
	}
	mustDo(t, s, clerk, "case 2026-001", "*Officer with authority to discipline:* public_works")
	mustDo(t, s, clerk, `correct 2026-001 officer=council reason="the respondent is an alderman"`,
		`officer "public_works" → "council" (the respondent is an alderman)`)
	c, _ := db.Case(ctx, "2026-001")
	if c.Officer != "council" {
		t.Errorf("officer after the correction: %q", c.Officer)
	}
	if got := officerLetter(); !strings.Contains(got, "CityCouncil") {
		t.Errorf("the letter does not go to the corrected officer:\n%s", got)
	}
	mustDo(t, s, clerk, `correct 2026-001 officer=sheriff reason="x"`,
		`officer: "sheriff" is not an officer ethicsbot.yml lists`)
}

// pdfText is a PDF's text without its spaces and line breaks, which the extractor does not
// keep reliably: compare it with words run together, "PatQuimby".
func pdfText(t *testing.T, data []byte) string {
	t.Helper()
	r, err := pdf.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("the PDF does not read back: %v", err)
	}
	var b strings.Builder
	for i := 1; i <= r.NumPage(); i++ {
		rows, err := r.Page(i).GetTextByRow()
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range rows {
			for _, w := range row.Content {
				b.WriteString(w.S)
			}
		}
	}
	return strings.Join(strings.Fields(b.String()), "")
}

// TestOfficerAfterItsPapers: naming the officer the case names already is refused, as it
// records nothing; once a paper went to the officer, naming another takes a reason
// (override=), and the reply says the papers not yet sent go to them; the mailing keeps
// whom it went to.
func TestOfficerAfterItsPapers(t *testing.T) {
	s, db := decidedWithOfficers(t)

	events := func() int {
		t.Helper()
		es, err := db.Events(ctx, "2026-001")
		if err != nil {
			t.Fatal(err)
		}
		return len(es)
	}
	n := events()
	mustDo(t, s, clerk, "officer 2026-001 mayor", "case 2026-001 names the officer mayor already: nothing to record")
	mustDo(t, s, clerk, "officer 2026-001 public_works", "recommendations not yet sent go to them")
	mustDo(t, s, clerk, "officer 2026-001 public_works", "names the officer public_works already")
	mustDo(t, s, clerk, `officer 2026-001 council override="x"`, "nothing needs overriding")
	if got := events(); got != n+1 {
		t.Errorf("%d events recorded, want the one that changed the officer", got-n)
	}
	mustDo(t, s, clerk, "delivered 2026-001 recommendation_officer", "recorded")
	c, _ := db.Case(ctx, "2026-001")
	if ml, ok := c.Sent("recommendation_officer"); !ok || ml.Officer != "public_works" {
		t.Fatalf("the mailing does not keep whom it went to: %+v", ml)
	}
	if r := mustDo(t, s, clerk, "officer 2026-001 council", `went to public_works on`); !strings.Contains(replyText(r),
		`give the reason: override=`) {
		t.Errorf("the refusal does not say how to name another: %s", replyText(r))
	}
	r := mustDo(t, s, clerk, `officer 2026-001 council override="the respondent is an alderman"`,
		"not yet sent go to them")
	if !strings.Contains(replyText(r), "the respondent is an alderman") {
		t.Errorf("the reply does not give the override's reason: %s", replyText(r))
	}
	if strings.Contains(replyText(r), "recommendations go to them") {
		t.Errorf("the reply claims the papers sent go to the new officer: %s", replyText(r))
	}
	if r := do(s, clerk, "letters 2026-001 recommendation_officer"); len(r.Files) != 1 ||
		!strings.Contains(pdfText(t, r.Files[0].Data), "DaleGribble") {
		t.Errorf("the paper as sent is not the one that went to public_works: %s", replyText(r))
	}
}

// decidedWithOfficers is a service whose letters list the mayor, the council and public
// works, and its case 2026-001 decided after a hearing, with a recommendation (E)(2).
func decidedWithOfficers(t *testing.T) (*commands.Service, *store.Store) {
	t.Helper()
	s, clk, db := MustService(t)
	cfg := letters.Config{
		Commission: letters.Addressee{Name: "Ethics Commission", Address: "City Hall\n100 Main Street"},
		Officer:    letters.Addressee{Name: "Pat Quimby", Title: "Mayor", Address: "Office of the Mayor\n100 Main Street"},
		Officers: map[string]letters.Addressee{
			"council":      {Name: "City Council", Address: "Office of the City Clerk\n100 Main Street"},
			"public_works": {Name: "Dale Gribble", Title: "Director of Public Works", Address: "200 Elm Street"},
		},
	}
	m, err := letters.New(cfg, s.Engine.Cal.Location())
	if err != nil {
		t.Fatal(err)
	}
	s.Letters = m
	reconfigure(s, func(st *commands.Settings) { st.Officers = cfg.OfficerKeys() })
	at := func(v string) { clk.now, _ = time.Parse(time.RFC3339, v) }
	readyToRule(t, s)
	mustDo(t, s, clerk, `party 2026-001 respondent address="34 Oak Avenue | Springfield, IL 62703"`, "recorded")
	at("2026-12-08T00:00:00Z")
	mustDo(t, s, comm, `rule 2026-001 probable_cause hearing=2026-12-14T10:00 place="Council Chambers"`, "ruling recorded")
	mustDo(t, s, clerk, `posted 2026-001 hearing`, "posted")
	at("2026-12-14T21:00:00Z")
	mustDo(t, s, clerk, `concluded 2026-001`, "hearing concluded")
	mustDo(t, s, comm, `decide 2026-001 recommend recommendation="Written reprimand" findings="Violated 103.10."`,
		"decision recorded")
	return s, db
}
