package outbox_test

import (
	"testing"

	"ethicsbot/outbox"
)

// TestParseKey reads back every kind of key String writes, including a delay note's, whose
// step is itself a key, and refuses what is not a key.
func TestParseKey(t *testing.T) {
	event := outbox.EventKey("2026-001", 42, 1, outbox.Dest{Channel: "C0DOCKET1"})
	for _, k := range []outbox.Key{
		event,
		{Case: "", Series: "digest", Step: "daily:2026-12-07", To: outbox.Dest{User: "U_CLERK"}},
		{Case: "2026-001", Series: "delayed", Step: event.String(), To: outbox.Dest{Channel: "C0DOCKET1"}},
		{Case: "2026-001", Series: "delayed", Step: outbox.EventKey("2026-001", 7, 0, outbox.Dest{User: "U1"}).String(),
			To: outbox.Dest{User: "U2"}},
		// A news medium's copy of a notice, and the clerks' alert that it was refused.
		outbox.MediaCopyKey(event, outbox.Dest{Mail: "news@example.org"}),
		{Case: "2026-001", Series: outbox.AlertSeries,
			Step: outbox.MediaCopyKey(event, outbox.Dest{Mail: "news@example.org"}).String(), To: outbox.Dest{User: "U2"}},
		outbox.MediaPostKey(event, 3, outbox.Dest{Channel: "C0DOCKET1"}),
	} {
		got, err := outbox.ParseKey(k.String())
		if err != nil || got != k {
			t.Errorf("ParseKey(%q) = %+v, %v", k.String(), got, err)
		}
	}
	if id, ok := event.Event(); !ok || id != 42 {
		t.Errorf("Event() = %d, %v", id, ok)
	}
	for _, bad := range []string{"", "2026-001|event", "a|b|c", "a||c@#C1", "a|b|c@x", "a|b|c@mailto:",
		"a|b|c@mailto:news", "a|b|c@mailto:a@b@c"} {
		if k, err := outbox.ParseKey(bad); err == nil {
			t.Errorf("ParseKey(%q) = %+v, want an error", bad, k)
		}
	}
}

// TestMarkupText: a notice as an e-mail's plain text: links with their addresses, the
// escaped characters as themselves, no Slack markup left.
func TestMarkupText(t *testing.T) {
	m := outbox.Format("PUBLIC NOTICE at %s. See <https://ethics.example.gov/m/1|the agenda>, <https://x.example/> "+
		"and <#C0123|notices>; <!here> ask <@U024BE7LH>.", "City Hall <Annex> & Co")
	want := "PUBLIC NOTICE at City Hall <Annex> & Co. See the agenda (https://ethics.example.gov/m/1), " +
		"https://x.example/ and notices;  ask @U024BE7LH."
	if got := m.Text(); got != want {
		t.Errorf("Text() =\n%q\nwant\n%q", got, want)
	}
}
