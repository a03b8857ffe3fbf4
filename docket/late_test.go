package docket_test

import (
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
)

// warningUnder returns the text of the warning given under rule, or "".
func warningUnder(ws []docket.Warning, rule string) string {
	for _, w := range ws {
		if w.Rule == rule {
			return w.Message
		}
	}
	return ""
}

// TestLateActsAreRecordedAndKept: an (E) decision after its 30 days, an (F) final
// recommendation after its 7 days and a (G) decision after its date are recorded, since
// refusing would block the commission, with a warning that says "late by N days" and names
// the rule; the case keeps each late act.
func TestLateActsAreRecordedAndKept(t *testing.T) {
	e := MustEngine(t)
	steps := closedHearingCase()
	t.Run("DecisionAfter30DaysE", func(t *testing.T) {
		c := apply(t, e, steps[:13]) // the hearing concluded Mon 2026-12-28: decision due Wed 2027-01-27
		c, ws, err := e.Apply(c, docket.Decide{Findings: "Violated §103.10.", Recommendation: "Written reprimand."},
			T(t, "2027-01-29T10:00:00-06:00"))
		if err != nil {
			t.Fatal(err)
		}
		if w := warningUnder(ws, "(E)"); !strings.Contains(w, "late by 2 days") || !strings.Contains(w, "Wed 2027-01-27") {
			t.Errorf("warnings %v, want (E) late by 2 days, due Wed 2027-01-27", ws)
		}
		want := docket.LateAct{Rule: "(E)", Step: "decision", Due: D(t, "2027-01-27"), On: D(t, "2027-01-29")}
		if len(c.Late) != 1 || c.Late[0] != want || c.Late[0].Days() != 2 {
			t.Errorf("late %+v, want %+v", c.Late, want)
		}
	})
	t.Run("DecisionOnTimeE", func(t *testing.T) {
		c := apply(t, e, steps[:13])
		c, ws, err := e.Apply(c, docket.Decide{Dismiss: true}, T(t, "2027-01-27T10:00:00-06:00"))
		if err != nil || len(ws) != 0 || len(c.Late) != 0 {
			t.Errorf("on the last day: warnings %v, late %v, err %v", ws, c.Late, err)
		}
	})
	t.Run("FinalAfter7DaysF", func(t *testing.T) {
		c := apply(t, e, steps[:18]) // the public hearing held Tue 2027-01-19: final due Tue 2027-01-26
		c, ws, err := e.Apply(c, docket.IssueFinal{Text: "Reprimand affirmed."}, T(t, "2027-01-28T10:00:00-06:00"))
		if err != nil {
			t.Fatal(err)
		}
		if w := warningUnder(ws, "(F)"); !strings.Contains(w, "late by 2 days") ||
			!strings.Contains(w, "final recommendation") {
			t.Errorf("warnings %v, want (F) late by 2 days", ws)
		}
		if len(c.Late) != 1 || c.Late[0].Rule != "(F)" || c.Late[0].Days() != 2 {
			t.Errorf("late %+v", c.Late)
		}
	})
	t.Run("ExpeditedDismissalAfterItsDateG", func(t *testing.T) {
		// Received Fri 2026-12-04, 46 days before the election of Tue 2027-01-19: the (G)
		// decision is due Fri 2026-12-11. A meeting on Mon 12-14 warns at scheduling, and
		// the dismissal there is late by 3 days.
		f := filing
		f.Elections = []docket.Date{D(t, "2027-01-19")}
		c := apply(t, e, []step{
			{"2026-12-04T10:00:00-06:00", f, docket.StateReceived, "(G)"},
			{"2026-12-04T11:00:00-06:00",
				docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: mustTime("2026-12-14T17:00:00-06:00"),
					Place: "City Hall"}, docket.StateReceived, "(G)"},
			{"2026-12-04T11:05:00-06:00", docket.PostNotice{Meeting: docket.SufficiencyMeeting}, docket.StateReceived, ""},
			{"2026-12-07T09:00:00-06:00", docket.RecordMailing{Recipient: docket.Respondent, Article: "94071118987654321712"},
				docket.StateReceived, ""},
			{"2026-12-07T09:05:00-06:00", docket.RecordMailing{Recipient: docket.Complainant, Article: "94071118987654321613"},
				docket.StateNoticesSent, ""},
		})
		c, ws, err := e.Apply(c, docket.Rule{Ruling: docket.Insufficient}, T(t, "2026-12-14T18:00:00-06:00"))
		if err != nil {
			t.Fatal(err)
		}
		if w := warningUnder(ws, "(G)"); !strings.Contains(w, "late by 3 days") || !strings.Contains(w, "Fri 2026-12-11") {
			t.Errorf("warnings %v, want (G) late by 3 days, due Fri 2026-12-11", ws)
		}
		if len(c.Late) != 1 || c.Late[0].Rule != "(G)" {
			t.Errorf("late %+v", c.Late)
		}
	})
	t.Run("MeetingAfterTheGDateWarns", func(t *testing.T) {
		f := filing
		f.Elections = []docket.Date{D(t, "2027-01-19")}
		c, _, err := e.Apply(docket.Case{}, f, f.Received)
		if err != nil {
			t.Fatal(err)
		}
		_, ws, err := e.Apply(c,
			docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: mustTime("2026-12-14T17:00:00-06:00"),
				Place: "City Hall"}, T(t, "2026-12-04T11:00:00-06:00"))
		if err != nil {
			t.Fatal(err)
		}
		want := "the sufficiency meeting on Mon 2026-12-14 is after Fri 2026-12-11, the last day for the expedited " +
			"decision before the election on Tue 2027-01-19"
		if w := warningUnder(ws, "(G)"); !strings.Contains(w, want) {
			t.Errorf("warnings %v, want (G): %s", ws, want)
		}
		// A meeting on the (G) date itself does not warn.
		_, ws, _ = e.Apply(c,
			docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: mustTime("2026-12-10T17:00:00-06:00"),
				Place: "City Hall"}, T(t, "2026-12-04T11:00:00-06:00"))
		if w := warningUnder(ws, "(G)"); w != "" {
			t.Errorf("meeting before the (G) date warned: %s", w)
		}
	})
}

