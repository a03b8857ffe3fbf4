package web_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
	"ethicsbot/store"
	"ethicsbot/web"
)

// TestBoardShowsRegularMeetings: the year's schedule of regular meetings (5 ILCS 120/2.03)
// is on the front page, each year in a section of its own, with each meeting as it now
// stands; the public calendar feed has one event per regular meeting, whose UID is its
// date: the card's event takes it once the agenda is posted, a moved meeting keeps it at
// its new time, and a cancelled one keeps it, marked cancelled.
func TestBoardShowsRegularMeetings(t *testing.T) {
	cal, err := docket.NewCalendar(docket.CalendarConfig{})
	if err != nil {
		t.Fatal(err)
	}
	engine := &docket.Engine{Cal: cal, Ord: docket.DefaultOrdinance()}
	db, err := store.Open(filepath.Join(t.TempDir(), "ethicsbot.db"), engine)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const place = "City Hall, Room 201"
	// Tuesdays 15 December 2026, 12 January and 9 February 2027, at 17:00.
	r, err := docket.NewRegularSchedule(place, 17*time.Hour,
		[]docket.Date{docket.NewDate(2026, time.December, 15), docket.NewDate(2027, time.January, 12),
			docket.NewDate(2027, time.February, 9)})
	if err != nil {
		t.Fatal(err)
	}
	change := func(when string, ch docket.MeetingChange) {
		t.Helper()
		if _, err := db.ChangeMeeting(ctx, docket.Act{By: "U_CLERK", At: at(t, when)}, ch); err != nil {
			t.Fatal(err)
		}
	}
	change("2026-12-04T09:00:00-06:00",
		docket.MeetingChange{Create: &docket.CreateMeeting{Start: at(t, "2026-12-15T17:00:00-06:00"), Place: place}})
	change("2026-12-04T09:05:00-06:00",
		docket.MeetingChange{Meeting: "2026-12-15",
			Actions: []docket.MeetingAction{docket.AddItem{Item: docket.BusinessItem, Text: "Election of a chair"},
				docket.PostAgenda{}}})
	change("2026-12-04T09:10:00-06:00",
		docket.MeetingChange{Create: &docket.CreateMeeting{Start: at(t, "2027-01-12T17:00:00-06:00"), Place: place}})
	change("2026-12-04T09:15:00-06:00",
		docket.MeetingChange{Meeting: "2027-01-12",
			Actions: []docket.MeetingAction{docket.MoveMeeting{Start: at(t, "2027-01-13T17:00:00-06:00"),
				Place: "City Hall, Room 305"}}})
	change("2026-12-04T09:20:00-06:00",
		docket.MeetingChange{Create: &docket.CreateMeeting{Start: at(t, "2027-02-09T17:00:00-06:00"), Place: place}})
	change("2026-12-04T09:25:00-06:00",
		docket.MeetingChange{Meeting: "2027-02-09",
			Actions: []docket.MeetingAction{docket.CancelCommissionMeeting{Reason: "no business"}}})

	now := at(t, "2026-12-10T09:00:00-06:00")
	board := &web.Board{Records: db, Commission: "Ethics Commission", URL: "https://ethics.example.gov/",
		Loc: cal.Location(), Now: func() time.Time { return now },
		Regular: func() docket.RegularSchedule { return r }}
	_, _, index := get(t, board.Handler(), "/")
	for _, want := range []string{
		`<h2 id="regular-2026">Regular meetings of 2026</h2>`, `<h2 id="regular-2027">Regular meetings of 2027</h2>`,
		"5 ILCS 120/2.03",
		`<tr id="regular-2026-12-15"><td><time datetime="2026-12-15T17:00:00-06:00">Tuesday 15 December 2026</time></td><td>17:00 CST</td><td class="text">City Hall, Room 201</td><td> <a href="#meeting-2026-12-15">Agenda</a></td></tr>`,
		`<tr id="regular-2027-01-12">`,
		`Moved to <time datetime="2027-01-13T17:00:00-06:00">Wednesday 13 January 2027 at 17:00 CST</time>, City Hall, Room 305.`,
		`<tr id="regular-2027-02-09"><td><time datetime="2027-02-09T17:00:00-06:00">Tuesday 9 February 2027</time></td><td>17:00 CST</td><td class="text">City Hall, Room 201</td><td>Cancelled.</td></tr>`,
	} {
		if !strings.Contains(index, want) {
			t.Errorf("the front page lacks %q", want)
		}
	}
	_, _, feed := get(t, board.Handler(), "/meetings.ics")
	feed = strings.NewReplacer("\r\n ", "", "\\,", ",").Replace(feed)
	if n := strings.Count(feed, "BEGIN:VEVENT"); n != 3 {
		t.Errorf("the public feed has %d events, want one for each regular meeting:\n%s", n, feed)
	}
	for _, want := range []string{
		"UID:regular-2026-12-15@ethics.example.gov", "UID:regular-2027-01-12@ethics.example.gov",
		"DTSTART;TZID=America/Chicago:20270113T170000", "LOCATION:City Hall, Room 305", "regular meeting of the commission",
		// February's, cancelled, stays under its UID, marked so, its SEQUENCE raised.
		"UID:regular-2027-02-09@ethics.example.gov\r\nDTSTAMP:20261210T150000Z\r\nSUMMARY:Cancelled: ",
		"SEQUENCE:1\r\nSTATUS:CANCELLED\r\nDTSTART;TZID=America/Chicago:20270209T170000",
	} {
		if !strings.Contains(feed, want) {
			t.Errorf("the feed lacks %q:\n%s", want, feed)
		}
	}
	if strings.Contains(feed, "UID:meeting-2026-12-15") {
		t.Errorf("the feed has December's card under another UID:\n%s", feed)
	}
	// Without a schedule, nothing of it.
	board = &web.Board{Records: db, Commission: "Ethics Commission", URL: "https://ethics.example.gov/",
		Loc: cal.Location(), Now: func() time.Time { return now }}
	if _, _, index := get(t, board.Handler(), "/"); strings.Contains(index, "Regular meetings of") {
		t.Errorf("a board without a schedule lists one")
	}
}
