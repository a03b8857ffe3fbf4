package commands_test

import (
	"strings"
	"testing"
	"time"

	"ethicsbot/commands"
	"ethicsbot/store"
)

// TestClerkCorrectsArticle: the clerk who recorded a mistyped article number corrects it
// with a reason, without a commissioner; the correction is an event, the reply and the
// history show old → new, and the receipt recorded under the old number follows it. A
// correction to a number that fails its check digit, or that another paper has, is refused.
func TestClerkCorrectsArticle(t *testing.T) {
	s, db := mailedCase(t)
	mustDo(t, s, clerk, `receipt 2026-001 9407 1118 9876 5432 1016 34 signer="Jane Roe"`, "return receipt recorded")

	mustDo(t, s, clerk, `correct 2026-001 article="9407 1118 9876 5432 1016 33" event=3 reason="misread the label"`,
		"the check digit should be 4, not 3: a digit is mistyped")
	mustDo(t, s, clerk, `correct 2026-001 article="9407 1118 9876 5432 1015 35" event=3 reason="misread the label"`,
		"already recorded")
	mustDo(t, s, clerk, `correct 2026-001 article="9407 1118 9876 5432 1610 34" reason="misread the label"`,
		"events 3, 4 each record article; say which with event=&lt;n&gt;, or was=&lt;the number as recorded&gt;")
	mustDo(t, s, clerk,
		`correct 2026-001 article="9407 1118 9876 5432 1610 34" was="9407 1118 9876 5432 1016 35" reason="misread the label"`,
		"no event of this case records article")
	r := mustDo(t, s, clerk,
		`correct 2026-001 article="9407 1118 9876 5432 1610 34" was="9407 1118 9876 5432 1016 34" reason="misread the label"`,
		`Case 2026-001: event 3 corrected: article "9407111898765432101634" → "9407111898765432161034" (misread the label).`)
	if p := posted(r, "C_DOCKET"); len(p) != 1 ||
		!strings.Contains(p[0], `article "9407111898765432101634" → "9407111898765432161034"`) {
		t.Errorf("docket line %q", p)
	}
	c, _ := db.Case(ctx, "2026-001")
	if m := c.Mailings[0]; m.Article != "9407111898765432161034" || m.Returned.IsZero() {
		t.Errorf("the corrected mailing %+v lost its receipt", m)
	}
	hist := replyText(mustDo(t, s, clerk, "history 2026-001", "History of case 2026-001"))
	if !strings.Contains(hist,
		`_(corrected by 6 on Mon 2026-12-07: article "9407111898765432101634" → "9407111898765432161034")_`) {
		t.Errorf("history lacks the correction:\n%s", hist)
	}
	mustDo(t, s, clerk, `receipt 2026-001 9407 1118 9876 5432 1610 34 signer="Jane Roe"`,
		"the return receipt for article 9407111898765432161034 was recorded")
}

