package report_test

import (
	"fmt"
	"testing"
	"time"

	"ethicsbot/docket"
	"ethicsbot/report"
)

// benchCases returns n cases received through 2026 along four paths (left open after
// the (B) notices; dismissed; decided with a fine after a hearing; alleging both
// sections, one part referred), each walked through the engine.
func benchCases(b *testing.B, e *docket.Engine, n int) []docket.Case {
	b.Helper()
	const distinct = 400
	loc := e.Cal.Location()
	var walked []docket.Case
	for i := range distinct {
		recv := time.Date(2026, 1, 5, 10, 0, 0, 0, loc).AddDate(0, 0, i*330/distinct)
		at := func(d, h int) string {
			return recv.AddDate(0, 0, d).Add(time.Duration(h) * time.Hour).Format(time.RFC3339)
		}
		sections := []string{"103.10"}
		if i%4 == 3 {
			sections = append(sections, "103.05")
		}
		acts := []act{
			{at(0, 0), filing(b, at(0, 0), sections...)},
			{at(0, 1), meeting(b, docket.SufficiencyMeeting, at(4, 0))},
			{at(0, 2), docket.PostNotice{Meeting: docket.SufficiencyMeeting}},
			{at(1, 0), docket.RecordMailing{Paper: docket.RespondentNoticePaper, Article: "94071118987654321101"}},
			{at(2, 0), docket.RecordMailing{Paper: docket.ComplainantConfirmPaper, Article: "94071118987654321002"}},
		}
		switch i % 4 {
		case 1:
			acts = append(acts,
				act{at(4, 1), docket.Rule{Ruling: docket.NoProbableCause}},
				act{at(5, 0), docket.RecordMailing{Paper: docket.DismissalToRespondent, Article: "94071118987654321903"}},
				act{at(6, 0), docket.RecordMailing{Paper: docket.DismissalToComplainant, Article: "94071118987654321804"}})
		case 2, 3:
			rule := docket.Rule{Ruling: docket.ProbableCause}
			if i%4 == 3 {
				rule.ReferralRuling = docket.AttorneyReferral
			}
			acts = append(acts,
				act{at(4, 1), rule},
				act{at(5, 0), meeting(b, docket.HearingMeeting, at(12, 0))},
				act{at(5, 1), docket.PostNotice{Meeting: docket.HearingMeeting}},
				act{at(5, 2), docket.RecordDelivery{Paper: docket.RulingToRespondent}},
				act{at(5, 3), docket.RecordDelivery{Paper: docket.RulingToComplainant}},
				act{at(12, 5), docket.ConcludeHearing{}},
				act{at(20, 0), docket.Decide{Findings: "Violated.", Recommendation: "Reprimand.", Fine: 2000, Intentional: true}})
		}
		walked = append(walked, walk(b, e, "", acts))
	}
	cases := make([]docket.Case, n)
	for i := range cases {
		cases[i] = walked[i%distinct]
		cases[i].Number = fmt.Sprintf("%d-%05d", 2026, i+1)
	}
	return cases
}

// BenchmarkOf10000 computes a year's report over 10,000 cases, as /ethics report and
// `ethicsbot report` do once the record is read.
func BenchmarkOf10000(b *testing.B) {
	e := mustEngine(b)
	cases := benchCases(b, e, 10000)
	now := instant(b, "2027-01-15T12:00:00-06:00")
	if r := report.Of(cases, 2026, e, now); r.Received != 10000 || r.Deadlines.Met == 0 {
		b.Fatalf("received %d, deadlines %+v", r.Received, r.Deadlines.Met)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		report.Of(cases, 2026, e, now)
	}
}

// BenchmarkChart draws the chart of a year of 10,000 cases.
func BenchmarkChart(b *testing.B) {
	e := mustEngine(b)
	r := report.Of(benchCases(b, e, 10000), 2026, e, instant(b, "2027-01-15T12:00:00-06:00"))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := r.Chart(); err != nil {
			b.Fatal(err)
		}
	}
}
