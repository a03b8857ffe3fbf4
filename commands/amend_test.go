package commands_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"ethicsbot/commands"
	"ethicsbot/reminders"
)

// TestCorrectReceipt: a mistyped receipt date is corrected in the open; the reply and the
// docket line show each deadline that moved, old date → new date.
func TestCorrectReceipt(t *testing.T) {
	s, clk, db := MustService(t)
	mustDo(t, s, clerk, fileLine, "Filed as case *2026-001*")
	mustDo(t, s, clerk, `schedule 2026-001 sufficiency 2026-12-07T17:00 place="City Hall"`, "scheduled")
	clk.now, _ = time.Parse(time.RFC3339, "2026-12-07T15:00:00Z") // Mon 7 Dec 09:00 CST
	r := mustDo(t, s, clerk, `correct 2026-001 received=2026-12-01T16:45 reason="the date stamp was misread"`,
		`Case 2026-001: event 1 corrected: received "Fri 4 Dec 2026 10:00 CST" → "Tue 1 Dec 2026 16:45 CST" (the date stamp was misread).`)
	for _, want := range []string{
		"*Deadlines recalculated:*",
		"• respondent notice by certified mail (B): Wed 9 Dec → Fri 4 Dec, now missed: the clerk is reminded daily " +
			"until it is done",
		"• complainant confirmation by certified mail (B): Wed 9 Dec → Fri 4 Dec, now missed",
		"• sufficiency and probable-cause ruling (C)(1): Tue 15 Dec → Thu 10 Dec, 3 business days left",
		"Reminders follow the new dates",
	} {
		if !strings.Contains(replyText(r), want) {
			t.Errorf("reply lacks %q:\n%s", want, replyText(r))
		}
	}
	if p := posted(r, "C_DOCKET"); len(p) != 1 || !strings.Contains(p[0], "Wed 9 Dec → Fri 4 Dec") ||
		!strings.Contains(p[0], "recorded by <@U_CLERK>") {
		t.Errorf("docket line %q", p)
	}
	if p := posted(r, "C_NOTICES"); len(p) != 0 {
		t.Errorf("a confidential correction went public: %q", p)
	}
	c, _ := db.Case(ctx, "2026-001")
	if c.Received.Format(time.RFC3339) != "2026-12-01T16:45:00-06:00" || len(c.Amendments) != 1 {
		t.Errorf("case after correction: received %v, amendments %+v", c.Received, c.Amendments)
	}
	card := replyText(mustDo(t, s, comm, "case 2026-001", "Case 2026-001"))
	if !strings.Contains(card,
		`*Corrected:* event 1, received "Fri 4 Dec 2026 10:00 CST" → "Tue 1 Dec 2026 16:45 CST", on Mon 2026-12-07 by <@U_CLERK>: the date stamp was misread`) {
		t.Errorf("card does not show the correction:\n%s", card)
	}
	hist := replyText(mustDo(t, s, attorney, "history 2026-001", "History of case 2026-001, 3 events:"))
	for _, want := range []string{"*1.* Fri 4 Dec 2026 10:30 CST, <@U_CLERK>: filed, received Fri 4 Dec 2026 10:00 CST " +
		"_(corrected by 3 on Mon 2026-12-07: received",
		"*3.* Mon 7 Dec 2026 09:00 CST, <@U_CLERK>: event 1 corrected"} {
		if !strings.Contains(hist, want) {
			t.Errorf("history lacks %q:\n%s", want, hist)
		}
	}
	if r, err := db.Verify(ctx); err != nil || r.Broken != nil {
		t.Errorf("verify after a correction: %v %v", r.Broken, err)
	}
	t.Run("Refusals", func(t *testing.T) {
		mustDo(t, s, clerk, `correct 2026-001 received=2026-12-01T16:45 reason="again"`, "event 1 already records received")
		mustDo(t, s, clerk, `correct 2026-001 received=2026-12-05T10:00 violation=2026-05-02 reason="x"`,
			"correct one fact at a time")
		mustDo(t, s, clerk, `correct 2026-001 reason="x"`, "give the fact to correct")
		mustDo(t, s, clerk, `correct 2026-001 received=2026-12-02T10:00`, "reason: is missing")
		// Received after the meeting was scheduled on it: the filing would be recorded
		// before the complaint arrived.
		mustDo(t, s, clerk, `correct 2026-001 received=2026-12-06T10:00 reason="x"`,
			"event 1 (file, recorded Fri 4 Dec 2026 10:30 CST) would no longer hold: received: Sun 6 Dec 2026 10:00 CST is "+
				"in the future")
		mustDo(t, s, clerk, `correct 2026-001 article=9407111898765432101634 reason="x"`,
			"no event of this case records article")
		mustDo(t, s, attorney, `correct 2026-001 respondent="X" reason="x"`,
			"Only commissioners and clerks can use `/ethics correct`")
	})
}

