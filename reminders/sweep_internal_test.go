package reminders

import (
	"testing"
	"time"

	"ethicsbot/docket"
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

// The sweep reads the meetings of the days from today, or from the earliest meeting an
// agenda gathered or a digest's notice names, to the last day a meeting to be prepared (or
// listed in the digest, when it is due) can start on, or the latest such meeting. Hand-checked:
// from Wed 9 Dec 2026, three business days on is Mon 14 Dec, and a meeting whose 48-hour
// mark falls that day starts by Wed 16 Dec, Thu 17 across a change of the clock; ten
// business days on is Wed 23 Dec, so Sat 26.
func TestMeetingDaysCoverWhatTheSweepLooksUp(t *testing.T) {
	cal, err := docket.NewCalendar(docket.CalendarConfig{})
	if err != nil {
		t.Fatal(err)
	}
	policy := Defaults()
	policy.DigestWithin = 10
	p := &Planner{Engine: &docket.Engine{Cal: cal, Ord: docket.DefaultOrdinance()}, Policy: policy}
	loc := cal.Location()
	now := time.Date(2026, 12, 9, 10, 0, 0, 0, loc)
	dec := func(d int) docket.Date { return docket.NewDate(2026, time.December, d) }
	check := func(name string, groups map[agendaKey]*agendaGroup, dg *digest, digestDue bool, first, last docket.Date) {
		t.Helper()
		if f, l := p.meetingDays(now, groups, dg, digestDue); f != first || l != last {
			t.Errorf("%s: meetings of %s to %s, want %s to %s", name, f, l, first, last)
		}
	}
	notice := func(start time.Time) Reminder {
		return Reminder{msg: message{d: docket.Deadline{Meeting: start}}}
	}
	check("nothing gathered", nil, &digest{}, false, dec(9), dec(17))
	check("the digest due", nil, &digest{}, true, dec(9), dec(26))
	past := map[agendaKey]*agendaGroup{{}: {rs: []Reminder{notice(time.Date(2026, 12, 1, 17, 0, 0, 0, loc))}}}
	check("an agenda of a meeting begun", past, &digest{}, false, dec(1), dec(17))
	later := &digest{notices: []digestNotice{{d: docket.Deadline{Meeting: time.Date(2027, 1, 5, 17, 0, 0, 0, loc)}}}}
	check("a digest's notice of a later meeting", nil, later, true, dec(9), docket.NewDate(2027, time.January, 5))
	check("the same digest, not due", nil, later, false, dec(9), dec(17))
}
