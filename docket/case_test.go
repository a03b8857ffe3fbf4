package docket_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
)

// step is one action taken at one instant.
type step struct {
	at     string
	action docket.Action
	state  docket.State
	warn   string // a warning that must be given, by rule
}

// apply runs steps from a fresh case, failing on any refusal.
func apply(t *testing.T, e *docket.Engine, steps []step) docket.Case {
	t.Helper()
	var c docket.Case
	for i, s := range steps {
		next, warnings, err := e.Apply(c, s.action, T(t, s.at))
		if err != nil {
			t.Fatalf("step %d %s: %v", i, s.action.Kind(), err)
		}
		if next.State != s.state {
			t.Fatalf("step %d %s: state %s, want %s", i, s.action.Kind(), next.State, s.state)
		}
		if s.warn != "" && !hasWarning(warnings, s.warn) {
			t.Errorf("step %d %s: warnings %v, want one under %s", i, s.action.Kind(), warnings, s.warn)
		}
		if s.warn == "" && len(warnings) > 0 {
			t.Errorf("step %d %s: unexpected warnings %v", i, s.action.Kind(), warnings)
		}
		c = next
	}
	return c
}

func hasWarning(ws []docket.Warning, rule string) bool {
	for _, w := range ws {
		if w.Rule == rule {
			return true
		}
	}
	return false
}

var filing = docket.File{
	Complainant: docket.Person{Name: "John Doe"},
	Respondent:  docket.Person{Name: "Jane Roe", SlackID: "U024BE7LH"},
	Sections:    []string{"103.10"},
	Received:    time.Date(2026, 12, 4, 10, 0, 0, 0, time.FixedZone("CST", -6*3600)),
	Summary:     "Used city email to campaign.",
}

