package reminders

import (
	"testing"

	"ethicsbot/outbox"
)

// The set of planned keys holds each key it was given, and no other: not a key whose
// fields are the same letters cut in other places, nor one to another destination.
func TestKeySetTellsKeysApart(t *testing.T) {
	in := outbox.Key{Case: "2026-001", Series: "ruling", Step: "due:2026-12-09", To: outbox.Dest{Channel: "C1"}}
	s := newKeySet()
	s.add(in)
	s.add(outbox.Key{Series: AnchorSeries, Step: "2026-12-09", To: outbox.Dest{User: "U1"}})
	for _, k := range []outbox.Key{in, {Series: AnchorSeries, Step: "2026-12-09", To: outbox.Dest{User: "U1"}}} {
		if !s.has(k) {
			t.Errorf("the set lacks %s, which it was given", k)
		}
	}
	for _, k := range []outbox.Key{
		{Case: "2026-002"},
		{Case: "2026-00", Series: "1ruling", Step: "due:2026-12-09", To: outbox.Dest{Channel: "C1"}},
		{Case: "2026-001", Series: "ruling", Step: "due:2026-12-09", To: outbox.Dest{User: "C1"}},
		{Case: "2026-001", Series: "ruling", Step: "due:2026-12-09", To: outbox.Dest{Channel: "C2"}},
		{Series: AnchorSeries, Step: "2026-12-09", To: outbox.Dest{Mail: "U1"}},
	} {
		if s.has(k) {
			t.Errorf("the set has %s, which it was not given", k)
		}
	}
}
