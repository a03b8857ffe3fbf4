package web_test

import (
	"encoding/xml"
	"strconv"
	"strings"
	"testing"
	"time"

	ics "github.com/arran4/golang-ical"

	"ethicsbot/docket"
	"ethicsbot/store"
	"ethicsbot/web"
)

// calendarEvent is what a subscribed calendar keeps of an event of the public feed.
type calendarEvent struct {
	Summary, Location, Start, Status, Modified, Stamp string
	Sequence                                          int
}

// readCalendar parses the public feed with a real iCalendar parser, by UID.
func readCalendar(t *testing.T, body string) map[string]calendarEvent {
	t.Helper()
	cal, err := ics.ParseCalendar(strings.NewReader(body))
	if err != nil {
		t.Fatalf("the feed does not parse: %v", err)
	}
	out := map[string]calendarEvent{}
	for _, e := range cal.Events() {
		value := func(p ics.ComponentProperty) string {
			if v := e.GetProperty(p); v != nil {
				return v.Value
			}
			return ""
		}
		ev := calendarEvent{Summary: value(ics.ComponentPropertySummary), Location: value(ics.ComponentPropertyLocation),
			Start: value(ics.ComponentPropertyDtStart), Status: value(ics.ComponentPropertyStatus),
			Modified: value(ics.ComponentPropertyLastModified), Stamp: value(ics.ComponentPropertyDtstamp)}
		if s := value(ics.ComponentPropertySequence); s != "" {
			if ev.Sequence, err = strconv.Atoi(s); err != nil {
				t.Fatalf("SEQUENCE %q: %v", s, err)
			}
		}
		uid := value(ics.ComponentPropertyUniqueId)
		if _, dup := out[uid]; dup {
			t.Errorf("two events have the UID %s", uid)
		}
		out[uid] = ev
	}
	return out
}

// atomEntry is an entry of the Atom feed, as a feed reader reads it.
type atomEntry struct {
	Title   string `xml:"title"`
	ID      string `xml:"id"`
	Updated string `xml:"updated"`
	Summary string `xml:"summary"`
}

// readAtom parses the Atom feed with encoding/xml.
func readAtom(t *testing.T, body string) []atomEntry {
	t.Helper()
	var feed struct {
		XMLName xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
		Entries []atomEntry `xml:"entry"`
	}
	if err := xml.Unmarshal([]byte(body), &feed); err != nil {
		t.Fatalf("the Atom feed does not parse: %v", err)
	}
	return feed.Entries
}

// uidOf finds the UID of the one event whose summary holds what.
func uidOf(t *testing.T, evs map[string]calendarEvent, what string) string {
	t.Helper()
	found := ""
	for uid, ev := range evs {
		if strings.Contains(ev.Summary, what) {
			if found != "" {
				t.Fatalf("two events are of %q: %s and %s", what, found, uid)
			}
			found = uid
		}
	}
	if found == "" {
		t.Fatalf("no event of %q in %v", what, evs)
	}
	return found
}