// TestNotExpeditedSaysWhy: a filing with a candidacy that (G) does not expedite says why.
func TestNotExpeditedSaysWhy(t *testing.T) {
	e := MustEngine(t)
	f := filing
	f.Received = time.Date(2027, 2, 1, 10, 0, 0, 0, time.FixedZone("CST", -6*3600))
	f.Elections = []docket.Date{D(t, "2027-04-06")}
	_, ws, err := e.Apply(docket.Case{}, f, f.Received)
	if err != nil {
		t.Fatal(err)
	}
	want := "not expedited under (G): the election on Tue 6 Apr 2027 is 64 days after receipt; (G) applies to " +
		"complaints filed in the 60 days before it"
	if w := warningUnder(ws, "(G)"); w != want {
		t.Errorf("warning %q, want %q", w, want)
	}
	t.Run("Candidacy", func(t *testing.T) {
		g := filing
		g.Received = f.Received
		c, _, err := e.Apply(docket.Case{}, g, g.Received)
		if err != nil {
			t.Fatal(err)
		}
		_, ws, err := e.Apply(c, docket.AddCandidacy{Election: D(t, "2027-04-06")}, T(t, "2027-02-02T10:00:00-06:00"))
		if err != nil || warningUnder(ws, "(G)") != want {
			t.Errorf("candidacy: warnings %v, err %v; want %q", ws, err, want)
		}
	})
}

