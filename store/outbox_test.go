package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"ethicsbot/docket"
	"ethicsbot/outbox"
	"ethicsbot/store"
)

// sayers is a store.Sayer of a test's functions; a nil one says nothing.
type sayers struct {
	step    func(docket.Step) []outbox.Post
	meeting func(docket.CommissionMeeting, []docket.CommissionMeeting) []outbox.Post
}

func (s sayers) Say(_ context.Context, st docket.Step) []outbox.Post {
	if s.step == nil {
		return nil
	}
	return s.step(st)
}

func (s sayers) SayMeeting(_ context.Context, m docket.CommissionMeeting,
	all []docket.CommissionMeeting) []outbox.Post {
	if s.meeting == nil {
		return nil
	}
	return s.meeting(m, all)
}

// announce says one docket line per step, and a notice for a scheduled meeting.
func announce(st docket.Step) []outbox.Post {
	posts := []outbox.Post{{Key: outbox.EventKey(st.After.Number, st.Event, 1, outbox.Dest{Channel: "C_DOCKET"}),
		Text: outbox.Format("%s: %s", st.After.Number, st.Action.Kind()), Due: st.At}}
	if _, ok := st.Action.(docket.ScheduleMeeting); ok {
		posts = append(posts,
			outbox.Post{Key: outbox.EventKey(st.After.Number, st.Event, 2, outbox.Dest{Channel: "C_NOTICES"}),
				Text: "PUBLIC NOTICE", Due: st.At})
	}
	return posts
}

// TestPostsCommitWithTheirEvent: what an action causes to be said is in the outbox if and
// only if the action's event is on record, keyed by that event.
func TestPostsCommitWithTheirEvent(t *testing.T) {
	s := MustOpen(t)
	s.SayWith(sayers{step: announce})
	when := T(t, "2026-12-04T10:00:00-06:00")
	filed, err := s.File(ctx, docket.Act{By: "U_CLERK", Request: "req-1", At: when}, complaint(when, "Jane Roe"))
	if err != nil {
		t.Fatal(err)
	}
	n := filed.Case.Number
	if len(filed.Steps) != 1 || filed.Steps[0].Event != 1 {
		t.Fatalf("steps %+v", filed.Steps)
	}
	t.Run("RetryAddsNothing", func(t *testing.T) {
		again, err := s.File(ctx, docket.Act{By: "U_CLERK", Request: "req-1", At: when}, complaint(when, "Jane Roe"))
		if err != nil || !again.Replayed || len(again.Steps) != 0 {
			t.Fatalf("retry: %+v %v", again, err)
		}
		if all, _ := s.Outbox(ctx); len(all) != 1 {
			t.Errorf("after a retried filing the outbox holds %d posts, want 1", len(all))
		}
	})
	t.Run("EachEventItsPosts", func(t *testing.T) {
		at := T(t, "2026-12-04T11:00:00-06:00")
		res, err := s.Apply(ctx, docket.Act{By: "U_CLERK", Request: "req-2", At: at}, n,
			docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-09T17:00:00-06:00"),
				Place: "City Hall"},
			docket.PostNotice{Meeting: docket.SufficiencyMeeting})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Steps) != 2 {
			t.Fatalf("steps %+v", res.Steps)
		}
		for i, want := range []int{2, 1} {
			posts, err := s.EventPosts(ctx, res.Steps[i].Event)
			if err != nil || len(posts) != want {
				t.Errorf("event %d: %d posts (%v), want %d", res.Steps[i].Event, len(posts), err, want)
			}
		}
	})
	t.Run("RefusedAddsNothing", func(t *testing.T) {
		before, _ := s.Outbox(ctx)
		// The first action is allowed, the second refused: neither is recorded, nor said.
		_, err := s.Apply(ctx, docket.Act{By: "U_CLERK", Request: "req-3", At: T(t, "2026-12-04T12:00:00-06:00")}, n,
			docket.CancelMeeting{Meeting: docket.SufficiencyMeeting}, docket.RecessHearing{})
		if docket.ErrorCode(err) != docket.ECONFLICT {
			t.Fatalf("want a refusal, got %v", err)
		}
		if after, _ := s.Outbox(ctx); len(after) != len(before) {
			t.Errorf("a refused request left %d posts in the outbox", len(after)-len(before))
		}
	})
	mustVerify(t, s)
}

