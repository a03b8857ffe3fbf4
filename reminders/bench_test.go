package reminders_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
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
func (o *memOutbox) Planned(context.Context, time.Time) (map[outbox.Key]bool, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := make(map[outbox.Key]bool, len(o.planned))
	for k := range o.planned {
		out[k] = true
	}
	return out, nil
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

// BenchmarkSweep is one minute's sweep in steady state: every case's deadlines derived and
// every due reminder found already in the outbox.
func BenchmarkSweep(b *testing.B) {
	bySize(b, func(b *testing.B, e *docket.Engine, cases memCases, now time.Time) {
		s := &reminders.Sweeper{
			Planner: &reminders.Planner{Engine: e, Policy: reminders.Defaults(), People: people},
			Cases:   cases, Outbox: &memOutbox{planned: map[outbox.Key]bool{}},
			Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		}
		st, err := s.Sweep(context.Background(), now) // puts everything due in the outbox once
		if err != nil || st.Planned == 0 {
			b.Fatalf("%+v %v", st, err)
		}
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