// TestCorrectionSaysWhichRemindersMove: with the reminder policy wired in, the
// recalculation says, for each changed deadline, which of the clerk's reminders is now due
// and which will not be said; and a sweep then says what the reply promised.
func TestCorrectionSaysWhichRemindersMove(t *testing.T) {
	s, clk, db := MustService(t)
	planner := &reminders.Planner{Engine: s.Engine, Policy: reminders.Defaults(),
		People: reminders.People{Clerks: []string{clerk}, Docket: "C_DOCKET"}}
	reconfigure(s, func(st *commands.Settings) { st.Reminders = planner })
	mustDo(t, s, clerk, fileLine, "Filed as case *2026-001*")
	mustDo(t, s, clerk, `schedule 2026-001 sufficiency 2026-12-07T17:00 place="City Hall"`, "scheduled")
	clk.now, _ = time.Parse(time.RFC3339, "2026-12-07T15:00:00Z") // Mon 7 Dec 09:00 CST
	r := mustDo(t, s, clerk, `correct 2026-001 received=2026-12-02T16:45 reason="the date stamp was misread"`,
		"event 1 corrected")
	for _, want := range []string{
		// Due Wed 9 Dec, reminded Mon 7, Tue 8 and Wed 9 at 09:00; now due today.
		"• respondent notice by certified mail (B): Wed 9 Dec → Mon 7 Dec, due today; the clerk's reminder is due now, " +
			"said at the next sweep; the reminders set for Tue 8 Dec 09:00 and Wed 9 Dec 09:00 will not be said\n",
		// Due Tue 15 Dec, reminded Fri 11, Mon 14 and Tue 15; now due Fri 11, reminded Wed 9, Thu 10 and Fri 11.
		"• sufficiency and probable-cause ruling (C)(1): Tue 15 Dec → Fri 11 Dec, 4 business days left; the docket " +
			"channel is next reminded on Wed 9 Dec 09:00; the reminders set for Mon 14 Dec 09:00 and Tue 15 Dec 09:00 will " +
			"not be said\n",
	} {
		if !strings.Contains(replyText(r)+"\n", want) {
			t.Errorf("reply lacks %q:\n%s", want, replyText(r))
		}
	}
	if strings.Contains(replyText(r), "Reminders follow the new dates") {
		t.Errorf("the reply says reminders in general where it can say each:\n%s", replyText(r))
	}
	if p := posted(r, "C_DOCKET"); len(p) != 1 ||
		!strings.Contains(p[0], "the reminders set for Tue 8 Dec 09:00 and Wed 9 Dec 09:00 will not be said") {
		t.Errorf("docket line %q", p)
	}
	// What the reply promised: the sweep now says the respondent notice is due today.
	c, _ := db.Case(ctx, "2026-001")
	var said []string
	for _, rm := range planner.Plan(&c, clk.now) {
		if rm.To.User == clerk {
			said = append(said, rm.Series+" "+rm.Step)
		}
	}
	if !slices.Contains(said, "respondent_notice due:2026-12-07") {
		t.Errorf("the sweep says %q, want the respondent notice's reminder due today", said)
	}

	// Moved later again: the reminders of the earlier dates will not be said, and the
	// next is the new date's.
	clk.now, _ = time.Parse(time.RFC3339, "2026-12-07T16:00:00Z") // Mon 7 Dec 10:00 CST
	mustDo(t, s, clerk, `mail 2026-001 respondent 9407 1118 9876 5432 1016 34 mailed=2026-12-07`, "recorded")
	r = mustDo(t, s, clerk, `correct 2026-001 received=2026-12-04T10:00 reason="the first reading was right"`,
		"event 1 corrected")
	if want := "• sufficiency and probable-cause ruling (C)(1): Fri 11 Dec → Tue 15 Dec, 6 business days left; the " +
		"docket channel is next reminded on Fri 11 Dec 09:00; the reminders set for Wed 9 Dec 09:00 and Thu 10 Dec 09:00 " +
		"will not be said"; !strings.Contains(replyText(r), want) {
		t.Errorf("reply lacks %q:\n%s", want, replyText(r))
	}
}

