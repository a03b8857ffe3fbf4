package reminders_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"ethicsbot/docket"
	"ethicsbot/outbox"
	"ethicsbot/reminders"
)

// memCases and memOutbox stand in for the store, so the benchmark measures the sweep's own
// work; the store's OpenCases is benchmarked in store (14.7 ms at 10,000 open cases).
type memCases []*docket.Case

func (m memCases) OpenCases(context.Context) ([]*docket.Case, error) { return m, nil }

type memOutbox struct {
	mu      sync.Mutex
	planned map[outbox.Key]bool
	last    time.Time
}

func (o *memOutbox) Enqueue(_ context.Context, posts []outbox.Post) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, p := range posts {
		o.planned[p.Key] = true
	}
	return nil
}
func (o *memOutbox) Planned(_ context.Context, _ time.Time, fn func(outbox.Key)) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	for k, ok := range o.planned {
		if ok {
			fn(k)
		}
	}
	return nil
}
func (o *memOutbox) LastSweep(context.Context) (time.Time, error)      { return o.last, nil }
func (o *memOutbox) SetLastSweep(_ context.Context, t time.Time) error { o.last = t; return nil }

// openCases builds n open cases at different stages, received over the last month.
func openCases(b *testing.B, e *docket.Engine, n int, now time.Time) memCases {
	out := make(memCases, 0, n)
	for i := 0; i < n; i++ {
		received := now.Add(-time.Duration(i%30*24+1) * time.Hour)
		c, _, err := e.Apply(docket.Case{},
			docket.File{Complainant: docket.Person{Name: "C"}, Respondent: docket.Person{Name: fmt.Sprint("R", i)},
				Sections: []string{"103.10"}, Received: received, Summary: "x"}, received)
		if err != nil {
			b.Fatal(err)
		}
		c.Number = fmt.Sprintf("2026-%05d", i)
		if i%2 == 0 {
			c, _, err = e.Apply(c,
				docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: now.Add(time.Duration(i%9+3) * 24 * time.Hour),
					Place: "City Hall"}, received)
			if err != nil {
				b.Fatal(err)
			}
		}
		out = append(out, &c)
	}
	return out
}

// bySize runs bench for 1,000, 10,000 and 100,000 open cases.
func bySize(b *testing.B, bench func(b *testing.B, e *docket.Engine, cases memCases, now time.Time)) {
	cal, _ := docket.NewCalendar(docket.CalendarConfig{})
	e := &docket.Engine{Cal: cal, Ord: docket.DefaultOrdinance()}
	now := time.Date(2026, 12, 9, 15, 30, 0, 0, time.UTC)
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprintf("open=%d", n), func(b *testing.B) { bench(b, e, openCases(b, e, n, now), now) })
	}
}

