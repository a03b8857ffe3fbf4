package store_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// TestOutboxBacklog: the backlog counts what is due and unsent, and its oldest due time;
// a post not yet due or already sent is not in it.
func TestOutboxBacklog(t *testing.T) {
	s := MustOpen(t)
	base := T(t, "2026-12-04T10:00:00-06:00")
	if n, oldest, err := s.OutboxBacklog(ctx, base); err != nil || n != 0 || !oldest.IsZero() {
		t.Fatalf("empty outbox: %d, %v, %v", n, oldest, err)
	}
	key := func(step string) outbox.Key {
		return outbox.Key{Series: "t", Step: step, To: outbox.Dest{Channel: "C1"}}
	}
	if err := s.Enqueue(ctx, []outbox.Post{
		{Key: key("a"), Text: "x", Due: base.Add(-2 * time.Hour)},
		{Key: key("b"), Text: "x", Due: base.Add(-time.Hour)},
		{Key: key("c"), Text: "x", Due: base.Add(time.Hour)}, // not due yet
	}); err != nil {
		t.Fatal(err)
	}
	n, oldest, err := s.OutboxBacklog(ctx, base)
	if err != nil || n != 2 || !oldest.Equal(base.Add(-2*time.Hour)) {
		t.Errorf("backlog: %d, oldest %v, %v; want 2, %v", n, oldest, err, base.Add(-2*time.Hour))
	}
	if err := s.MarkSent(ctx, key("a"), "C1", "1.0", base); err != nil {
		t.Fatal(err)
	}
	if n, oldest, _ := s.OutboxBacklog(ctx, base); n != 1 || !oldest.Equal(base.Add(-time.Hour)) {
		t.Errorf("after one was sent: %d, oldest %v", n, oldest)
	}
}

// TestWriteErrors counts the writes the database refused, not the actions the docket did.
func TestWriteErrors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ethicsbot.db")
	s := MustOpenPath(t, path)
	base := T(t, "2026-12-04T10:00:00-06:00")
	if _, err := s.File(ctx, docket.Act{By: "U_CLERK", At: base}, complaint(base, "Jane Roe")); err != nil {
		t.Fatal(err)
	}
	if s.WriteErrors() != 0 {
		t.Fatalf("%d write errors after a good write", s.WriteErrors())
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if _, err := s.File(ctx, docket.Act{By: "U_CLERK", At: base}, complaint(base, "John Roe")); err == nil {
		t.Fatal("a write to a removed database succeeded")
	}
	if s.WriteErrors() != 1 {
		t.Errorf("%d write errors after a refused write, want 1", s.WriteErrors())
	}
}
