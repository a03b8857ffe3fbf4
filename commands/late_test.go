package commands_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestLateDecisionSaysSo: an (E) decision recorded after its 30 days is recorded, and the
// reply, the docket line and the case card say "late by N days", naming (E).
func TestLateDecisionSaysSo(t *testing.T) {
	s, clk, _ := MustService(t)
	at := func(v string) { clk.now, _ = time.Parse(time.RFC3339, v) }
	readyToRule(t, s)
	at("2026-12-08T00:00:00Z")
	mustDo(t, s, comm, `rule 2026-001 probable_cause hearing=2026-12-14T10:00 place="Council Chambers"`, "ruling recorded")
	mustDo(t, s, clerk, `posted 2026-001 hearing`, "posted")
	at("2026-12-14T21:00:00Z")
	mustDo(t, s, clerk, `concluded 2026-001`, "hearing concluded") // decision due Wed 2027-01-13
	at("2027-01-15T16:00:00Z")
	const late = "late by 2 days: the decision on Fri 2027-01-15 was due by Wed 2027-01-13"
	r := mustDo(t, s, comm, `decide 2026-001 dismiss findings="No violation."`, late)
	if !strings.Contains(replyText(r), "(rule (E))") {
		t.Errorf("reply does not name (E):\n%s", replyText(r))
	}
	if p := posted(r, "C_DOCKET"); len(p) != 1 || !strings.Contains(p[0], late) {
		t.Errorf("docket line %q, want %q", p, late)
	}
	card := replyText(do(s, comm, "case 2026-001"))
	if want := "*Late:* decision on Fri 2027-01-15 late by 2 days: due by Wed " +
		"2027-01-13 (E)"; !strings.Contains(card, want) {
		t.Errorf("card lacks %q:\n%s", want, card)
	}
}

// TestTimeBarredDismissalNamesItsGround: a time-barred complaint (I) is refused any ruling
// but a dismissal; the dismissal with ground=time_barred says so on the card.
func TestTimeBarredDismissalNamesItsGround(t *testing.T) {
	s, clk, _ := MustService(t)
	mustDo(t, s, clerk,
		`file respondent="Jane Roe" complainant="John Doe" section=103.10 violation=2025-11-01 received=2026-12-04T10:00 summary="x"`, "time-barred")
	mustDo(t, s, clerk, `schedule 2026-001 sufficiency 2026-12-07T17:00 place="City Hall"`, "scheduled")
	mustDo(t, s, clerk, `posted 2026-001 sufficiency`, "posted")
	mustDo(t, s, clerk, `mail 2026-001 respondent 94071118987654321712`, "recorded")
	mustDo(t, s, clerk, `mail 2026-001 complainant 94071118987654321613`, "recorded")
	clk.now = time.Date(2026, 12, 8, 0, 0, 0, 0, time.UTC)
	mustDo(t, s, comm, `rule 2026-001 probable_cause`, "time-barred under (I)")
	r := mustDo(t, s, comm, `rule 2026-001 insufficient ground=time_barred`, "ruling recorded")
	// (C)(2): the public notice of dismissal names the ground.
	if p := posted(r, "C_NOTICES"); len(p) != 1 ||
		!strings.Contains(p[0],
			"the complaint is time-barred under (I): it was filed more than one year after the alleged violation") {
		t.Errorf("public notice %q", p)
	}
	card := replyText(do(s, comm, "case 2026-001"))
	if want := "dismissed: time-barred under (I)"; !strings.Contains(card, want) {
		t.Errorf("card lacks %q:\n%s", want, card)
	}
}

// TestFrivolousFindingAfterTheComplainantIsHeard: (H) through the commands: refused until
// the complainant has been heard at a meeting noticed 48 hours ahead, with certified notice;
// then the fine falls on the complainant, as the card says.
func TestFrivolousFindingAfterTheComplainantIsHeard(t *testing.T) {
	s, clk, _ := MustService(t)
	at := func(v string) { clk.now, _ = time.Parse(time.RFC3339, v) }
	readyToRule(t, s)
	at("2026-12-08T00:00:00Z")
	mustDo(t, s, comm, `rule 2026-001 insufficient`, "ruling recorded")
	const finding = `frivolous 2026-001 fine=1500 knowingly=yes findings="Knowingly false."`
	mustDo(t, s, comm, finding, "the complainant must first be heard")
	if b, _ := json.Marshal(do(s, comm, "case 2026-001")); !strings.Contains(string(b), "frivolous_meeting") {
		t.Errorf("the card of a dismissed case does not offer the (H) meeting:\n%s", b)
	}
	mustDo(t, s, clerk, `schedule 2026-001 frivolous_meeting 2026-12-16T17:00 place="City Hall"`, "scheduled")
	mustDo(t, s, clerk, `posted 2026-001 frivolous_meeting`, "posted")
	mustDo(t, s, clerk, `mail 2026-001 frivolous_notice 94071118987654321644`, "recorded")
	at("2026-12-17T01:00:00Z") // Wed 16 Dec 19:00 CST, after the meeting
	mustDo(t, s, comm, finding, "complainant fined $1,500")
	card := replyText(do(s, comm, "case 2026-001"))
	if want := "*Frivolous (H):* found knowingly frivolous on Wed 2026-12-16; the complainant, John Doe, " +
		"fined $1,500"; !strings.Contains(card, want) {
		t.Errorf("card lacks %q:\n%s", want, card)
	}
}
