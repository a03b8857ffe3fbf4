package docket_test

import (
	"strings"
	"testing"

	"ethicsbot/docket"
)

// TestSettleFine: a fine stays owed, and its case open, until it is paid in full,
// referred for collection once overdue, or waived; each says what it did.
func TestSettleFine(t *testing.T) {
	e := MustEngine(t)
	steps := append(frivolousMeetingHeld(),
		step{"2027-01-13T19:00:00-06:00", docket.FindFrivolous{Findings: "Knowingly false.", Fine: 1500, Knowingly: true},
			docket.StateDismissed, ""})
	c := apply(t, e, steps)
	if len(c.Fines) != 1 || c.Fines[0].Rule != "(H)" || c.Fines[0].Payer != docket.Complainant {
		t.Fatalf("fines %+v: the (H) finding imposes one on the complainant", c.Fines)
	}
	settle := func(c docket.Case, a docket.SettleFine, at string) (docket.Case, error) {
		next, _, err := e.Apply(c, a, T(t, at))
		return next, err
	}
	paid := docket.SettleFine{Payer: docket.Complainant, How: docket.FinePaid, Amount: 500, Receipt: "R-0042"}
	part, err := settle(c, paid, "2027-01-20T10:00:00-06:00")
	if err != nil {
		t.Fatal(err)
	}
	words := paid.Did(docket.Wording{Before: &c, After: &part}).String()
	if want := `payment of $500 received on the fine imposed on `; !strings.HasPrefix(words, want) ||
		!strings.HasSuffix(words, ` (H), receipt "R-0042"; $1,000 remains owed`) {
		t.Errorf("Did: %q", words)
	}
	if !part.Fines[0].Settled.IsZero() {
		t.Error("a part payment settles the fine")
	}
	due := func(c docket.Case) docket.Deadline {
		for _, d := range e.Schedule(&c.Facts, T(t, "2027-02-17T10:00:00-06:00")).Deadlines {
			if d.ID == docket.FinePayment {
				return d
			}
		}
		t.Fatal("no fine_payment deadline")
		return docket.Deadline{}
	}
	// 30 days after Wed 13 Jan 2027 is Fri 12 Feb, Lincoln's Birthday, then Mon 15 Feb,
	// Washington's Birthday: due Tue 16 Feb, and missed the day after.
	if d := due(part); d.Due != mustDate("2027-02-16") || d.Status != docket.Missed ||
		d.Period.Party != docket.Commission || !d.Period.Clerical() {
		t.Errorf("fine_payment %+v", d)
	}
	for _, tc := range []struct {
		name, at string
		a        docket.SettleFine
		want     string
	}{
		{"ErrOverpaid", "2027-01-21T10:00:00-06:00",
			docket.SettleFine{Payer: docket.Complainant, How: docket.FinePaid, Amount: 1001, Receipt: "R-1"},
			"amount: give the dollars received, from $1 to the $1,000 owed"},
		{"ErrNoReceipt", "2027-01-21T10:00:00-06:00",
			docket.SettleFine{Payer: docket.Complainant, How: docket.FinePaid, Amount: 10}, "receipt: required"},
		{"ErrNotOverdue", "2027-02-16T10:00:00-06:00",
			docket.SettleFine{Payer: docket.Complainant, How: docket.FineCollection, To: "Corporation Counsel"},
			"the fine is not overdue: it is due by Tue 2027-02-16"},
		{"ErrWaivedWithoutVote", "2027-01-21T10:00:00-06:00",
			docket.SettleFine{Payer: docket.Complainant, How: docket.FineWaived}, "waived only by the commission's vote"},
		{"ErrNoFineOnRespondent", "2027-01-21T10:00:00-06:00",
			docket.SettleFine{Payer: docket.Respondent, How: docket.FinePaid, Amount: 10, Receipt: "R-1"},
			"has no fine on the respondent"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := settle(part, tc.a, tc.at); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%v, want %q", err, tc.want)
			}
		})
	}
	full, err := settle(part, docket.SettleFine{Payer: docket.Complainant, How: docket.FinePaid, Amount: 1000,
		Receipt: "R-0043"}, "2027-01-27T10:00:00-06:00")
	if err != nil {
		t.Fatal(err)
	}
	if full.Fines[0].Settled != mustDate("2027-01-27") || due(full).Status != docket.Met {
		t.Errorf("paid in full: %+v", full.Fines)
	}
	if got := (full.FineTotals()); got != (docket.FineTotals{Imposed: 1500, Paid: 1500}) {
		t.Errorf("totals %+v", got)
	}
	again := docket.SettleFine{Payer: docket.Complainant, How: docket.FinePaid, Amount: 1, Receipt: "R-9"}
	if _, err := settle(full, again,
		"2027-01-28T10:00:00-06:00"); err == nil || !strings.Contains(err.Error(), "was settled on Wed 2027-01-27") {
		t.Errorf("settled twice: %v", err)
	}
	sent, err := settle(part, docket.SettleFine{Payer: docket.Complainant, How: docket.FineCollection,
		To: "Corporation Counsel"}, "2027-02-17T10:00:00-06:00")
	if err != nil {
		t.Fatal(err)
	}
	want := docket.FineTotals{Imposed: 1500, Paid: 500, Outstanding: 1000, Collection: 1000}
	if got := sent.FineTotals(); got != want {
		t.Errorf("totals after a referral for collection %+v", got)
	}
	// What the collector obtains is paid on the fine referred; a receipt is one payment.
	collected, err := settle(sent, docket.SettleFine{Payer: docket.Complainant, How: docket.FinePaid, Amount: 600,
		Receipt: "C-7"}, "2027-03-01T10:00:00-06:00")
	if err != nil {
		t.Fatalf("a payment on a fine referred for collection: %v", err)
	}
	if got := collected.FineTotals(); got != (docket.FineTotals{Imposed: 1500, Paid: 1100, Outstanding: 400,
		Collection: 400}) {
		t.Errorf("totals after a payment to the collector %+v", got)
	}
	_, err = settle(collected, docket.SettleFine{Payer: docket.Complainant, How: docket.FinePaid, Amount: 100,
		Receipt: "c-7 "}, "2027-03-02T10:00:00-06:00")
	if err == nil || !strings.Contains(err.Error(), `receipt "c-7 " was recorded for a payment of $600 on Mon 2027-03-01`) {
		t.Errorf("the same receipt twice: %v", err)
	}
	if _, err := settle(sent, docket.SettleFine{Payer: docket.Complainant, How: docket.FineCollection,
		To: "Corporation Counsel"}, "2027-03-01T10:00:00-06:00"); err == nil {
		t.Error("a fine referred for collection twice")
	}
	roll := &docket.Vote{Seated: []string{"U_A", "U_B", "U_C"}, Yes: []string{"U_A", "U_B"}, No: []string{"U_C"},
		Quorum: 2, Carry: docket.MajorityOfVotesCast}
	waiver := docket.SettleFine{Payer: docket.Complainant, How: docket.FineWaived, Vote: roll}
	waived, err := settle(part, waiver, "2027-01-21T10:00:00-06:00")
	if err != nil {
		t.Fatal(err)
	}
	if got := waived.FineTotals(); got != (docket.FineTotals{Imposed: 1500, Paid: 500, Waived: 1000}) {
		t.Errorf("totals after a waiver %+v", got)
	}
	motion := waiver.Motion(docket.Wording{After: &waived}).String()
	if !strings.HasPrefix(motion, "that the fine of $1,500 imposed on ") ||
		!strings.HasSuffix(motion, " under (H) be waived") {
		t.Errorf("Motion %q", motion)
	}
	if len(waived.Votes) != 1 || waived.Votes[0].Action != "fine" {
		t.Errorf("votes %+v: the waiver's roll call is on the record", waived.Votes)
	}
	// The case, its papers sent, stays open while the fine is owed; a case from before
	// fines were tracked closes as it did.
	mailed, _, err := e.Apply(part, docket.RecordMailing{Paper: docket.FrivolousFinding, Article: "94071118987654321897"},
		T(t, "2027-01-20T11:00:00-06:00"))
	if err != nil {
		t.Fatal(err)
	}
	if mailed.Closed() {
		t.Error("a case with its fine owed is closed")
	}
	untracked := mailed
	untracked.Fines = nil
	if !untracked.Closed() {
		t.Error("a case from before fines were tracked no longer closes")
	}
	if paidUp, err := settle(mailed, docket.SettleFine{Payer: docket.Complainant, How: docket.FinePaid, Amount: 1000,
		Receipt: "R-0043"}, "2027-01-27T10:00:00-06:00"); err != nil || !paidUp.Closed() {
		t.Errorf("paid in full, the case is not closed: %v", err)
	}
}

