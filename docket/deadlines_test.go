package docket_test

import (
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
)

// MustEngine returns an engine with this city's ordinance and default calendar.
func MustEngine(tb testing.TB) *docket.Engine {
	tb.Helper()
	return &docket.Engine{Cal: MustCalendar(tb, docket.CalendarConfig{}), Ord: docket.DefaultOrdinance()}
}

// T parses an RFC 3339 instant or stops the test.
func T(tb testing.TB, s string) time.Time {
	tb.Helper()
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// due returns the due date of deadline id, failing if it does not apply.
func due(tb testing.TB, s docket.Schedule, id docket.DeadlineID) docket.Deadline {
	tb.Helper()
	d, ok := s.Find(id)
	if !ok {
		tb.Fatalf("deadline %s does not apply; have %v", id, ids(s))
	}
	return d
}

func ids(s docket.Schedule) []docket.DeadlineID {
	var out []docket.DeadlineID
	for _, d := range s.Deadlines {
		out = append(out, d.ID)
	}
	return out
}

// TestWorkedExample is a worked example, checked by hand: received Fri 2026-12-04,
// probable cause on §103.10.
func TestWorkedExample(t *testing.T) {
	e := MustEngine(t)
	f := &docket.Facts{
		Received: T(t, "2026-12-04T10:00:00-06:00"),
		Sections: []string{"103.10"},
		Ruling:   docket.ProbableCause,
	}
	if err := e.Validate(f); err != nil {
		t.Fatal(err)
	}
	s := e.Schedule(f, time.Time{})
	for id, want := range map[docket.DeadlineID]string{
		docket.RespondentNotice:        "2026-12-09",
		docket.ComplainantConfirmation: "2026-12-09",
		docket.SufficiencyRuling:       "2026-12-15",
		docket.RulingNoticeRespondent:  "2026-12-15",
		docket.RulingNoticeComplainant: "2026-12-15",
		docket.HearingBy:               "2027-01-04",
	} {
		if got := due(t, s, id).Due.String(); got != want {
			t.Errorf("%s due %s, want %s", id, got, want)
		}
	}
	if got, want := due(t, s, docket.RespondentNotice).Basis(),
		"3 business days after receipt on Fri 2026-12-04"; got != want {
		t.Errorf("basis %q, want %q", got, want)
	}
	if got := due(t, s, docket.HearingBy).Basis(); !strings.Contains(got,
		"Fri 2027-01-01, New Year's Day; moved to the next day that is not a weekend or a statutory holiday (5 "+
			"ILCS 70/1.11)") {
		t.Errorf("hearing_by basis %q does not say why it moved", got)
	}
	if got := due(t, s, docket.RulingNoticeRespondent).Status; got != docket.Open {
		t.Errorf("the ruling notice is %s with no notice recorded; the ruling alone does not meet it (C)(1)", got)
	}
	if got, want := len(s.Deadlines), 6; got != want {
		t.Errorf("%d deadlines apply (%v), want %d", got, ids(s), want)
	}
	if s.TimeBarred != nil {
		t.Error("time_barred reported without a violation date")
	}
}

func TestCalendarPeriods(t *testing.T) {
	e := MustEngine(t)
	base := func() *docket.Facts {
		return &docket.Facts{
			Received: T(t, "2026-09-01T09:00:00-05:00"),
			Sections: []string{"103.10"},
			Ruling:   docket.ProbableCause,
			Hearing:  docket.Meeting{Start: T(t, "2026-09-20T10:00:00-05:00")},
		}
	}
	for _, tc := range []struct {
		name string
		set  func(f *docket.Facts)
		id   docket.DeadlineID
		want string
	}{
		{"DecisionPlain", func(f *docket.Facts) { f.HearingConcluded = D(t, "2027-01-11") }, docket.DecisionDue,
			"2027-02-10"},
		{"DecisionOnThanksgiving", func(f *docket.Facts) { f.HearingConcluded = D(t, "2027-10-26") }, docket.DecisionDue,
			"2027-11-26"},
		{"DecisionOnSaturday", func(f *docket.Facts) { f.HearingConcluded = D(t, "2026-11-06") }, docket.DecisionDue,
			"2026-12-07"},
		// 30 days after 2027-12-01 is Fri 2027-12-31, the federal observed day of New Year's
		// Day 2028. No Illinois statute fixes it, so 5 ILCS 70/1.11 does not skip it (it was
		// 2028-01-03 under the federal observance rule).
		{"DecisionOnObservedNewYear", func(f *docket.Facts) { f.HearingConcluded = D(t, "2027-12-01") }, docket.DecisionDue,
			"2027-12-31"},
		// 30 days after 2027-01-30 is Mon 2027-03-01, Casimir Pulaski's Birthday (5 ILCS
		// 490/15): 5 ILCS 70/1.11 moves the last day to Tue 2027-03-02.
		{"DecisionOnPulaskiDay", func(f *docket.Facts) { f.HearingConcluded = D(t, "2027-01-30") }, docket.DecisionDue,
			"2027-03-02"},
		{"PublicHearing14Days", func(f *docket.Facts) {
			f.HearingConcluded, f.HearingClosed = D(t, "2026-10-01"), true
			f.RecommendationIssued, f.DemandReceived = D(t, "2026-10-02"), D(t, "2026-10-05")
		}, docket.PublicHearingBy, "2026-10-19"},
		{"DemandWindow7BusinessDays", func(f *docket.Facts) {
			f.HearingConcluded, f.HearingClosed = D(t, "2026-10-01"), true
			f.RecommendationIssued = D(t, "2026-10-02") // Fri; Columbus Day Mon 10-12 skipped
		}, docket.PublicHearingDemand, "2026-10-14"},
		{"FinalRecommendation7Days", func(f *docket.Facts) {
			f.HearingConcluded, f.HearingClosed = D(t, "2026-10-01"), true
			f.RecommendationIssued, f.DemandReceived = D(t, "2026-10-02"), D(t, "2026-10-05")
			f.PublicHearing = docket.Meeting{Start: T(t, "2026-10-15T18:00:00-05:00")}
			f.PublicHearingHeld = D(t, "2026-10-15") // +7 = Thu 10-22
		}, docket.FinalRecommendationDue, "2026-10-22"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := base()
			tc.set(f)
			if err := e.Validate(f); err != nil {
				t.Fatal(err)
			}
			if got := due(t, e.Schedule(f, time.Time{}), tc.id).Due.String(); got != tc.want {
				t.Errorf("%s due %s, want %s", tc.id, got, tc.want)
			}
		})
	}
	t.Run("DemandWindowOnlyAfterClosedHearing", func(t *testing.T) {
		f := base()
		f.HearingConcluded, f.RecommendationIssued = D(t, "2026-10-01"), D(t, "2026-10-02")
		if _, ok := e.Schedule(f, time.Time{}).Find(docket.PublicHearingDemand); ok {
			t.Error("public_hearing_demand applies after an open hearing")
		}
	})
}

