package web_test

import (
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
	"ethicsbot/web"
)

// TestBoardShowsOneCardPerMeeting: three cases' sufficiency reviews and the commission's
// other business at one meeting are one card on the front page, with one anchor and one
// order of business (one call to order, one adjournment); each case's page keeps its own
// record with its first-posted time.
func TestBoardShowsOneCardPerMeeting(t *testing.T) {
	db, engine := meetingRecord(t)
	cal := engine.Cal
	start := at(t, "2026-12-15T17:00:00-06:00")
	if _, err := db.ChangeMeeting(ctx, docket.Act{By: "U_CLERK", At: at(t, "2026-12-04T09:00:00-06:00")}, docket.MeetingChange{
		Create: &docket.CreateMeeting{Start: start, Place: "City Hall, Room 201"},
	}); err != nil {
		t.Fatal(err)
	}
	join := fileToJoin(t, db, start, "City Hall, Room 201", "Ann Poe", "Bob Poe", "Cy Poe")
	if _, err := db.ChangeMeeting(ctx, docket.Act{By: "U_CLERK", At: at(t, "2026-12-05T10:00:00-06:00")}, docket.MeetingChange{
		Meeting: "2026-12-15", Cases: join,
		Actions: []docket.MeetingAction{docket.AddItem{Item: docket.BusinessItem, Text: "Election of a chair"},
			docket.PostAgenda{}},
	}); err != nil {
		t.Fatal(err)
	}
	now := at(t, "2026-12-10T09:00:00-06:00")
	board := &web.Board{Records: db, Commission: "Ethics Commission", URL: "https://ethics.example.gov/",
		Loc: cal.Location(), Now: func() time.Time { return now }}
	_, _, index := get(t, board.Handler(), "/")
	noSecrets(t, "the front page", index)
	if n := strings.Count(index, `<article class="notice`); n != 1 {
		t.Errorf("the front page has %d cards, want one for the meeting", n)
	}
	for _, want := range []string{`id="meeting-2026-12-15"`, "Meeting of the commission 2026-12-15", "2026-001</a>, <a",
		"Election of a chair", "Review of the sufficiency of complaint 2026-003"} {
		if !strings.Contains(index, want) {
			t.Errorf("the meeting's card lacks %q", want)
		}
	}
	// The card lists the items of the agenda as posted, numbered as its PDF and notice
	// number them, framed by the parts of every meeting, unnumbered, as they frame them.
	for _, want := range []string{`<p class="frame">Call to order and roll call.</p><ol class="agenda">`,
		`</ol><p class="frame">Public comment.</p><p class="frame">Adjournment.</p>`} {
		if strings.Count(index, want) != 1 {
			t.Errorf("the card lacks %q once, framing its numbered items", want)
		}
	}
	if strings.Contains(index, "<li>Call to order") || strings.Contains(index, "<li>Adjournment") {
		t.Error("the card numbers a part of every meeting among the items")
	}
	ms, err := db.Meetings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var items []string
	for _, it := range ms[0].Doc().Items {
		items = append(items, "<li>"+strings.TrimSuffix(it.Words(), ".")+".</li>")
	}
	if want := `<ol class="agenda">` + strings.Join(items, "") + "</ol>"; !strings.Contains(index, want) {
		t.Errorf("the card's agenda is not the posted agenda's items:\nwant %s\n%s", want, index)
	}
	// One event in the public calendar feed, under the meeting's name, which it keeps
	// through its moves and whatever items come and go.
	_, _, feed := get(t, board.Handler(), "/meetings.ics")
	feed = strings.NewReplacer("\r\n ", "", "\\,", ",").Replace(feed) // unfolded, unescaped
	if n := strings.Count(feed, "BEGIN:VEVENT"); n != 1 {
		t.Errorf("the public feed has %d events, want one for the meeting:\n%s", n, feed)
	}
	if !strings.Contains(feed, "UID:meeting-2026-12-15@ethics.example.gov") ||
		!strings.Contains(feed, "cases 2026-001, 2026-002, 2026-003") {
		t.Errorf("the meeting's event:\n%s", feed)
	}
	// And one in each private calendar.
	cases, err := db.AllCases(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var meetings []web.Event
	for _, ev := range web.PrivateCalendar(engine, cases, "", true, "https://ethics.example.gov/", now).Events {
		if ev.Start.Equal(start) {
			meetings = append(meetings, ev)
		}
	}
	if len(meetings) != 1 || !strings.HasPrefix(meetings[0].UID, "2026-001-meeting-sufficiency@") ||
		!strings.Contains(meetings[0].Summary, "2026-003") {
		t.Errorf("the private calendar's meeting events: %+v", meetings)
	}
	_, _, page := get(t, board.Handler(), "/cases/2026-002.html")
	if !strings.Contains(page, "Sufficiency meeting, case") ||
		!strings.Contains(page, `Posted on this board <time datetime="2026-12-05T10:00:00-06:00">`) {
		t.Errorf("the case's page lost its own record:\n%s", page)
	}
	// Its step's notice is the meeting's agenda as posted, other business and all, framed
	// as the meeting's card frames it: not an order of business of the case alone.
	if want := `<p class="frame">Call to order and roll call.</p><ol class="agenda">` + strings.Join(items, "") +
		`</ol><p class="frame">Public comment.</p>`; !strings.Contains(page, want) {
		t.Errorf("the case's page does not show the meeting's posted agenda:\nwant %s\n%s", want, page)
	}
}