// frivolousMeetingHeld is a case dismissed as insufficient whose complainant is noticed of
// an (H) meeting on Wed 13 Jan 2027, the notice mailed: the steps up to the (H) finding.
func frivolousMeetingHeld() []step {
	return append(append([]step(nil), closedHearingCase()[:5]...),
		step{"2026-12-10T18:00:00-06:00", docket.Rule{Ruling: docket.Insufficient}, docket.StateDismissed, ""},
		step{"2026-12-11T09:00:00-06:00",
			docket.RecordMailing{Paper: docket.DismissalToRespondent, Article: "94071118987654321996"},
			docket.StateDismissed, ""},
		step{"2026-12-11T09:01:00-06:00",
			docket.RecordMailing{Paper: docket.DismissalToComplainant, Article: "94071118987654322092"},
			docket.StateDismissed, ""},
		step{"2027-01-04T09:00:00-06:00",
			docket.ScheduleMeeting{Meeting: docket.FrivolousMeeting, Start: mustTime("2027-01-13T17:00:00-06:00"),
				Place: "City Hall"}, docket.StateDismissed, ""},
		step{"2027-01-04T09:05:00-06:00", docket.PostNotice{Meeting: docket.FrivolousMeeting}, docket.StateDismissed, ""},
		step{"2027-01-04T09:10:00-06:00",
			docket.RecordMailing{Paper: docket.FrivolousNotice, Article: "94071118987654321798"}, docket.StateDismissed, ""})
}