func TestNoticeDeadlinesAreExactDurations(t *testing.T) {
	e := MustEngine(t)
	for _, tc := range []struct {
		name, meeting, want string
	}{
		{"Plain", "2026-12-15T17:00:00-06:00", "2026-12-13T17:00:00-06:00"},
		// Spring forward on Sun 2027-03-14: 48 h before Mon 10:00 CDT is Sat 09:00 CST.
		{"SpringForward", "2027-03-15T10:00:00-05:00", "2027-03-13T09:00:00-06:00"},
		// Fall back on Sun 2026-11-01: 48 h before Mon 10:00 CST is Sat 11:00 CDT.
		{"FallBack", "2026-11-02T10:00:00-06:00", "2026-10-31T11:00:00-05:00"},
		// A meeting given in UTC is still counted as an instant.
		{"UTCInput", "2026-12-15T23:00:00Z", "2026-12-13T17:00:00-06:00"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &docket.Facts{
				Received:    T(t, "2026-10-01T09:00:00-05:00"),
				Sufficiency: docket.Meeting{Start: T(t, tc.meeting)},
			}
			d := due(t, e.Schedule(f, time.Time{}), docket.SufficiencyMeetingNotice)
			if got := d.DueAt.Format(time.RFC3339); got != tc.want {
				t.Errorf("notice due at %s, want %s", got, tc.want)
			}
			if !d.Due.IsZero() {
				t.Errorf("notice deadline has a due date %s; it is an instant", d.Due)
			}
			if got := T(t, tc.meeting).Sub(d.DueAt); got != 48*time.Hour {
				t.Errorf("notice is %v before the meeting, want 48h", got)
			}
		})
	}
	t.Run("EarliestMeeting", func(t *testing.T) {
		posted := T(t, "2026-12-06T17:00:30-06:00")
		got := e.EarliestMeeting(docket.SufficiencyMeetingNotice, posted)
		if want := T(t, "2026-12-08T17:01:00-06:00"); !got.Equal(want) {
			t.Errorf("EarliestMeeting = %v, want %v", got, want)
		}
	})
}

