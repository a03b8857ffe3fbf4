package commands_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"ethicsbot/commands"
)

// readyToRule files case 2026-001 and records what its ruling needs: the sufficiency
// meeting on Mon 7 Dec 2026 17:00 at City Hall, its public notice posted (C)(1) at once,
// and both (B) notices mailed. The clock is left at Fri 4 Dec 10:30.
func readyToRule(t *testing.T, s *commands.Service) {
	t.Helper()
	mustDo(t, s, clerk, fileLine, "Filed")
	mustDo(t, s, clerk, `schedule 2026-001 sufficiency 2026-12-07T17:00 place="City Hall"`, "scheduled")
	mustDo(t, s, clerk, `posted 2026-001 sufficiency`, "posted")
	mustDo(t, s, clerk, `mail 2026-001 respondent 94071118987654321712`, "recorded")
	mustDo(t, s, clerk, `mail 2026-001 complainant 94071118987654321613`, "recorded")
}

// TestRulingWithoutNoticeThenOverride: a ruling at a meeting whose notice was never
// recorded as posted, and before the (B) notices, is refused with what is missing and the
// earliest lawful start; with override="..." it is recorded, and the override shows on the
// reply, the docket line, the card and the JSON export, never in the public channel.
func TestRulingWithoutNoticeThenOverride(t *testing.T) {
	s, c, db := MustService(t)
	mustDo(t, s, clerk, fileLine, "Filed")
	mustDo(t, s, clerk, `schedule 2026-001 sufficiency 2026-12-07T17:00 place="City Hall"`, "scheduled")
	c.now = time.Date(2026, 12, 8, 0, 0, 0, 0, time.UTC) // Mon 7 Dec 18:00 CST, after the meeting

	r := mustDo(t, s, comm, `rule 2026-001 insufficient`,
		"Not done: cannot record the ruling: the sufficiency meeting at Mon 7 Dec 2026 17:00 CST needs 48 hours' public "+
			"notice, and no posting of its notice is recorded.")
	for _, want := range []string{
		"the earliest lawful start is Wed 9 Dec 2026 18:00 CST",
		"no certified notice to the respondent and the complainant",
		`To record it anyway, give the reason: override="&lt;reason&gt;" (rule (C)(1), (B))`,
	} {
		if !strings.Contains(replyText(r), want) {
			t.Errorf("refusal lacks %q:\n%s", want, replyText(r))
		}
	}
	if len(r.Posts) != 0 {
		t.Errorf("a refusal said %v", r.Posts)
	}
	if cs, _ := db.Case(ctx, "2026-001"); cs.Ruling != "" {
		t.Fatalf("the refused ruling was recorded: %s", cs.Ruling)
	}

	const reason = `Posted on the board Fri 4 Dec; the log <was> lost & found`
	const shown = `Posted on the board Fri 4 Dec; the log &lt;was&gt; lost &amp; found`
	r = mustDo(t, s, comm, `rule 2026-001 insufficient override="`+reason+`"`,
		"Case 2026-001: ruling recorded: insufficient; recorded without 48 hours' posted notice of the sufficiency meeting "+
			"(C)(1) and without a certified notice to the respondent and the complainant of the sufficiency meeting (B) "+
			"(override: "+shown+").")
	docketLines := posted(r, "C_DOCKET")
	if len(docketLines) != 1 ||
		!strings.HasPrefix(docketLines[0],
			"2026-001: ruling recorded: insufficient; recorded without 48 hours' posted notice of the sufficiency meeting "+
				"(C)(1) and without a certified notice to the respondent and the complainant of the sufficiency meeting (B) "+
				"(override: "+shown+"), recorded by <@U_COMM1>.") {
		t.Errorf("docket line %q", docketLines)
	}
	for _, n := range posted(r, "C_NOTICES") {
		if strings.Contains(n, "override") || strings.Contains(n, "log") {
			t.Errorf("the public dismissal notice tells of the override: %q", n)
		}
	}

	card := replyText(do(s, attorney, "case 2026-001"))
	for _, want := range []string{
		"*Overrides:*\n• ruling recorded without 48 hours' posted notice of the sufficiency meeting (C)(1) on Mon " +
			"2026-12-07: " + shown,
		"• ruling recorded without a certified notice to the respondent and the complainant of the sufficiency meeting " +
			"(B) on Mon 2026-12-07: " + shown,
	} {
		if !strings.Contains(card, want) {
			t.Errorf("card lacks %q:\n%s", want, card)
		}
	}

	var out bytes.Buffer
	if err := db.Export(ctx, &out, "json", false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"overrides":[{"rule":"(C)(1)","step":"ruling","without":"48 hours' posted notice of the sufficiency meeting","reason":"Posted on the board Fri 4 Dec; the log \u003cwas\u003e lost \u0026 found","on":"2026-12-07"}`,
		`"kind":"rule","payload":{"ruling":"insufficient","override":"Posted on the board Fri 4 Dec; the log \u003cwas\u003e lost \u0026 found"}`,
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("JSON export lacks %s:\n%s", want, out.String())
		}
	}
}

// TestHearingStepsNeedPostedNotice: the hearing's recess and conclusion (D), and the
// public hearing held (F), are refused without a posted notice and recorded by override;
// a notice posted less than 48 hours before is refused too.
func TestHearingStepsNeedPostedNotice(t *testing.T) {
	s, c, _ := MustService(t)
	at := func(v string) { c.now, _ = time.Parse(time.RFC3339, v) }
	readyToRule(t, s)
	at("2026-12-08T00:00:00Z")
	mustDo(t, s, comm,
		`rule 2026-001 probable_cause hearing=2026-12-14T10:00 place="Council Chambers" closed="5 ILCS 120/2(c)(4)"`,
		"ruling recorded")
	// Posted Sat 12 Dec 11:00: 47 hours before the hearing.
	at("2026-12-12T17:00:00Z")
	mustDo(t, s, clerk, `posted 2026-001 hearing`, "less than 48 hours before the hearing")
	at("2026-12-14T17:00:00Z")
	mustDo(t, s, clerk, `recess 2026-001`,
		"Not done: cannot record the recess: the hearing at Mon 14 Dec 2026 10:00 CST needs 48 hours' public notice, but "+
			"its notice was posted at Sat 12 Dec 2026 11:00 CST, only 47 hours before it; reschedule the hearing: with its "+
			"notice posted now, the earliest lawful start is Wed 16 Dec 2026 11:00 CST")
	mustDo(t, s, clerk, `recess 2026-001 override="quorum present; the notice went up an hour late"`,
		"hearing recessed; recorded without 48 hours' posted notice of the hearing (D) (override: quorum present; the "+
			"notice went up an hour late)")
	mustDo(t, s, clerk, `schedule 2026-001 recessed_hearing 2026-12-21T10:00 place="Council Chambers"`,
		"recessed hearing scheduled")
	at("2026-12-21T20:00:00Z")
	mustDo(t, s, clerk, `concluded 2026-001`,
		"Not done: cannot record the hearing's conclusion: the recessed hearing at Mon 21 Dec 2026 10:00 CST needs 48 "+
			"hours' public notice, and no posting of its notice is recorded")
	mustDo(t, s, clerk, `concluded 2026-001 override="posted on time; the clerk was out"`,
		"hearing concluded; recorded without 48 hours' posted notice of the recessed hearing (D)")
	mustDo(t, s, comm, `decide 2026-001 recommend recommendation="Written reprimand"`, "decision recorded")
	at("2026-12-22T16:00:00Z")
	mustDo(t, s, clerk, `demand 2026-001`, "demand for a public hearing recorded")
	mustDo(t, s, clerk, `schedule 2026-001 public_hearing 2026-12-28T18:00 place="Council Chambers"`,
		"public hearing scheduled")
	at("2026-12-29T02:00:00Z")
	mustDo(t, s, clerk, `held 2026-001`,
		"Not done: cannot record the public hearing: the public hearing at Mon 28 Dec 2026 18:00 CST needs 48 hours' "+
			"public notice, and no posting of its notice is recorded. If it was posted in time, record that first (posted "+
			"2026-001 public_hearing at=&lt;time&gt;)")
	mustDo(t, s, clerk, `held 2026-001 override="posted; the record was lost"`,
		"public hearing held; recorded without 48 hours' posted notice of the public hearing (F) (override: posted; the "+
			"record was lost)")
	card := replyText(do(s, clerk, "case 2026-001"))
	if n := strings.Count(card, "\n• "); !strings.Contains(card, "*Overrides:*") || n < 3 {
		t.Errorf("card shows %d override lines:\n%s", n, card)
	}
}

// TestPostedRefusesBackdating: a posting dated before the complaint
// existed, is refused with the rule, and the deadline stays open.
func TestPostedRefusesBackdating(t *testing.T) {
	s, _, db := MustService(t)
	mustDo(t, s, clerk, fileLine, "Filed")
	mustDo(t, s, clerk, `schedule 2026-001 sufficiency 2026-12-10T17:00 place="City Hall"`, "scheduled")
	mustDo(t, s, clerk, `posted 2026-001 sufficiency at=2026-06-01T09:00`,
		"Not done: posted: Mon 1 Jun 2026 09:00 CDT is before the sufficiency meeting was scheduled as it now stands, at "+
			"Fri 4 Dec 2026 10:30 CST: a notice of this sufficiency meeting cannot have been posted then (rule (C)(1))")
	mustDo(t, s, clerk, `posted 2026-001 sufficiency at=2026-12-04T11:00`,
		"Not done: posted: Fri 4 Dec 2026 11:00 CST is in the future: it is now Fri 4 Dec 2026 10:30 CST")
	if cs, _ := db.Case(ctx, "2026-001"); !cs.Sufficiency.NoticePosted.IsZero() {
		t.Errorf("a refused posting was recorded: %v", cs.Sufficiency.NoticePosted)
	}
	if card := replyText(do(s, clerk, "case 2026-001")); !strings.Contains(card,
		":hourglass: open public notice of the sufficiency meeting (C)(1)") {
		t.Errorf("card:\n%s", card)
	}
}

// TestHelpExplainsOverride: each step that takes an override says when it is refused and
// what override="..." does, and its form has the field.
func TestHelpExplainsOverride(t *testing.T) {
	s, _, _ := MustService(t)
	for _, sub := range []string{"rule", "recess", "concluded", "held"} {
		help := replyText(do(s, comm, "help "+sub))
		for _, want := range []string{"[override=...]", "• `override`:", "posted at least 48 hours before it started",
			"`override=\"&lt;reason&gt;\"`"} {
			if !strings.Contains(help, want) {
				t.Errorf("help %s lacks %q:\n%s", sub, want, help)
			}
		}
		has := false
		for _, b := range form(t, s, comm, sub).Blocks.BlockSet {
			if b.ID() == "override" {
				has = true
			}
		}
		if !has {
			t.Errorf("the %s form has no override field", sub)
		}
	}
	if help := replyText(do(s, comm, "help decide")); strings.Contains(help, "override") {
		t.Errorf("help decide mentions override:\n%s", help)
	}
}

