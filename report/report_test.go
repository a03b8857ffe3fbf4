package report_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
	"ethicsbot/report"
)

// act is one action taken at one instant.
type act struct {
	at string
	a  docket.Action
}

func mustEngine(tb testing.TB) *docket.Engine {
	tb.Helper()
	cal, err := docket.NewCalendar(docket.CalendarConfig{})
	if err != nil {
		tb.Fatal(err)
	}
	return &docket.Engine{Cal: cal, Ord: docket.DefaultOrdinance()}
}

func instant(tb testing.TB, s string) time.Time {
	tb.Helper()
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

func date(tb testing.TB, s string) docket.Date {
	tb.Helper()
	d, err := docket.ParseDate(s)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

// walk files and runs a case through the engine, as the record would, failing on any
// refusal.
func walk(tb testing.TB, e *docket.Engine, number string, acts []act) docket.Case {
	tb.Helper()
	var c docket.Case
	for i, s := range acts {
		next, _, err := e.Apply(c, s.a, instant(tb, s.at))
		if err != nil {
			tb.Fatalf("case %s step %d %s: %v", number, i, s.a.Kind(), err)
		}
		c = next
		c.Number = number
	}
	return c
}

func filing(tb testing.TB, received string, sections ...string) docket.File {
	return docket.File{
		Complainant: docket.Person{Name: "Confidential Complainant"},
		Respondent:  docket.Person{Name: "Confidential Respondent"},
		Sections:    sections,
		Received:    instant(tb, received),
		Summary:     "CONFIDENTIAL allegation text.",
	}
}

func meeting(tb testing.TB, k docket.MeetingKind, start string) docket.ScheduleMeeting {
	return docket.ScheduleMeeting{Meeting: k, Start: instant(tb, start), Place: "City Hall, Room 201"}
}

func mail(tb testing.TB, p docket.Paper, article, on string) docket.RecordMailing {
	return docket.RecordMailing{Paper: p, Article: article, Mailed: date(tb, on)}
}

func deliver(tb testing.TB, p docket.Paper, on string) docket.RecordDelivery {
	return docket.RecordDelivery{Paper: p, On: date(tb, on)}
}

// year2026 is a record a clerk could check by hand: four complaints received in 2026
// and one received late in 2025 whose deadlines fell due in 2026. The report is made on
// Fri 2027-01-15.
func year2026(tb testing.TB, e *docket.Engine) []docket.Case {
	tb.Helper()
	const (
		suff = docket.SufficiencyMeeting
		hear = docket.HearingMeeting
		pub  = docket.PublicHearing
	)
	// 2026-001: received Mon 2 Mar; notices mailed on days 1 and 2; dismissed as
	// insufficient on day 4 (Fri 6 Mar); dismissal notices on day 7; then found knowingly
	// frivolous, fine $1,500 (H). Six deadlines, all met.
	a := walk(tb, e, "2026-001", []act{
		{"2026-03-02T10:00:00-06:00", filing(tb, "2026-03-02T10:00:00-06:00", "103.10")},
		{"2026-03-02T11:00:00-06:00", meeting(tb, suff, "2026-03-06T17:00:00-06:00")},
		{"2026-03-02T11:05:00-06:00", docket.PostNotice{Meeting: suff}},
		{"2026-03-04T12:00:00-06:00", mail(tb, docket.RespondentNoticePaper, "94071118987654321101", "2026-03-03")},
		{"2026-03-04T12:05:00-06:00", mail(tb, docket.ComplainantConfirmPaper, "94071118987654321002", "2026-03-04")},
		{"2026-03-06T18:00:00-06:00", docket.Rule{Ruling: docket.Insufficient}},
		{"2026-03-09T12:00:00-05:00", mail(tb, docket.DismissalToRespondent, "94071118987654321903", "2026-03-09")},
		{"2026-03-09T12:05:00-05:00", mail(tb, docket.DismissalToComplainant, "94071118987654321804", "2026-03-09")},
		// (H): the complainant heard first, at a meeting noticed 48 hours ahead with
		// certified notice to the complainant.
		{"2026-03-09T12:10:00-05:00", meeting(tb, docket.FrivolousMeeting, "2026-03-12T17:00:00-05:00")},
		{"2026-03-09T12:15:00-05:00", docket.PostNotice{Meeting: docket.FrivolousMeeting}},
		{"2026-03-09T12:20:00-05:00", mail(tb, docket.FrivolousNotice, "94071118987654321705", "2026-03-09")},
		{"2026-03-12T19:00:00-05:00", docket.FindFrivolous{Findings: "Knowingly frivolous.", Fine: 1500, Knowingly: true}},
		// $1,000 of it paid; $500 outstanding.
		{"2026-03-20T10:00:00-05:00",
			docket.SettleFine{Payer: docket.Complainant, How: docket.FinePaid, Amount: 1000, Receipt: "R-0001"}},
	})
	// 2026-002: received Mon 16 Mar, alleging both sections: two parts. The respondent's
	// notice went out late, on day 7 (due Thu 19 Mar): missed, done late. Ruled on day 8:
	// the §103.10 part to hearing, the §103.05 part referred (C)(3). Hearing on day 21,
	// decision with a $2,000 fine on day 35. Nine deadlines: eight met, one missed.
	b := walk(tb, e, "2026-002", []act{
		{"2026-03-16T09:00:00-05:00", filing(tb, "2026-03-16T09:00:00-05:00", "103.10", "103.05")},
		{"2026-03-16T10:00:00-05:00", meeting(tb, suff, "2026-03-24T17:00:00-05:00")},
		{"2026-03-16T10:05:00-05:00", docket.PostNotice{Meeting: suff}},
		{"2026-03-17T12:00:00-05:00", mail(tb, docket.ComplainantConfirmPaper, "94071118987654322801", "2026-03-17")},
		{"2026-03-23T12:00:00-05:00", mail(tb, docket.RespondentNoticePaper, "94071118987654322702", "2026-03-23")},
		{"2026-03-24T18:00:00-05:00", docket.Rule{Ruling: docket.ProbableCause, ReferralRuling: docket.AttorneyReferral}},
		{"2026-03-25T09:00:00-05:00", meeting(tb, hear, "2026-04-06T10:00:00-05:00")},
		{"2026-03-25T09:05:00-05:00", docket.PostNotice{Meeting: hear}},
		{"2026-03-25T09:10:00-05:00", deliver(tb, docket.RulingToRespondent, "2026-03-25")},
		{"2026-03-25T09:15:00-05:00", deliver(tb, docket.RulingToComplainant, "2026-03-25")},
		{"2026-03-26T09:00:00-05:00", deliver(tb, docket.ReferralTransmittal, "2026-03-26")},
		{"2026-04-06T15:00:00-05:00", docket.ConcludeHearing{}},
		{"2026-04-20T10:00:00-05:00",
			docket.Decide{Findings: "Violated.", Recommendation: "Reprimand.", Fine: 2000, Intentional: true}},
		// Due Wed 20 May, unpaid: referred for collection.
		{"2026-06-01T10:00:00-05:00",
			docket.SettleFine{Payer: docket.Respondent, How: docket.FineCollection, To: "Corporation Counsel"}},
	})
	// 2026-003: received Mon 28 Dec, a month before an election at which the respondent
	// stands: expedited (G), its decision due Mon 2027-01-04. Nothing done: the (B)
	// notices, due Thu 31 Dec, are missed in 2026; the rest falls due in 2027.
	c := walk(tb, e, "2026-003", []act{
		{"2026-12-28T10:00:00-06:00", func() docket.File {
			f := filing(tb, "2026-12-28T10:00:00-06:00", "103.10")
			f.Elections = []docket.Date{date(tb, "2027-02-02")}
			return f
		}()},
	})
	// 2025-031: received Mon 29 Dec 2025. Its (B) notices fell due Fri 2026-01-02 and were
	// met; the sufficiency meeting's notice was met; the ruling and its two notices fell
	// due Thu 2026-01-08 and were never done. Three met and three missed in 2026; it is
	// not one of 2026's complaints.
	d := walk(tb, e, "2025-031", []act{
		{"2025-12-29T10:00:00-06:00", filing(tb, "2025-12-29T10:00:00-06:00", "103.10")},
		{"2025-12-29T11:00:00-06:00", meeting(tb, suff, "2026-01-09T17:00:00-06:00")},
		{"2025-12-29T11:05:00-06:00", docket.PostNotice{Meeting: suff}},
		{"2026-01-02T12:00:00-06:00", mail(tb, docket.RespondentNoticePaper, "94071118987654324201", "2026-01-02")},
		{"2026-01-02T12:05:00-06:00", mail(tb, docket.ComplainantConfirmPaper, "94071118987654324102", "2026-01-02")},
	})
	// 2026-004: received Mon 1 Jun; the longest path. A closed hearing on day 14, a
	// decision with a $3,000 fine on day 21, a demand, a public hearing, and a final
	// recommendation with a $2,500 fine on day 37, which replaces the decision's. Twelve
	// of the commission's deadlines, all met (the demand window is the respondent's).
	f := walk(tb, e, "2026-004", []act{
		{"2026-06-01T10:00:00-05:00", filing(tb, "2026-06-01T10:00:00-05:00", "103.10")},
		{"2026-06-01T11:00:00-05:00", meeting(tb, suff, "2026-06-05T17:00:00-05:00")},
		{"2026-06-01T11:05:00-05:00", docket.PostNotice{Meeting: suff}},
		{"2026-06-02T12:00:00-05:00", mail(tb, docket.RespondentNoticePaper, "94071118987654323501", "2026-06-02")},
		{"2026-06-02T12:05:00-05:00", mail(tb, docket.ComplainantConfirmPaper, "94071118987654323402", "2026-06-02")},
		{"2026-06-05T18:00:00-05:00", docket.Rule{Ruling: docket.ProbableCause}},
		{"2026-06-08T09:00:00-05:00",
			docket.ScheduleMeeting{Meeting: hear, Start: instant(tb, "2026-06-15T10:00:00-05:00"), Place: "City Hall",
				Closed: true, Authority: "5 ILCS 120/2(c)(1)"}},
		{"2026-06-08T09:05:00-05:00", docket.PostNotice{Meeting: hear}},
		{"2026-06-08T09:10:00-05:00", deliver(tb, docket.RulingToRespondent, "2026-06-08")},
		{"2026-06-08T09:15:00-05:00", deliver(tb, docket.RulingToComplainant, "2026-06-08")},
		{"2026-06-15T16:00:00-05:00", docket.ConcludeHearing{}},
		{"2026-06-22T10:00:00-05:00",
			docket.Decide{Findings: "Violated.", Recommendation: "Suspension.", Fine: 3000, Intentional: true}},
		{"2026-06-25T10:00:00-05:00", docket.DemandPublicHearing{}},
		{"2026-06-26T10:00:00-05:00", meeting(tb, pub, "2026-07-06T18:00:00-05:00")},
		{"2026-06-26T10:05:00-05:00", docket.PostNotice{Meeting: pub}},
		{"2026-07-06T20:00:00-05:00", docket.HoldPublicHearing{}},
		{"2026-07-08T10:00:00-05:00", docket.IssueFinal{Text: "Suspension and fine.", Fine: 2500, Intentional: true}},
		{"2026-07-20T10:00:00-05:00",
			docket.SettleFine{Payer: docket.Respondent, How: docket.FinePaid, Amount: 2500, Receipt: "R-0002"}},
	})
	return []docket.Case{f, d, c, b, a} // out of order: the report must not care
}

var asOf = "2027-01-15T12:00:00-06:00"

func TestYear(t *testing.T) {
	e := mustEngine(t)
	r := report.Of(year2026(t, e), 2026, e, instant(t, asOf))

	t.Run("Received", func(t *testing.T) {
		if r.Received != 4 || r.Parts != 5 || r.TwoPart != 1 {
			t.Errorf("received %d, parts %d, two-part %d; want 4, 5, 1", r.Received, r.Parts, r.TwoPart)
		}
		if r.Zone != "America/Chicago" || r.Year != 2026 {
			t.Errorf("zone %q year %d", r.Zone, r.Year)
		}
	})
	t.Run("Outcomes", func(t *testing.T) {
		got := map[report.Outcome]int{}
		for _, o := range r.Outcomes {
			got[o.Outcome] = o.Parts
		}
		want := map[report.Outcome]int{
			report.DismissedInsufficient: 1, report.AttorneyReferral: 1, report.Recommendation: 1,
			report.FinalRecommendation: 1, report.Open: 1,
			report.DismissedNoCause: 0, report.JudicialReferral: 0, report.DismissedAfterHearing: 0,
		}
		if !reflect.DeepEqual(got, want) || len(r.Outcomes) != len(report.Outcomes) {
			t.Errorf("outcomes %v, want %v", got, want)
		}
		if r.Frivolous != 1 {
			t.Errorf("frivolous %d, want 1", r.Frivolous)
		}
	})
	t.Run("Months", func(t *testing.T) {
		mar, jun, dec, jan := r.Months[2], r.Months[5], r.Months[11], r.Months[0]
		if mar.Month != "2026-03" || mar.Received != 2 || mar.Outcomes[report.DismissedInsufficient] != 1 ||
			mar.Outcomes[report.AttorneyReferral] != 1 || mar.Outcomes[report.Recommendation] != 1 {
			t.Errorf("March %+v", mar)
		}
		if jun.Received != 1 || jun.Outcomes[report.FinalRecommendation] != 1 || dec.Received != 1 ||
			dec.Outcomes[report.Open] != 1 {
			t.Errorf("June %+v, December %+v", jun, dec)
		}
		// 2025-031: (B) notices met Fri 2 Jan, its meeting's notice (due Wed 7 Jan) met,
		// its ruling and notices missed on Thu 8 Jan.
		if jan.Received != 0 || jan.DeadlinesMet != 3 || jan.DeadlinesMissed != 3 {
			t.Errorf("January %+v", jan)
		}
		if dec.DeadlinesMissed != 2 || dec.DeadlinesMet != 0 {
			t.Errorf("December %+v", dec)
		}
	})
	t.Run("Steps", func(t *testing.T) {
		want := []report.StepTime{
			{Step: report.StepNotices, Rule: "(B)", Cases: 3, MedianDays: 2, WorstDays: 7, WorstCase: "2026-002"},
			{Step: report.StepRuling, Rule: "(C)(1)", Cases: 3, MedianDays: 4, WorstDays: 8, WorstCase: "2026-002"},
			{Step: report.StepRulingNotices, Rule: "(C)(1)", Cases: 3, MedianDays: 7, WorstDays: 9, WorstCase: "2026-002"},
			{Step: report.StepHearing, Rule: "(D)", Cases: 2, MedianDays: 17.5, WorstDays: 21, WorstCase: "2026-002"},
			{Step: report.StepDecision, Rule: "(E)", Cases: 2, MedianDays: 28, WorstDays: 35, WorstCase: "2026-002"},
			{Step: report.StepFinal, Rule: "(F)", Cases: 1, MedianDays: 37, WorstDays: 37, WorstCase: "2026-004"},
		}
		if len(r.Steps) != len(want) {
			t.Fatalf("steps %+v", r.Steps)
		}
		for i, w := range want {
			g := r.Steps[i]
			g.Name = ""
			if g != w {
				t.Errorf("step %d: %+v, want %+v", i, g, w)
			}
		}
	})
	t.Run("Deadlines", func(t *testing.T) {
		d := r.Deadlines
		// 30 met: 2026-001's (H) meeting notice, posted in time, is the commission's
		// deadline too (the complainant is heard before a frivolous finding).
		if d.Met != 30 || d.Missed != 6 || d.ShareMet != 30.0/36 {
			t.Errorf("met %d missed %d share %v; want 30, 6, 30/36", d.Met, d.Missed, d.ShareMet)
		}
		type miss struct {
			cas  string
			id   docket.DeadlineID
			due  string
			late bool
		}
		var got []miss
		for _, m := range d.List {
			got = append(got, miss{m.Case, m.Deadline, m.Due.String(), m.DoneLate})
		}
		want := []miss{
			{"2025-031", docket.SufficiencyRuling, "2026-01-08", false},
			{"2025-031", docket.RulingNoticeRespondent, "2026-01-08", false},
			{"2025-031", docket.RulingNoticeComplainant, "2026-01-08", false},
			{"2026-002", docket.RespondentNotice, "2026-03-19", true},
			{"2026-003", docket.RespondentNotice, "2026-12-31", false},
			{"2026-003", docket.ComplainantConfirmation, "2026-12-31", false},
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("missed\n got %v\nwant %v", got, want)
		}
		if m := d.List[3]; m.Rule != "(B)" || m.DoneOn.String() != "2026-03-23" {
			t.Errorf("late notice %+v", m)
		}
	})
	t.Run("Fines", func(t *testing.T) {
		f := r.Fines
		// (E)(2) $2,000 (2026-002); (F) $2,500 replacing 2026-004's $3,000; (H) $1,500.
		if f.Count != 3 || f.Total != 6000 {
			t.Errorf("fines %d, $%d; want 3, $6000", f.Count, f.Total)
		}
		// Paid: (F) $2,500 in full, (H) $1,000 of $1,500; (E)(2) referred for collection.
		want := []report.FineGroup{
			{Rule: "(E)(2)", Count: 1, Total: 2000, Outstanding: 2000, Collection: 2000},
			{Rule: "(F)", Count: 1, Total: 2500, Paid: 2500},
			{Rule: "(H)", Count: 1, Total: 1500, Paid: 1000, Outstanding: 500}}
		for i, w := range want {
			g := f.ByRule[i]
			g.Name = ""
			if g != w {
				t.Errorf("fines %d: %+v, want %+v", i, g, w)
			}
		}
		if f.Paid != 3500 || f.Waived != 0 || f.Outstanding != 2500 || f.Collection != 2000 {
			t.Errorf("fines paid $%d, waived $%d, outstanding $%d, collection $%d; want 3500, 0, 2500, 2000", f.Paid, f.Waived,
				f.Outstanding, f.Collection)
		}
		if want := "Of these, as of Fri 15 Jan 2027: $3,500 paid, $0 waived, $2,500 outstanding (of which $2,000 referred " +
			"for collection)."; !strings.Contains(r.Markdown(), want) {
			t.Errorf("the report lacks %q:\n%s", want, r.Markdown())
		}
		for _, g := range report.PublicOf(year2026(t, e), 2026, e, instant(t, asOf)).Fines {
			if g.Paid+g.Outstanding+g.Waived+g.Collection != 0 {
				t.Errorf("the public report gives a fine's payment: %+v", g)
			}
		}
	})
	t.Run("Expedited", func(t *testing.T) {
		want := []report.Expedited{{Case: "2026-003", Election: date(t, "2027-02-02"), Due: date(t, "2027-01-04"),
			Status: docket.Missed}}
		if !reflect.DeepEqual(r.Expedited, want) {
			t.Errorf("expedited %+v, want %+v", r.Expedited, want)
		}
	})
	t.Run("AnotherYear", func(t *testing.T) {
		r := report.Of(year2026(t, e), 2025, e, instant(t, asOf))
		if r.Received != 1 || r.Deadlines.Met+r.Deadlines.Missed != 0 || r.Fines.Count != 0 || len(r.Expedited) != 0 {
			t.Errorf("2025: received %d, deadlines %+v, fines %+v", r.Received, r.Deadlines, r.Fines)
		}
		if r.Outcomes[len(r.Outcomes)-1].Parts != 1 {
			t.Errorf("2025's one complaint is open: %+v", r.Outcomes)
		}
	})
}

// TestBothSectionsBeforeRuling: a complaint alleging both sections counts two open parts
// until it is ruled on.
func TestBothSectionsBeforeRuling(t *testing.T) {
	e := mustEngine(t)
	c := walk(t, e, "2026-010",
		[]act{{"2026-05-04T10:00:00-05:00", filing(t, "2026-05-04T10:00:00-05:00", "103.10", "103.05")}})
	r := report.Of([]docket.Case{c}, 2026, e, instant(t, "2026-05-04T12:00:00-05:00"))
	if r.Parts != 2 || r.TwoPart != 1 || r.Outcomes[len(r.Outcomes)-1].Parts != 2 {
		t.Errorf("parts %d, two-part %d, outcomes %+v", r.Parts, r.TwoPart, r.Outcomes)
	}
	// Nothing has fallen due yet: no deadline counts, and the share is 0, not NaN.
	if r.Deadlines.Met+r.Deadlines.Missed != 0 || r.Deadlines.ShareMet != 0 {
		t.Errorf("deadlines %+v", r.Deadlines)
	}
}

func TestEmpty(t *testing.T) {
	e := mustEngine(t)
	r := report.Of(nil, 2026, e, instant(t, asOf))
	if r.Received != 0 || len(r.Months) != 12 || len(r.Steps) != 6 || len(r.Fines.ByRule) != 3 || r.Expedited == nil ||
		r.Deadlines.List == nil {
		t.Errorf("empty report %+v", r)
	}
}

func TestParseYear(t *testing.T) {
	now := instant(t, asOf)
	for _, c := range []struct {
		in   string
		want int
		err  string
	}{
		{"2026", 2026, ""},
		{"2027", 2027, ""},
		{"26", 0, `"26" is not a year: give its four digits, such as 2027`},
		{"２０２６", 0, "is not a year"},
		{"+202", 0, "is not a year"},
		{"2028", 0, "2028 has not begun: it is 2027 now"},
		{"1899", 0, "before 1900"},
		{"", 0, "is not a year"},
	} {
		got, err := report.ParseYear(c.in, now)
		switch {
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("ParseYear(%q) = %d, %v; want %d", c.in, got, err, c.want)
		case c.err != "" &&
			(err == nil || !strings.Contains(err.Error(), c.err) || docket.ErrorCode(err) != docket.EINVALID ||
				!strings.HasPrefix(err.Error(), "year: ")):
			t.Errorf("ParseYear(%q) error %v, want one naming the year and saying %q", c.in, err, c.err)
		}
	}
}
