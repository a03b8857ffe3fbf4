package store_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"ethicsbot/outbox"
)

// clockedSender records the pacer's clock at each message.
type clockedSender struct {
	now func() time.Time
	at  map[string][]time.Time
}

func (c *clockedSender) Send(_ context.Context, to outbox.Dest, _ outbox.Markup, k outbox.Key) (string, string, error) {
	c.at[to.String()] = append(c.at[to.String()], c.now())
	return to.String(), fmt.Sprint(len(c.at[to.String()])), nil
}

func (c *clockedSender) Find(context.Context, outbox.Dest, outbox.Key, time.Time) (string, string, bool, error) {
	return "", "", false, nil
}

// TestDrainIsPaced: a burst of 20 posts to the docket channel and 2 to a clerk goes to
// Slack at about one a second per destination (three at once), not all in an instant
// (356 a second to one channel); the clerk's do not wait behind the channel's;
// and the log says how long each destination waited.
func TestDrainIsPaced(t *testing.T) {
	s := MustOpen(t)
	clk := &struct{ now time.Time }{now: T(t, "2026-12-07T09:00:00-06:00")}
	now := func() time.Time { return clk.now }
	docket, clerk := outbox.Dest{Channel: "C_DOCKET"}, outbox.Dest{User: "U_CLERK"}
	var posts []outbox.Post
	for i := range 20 {
		posts = append(posts,
			outbox.Post{Key: outbox.Key{Case: "2026-001", Series: "t", Step: fmt.Sprint(i), To: docket}, Text: "x",
				Due: clk.now})
	}
	for i := range 2 {
		posts = append(posts,
			outbox.Post{Key: outbox.Key{Case: "2026-001", Series: "t", Step: fmt.Sprint(i), To: clerk}, Text: "x", Due: clk.now})
	}
	if err := s.Enqueue(ctx, posts); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	sender := &clockedSender{now: now, at: map[string][]time.Time{}}
	d := &outbox.Deliverer{Store: s, Sender: sender, Log: slog.New(slog.NewTextHandler(&log, nil)),
		Pacer: &outbox.Pacer{Now: now,
			Sleep: func(_ context.Context, w time.Duration) error { clk.now = clk.now.Add(w); return nil }}}
	start := clk.now
	st, err := d.Drain(ctx, start)
	if err != nil || st.Sent != 22 {
		t.Fatalf("drain: %+v %v", st, err)
	}
	ch := sender.at["#C_DOCKET"]
	if got := ch[len(ch)-1].Sub(start); got != 17*time.Second {
		t.Errorf("the 20th post to the channel went %v after the first, want 17s (3 at once, then 1 a second)", got)
	}
	for i := 3; i < len(ch); i++ {
		if gap := ch[i].Sub(ch[i-1]); gap < time.Second {
			t.Errorf("posts %d and %d to the channel %v apart", i-1, i, gap)
		}
	}
	if !strings.Contains(log.String(),
		`msg="delivery paced: Slack takes about one message a second per channel" to=#C_DOCKET messages_waited=17 waited=17s`) {
		t.Errorf("the log does not show the pace:\n%s", log.String())
	}
	if dm := sender.at["@U_CLERK"]; len(dm) != 2 || !dm[1].Equal(start) || strings.Contains(log.String(), "to=@U_CLERK") {
		t.Errorf("the clerk's two messages went at %v, want at once, not behind the channel's:\n%s", dm, log.String())
	}
}
