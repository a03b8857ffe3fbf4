package docket_test

import (
	"strings"
	"testing"

	"ethicsbot/docket"
)

// TestReportReferral: a referral to the attorney, once sent, is followed: its case stays
// open, the clerk is asked for the attorney's report at the commission's interval from the
// sending or the last report, until a report closes it with its outcome.
func TestReportReferral(t *testing.T) {
	e := MustEngine(t)
	steps := append(append([]step(nil), closedHearingCase()[:5]...),
		step{"2026-12-10T18:00:00-06:00", docket.Rule{Ruling: docket.JudicialReferral}, docket.StateReferred, ""},
		step{"2026-12-11T08:00:00-06:00", docket.RecordDelivery{Paper: docket.RulingToRespondent}, docket.StateReferred, ""},
		step{"2026-12-11T08:01:00-06:00", docket.RecordDelivery{Paper: docket.RulingToComplainant}, docket.StateReferred, ""},
		step{"2026-12-11T09:00:00-06:00", docket.RecordDelivery{Paper: docket.AdjudicationRequest},
			docket.StateReferred, ""},
	)
	c := apply(t, e, steps)
	if len(c.Referrals) != 1 || c.Referrals[0].Last != mustDate("2026-12-11") {
		t.Fatalf("referrals %+v: the (C)(2) request is followed from its delivery", c.Referrals)
	}
	if c.Closed() {
		t.Error("a referral awaiting its outcome leaves its case closed")
	}
	follow := func(c docket.Case, now string) docket.Deadline {
		for _, d := range e.Schedule(&c.Facts, T(t, now)).Deadlines {
			if d.ID == docket.ReferralFollowUp {
				return d
			}
		}
		t.Fatal("no referral_follow_up deadline")
		return docket.Deadline{}
	}
	// 30 days after Fri 11 Dec 2026 is Sun 10 Jan 2027: rolled to Mon 11 Jan.
	if d := follow(c, "2027-01-12T09:00:00-06:00"); d.Due != mustDate("2027-01-11") || d.Status != docket.Missed ||
		d.Rule != "(C)(2)" {
		t.Errorf("follow-up %+v", d)
	}
	report := docket.ReportReferral{Status: "complaint filed in circuit court"}
	next, _, err := e.Apply(c, report, T(t, "2027-01-12T10:00:00-06:00"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := report.Did(docket.Wording{After: &next}).String(), `the attorney reports on the written request `+
		`to the attorney for judicial adjudication (C)(2): "complaint filed in circuit court"`; got != want {
		t.Errorf("Did %q, want %q", got, want)
	}
	// The next report is asked 30 days after this one: Thu 11 Feb 2027.
	if d := follow(next, "2027-01-12T11:00:00-06:00"); d.Due != mustDate("2027-02-11") || d.Status != docket.Open {
		t.Errorf("follow-up after a report %+v", d)
	}
	if lines := e.ReferralLines(&next); len(lines) != 1 ||
		!strings.Contains(lines[0], `"complaint filed in circuit court"`) ||
		!strings.Contains(lines[0], "next report asked by Thu 2027-02-11") {
		t.Errorf("lines %q", lines)
	}
	done, _, err := e.Apply(next, docket.ReportReferral{Status: "judgment entered", Outcome: "fine of $2,000 ordered"},
		T(t, "2027-03-01T10:00:00-06:00"))
	if err != nil {
		t.Fatal(err)
	}
	if !done.Closed() || follow(done, "2027-03-02T10:00:00-06:00").Status != docket.Met {
		t.Errorf("closed with its outcome, the case is closed %v", done.Closed())
	}
	for _, tc := range []struct {
		name string
		c    docket.Case
		a    docket.ReportReferral
		want string
	}{
		{"ErrClosed", done, docket.ReportReferral{Status: "x"}, "the referral was closed on Mon 2027-03-01"},
		{"ErrNoStatus", next, docket.ReportReferral{}, "status: required"},
		{"ErrNoReferral", apply(t, e, steps[:len(steps)-1]), docket.ReportReferral{Status: "x"},
			"has no referral to the attorney followed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, err := e.Apply(tc.c, tc.a, T(t, "2027-03-02T10:00:00-06:00")); err == nil ||
				!strings.Contains(err.Error(), tc.want) {
				t.Errorf("%v, want %q", err, tc.want)
			}
		})
	}
}
