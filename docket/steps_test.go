package docket_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
)

// TestStepsTable walks the table of steps and fails on a row that lacks what one of its
// consumers needs: the reminders and the digest need its Duty and the command that records
// it, the papers owed and the letters need its papers, the notices need their meetings.
func TestStepsTable(t *testing.T) {
	rows := docket.DefaultOrdinance().Periods()
	placeholder := regexp.MustCompile(`\{[a-z]+\}`)
	seen := map[docket.DeadlineID]bool{}
	paperRow := map[docket.Paper]docket.DeadlineID{}
	meetingRow := map[docket.MeetingKind]docket.DeadlineID{}
	for _, p := range rows {
		t.Run(string(p.ID), func(t *testing.T) {
			switch {
			case p.ID == "" || seen[p.ID]:
				t.Fatalf("row %q: no id, or given twice", p.ID)
			case !strings.HasPrefix(p.Rule, "("):
				t.Errorf("Rule %q is not a subsection of the ordinance such as (C)(1)", p.Rule)
			case p.Duty == "" || p.Trigger == "":
				t.Errorf("the reminders and the docket say its Duty, and its basis its Trigger: Duty %q, Trigger %q",
					p.Duty, p.Trigger)
			case !slices.Contains([]docket.Party{docket.Commission, docket.Respondent, docket.Complainant}, p.Party):
				t.Errorf("Party %q is not one who owes a deadline", p.Party)
			}
			seen[p.ID] = true
			if p.Party != docket.Commission && (len(p.Papers) > 0 || p.Record != "") {
				t.Errorf("the %s's step has papers or a command, but only the commission's steps are recorded "+
					"and reminded", p.Party)
			}
			if p.Unit == docket.Task && len(p.Papers) == 0 {
				t.Errorf("a task without a time limit is met by sending its paper, and it names none")
			}
			if len(p.Papers) > 0 && p.Record != "" {
				t.Errorf("a step met by a paper is recorded by its mailing or delivery, not by Record %q", p.Record)
			}
			for _, pp := range p.Papers {
				if _, ok := pp.Info(); !ok {
					t.Errorf("paper %q is not in the table of papers", pp)
				}
				if other, ok := paperRow[pp]; ok {
					t.Errorf("paper %q meets both %s and %s", pp, other, p.ID)
				}
				paperRow[pp] = p.ID
			}
			if (p.Unit == docket.Hours) != (len(p.Meetings) > 0) {
				t.Errorf("a notice period in hours needs the meetings it gives notice of, and only it: unit %s, meetings %v",
					p.Unit, p.Meetings)
			}
			for _, k := range p.Meetings {
				if other, ok := meetingRow[k]; ok {
					t.Errorf("meeting %q has two notice periods, %s and %s", k, other, p.ID)
				}
				meetingRow[k] = p.ID
				if k.Notice() != p.ID || k.Rule() != p.Rule {
					t.Errorf("meeting %q reads notice %s %s, not its row's", k, k.Notice(), k.Rule())
				}
			}
			if p.Done != nil && p.Due == nil {
				t.Errorf("Done without Due: the row does not schedule itself, so nothing reads it")
			}
			// Engine.ScheduleInto only walks the rows: a step whose row gives no dates is never
			// counted. A row in hours gives the notices of its Meetings instead; (G)'s window
			// is not a step.
			if p.Unit == docket.Hours && p.Due != nil {
				t.Errorf("a row in hours schedules the notices of its meetings; its Due would not be read")
			}
			if p.Unit != docket.Hours && p.Due == nil && p.ID != docket.ElectionPeriod {
				t.Errorf("the row gives no dates (Due), so the schedule never counts it")
			}
			if p.Due != nil && p.Done == nil && len(p.Papers) == 0 {
				t.Errorf("a row without Done is met by sending its paper, and it names none")
			}
			if p.Record != "" && !strings.Contains(p.Record, "{case}") {
				t.Errorf("Record %q does not name the case", p.Record)
			}
			for _, ph := range placeholder.FindAllString(p.Record, -1) {
				if ph != "{case}" && (ph != "{meeting}" || len(p.Meetings) == 0) {
					t.Errorf("Record %q: %s is not filled in for this row", p.Record, ph)
				}
			}
		})
	}
	for _, pi := range docket.Papers() {
		if _, ok := paperRow[pi.Paper]; !ok {
			t.Errorf("paper %s meets no step: the papers owed and the reminders would never ask for it", pi.Paper)
		}
	}
	for _, k := range docket.MeetingKinds {
		if _, ok := meetingRow[k]; !ok {
			t.Errorf("meeting %s has no notice period", k)
		}
	}
}