// steadySweeper is a sweeper of cases that has put everything due at now in its outbox
// once: the next sweep at now finds nothing new.
func steadySweeper(b *testing.B, e *docket.Engine, cases reminders.Cases, now time.Time) *reminders.Sweeper {
	s := &reminders.Sweeper{
		Planner: &reminders.Planner{Engine: e, Policy: reminders.Defaults(), People: people},
		Cases:   cases, Outbox: &memOutbox{planned: map[outbox.Key]bool{}},
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	if st, err := s.Sweep(context.Background(), now); err != nil || st.Planned == 0 {
		b.Fatalf("%+v %v", st, err)
	}
	return s
}

// BenchmarkSweep is one minute's sweep in steady state: every case's deadlines derived and
// every due reminder found already in the outbox.
func BenchmarkSweep(b *testing.B) {
	bySize(b, func(b *testing.B, e *docket.Engine, cases memCases, now time.Time) {
		s := steadySweeper(b, e, cases, now)
		b.ResetTimer()
		for b.Loop() {
			st, err := s.Sweep(context.Background(), now)
			if err != nil || st.Planned != 0 || st.Cases != len(cases) {
				b.Fatalf("%+v %v", st, err)
			}
		}
	})
}

// BenchmarkBaselineSchedules only derives every open case's deadlines: the floor under any
// sweep, measured in the same run.
func BenchmarkBaselineSchedules(b *testing.B) {
	bySize(b, func(b *testing.B, e *docket.Engine, cases memCases, now time.Time) {
		var buf []docket.Deadline
		b.ResetTimer()
		for b.Loop() {
			for _, c := range cases {
				buf = e.ScheduleInto(buf, &c.Facts, now).Deadlines
			}
		}
	})
}

// dueIndex is memCases with the store's index of the cases' next due instants: DueCases
// finds the cases due by until by a binary search of the instants, as SQLite searches
// cases_open_by_due, and gives them oldest first, a page at a time as the store does.
type dueIndex struct {
	memCases
	due   []time.Time    // ascending
	cases []*docket.Case // in the order of due
}

func newDueIndex(e *docket.Engine, cases memCases, asOf time.Time) *dueIndex {
	idx := &dueIndex{memCases: cases}
	for _, c := range cases {
		if next := e.NextDue(c, asOf); !next.IsZero() {
			idx.due, idx.cases = append(idx.due, next), append(idx.cases, c)
		}
	}
	sort.Sort(byDue{idx})
	return idx
}

func (d *dueIndex) DueCases(_ context.Context, until time.Time, fn func([]*docket.Case) error) error {
	n := sort.Search(len(d.due), func(i int) bool { return d.due[i].After(until) })
	out := slices.Clone(d.cases[:n])
	slices.SortFunc(out, func(a, b *docket.Case) int {
		if c := a.Received.Compare(b.Received); c != 0 {
			return c
		}
		return strings.Compare(a.Number, b.Number)
	})
	for page := range slices.Chunk(out, 256) { // the store's page
		if err := fn(page); err != nil {
			return err
		}
	}
	return nil
}

type byDue struct{ *dueIndex }

func (b byDue) Len() int           { return len(b.due) }
func (b byDue) Less(i, j int) bool { return b.due[i].Before(b.due[j]) }
func (b byDue) Swap(i, j int) {
	b.due[i], b.due[j] = b.due[j], b.due[i]
	b.cases[i], b.cases[j] = b.cases[j], b.cases[i]
}

// waitingCases builds n open cases of which the first 100 are at the stages openCases
// builds, with reminders due, and the others were received today, their (B) notices
// mailed and their sufficiency meeting noticed for a week ahead: nothing about them is
// due for days.
func waitingCases(b *testing.B, e *docket.Engine, n int, now time.Time) memCases {
	out := openCases(b, e, min(n, 100), now)
	meeting := time.Date(2026, 12, 16, 17, 0, 0, 0, e.Cal.Location())
	for i := len(out); i < n; i++ {
		received := now.Add(-time.Duration(i%60+1) * time.Minute)
		c := docket.Case{}
		for _, a := range []docket.Action{
			docket.File{Complainant: docket.Person{Name: "C"}, Respondent: docket.Person{Name: fmt.Sprint("R", i)},
				Sections: []string{"103.10"}, Received: received, Summary: "x"},
			docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: meeting, Place: "City Hall"},
			docket.PostNotice{Meeting: docket.SufficiencyMeeting},
			docket.RecordMailing{Recipient: docket.Respondent, Article: "94071118987654321712"},
			docket.RecordMailing{Recipient: docket.Complainant, Article: "94071118987654321729"},
		} {
			var err error
			if c, _, err = e.Apply(c, a, received); err != nil {
				b.Fatal(err)
			}
		}
		c.Number = fmt.Sprintf("2026-%05d", i)
		out = append(out, &c)
	}
	return out
}

// BenchmarkSweepNothingNew is one minute's sweep in steady state over n open cases of
// which 100 have reminders due, all said already: with DueCases it reads those alone.
// The same file, run against a tree whose sweep reads every open case, gives the baseline.
func BenchmarkSweepNothingNew(b *testing.B) {
	cal, _ := docket.NewCalendar(docket.CalendarConfig{})
	e := &docket.Engine{Cal: cal, Ord: docket.DefaultOrdinance()}
	now := time.Date(2026, 12, 9, 15, 30, 0, 0, time.UTC)
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprintf("open=%d", n), func(b *testing.B) {
			cases := waitingCases(b, e, n, now)
			s := steadySweeper(b, e, newDueIndex(e, cases, now.Add(-time.Hour)), now)
			var st reminders.Stats
			var err error
			b.ResetTimer()
			for b.Loop() {
				if st, err = s.Sweep(context.Background(), now); err != nil || st.Planned != 0 {
					b.Fatalf("%+v %v", st, err)
				}
			}
			b.ReportMetric(float64(st.Cases), "cases/sweep")
		})
	}
}
