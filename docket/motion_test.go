package docket_test

import (
	"testing"
	"time"

	"ethicsbot/docket"
)

// TestMotionWords: each act of the commission says what was moved in the words of the act,
// as the minutes print it before its roll call, naming a party only once the ordinance has
// made the case public.
func TestMotionWords(t *testing.T) {
	loc, err := time.LoadLocation("America/Chicago")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 9, 23, 20, 0, 0, time.UTC)
	hearing := docket.ScheduleMeeting{Meeting: docket.HearingMeeting, Start: time.Date(2027, 1, 14, 0, 0, 0, 0, time.UTC),
		Place: "City Hall, Room 201"}
	closedHearing := hearing
	closedHearing.Closed, closedHearing.Authority = true, "5 ILCS 120/2(c)(4)"
	parties := docket.Case{Complainant: docket.Person{Name: "John Doe"}, Respondent: docket.Person{Name: "Jane Roe"}}
	confidential := parties
	confidential.State = docket.StateHearingDone
	decided := parties
	decided.State, decided.Decision = docket.StateDecided, &docket.Decision{Fine: 2500}
	dismissed := parties
	dismissed.State = docket.StateDismissed
	both := parties
	both.Sections, both.ReferralSection = []string{"103.10", "103.05"}, "103.05"
	for _, tc := range []struct {
		name string
		act  docket.Voted
		c    docket.Case
		with []docket.Action
		want string
	}{
		{"ProbableCauseAndHearing", docket.Rule{Ruling: docket.ProbableCause}, confidential, []docket.Action{hearing},
			"that the complaint sufficiently alleges a violation, and there is probable cause to proceed (C)(2); hearing " +
				"set for Wed 13 Jan 2027 at 18:00 CST at City Hall, Room 201"},
		{"ClosedHearing", docket.Rule{Ruling: docket.ProbableCause}, confidential, []docket.Action{closedHearing},
			"that the complaint sufficiently alleges a violation, and there is probable cause to proceed (C)(2); hearing " +
				"set for Wed 13 Jan 2027 at 18:00 CST at City Hall, Room 201, closed to the public under 5 ILCS 120/2(c)(4)"},
		{"NoHearingWithADismissal", docket.Rule{Ruling: docket.Insufficient}, dismissed, []docket.Action{hearing},
			"that the complaint does not sufficiently allege a violation, and that the complaint be dismissed (C)(2)"},
		{"NoProbableCause", docket.Rule{Ruling: docket.NoProbableCause}, dismissed, nil,
			"that there is no probable cause to proceed, and that the complaint be dismissed (C)(2)"},
		{"TimeBarred", docket.Rule{Ruling: docket.Insufficient, Ground: docket.GroundTimeBarred}, dismissed, nil,
			"that the complaint be dismissed as time-barred under (I)"},
		{"AttorneyReferral", docket.Rule{Ruling: docket.AttorneyReferral}, confidential, nil,
			"that the complaint sufficiently alleges a violation of §103.05, and it is referred to the attorney designated " +
				"by the corporate authorities (C)(3)"},
		{"BothParts", docket.Rule{Ruling: docket.Insufficient, ReferralRuling: docket.AttorneyReferral}, both, nil,
			"that, on the §103.10 part, the complaint does not sufficiently allege a violation, and that this part be " +
				"dismissed (C)(2); and on the §103.05 part, the complaint sufficiently alleges a violation of §103.05, and it " +
				"is referred to the attorney designated by the corporate authorities (C)(3)"},
		{"FineAndReprimand", docket.Decide{Recommendation: "Written reprimand", Fine: 2500, Intentional: true,
			Findings: "Used the city's\nemail."}, decided, nil,
			`that a fine of $2,500 be imposed on Jane Roe for an intentional violation (H) and the discipline "Written ` +
				`reprimand" be recommended to the officer with authority to discipline (E)(2); findings: "Used the city's email."`},
		// A motion that failed leaves the case confidential: it names no party, and quotes
		// none of the texts it proposed.
		{"FailedDecisionBeforeTheCaseIsPublic", docket.Decide{Fine: 2500, Intentional: true,
			Recommendation: "Jane Roe be suspended", Findings: "Jane Roe did it."}, confidential, nil,
			"that a fine of $2,500 be imposed on the respondent for an intentional violation (H) and the discipline " +
				"proposed be recommended to the officer with authority to discipline (E)(2), on the findings proposed"},
		{"FailedDismissalBeforeTheCaseIsPublic", docket.Decide{Dismiss: true, Findings: "Jane Roe did not."},
			confidential, nil, "that the complaint be dismissed (E)(1)"},
		{"Dismissal", docket.Decide{Dismiss: true, Findings: "No violation."}, dismissed, nil,
			`that the complaint be dismissed (E)(1); findings: "No violation."`},
		{"Final", docket.IssueFinal{Text: "Reprimand affirmed.", Fine: 2500, Intentional: true}, decided, nil,
			`that the final recommendation "Reprimand affirmed." be issued publicly to Jane Roe and to the officer with ` +
				`authority to discipline, and a fine of $2,500 be imposed on Jane Roe for an intentional violation (H) (F)`},
		{"Frivolous", docket.FindFrivolous{Fine: 1500, Knowingly: true, Findings: "Knew it false."}, dismissed, nil,
			`that John Doe knowingly filed a frivolous complaint, and a fine of $1,500 be imposed under (H); findings: ` +
				`"Knew it false."`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.c
			got := tc.act.Motion(docket.Wording{Loc: loc, Ord: docket.DefaultOrdinance(), At: at, After: &c, With: tc.with})
			if got.String() != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}
