package docket

import (
	"slices"
	"testing"
	"time"
)

// TestStepFromItsRowAlone adds a step to the table as one row and one paper, as a town
// adding a deadline would, and follows a case through it: the schedule counts it, the
// papers owed and Needs follow it, and recording the paper's delivery meets it. Nothing
// else in docket knows of it. (Internal: the table is the package's own; the test puts
// it back as it was.)
func TestStepFromItsRowAlone(t *testing.T) {
	const id, paper = DeadlineID("test_minutes"), Paper("test_minutes")
	periods, ps := defaultPeriods, papers
	t.Cleanup(func() { defaultPeriods, papers = periods, ps })
	defaultPeriods = append(slices.Clone(periods), Period{ID: id, Rule: "(C)(1)", Amount: 5, Unit: BusinessDays,
		Trigger: "the sufficiency meeting", Duty: "minutes of the sufficiency meeting sent", Party: Commission,
		units: dateUnits, Papers: []Paper{paper},
		Due: func(e *Engine, f *Facts) []Date {
			if !f.Sufficiency.Scheduled() {
				return nil
			}
			return []Date{e.Cal.DateOf(f.Sufficiency.Start)}
		}})
	papers = append(slices.Clone(ps),
		PaperInfo{Paper: paper, Rule: "(C)(1)", To: Attorney, Name: "minutes of the sufficiency meeting"})

	cal, err := NewCalendar(CalendarConfig{})
	if err != nil {
		t.Fatal(err)
	}
	e := &Engine{Cal: cal, Ord: DefaultOrdinance()}
	loc := cal.Location()
	at := func(s string) time.Time {
		tm, err := time.ParseInLocation("2006-01-02 15:04", s, loc)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	c, _, err := e.Apply(Case{},
		File{Complainant: Person{Name: "A"}, Respondent: Person{Name: "B"}, Sections: []string{"103.10"},
			Received: at("2026-12-04 10:00"), Summary: "x"}, at("2026-12-04 10:30"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := e.Schedule(&c.Facts, time.Time{}).Find(id); ok || slices.Contains(c.PapersOwed(), paper) {
		t.Fatal("the step applies before the meeting it counts from")
	}
	if _, _, err := e.Apply(c, RecordDelivery{Paper: paper}, at("2026-12-04 11:00")); err == nil {
		t.Fatal("the paper was recorded before the case needs it")
	}
	c, _, err = e.Apply(c, ScheduleMeeting{Meeting: SufficiencyMeeting, Start: at("2026-12-09 17:00"), Place: "City Hall"},
		at("2026-12-04 11:00"))
	if err != nil {
		t.Fatal(err)
	}
	d, ok := e.Schedule(&c.Facts, at("2026-12-17 09:00")).Find(id)
	if !ok || d.Due.String() != "2026-12-16" || d.Status != Missed || d.Done {
		t.Fatalf("deadline %+v, %v: want due 2026-12-16 (5 business days after the meeting), missed on the 17th", d, ok)
	}
	if !slices.Contains(c.PapersOwed(), paper) {
		t.Fatalf("papers owed %v lack %s", c.PapersOwed(), paper)
	}
	if got, want := c.Command(d), "delivered "+c.Number+" test_minutes"; got != want {
		t.Errorf("command %q, want %q", got, want)
	}
	before := c.clone()
	c, _, err = e.Apply(c, RecordDelivery{Paper: paper, On: cal.DateOf(at("2026-12-15 12:00"))}, at("2026-12-15 12:00"))
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := e.Schedule(&c.Facts, at("2026-12-17 09:00")).Find(id); d.Status != Met || !d.Done {
		t.Errorf("after the delivery: %+v, want met", d)
	}
	if slices.Contains(c.PapersOwed(), paper) || len(before.PapersSent) != 0 {
		t.Errorf("papers owed %v, and the case before it %v: the delivery met it, on the new case only", c.PapersOwed(),
			before.PapersSent)
	}
}