// TestCorrectPublicFact: correcting what the public was told (a meeting's place) posts a
// public correction quoting it.
func TestCorrectPublicFact(t *testing.T) {
	s, _, _ := MustService(t)
	mustDo(t, s, clerk, fileLine, "Filed")
	mustDo(t, s, clerk, `schedule 2026-001 sufficiency 2026-12-07T17:00 place="City Hal, Room 21"`, "scheduled")
	r := mustDo(t, s, clerk, `correct 2026-001 place="City Hall, Room 201" meeting=sufficiency reason="typo"`,
		"event 2 corrected: place")
	if p := posted(r, "C_NOTICES"); len(p) != 1 ||
		p[0] != `PUBLIC NOTICE, CORRECTION. Ethics Commission, case 2026-001: the place of the sufficiency meeting recorded as "City Hal, Room 21" is corrected to "City Hall, Room 201".` {
		t.Errorf("public notices %q", p)
	}
	// Moving a meeting by correction needs the notice a rescheduling would.
	mustDo(t, s, clerk, `correct 2026-001 start=2026-12-05T12:00 meeting=sufficiency reason="typo"`,
		"start: the notice posted gave the sufficiency meeting's old time")
	mustDo(t, s, clerk, `correct 2026-001 start=2026-12-08T17:00 meeting=sufficiency reason="typo"`,
		"event 2 corrected: start")
}

// TestCorrectPartyName: a party's name is confidential until the case is public, and its
// correction is told only in the docket channel; after a public dismissal, the public is
// told of the corrected name, quoting both.
func TestCorrectPartyName(t *testing.T) {
	s, clk, _ := MustService(t)
	readyToRule(t, s)
	r := mustDo(t, s, clerk, `correct 2026-001 complainant="Jon Doe" reason="misspelt"`,
		`event 1 corrected: complainant "John Doe" → "Jon Doe" (misspelt)`)
	if p := posted(r, "C_NOTICES"); len(p) != 0 {
		t.Errorf("a confidential name went public: %q", p)
	}
	clk.now, _ = time.Parse(time.RFC3339, "2026-12-08T00:00:00Z")
	mustDo(t, s, comm, "rule 2026-001 insufficient", "ruling recorded")
	r = mustDo(t, s, clerk, `correct 2026-001 respondent="Janet Roe" reason="misspelt"`,
		`event 1 corrected: respondent "Jane Roe" → "Janet Roe" (misspelt)`)
	if p := posted(r, "C_NOTICES"); len(p) != 1 ||
		p[0] != `PUBLIC NOTICE, CORRECTION. Ethics Commission, case 2026-001: the respondent recorded as "Jane Roe" is corrected to "Janet Roe".` {
		t.Errorf("public notices %q", p)
	}
}