// closedHearingCase walks a case from filing to a final recommendation after a closed
// hearing, the longest path through the ordinance.
func closedHearingCase() []step {
	return []step{
		{"2026-12-04T10:00:00-06:00", filing, docket.StateReceived, ""},
		{"2026-12-04T11:00:00-06:00",
			docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: mustTime("2026-12-10T17:00:00-06:00"),
				Place: "City Hall, Room 201"}, docket.StateReceived, ""},
		{"2026-12-04T11:05:00-06:00", docket.PostNotice{Meeting: docket.SufficiencyMeeting}, docket.StateReceived, ""},
		{"2026-12-07T09:00:00-06:00",
			docket.RecordMailing{Recipient: docket.Respondent, Article: "9407 1118 9876 5432 1016 34"},
			docket.StateReceived, ""},
		{"2026-12-07T09:05:00-06:00", docket.RecordMailing{Recipient: docket.Complainant, Article: "94071118987654321613"},
			docket.StateNoticesSent, ""},
		{"2026-12-09T09:00:00-06:00", docket.RecordReturnReceipt{Article: "9407111898765432101634", Signer: "Jane Roe"},
			docket.StateNoticesSent, ""},
		{"2026-12-10T18:00:00-06:00", docket.Rule{Ruling: docket.ProbableCause}, docket.StateHearingPending, ""},
		{"2026-12-11T09:00:00-06:00",
			docket.ScheduleMeeting{Meeting: docket.HearingMeeting, Start: mustTime("2026-12-21T10:00:00-06:00"),
				Place: "City Hall, Room 201", Closed: true, Authority: "5 ILCS 120/2(c)(1)"}, docket.StateHearingSet, "(D)"},
		{"2026-12-11T09:30:00-06:00", docket.PostNotice{Meeting: docket.HearingMeeting}, docket.StateHearingSet, ""},
		{"2026-12-21T16:00:00-06:00", docket.RecessHearing{}, docket.StateHearingRecessed, ""},
		{"2026-12-21T16:05:00-06:00",
			docket.ScheduleMeeting{Meeting: docket.RecessedHearing, Start: mustTime("2026-12-28T10:00:00-06:00"),
				Place: "City Hall, Room 201"}, docket.StateHearingSet, "(D)"},
		{"2026-12-22T09:00:00-06:00",
			docket.PostNotice{Meeting: docket.RecessedHearing, Posted: mustTime("2026-12-21T17:00:00-06:00")},
			docket.StateHearingSet, ""},
		{"2026-12-28T15:00:00-06:00", docket.ConcludeHearing{}, docket.StateHearingDone, ""},
		{"2027-01-05T10:00:00-06:00",
			docket.Decide{Findings: "Violated §103.10.", Recommendation: "Written reprimand.", Fine: 1500, Intentional: true},
			docket.StateDecided, ""},
		{"2027-01-12T10:00:00-06:00", docket.DemandPublicHearing{}, docket.StateDemanded, ""},
		{"2027-01-13T10:00:00-06:00",
			docket.ScheduleMeeting{Meeting: docket.PublicHearing, Start: mustTime("2027-01-19T18:00:00-06:00"),
				Place: "Council Chambers"}, docket.StatePublicSet, "(F)"},
		{"2027-01-13T10:30:00-06:00", docket.PostNotice{Meeting: docket.PublicHearing}, docket.StatePublicSet, ""},
		{"2027-01-19T21:00:00-06:00", docket.HoldPublicHearing{}, docket.StatePublicHeld, ""},
		{"2027-01-22T10:00:00-06:00", docket.IssueFinal{Text: "Reprimand and fine affirmed.", Fine: 1500, Intentional: true},
			docket.StateFinal, ""},
		// The papers, recorded late with the days they went out.
		{"2027-01-22T11:00:00-06:00",
			docket.RecordMailing{Paper: docket.RulingToRespondent, Article: "94071118987654321255",
				Mailed: mustDate("2026-12-11")}, docket.StateFinal, ""},
		{"2027-01-22T11:05:00-06:00", docket.RecordDelivery{Paper: docket.RulingToComplainant, On: mustDate("2026-12-14")},
			docket.StateFinal, ""},
		{"2027-01-22T11:10:00-06:00", docket.RecordDelivery{Paper: docket.RecommendationToResp}, docket.StateFinal, ""},
		{"2027-01-22T11:15:00-06:00", docket.RecordDelivery{Paper: docket.RecommendationToOfficer}, docket.StateFinal, ""},
		{"2027-01-22T11:20:00-06:00", docket.RecordDelivery{Paper: docket.FinalToRespondent}, docket.StateFinal, ""},
		{"2027-01-22T11:25:00-06:00", docket.RecordDelivery{Paper: docket.FinalToOfficer}, docket.StateFinal, ""},
		// (D), (F): the parties told of the recessed session and of the public hearing, and
		// the demand acknowledged.
		{"2027-01-22T11:30:00-06:00", docket.RecordDelivery{Paper: docket.RecessedToRespondent, On: mustDate("2026-12-21")},
			docket.StateFinal, ""},
		{"2027-01-22T11:35:00-06:00", docket.RecordDelivery{Paper: docket.RecessedToComplainant, On: mustDate("2026-12-21")},
			docket.StateFinal, ""},
		{"2027-01-22T11:40:00-06:00", docket.RecordDelivery{Paper: docket.DemandAcknowledgement, On: mustDate("2027-01-12")},
			docket.StateFinal, ""},
		{"2027-01-22T11:45:00-06:00", docket.RecordDelivery{Paper: docket.PublicHearingToResp, On: mustDate("2027-01-13")},
			docket.StateFinal, ""},
		{"2027-01-22T11:50:00-06:00", docket.RecordDelivery{Paper: docket.PublicHearingToComp, On: mustDate("2027-01-13")},
			docket.StateFinal, ""},
		// The final recommendation's fine, paid: the case owes nothing more.
		{"2027-01-22T11:55:00-06:00", docket.SettleFine{Payer: docket.Respondent, How: docket.FinePaid, Amount: 1500,
			Receipt: "R-0042"}, docket.StateFinal, ""},
	}
}

func mustDate(s string) docket.Date {
	d, err := docket.ParseDate(s)
	if err != nil {
		panic(err)
	}
	return d
}

func mustTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestLifecycleClosedHearingToFinal(t *testing.T) {
	e := MustEngine(t)
	steps := closedHearingCase()
	c := apply(t, e, steps)

	if !c.HearingClosed {
		t.Error("a closed first session makes the hearing closed under (F)")
	}
	if c.EnforcementStayed() {
		t.Error("enforcement is still stayed after the final recommendation")
	}
	if c.Mailings[0].Article != "9407111898765432101634" || c.Mailings[0].Returned.String() != "2026-12-09" ||
		c.Mailings[0].Satisfies != "(B)" {
		t.Errorf("mailing %+v", c.Mailings[0])
	}
	s := e.Schedule(&c.Facts, T(t, "2027-01-22T12:00:00-06:00"))
	want := map[docket.DeadlineID]docket.Status{
		docket.RespondentNotice: docket.Met, docket.ComplainantConfirmation: docket.Met,
		docket.SufficiencyRuling: docket.Met, docket.SufficiencyMeetingNotice: docket.Met,
		docket.HearingBy: docket.Met, docket.HearingNotice: docket.Met, docket.DecisionDue: docket.Met,
		docket.PublicHearingDemand: docket.Met, docket.PublicHearingBy: docket.Met,
		docket.PublicHearingNotice: docket.Met, docket.FinalRecommendationDue: docket.Met,
		docket.RulingNoticeRespondent: docket.Met, docket.RulingNoticeComplainant: docket.Met,
		docket.RecommendationRespondentTask: docket.Met, docket.RecommendationOfficerTask: docket.Met,
		docket.FinalRespondentTask: docket.Met, docket.FinalOfficerTask: docket.Met,
		docket.RecessedRespondentTask: docket.Met, docket.RecessedComplainantTask: docket.Met,
		docket.DemandAcknowledgementTask:   docket.Met,
		docket.PublicHearingRespondentTask: docket.Met, docket.PublicHearingComplainantTask: docket.Met,
		docket.FinePayment: docket.Met,
	}
	for _, d := range s.Deadlines {
		if st, ok := want[d.ID]; !ok || d.Status != st {
			t.Errorf("%s is %s, want %s (%s)", d.ID, d.Status, st, d.Basis())
		}
	}
	// (D): the first session's notice keeps its own deadline after the recess.
	var sessions []string
	for _, d := range s.Deadlines {
		if d.ID == docket.HearingNotice {
			sessions = append(sessions, d.Meeting.Format("2006-01-02"))
		}
	}
	if got := strings.Join(sessions, ","); got != "2026-12-21,2026-12-28" {
		t.Errorf("hearing notices for sessions %s, want both sessions", got)
	}

	t.Run("StayedWhileDemandPending", func(t *testing.T) {
		c := apply(t, e, steps[:15])
		if !c.EnforcementStayed() {
			t.Error("a pending demand must stay enforcement (F)")
		}
	})
	t.Run("ReplayFromTheLog", func(t *testing.T) {
		// The store keeps each action as kind + JSON; reading them back gives the same case.
		var replayed docket.Case
		for _, s := range steps {
			b, err := json.Marshal(s.action)
			if err != nil {
				t.Fatal(err)
			}
			a, err := docket.DecodeAction(s.action.Kind(), b)
			if err != nil {
				t.Fatal(err)
			}
			if replayed, _, err = e.Apply(replayed, a, T(t, s.at)); err != nil {
				t.Fatalf("replaying %s: %v", s.action.Kind(), err)
			}
		}
		a, _ := json.Marshal(c)
		b, _ := json.Marshal(replayed)
		if string(a) != string(b) {
			t.Errorf("replayed case differs:\n%s\n%s", a, b)
		}
	})
}