// TestEveryScheduledStepHasItsCommand runs cases down every path of the procedure and
// checks that each deadline the commission is reminded of has a command to record it,
// and that every row that gives a command is reached by some case.
func TestEveryScheduledStepHasItsCommand(t *testing.T) {
	e := MustEngine(t)
	loc := e.Cal.Location()
	at := func(s string) time.Time {
		tm, err := time.ParseInLocation("2006-01-02 15:04", s, loc)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	d := func(s string) docket.Date { return e.Cal.DateOf(at(s + " 12:00")) }
	meeting := func(s string) docket.Meeting { return docket.Meeting{Start: at(s), Place: "City Hall"} }
	base := func() docket.Facts {
		return docket.Facts{Received: at("2026-12-04 10:00"), Sections: []string{"103.10"}, ViolationDate: d("2026-05-01"),
			Elections: []docket.Date{d("2026-12-20")}, Sufficiency: meeting("2026-12-09 17:00")}
	}
	hearing := base()
	hearing.Ruling = docket.ProbableCause
	hearing.Hearing, hearing.Reconvened = meeting("2026-12-21 10:00"), meeting("2026-12-28 10:00")
	hearing.Sessions = []docket.Meeting{meeting("2026-12-23 10:00")}
	hearing.HearingConcluded, hearing.HearingClosed = d("2026-12-28"), true
	hearing.DecisionIssued, hearing.RecommendationIssued = d("2027-01-04"), d("2027-01-04")
	hearing.DemandReceived, hearing.PublicHearing = d("2027-01-05"), meeting("2027-01-12 18:00")
	hearing.PublicHearingHeld, hearing.FinalRecommendation = d("2027-01-12"), d("2027-01-14")
	dismissed := base()
	dismissed.Ruling, dismissed.FrivolousHearing = docket.Insufficient, meeting("2027-01-06 17:00")
	dismissed.FrivolousFound = d("2027-01-06")
	dismissed.Fines = []docket.FineOwed{{Rule: "(H)", Payer: docket.Complainant, On: d("2027-01-06")}}
	afterHearing := base()
	afterHearing.Ruling, afterHearing.Hearing, afterHearing.HearingConcluded = docket.ProbableCause,
		meeting("2026-12-21 10:00"), d("2026-12-21")
	afterHearing.DecisionIssued, afterHearing.DecisionDismissed = d("2026-12-22"), true
	referred := base()
	referred.Sections = []string{"103.10", "103.05"}
	referred.Ruling, referred.ReferralRuling = docket.JudicialReferral, docket.AttorneyReferral
	referred.ReferralTransmitted = d("2026-12-10")
	referred.Referrals = []docket.Referral{{Paper: docket.ReferralTransmittal, Last: d("2026-12-10")}}
	pending := base()
	pending.Ruling = docket.ProbableCause
	// Notices of a hearing are moot once it is held (Period.Moot): these cases wait for it.
	recessed := base()
	recessed.Ruling, recessed.Hearing, recessed.Reconvened = docket.ProbableCause, meeting("2026-12-21 10:00"),
		meeting("2026-12-28 10:00")
	demanded := hearing
	var never docket.Date
	demanded.PublicHearingHeld, demanded.FinalRecommendation = never, never

	reached := map[docket.DeadlineID]bool{}
	for name, f := range map[string]docket.Facts{"hearing": hearing, "dismissed": dismissed, "after_hearing": afterHearing,
		"referred": referred, "pending": pending,
		"recessed": recessed, "demanded": demanded} {
		if err := e.Validate(&f); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		c := &docket.Case{Number: "2026-001", Facts: f}
		for _, dl := range e.Schedule(&f, time.Time{}).Deadlines {
			reached[dl.ID] = true
			if dl.Period.Party == docket.Commission && c.Command(dl) == "" {
				t.Errorf("%s: deadline %s is reminded with no command to record it", name, dl.ID)
			}
		}
	}
	for _, p := range docket.DefaultOrdinance().Periods() {
		if (len(p.Papers) > 0 || p.Record != "") && !reached[p.ID] {
			t.Errorf("no case reaches %s: add it to a case of this test", p.ID)
		}
	}
}

// TestPaperCommand gives each paper's command from its row in the table of papers: a
// certified paper's mailing with its article number, another's delivery.
func TestPaperCommand(t *testing.T) {
	c := &docket.Case{Number: "2026-001"}
	for _, tc := range []struct {
		p    docket.Paper
		want string
	}{
		{docket.RespondentNoticePaper, "mail 2026-001 respondent <article no.>"},
		{docket.FrivolousFinding, "mail 2026-001 frivolous_finding <article no.>"},
		{docket.ReferralTransmittal, "delivered 2026-001 referral"},
		{docket.Paper("minutes"), ""},
	} {
		if got := c.PaperCommand(tc.p); got != tc.want {
			t.Errorf("PaperCommand(%s) = %q, want %q", tc.p, got, tc.want)
		}
	}
}