// TestVoid: a ruling recorded on the wrong case is withdrawn by a commissioner; the case is
// back where it was, and the public, told of the dismissal, is told of the withdrawal.
func TestVoid(t *testing.T) {
	s, clk, db := MustService(t)
	mustDo(t, s, clerk, fileLine, "Filed")
	mustDo(t, s, clerk, `schedule 2026-001 sufficiency 2026-12-07T17:00 place="City Hall"`, "scheduled")
	noticed(t, s)
	clk.now, _ = time.Parse(time.RFC3339, "2026-12-08T00:00:00Z")
	mustDo(t, s, comm, "rule 2026-001 insufficient", "ruling recorded")
	mustDo(t, s, clerk, `void 2026-001 6 reason="wrong case"`, "Only commissioners can use `/ethics void`")
	mustDo(t, s, comm, `void 2026-001 1 reason="x"`, "event 1 of case 2026-001 is the filing itself and cannot be voided")
	mustDo(t, s, comm, `void 2026-001 9 reason="x"`, "case 2026-001 has no event 9")
	r := mustDo(t, s, comm, `void 2026-001 6 reason="recorded on the wrong case"`,
		"Case 2026-001: event 6 (rule) voided (recorded on the wrong case).")
	if p := posted(r, "C_NOTICES"); len(p) != 1 ||
		p[0] != "PUBLIC NOTICE, CORRECTION. Ethics Commission, case 2026-001: the dismissal of case 2026-001 announced on "+
			"Mon 7 Dec 2026 (complaint insufficient, (C)(2)) was recorded in error and is withdrawn." {
		t.Errorf("public notices %q", p)
	}
	c, _ := db.Case(ctx, "2026-001")
	if c.State != "notices_sent" || c.Ruling != "" {
		t.Errorf("after the void: state %s, ruling %q", c.State, c.Ruling)
	}
	mustDo(t, s, comm, `void 2026-001 6 reason="again"`, "event 6 of case 2026-001 was voided by event 7")
	mustDo(t, s, comm, `void 2026-001 7 reason="undo"`, "is itself a correction or a void")
	// The commission can rule again.
	mustDo(t, s, comm, "rule 2026-001 probable_cause", "ruling recorded: probable cause")
	if r, err := db.Verify(ctx); err != nil || r.Broken != nil {
		t.Errorf("verify after a void: %v %v", r.Broken, err)
	}
	t.Run("DependentsRefuse", func(t *testing.T) {
		mustDo(t, s, comm, `schedule 2026-001 hearing 2026-12-21T10:00 place="Council Chambers"`, "hearing scheduled")
		mustDo(t, s, comm, `void 2026-001 8 reason="x"`,
			"event 9 (schedule_meeting, recorded Mon 7 Dec 2026 18:00 CST) would no longer hold: cannot schedule the hearing")
	})
	t.Run("MeetingNotice", func(t *testing.T) {
		r := mustDo(t, s, comm, `void 2026-001 9 reason="the wrong room"`, "event 9 (schedule meeting) voided")
		if p := posted(r, "C_NOTICES"); len(p) != 1 ||
			p[0] != "PUBLIC NOTICE, CORRECTION. Ethics Commission, case 2026-001: the notice of the hearing on Mon 21 Dec "+
				"2026 at 10:00 CST at Council Chambers, open to the public, was recorded in error and is withdrawn." {
			t.Errorf("public notices %q", p)
		}
	})
}

