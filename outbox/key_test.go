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
	} {
		got, err := outbox.ParseKey(k.String())
		if err != nil || got != k {
			t.Errorf("ParseKey(%q) = %+v, %v", k.String(), got, err)
		}
	}
	if id, ok := event.Event(); !ok || id != 42 {
		t.Errorf("Event() = %d, %v", id, ok)
	}
	for _, bad := range []string{"", "2026-001|event", "a|b|c", "a||c@#C1", "a|b|c@x"} {
		if k, err := outbox.ParseKey(bad); err == nil {
			t.Errorf("ParseKey(%q) = %+v, want an error", bad, k)
		}
	}
}
