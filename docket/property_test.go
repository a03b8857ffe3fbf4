package docket_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"ethicsbot/docket"
)

// randomFacts builds a valid case at a random point of its life, from seed.
func randomFacts(r *rand.Rand, loc *time.Location) *docket.Facts {
	day := func(from time.Time, max int) time.Time {
		return from.Add(time.Duration(r.IntN(max*24*60)) * time.Minute)
	}
	received := day(time.Date(2020, 1, 1, 0, 0, 0, 0, loc), 365*15)
	local := func(t time.Time) docket.Date { return docket.DateIn(t, loc) }
	f := &docket.Facts{
		Received:      received,
		ViolationDate: local(received).AddDays(-r.IntN(500)),
		Sections:      []string{"103.10"},
		Elections:     []docket.Date{local(received).AddDays(r.IntN(90) + 1), local(received).AddDays(r.IntN(400) - 200)},
	}
	f.Sufficiency = docket.Meeting{Start: day(received.Add(48*time.Hour), 10)}
	f.Ruling = docket.ProbableCause
	f.Hearing = docket.Meeting{Start: day(f.Sufficiency.Start, 28), Closed: r.IntN(2) == 0}
	f.HearingClosed = f.Hearing.Closed
	f.HearingConcluded = local(day(f.Hearing.Start, 20))
	f.RecommendationIssued = f.HearingConcluded.AddDays(r.IntN(30))
	f.DecisionIssued = f.RecommendationIssued
	if f.HearingClosed {
		f.DemandReceived = f.RecommendationIssued.AddDays(r.IntN(9))
		f.PublicHearing = docket.Meeting{Start: f.DemandReceived.AddDays(3).In(loc).Add(18 * time.Hour)}
		f.PublicHearingHeld = docket.DateIn(f.PublicHearing.Start, loc)
	}
	return f
}

// TestPropertyDeadlinesLandOnBusinessDays: every business-day deadline lands on a business
// day, and every calendar deadline on a day 5 ILCS 70/1.11 allows as a last day, unless
// (G) caps it at the day before an election.
func TestPropertyDeadlinesLandOnBusinessDays(t *testing.T) {
	cals := []*docket.Calendar{
		MustCalendar(t, docket.CalendarConfig{}),
		MustCalendar(t,
			docket.CalendarConfig{Zone: "America/Los_Angeles", Add: []string{"day_after_thanksgiving"},
				Remove: []string{"columbus_day"}}),
	}
	r := rand.New(rand.NewPCG(1, 2))
	checked := 0
	for i := 0; i < 5000; i++ {
		e := &docket.Engine{Cal: cals[i%len(cals)], Ord: docket.DefaultOrdinance()}
		f := randomFacts(r, e.Cal.Location())
		if err := e.Validate(f); err != nil {
			t.Fatalf("random facts #%d invalid: %v", i, err)
		}
		s := e.Schedule(f, time.Time{})
		for _, d := range s.Deadlines {
			if d.Period.Unit == docket.Hours {
				if d.DueAt.IsZero() || !d.Due.IsZero() {
					t.Fatalf("#%d %s: a notice deadline must be an instant: %+v", i, d.ID, d)
				}
				continue
			}
			if d.Period.Unit == docket.Task {
				if d.Dated() || d.Status == docket.Missed {
					t.Fatalf("#%d %s: a task without a time limit has no date and is never missed: %+v", i, d.ID, d)
				}
				continue
			}
			capped := d.ID == docket.ElectionDecision && d.Due == s.Election.AddDays(-1)
			if d.Period.Unit == docket.BusinessDays && !e.Cal.IsBusinessDay(d.Due) {
				t.Fatalf("#%d %s due %s, not a business day (%s); facts %+v", i, d.ID, d.Due.Long(), d.Basis(), f)
			}
			// 5 ILCS 70/1.11: a calendar period's last day is never a Saturday, a Sunday or
			// a statutory holiday; an office closure alone does not move it.
			if why := e.Cal.Excluded(d.Due); d.Period.Unit != docket.BusinessDays && why != "" && !capped {
				t.Fatalf("#%d %s due %s, %s (%s); facts %+v", i, d.ID, d.Due.Long(), why, d.Basis(), f)
			}
			if d.Due <= s.Received && d.ID != docket.FilingLimit && !capped {
				t.Fatalf("#%d %s due %s, not after receipt %s", i, d.ID, d.Due, s.Received)
			}
			checked++
		}
	}
	if checked < 20000 {
		t.Fatalf("only %d deadlines checked; the generator is not reaching later stages", checked)
	}
}