// TestVoidRestoresANotice: voiding a move or a cancellation of a meeting tells the public
// which notice is withdrawn and which stands again.
func TestVoidRestoresANotice(t *testing.T) {
	s, _, _ := MustService(t)
	mustDo(t, s, clerk, fileLine, "Filed")
	mustDo(t, s, clerk, `schedule 2026-001 sufficiency 2026-12-07T17:00 place="City Hall"`, "scheduled")
	mustDo(t, s, clerk, `schedule 2026-001 sufficiency 2026-12-08T17:00 place="City Hall"`, "rescheduled")
	const first = "the notice of the sufficiency meeting on Mon 7 Dec 2026 at 17:00 CST at City Hall, open to the public,"
	r := mustDo(t, s, comm, `void 2026-001 3 reason="moved on the wrong case"`, "event 3 (schedule meeting) voided")
	if p := posted(r, "C_NOTICES"); len(p) != 1 ||
		p[0] != "PUBLIC NOTICE, CORRECTION. Ethics Commission, case 2026-001: the notice of the sufficiency meeting on Tue "+
			"8 Dec 2026 at 17:00 CST at City Hall, open to the public, was recorded in error and is "+
			"withdrawn; "+first+" stands." {
		t.Errorf("public notices %q", p)
	}
	mustDo(t, s, clerk, `cancel 2026-001 sufficiency`, "cancelled")
	r = mustDo(t, s, comm, `void 2026-001 5 reason="cancelled on the wrong case"`, "event 5 (cancel meeting) voided")
	if p := posted(r, "C_NOTICES"); len(p) != 1 ||
		p[0] != "PUBLIC NOTICE, CORRECTION. Ethics Commission, case 2026-001: "+first+" stands after all: its withdrawal "+
			"was recorded in error." {
		t.Errorf("public notices %q", p)
	}
}

// TestVoidDecision: a void of the (E) decision, or of the (F) final recommendation, tells
// the public which one is withdrawn, quoting what it said, on one line; nothing the public
// was not told is in the notice.
func TestVoidDecision(t *testing.T) {
	s, clk, _ := MustService(t)
	at := func(v string) { clk.now, _ = time.Parse(time.RFC3339, v) }
	readyToRule(t, s)
	at("2026-12-08T00:00:00Z")
	mustDo(t, s, comm,
		`rule 2026-001 probable_cause hearing=2026-12-14T10:00 place="Council Chambers" closed="5 ILCS 120/2(c)(4)"`,
		"ruling recorded")
	mustDo(t, s, clerk, `posted 2026-001 hearing`, "posted")
	at("2026-12-14T21:00:00Z")
	mustDo(t, s, clerk, `concluded 2026-001`, "hearing concluded")
	mustDo(t, s, comm,
		`decide 2026-001 recommend recommendation="Written reprimand" fine=2500 intentional=yes findings="Violated 103.10."`,
		"decision recorded")
	r := mustDo(t, s, comm, `void 2026-001 10 reason="recorded on the wrong case"`, "event 10 (decide) voided")
	want := `PUBLIC NOTICE, CORRECTION. Ethics Commission, case 2026-001: the decision in case 2026-001 announced on Mon 14 Dec 2026 (recommendation and/or fine (E)(2); findings "Violated 103.10."; recommendation "Written reprimand"; fine $2,500) was recorded in error and is withdrawn.`
	p := posted(r, "C_NOTICES")
	if len(p) != 1 || p[0] != want {
		t.Fatalf("public notices %q\nwant %q", p, want)
	}
	for _, secret := range []string{"Used", "John Doe", "Jane Roe", "intentional"} {
		if strings.Contains(p[0], secret) {
			t.Errorf("the notice tells %q: %s", secret, p[0])
		}
	}

	mustDo(t, s, comm,
		`decide 2026-001 recommend recommendation="Written reprimand" fine=2500 intentional=yes findings="Violated 103.10."`,
		"decision recorded")
	at("2026-12-15T16:00:00Z")
	mustDo(t, s, clerk, `demand 2026-001`, "demand")
	mustDo(t, s, clerk, `schedule 2026-001 public_hearing 2026-12-21T18:00 place="Council Chambers"`, "scheduled")
	mustDo(t, s, clerk, `posted 2026-001 public_hearing`, "posted")
	at("2026-12-22T02:00:00Z")
	mustDo(t, s, clerk, `held 2026-001`, "held")
	mustDo(t, s, comm,
		"final 2026-001 text=\"Reprimand affirmed.\nPUBLIC NOTICE. Fine affirmed.\" fine=2500 intentional=yes",
		"final recommendation issued")
	r = mustDo(t, s, comm, `void 2026-001 17 reason="recorded on the wrong case"`,
		"event 17 (final recommendation) voided")
	want = `PUBLIC NOTICE, CORRECTION. Ethics Commission, case 2026-001: the final recommendation in case 2026-001 announced on Mon 21 Dec 2026 ((F): "Reprimand affirmed. PUBLIC NOTICE. Fine affirmed."; fine $2,500) was recorded in error and is withdrawn.`
	if p := posted(r, "C_NOTICES"); len(p) != 1 || p[0] != want {
		t.Fatalf("public notices %q\nwant %q", p, want)
	}
}