func TestReceivedInstantUsesLocalDate(t *testing.T) {
	e := MustEngine(t)
	// 2026-12-05T04:30Z is 22:30 on Fri 2026-12-04 in Chicago.
	f := &docket.Facts{Received: T(t, "2026-12-05T04:30:00Z")}
	s := e.Schedule(f, time.Time{})
	if got := s.Received.String(); got != "2026-12-04" {
		t.Errorf("received %s, want the local date 2026-12-04", got)
	}
	if got := due(t, s, docket.RespondentNotice).Due.String(); got != "2026-12-09" {
		t.Errorf("respondent_notice %s, want 2026-12-09", got)
	}
	// In Berlin the same instant is Sat 5 Dec.
	berlin := &docket.Engine{Cal: MustCalendar(t, docket.CalendarConfig{Zone: "Europe/Berlin"}),
		Ord: docket.DefaultOrdinance()}
	if got := berlin.Schedule(f, time.Time{}).Received.String(); got != "2026-12-05" {
		t.Errorf("in Berlin received %s, want 2026-12-05", got)
	}
}

func TestFilingLimit(t *testing.T) {
	e := MustEngine(t)
	for _, tc := range []struct {
		name, violation, received, due string
		barred                         bool
	}{
		{"OnTheLastDay", "2025-12-04", "2026-12-04T16:59:00-06:00", "2026-12-04", false},
		{"DayAfter", "2025-12-03", "2026-12-04T09:00:00-06:00", "2026-12-03", true},
		{"LastDayIsSaturday", "2025-12-05", "2026-12-07T09:00:00-06:00", "2026-12-07", false},
		// (I): one year after 29 February ends on 28 February, as a calendar year from 1 March
		// does (Date.AddYears); it was 1 March under time.AddDate.
		{"LeapDayToFeb28", "2028-02-29", "2029-02-28T09:00:00-06:00", "2029-02-28", false},
		{"LeapDayToFeb28Barred", "2028-02-29", "2029-03-01T09:00:00-06:00", "2029-02-28", true},
		// 2025-02-28 is a Friday: the last day, where 1 March (a Saturday) once rolled on
		// to Mon 2025-03-03.
		{"LeapDayFeb28IsFriday", "2024-02-29", "2025-02-28T09:00:00-06:00", "2025-02-28", false},
		{"LeapDayFeb28IsFridayBarred", "2024-02-29", "2025-03-03T09:00:00-06:00", "2025-02-28", true},
		// 2027-03-01 is Casimir Pulaski's Birthday (5 ILCS 490/15): 5 ILCS 70/1.11 moves the
		// last day to Tue 2027-03-02.
		{"LastDayIsPulaskiDay", "2026-03-01", "2027-03-02T09:00:00-06:00", "2027-03-02", false},
		{"LastDayIsNewYear", "2026-01-01", "2027-01-04T09:00:00-06:00", "2027-01-04", false},
		// 05:30 UTC on 2026-12-05 is still Fri 4 Dec in Chicago: on time.
		{"UTCDateDiffers", "2025-12-04", "2026-12-05T05:30:00Z", "2026-12-04", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &docket.Facts{Received: T(t, tc.received), ViolationDate: D(t, tc.violation)}
			if err := e.Validate(f); err != nil {
				t.Fatal(err)
			}
			s := e.Schedule(f, time.Time{})
			d := due(t, s, docket.FilingLimit)
			if got := d.Due.String(); got != tc.due {
				t.Errorf("filing_limit %s, want %s", got, tc.due)
			}
			if s.TimeBarred == nil || *s.TimeBarred != tc.barred {
				t.Errorf("time_barred = %v, want %v", s.TimeBarred, tc.barred)
			}
			wantStatus := docket.Met
			if tc.barred {
				wantStatus = docket.Missed
			}
			if d.Status != wantStatus {
				t.Errorf("status %s, want %s", d.Status, wantStatus)
			}
		})
	}
}

