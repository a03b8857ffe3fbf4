package web_test

import (
	"strings"
	"testing"
	"time"

	ics "github.com/arran4/golang-ical"

	"ethicsbot/docket"
	"ethicsbot/web"
)

func encode(t *testing.T, f *web.Feed) (string, *ics.Calendar) {
	t.Helper()
	var b strings.Builder
	if err := f.Encode(&b); err != nil {
		t.Fatal(err)
	}
	cal, err := ics.ParseCalendar(strings.NewReader(b.String()))
	if err != nil {
		t.Fatalf("does not parse: %v\n%s", err, b.String())
	}
	return b.String(), cal
}

// TestFeedHostileText: text with iCalendar's special characters and line breaks, even a
// bare carriage return, stays inside its property: one event, and its values come back.
func TestFeedHostileText(t *testing.T) {
	injection := "Room 1\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:forged\rSUMMARY:forged\nX"
	f := &web.Feed{Name: "Test; feed, with: commas", Stamp: time.Date(2026, 12, 4, 16, 0, 0, 0, time.UTC),
		Events: []web.Event{{
			UID:         "2026-001-meeting-hearing@h",
			Summary:     `2026-001 · a, b; c \ d "e"`,
			Description: strings.Repeat("é☃", 60),
			Location:    injection,
			Start:       time.Date(2026, 12, 8, 23, 0, 0, 0, time.UTC),
		}}}
	body, cal := encode(t, f)
	if n := len(cal.Events()); n != 1 || strings.Count(body, "\r\nBEGIN:VEVENT\r\n") != 1 ||
		strings.Contains(body, "\r\nUID:forged") {
		t.Fatalf("%d events; the text broke out of its property:\n%s", n, body)
	}
	e := cal.Events()[0]
	if got := e.GetProperty(ics.ComponentPropertySummary).Value; got != f.Events[0].Summary {
		t.Errorf("SUMMARY %q, want %q", got, f.Events[0].Summary)
	}
	if got := e.GetProperty(ics.ComponentPropertyDescription).Value; got != f.Events[0].Description {
		t.Errorf("DESCRIPTION %q, want it whole after folding", got)
	}
	if got, want := e.GetProperty(ics.ComponentPropertyLocation).Value,
		"Room 1\nEND:VEVENT\nBEGIN:VEVENT\nUID:forged\nSUMMARY:forged\nX"; got != want {
		t.Errorf("LOCATION %q, want %q", got, want)
	}
	for _, line := range strings.Split(body, "\r\n") {
		if len(line) > 75 || strings.ContainsAny(line, "\r\n") {
			t.Errorf("line %q: %d octets", line, len(line))
		}
	}
}

// TestFeedTimezone: across a change to daylight time, the VTIMEZONE lists each period
// with the offsets before and after, and times are written in the zone's wall clock.
func TestFeedTimezone(t *testing.T) {
	loc, err := time.LoadLocation("America/Chicago")
	if err != nil {
		t.Fatal(err)
	}
	march := time.Date(2027, 3, 1, 17, 0, 0, 0, loc) // CST
	april := time.Date(2027, 4, 1, 17, 0, 0, 0, loc) // CDT
	f := &web.Feed{Name: "t", Zone: loc, Stamp: march, Events: []web.Event{
		{UID: "a@h", Summary: "a", Start: march, End: march.Add(time.Hour)},
		{UID: "b@h", Summary: "b", Start: april},
		{UID: "c@h", Summary: "c", Day: docket.NewDate(2027, time.March, 9), Free: true},
	}}
	body, cal := encode(t, f)
	for _, want := range []string{
		"X-WR-TIMEZONE:America/Chicago",
		"DTSTART;TZID=America/Chicago:20270301T170000",
		"DTSTART;TZID=America/Chicago:20270401T170000",
		// (RFC 5545 3.6.5): the change to CDT at 2:00 CST on 14 March 2027.
		"BEGIN:DAYLIGHT\r\nDTSTART:20270314T020000\r\nTZOFFSETFROM:-0600\r\nTZOFFSETTO:-0500\r\nTZNAME:CDT\r\nEND:DAYLIGHT",
		"BEGIN:STANDARD\r\nDTSTART:20261101T020000\r\nTZOFFSETFROM:-0500\r\nTZOFFSETTO:-0600\r\nTZNAME:CST\r\nEND:STANDARD",
		"DTSTART;VALUE=DATE:20270309",
		"TRANSP:TRANSPARENT",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("no %q in\n%s", want, body)
		}
	}
	for i, e := range cal.Events()[:2] {
		if got, err := e.GetStartAt(); err != nil || !got.Equal(f.Events[i].Start) {
			t.Errorf("event %d starts %v (%v), want %v", i, got, err, f.Events[i].Start)
		}
	}

	t.Run("UTC", func(t *testing.T) {
		f.Zone = time.UTC
		body, _ := encode(t, f)
		if strings.Contains(body, "VTIMEZONE") || strings.Contains(body, "TZID") ||
			!strings.Contains(body, "DTSTART:20270301T230000Z") {
			t.Errorf("in UTC:\n%s", body)
		}
	})
}

// TestFeedKeptTexts: a feed that keeps its events as written writes what one that does not
// writes, whatever the stamp, the zone or the events, from the texts kept as well as anew.
func TestFeedKeptTexts(t *testing.T) {
	chicago, err := time.LoadLocation("America/Chicago")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 12, 8, 17, 0, 0, 0, chicago)
	events := []web.Event{
		{UID: "a@h", Summary: "Meeting; a, b", Description: strings.Repeat("agenda ", 30), Location: "City Hall",
			Start: start, End: start.Add(web.MeetingLength), Modified: start.AddDate(0, 0, -3), Sequence: 2},
		{UID: "b@h", Summary: "Cancelled: meeting", Start: start.Add(time.Hour), End: start.Add(2 * time.Hour),
			Cancelled: true},
		{UID: "c@h", Summary: "Deadline", Day: docket.NewDate(2026, time.December, 9), Free: true},
	}
	texts := &web.EventTexts{}
	for i, zone := range []*time.Location{chicago, chicago, time.UTC, chicago} {
		stamp := time.Date(2026, 12, 4, 16, i, 0, 0, time.UTC)
		es := events[:len(events)-i%2] // one event fewer every other time
		want, _ := encode(t, &web.Feed{Name: "Meetings", Zone: zone, Stamp: stamp, Events: es})
		got, _ := encode(t, &web.Feed{Name: "Meetings", Zone: zone, Stamp: stamp, Events: es, Texts: texts})
		if got != want {
			t.Errorf("round %d: kept, the feed is\n%s\nwant\n%s", i, got, want)
		}
	}
}