// TestCorrectionMakesARecusal: correcting the respondent's Slack account to a
// commissioner's recuses that commissioner; voiding a declared recusal takes it back.
func TestCorrectionMakesARecusal(t *testing.T) {
	s, _, db := MustService(t)
	mustDo(t, s, clerk, fileLine, "Filed")
	mustDo(t, s, clerk, `correct 2026-001 respondent_user=U_COMM2 reason="she is the commissioner"`, "event 1 corrected")
	mustDo(t, s, "U_COMM2", "case 2026-001", "you are recused from case 2026-001 (you are the respondent)")
	mustDo(t, s, comm, `recuse 2026-001 reason="mistake"`, "recused")
	mustDo(t, s, comm, "case 2026-001", "you are recused")
	mustDo(t, s, "U_COMM2", `void 2026-001 3 reason="x"`, "you are recused from case 2026-001")
	// A commissioner who is not recused takes the declared recusal back by a void; the
	// commissioner sees the case again, and may act on it.
	reconfigure(s, func(st *commands.Settings) { st.Roles.Commissioners = append(st.Roles.Commissioners, "U_COMM3") })
	mustDo(t, s, "U_COMM3", `void 2026-001 3 reason="declared on the wrong case"`,
		"Case 2026-001: event 3 (recuse) voided (declared on the wrong case).")
	if card := replyText(mustDo(t, s, comm, "case 2026-001", "Case 2026-001")); strings.Contains(card,
		"you are recused") || strings.Contains(card, "<@U_COMM1> (since") {
		t.Errorf("the recusal still holds after its void:\n%s", card)
	}
	mustDo(t, s, "U_COMM2", "case 2026-001", "you are recused from case 2026-001 (you are the respondent)")
	mustDo(t, s, comm, "history 2026-001", "_(voided by 4")
	mustDo(t, s, clerk, `correct 2026-001 respondent="Janet Roe" reason="misspelt"`, "event 1 corrected: respondent")
	if r, err := db.Verify(ctx); err != nil || r.Broken != nil {
		t.Errorf("verify after correcting a party's name: %v %v", r.Broken, err)
	}
}

// TestCorrectLongText: correcting a long text names it by its length in the lines about
// the correction, which stay short; the text itself is in the record.
func TestCorrectLongText(t *testing.T) {
	s, _, db := MustService(t)
	mustDo(t, s, clerk, fileLine, "Filed")
	long := strings.Repeat("Corrected allegation. ", 130)
	r := mustDo(t, s, clerk, `correct 2026-001 summary="`+long+`" reason="the wrong complaint was typed"`,
		`summary "Used the city's email to campaign." → a text of 2859 characters`)
	for _, p := range posted(r, "C_DOCKET") {
		if len(p) > 2000 {
			t.Errorf("the docket line is %d bytes", len(p))
		}
	}
	if c, _ := db.Case(ctx, "2026-001"); c.Summary != strings.TrimSpace(long) {
		t.Errorf("summary not corrected")
	}
	m := form(t, s, clerk, "correct")
	for _, b := range m.Blocks.BlockSet {
		if in, ok := b.(*slack.InputBlock); ok && in.BlockID == "reason" {
			if e := in.Element.(*slack.PlainTextInputBlockElement); e.Multiline || e.MaxLength != 200 {
				t.Errorf("the reason input: multiline %v, max %d; want one line of 200", e.Multiline, e.MaxLength)
			}
		}
	}
}