// TestPendingInTimeOrder: posts due within the same second come out in time order; stored
// instants sort as text.
func TestPendingInTimeOrder(t *testing.T) {
	s := MustOpen(t)
	base := T(t, "2026-12-04T10:00:00-06:00")
	var posts []outbox.Post
	for i, d := range []time.Duration{900 * time.Millisecond, 0, 950 * time.Millisecond, 500 * time.Millisecond} {
		posts = append(posts,
			outbox.Post{Key: outbox.Key{Series: "t", Step: string(rune('a' + i)), To: outbox.Dest{Channel: "C1"}}, Text: "x",
				Due: base.Add(d)})
	}
	if err := s.Enqueue(ctx, posts); err != nil {
		t.Fatal(err)
	}
	got, err := s.Pending(ctx, base.Add(920*time.Millisecond), nil, 10)
	if err != nil {
		t.Fatal(err)
	}
	var steps string
	for _, r := range got {
		steps += r.Key.Step
	}
	if steps != "bda" {
		t.Errorf("pending at +920ms: %q, want b (0), d (500ms), a (900ms)", steps)
	}
}

// TestOutboxMigration: posts and reminders queued by ethicsbot before schema 6 keep their
// destination and state, and unsent posts are still delivered.
func TestOutboxMigration(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ethicsbot.db")
	old, err := store.OpenAtVersion(path, MustEngine(t), 5)
	if err != nil {
		t.Fatal(err)
	}
	old.Close()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO outbox (case_number, deadline_id, step, due, text) VALUES ('2026-001', 'post', '17.1@#C0NOTICE1', '2026-12-04T16:00:00Z', 'PUBLIC NOTICE. old')`,
		`INSERT INTO outbox (case_number, deadline_id, step, due, sent, channel, ts) VALUES ('2026-001', 'respondent_notice', 'due:2026-12-09@@U_CLERK', '2026-12-09T15:00:00Z', '2026-12-09T15:00:01Z', 'D1', '1.1')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	s := MustOpenPath(t, path)
	all, err := s.Outbox(ctx)
	if err != nil || len(all) != 2 {
		t.Fatalf("outbox after migrating: %+v %v", all, err)
	}
	post, reminder := all[0], all[1]
	if post.Key.To != (outbox.Dest{Channel: "C0NOTICE1"}) || post.Key.Step != "17.1" || post.Key.Series != "post" ||
		!post.Sent.IsZero() || post.Text != "PUBLIC NOTICE. old" {
		t.Errorf("queued post: %+v", post)
	}
	if reminder.Key.To != (outbox.Dest{User: "U_CLERK"}) || reminder.Key.Step != "due:2026-12-09" ||
		reminder.Sent.IsZero() || reminder.TS != "1.1" {
		t.Errorf("sent reminder: %+v", reminder)
	}
	if pending, _ := s.Pending(ctx, T(t, "2026-12-10T00:00:00Z"), nil, 10); len(pending) != 1 ||
		pending[0].Key != post.Key {
		t.Errorf("pending after migrating: %+v", pending)
	}
	// The tables that repeated the case record, and disagreed with it, are gone.
	db, err = sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var left int
	if err := db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE name IN ('meetings', 'mailings')`).Scan(&left); err != nil || left != 0 {
		t.Errorf("%d of the meetings and mailings tables are left (%v)", left, err)
	}
}

// failingTo fails every message to one destination and takes the rest.
type failingTo struct {
	bad  outbox.Dest
	sent []outbox.Key
}

func (f *failingTo) Send(_ context.Context, to outbox.Dest, _ outbox.Markup, k outbox.Key) (string, string, error) {
	if to == f.bad {
		return "", "", errors.New("channel_not_found")
	}
	f.sent = append(f.sent, k)
	return to.Channel, "1", nil
}

func (f *failingTo) Find(context.Context, outbox.Dest, outbox.Key, time.Time) (string, string, bool, error) {
	return "", "", false, nil
}

// TestDrainIsNotStarved: a destination that keeps failing, with more posts waiting than a
// drain reads at once, does not hold back a public notice to another channel.
func TestDrainIsNotStarved(t *testing.T) {
	s := MustOpen(t)
	base := T(t, "2026-12-04T10:00:00-06:00")
	var posts []outbox.Post
	for i := range 300 {
		posts = append(posts,
			outbox.Post{Key: outbox.Key{Series: "t", Step: fmt.Sprint(i), To: outbox.Dest{User: "U_GONE"}},
				Text: "x", Due: base})
	}
	notice := outbox.Post{Key: outbox.Key{Series: "t", Step: "notice", To: outbox.Dest{Channel: "C_NOTICES"}},
		Text: "PUBLIC NOTICE", Due: base.Add(time.Second)}
	if err := s.Enqueue(ctx, append(posts, notice)); err != nil {
		t.Fatal(err)
	}
	sender := &failingTo{bad: outbox.Dest{User: "U_GONE"}}
	d := &outbox.Deliverer{Store: s, Sender: sender, Batch: 256}
	st, err := d.Drain(ctx, base.Add(time.Minute))
	if err != nil || st.Sent != 1 || len(sender.sent) != 1 || sender.sent[0] != notice.Key {
		t.Errorf("drain %+v %v sent %v; want the notice sent", st, err, sender.sent)
	}
}

// TestSettleIsOneCommit: what a drain did with a batch (sent, moved, released) and the
// next batch's claims are recorded in one commit, in order; a claim that finds its post
// sent holds nothing; a release puts a post as it was before its claim; and a settlement
// that cannot be made (a post marked sent twice) records none of the others.
func TestSettleIsOneCommit(t *testing.T) {
	s := MustOpen(t)
	due := T(t, "2026-12-09T09:00:00-06:00")
	to := outbox.Dest{Channel: "C_DOCKET"}
	var keys []outbox.Key
	var posts []outbox.Post
	for i := range 5 {
		k := outbox.Key{Case: "2026-001", Series: "s", Step: fmt.Sprint(i), To: to}
		keys, posts = append(keys, k), append(posts, outbox.Post{Key: k, Text: "x", Due: due})
	}
	if err := s.Enqueue(ctx, posts); err != nil {
		t.Fatal(err)
	}
	// keys[4] was claimed by an earlier attempt, which failed.
	if _, _, err := s.Claim(ctx, keys[4], due.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	before := s.Commits()
	claims, err := s.Settle(ctx, nil, keys, due)
	if err != nil || s.Commits() != before+1 {
		t.Fatalf("claim of 5: %v, %d commits", err, s.Commits()-before)
	}
	for i, c := range claims {
		if !c.Held || c.Prior.IsZero() != (i < 4) {
			t.Errorf("claim %d: %+v", i, c)
		}
	}
	done := []outbox.Settled{
		{Key: keys[0], How: outbox.Sent, Channel: "C_DOCKET", TS: "1.1"},
		{Key: keys[1], How: outbox.Moved, Channel: "C_DOCKET", TS: "1.2", Text: "new", Actions: []outbox.Action{{Label: "a"}}},
		{Key: keys[2], How: outbox.Released, First: true},
		{Key: keys[4], How: outbox.Released},
	}
	claims, err = s.Settle(ctx, done, keys[:2], due)
	if err != nil || s.Commits() != before+2 {
		t.Fatalf("settle: %v, %d commits", err, s.Commits()-before)
	}
	if claims[0].Held || claims[1].Held {
		t.Errorf("claims of sent posts hold them: %+v", claims)
	}
	rows, _ := s.Outbox(ctx)
	want := []struct {
		sent, claimed bool
		attempts      int
		ts, text      string
	}{{true, true, 1, "1.1", "x"}, {true, true, 1, "1.2", "new"}, {false, false, 0, "", "x"}, {false, true, 1, "", "x"},
		{false, true, 1, "", "x"}}
	for i, w := range want {
		r := rows[i]
		if !r.Sent.IsZero() != w.sent || !r.Claimed.IsZero() != w.claimed || r.Attempts != w.attempts || r.TS != w.ts ||
			string(r.Text) != w.text {
			t.Errorf("post %d: %+v, want %+v", i, r, w)
		}
	}
	if rows[4].Claimed.IsZero() || !rows[4].Claimed.Equal(due.Add(-time.Hour)) {
		t.Errorf("a release of a later claim lost the first: %v", rows[4].Claimed)
	}
	// keys[0] is sent already: the whole settlement is refused, keys[3] stays unsent.
	if _, err := s.Settle(ctx, []outbox.Settled{{Key: keys[3], How: outbox.Sent, TS: "1.4"},
		{Key: keys[0], How: outbox.Sent, TS: "1.5"}}, nil, due); err == nil {
		t.Error("a post was marked sent twice")
	}
	if rows, _ := s.Outbox(ctx); !rows[3].Sent.IsZero() || rows[0].TS != "1.1" {
		t.Errorf("a refused settlement left %+v and %+v", rows[0], rows[3])
	}
}
