package docket_test

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"ethicsbot/docket"
)

// attentionAt is what needs attention on c at now read from its schedule counted at now,
// step by step, as the clerk's desk read it before Attention kept the instants: the
// returned mailings' tasks, the steps missed, and the papers owed that neither names.
func attentionAt(e *docket.Engine, c *docket.Case, now time.Time) (steps []docket.DeadlineID, owed []docket.Paper) {
	sched := e.Schedule(&c.Facts, now)
	listed := map[docket.Paper]bool{}
	for _, dl := range sched.Deadlines {
		if dl.Done || dl.Period.Party != docket.Commission {
			continue
		}
		if paper, _, ok := e.ResendOf(c, dl); ok {
			steps = append(steps, dl.ID)
			listed[paper] = true
		} else if dl.Status == docket.Missed {
			steps = append(steps, dl.ID)
			if pi, ok := c.PaperFor(dl.ID); ok {
				listed[pi.Paper] = true
			}
		}
	}
	return steps, slices.DeleteFunc(c.PapersOwed(), func(p docket.Paper) bool { return listed[p] })
}

// TestAttentionAtEveryInstant: what Attention lists at an instant is what the schedule
// counted at that instant says, just before and at each instant a step falls overdue or a
// paper owed is named by its step, and its spans hold as many lines as it lists, on
// random cases at every stage of their life, some with a certified mailing come back.
func TestAttentionAtEveryInstant(t *testing.T) {
	e := MustEngine(t)
	loc := e.Cal.Location()
	r := rand.New(rand.NewPCG(3, 4))
	checked, overdue, owed, returned := 0, 0, 0, 0
	for i := range 1500 {
		c := &docket.Case{Facts: *randomFacts(r, loc)}
		switch i % 4 { // earlier in its life: fewer steps done, more owed and overdue
		case 1:
			c.Facts = docket.Facts{Received: c.Received, ViolationDate: c.ViolationDate, Sections: c.Sections,
				Elections: c.Elections, Sufficiency: c.Sufficiency}
		case 2:
			c.Ruling, c.RulingDate = docket.Insufficient, docket.DateIn(c.Sufficiency.Start, loc)
			c.Hearing, c.HearingClosed, c.HearingConcluded = docket.Meeting{}, false, 0
			c.RecommendationIssued, c.DecisionIssued, c.DemandReceived = 0, 0, 0
			c.PublicHearing, c.PublicHearingHeld = docket.Meeting{}, 0
		case 3:
			on := docket.DateIn(c.Received, loc).AddDays(5)
			c.Returned = []docket.ReturnedMail{{Paper: docket.RespondentNoticePaper, Outcome: docket.Unclaimed, On: on,
				Step: docket.FirstClass}}
		}
		a := e.Attention(c, ptr(e.Schedule(&c.Facts, time.Time{})))
		instants := []time.Time{c.Received, c.Received.AddDate(0, 0, r.IntN(800))}
		for _, st := range a.Steps {
			instants = append(instants, st.From, st.From.Add(-time.Nanosecond))
		}
		for _, p := range a.Owed {
			instants = append(instants, p.Named, p.Named.Add(-time.Nanosecond))
		}
		for _, now := range instants {
			if now.IsZero() || now.Year() < 2 {
				continue
			}
			wantSteps, wantOwed := attentionAt(e, c, now)
			gotDl, gotOwed := a.At(now)
			var gotSteps []docket.DeadlineID
			for _, dl := range gotDl {
				gotSteps = append(gotSteps, dl.ID)
			}
			if !slices.Equal(gotSteps, wantSteps) || !slices.Equal(gotOwed, wantOwed) {
				t.Fatalf("#%d at %s: Attention lists %v, owed %v; the schedule then says %v, owed %v",
					i, now, gotSteps, gotOwed, wantSteps, wantOwed)
			}
			lines := len(wantSteps)
			if len(wantOwed) > 0 {
				lines++
				owed++
			}
			held := 0
			for _, sp := range a.Spans() {
				if sp.Holds(now) {
					held++
				}
			}
			if held != lines {
				t.Fatalf("#%d at %s: %d spans hold, but %d lines are listed (%v, owed %v)", i, now, held, lines,
					wantSteps, wantOwed)
			}
			for _, dl := range gotDl {
				if _, _, ok := e.ResendOf(c, dl); ok {
					returned++
				} else {
					overdue++
				}
			}
			checked++
		}
	}
	if checked < 5000 || overdue < 1000 || owed < 1000 || returned < 100 {
		t.Fatalf("checked %d instants: %d steps overdue, %d with papers owed, %d mailings returned; the cases do "+
			"not reach every kind of line", checked, overdue, owed, returned)
	}
}

