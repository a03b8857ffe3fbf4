package reminders_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
	"ethicsbot/outbox"
	"ethicsbot/reminders"
)

// meetingCases is memCases with the commission's meetings, folded from the cases' steps as
// the store folds them. Its sweep reads every open case and every meeting, as the sweep did
// before it read the due cases and the meetings of the days it looks at alone.
type meetingCases struct {
	memCases
	e *docket.Engine
}

func (m meetingCases) Meetings(context.Context) ([]docket.CommissionMeeting, error) {
	f := m.e.NewFolding(nil)
	for _, c := range m.memCases {
		f.Add(c)
	}
	return f.Meetings(), nil
}

// dueCases gives the sweep the cases whose next due instant has come by until, as the
// store's index of the instants does, page of them at a time, as the store gives them; and
// the meetings of the days asked for, as the store gives them (TestMeetingsOnTheDaysAskedFor
// in store).
type dueCases struct {
	meetingCases
	asOf map[string]time.Time // each case's last event
	page int
}

func (d dueCases) MeetingsOn(ctx context.Context, first, last docket.Date) ([]docket.CommissionMeeting, error) {
	ms, err := d.Meetings(ctx)
	return slices.DeleteFunc(ms, func(m docket.CommissionMeeting) bool {
		return d.e.Cal.DateOf(m.Start) < first || d.e.Cal.DateOf(m.Start) > last
	}), err
}

func (d dueCases) DueCases(_ context.Context, until time.Time, fn func([]*docket.Case) error) error {
	var out []*docket.Case
	for _, c := range d.memCases {
		if next := d.e.NextDue(c, d.asOf[c.Number]); !next.IsZero() && !next.After(until) {
			out = append(out, c)
		}
	}
	for page := range slices.Chunk(out, d.page) {
		if err := fn(page); err != nil {
			return err
		}
	}
	return nil
}

// textOutbox keeps what each reminder says, by key, and the order they were put in it.
type textOutbox struct {
	memOutbox
	said  map[outbox.Key]outbox.Markup
	order []outbox.Key
}

func (o *textOutbox) Enqueue(ctx context.Context, posts []outbox.Post) error {
	for _, p := range posts {
		o.said[p.Key] = p.Text
		o.order = append(o.order, p.Key)
	}
	return o.memOutbox.Enqueue(ctx, posts)
}

// stagedCases are cases at each stage a sweep reminds of, received over three weeks: just
// filed; with a meeting not yet noticed; noticed and mailed; referred for adjudication,
// with only the attorney's request owed (a paper without a time limit); and expedited
// before an election.
func stagedCases(t *testing.T, e *docket.Engine, start time.Time) (memCases, map[string]time.Time) {
	var out memCases
	last := map[string]time.Time{}
	for i := range 40 {
		received := start.Add(-time.Duration(i*13) * time.Hour)
		if i%5 == 3 { // ruled before the sweeps begin
			received = received.AddDate(0, 0, -10)
		}
		c := docket.Case{}
		var lastAt time.Time
		act := func(a docket.Action, at time.Time) {
			t.Helper()
			next, _, err := e.Apply(c, a, at)
			if err != nil {
				t.Fatalf("case %d: %s: %v", i, a.Kind(), err)
			}
			c, lastAt = next, at
		}
		var elections []docket.Date
		if i%5 == 4 {
			elections = []docket.Date{e.Cal.DateOf(received).AddDays(40)}
		}
		act(docket.File{Complainant: docket.Person{Name: "C"}, Respondent: docket.Person{Name: fmt.Sprint("R", i)},
			Sections: []string{"103.10"}, Received: received, Summary: "x", Elections: elections}, received)
		c.Number = fmt.Sprintf("2026-%03d", i+1)
		meeting := time.Date(2026, 12, 10+i%12, 17, 0, 0, 0, e.Cal.Location())
		if i%5 == 3 {
			y, m, d := received.In(e.Cal.Location()).AddDate(0, 0, 4).Date()
			meeting = time.Date(y, m, d, 17, 0, 0, 0, e.Cal.Location())
		}
		for !e.Cal.IsBusinessDay(e.Cal.DateOf(meeting)) || e.Cal.StatutoryHoliday(e.Cal.DateOf(meeting)) != "" {
			meeting = meeting.AddDate(0, 0, 1)
		}
		if i%5 >= 1 && i%5 <= 3 {
			act(docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: meeting, Place: "City Hall"}, received)
		}
		if i%5 >= 2 && i%5 <= 3 {
			act(docket.PostNotice{Meeting: docket.SufficiencyMeeting}, received)
			act(docket.RecordMailing{Recipient: docket.Respondent, Article: "94071118987654321712"}, received)
			act(docket.RecordMailing{Recipient: docket.Complainant, Article: "94071118987654321729"}, received)
		}
		if i%5 == 3 {
			held := meeting.Add(time.Hour)
			act(docket.Rule{Ruling: docket.JudicialReferral}, held)
			act(docket.RecordDelivery{Paper: docket.RulingToRespondent}, held)
			act(docket.RecordDelivery{Paper: docket.RulingToComplainant}, held)
		}
		last[c.Number] = lastAt
		out = append(out, &c)
	}
	return out, last
}