func TestElectionPeriod(t *testing.T) {
	e := MustEngine(t)
	// The election is Tue 2027-02-23; 60 days before it is Fri 2026-12-25.
	for _, tc := range []struct {
		name, received string
		elections      []string
		expedited      bool
		due, election  string
	}{
		{"At61Days", "2026-12-24T12:00:00-06:00", []string{"2027-02-23"}, false, "", ""},
		{"At60Days", "2026-12-25T12:00:00-06:00", []string{"2027-02-23"}, true, "2027-01-04", "2027-02-23"},
		{"AtLocalMidnightBoundary", "2026-12-25T05:59:00Z", []string{"2027-02-23"}, false, "", ""}, // 23:59 on Dec 24 local
		{"SevenDaysRolled", "2027-01-08T12:00:00-06:00", []string{"2027-02-23"}, true, "2027-01-15", "2027-02-23"},
		{"CappedAtEve", "2027-02-19T12:00:00-06:00", []string{"2027-02-23"}, true, "2027-02-22", "2027-02-23"},
		{"CappedEveIsSunday", "2027-03-01T12:00:00-06:00", []string{"2027-03-08"}, true, "2027-03-07", "2027-03-08"},
		{"DayBefore", "2027-02-22T12:00:00-06:00", []string{"2027-02-23"}, true, "2027-02-22", "2027-02-23"},
		{"ElectionDay", "2027-02-23T08:00:00-06:00", []string{"2027-02-23"}, false, "", ""},
		{"AfterElection", "2027-03-01T08:00:00-06:00", []string{"2027-02-23"}, false, "", ""},
		{"EarliestDecides", "2027-02-10T12:00:00-06:00", []string{"2027-04-06", "2027-02-23"}, true, "2027-02-17",
			"2027-02-23"},
		{"EarliestQualifyingDecides", "2027-02-10T12:00:00-06:00", []string{"2027-01-05", "2027-03-16"}, true, "2027-02-17",
			"2027-03-16"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &docket.Facts{Received: T(t, tc.received)}
			for _, el := range tc.elections {
				f.Elections = append(f.Elections, D(t, el))
			}
			s := e.Schedule(f, time.Time{})
			if s.Expedited != tc.expedited {
				t.Fatalf("expedited = %v, want %v", s.Expedited, tc.expedited)
			}
			d, ok := s.Find(docket.ElectionDecision)
			if ok != tc.expedited {
				t.Fatalf("election_decision applies = %v, want %v", ok, tc.expedited)
			}
			if !ok {
				return
			}
			if got := d.Due.String(); got != tc.due {
				t.Errorf("election_decision %s, want %s (%s)", got, tc.due, d.Basis())
			}
			if got := s.Election.String(); got != tc.election {
				t.Errorf("election %s, want %s", got, tc.election)
			}
		})
	}
}