// TestWhatHappenedStaysShown: a meeting cancelled and a meeting moved stay on the board, in
// the Atom feed and in the calendar feed, each read with a real parser. The cancelled one is
// marked cancelled with the date of its cancellation notice and keeps its calendar event,
// STATUS:CANCELLED; the moved one shows where and when it was and is, and keeps its event
// with the new start; every change raises the event's SEQUENCE and its LAST-MODIFIED. The
// Atom feed has an entry for each posting, amendment, move and cancellation. And a meeting
// whose agenda the clerk has not posted is nowhere, nor the case step on it.
func TestWhatHappenedStaysShown(t *testing.T) {
	db, engine := meetingRecord(t)
	loc := engine.Cal.Location()
	change := func(when string, ch docket.MeetingChange) {
		t.Helper()
		if _, err := db.ChangeMeeting(ctx, docket.Act{By: "U_CLERK", At: at(t, when)}, ch); err != nil {
			t.Fatalf("%s: %v", when, err)
		}
	}
	apply := func(number, when string, a docket.Action) {
		t.Helper()
		if _, err := db.Apply(ctx, docket.Act{By: "U_CLERK", At: at(t, when)}, number, a); err != nil {
			t.Fatalf("%s on %s: %v", a.Kind(), number, err)
		}
	}
	sufficiency := func(start, place string) docket.ScheduleMeeting {
		return docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: at(t, start), Place: place}
	}
	for i, who := range []string{"Ann Poe", "Bob Poe", "Cy Poe", "Di Poe", "Ed Poe"} {
		fileCase(t, db, at(t, "2026-12-04T08:00:00-06:00").Add(time.Duration(i)*time.Minute), who)
	}
	// 2026-12-15: two case steps and other business, posted; to be moved.
	change("2026-12-04T09:00:00-06:00", docket.MeetingChange{
		Create: &docket.CreateMeeting{Start: at(t, "2026-12-15T17:00:00-06:00"), Place: "City Hall, Room 201"}})
	change("2026-12-05T10:00:00-06:00", docket.MeetingChange{Meeting: "2026-12-15",
		Cases: []docket.CaseActions{
			{Number: "2026-001", Actions: []docket.Action{sufficiency("2026-12-15T17:00:00-06:00", "City Hall, Room 201")}},
			{Number: "2026-002", Actions: []docket.Action{sufficiency("2026-12-15T17:00:00-06:00", "City Hall, Room 201")}}},
		Actions: []docket.MeetingAction{docket.AddItem{Item: docket.BusinessItem, Text: "Election of a chair"},
			docket.PostAgenda{}}})
	// 2026-12-16: other business only, posted; to be cancelled.
	change("2026-12-04T09:10:00-06:00", docket.MeetingChange{
		Create: &docket.CreateMeeting{Start: at(t, "2026-12-16T17:00:00-06:00"), Place: "Library Annex"},
		Actions: []docket.MeetingAction{docket.AddItem{Item: docket.BusinessItem, Text: "Budget"},
			docket.PostAgenda{Posted: at(t, "2026-12-04T09:10:00-06:00")}}})
	// 2026-12-17: the clerk's draft, with a case step on it, never posted.
	change("2026-12-05T11:00:00-06:00", docket.MeetingChange{
		Create: &docket.CreateMeeting{Start: at(t, "2026-12-17T17:00:00-06:00"), Place: "Draft Room 9"},
		Cases: []docket.CaseActions{
			{Number: "2026-003", Actions: []docket.Action{sufficiency("2026-12-17T17:00:00-06:00", "Draft Room 9")}}}})
	// Two case steps alone, as before meetings were kept: one to be moved, one cancelled.
	apply("2026-004", "2026-12-05T12:00:00-06:00", sufficiency("2026-12-18T17:00:00-06:00", "Room 12"))
	apply("2026-005", "2026-12-05T12:10:00-06:00", sufficiency("2026-12-18T18:00:00-06:00", "Room 14"))

	now := at(t, "2026-12-05T13:00:00-06:00")
	board := &web.Board{Records: db, Commission: "Ethics Commission", URL: "https://ethics.example.gov/", Loc: loc,
		Now: func() time.Time { return now }}
	h := board.Handler()

	// Before: the posted agendas, dated by their posting; the draft nowhere.
	_, _, index := get(t, h, "/")
	for _, want := range []string{`id="meeting-2026-12-15"`, `id="meeting-2026-12-16"`,
		`Posted on this board <time datetime="2026-12-05T10:00:00-06:00">`, "Election of a chair", "Budget"} {
		if !strings.Contains(index, want) {
			t.Errorf("before: the front page lacks %q", want)
		}
	}
	_, _, feed := get(t, h, "/meetings.ics")
	_, _, atom := get(t, h, "/feed.atom")
	for what, body := range map[string]string{"the front page": index, "the calendar feed": feed, "the Atom feed": atom} {
		if strings.Contains(body, "2026-003") || strings.Contains(body, "Draft Room 9") {
			t.Errorf("%s shows the clerk's draft agenda:\n%s", what, body)
		}
	}
	if code, _, page := get(t, h, "/cases/2026-003.html"); code != 404 {
		t.Errorf("the case on a draft agenda has a page (%d):\n%s", code, page)
	}
	if code, _, _ := get(t, h, "/meetings/2026-12-17.html"); code != 404 {
		t.Errorf("the draft meeting has a page: %d", code)
	}
	if _, _, page := get(t, h, "/cases/2026-001.html"); !strings.Contains(page,
		`Posted on this board <time datetime="2026-12-05T10:00:00-06:00">`) {
		t.Errorf("a case step on a posted agenda is not dated by the posting:\n%s", page)
	}
	before := readCalendar(t, feed)
	// A recorded meeting's event is named by the meeting, which keeps its name when moved.
	moved, cancelled := "meeting-2026-12-15@ethics.example.gov", "meeting-2026-12-16@ethics.example.gov"
	if uid := uidOf(t, before, "cases 2026-001, 2026-002"); uid != moved {
		t.Errorf("the meeting of 2026-12-15 is the event %s", uid)
	}
	lone, gone := uidOf(t, before, "case 2026-004"), uidOf(t, before, "case 2026-005")
	for _, uid := range []string{moved, cancelled, lone, gone} {
		if ev := before[uid]; ev.Sequence != 0 || ev.Status != "" {
			t.Errorf("before any change, %s: %+v", uid, ev)
		}
	}
	if len(before) != 4 {
		t.Errorf("before: %d events, want 4: %v", len(before), before)
	}

	// The changes, as /ethics move, posted, cancel and schedule record them.
	change("2026-12-06T10:00:00-06:00", docket.MeetingChange{Meeting: "2026-12-15",
		Cases: []docket.CaseActions{
			{Number: "2026-001", Actions: []docket.Action{sufficiency("2026-12-16T18:00:00-06:00", "Council Chambers")}},
			{Number: "2026-002", Actions: []docket.Action{sufficiency("2026-12-16T18:00:00-06:00", "Council Chambers")}}},
		Actions: []docket.MeetingAction{docket.MoveMeeting{Start: at(t, "2026-12-16T18:00:00-06:00"),
			Place: "Council Chambers"}}})
	change("2026-12-06T11:00:00-06:00", docket.MeetingChange{Meeting: "2026-12-15",
		Actions: []docket.MeetingAction{docket.PostAgenda{}}})
	change("2026-12-06T12:00:00-06:00", docket.MeetingChange{Meeting: "2026-12-16",
		Actions: []docket.MeetingAction{docket.CancelCommissionMeeting{Reason: "SECRET-REASON"}}})
	apply("2026-004", "2026-12-06T13:00:00-06:00", sufficiency("2026-12-19T17:00:00-06:00", "Room 12"))
	apply("2026-005", "2026-12-06T14:00:00-06:00",
		docket.CancelMeeting{Meeting: docket.SufficiencyMeeting, Reason: "SECRET-REASON"})
	now = at(t, "2026-12-07T09:00:00-06:00")

	// The board.
	_, _, index = get(t, h, "/")
	noSecrets(t, "the front page", index)
	card := func(id string) string {
		t.Helper()
		_, rest, ok := strings.Cut(index, `id="`+id+`"`)
		if !ok {
			t.Fatalf("the front page has no card %s:\n%s", id, index)
		}
		c, _, _ := strings.Cut(rest, "</article>")
		return c
	}
	for _, want := range []string{`<span class="badge withdrawn">Moved</span>`, "Wednesday 16 December 2026",
		"18:00 CST", "Council Chambers",
		`<dt>Moved from</dt><dd><time datetime="2026-12-15T17:00:00-06:00">Tuesday 15 December 2026 at 17:00 CST</time>, ` +
			`<span class="text">City Hall, Room 201</span>`,
		`(moved <time datetime="2026-12-06T10:00:00-06:00">`,
		`Amended agenda posted <time datetime="2026-12-06T11:00:00-06:00">`, "Election of a chair"} {
		if c := card("meeting-2026-12-15"); !strings.Contains(c, want) {
			t.Errorf("the moved meeting's card lacks %q:\n%s", want, c)
		}
	}
	changed, _, _ := strings.Cut(index[strings.Index(index, `id="changed"`):], "</section>")
	for _, want := range []string{`id="meeting-2026-12-16"`, "This meeting is cancelled.",
		`Notice of the cancellation posted <time datetime="2026-12-06T12:00:00-06:00">`, "Library Annex"} {
		if !strings.Contains(changed, want) {
			t.Errorf("the cancelled and moved meetings lack %q:\n%s", want, changed)
		}
	}
	if c := card("meeting-2026-12-16"); strings.Contains(c, "Budget") {
		t.Errorf("the cancelled meeting's card still gives an agenda:\n%s", c)
	}
	// The moved meeting's case steps are told by its card, once: no card of their own.
	if n := strings.Count(index, "Sufficiency meeting, case"); n != 3 {
		t.Errorf("the front page has %d cards of case steps, want 2026-004's moved notice, its new one, and "+
			"2026-005's cancelled one", n)
	}
	_, _, page := get(t, h, "/cases/2026-004.html")
	if !strings.Contains(page, `<dt>Moved from</dt><dd><time datetime="2026-12-18T17:00:00-06:00">`) ||
		!strings.Contains(page, "This meeting was moved</strong> to ") {
		t.Errorf("the moved case step's page:\n%s", page)
	}
	_, _, page = get(t, h, "/meetings/2026-12-15.html")
	for _, want := range []string{`<li id="posted-1">`, `<li id="moved-1">`, `<li id="posted-2">`,
		"amended agenda posted"} {
		if !strings.Contains(page, want) {
			t.Errorf("the moved meeting's page lacks %q:\n%s", want, page)
		}
	}

	// The calendar feed: the same UIDs, the changes counted.
	_, _, feed = get(t, h, "/meetings.ics")
	noSecretsInCalendar(t, "the calendar feed", feed)
	after := readCalendar(t, feed)
	if len(after) != 4 {
		t.Errorf("after: %d events, want the same 4: %v", len(after), after)
	}
	for _, c := range []struct {
		uid, start, location, status, modified string
		sequence                               int
	}{
		{moved, "20261216T180000", "Council Chambers", "", "20261206T170000Z", 2}, // moved, posted again
		{cancelled, "20261216T170000", "Library Annex", "CANCELLED", "20261206T180000Z", 1},
		{lone, "20261219T170000", "Room 12", "", "20261206T190000Z", 1},
		{gone, "20261218T180000", "Room 14", "CANCELLED", "20261206T200000Z", 1},
	} {
		ev, ok := after[c.uid]
		if !ok {
			t.Errorf("the event %s left the feed: %v", c.uid, after)
			continue
		}
		if ev.Start != c.start || ev.Location != c.location || ev.Status != c.status || ev.Modified != c.modified ||
			ev.Sequence != c.sequence || ev.Sequence <= before[c.uid].Sequence {
			t.Errorf("%s: %+v, want start %s at %s, status %q, LAST-MODIFIED %s, SEQUENCE %d", c.uid, ev, c.start,
				c.location, c.status, c.modified, c.sequence)
		}
		if ev.Stamp == before[c.uid].Stamp {
			t.Errorf("%s: DTSTAMP %s unchanged", c.uid, ev.Stamp)
		}
	}

	// The Atom feed: an entry for each posting, amendment, move and cancellation.
	_, _, atom = get(t, h, "/feed.atom")
	noSecrets(t, "the Atom feed", atom)
	entries := readAtom(t, atom)
	want := map[string]string{ // entry id → when
		"https://ethics.example.gov/meetings/2026-12-15.html#posted-1":  "2026-12-05T10:00:00-06:00",
		"https://ethics.example.gov/meetings/2026-12-15.html#moved-1":   "2026-12-06T10:00:00-06:00",
		"https://ethics.example.gov/meetings/2026-12-15.html#posted-2":  "2026-12-06T11:00:00-06:00",
		"https://ethics.example.gov/meetings/2026-12-16.html#posted-1":  "2026-12-04T09:10:00-06:00",
		"https://ethics.example.gov/meetings/2026-12-16.html#cancelled": "2026-12-06T12:00:00-06:00",
	}
	var cases []string
	for _, e := range entries {
		if when, ok := want[e.ID]; ok {
			if e.Updated != when {
				t.Errorf("%s dated %s, want %s", e.ID, e.Updated, when)
			}
			delete(want, e.ID)
		}
		if strings.Contains(e.ID, "/cases/") {
			cases = append(cases, e.Title)
		}
		if strings.Contains(e.Title, "2026-003") || strings.Contains(e.Summary, "Draft Room") {
			t.Errorf("the Atom feed tells of the draft: %+v", e)
		}
	}
	for id := range want {
		t.Errorf("the Atom feed lacks %s:\n%s", id, atom)
	}
	// The case steps alone are their cases' notices: 2026-004's first notice, moved, and its
	// new one; 2026-005's, cancelled.
	if got := strings.Join(cases, "\n"); len(cases) != 3 ||
		!strings.Contains(got, "case 2026-005: Fri 18 Dec 2026 18:00 CST, cancelled") ||
		!strings.Contains(got, "case 2026-004: Fri 18 Dec 2026 17:00 CST, moved to Sat 19 Dec 2026 17:00 CST") {
		t.Errorf("the Atom feed's case notices:\n%s", got)
	}
	for i := 1; i < len(entries); i++ {
		if entries[i].Updated > entries[i-1].Updated {
			t.Errorf("the Atom feed is not newest first: %s after %s", entries[i].Updated, entries[i-1].Updated)
		}
	}
}

// fileCase files a complaint against respondent, received at when.
func fileCase(t *testing.T, db *store.Store, when time.Time, respondent string) {
	t.Helper()
	if _, err := db.File(ctx, docket.Act{By: "U_CLERK", At: when},
		docket.File{Complainant: docket.Person{Name: "John Doe"}, Respondent: docket.Person{Name: respondent},
			Sections: []string{"103.10"}, Received: when, Summary: "SECRET"}); err != nil {
		t.Fatal(err)
	}
}