// TestCardShowsBothPostings: the case card gives each notice's physical posting, as
// /ethics posted recorded it, beside when it first appeared on the public notice board;
// a moved meeting's old notice stays listed, marked.
func TestCardShowsBothPostings(t *testing.T) {
	s, c, _ := MustService(t)
	readyToRule(t, s)
	c.now = c.now.Add(time.Hour)
	mustDo(t, s, clerk, `schedule 2026-001 sufficiency 2026-12-08T17:00 place="Library"`, "scheduled")
	mustDo(t, s, clerk, `posted 2026-001 sufficiency`, "posted")
	card := replyText(mustDo(t, s, clerk, `case 2026-001`, "Case 2026-001"))
	for _, want := range []string{
		"notice: sufficiency meeting on Tue 8 Dec 2026 at 17:00 CST at Library, open to the public · posted at the " +
			"meeting place Fri 4 Dec 2026 11:30 CST · on the board since Fri 4 Dec 2026 11:30 CST",
		"notice, now moved to Tue 8 Dec 2026 17:00 CST: sufficiency meeting on Mon 7 Dec 2026 at 17:00 CST at City Hall, " +
			"open to the public · on the board since Fri 4 Dec 2026 11:30 CST",
	} {
		if !strings.Contains(card, want) {
			t.Errorf("the card lacks %q:\n%s", want, card)
		}
	}
}