// TestTimeBarredRulingI: a complaint filed more than a year after the alleged violation
// (I) gets no ruling but a dismissal unless overridden with a reason; the dismissal can
// name the time bar as its ground.
func TestTimeBarredRulingI(t *testing.T) {
	e := MustEngine(t)
	start := closedHearingCase()[:5]
	f := filing
	f.ViolationDate = D(t, "2025-11-30") // last day to file Mon 2026-11-30; received Fri 2026-12-04
	barred := append([]step{{start[0].at, f, docket.StateReceived, "(I)"}}, start[1:]...)
	c := apply(t, e, barred)
	at := "2026-12-10T18:00:00-06:00"
	if de := refusal(t, e, c, docket.Rule{Ruling: docket.ProbableCause}, at); de.Rule != "(I)" ||
		!strings.Contains(de.Message, "time-barred") || !strings.Contains(de.Message, "Mon 2026-11-30") {
		t.Errorf("probable cause on a time-barred complaint: %v, want an (I) refusal", de)
	}
	over, _, err := e.Apply(c,
		docket.Rule{Ruling: docket.ProbableCause, Override: "the violation continued into 2026"}, T(t, at))
	if err != nil || len(over.Overrides) != 1 || over.Overrides[0].Rule != "(I)" {
		t.Errorf("overridden: overrides %+v, err %v", over.Overrides, err)
	}
	d, _, err := e.Apply(c, docket.Rule{Ruling: docket.Insufficient, Ground: docket.GroundTimeBarred}, T(t, at))
	if err != nil {
		t.Fatal(err)
	}
	if got := d.DismissalGround(); !strings.Contains(got, "time-barred under (I)") {
		t.Errorf("ground %q", got)
	}
	if de := refusal(t, e, c, docket.Rule{Ruling: docket.ProbableCause, Ground: docket.GroundTimeBarred},
		at); de.Field != "ground" || de.Rule != "(I)" {
		t.Errorf("time_barred with probable cause: %v", de)
	}
	onTime := apply(t, e, start)
	if de := refusal(t, e, onTime, docket.Rule{Ruling: docket.Insufficient, Ground: docket.GroundTimeBarred},
		at); de.Field != "ground" || !strings.Contains(de.Message, "not time-barred") {
		t.Errorf("time_barred on a complaint filed in time: %v", de)
	}
	if de := refusal(t, e, onTime, docket.Rule{Ruling: docket.Insufficient, Ground: "stale"}, at); de.Field != "ground" {
		t.Errorf("unknown ground: %v", de)
	}
	ok, _, err := e.Apply(onTime, docket.Rule{Ruling: docket.NoProbableCause}, T(t, at))
	if err != nil || ok.DismissalGround() != "no probable cause to proceed (C)(2)" {
		t.Errorf("ground %q, err %v", ok.DismissalGround(), err)
	}
}

// TestDismissalAfterHearingGoesToBothPartiesE1: an (E)(1) dismissal owes its notice to the
// respondent and to the complainant, tracked as tasks until delivered.
func TestDismissalAfterHearingGoesToBothPartiesE1(t *testing.T) {
	e := MustEngine(t)
	c := apply(t, e, closedHearingCase()[:13])
	c, _, err := e.Apply(c, docket.Decide{Dismiss: true, Findings: "No violation."}, T(t, "2027-01-05T10:00:00-06:00"))
	if err != nil {
		t.Fatal(err)
	}
	owed := c.PapersOwed()
	if !slicesContain(owed, docket.DecisionDismissalToResp) || !slicesContain(owed, docket.DecisionDismissalToComp) {
		t.Fatalf("papers owed %v, want both (E)(1) notices", owed)
	}
	if c.Closed() {
		t.Error("the case is closed with its (E)(1) notices unsent")
	}
	for _, p := range []docket.Paper{docket.DecisionDismissalToResp, docket.DecisionDismissalToComp} {
		if c, _, err = e.Apply(c, docket.RecordDelivery{Paper: p}, T(t, "2027-01-06T10:00:00-06:00")); err != nil {
			t.Fatal(err)
		}
	}
	s := e.Schedule(&c.Facts, T(t, "2027-01-06T12:00:00-06:00"))
	for _, id := range []docket.DeadlineID{docket.DismissalRespondentTask, docket.DismissalComplainantTask} {
		if d, ok := s.Find(id); !ok || d.Status != docket.Met {
			t.Errorf("%s: %+v, want met", id, d)
		}
	}
	if owed := c.PapersOwed(); slicesContain(owed, docket.DecisionDismissalToResp) ||
		slicesContain(owed, docket.DecisionDismissalToComp) {
		t.Errorf("papers owed %v after both (E)(1) notices were delivered", owed)
	}
	// A recommendation is no dismissal: it owes no (E)(1) notice.
	r := apply(t, e, closedHearingCase()[:14])
	if err := r.Needs(docket.DecisionDismissalToResp); err == nil {
		t.Error("a recommendation needs the (E)(1) notice of dismissal")
	}
}

