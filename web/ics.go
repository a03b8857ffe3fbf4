package web

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode"

	ics "github.com/arran4/golang-ical"

	"ethicsbot/docket"
)

// The iCalendar (RFC 5545) building shared by ethicsbot's feeds: the private calendar of
// each member (calendar.go) and the public one of meetings. A feed is a list of Events
// written by Feed.Encode with github.com/arran4/golang-ical, which escapes text and folds
// long lines.

// Event is one entry of a feed: an all-day event on Day, or, when Day is zero, a timed
// one from Start to End (an instant when End is zero, such as a notice's 48-hour mark).
type Event struct {
	// UID identifies the event across fetches, so a calendar moves a rescheduled meeting
	// instead of adding another: derive it from what the event is, never from when.
	UID         string
	Summary     string
	Description string
	Location    string
	Day         docket.Date
	Start, End  time.Time
	// Modified, when known, is when the event last changed (LAST-MODIFIED): a meeting's
	// (re)scheduling.
	Modified time.Time
	// Sequence counts the changes to the event since it was first in the feed (SEQUENCE,
	// RFC 5545 3.8.7.4), derived from the record: a calendar takes the event with the
	// higher one as the newer. Written only when above 0, its default.
	Sequence int
	// Cancelled keeps a cancelled meeting in the feed, marked STATUS:CANCELLED, so that a
	// subscribed calendar shows the event it has as cancelled.
	Cancelled bool
	// Free marks an event that does not make anyone busy (TRANSP:TRANSPARENT): deadlines
	// and notice instants, not meetings.
	Free bool
}

// Feed is an iCalendar feed: a named list of events in the commission's time zone.
type Feed struct {
	Name string
	// Zone is the commission's time zone. Timed events are written as its wall-clock
	// times with TZID, and the feed carries a VTIMEZONE describing it over the events'
	// span, as Outlook needs; with nil or UTC they are written in UTC.
	Zone *time.Location
	// Stamp is every event's DTSTAMP: when the feed was made.
	Stamp  time.Time
	Events []Event
	// Texts, if set, keeps each event as written, so that a feed made again writes anew
	// only the events that changed (the board's calendar feed: thousands of meetings).
	Texts *EventTexts
}

// EventTexts keeps events as a feed writes them (VEVENT), by the event and the feed's zone:
// the same event is the same text, but for its DTSTAMP, which is each feed's own.
type EventTexts struct {
	mu    sync.Mutex
	texts map[keptKey]keptText
}

// keptKey is what an event's text is kept by: the event, the feed's zone and how lines are
// written.
type keptKey struct {
	e                 Event
	zone, newLine     string
	lineMax, propsMax int
}

// keptText is an event's text before and after its DTSTAMP's value.
type keptText struct{ before, after string }

// keptEvent is event e of feed f, as f.Texts keeps it: an ics.Component that writes the
// text kept, and keeps it the first time.
type keptEvent struct {
	f *Feed
	e Event
}

func (k *keptEvent) UnknownPropertiesIANAProperties() []ics.IANAProperty { return nil }
func (k *keptEvent) SubComponents() []ics.Component                      { return nil }

// keptStamp is the DTSTAMP an event is kept with: any instant, replaced as it is written.
var keptStamp = time.Date(1970, time.January, 1, 0, 0, 0, 0, time.UTC)

// keptLimit bounds the events kept: past it, and twice as many as the last feed had, the
// texts start afresh, which drops those of events no longer in the feed.
const keptLimit = 2000

// SerializeTo writes the event as kept, with the feed's DTSTAMP; an event not kept yet is
// written by the library, as Encode writes one, and kept.
func (k *keptEvent) SerializeTo(w io.Writer, c *ics.SerializationConfiguration) error {
	t := k.f.Texts
	key := keptKey{e: k.e, newLine: c.NewLine, lineMax: c.MaxLength, propsMax: c.PropertyMaxLength}
	if k.f.Zone != nil {
		key.zone = k.f.Zone.String()
	}
	t.mu.Lock()
	text, ok := t.texts[key]
	t.mu.Unlock()
	if !ok {
		var b strings.Builder
		if err := k.f.vevent(k.e, keptStamp).SerializeTo(&b, c); err != nil {
			return err
		}
		stamp := "DTSTAMP:" + keptStamp.Format(icsUTC) + c.NewLine
		before, after, found := strings.Cut(b.String(), c.NewLine+stamp)
		if !found {
			return fmt.Errorf("event %s: no DTSTAMP as written", k.e.UID)
		}
		text = keptText{before + c.NewLine + "DTSTAMP:", c.NewLine + after}
		t.mu.Lock()
		if t.texts == nil || len(t.texts) >= max(keptLimit, 2*len(k.f.Events)) {
			t.texts = map[keptKey]keptText{}
		}
		t.texts[key] = text
		t.mu.Unlock()
	}
	_, err := io.WriteString(w, text.before+k.f.Stamp.UTC().Format(icsUTC)+text.after)
	return err
}

