package outbox_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"ethicsbot/outbox"
)

// memStore is an outbox.Store in memory, for the deliverer's routing.
type memStore struct {
	rows    []*outbox.Row
	commits int // calls of Settle: the deliverer's durable commits
	reads   int // calls of Pending
}

func (m *memStore) Enqueue(_ context.Context, posts []outbox.Post) error {
	for _, p := range posts {
		if m.find(p.Key) == nil {
			m.rows = append(m.rows, &outbox.Row{Post: p})
		}
	}
	return nil
}

func (m *memStore) find(k outbox.Key) *outbox.Row {
	for _, r := range m.rows {
		if r.Key == k {
			return r
		}
	}
	return nil
}

func (m *memStore) Pending(_ context.Context, now time.Time, skip []outbox.Dest, limit int) ([]outbox.Row, error) {
	m.reads++
	var out []outbox.Row
next:
	for _, r := range m.rows {
		for _, d := range skip {
			if r.Key.To == d {
				continue next
			}
		}
		if r.Sent.IsZero() && !r.Due.After(now) && len(out) < limit {
			out = append(out, *r)
		}
	}
	return out, nil
}

func (m *memStore) Settle(_ context.Context, done []outbox.Settled, claim []outbox.Key,
	now time.Time) ([]outbox.Claim, error) {
	m.commits++
	for _, d := range done {
		r := m.find(d.Key)
		switch d.How {
		case outbox.Sent:
			if !r.Sent.IsZero() {
				return nil, fmt.Errorf("%s sent twice", d.Key)
			}
			r.Sent, r.Channel, r.TS = now, d.Channel, d.TS
		case outbox.Moved:
			r.Channel, r.TS, r.Text, r.Actions = d.Channel, d.TS, d.Text, d.Actions
			if r.Sent.IsZero() {
				r.Sent = now
			}
		case outbox.Released:
			r.Attempts--
			if d.First {
				r.Claimed = time.Time{}
			}
		}
	}
	out := make([]outbox.Claim, len(claim))
	for i, k := range claim {
		r := m.find(k)
		if r == nil || !r.Sent.IsZero() {
			continue
		}
		out[i] = outbox.Claim{Prior: r.Claimed, Held: true}
		if r.Claimed.IsZero() {
			r.Claimed = now
		}
		r.Attempts++
	}
	return out, nil
}

func (m *memStore) MarkFailed(_ context.Context, k outbox.Key, reason string, now time.Time) error {
	r := m.find(k)
	r.LastError = reason
	if r.Failing.IsZero() {
		r.Failing = now
	}
	return nil
}

func (m *memStore) Undelivered(context.Context, time.Time) (int, time.Time, error) {
	return 0, time.Time{}, nil
}

// recorder is a Sender that records what it says, or fails with err.
type recorder struct {
	said []outbox.Key
	err  error
}

func (r *recorder) Send(_ context.Context, to outbox.Dest, _ outbox.Markup, k outbox.Key) (string, string, error) {
	if r.err != nil {
		return "", "", r.err
	}
	r.said = append(r.said, k)
	return to.String(), fmt.Sprint(len(r.said)), nil
}

func (r *recorder) Find(context.Context, outbox.Dest, outbox.Key, time.Time) (string, string, bool, error) {
	return "", "", false, nil
}

// TestDelivererRoutesMail: a post to an e-mail address goes to the deliverer's Mail, never
// to Slack; without Mail it is refused (NoRelay) and the clerks are told; a relay out of
// reach is tried once a drain, whatever the number of addresses, and Slack goes on.
func TestDelivererRoutesMail(t *testing.T) {
	now := time.Date(2026, 12, 4, 16, 30, 0, 0, time.UTC)
	ctx := context.Background()
	posts := func() *memStore {
		m := &memStore{}
		m.Enqueue(ctx, []outbox.Post{
			{Key: outbox.Key{Series: "s", Step: "1", To: outbox.Dest{Mail: "a@example.org"}}, Text: "copy", Due: now},
			{Key: outbox.Key{Series: "s", Step: "2", To: outbox.Dest{Mail: "b@example.org"}}, Text: "copy", Due: now},
			{Key: outbox.Key{Series: "s", Step: "3", To: outbox.Dest{Channel: "C1"}}, Text: "notice", Due: now},
		})
		return m
	}
	t.Run("Routed", func(t *testing.T) {
		m, slack, mail := posts(), &recorder{}, &recorder{}
		if _, err := (&outbox.Deliverer{Store: m, Sender: slack, Mail: mail}).Drain(ctx, now); err != nil {
			t.Fatal(err)
		}
		if len(slack.said) != 1 || slack.said[0].To.Channel != "C1" || len(mail.said) != 2 {
			t.Fatalf("Slack said %v, mail %v", slack.said, mail.said)
		}
	})
	t.Run("NoRelay", func(t *testing.T) {
		m, slack := posts(), &recorder{}
		d := &outbox.Deliverer{Store: m, Sender: slack, Alert: []outbox.Dest{{User: "U_CLERK"}}}
		if _, err := d.Drain(ctx, now); err != nil {
			t.Fatal(err)
		}
		alerts := 0
		for _, k := range slack.said {
			if k.Series == outbox.AlertSeries {
				alerts++
			}
		}
		if alerts != 2 || !m.rows[0].Sent.IsZero() {
			t.Fatalf("Slack said %v: want the notice and one alert per copy, the copies unsent", slack.said)
		}
	})
	t.Run("RelayDown", func(t *testing.T) {
		m, slack := posts(), &recorder{}
		mail := &recorder{err: fmt.Errorf("%w: connection refused", outbox.ErrRelayUnreachable)}
		st, err := (&outbox.Deliverer{Store: m, Sender: slack, Mail: mail}).Drain(ctx, now)
		if err != nil {
			t.Fatal(err)
		}
		if st.Failed != 1 || m.rows[0].Attempts+m.rows[1].Attempts != 1 || len(slack.said) != 1 {
			t.Fatalf("stats %+v, attempts %d and %d, Slack %v: want one attempt at the relay and the notice said",
				st, m.rows[0].Attempts, m.rows[1].Attempts, slack.said)
		}
		if !errors.Is(&outbox.Refusal{Relay: true}, outbox.ErrRelayUnreachable) ||
			errors.Is(&outbox.Refusal{}, outbox.ErrRelayUnreachable) {
			t.Error("only a refusal of the relay itself holds every e-mail")
		}
	})
}