func TestStatus(t *testing.T) {
	e := MustEngine(t)
	f := &docket.Facts{
		Received:               T(t, "2026-12-04T10:00:00-06:00"),
		RespondentNoticeMailed: D(t, "2026-12-09"), // on the last day: met
		Sufficiency: docket.Meeting{
			Start:        T(t, "2026-12-14T17:00:00-06:00"),
			NoticePosted: T(t, "2026-12-12T17:00:01-06:00"), // one second late
		},
	}
	for _, tc := range []struct {
		now  string
		want map[docket.DeadlineID]docket.Status
	}{
		{"", map[docket.DeadlineID]docket.Status{
			docket.RespondentNotice: docket.Met, docket.ComplainantConfirmation: docket.Open,
			docket.SufficiencyRuling: docket.Open, docket.SufficiencyMeetingNotice: docket.Missed,
		}},
		{"2026-12-09T23:59:00-06:00", map[docket.DeadlineID]docket.Status{
			docket.ComplainantConfirmation: docket.Open,
		}},
		{"2026-12-10T00:00:00-06:00", map[docket.DeadlineID]docket.Status{
			docket.ComplainantConfirmation: docket.Missed, docket.SufficiencyRuling: docket.Open,
		}},
	} {
		var now time.Time
		if tc.now != "" {
			now = T(t, tc.now)
		}
		s := e.Schedule(f, now)
		for id, want := range tc.want {
			if got := due(t, s, id).Status; got != want {
				t.Errorf("at %q %s is %s, want %s", tc.now, id, got, want)
			}
		}
	}
	t.Run("LateMailingIsMissed", func(t *testing.T) {
		g := *f
		g.ComplainantConfirmationMailed = D(t, "2026-12-10")
		if got := due(t, e.Schedule(&g, time.Time{}), docket.ComplainantConfirmation).Status; got != docket.Missed {
			t.Errorf("late mailing is %s, want missed", got)
		}
	})
	t.Run("RulingAtTheMeeting", func(t *testing.T) {
		g := *f
		g.Sections, g.Ruling = []string{"103.10"}, docket.Insufficient
		if got := due(t, e.Schedule(&g, time.Time{}), docket.SufficiencyRuling).Status; got != docket.Met {
			t.Errorf("ruling at the meeting on 12-14 is %s, want met", got)
		}
	})
}

// TestOtherTown configures a town that adopted the model ordinance with other numbers.
func TestOtherTown(t *testing.T) {
	o := docket.DefaultOrdinance()
	for _, ov := range []struct {
		id     docket.DeadlineID
		amount int
		unit   docket.Unit
	}{
		{docket.SufficiencyMeetingNotice, 24, ""},
		{docket.SufficiencyRuling, 14, docket.BusinessDays},
		{docket.HearingBy, 30, docket.BusinessDays},
	} {
		if err := o.Override(ov.id, ov.amount, ov.unit); err != nil {
			t.Fatal(err)
		}
	}
	e := &docket.Engine{Cal: MustCalendar(t, docket.CalendarConfig{}), Ord: o}
	f := &docket.Facts{
		Received:    T(t, "2026-12-04T10:00:00-06:00"),
		Sections:    []string{"103.10"},
		Ruling:      docket.ProbableCause,
		Sufficiency: docket.Meeting{Start: T(t, "2026-12-15T17:00:00-06:00")},
	}
	s := e.Schedule(f, time.Time{})
	if got := due(t, s, docket.SufficiencyRuling).Due.String(); got != "2026-12-24" {
		t.Errorf("14 business days: %s, want 2026-12-24", got)
	}
	if got := due(t, s, docket.SufficiencyMeetingNotice).DueAt.Format(time.RFC3339); got != "2026-12-14T17:00:00-06:00" {
		t.Errorf("24 hours' notice: %s", got)
	}
	if got := due(t, s, docket.HearingBy).Basis(); !strings.HasPrefix(got, "30 business days after receipt") {
		t.Errorf("basis %q", got)
	}
	if d := docket.DefaultOrdinance().Period(docket.SufficiencyRuling); d.Amount != 7 {
		t.Errorf("overriding a copy changed the default: %d", d.Amount)
	}
	for name, ov := range map[string]struct {
		id     docket.DeadlineID
		amount int
		unit   docket.Unit
	}{
		"ErrNoticeInDays":  {docket.HearingNotice, 2, docket.Days},
		"ErrZero":          {docket.HearingBy, 0, ""},
		"ErrNegative":      {docket.HearingBy, -3, ""},
		"ErrHuge":          {docket.HearingBy, 100000, docket.BusinessDays},
		"ErrUnknownPeriod": {"hearing_soon", 3, docket.Days},
		"ErrUnknownUnit":   {docket.HearingBy, 3, "fortnights"},
	} {
		t.Run(name, func(t *testing.T) {
			o := docket.DefaultOrdinance()
			if err := o.Override(ov.id, ov.amount, ov.unit); err == nil {
				t.Fatal("accepted")
			}
			if o.Period(docket.HearingBy).Amount != 4 || o.Period(docket.HearingNotice).Amount != 48 {
				t.Error("a refused override changed the ordinance")
			}
		})
	}
}

