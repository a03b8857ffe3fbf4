package outbox_test

import (
	"context"
	"testing"
	"time"

	"ethicsbot/outbox"
)

// fakeClock is a simulated clock whose sleep moves it on.
type fakeClock struct{ now time.Time }

func (c *fakeClock) Now() time.Time { return c.now }
func (c *fakeClock) Sleep(_ context.Context, d time.Duration) error {
	c.now = c.now.Add(d)
	return nil
}

// TestPacer: a token bucket per destination: three messages at once to a quiet channel,
// then one a second; another channel is not held back by the first; after a 429, nothing
// to that channel until its Retry-After has passed, and the wait is told as Slack's.
func TestPacer(t *testing.T) {
	clk := &fakeClock{now: time.Date(2026, 12, 4, 16, 0, 0, 0, time.UTC)}
	start := clk.now
	type seen struct {
		to      string
		wait    time.Duration
		limited bool
	}
	var observed []seen
	p := &outbox.Pacer{Now: clk.Now, Sleep: clk.Sleep, Observe: func(to outbox.Dest, wait time.Duration, limited bool) {
		observed = append(observed, seen{to.String(), wait, limited})
	}}
	docket, dm := outbox.Dest{Channel: "C_DOCKET"}, outbox.Dest{User: "U_CLERK"}
	var at []time.Duration
	for range 10 {
		if _, err := p.Wait(context.Background(), docket); err != nil {
			t.Fatal(err)
		}
		at = append(at, clk.now.Sub(start))
	}
	want := []time.Duration{0, 0, 0, 1, 2, 3, 4, 5, 6, 7}
	for i := range want {
		if at[i] != want[i]*time.Second {
			t.Fatalf("the messages went at %v, want %v seconds: three at once, then one a second", at, want)
		}
	}
	if len(observed) != 7 || observed[0] != (seen{"#C_DOCKET", time.Second, false}) {
		t.Errorf("observed %v: want the 7 waits of a second", observed)
	}
	if wait, _ := p.Wait(context.Background(), dm); wait != 0 {
		t.Errorf("another destination waited %v behind the docket channel", wait)
	}
	clk.now = clk.now.Add(time.Minute) // the bucket fills again
	p.Hold(docket, 30*time.Second)
	wait, _ := p.Wait(context.Background(), docket)
	if wait != 30*time.Second || !observed[len(observed)-1].limited {
		t.Errorf("after a 429 with Retry-After 30s the next message waited %v (%v), want 30s, told as Slack's", wait,
			observed[len(observed)-1])
	}
	var none *outbox.Pacer
	if wait, err := none.Wait(context.Background(), docket); wait != 0 || err != nil {
		t.Errorf("no pacer: waited %v, %v", wait, err)
	}
}