// MeetingLength is how long a meeting is shown in a calendar: the ordinance fixes no
// length, and a calendar needs one to show a block of time.
const MeetingLength = time.Hour

// ContentType is the media type of a feed, for an HTTP response.
const ContentType = "text/calendar; charset=utf-8"

const (
	icsLocal = "20060102T150405"
	icsUTC   = "20060102T150405Z"
)

// Encode writes f as iCalendar text, with CRLF line ends and lines folded at 75 octets.
func (f *Feed) Encode(w io.Writer) error {
	cal := ics.NewCalendarFor("ethicsbot")
	cal.SetProductId("-//ethicsbot//Ethics Commission docket//EN")
	cal.SetCalscale("GREGORIAN")
	cal.SetMethod(ics.MethodPublish)
	cal.SetName(icsText(f.Name))
	cal.SetXWRCalName(icsText(f.Name))
	// Hints for how often to fetch again: Outlook and Apple read them; Google keeps its own pace.
	cal.SetRefreshInterval("PT1H")
	cal.SetXPublishedTTL("PT1H")
	zoned := f.zoned()
	if zoned {
		cal.SetXWRTimezone(f.Zone.String())
		if from, to, ok := f.span(); ok {
			cal.AddVTimezone(icsTimezone(f.Zone, from, to))
		}
	}
	for _, e := range f.Events {
		if f.Texts != nil {
			cal.Components = append(cal.Components, &keptEvent{f: f, e: e})
			continue
		}
		cal.AddVEvent(f.vevent(e, f.Stamp))
	}
	// RFC 5545 3.1: lines end in CRLF on every platform (the library's default is the OS's).
	return cal.SerializeTo(w, ics.WithNewLineWindows)
}

// vevent is event e of the feed, stamped stamp.
func (f *Feed) vevent(e Event, stamp time.Time) *ics.VEvent {
	ev := ics.NewEvent(icsText(e.UID))
	ev.SetDtStampTime(stamp)
	ev.SetSummary(icsText(e.Summary))
	if e.Description != "" {
		ev.SetDescription(icsText(e.Description))
	}
	if e.Location != "" {
		ev.SetLocation(icsText(e.Location))
	}
	if !e.Modified.IsZero() {
		ev.SetLastModifiedAt(e.Modified)
	}
	if e.Sequence > 0 {
		ev.SetSequence(e.Sequence)
	}
	if e.Cancelled {
		ev.SetStatus(ics.ObjectStatusCancelled)
	}
	if e.Free {
		ev.SetTimeTransparency(ics.TransparencyTransparent)
	}
	if !e.Day.IsZero() {
		// An all-day event: DTEND is the next day, exclusive (RFC 5545 3.6.1).
		ev.SetAllDayStartAt(e.Day.In(time.UTC))
		ev.SetAllDayEndAt(e.Day.AddDays(1).In(time.UTC))
		return ev
	}
	f.setTime(ev, ics.ComponentPropertyDtStart, e.Start)
	if !e.End.IsZero() {
		f.setTime(ev, ics.ComponentPropertyDtEnd, e.End)
	}
	// An instant has no DTEND: the event ends when it starts (RFC 5545 3.6.1).
	return ev
}

// zoned reports whether timed events are written in the commission's zone with a TZID; a
// zone that is UTC, or the machine's unnamed local zone, is written in UTC instead.
func (f *Feed) zoned() bool {
	if f.Zone == nil {
		return false
	}
	name := f.Zone.String()
	return name != "UTC" && name != "Local" && name != ""
}

// setTime writes a timed property in the zone, or in UTC.
func (f *Feed) setTime(ev *ics.VEvent, prop ics.ComponentProperty, t time.Time) {
	if !f.zoned() {
		ev.SetProperty(prop, t.UTC().Format(icsUTC))
		return
	}
	ev.SetProperty(prop, t.In(f.Zone).Format(icsLocal), ics.WithTZID(f.Zone.String()))
}

// span is the first and last instant of the timed events.
func (f *Feed) span() (from, to time.Time, ok bool) {
	for _, e := range f.Events {
		if !e.Day.IsZero() {
			continue
		}
		for _, t := range []time.Time{e.Start, e.End} {
			if t.IsZero() {
				continue
			}
			if !ok || t.Before(from) {
				from = t
			}
			if !ok || t.After(to) {
				to = t
			}
			ok = true
		}
	}
	return from, to, ok
}