func TestLifecycleOtherPaths(t *testing.T) {
	e := MustEngine(t)
	start := closedHearingCase()[:5] // filed, meeting scheduled, notices sent
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"DismissedInsufficient", []step{
			{"2026-12-10T18:00:00-06:00", docket.Rule{Ruling: docket.Insufficient}, docket.StateDismissed, ""},
			{"2026-12-11T09:00:00-06:00", docket.RecordMailing{Recipient: docket.Respondent, Article: "94071118987654321699"},
				docket.StateDismissed, ""},
			// (H): the complainant is heard first, at a meeting noticed 48 hours ahead, of
			// which the complainant has certified notice.
			{"2027-01-04T09:00:00-06:00",
				docket.ScheduleMeeting{Meeting: docket.FrivolousMeeting, Start: mustTime("2027-01-13T17:00:00-06:00"),
					Place: "City Hall"}, docket.StateDismissed, ""},
			{"2027-01-04T09:05:00-06:00", docket.PostNotice{Meeting: docket.FrivolousMeeting}, docket.StateDismissed, ""},
			{"2027-01-04T09:10:00-06:00", docket.RecordMailing{Paper: docket.FrivolousNotice, Article: "94071118987654321798"},
				docket.StateDismissed, ""},
			{"2027-01-13T19:00:00-06:00", docket.FindFrivolous{Findings: "Knowingly false.", Fine: 1001, Knowingly: true},
				docket.StateDismissed, ""},
		}},
		{"JudicialReferral", []step{
			{"2026-12-10T18:00:00-06:00", docket.Rule{Ruling: docket.JudicialReferral}, docket.StateReferred, ""},
		}},
		{"DismissedAfterOpenHearing", []step{
			{"2026-12-10T18:00:00-06:00", docket.Rule{Ruling: docket.ProbableCause}, docket.StateHearingPending, ""},
			{"2026-12-11T09:00:00-06:00",
				docket.ScheduleMeeting{Meeting: docket.HearingMeeting, Start: mustTime("2027-01-08T10:00:00-06:00"),
					Place: "City Hall"}, docket.StateHearingSet, "(C)(2)"},
			{"2026-12-11T09:05:00-06:00", docket.PostNotice{Meeting: docket.HearingMeeting}, docket.StateHearingSet, ""},
			{"2027-01-08T15:00:00-06:00", docket.ConcludeHearing{}, docket.StateHearingDone, ""},
			{"2027-01-09T15:00:00-06:00", docket.Decide{Dismiss: true, Findings: "No violation."}, docket.StateDismissed, ""},
		}},
		{"RescheduleAndCancel", []step{
			{"2026-12-10T18:00:00-06:00", docket.Rule{Ruling: docket.ProbableCause}, docket.StateHearingPending, ""},
			{"2026-12-11T09:00:00-06:00",
				docket.ScheduleMeeting{Meeting: docket.HearingMeeting, Start: mustTime("2026-12-21T10:00:00-06:00"),
					Place: "City Hall"}, docket.StateHearingSet, "(D)"},
			{"2026-12-14T09:00:00-06:00",
				docket.ScheduleMeeting{Meeting: docket.HearingMeeting, Start: mustTime("2026-12-22T10:00:00-06:00"),
					Place: "Library"}, docket.StateHearingSet, "(D)"},
			{"2026-12-15T09:00:00-06:00", docket.CancelMeeting{Meeting: docket.HearingMeeting, Reason: "quorum"},
				docket.StateHearingPending, ""},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := apply(t, e, append(append([]step(nil), start...), tc.steps...))
			if tc.name == "DismissedInsufficient" {
				if _, _, err := e.Apply(c, docket.FindFrivolous{Findings: "Knowingly false.", Fine: 1001},
					T(t, "2027-01-12T09:00:00-06:00")); err == nil || !strings.Contains(err.Error(), "(H)") {
					t.Errorf("a frivolous finding with a fine but without knowingly=yes: %v, want refused under (H)", err)
				}
				if !c.Public() || c.Frivolous == nil || c.Mailings[2].Satisfies != "(C)(2)" ||
					c.Mailings[2].Paper != docket.DismissalToRespondent {
					t.Errorf("dismissal: public %v, frivolous %+v, mailing %+v", c.Public(), c.Frivolous, c.Mailings[2])
				}
			}
			if tc.name == "JudicialReferral" && c.Public() {
				t.Error("a referral is not made public by the ordinance")
			}
		})
	}
	t.Run("FilingWarnings", func(t *testing.T) {
		f := filing
		f.ViolationDate = D(t, "2025-11-30")
		f.Elections = []docket.Date{D(t, "2027-02-23")}
		f.Received = T(t, "2026-12-28T10:00:00-06:00")
		_, ws, err := e.Apply(docket.Case{}, f, f.Received)
		if err != nil {
			t.Fatal(err)
		}
		if !hasWarning(ws, "(I)") || !hasWarning(ws, "(G)") {
			t.Errorf("warnings %v, want time-barred (I) and expedited (G)", ws)
		}
	})
	t.Run("RescheduledAfterNoticesNeedsThemAgain", func(t *testing.T) {
		// The notices mailed give the old meeting: scheduling warns, and the ruling at the
		// new meeting is refused under (B) until both parties are told of it again.
		c := apply(t, e, append(append([]step(nil), start...),
			step{"2026-12-07T10:00:00-06:00",
				docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: mustTime("2026-12-14T17:00:00-06:00"),
					Place: "Library"}, docket.StateNoticesSent, "(B)"},
			step{"2026-12-07T10:05:00-06:00", docket.PostNotice{Meeting: docket.SufficiencyMeeting},
				docket.StateNoticesSent, ""},
		))
		_, _, err := e.Apply(c, docket.Rule{Ruling: docket.Insufficient}, T(t, "2026-12-14T18:00:00-06:00"))
		if de, ok := err.(*docket.Error); !ok || de.Rule != "(B)" ||
			!strings.Contains(de.Message, "respondent and the complainant") {
			t.Fatalf("ruling before the new (B) notices = %v, want a (B) refusal naming both parties", err)
		}
		apply(t, e, append(append([]step(nil), start...),
			step{"2026-12-07T10:00:00-06:00",
				docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: mustTime("2026-12-14T17:00:00-06:00"),
					Place: "Library"}, docket.StateNoticesSent, "(B)"},
			step{"2026-12-07T10:05:00-06:00", docket.PostNotice{Meeting: docket.SufficiencyMeeting},
				docket.StateNoticesSent, ""},
			step{"2026-12-08T09:00:00-06:00",
				docket.RecordMailing{Recipient: docket.Respondent, Article: "94071118987654321620"}, docket.StateNoticesSent, ""},
			step{"2026-12-08T09:05:00-06:00",
				docket.RecordMailing{Recipient: docket.Complainant, Article: "94071118987654321521"}, docket.StateNoticesSent, ""},
			step{"2026-12-14T18:00:00-06:00", docket.Rule{Ruling: docket.Insufficient}, docket.StateDismissed, ""},
		))
	})
	t.Run("PointerActions", func(t *testing.T) {
		f := filing
		c, _, err := e.Apply(docket.Case{}, &f, f.Received)
		if err != nil || c.State != docket.StateReceived {
			t.Fatalf("Apply(&File) = %v, %v", c.State, err)
		}
		if _, _, err := e.Apply(c, (*docket.RecessHearing)(nil), f.Received); docket.ErrorCode(err) != docket.EINVALID {
			t.Errorf("Apply(nil pointer) = %v, want an invalid-input error", err)
		}
		if _, _, err := e.Apply(c, nil, f.Received); docket.ErrorCode(err) != docket.EINVALID {
			t.Errorf("Apply(nil) = %v", err)
		}
	})
	t.Run("SufficiencyMeetingAfterRulingDeadline", func(t *testing.T) {
		apply(t, e, []step{
			start[0],
			{"2026-12-04T11:00:00-06:00",
				docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: mustTime("2026-12-16T17:00:00-06:00"),
					Place: "City Hall"}, docket.StateReceived, "(C)(1)"},
		})
	})
}

