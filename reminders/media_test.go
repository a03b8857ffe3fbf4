package reminders_test

import (
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
)

// TestMediaRequestLapses: the clerk is told on 1 December that a news medium's annual
// request (5 ILCS 120/2.02(b)) lapses at the end of the year, and on 1 January that it
// has lapsed, each once; a request renewed for the next year, or withdrawn, is not
// reminded.
func TestMediaRequestLapses(t *testing.T) {
	w := newWorld(t)
	add := func(name, email string, year int) {
		t.Helper()
		today := docket.NewDate(2026, 11, 2)
		if _, _, err := w.db.AddMediaRequest(ctx, "U_CLERK", at(t, "2026-11-02 10:00"), today,
			docket.MediaRequest{Name: name, Email: email, Filed: today, Year: year}); err != nil {
			t.Fatal(err)
		}
	}
	w.run(at(t, "2026-11-02 10:00"), at(t, "2027-01-04 10:00"), time.Hour, map[time.Time]func(){
		at(t, "2026-11-02 10:00"): func() {
			add("Springfield Register", "news@example.org", 2026)
			add("Capitol Radio", "desk@radio.example", 2026)
			add("Old Gazette", "old@example.org", 2026)
			if _, err := w.db.WithdrawMediaRequest(ctx, "U_CLERK", at(t, "2026-11-02 10:00"), docket.NewDate(2026, 11, 2),
				docket.MediaWithdrawn{ID: 3, On: docket.NewDate(2026, 11, 2)}); err != nil {
				t.Fatal(err)
			}
		},
		// Capitol Radio renews in December: no reminder that it lapsed.
		at(t, "2026-12-10 10:00"): func() {
			today := docket.NewDate(2026, 12, 10)
			if _, _, err := w.db.AddMediaRequest(ctx, "U_CLERK", at(t, "2026-12-10 10:00"), today,
				docket.MediaRequest{Name: "Capitol Radio", Email: "desk@radio.example", Filed: today, Year: 2027}); err != nil {
				t.Fatal(err)
			}
		},
	})
	var got []string
	for _, s := range w.rec.said {
		if strings.Contains(s.Key, "media_lapse") && strings.Contains(s.Key, "U_CLERK") {
			got = append(got, s.When.In(chicago(t)).Format("Jan 2 15:04")+" "+s.Text)
		}
	}
	want := []string{
		"Dec 1 09:00 The request of Springfield Register (news@example.org) for the notices of the commission's " +
			"meetings in 2026 lapses after 31 Dec 2026",
		"Dec 1 09:00 The request of Capitol Radio (desk@radio.example) for the notices of the commission's meetings " +
			"in 2026 lapses after 31 Dec 2026",
		"Jan 1 09:00 The request of Springfield Register (news@example.org) for the notices of the commission's " +
			"meetings in 2026 lapsed after 31 Dec 2026",
	}
	if len(got) != len(want) {
		t.Fatalf("lapse reminders:\n%s\nwant %d", strings.Join(got, "\n"), len(want))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("reminder %d:\n%s\nwant\n%s", i, got[i], want[i])
		}
	}
	if !strings.Contains(got[0], "`/ethics media add name=\"Springfield Register\" email=news@example.org year=2027`") {
		t.Errorf("the reminder does not say how to record the renewal: %s", got[0])
	}
}
