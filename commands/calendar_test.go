package commands_test

import (
	"strings"
	"testing"
	"time"
)

func TestCalendarCommand(t *testing.T) {
	s, c, db := MustService(t)
	s.Calendars = db
	st := *s.Settings()
	st.PublicURL = "https://ethics.example.gov"
	s.Configure(st)

	first := replyText(do(s, attorney, "calendar"))
	url, ok := feedURL(first)
	if !ok {
		t.Fatalf("/ethics calendar: %q, want the feed's address", first)
	}
	token := strings.TrimSuffix(strings.TrimPrefix(url, "https://ethics.example.gov/calendar/"), ".ics")
	if user, ok, err := db.CalendarUser(ctx, token); !ok || err != nil || user != attorney {
		t.Errorf("the address's token opens %q %v %v, want the attorney's feed", user, ok, err)
	}
	for _, want := range []string{"Subscribe from web", "From URL", "reset"} {
		if !strings.Contains(first, want) {
			t.Errorf("reply lacks %q: %q", want, first)
		}
	}

	t.Run("AgainShowsNoAddress", func(t *testing.T) {
		again := replyText(do(s, attorney, "calendar"))
		if _, ok := feedURL(again); ok || !strings.Contains(again, "/ethics calendar reset") ||
			!strings.Contains(again, "Fri 4 Dec 2026") {
			t.Errorf("second /ethics calendar: %q, want when it was made and how to reset", again)
		}
		if _, ok, _ := db.CalendarUser(ctx, token); !ok {
			t.Error("asking again replaced the address")
		}
	})

	t.Run("Reset", func(t *testing.T) {
		c.now = c.now.Add(24 * time.Hour)
		text := replyText(do(s, attorney, "calendar reset"))
		next, ok := feedURL(text)
		if !ok || next == url || !strings.Contains(text, "the old one no longer works") {
			t.Fatalf("/ethics calendar reset: %q", text)
		}
		if _, ok, _ := db.CalendarUser(ctx, token); ok {
			t.Error("the old address still works after reset")
		}
	})

	t.Run("ErrBadAction", func(t *testing.T) {
		text := replyText(do(s, attorney, "calendar delete"))
		if _, ok := feedURL(text); ok || !strings.Contains(text, "Usage: `/ethics calendar [reset]`") {
			t.Errorf("/ethics calendar delete: %q", text)
		}
	})

	t.Run("ErrNoRole", func(t *testing.T) {
		text := replyText(do(s, stranger, "calendar"))
		if _, ok := feedURL(text); ok || !strings.Contains(text, "ask the clerk to add your Slack user id") {
			t.Errorf("stranger: %q", text)
		}
	})

	t.Run("ErrNotSetUp", func(t *testing.T) {
		s.Calendars = nil
		defer func() { s.Calendars = db }()
		text := replyText(do(s, clerk, "calendar"))
		if _, ok := feedURL(text); ok || !strings.Contains(text, "calendar feeds are not set up here") {
			t.Errorf("without Calendars: %q", text)
		}
	})

	t.Run("Help", func(t *testing.T) {
		for _, user := range []string{comm, clerk, attorney} {
			if text := replyText(do(s, user, "help")); !strings.Contains(text, "`/ethics calendar`") {
				t.Errorf("help for %s lacks calendar: %q", user, text)
			}
		}
	})
}

// feedURL finds a calendar feed's address in a reply.
func feedURL(reply string) (string, bool) {
	i := strings.Index(reply, "https://ethics.example.gov/calendar/")
	if i < 0 {
		return "", false
	}
	url, _, ok := strings.Cut(reply[i:], ".ics")
	return url + ".ics", ok
}