// TestMissedFrom: a dated step not done is missed from MissedFrom on and not before, a
// date's deadline at the start of the next day in the commission's zone, a notice's just
// after its instant (5 ILCS 120/2.02); a task without a time limit never is.
func TestMissedFrom(t *testing.T) {
	e := MustEngine(t)
	r := rand.New(rand.NewPCG(5, 6))
	dated := 0
	for range 300 {
		f := randomFacts(r, e.Cal.Location())
		for _, d := range e.Schedule(f, time.Time{}).Deadlines {
			from := e.MissedFrom(d)
			if d.Done {
				continue
			}
			if !d.Dated() {
				if !from.IsZero() {
					t.Fatalf("%s, a task without a time limit, missed from %s", d.ID, from)
				}
				continue
			}
			before, at := e.Schedule(f, from.Add(-time.Nanosecond)), e.Schedule(f, from)
			b, _ := before.Find(d.ID)
			m, _ := at.Find(d.ID)
			if b.Status != docket.Open || m.Status != docket.Missed {
				t.Fatalf("%s due %s %s: just before %s it is %s, then %s; want open, then missed", d.ID, d.Due,
					d.DueAt, from, b.Status, m.Status)
			}
			dated++
		}
	}
	if dated < 500 {
		t.Fatalf("only %d dated steps not done checked", dated)
	}
}

func ptr[T any](v T) *T { return &v }

// TestMissedFromWhereMidnightIsSkipped: in a zone whose clocks go forward at midnight
// (America/Santiago on 6 Sep 2026, 00:00 -> 01:00), a step due the day before is missed
// from the first instant of the next day, 01:00, not from 23:00 of its own due date, which
// time.Date gives for the midnight that does not exist; and a day begins (Date.In) at the
// first instant of that day.
func TestMissedFromWhereMidnightIsSkipped(t *testing.T) {
	e := &docket.Engine{Cal: MustCalendar(t, docket.CalendarConfig{Zone: "America/Santiago"}),
		Ord: docket.DefaultOrdinance()}
	loc := e.Cal.Location()
	due := docket.NewDate(2026, time.September, 5)
	from := e.MissedFrom(docket.Deadline{Due: due})
	if got := docket.DateIn(from.Add(-time.Nanosecond), loc); got != due {
		t.Fatalf("missed from %s, but the instant before is on %s, not its due date %s", from, got, due)
	}
	if got := docket.DateIn(from, loc); got != due.AddDays(1) {
		t.Fatalf("missed from %s, on %s; want the day after %s", from, got, due)
	}
	want := time.Date(2026, time.September, 6, 1, 0, 0, 0, loc)
	if day := due.AddDays(1); !day.In(loc).Equal(want) {
		t.Fatalf("%s begins at %s; want %s", day, day.In(loc), want)
	}
	// Where midnight exists, a day still begins at it.
	if got, want := due.In(loc), time.Date(2026, time.September, 5, 0, 0, 0, 0, loc); !got.Equal(want) {
		t.Fatalf("%s begins at %s; want %s", due, got, want)
	}
}
