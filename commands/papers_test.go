package commands_test

import (
	"strings"
	"testing"
	"time"

	"ethicsbot/commands"
)

// atSufficiency files a case with line, schedules its sufficiency meeting, posts and mails
// its notices, and moves the clock past the meeting.
func atSufficiency(t *testing.T, line string) (*commands.Service, *clock) {
	t.Helper()
	s, clk, _ := MustService(t)
	mustDo(t, s, clerk, line, "Filed")
	mustDo(t, s, clerk, `schedule 2026-001 sufficiency 2026-12-07T17:00 place="City Hall"`, "scheduled")
	noticed(t, s)
	clk.now, _ = time.Parse(time.RFC3339, "2026-12-08T00:00:00Z")
	return s, clk
}

// TestDismissalPapers: the (C)(2) notice of dismissal goes to each party by certified mail;
// the ruling alone does not meet the (C)(1) notice deadline, and the case stays on the
// docket until both notices are sent.
func TestDismissalPapers(t *testing.T) {
	s, _ := atSufficiency(t, fileLine)
	mustDo(t, s, comm, "rule 2026-001 insufficient", "ruling recorded")
	card := replyText(do(s, clerk, "case 2026-001"))
	for _, want := range []string{
		":hourglass: open notice of the ruling to the respondent (C)(1): due Tue 2026-12-15",
		":hourglass: open notice of the ruling to the complainant (C)(1): due Tue 2026-12-15",
	} {
		if !strings.Contains(card, want) {
			t.Errorf("card lacks %q:\n%s", want, card)
		}
	}
	for _, tc := range []struct{ text, want string }{
		{"delivered 2026-001 dismissal_respondent", "(C)(2)"},
		{"mail 2026-001 ruling_respondent 9407 1118 9876 5432 1017 40", "notice of dismissal"},
		{"mail 2026-001 referral 9407 1118 9876 5432 1016 41", "does not need"},
		{"mail 2026-001 letter 9407 1118 9876 5432 1015 42", "paper"},
	} {
		if got := replyText(do(s, clerk, tc.text)); !strings.Contains(got, tc.want) || !strings.Contains(got, "Not done") {
			t.Errorf("/ethics %s: %s\nwant a refusal naming %q", tc.text, got, tc.want)
		}
	}
	if got := replyText(do(s, clerk, "docket")); !strings.Contains(got, "2026-001") {
		t.Errorf("a dismissed case with its notices owed left the docket:\n%s", got)
	}
	mustDo(t, s, clerk, "mail 2026-001 dismissal_respondent 9407 1118 9876 5432 1014 50",
		"notice of dismissal to the respondent (C)(2)")
	mustDo(t, s, clerk, "mail 2026-001 dismissal_complainant 9407 1118 9876 5432 1013 51 mailed=2026-12-07", "recorded")
	card = replyText(do(s, clerk, "case 2026-001"))
	for _, want := range []string{
		":white_check_mark: met notice of the ruling to the respondent (C)(1)",
		"*Sent:* notice of dismissal to the complainant (C)(2), certified mail 9407111898765432101351, mailed Mon 2026-12-07",
	} {
		if !strings.Contains(card, want) {
			t.Errorf("card lacks %q:\n%s", want, card)
		}
	}
	if got := replyText(do(s, clerk, "docket")); strings.Contains(got, "2026-001") {
		t.Errorf("the case is still on the docket with its papers sent:\n%s", got)
	}
}

