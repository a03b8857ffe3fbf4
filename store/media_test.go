package store_test

import (
	"path/filepath"
	"strings"
	"testing"

	"ethicsbot/docket"
	"ethicsbot/outbox"
	"ethicsbot/store"
)

// TestMediaRequestsOnTheMeetingsChain: a news medium's request (5 ILCS 120/2.02(b)) and
// its withdrawal are events on the open-meetings chain, which the anchor names and verify
// walks: a request edited, its event edited, its row deleted or its guard dropped outside
// ethicsbot is found.
func TestMediaRequestsOnTheMeetingsChain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ethicsbot.db")
	s := MustOpenPath(t, path)
	today := docket.NewDate(2026, 12, 4)
	now := T(t, "2026-12-04T10:30:00-06:00")
	before := mustVerify(t, s)
	r, queued, err := s.AddMediaRequest(ctx, "U_CLERK", now, today, docket.MediaRequest{Name: "Springfield Register",
		Email: "news@example.org", Filed: docket.NewDate(2026, 12, 1), Year: 2027})
	if err != nil || r.ID != 1 || len(queued) != 0 {
		t.Fatalf("add = %+v, %v, %v", r, queued, err)
	}
	if _, _, err := s.AddMediaRequest(ctx, "U_CLERK", now, today, docket.MediaRequest{Name: "X", Filed: today,
		Year: 2026}); err == nil || !strings.Contains(err.Error(), "give where the copies go") {
		t.Fatalf("a request with no address: %v", err)
	}
	if _, err := s.WithdrawMediaRequest(ctx, "U_CLERK", now, today, docket.MediaWithdrawn{ID: 1, On: today}); err != nil {
		t.Fatal(err)
	}
	after := mustVerify(t, s)
	if after.Anchor.Meetings != before.Anchor.Meetings+2 {
		t.Fatalf("the anchor names meeting event %d, want %d: the requests are not on the meetings' chain",
			after.Anchor.Meetings, before.Anchor.Meetings+2)
	}
	evs, err := s.MediaEvents(ctx, 1)
	if err != nil || len(evs) != 2 || evs[0].Kind != "media_requested" || evs[1].Kind != "media_withdrawn" {
		t.Fatalf("events %+v, %v", evs, err)
	}
	all, err := s.MediaRequests(ctx)
	if err != nil || len(all) != 1 || all[0].Standing() {
		t.Fatalf("requests %+v, %v; want one, withdrawn", all, err)
	}
	checkTampering(t, s, []tampering{
		{"EditedRequest", `UPDATE news_media SET doc = replace(doc, 'news@', 'spy@')`,
			"the news media's request 1: its record differs"},
		{"EditedEvent", `DROP TRIGGER meeting_events_no_update; UPDATE meeting_events SET by = 'U_X' WHERE id = 1`,
			"meeting event 1 (meeting media-1): its content no longer matches"},
		{"DeletedRequest", `DROP TRIGGER news_media_no_delete; DELETE FROM news_media`,
			"the news media's request 1 has events but no row"},
		{"DroppedGuard", `DROP TRIGGER news_media_no_delete`, "the trigger news_media_no_delete"},
	})
}

// TestMediaCopies: a post that asks for the news media's copies gets one for each request
// on record that stands and covers one of its years, in its own transaction, once per
// address; a request filed after the schedule of regular meetings was noticed gets the
// schedule at once.
func TestMediaCopies(t *testing.T) {
	s := MustOpen(t)
	today := docket.NewDate(2026, 12, 4)
	now := T(t, "2026-12-04T10:30:00-06:00")
	notices := outbox.Dest{Channel: "C_NOTICES"}
	schedule := outbox.Post{Key: outbox.Key{Series: outbox.ScheduleSeries, Step: "abc", To: notices},
		Text: "PUBLIC NOTICE. Ethics Commission: schedule of regular meetings.", Due: now,
		Media: &outbox.MediaCopies{Years: []int{2026, 2027}}}
	add := func(name, email string, year int) {
		t.Helper()
		if _, _, err := s.AddMediaRequest(ctx, "U_CLERK", now, today, docket.MediaRequest{Name: name, Email: email,
			Filed: today, Year: year}); err != nil {
			t.Fatal(err)
		}
	}
	add("Springfield Register", "news@example.org", 2027)
	add("Register, again", "news@example.org", 2026) // the same address: one copy
	add("Other Times", "desk@example.org", 2026)
	if err := s.Enqueue(ctx, []outbox.Post{schedule}); err != nil {
		t.Fatal(err)
	}
	meeting := outbox.Post{Key: outbox.Key{Series: outbox.MeetingSeries, Step: "2027-01-05.1.0", To: notices},
		Text: "PUBLIC NOTICE. Ethics Commission, special meeting.", Due: now,
		Media: &outbox.MediaCopies{Years: []int{2027}}}
	if err := s.Enqueue(ctx, []outbox.Post{meeting}); err != nil {
		t.Fatal(err)
	}
	// Filed after the schedule was noticed: it gets the schedule now.
	_, queued, err := s.AddMediaRequest(ctx, "U_CLERK", now, today, docket.MediaRequest{Name: "Late Daily",
		Email: "late@example.org", Filed: today, Year: 2027})
	if err != nil || len(queued) != 1 ||
		queued[0].Key != outbox.MediaCopyKey(schedule.Key, outbox.Dest{Mail: "late@example.org"}) {
		t.Fatalf("a late request queued %+v, %v; want the schedule", queued, err)
	}
	rows, err := s.Outbox(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, r := range rows {
		if r.Key.Series == outbox.MediaSeries {
			got[r.Key.Step+" -> "+r.Key.To.String()] = true
		}
	}
	want := map[string]bool{
		schedule.Key.String() + " -> mailto:news@example.org": true,
		schedule.Key.String() + " -> mailto:desk@example.org": true,
		schedule.Key.String() + " -> mailto:late@example.org": true,
		meeting.Key.String() + " -> mailto:news@example.org":  true,
	}
	if len(got) != len(want) {
		t.Errorf("copies %v, want %v", got, want)
	}
	for k := range want {
		if !got[k] {
			t.Errorf("no copy %s; have %v", k, got)
		}
	}
}

// tampering is a change made to a copy of the record outside ethicsbot, and what verify
// must then say.
type tampering struct{ name, sql, want string }

// checkTampering makes each change to a backup of s, and checks that verify finds it.
func checkTampering(t *testing.T, s *store.Store, cases []tampering) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "copy.db")
			if _, err := s.Backup(ctx, p); err != nil {
				t.Fatal(err)
			}
			rawExec(t, p, tc.sql)
			cs := MustOpenPath(t, p)
			r, err := cs.Verify(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if r.Broken == nil || !strings.Contains(r.Broken.String(), tc.want) {
				t.Errorf("verify = %v, want %q", r.Broken, tc.want)
			}
		})
	}
}