// icsTimezone describes loc from the zone in force at from until after to: one STANDARD or
// DAYLIGHT part for each period of the zone, each from its own change. Listing the changes
// rather than writing a yearly rule keeps it exact for any zone Go knows, whatever its
// history, over the span a feed needs.
func icsTimezone(loc *time.Location, from, to time.Time) *ics.VTimezone {
	tz := ics.NewTimezone(loc.String())
	t := from.In(loc)
	for range 1000 { // a zone changes at most a few times a year: this bounds a broken one
		start, end := t.ZoneBounds()
		name, offset := t.Zone()
		before, begins := offset, "19700101T000000"
		if !start.IsZero() {
			_, before = start.Add(-time.Second).Zone()
			// DTSTART is the change's wall-clock time in the offset before it (RFC 5545 3.6.5).
			begins = start.UTC().Add(time.Duration(before) * time.Second).Format(icsLocal)
		}
		part := ics.ComponentBase{}
		part.SetProperty(ics.ComponentPropertyDtStart, begins)
		part.AddProperty(ics.ComponentProperty(ics.PropertyTzoffsetfrom), icsUTCOffset(before))
		part.AddProperty(ics.ComponentProperty(ics.PropertyTzoffsetto), icsUTCOffset(offset))
		part.AddProperty(ics.ComponentProperty(ics.PropertyTzname), name)
		if t.IsDST() {
			tz.Components = append(tz.Components, &ics.Daylight{ComponentBase: part})
		} else {
			tz.Components = append(tz.Components, &ics.Standard{ComponentBase: part})
		}
		if end.IsZero() || end.After(to) {
			break
		}
		t = end.In(loc)
	}
	return tz
}

// icsUTCOffset writes an offset east of UTC in seconds as RFC 5545's UTC-OFFSET: -0600.
func icsUTCOffset(seconds int) string {
	sign := "+"
	if seconds < 0 {
		sign, seconds = "-", -seconds
	}
	s := fmt.Sprintf("%s%02d%02d", sign, seconds/3600, seconds/60%60)
	if seconds%60 != 0 {
		s += fmt.Sprintf("%02d", seconds%60)
	}
	return s
}

// icsText makes user text safe for a TEXT value: a line break becomes one newline (which the
// library escapes as \n), and other control characters, which no calendar shows and a
// bare carriage return among them could end a line early, are dropped.
func icsText(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n':
			return r
		case r == '\r':
			return '\n'
		case unicode.IsControl(r):
			return -1
		}
		return r
	}, s)
}

// icsSession is one meeting of a case: its kind, its number among the reconvened sessions
// (0 for the others), and the meeting as it stands.
type icsSession struct {
	kind docket.MeetingKind
	n    int
	docket.Meeting
}

// icsSessions lists c's scheduled meetings in the order of the procedure. A cancelled
// meeting is no longer in the case, so it is not listed: a calendar that fetches the feed
// again drops it.
func icsSessions(c *docket.Case) []icsSession {
	var out []icsSession
	add := func(kind docket.MeetingKind, n int, m docket.Meeting) {
		if m.Scheduled() {
			out = append(out, icsSession{kind, n, m})
		}
	}
	add(docket.SufficiencyMeeting, 0, c.Sufficiency)
	add(docket.HearingMeeting, 0, c.Hearing)
	// (E): the earlier reconvened sessions keep their numbers when the hearing recesses
	// again and the latest one joins them.
	for i, m := range c.Sessions {
		add(docket.RecessedHearing, i+1, m)
	}
	add(docket.RecessedHearing, len(c.Sessions)+1, c.Reconvened)
	add(docket.PublicHearing, 0, c.PublicHearing)
	return out
}

// MeetingEvents returns c's scheduled meetings as timed events of MeetingLength: the
// case number, the meeting and its rule, the place, and whether it is open to the public.
// Nothing confidential: the same is in each meeting's public notice. Each UID is the case
// number and the meeting (and session), at host, so a rescheduled meeting moves.
func MeetingEvents(c *docket.Case, host string) []Event {
	var out []Event
	for _, s := range icsSessions(c) {
		what, uid := s.kind.Name(), fmt.Sprintf("%s-meeting-%s", c.Number, s.kind)
		if s.n > 0 {
			what, uid = fmt.Sprintf("%s, session %d", what, s.n), fmt.Sprintf("%s-%d", uid, s.n)
		}
		open := capitalize(docket.Access(s.Closed, s.Authority)) + "."
		out = append(out, Event{
			UID:         uid + "@" + host,
			Summary:     fmt.Sprintf("%s · %s %s", c.Number, s.kind.Rule(), what),
			Description: fmt.Sprintf("Ethics Commission, case %s: %s %s. %s", c.Number, what, s.kind.Rule(), open),
			Location:    s.Place,
			Start:       s.Start,
			End:         s.Start.Add(MeetingLength),
			Modified:    s.ScheduledAt,
		})
	}
	return out
}