// TestBothSections: a complaint alleging both sections gets one disposition per part; the
// §103.10 part goes to hearing while the §103.05 part is referred under (C)(3).
func TestBothSections(t *testing.T) {
	s, _ := atSufficiency(t, strings.Replace(fileLine, "section=103.10", "section=103.10,103.05", 1))
	if got := replyText(do(s, comm,
		`rule 2026-001 probable_cause hearing=2026-12-28T10:00 place="City Hall"`)); !strings.Contains(got,
		"referral_ruling") || !strings.Contains(got, "(C)(3)") {
		t.Fatalf("a single ruling on a complaint alleging both sections: %s", got)
	}
	mustDo(t, s, comm,
		`rule 2026-001 probable_cause referral_ruling=attorney_referral hearing=2026-12-28T10:00 place="City Hall"`,
		"§103.05 part attorney referral")
	card := replyText(do(s, clerk, "case 2026-001"))
	for _, want := range []string{
		"*Ruling:* §103.10 part: probable cause; §103.05 part: attorney referral (C)(3)",
		"hearing scheduled",
		":hourglass: open transmittal of the complaint and its documents to the attorney (C)(3): no time limit, not " +
			"yet recorded",
	} {
		if !strings.Contains(card, want) {
			t.Errorf("card lacks %q:\n%s", want, card)
		}
	}
	mustDo(t, s, clerk, "delivered 2026-001 referral",
		"delivery recorded: transmittal of the complaint and its documents to the attorney (C)(3)")
	mustDo(t, s, clerk, "delivered 2026-001 ruling_complainant", "recorded")
	if got := replyText(do(s, clerk, "delivered 2026-001 adjudication_request")); !strings.Contains(got,
		"judicial_referral") {
		t.Errorf("an adjudication request on a case not so ruled: %s", got)
	}
	card = replyText(do(s, clerk, "case 2026-001"))
	if !strings.Contains(card,
		":white_check_mark: met transmittal of the complaint and its documents to the attorney (C)(3): done") {
		t.Errorf("card does not show the transmittal done:\n%s", card)
	}
}

// TestExpeditedDisposedAtC: (G) a complaint disposed of at (C) meets the expedited
// decision deadline; it is not "missed".
func TestExpeditedDisposedAtC(t *testing.T) {
	s, clk := atSufficiency(t, strings.Replace(fileLine, "candidate=2027-02-23", "candidate=2027-01-19", 1))
	mustDo(t, s, comm, "rule 2026-001 no_probable_cause", "ruling recorded")
	clk.now = clk.now.Add(30 * 24 * time.Hour)
	card := replyText(do(s, clerk, "case 2026-001"))
	if !strings.Contains(card, ":white_check_mark: met expedited (E) decision before the election (G)") {
		t.Errorf("a disposal at (C) does not meet (G):\n%s", card)
	}
}

// TestFineNeedsIntent: (H) a fine needs the finding that the violation was intentional;
// (F) stays enforcement while the respondent may demand a public hearing.
func TestFineNeedsIntentAndStay(t *testing.T) {
	s, clk := atSufficiency(t, fileLine)
	mustDo(t, s, comm,
		`rule 2026-001 probable_cause hearing=2026-12-28T10:00 place="City Hall" closed="5 ILCS 120/2(c)(1)"`,
		"ruling recorded")
	mustDo(t, s, clerk, "posted 2026-001 hearing", "posted")
	clk.now, _ = time.Parse(time.RFC3339, "2026-12-28T22:00:00Z")
	mustDo(t, s, clerk, "concluded 2026-001", "concluded")
	for _, text := range []string{
		`decide 2026-001 fine fine=2000`,
		`decide 2026-001 fine fine=2000 intentional=no`,
	} {
		if got := replyText(do(s, comm, text)); !strings.Contains(got, "(H)") || !strings.Contains(got, "intentional") {
			t.Errorf("/ethics %s: %s\nwant refused under (H)", text, got)
		}
	}
	if got := replyText(do(s, comm, `decide 2026-001 fine fine=2000 intentional=maybe`)); !strings.Contains(got, "yes") {
		t.Errorf("intentional=maybe: %s", got)
	}
	mustDo(t, s, comm, `decide 2026-001 fine fine=2000 intentional=yes findings="Intentional use of city email."`,
		"decision recorded")
	card := replyText(do(s, clerk, "case 2026-001"))
	if !strings.Contains(card, "enforcement stayed (F)") ||
		!strings.Contains(card, "*Enforcement:* the respondent may demand a public hearing until") {
		t.Errorf("card does not show the (F) stay:\n%s", card)
	}
	if got := replyText(do(s, clerk, `enforced 2026-001 what="fine collected"`)); !strings.Contains(got, "stayed") ||
		!strings.Contains(got, "(F)") {
		t.Errorf("enforcement during the demand window: %s", got)
	}
	clk.now = clk.now.Add(20 * 24 * time.Hour)
	mustDo(t, s, clerk, `enforced 2026-001 what="fine of $2,000 collected"`, "enforcement recorded")
	card = replyText(do(s, clerk, "case 2026-001"))
	if !strings.Contains(card, "closed on") || strings.Contains(card, "enforcement stayed") {
		t.Errorf("card after the window closed:\n%s", card)
	}
}
