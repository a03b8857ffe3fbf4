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
	"ethicsbot/reminders"
)

// memCases and memOutbox stand in for the store, so the benchmark measures the sweep's own
// work; the store's OpenCases is benchmarked in store (14.7 ms at 10,000 open cases).
type memCases []*docket.Case

func (m memCases) OpenCases(context.Context) ([]*docket.Case, error) { return m, nil }

type memOutbox struct {
	mu   sync.Mutex
	sent map[string]bool
	last time.Time
}

func (o *memOutbox) Claim(_ context.Context, c, s, st string, _, _ time.Time) (time.Time, bool, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return time.Time{}, !o.sent[c+"|"+s+"|"+st], nil
}
func (o *memOutbox) MarkSent(_ context.Context, c, s, st, _, _ string, _ time.Time) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.sent[c+"|"+s+"|"+st] = true
	return nil
}
func (o *memOutbox) MarkFailed(context.Context, string, string, string, string) error { return nil }
func (o *memOutbox) SentSince(context.Context, time.Time) (map[string]bool, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := make(map[string]bool, len(o.sent))
	for k := range o.sent {
		out[k] = true
	}
	return out, nil
}
func (o *memOutbox) QueuePost(context.Context, string, string, string, time.Time) error { return nil }
func (o *memOutbox) UnsentPosts(context.Context, time.Time) ([]reminders.Post, error) {
	return nil, nil
}
func (o *memOutbox) LastSweep(context.Context) (time.Time, error)      { return o.last, nil }
func (o *memOutbox) SetLastSweep(_ context.Context, t time.Time) error { o.last = t; return nil }

type nullSender struct{}

func (nullSender) Send(context.Context, reminders.Dest, string, string) (string, string, error) {
	return "C", "1", nil
}
func (nullSender) Find(context.Context, reminders.Dest, string, time.Time) (string, string, bool, error) {
	return "", "", false, nil
}

// openCases builds n open cases at different stages, received over the last month.
func openCases(b *testing.B, e *docket.Engine, n int, now time.Time) memCases {
	out := make(memCases, 0, n)
	for i := 0; i < n; i++ {
		received := now.Add(-time.Duration(i%30*24+1) * time.Hour)
		c, _, err := e.Apply(docket.Case{}, docket.File{Complainant: docket.Person{Name: "C"}, Respondent: docket.Person{Name: fmt.Sprint("R", i)},
			Sections: []string{"103.10"}, Received: received, Summary: "x"}, received)
		if err != nil {
			b.Fatal(err)
		}
		c.Number = fmt.Sprintf("2026-%05d", i)
		if i%2 == 0 {
			c, _, err = e.Apply(c, docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: now.Add(time.Duration(i%9+3) * 24 * time.Hour), Place: "City Hall"}, received)
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
// every due reminder found already said.
func BenchmarkSweep(b *testing.B) {
	bySize(b, func(b *testing.B, e *docket.Engine, cases memCases, now time.Time) {
		s := &reminders.Sweeper{
			Planner: &reminders.Planner{Engine: e, Policy: reminders.Defaults(), People: people},
			Cases:   cases, Outbox: &memOutbox{sent: map[string]bool{}}, Sender: nullSender{},
			Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		}
		st, err := s.Sweep(context.Background(), now) // says everything due once
		if err != nil || st.Sent == 0 {
			b.Fatalf("%+v %v", st, err)
		}
		b.ResetTimer()
		for b.Loop() {
			st, err := s.Sweep(context.Background(), now)
			if err != nil || st.Sent != 0 || st.Cases != len(cases) {
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