// TestRefusals: each refusal names its rule, and leaves the case exactly as it was.
func TestRefusals(t *testing.T) {
	e := MustEngine(t)
	all := closedHearingCase()
	at := func(n int) docket.Case { return apply(t, e, all[:n]) }
	for _, tc := range []struct {
		name   string
		before int // steps applied first
		at     string
		action docket.Action
		rule   string
		text   string
	}{
		{"ErrMeetingUnder48Hours", 1, "2026-12-04T11:00:00-06:00",
			docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: mustTime("2026-12-06T10:00:00-06:00"),
				Place: "City Hall"}, "(C)(1)", "earliest lawful start is Sun 6 Dec 2026 11:00 CST"},
		{"ErrMeetingNoPlace", 1, "2026-12-04T11:00:00-06:00",
			docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: mustTime("2026-12-10T10:00:00-06:00")}, "(C)(1)",
			"place: required"},
		{"ErrClosedWithoutAuthority", 1, "2026-12-04T11:00:00-06:00",
			docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: mustTime("2026-12-10T10:00:00-06:00"),
				Place: "City Hall", Closed: true}, "(C)(1)", "Open Meetings Act"},
		{"ErrMailBeforeMeetingScheduled", 1, "2026-12-04T11:00:00-06:00",
			docket.RecordMailing{Recipient: docket.Respondent, Article: "94071118987654321613"}, "(B)",
			"schedule that meeting first"},
		{"ErrBadArticle", 2, "2026-12-04T12:00:00-06:00",
			docket.RecordMailing{Recipient: docket.Respondent, Article: "9407-1118"}, "(B)", "20 or 22 digits"},
		{"ErrDuplicateArticle", 4, "2026-12-07T10:00:00-06:00",
			docket.RecordMailing{Recipient: docket.Complainant, Article: "9407111898765432101634"}, "(B)", "already recorded"},
		{"ErrReceiptForUnknownArticle", 4, "2026-12-07T10:00:00-06:00",
			docket.RecordReturnReceipt{Article: "94071118987654321200"}, "", "record the mailing first"},
		{"ErrRulingBeforeMeeting", 5, "2026-12-09T10:00:00-06:00", docket.Rule{Ruling: docket.Insufficient}, "(C)(1)",
			"rules at its sufficiency meeting"},
		{"ErrRulingWrongSection", 5, "2026-12-10T18:00:00-06:00", docket.Rule{Ruling: docket.AttorneyReferral},
			"(C)(3)", "103.05"},
		{"ErrHearingBeforeRuling", 5, "2026-12-10T10:00:00-06:00",
			docket.ScheduleMeeting{Meeting: docket.HearingMeeting, Start: mustTime("2026-12-21T10:00:00-06:00"),
				Place: "City Hall"}, "(C)(2)", "follows a ruling of probable cause"},
		{"ErrDecisionBeforeHearingConcluded", 8, "2026-12-22T10:00:00-06:00", docket.Decide{Recommendation: "Reprimand."},
			"(E)", "follows the conclusion of the hearing"},
		{"ErrConcludeBeforeHearingBegins", 8, "2026-12-20T10:00:00-06:00", docket.ConcludeHearing{}, "(E)", "has not begun"},
		{"ErrFineTooLow", 13, "2027-01-05T10:00:00-06:00", docket.Decide{Fine: 1000}, "(H)", "$1,001 to $5,000"},
		{"ErrFineTooHigh", 13, "2027-01-05T10:00:00-06:00", docket.Decide{Fine: 5001}, "(H)", "$1,001 to $5,000"},
		{"ErrEmptyDecision", 13, "2027-01-05T10:00:00-06:00", docket.Decide{}, "(E)", "dismiss"},
		{"ErrDismissWithFine", 13, "2027-01-05T10:00:00-06:00", docket.Decide{Dismiss: true, Fine: 2000}, "(E)",
			"carries no"},
		{"ErrDemandAfterWindow", 14, "2027-01-15T10:00:00-06:00", docket.DemandPublicHearing{}, "(F)",
			"after the window closed on Thu 2027-01-14"},
		{"ErrClosedPublicHearing", 15, "2027-01-13T10:00:00-06:00",
			docket.ScheduleMeeting{Meeting: docket.PublicHearing, Start: mustTime("2027-01-19T18:00:00-06:00"),
				Place: "Council Chambers", Closed: true, Authority: "x"}, "(F)", "cannot be closed"},
		{"ErrFineWithoutIntent", 13, "2027-01-05T10:00:00-06:00", docket.Decide{Recommendation: "Reprimand.", Fine: 2000},
			"(H)", "intentionally violates"},
		{"ErrFinalBeforePublicHearing", 17, "2027-01-18T10:00:00-06:00", docket.IssueFinal{Text: "x"}, "(F)",
			"follows the public hearing"},
		{"ErrFrivolousNotDismissed", 13, "2027-01-05T10:00:00-06:00", docket.FindFrivolous{Findings: "x", Fine: 2000}, "(H)",
			"only a dismissed complaint"},
		{"ErrFutureDate", 13, "2027-01-05T10:00:00-06:00",
			docket.Decide{Recommendation: "Reprimand.", On: D(t, "2027-01-06")}, "(E)", "in the future"},
		{"ErrFileTwice", 1, "2026-12-04T11:00:00-06:00", filing, "(A)", "already filed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := at(tc.before)
			before, _ := json.Marshal(c)
			_, _, err := e.Apply(c, tc.action, T(t, tc.at))
			de, ok := err.(*docket.Error)
			if !ok {
				t.Fatalf("Apply = %v, want a *docket.Error", err)
			}
			if de.Rule != tc.rule || !strings.Contains(de.Error(), tc.text) {
				t.Errorf("error %q (rule %q), want rule %q and %q", de, de.Rule, tc.rule, tc.text)
			}
			if after, _ := json.Marshal(c); string(after) != string(before) {
				t.Errorf("a refused action changed the case:\n%s\n%s", before, after)
			}
		})
	}
	t.Run("ErrNoSuchCase", func(t *testing.T) {
		_, _, err := e.Apply(docket.Case{}, docket.Rule{Ruling: docket.Insufficient}, T(t, "2026-12-04T10:00:00-06:00"))
		if docket.ErrorCode(err) != docket.ENOTFOUND {
			t.Errorf("err %v, want not found", err)
		}
	})
}