// TestMailOutcomes: a certified mailing ends in a signed receipt or comes back; the reply,
// the case card and the docket show how each ended, and a notice that came back unclaimed
// names the next step, which a delivery of the paper then takes, by first-class mail.
func TestMailOutcomes(t *testing.T) {
	s, db := mailedCase(t)
	mustDo(t, s, clerk, `delivered 2026-001 respondent`, "goes by certified mail")
	mustDo(t, s, clerk, `receipt 2026-001 9407 1118 9876 5432 1015 35`, "signer")
	mustDo(t, s, clerk, `receipt 2026-001 9407 1118 9876 5432 1015 35 signer="John Doe"`,
		"return receipt recorded for article 9407111898765432101535, signed by John Doe")
	mustDo(t, s, clerk, `undelivered 2026-001 unclaimed 9407 1118 9876 5432 1015 35`,
		"the return receipt for article 9407111898765432101535 was recorded")
	mustDo(t, s, clerk, `undelivered 2026-001 lost 9407 1118 9876 5432 1016 34`, "outcome")
	r := mustDo(t, s, clerk, `undelivered 2026-001 unclaimed 9407 1118 9876 5432 1016 34`,
		"certified mailing article 9407111898765432101634 came back unclaimed")
	if !strings.Contains(replyText(r), "sent again by first-class mail to the same address") ||
		!strings.Contains(replyText(r), "/ethics delivered 2026-001 respondent") {
		t.Errorf("the reply does not name the next step:\n%s", replyText(r))
	}
	card := replyText(mustDo(t, s, clerk, "case 2026-001", "Case 2026-001"))
	for _, want := range []string{
		"*Sent:* notice of the complaint to the respondent (B), certified mail 9407111898765432101634, mailed Mon " +
			"2026-12-07, came back unclaimed Mon 2026-12-07",
		"*Sent:* confirmation of receipt to the complainant (B), certified mail 9407111898765432101535, mailed Mon " +
			"2026-12-07, receipt returned Mon 2026-12-07, signed by John Doe",
		"notice of the complaint to the respondent sent again by first-class mail to the same address (it came back " +
			"unclaimed) (B): no time limit, not yet recorded",
	} {
		if !strings.Contains(card, want) {
			t.Errorf("card lacks %q:\n%s", want, card)
		}
	}
	if d := replyText(mustDo(t, s, clerk, "docket", "Open cases")); !strings.Contains(d,
		"mail: respondent unclaimed, complainant signed") {
		t.Errorf("docket:\n%s", d)
	}
	mustDo(t, s, clerk, `delivered 2026-001 respondent`, "delivery recorded")
	c, _ := db.Case(ctx, "2026-001")
	if len(c.Returned) != 1 || c.Returned[0].Then.IsZero() {
		t.Errorf("the next step is not recorded as taken: %+v", c.Returned)
	}
	mustDo(t, s, clerk, `delivered 2026-001 respondent`, "goes by certified mail")
}

// TestCorrectReceiptAndOutcome: a receipt's signer and a returned mailing's outcome are
// corrected like any fact; an outcome corrected to undeliverable changes the next step.
func TestCorrectReceiptAndOutcome(t *testing.T) {
	s, db := mailedCase(t)
	mustDo(t, s, clerk, `receipt 2026-001 9407 1118 9876 5432 1015 35 signer="Jon Doe"`, "signed by Jon Doe")
	mustDo(t, s, clerk, `correct 2026-001 signer="John Doe" reason="misread"`,
		`event 5 corrected: signer "Jon Doe" → "John Doe" (misread)`)
	mustDo(t, s, clerk, `undelivered 2026-001 unclaimed 9407 1118 9876 5432 1016 34`, "first-class mail")
	mustDo(t, s, clerk, `correct 2026-001 outcome=undeliverable reason="the envelope says no such address"`,
		`outcome "unclaimed" → "undeliverable"`)
	c, _ := db.Case(ctx, "2026-001")
	if c.Mailings[1].SignedBy != "John Doe" || c.Mailings[0].Failed != "undeliverable" || len(c.Returned) != 1 ||
		c.Returned[0].Step != "certified" {
		t.Errorf("after corrections: mailings %+v, returned %+v", c.Mailings, c.Returned)
	}
}

// mailedCase files case 2026-001, schedules its sufficiency meeting, and on Mon 7 Dec
// records both (B) notices mailed: the respondent's as article 9407 1118 9876 5432 1016 34
// (event 3), the complainant's as 9407 1118 9876 5432 1015 35 (event 4).
func mailedCase(t *testing.T) (*commands.Service, *store.Store) {
	t.Helper()
	s, clk, db := MustService(t)
	mustDo(t, s, clerk, fileLine, "Filed as case *2026-001*")
	mustDo(t, s, clerk, `schedule 2026-001 sufficiency 2026-12-08T17:00 place="City Hall"`, "scheduled")
	clk.now, _ = time.Parse(time.RFC3339, "2026-12-07T15:00:00Z") // Mon 7 Dec 09:00 CST
	mustDo(t, s, clerk, `mail 2026-001 respondent 9407 1118 9876 5432 1016 34`, "article 9407111898765432101634")
	mustDo(t, s, clerk, `mail 2026-001 complainant 9407 1118 9876 5432 1015 35`, "recorded")
	return s, db
}
