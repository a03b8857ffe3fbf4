package outbox_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"ethicsbot/outbox"
)

// history is a Sender that keeps what it said, as Slack's history does, and finds it
// again by key; check, if set, is called before each message goes.
type history struct {
	said  []outbox.Key
	check func(k outbox.Key)
	fail  map[outbox.Key]error // a post refused, once
}

func (h *history) Send(_ context.Context, to outbox.Dest, _ outbox.Markup, k outbox.Key) (string, string, error) {
	if err := h.fail[k]; err != nil {
		delete(h.fail, k)
		return "", "", err
	}
	if h.check != nil {
		h.check(k)
	}
	h.said = append(h.said, k)
	return to.String(), fmt.Sprint(len(h.said)), nil
}

func (h *history) Find(_ context.Context, to outbox.Dest, k outbox.Key, _ time.Time) (string, string, bool, error) {
	for i, s := range h.said {
		if s == k {
			return to.String(), fmt.Sprint(i + 1), true, nil
		}
	}
	return "", "", false, nil
}

// crashing is a memStore whose commits fail from the n-th on, as if the process died
// before it could write them: what was committed before stays.
type crashing struct {
	*memStore
	n int
}

func (c *crashing) Settle(ctx context.Context, done []outbox.Settled, claim []outbox.Key,
	now time.Time) ([]outbox.Claim, error) {
	if c.commits+1 >= c.n {
		c.commits++
		return nil, errors.New("killed")
	}
	return c.memStore.Settle(ctx, done, claim, now)
}

func posts(now time.Time, n int, to outbox.Dest) []outbox.Post {
	var out []outbox.Post
	for i := range n {
		out = append(out, outbox.Post{Key: outbox.Key{Case: "2026-001", Series: "s", Step: fmt.Sprint(i), To: to},
			Text: "x", Due: now})
	}
	return out
}

// TestDrainClaimsAndMarksABatchInOneCommit: a drain of any number of posts takes two
// commits, the batch's claim before any is sent and the marks after, and one read of the
// outbox when it holds fewer than a batch; each post is claimed before it goes, and said
// once.
func TestDrainClaimsAndMarksABatchInOneCommit(t *testing.T) {
	now := time.Date(2026, 12, 4, 16, 30, 0, 0, time.UTC)
	ctx := context.Background()
	for _, n := range []int{1, 3, 40} {
		m := &memStore{}
		m.Enqueue(ctx, append(posts(now, n, outbox.Dest{Channel: "C1"}), posts(now, n, outbox.Dest{User: "U1"})...))
		h := &history{}
		h.check = func(k outbox.Key) {
			if m.find(k).Claimed.IsZero() {
				t.Errorf("%s goes before it is claimed", k)
			}
		}
		st, err := (&outbox.Deliverer{Store: m, Sender: h}).Drain(ctx, now)
		if err != nil || st.Sent != 2*n || len(h.said) != 2*n {
			t.Fatalf("%d posts a destination: %+v, %v, said %d", n, st, err, len(h.said))
		}
		for _, r := range m.rows {
			if r.Sent.IsZero() || r.Attempts != 1 {
				t.Errorf("%s: sent %v after %d attempts", r.Key, r.Sent, r.Attempts)
			}
		}
		if m.commits != 2 || m.reads != 1 {
			t.Errorf("%d posts took %d commits and %d reads, want 2 (the claim, and the marks) and 1", 2*n, m.commits,
				m.reads)
		}
	}
	// Read four at a time, 40 posts go in one drain, each once, and each commit after the
	// first marks one read and claims the next.
	m := &memStore{}
	m.Enqueue(ctx, posts(now, 40, outbox.Dest{Channel: "C1"}))
	h := &history{}
	if st, err := (&outbox.Deliverer{Store: m, Sender: h, Batch: 4}).Drain(ctx, now); err != nil || st.Sent != 40 ||
		len(h.said) != 40 {
		t.Fatalf("%+v, %v, said %d", st, err, len(h.said))
	}
	if m.commits != 11 {
		t.Errorf("40 posts read 4 at a time took %d commits, want 11", m.commits)
	}
}