func TestFilingInputChecks(t *testing.T) {
	e := MustEngine(t)
	now := T(t, "2026-12-04T10:00:00-06:00")
	for name, mutate := range map[string]func(f *docket.File){
		"ErrNoRespondent":     func(f *docket.File) { f.Respondent.Name = "  " },
		"ErrNoSummary":        func(f *docket.File) { f.Summary = "" },
		"ErrHugeSummary":      func(f *docket.File) { f.Summary = strings.Repeat("x", 10000) },
		"ErrInvalidUTF8":      func(f *docket.File) { f.Complainant.Name = "Jo\xffhn" },
		"ErrControlCharacter": func(f *docket.File) { f.Respondent.Name = "Jane\x00Roe" },
		"ErrBadSlackID":       func(f *docket.File) { f.Respondent.SlackID = "jane" },
		"ErrNoSection":        func(f *docket.File) { f.Sections = nil },
		"ErrUnknownSection":   func(f *docket.File) { f.Sections = []string{"103.99"} },
		"ErrFutureReceipt":    func(f *docket.File) { f.Received = now.Add(time.Hour) },
		"ErrViolationLater":   func(f *docket.File) { f.ViolationDate = D(t, "2026-12-05") },
	} {
		t.Run(name, func(t *testing.T) {
			f := filing
			f.Received = now
			mutate(&f)
			if _, _, err := e.Apply(docket.Case{}, f, now); docket.ErrorCode(err) != docket.EINVALID {
				t.Errorf("Apply = %v, want an invalid-input error", err)
			}
		})
	}
	t.Run("SQLMetacharactersAreJustText", func(t *testing.T) {
		f := filing
		f.Respondent.Name = `Robert'); DROP TABLE cases;--`
		c, _, err := e.Apply(docket.Case{}, f, filing.Received)
		if err != nil || c.Respondent.Name != f.Respondent.Name {
			t.Errorf("Apply = %v, %q", err, c.Respondent.Name)
		}
	})
}

func TestDecodeActionRejectsUnknown(t *testing.T) {
	if _, err := docket.DecodeAction("bribe", []byte(`{}`)); err == nil {
		t.Error("unknown kind accepted")
	}
	if _, err := docket.DecodeAction("rule", []byte(`{"ruling": 3}`)); err == nil {
		t.Error("bad payload accepted")
	}
	a, err := docket.DecodeAction("rule", []byte(`{"ruling": "insufficient", "on": "2026-12-10"}`))
	if err != nil || !reflect.DeepEqual(a, docket.Rule{Ruling: docket.Insufficient, On: mustDate("2026-12-10")}) {
		t.Errorf("DecodeAction = %#v, %v", a, err)
	}
}
