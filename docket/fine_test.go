package docket_test

import (
	"testing"

	"ethicsbot/docket"
)

// TestFines: a fine's due date is the commission's term (fine_payment, 30 days by
// default) from the day it may be enforced; after a closed hearing, from the last day of
// (F)'s window to demand a public hearing, and none while a demand stays it.
func TestFines(t *testing.T) {
	e := MustEngine(t)
	d := func(s string) docket.Date {
		v, err := docket.ParseDate(s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	decided := func(closed bool) docket.Case {
		c := docket.Case{Number: "2026-003", Respondent: docket.Person{Name: "Jane Roe"},
			Decision: &docket.Decision{Fine: 2500, Intentional: true, On: d("2027-01-13")}}
		c.HearingClosed, c.RecommendationIssued, c.DecisionIssued = closed, d("2027-01-13"), d("2027-01-13")
		return c
	}
	t.Run("OpenHearing", func(t *testing.T) {
		c := decided(false)
		fs := e.Fines(&c)
		if len(fs) != 1 {
			t.Fatalf("fines %+v, want one", fs)
		}
		// 30 days after Wed 13 Jan 2027 is Fri 12 Feb 2027, Lincoln's Birthday, a state
		// holiday (5 ILCS 490/60): the period rolls to Mon 15 Feb, also a holiday
		// (Washington's Birthday), then to Tue 16 Feb.
		if got, want := fs[0].Due.Due, d("2027-02-16"); got != want {
			t.Errorf("due %s, want %s", got.Long(), want.Long())
		}
		if !fs[0].DemandBy.IsZero() || fs[0].Stayed || fs[0].Rule != "(E)(2)" || fs[0].Name != "Jane Roe" {
			t.Errorf("fine %+v: after an open hearing there is no demand and no stay", fs[0])
		}
		if _, ok := e.DemandBy(&c); ok {
			t.Error("DemandBy after an open hearing")
		}
	})
	t.Run("ClosedHearing", func(t *testing.T) {
		c := decided(true)
		fs := e.Fines(&c)
		by, ok := e.DemandBy(&c)
		// 7 business days after Wed 13 Jan 2027, skipping Martin Luther King Jr. Day (Mon
		// 18 Jan): 14, 15, 19, 20, 21, 22 and Mon 25 Jan.
		if want := d("2027-01-25"); !ok || by != want || fs[0].DemandBy != want {
			t.Fatalf("demand by %s (%v), fine's %s; want %s", by.Long(), ok, fs[0].DemandBy.Long(), want.Long())
		}
		if got, want := fs[0].Due.Due, d("2027-02-24"); got != want {
			t.Errorf("due %s, want %s: 30 days after the window closes", got.Long(), want.Long())
		}
	})
	t.Run("Demanded", func(t *testing.T) {
		c := decided(true)
		c.DemandReceived = d("2027-01-20")
		fs := e.Fines(&c)
		if !fs[0].Stayed || !fs[0].Due.Due.IsZero() {
			t.Errorf("fine %+v: a demand stays it (F), with no date due", fs[0])
		}
		c.Final = &docket.Finding{Text: "Reprimand", Fine: 1500, Intentional: true, On: d("2027-02-03")}
		fs = e.Fines(&c)
		if len(fs) != 1 || fs[0].Rule != "(F)" || fs[0].Amount != 1500 || fs[0].Due.Due != d("2027-03-05") {
			t.Errorf("fines %+v: the final recommendation's fine replaces the decision's", fs)
		}
		c.Final.Fine = 0
		if fs := e.Fines(&c); len(fs) != 0 {
			t.Errorf("fines %+v: a final recommendation without a fine leaves none", fs)
		}
	})
	t.Run("Frivolous", func(t *testing.T) {
		c := docket.Case{Number: "2026-004", Complainant: docket.Person{Name: "John Doe"},
			Frivolous: &docket.Finding{Text: "Knew it false", Fine: 1500, Knowingly: true, On: d("2027-01-06")}}
		fs := e.Fines(&c)
		if len(fs) != 1 || fs[0].Rule != "(H)" || fs[0].Payer != docket.Complainant || fs[0].Due.Due != d("2027-02-05") {
			t.Errorf("fines %+v: the (H) fine on the complainant, due 30 days after the finding", fs)
		}
	})
	if got, want := docket.DefaultOrdinance().FineRange(), "$1,001 to $5,000"; got != want {
		t.Errorf("FineRange %q, want %q", got, want)
	}
}
