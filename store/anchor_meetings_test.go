package store_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
	"ethicsbot/outbox"
	"ethicsbot/store"
)

// TestAnchorCoversTheMeetings: a meeting action alone moves the
// anchor; a backup without it does not hold the live anchor; an anchor of the old form,
// without a meetings part, is still read and checked against the cases' chain alone.
func TestAnchorCoversTheMeetings(t *testing.T) {
	dir := t.TempDir()
	s := MustOpenPath(t, filepath.Join(dir, "ethicsbot.db"))
	mustFile(t, s, "2026-12-01T10:00:00-06:00", "Jane Roe")
	before := mustVerify(t, s).Anchor
	if strings.Contains(before.String(), "+") {
		t.Errorf("a record without meeting events has an anchor of the old form, got %s", before)
	}
	backup := filepath.Join(dir, "backup.db")
	if _, err := s.Backup(ctx, backup); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ChangeMeeting(ctx, docket.Act{By: "U_CLERK", At: T(t, "2026-12-02T09:00:00-06:00")}, docket.MeetingChange{
		Create: &docket.CreateMeeting{Start: T(t, "2026-12-15T17:00:00-06:00"), Place: "City Hall"},
	}); err != nil {
		t.Fatal(err)
	}
	after := mustVerify(t, s).Anchor
	if after.String() == before.String() || after.Meetings != 1 {
		t.Fatalf("the anchor after a meeting action alone: %s, before %s", after, before)
	}
	if head, err := s.Head(ctx); err != nil || head.String() != after.String() {
		t.Errorf("Head = %s, %v; verify's anchor %s", head, err, after)
	}
	parsed, err := store.ParseAnchor("anchor " + strings.ToUpper(after.String()))
	if err != nil || parsed.String() != after.String() {
		t.Fatalf("ParseAnchor(%s) = %s, %v", after, parsed, err)
	}
	if problem, err := s.CheckAnchor(ctx, parsed); err != nil || problem != "" {
		t.Errorf("the record's own anchor: %q, %v", problem, err)
	}
	b, err := store.OpenReadOnly(backup, MustEngine(t))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if problem, err := b.CheckAnchor(ctx, parsed); err != nil ||
		!strings.Contains(problem, "meeting events 1 to 1 (agendas, postings, rolls, sessions, adjournments) are missing") {
		t.Errorf("a backup without the meeting, checked against the live anchor: %q, %v", problem, err)
	}
	old, err := store.ParseAnchor(before.String())
	if err != nil || old.Meetings != 0 {
		t.Fatalf("an old anchor: %+v, %v", old, err)
	}
	if problem, err := s.CheckAnchor(ctx, old); err != nil || problem != "" {
		t.Errorf("an anchor of the old form on the record after it: %q, %v", problem, err)
	}
	// A meetings part whose hash is another's is a rewrite.
	forged := after
	forged.MeetingHash = strings.Repeat("0", 64)
	if problem, err := s.CheckAnchor(ctx, forged); err != nil ||
		!strings.Contains(problem, "meeting event 1 is a different event") {
		t.Errorf("a forged meetings part: %q, %v", problem, err)
	}
	if _, err := store.ParseAnchor(before.String() + "+0:" + strings.Repeat("a", 64)); err == nil {
		t.Error("a meetings part at meeting event 0 was read")
	}
}