func slicesContain[T comparable](xs []T, x T) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// TestFrivolousFindingNeedsTheComplainantHeardH: (H) fines the complainant who knowingly
// files a frivolous complaint; before the finding the complainant gets certified notice of
// a meeting, noticed 48 hours ahead, at which to be heard. The finding is refused until that
// meeting is held, unless overridden with a reason.
func TestFrivolousFindingNeedsTheComplainantHeardH(t *testing.T) {
	e := MustEngine(t)
	dismissed := apply(t, e, append(closedHearingCase()[:5],
		step{"2026-12-10T18:00:00-06:00", docket.Rule{Ruling: docket.Insufficient}, docket.StateDismissed, ""}))
	find := docket.FindFrivolous{Findings: "Knowingly false.", Fine: 1001, Knowingly: true}
	if de := refusal(t, e, dismissed, find, "2026-12-14T10:00:00-06:00"); de.Rule != "(H)" ||
		!strings.Contains(de.Message, "must first be heard") {
		t.Errorf("finding with no meeting: %v, want an (H) refusal", de)
	}
	if de := refusal(t, e, dismissed, docket.RecordMailing{Paper: docket.FrivolousNotice, Article: "94071118987654321477"},
		"2026-12-14T10:00:00-06:00"); de.Rule != "(H)" {
		t.Errorf("the (H) notice before its meeting is scheduled: %v", de)
	}
	c, _, err := e.Apply(dismissed,
		docket.ScheduleMeeting{Meeting: docket.FrivolousMeeting, Start: mustTime("2026-12-21T17:00:00-06:00"),
			Place: "City Hall"}, T(t, "2026-12-14T09:00:00-06:00"))
	if err != nil {
		t.Fatal(err)
	}
	if owed := c.PapersOwed(); !slicesContain(owed, docket.FrivolousNotice) {
		t.Errorf("papers owed %v, want the complainant's certified notice (H)", owed)
	}
	if de := refusal(t, e, c, find, "2026-12-18T10:00:00-06:00"); de.Rule != "(H)" ||
		!strings.Contains(de.Message, "has not begun") {
		t.Errorf("finding before the meeting: %v", de)
	}
	// Held, but with neither its notice posted nor the complainant's certified notice.
	de := refusal(t, e, c, find, "2026-12-21T19:00:00-06:00")
	if !strings.Contains(de.Message, "48 hours' public notice") ||
		!strings.Contains(de.Message, "certified notice to the complainant") {
		t.Errorf("finding without the notices: %v", de)
	}
	over, _, err := e.Apply(c,
		docket.FindFrivolous{Findings: "Knowingly false.", Fine: 1001, Knowingly: true,
			Override: "complainant attended and was heard"}, T(t, "2026-12-21T19:00:00-06:00"))
	if err != nil || over.Frivolous == nil || len(over.Overrides) != 2 {
		t.Errorf("overridden finding: %+v overrides %+v, err %v", over.Frivolous, over.Overrides, err)
	}
	s := e.Schedule(&c.Facts, T(t, "2026-12-21T19:00:00-06:00"))
	if d, ok := s.Find(docket.FrivolousMeetingNotice); !ok || d.Status != docket.Missed || d.Rule != "(H)" {
		t.Errorf("the (H) meeting's notice deadline: %+v", d)
	}
}