// The sweep that reads only the cases due within its lookahead, a few at a time, says
// exactly what the sweep of every open case says, in the same order, at every sweep of five
// weeks, the digest and the agendas gathered across the pages included.
func TestSweepOfTheDueSaysWhatTheSweepOfAllSays(t *testing.T) {
	cal, err := docket.NewCalendar(docket.CalendarConfig{})
	if err != nil {
		t.Fatal(err)
	}
	e := &docket.Engine{Cal: cal, Ord: docket.DefaultOrdinance()}
	start := at(t, "2026-11-30 07:00")
	cases, last := stagedCases(t, e, start)
	sweeper := func(cs reminders.Cases) (*reminders.Sweeper, *textOutbox) {
		o := &textOutbox{memOutbox: memOutbox{planned: map[outbox.Key]bool{}}, said: map[outbox.Key]outbox.Markup{}}
		return &reminders.Sweeper{Planner: &reminders.Planner{Engine: e, Policy: everywhere(), People: people},
			Cases: cs, Outbox: o}, o
	}
	all, allSaid := sweeper(meetingCases{cases, e})
	due, dueSaid := sweeper(dueCases{meetingCases{cases, e}, last, 3})
	looked := 0
	for now := start; now.Before(start.AddDate(0, 0, 35)); now = now.Add(30 * time.Minute) {
		a, err := all.Sweep(ctx, now)
		if err != nil {
			t.Fatal(err)
		}
		d, err := due.Sweep(ctx, now)
		if err != nil {
			t.Fatal(err)
		}
		looked += d.Cases
		if a.Planned != d.Planned || !maps.Equal(allSaid.said, dueSaid.said) || !slices.Equal(allSaid.order, dueSaid.order) {
			var missing []string
			for k, text := range allSaid.said {
				if dueSaid.said[k] != text {
					missing = append(missing, k.String())
				}
			}
			slices.Sort(missing)
			t.Fatalf("at %s the sweep of the due planned %d, of all %d; differing:\n%s", now, d.Planned, a.Planned,
				strings.Join(missing, "\n"))
		}
	}
	if len(allSaid.said) == 0 || strings.Count(fmt.Sprint(slices.Collect(maps.Keys(allSaid.said))), "required:") == 0 {
		t.Fatalf("the cases reminded of nothing, or not of the paper without a time limit: %d reminders",
			len(allSaid.said))
	}
	series := map[string]int{}
	meetingLines := 0
	for k, text := range allSaid.said {
		series[k.Series]++
		meetingLines += strings.Count(string(text), "• Meeting ")
	}
	if series[reminders.AgendaSeries] == 0 || series[reminders.PrepareSeries] == 0 || meetingLines == 0 {
		t.Errorf("the sweeps said %d agendas, %d reminders to prepare one and %d digest lines of meetings: want each, "+
			"to compare the meetings looked up: %v", series[reminders.AgendaSeries], series[reminders.PrepareSeries],
			meetingLines, series)
	}
	if sweeps := 35 * 48; looked >= sweeps*len(cases) {
		t.Errorf("the sweep of the due looked at %d cases in %d sweeps: every case every time", looked, sweeps)
	}
}