func TestValidate(t *testing.T) {
	e := MustEngine(t)
	received := T(t, "2026-12-04T10:00:00-06:00")
	for _, tc := range []struct {
		name  string
		f     docket.Facts
		field string
		rule  string
	}{
		{"ErrNoReceipt", docket.Facts{}, "received", "(A)"},
		{"ErrUnknownSection", docket.Facts{Received: received, Sections: []string{"103.99"}}, "section", "(C)"},
		{"ErrUnknownRuling", docket.Facts{Received: received, Ruling: "maybe"}, "ruling", "(C)"},
		{"ErrProbableCauseOn10305",
			docket.Facts{Received: received, Sections: []string{"103.05"}, Ruling: docket.ProbableCause}, "ruling", "(C)(2)"},
		{"ErrJudicialReferralOn10305",
			docket.Facts{Received: received, Sections: []string{"103.05"}, Ruling: docket.JudicialReferral}, "ruling", "(C)(2)"},
		{"ErrAttorneyReferralOn10310",
			docket.Facts{Received: received, Sections: []string{"103.10"}, Ruling: docket.AttorneyReferral}, "ruling", "(C)(3)"},
		{"ErrProbableCauseNoSection", docket.Facts{Received: received, Ruling: docket.ProbableCause}, "ruling", "(C)(2)"},
		{"ErrViolationAfterReceipt", docket.Facts{Received: received, ViolationDate: D(t, "2026-12-05")},
			"violation_date", "(I)"},
		{"ErrHearingAfterDismissal",
			docket.Facts{Received: received, Sections: []string{"103.10"}, Ruling: docket.NoProbableCause,
				Hearing: docket.Meeting{Start: received.Add(72 * time.Hour)}}, "hearing", "(C)(2)"},
		{"ErrMailedBeforeReceipt", docket.Facts{Received: received, RespondentNoticeMailed: D(t, "2026-12-03")},
			"respondent_notice_mailed", "(B)"},
		{"ErrDecisionBeforeConcluded", docket.Facts{
			Received: received, Sections: []string{"103.10"}, Ruling: docket.ProbableCause,
			Hearing:          docket.Meeting{Start: T(t, "2026-12-21T10:00:00-06:00")},
			HearingConcluded: D(t, "2026-12-28"), RecommendationIssued: D(t, "2026-12-22"),
		}, "recommendation_issued", "(E)"},
		{"ErrDemandBeforeRecommendation", docket.Facts{
			Received: received, Sections: []string{"103.10"}, Ruling: docket.ProbableCause,
			Hearing: docket.Meeting{Start: T(t, "2026-12-21T10:00:00-06:00")}, HearingClosed: true,
			HearingConcluded: D(t, "2026-12-28"), RecommendationIssued: D(t, "2027-01-05"), DemandReceived: D(t, "2026-12-30"),
		}, "demand_received", "(F)"},
		{"ErrRecessedBeforeHearing", docket.Facts{
			Received: received, Sections: []string{"103.10"}, Ruling: docket.ProbableCause,
			Hearing:    docket.Meeting{Start: T(t, "2026-12-21T10:00:00-06:00")},
			Reconvened: docket.Meeting{Start: T(t, "2026-12-20T10:00:00-06:00")},
		}, "recessed_hearing", "(E)"},
		{"ErrHearingBeforeMeeting", docket.Facts{
			Received: received, Sections: []string{"103.10"}, Ruling: docket.ProbableCause,
			Sufficiency: docket.Meeting{Start: T(t, "2026-12-10T17:00:00-06:00")},
			Hearing:     docket.Meeting{Start: T(t, "2026-12-09T10:00:00-06:00")},
		}, "hearing", "(C)(2)"},
		{"ErrConcludedBeforeHearing", docket.Facts{
			Received: received, Sections: []string{"103.10"}, Ruling: docket.ProbableCause,
			Hearing: docket.Meeting{Start: T(t, "2026-12-20T10:00:00-06:00")}, HearingConcluded: D(t, "2026-12-19"),
		}, "hearing_concluded", "(E)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := e.Validate(&tc.f)
			de, ok := err.(*docket.Error)
			if !ok {
				t.Fatalf("Validate = %v, want a *docket.Error", err)
			}
			if de.Field != tc.field || de.Rule != tc.rule || de.Code != docket.EINVALID {
				t.Errorf("error %q has field %q rule %q code %q, want field %q rule %q", de, de.Field, de.Rule, de.Code,
					tc.field, tc.rule)
			}
		})
	}
	t.Run("AttorneyReferralOnBothSections", func(t *testing.T) {
		f := docket.Facts{Received: received, Sections: []string{"103.10", "103.05"}, Ruling: docket.AttorneyReferral}
		if err := e.Validate(&f); err != nil {
			t.Fatal(err)
		}
	})
}

