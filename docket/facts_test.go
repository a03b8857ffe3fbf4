package docket_test

import (
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
)

func TestDecodeInput(t *testing.T) {
	in, err := docket.DecodeInput(strings.NewReader(`{
		"received": "2026-12-04T10:00:00-06:00", "violation_date": "2025-12-05",
		"section": ["103.10", "103.05"], "elections": ["2027-02-23"], "extra_holidays": ["2026-11-27"],
		"sufficiency_meeting": "2026-12-10T17:00:00-06:00", "sufficiency_meeting_notice_posted": "2026-12-07T09:00:00-06:00",
		"ruling": "probable_cause", "hearing": "2026-12-28T10:00:00-06:00", "hearing_concluded": "2026-12-29",
		"hearing_closed": true, "recommendation_issued": "2027-01-05", "as_of": "2027-01-06T00:00:00Z"}`))
	if err != nil {
		t.Fatal(err)
	}
	f := in.Facts
	if got := f.Received.Format(time.RFC3339); got != "2026-12-04T10:00:00-06:00" {
		t.Errorf("received %s", got)
	}
	if len(f.Sections) != 2 || f.Ruling != docket.ProbableCause || !f.HearingClosed {
		t.Errorf("facts %+v", f)
	}
	if f.DecisionIssued != D(t, "2027-01-05") {
		t.Errorf("a recommendation is an (E) decision: decision_issued %s", f.DecisionIssued)
	}
	if len(in.ExtraHolidays) != 1 || in.ExtraHolidays[0] != D(t, "2026-11-27") {
		t.Errorf("extra holidays %v", in.ExtraHolidays)
	}
	if in.AsOf.IsZero() || !f.Sufficiency.NoticePosted.Equal(T(t, "2026-12-07T09:00:00-06:00")) {
		t.Errorf("as_of %v, notice %v", in.AsOf, f.Sufficiency.NoticePosted)
	}

	// An offset without seconds is an instant: November's repeated hour, read each way.
	for _, tc := range []struct{ in, want string }{
		{"2027-11-07T01:30-05:00", "2027-11-07T06:30:00Z"},
		{"2027-11-07T01:30-06:00", "2027-11-07T07:30:00Z"},
	} {
		in, err := docket.DecodeInput(strings.NewReader(`{"received": "` + tc.in + `"}`))
		if err != nil || in.Facts.Received.UTC().Format(time.RFC3339) != tc.want {
			t.Errorf("received %s: %v, %v; want %s", tc.in, in.Facts.Received.UTC(), err, tc.want)
		}
	}

	for _, tc := range []struct{ name, json, field string }{
		{"ErrEmpty", ``, "input"},
		{"ErrReceivedNoOffsetNoSeconds", `{"received": "2027-11-07T01:30"}`, "received"},
		{"ErrNotJSON", `received: 2026-12-04`, "input"},
		{"ErrArray", `[]`, "input"},
		{"ErrTwoObjects", `{"received": "2026-12-04T10:00:00-06:00"} {}`, "input"},
		{"ErrMissingReceived", `{}`, "received"},
		{"ErrReceivedNoOffset", `{"received": "2026-12-04T10:00:00"}`, "received"},
		{"ErrReceivedDateOnly", `{"received": "2026-12-04"}`, "received"},
		{"ErrReceivedNumber", `{"received": 20261204}`, "received"},
		{"ErrImpossibleDate", `{"received": "2026-12-04T10:00:00-06:00", "violation_date": "2026-02-30"}`, "violation_date"},
		{"ErrImpossibleInstant", `{"received": "2026-02-30T10:00:00-06:00"}`, "received"},
		{"ErrYear", `{"received": "0001-01-01T00:00:00Z"}`, "received"},
		{"ErrUnknownField", `{"received": "2026-12-04T10:00:00-06:00", "recieved": "x"}`, "recieved"},
		{"ErrHearingClosedString", `{"received": "2026-12-04T10:00:00-06:00", "hearing_closed": "yes"}`, "hearing_closed"},
		{"ErrSectionNumber", `{"received": "2026-12-04T10:00:00-06:00", "section": 103.10}`, "section"},
		{"ErrSectionEmptyList", `{"received": "2026-12-04T10:00:00-06:00", "section": []}`, "section"},
		{"ErrElectionEmpty", `{"received": "2026-12-04T10:00:00-06:00", "elections": [""]}`, "elections"},
		{"ErrWrongCase", `{"RECEIVED": "2026-12-04T10:00:00-06:00"}`, "RECEIVED"},
		{"ErrDuplicate", `{"received": "2026-12-04T10:00:00-06:00", "received": "2026-12-05T10:00:00-06:00"}`, "received"},
		{"ErrTruncated", `{"received": "2026-12-04T10:00:00-06:00"`, "input"},
		{"ErrDemandAfterOpenHearing",
			`{"received": "2026-12-04T10:00:00-06:00", "hearing_closed": false, "demand_received": "2026-12-20"}`,
			"demand_received"},
		{"ErrNoticeWithoutMeeting",
			`{"received": "2026-12-04T10:00:00-06:00", "hearing_notice_posted": "2026-12-04T10:00:00-06:00"}`,
			"hearing_notice_posted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := docket.DecodeInput(strings.NewReader(tc.json))
			de, ok := err.(*docket.Error)
			if !ok {
				t.Fatalf("DecodeInput = %v, want a *docket.Error", err)
			}
			if de.Field != tc.field {
				t.Errorf("error %q names field %q, want %q", de, de.Field, tc.field)
			}
			if strings.Contains(de.Error(), "\n") {
				t.Errorf("error %q is not one line", de)
			}
		})
	}
	t.Run("ErrTooLarge", func(t *testing.T) {
		big := `{"received": "2026-12-04T10:00:00-06:00", "elections": [` + strings.Repeat(`"2027-02-23",`,
			100000) + `"2027-02-23"]}`
		if _, err := docket.DecodeInput(strings.NewReader(big)); err == nil {
			t.Fatal("accepted a 1.3 MB input")
		}
	})
}