// TestRestoreReportsLostMeetings: a meeting created after the backup,
// whose notice Slack shows, is named in the docket channel's note of what the restore lost;
// a meeting notice the restored record holds is not.
func TestRestoreReportsLostMeetings(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ethicsbot.db")
	s := MustOpenPath(t, path)
	mustFile(t, s, "2026-12-01T10:00:00-06:00", "Jane Roe")
	notices := outbox.Dest{Channel: "C0NOTICES"}
	docketCh := outbox.Dest{Channel: "C0DOCKET1"}
	kept := outbox.Post{Key: outbox.Key{Series: outbox.MeetingSeries, Step: "2026-12-10.1.0", To: notices},
		Text: "PUBLIC NOTICE. Ethics Commission, regular meeting on Thu 10 Dec 2026.", Due: T(t, "2026-12-01T11:00:00-06:00")}
	if err := s.Enqueue(ctx, []outbox.Post{kept}); err != nil {
		t.Fatal(err)
	}
	backup := filepath.Join(dir, "backup.db")
	if _, err := s.Backup(ctx, backup); err != nil {
		t.Fatal(err)
	}
	say := func(m docket.CommissionMeeting, _ []docket.CommissionMeeting) []outbox.Post {
		return []outbox.Post{{Key: outbox.Key{Series: outbox.MeetingSeries, Step: m.Name + ".1.0", To: notices},
			Text: "PUBLIC NOTICE. Ethics Commission, regular meeting on Tue 15 Dec 2026.",
			Due:  T(t, "2026-12-02T09:00:00-06:00")}}
	}
	s.SayWith(sayers{meeting: say})
	res, err := s.ChangeMeeting(ctx, docket.Act{By: "U_CLERK", At: T(t, "2026-12-02T09:00:00-06:00")}, docket.MeetingChange{
		Create: &docket.CreateMeeting{Start: T(t, "2026-12-15T17:00:00-06:00"), Place: "City Hall"},
	})
	if err != nil {
		t.Fatal(err)
	}
	lostPost, err := s.Pending(ctx, time.Now(), nil, 10)
	if err != nil {
		t.Fatal(err)
	}
	var said []outbox.Said
	for _, p := range lostPost {
		if p.Key.Series == outbox.MeetingSeries {
			said = append(said, outbox.Said{Key: p.Key, Text: p.Text, Channel: notices.Channel, TS: "2.1"})
		}
	}
	if len(said) != 2 {
		t.Fatalf("the meetings' notices pending: %+v", lostPost)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	rep, err := store.Restore(ctx, backup, path, MustEngine(t), time.Now, store.RestoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.BeyondEvents != 0 || rep.BeyondMeetings != 1 ||
		!strings.Contains(rep.String(), "It holds 0 case events and 1 meeting events after the backup's last ones") {
		t.Errorf("the restore's report of what the replaced record holds beyond the backup: %+v\n%s", rep, rep)
	}
	s = MustOpenPath(t, path)
	lost, err := s.Reconcile(ctx, said, docketCh, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if len(lost.Meetings) != 1 {
		t.Errorf("lost meetings %+v, want the one created after the backup", lost.Meetings)
	}
	var note string
	rows, _ := s.Pending(ctx, time.Now(), nil, 10)
	for _, r := range rows {
		if r.Key.Series == store.RestoreSeries {
			note = string(r.Text)
		}
	}
	if !strings.Contains(note, "meeting "+res.Meeting.Name+": PUBLIC NOTICE") || strings.Contains(note, "2026-12-10") ||
		strings.Contains(note, "nothing announced") {
		t.Errorf("the note of what was lost: %q", note)
	}
}

// TestLastEventAt: the record's last event is the later of the cases' and the meetings'
// last events, whichever chain holds it; a record without events has none.
func TestLastEventAt(t *testing.T) {
	s := MustOpenPath(t, filepath.Join(t.TempDir(), "ethicsbot.db"))
	if at, err := s.LastEventAt(ctx); err != nil || !at.IsZero() {
		t.Fatalf("an empty record: %v, %v", at, err)
	}
	mustFile(t, s, "2026-12-01T10:00:00-06:00", "Jane Roe")
	if _, err := s.ChangeMeeting(ctx, docket.Act{By: "U_CLERK", At: T(t, "2026-12-02T09:00:00-06:00")}, docket.MeetingChange{
		Create: &docket.CreateMeeting{Start: T(t, "2026-12-15T17:00:00-06:00"), Place: "City Hall"},
	}); err != nil {
		t.Fatal(err)
	}
	if at, err := s.LastEventAt(ctx); err != nil || !at.Equal(T(t, "2026-12-02T09:00:00-06:00")) {
		t.Errorf("after a meeting event: %v, %v", at, err)
	}
	mustFile(t, s, "2026-12-03T10:00:00-06:00", "Richard Roe")
	if at, err := s.LastEventAt(ctx); err != nil || !at.Equal(T(t, "2026-12-03T10:00:00-06:00")) {
		t.Errorf("after a case event: %v, %v", at, err)
	}
}