// TestDrainKilledBeforeItsMarks: a deliverer that dies after the batch's claim, with some
// of it sent and none marked, leaves each post claimed; the next one finds what went out
// in the destination's history and sends the rest, so that each is said exactly once.
func TestDrainKilledBeforeItsMarks(t *testing.T) {
	now := time.Date(2026, 12, 4, 16, 30, 0, 0, time.UTC)
	ctx := context.Background()
	for _, n := range []int{2, 3, 4} { // killed at the n-th commit: after 0, 1 or 2 marked in between
		m := &memStore{}
		m.Enqueue(ctx, posts(now, 5, outbox.Dest{Channel: "C1"}))
		h := &history{fail: map[outbox.Key]error{m.rows[3].Key: errors.New("timeout")}}
		d := &outbox.Deliverer{Store: &crashing{m, n}, Sender: h, MarkWithin: time.Nanosecond}
		if _, err := d.Drain(ctx, now); err == nil {
			t.Fatalf("killed at commit %d: the drain did not fail", n)
		}
		if len(h.said) == 0 {
			t.Fatalf("killed at commit %d: nothing went out before it", n)
		}
		// The next start; the post that failed held its destination back, and goes at the
		// next drain.
		again := &outbox.Deliverer{Store: m, Sender: h}
		for i := range 2 {
			if _, err := again.Drain(ctx, now.Add(time.Duration(i+1)*time.Minute)); err != nil {
				t.Fatal(err)
			}
		}
		times := map[outbox.Key]int{}
		for _, k := range h.said {
			times[k]++
		}
		for _, r := range m.rows {
			if times[r.Key] != 1 || r.Sent.IsZero() {
				t.Errorf("killed at commit %d: %s said %d times, marked sent %v", n, r.Key, times[r.Key], !r.Sent.IsZero())
			}
		}
	}
}

// TestDrainReleasesWhatItHeldBack: the posts claimed with a batch and held back behind a
// failure to their destination are as they were before the claim, so that no look-back
// is owed for a message that never went; the failed post keeps its claim.
func TestDrainReleasesWhatItHeldBack(t *testing.T) {
	now := time.Date(2026, 12, 4, 16, 30, 0, 0, time.UTC)
	ctx := context.Background()
	m := &memStore{}
	m.Enqueue(ctx, posts(now, 4, outbox.Dest{Channel: "C1"}))
	h := &history{fail: map[outbox.Key]error{m.rows[1].Key: errors.New("timeout")}}
	if _, err := (&outbox.Deliverer{Store: m, Sender: h}).Drain(ctx, now); err != nil {
		t.Fatal(err)
	}
	want := []struct {
		sent, claimed bool
		attempts      int
	}{{true, true, 1}, {false, true, 1}, {false, false, 0}, {false, false, 0}}
	for i, w := range want {
		r := m.rows[i]
		if !r.Sent.IsZero() != w.sent || !r.Claimed.IsZero() != w.claimed || r.Attempts != w.attempts {
			t.Errorf("post %d: sent %v, claimed %v, %d attempts; want %+v", i, !r.Sent.IsZero(), !r.Claimed.IsZero(),
				r.Attempts, w)
		}
	}
}

// TestDrainMarksWithin: in a batch that takes longer than MarkWithin, what went out is
// committed before the next post goes, and so it is before each wait for Slack's pace; an
// e-mail, which no history can find again, is marked in a commit of its own before the
// next is sent.
func TestDrainMarksWithin(t *testing.T) {
	now := time.Date(2026, 12, 4, 16, 30, 0, 0, time.UTC)
	ctx := context.Background()
	clk := &fakeClock{now: now}
	for _, tc := range []struct {
		name   string
		to     outbox.Dest
		within time.Duration
		pacer  *outbox.Pacer
	}{
		{"Within", outbox.Dest{Channel: "C1"}, time.Nanosecond, nil},
		{"Paced", outbox.Dest{Channel: "C1"}, 0, &outbox.Pacer{Burst: 1, Now: clk.Now, Sleep: clk.Sleep}},
		{"Mail", outbox.Dest{Mail: "news@example.org"}, 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &memStore{}
			m.Enqueue(ctx, posts(now, 3, tc.to))
			h := &history{}
			h.check = func(k outbox.Key) {
				for _, r := range m.rows {
					if r.Key == k {
						break
					}
					if r.Sent.IsZero() {
						t.Errorf("%s goes while %s, before it, is not marked sent", k.Step, r.Key.Step)
					}
				}
			}
			d := &outbox.Deliverer{Store: m, Sender: h, Mail: h, MarkWithin: tc.within, Pacer: tc.pacer}
			if st, err := d.Drain(ctx, now); err != nil || st.Sent != 3 {
				t.Fatalf("%+v, %v", st, err)
			}
		})
	}
}