func TestLeft(t *testing.T) {
	e := MustEngine(t)
	f := &docket.Facts{Received: T(t, "2026-12-04T10:00:00-06:00"),
		Sufficiency: docket.Meeting{Start: T(t, "2026-12-10T17:00:00-06:00")}}
	s := e.Schedule(f, time.Time{})
	notice, mail, ruling := due(t, s, docket.SufficiencyMeetingNotice), due(t, s, docket.RespondentNotice),
		due(t, s, docket.SufficiencyRuling)
	for _, tc := range []struct {
		d    docket.Deadline
		now  string
		n    int
		unit string
		late bool
	}{
		{mail, "2026-12-07T09:00:00-06:00", 2, "business day", false}, // Mon, due Wed
		{mail, "2026-12-09T23:00:00-06:00", 0, "day", false},          // due today
		{mail, "2026-12-12T09:00:00-06:00", 3, "day", true},           // Sat: late in calendar days
		{ruling, "2026-12-11T09:00:00-06:00", 2, "business day", false},
		{notice, "2026-12-08T07:30:00-06:00", 9, "hour", false}, // due Tue 17:00
		{notice, "2026-12-08T17:10:00-06:00", 0, "hour", true},
	} {
		n, unit, late := e.Left(tc.d, T(t, tc.now))
		if n != tc.n || unit != tc.unit || late != tc.late {
			t.Errorf("%s at %s: %d %q late=%v, want %d %q late=%v", tc.d.ID, tc.now, n, unit, late, tc.n, tc.unit, tc.late)
		}
	}
	if got := docket.Count(1, "business day") + ", " + docket.Count(3, "day"); got != "1 business day, 3 days" {
		t.Errorf("Count: %q", got)
	}
}