// FuzzDecodeInput: no input makes decoding, validating or scheduling panic, and whatever
// decodes and validates yields deadlines that all have a due date or instant.
func FuzzDecodeInput(f *testing.F) {
	for _, seed := range []string{
		`{"received": "2026-12-04T10:00:00-06:00", "section": "103.10", "ruling": "probable_cause"}`,
		`{"received": "2026-12-25T12:00:00-06:00", "elections": ["2027-02-23"], "violation_date": "2024-02-29"}`,
		`{"received": "2026-12-04T10:00:00-06:00", "section": "103.10", "ruling": "probable_cause", "hearing": "2026-12-28T10:00:00-06:00", "hearing_concluded": "2026-12-29", "hearing_closed": true, "recommendation_issued": "2027-01-05", "demand_received": "2027-01-07", "public_hearing": "2027-01-15T18:00:00-06:00", "public_hearing_held": "2027-01-15", "final_recommendation": "2027-01-20"}`,
		`{"received": "2200-12-31T23:59:59+14:00", "elections": ["2200-12-31"]}`,
		`{"received": "1900-01-01T00:00:00-12:00", "violation_date": "1900-01-01"}`,
		`{"section": [], "ruling": 3}`,
		`{"received": null}`,
	} {
		f.Add(seed)
	}
	e := MustEngine(f)
	f.Fuzz(func(t *testing.T, s string) {
		in, err := docket.DecodeInput(strings.NewReader(s))
		if err != nil {
			if _, ok := err.(*docket.Error); !ok {
				t.Fatalf("error %v is not a *docket.Error", err)
			}
			return
		}
		if err := e.Validate(&in.Facts); err != nil {
			return
		}
		for _, d := range e.Schedule(&in.Facts, in.AsOf).Deadlines {
			if task := d.Period.Unit == docket.Task; d.Due.IsZero() == d.DueAt.IsZero() && !(task && !d.Dated()) {
				t.Fatalf("deadline %s has due %v and due_at %v", d.ID, d.Due, d.DueAt)
			}
		}
	})
}

// TestSparseFacts: a later fact implies that the earlier steps happened, so a clerk can ask
// "when is the decision due?" with the conclusion of the hearing alone. Only facts that
// contradict each other are refused.
func TestSparseFacts(t *testing.T) {
	e := MustEngine(t)
	for _, tc := range []struct {
		name, json string
		id         docket.DeadlineID
		due        string
		status     docket.Status
	}{
		{"ConcludedAlone", `{"received": "2026-12-04T10:00:00-06:00", "hearing_concluded": "2026-12-29"}`, docket.DecisionDue,
			"2027-01-28", docket.Open},
		{"DecisionAfterDismissalMeetsG",
			`{"received": "2026-12-04T10:00:00-06:00", "section": "103.10", "elections": ["2027-01-19"], "ruling": "insufficient", "decision_issued": "2026-12-09"}`, docket.ElectionDecision, "2026-12-11", docket.Met},
		{"ReferralMeetsG",
			`{"received": "2026-12-04T10:00:00-06:00", "section": "103.05", "elections": ["2027-01-19"], "ruling": "attorney_referral", "ruling_date": "2026-12-09"}`, docket.ElectionDecision, "2026-12-11", docket.Met},
		{"DemandImpliesClosedHearing", `{"received": "2026-12-04T10:00:00-06:00", "demand_received": "2027-01-11"}`,
			docket.PublicHearingBy, "2027-01-25", docket.Open},
		{"RulingNoticeNotMetByRuling",
			`{"received": "2026-12-04T10:00:00-06:00", "section": "103.10", "ruling": "probable_cause", "ruling_date": "2026-12-10"}`, docket.RulingNoticeRespondent, "2026-12-15", docket.Open},
		{"RulingNoticeMet",
			`{"received": "2026-12-04T10:00:00-06:00", "section": "103.10", "ruling": "insufficient", "ruling_date": "2026-12-10", "ruling_notice_respondent": "2026-12-11"}`, docket.RulingNoticeRespondent, "2026-12-15", docket.Met},
		// A step a later fact implies is met, not missed (as of 2026-12-14): the hearing was
		// held, so it was scheduled (C)(2); a demand follows the (E) decision; a final
		// recommendation follows the (F) public hearing.
		{"HearingImpliedByConclusion", `{"received": "2026-11-02T10:00:00-06:00", "hearing_concluded": "2026-11-25"}`,
			docket.HearingBy, "2026-11-30", docket.Met},
		{"DecisionImpliedByDemand",
			`{"received": "2026-10-01T10:00:00-05:00", "hearing_concluded": "2026-10-20", "demand_received": "2026-11-10"}`,
			docket.DecisionDue, "2026-11-19", docket.Met},
		{"PublicHearingNotImpliedByDemand",
			`{"received": "2026-10-01T10:00:00-05:00", "hearing_concluded": "2026-10-20", "demand_received": "2026-11-10"}`,
			docket.PublicHearingBy, "2026-11-24", docket.Missed},
		{"PublicHearingImpliedByFinal",
			`{"received": "2026-10-01T10:00:00-05:00", "demand_received": "2026-11-02", "final_recommendation": "2026-12-01"}`,
			docket.PublicHearingBy, "2026-11-16", docket.Met},
		{"DemandImpliedByPublicHearing",
			`{"received": "2026-10-01T10:00:00-05:00", "hearing_closed": true, "recommendation_issued": "2026-10-22", "public_hearing_held": "2026-11-10"}`, docket.PublicHearingDemand, "2026-11-02", docket.Met},
		{"ElectionDecisionImpliedByFinal",
			`{"received": "2026-11-02T10:00:00-06:00", "elections": ["2026-11-20"], "demand_received": "2026-11-06", "final_recommendation": "2026-12-01"}`, docket.ElectionDecision, "2026-11-09", docket.Met},
		{"TransmittalTask",
			`{"received": "2026-12-04T10:00:00-06:00", "section": ["103.10", "103.05"], "ruling": "probable_cause", "referral_ruling": "attorney_referral"}`, docket.ReferralTask, "", docket.Open},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, err := docket.DecodeInput(strings.NewReader(tc.json))
			if err != nil {
				t.Fatal(err)
			}
			if err := e.Validate(&in.Facts); err != nil {
				t.Fatalf("sparse facts refused: %v", err)
			}
			d := due(t, e.Schedule(&in.Facts, T(t, "2026-12-14T12:00:00-06:00")), tc.id)
			if got := d.Due.String(); tc.due != "" && got != tc.due {
				t.Errorf("%s due %s, want %s", tc.id, got, tc.due)
			}
			if d.Status != tc.status {
				t.Errorf("%s is %s, want %s (%s)", tc.id, d.Status, tc.status, d.Basis())
			}
		})
	}
	for _, tc := range []struct{ name, json, field, rule string }{
		{"HearingAfterDismissal",
			`{"received": "2026-12-04T10:00:00-06:00", "section": "103.10", "ruling": "insufficient", "hearing_concluded": "2026-12-29"}`, "hearing_concluded", "(C)(2)"},
		{"ConcludedBeforeHearing",
			`{"received": "2026-12-04T10:00:00-06:00", "hearing": "2026-12-28T10:00:00-06:00", "hearing_concluded": "2026-12-21"}`, "hearing_concluded", "(E)"},
		{"RulingNotFittingSection",
			`{"received": "2026-12-04T10:00:00-06:00", "section": "103.05", "ruling": "probable_cause"}`, "ruling", "(C)(2)"},
		{"ReferralRulingOneSection",
			`{"received": "2026-12-04T10:00:00-06:00", "section": "103.10", "ruling": "probable_cause", "referral_ruling": "attorney_referral"}`, "referral_ruling", "(C)(3)"},
		{"TransmittalAfterDismissal",
			`{"received": "2026-12-04T10:00:00-06:00", "section": "103.05", "ruling": "insufficient", "referral_transmitted": "2026-12-11"}`, "referral_transmitted", "(C)(3)"},
	} {
		t.Run("Err"+tc.name, func(t *testing.T) {
			in, err := docket.DecodeInput(strings.NewReader(tc.json))
			if err == nil {
				err = e.Validate(&in.Facts)
			}
			de, ok := err.(*docket.Error)
			if !ok || de.Field != tc.field || de.Rule != tc.rule {
				t.Fatalf("error %v, want one on %s naming %s", err, tc.field, tc.rule)
			}
		})
	}
}
