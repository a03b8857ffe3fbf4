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

// TestItemWithdrawnFromAMeetingThatGoesOn: a case step
// withdrawn from a meeting that keeps its other items is shown on the board as withdrawn
// from the agenda, never as a cancelled meeting at the meeting's time and place; the
// meeting itself is cancelled only when it is.
func TestItemWithdrawnFromAMeetingThatGoesOn(t *testing.T) {
	db, engine := meetingRecord(t)
	cal := engine.Cal
	start := at(t, "2026-12-15T17:00:00-06:00")
	if _, err := db.ChangeMeeting(ctx, docket.Act{By: "U_CLERK", At: at(t, "2026-12-04T09:00:00-06:00")}, docket.MeetingChange{
		Create: &docket.CreateMeeting{Start: start, Place: "City Hall"},
	}); err != nil {
		t.Fatal(err)
	}
	join := fileToJoin(t, db, start, "City Hall", "Ann Poe", "Bob Poe")
	if _, err := db.ChangeMeeting(ctx, docket.Act{By: "U_CLERK", At: at(t, "2026-12-05T10:00:00-06:00")}, docket.MeetingChange{
		Meeting: "2026-12-15", Cases: join, Actions: []docket.MeetingAction{docket.PostAgenda{}},
	}); err != nil {
		t.Fatal(err)
	}
	withdraw := func(number, when string) {
		t.Helper()
		if _, err := db.ChangeMeeting(ctx, docket.Act{By: "U_CLERK", At: at(t, when)}, docket.MeetingChange{
			Meeting: "2026-12-15",
			Cases: []docket.CaseActions{{Number: number,
				Actions: []docket.Action{docket.CancelMeeting{Meeting: docket.SufficiencyMeeting, Reason: "withdrawn"}}}},
			Actions: []docket.MeetingAction{docket.AgendaChanged{What: "case " + number + " withdrawn"}},
		}); err != nil {
			t.Fatal(err)
		}
	}
	withdraw("2026-002", "2026-12-06T10:00:00-06:00")
	now := at(t, "2026-12-10T09:00:00-06:00")
	board := &web.Board{Records: db, Commission: "Ethics Commission", URL: "https://ethics.example.gov/",
		Loc: cal.Location(), Now: func() time.Time { return now }}
	check := func(what, page string) {
		t.Helper()
		if strings.Contains(page, "This meeting is cancelled") || strings.Contains(page, ">Cancelled<") ||
			!strings.Contains(page, "This item was withdrawn from the agenda.") {
			t.Errorf("%s shows the withdrawn item as a cancelled meeting:\n%s", what, page)
		}
	}
	_, _, index := get(t, board.Handler(), "/")
	check("the front page", index)
	_, _, casePage := get(t, board.Handler(), "/cases/2026-002.html")
	check("the case's page", casePage)
	_, _, atom := get(t, board.Handler(), "/feed.atom")
	if strings.Contains(atom, ", cancelled") || !strings.Contains(atom, "withdrawn from the agenda") {
		t.Errorf("the Atom feed:\n%s", atom)
	}
	// The last item goes too: the meeting is still held, unless itself cancelled.
	withdraw("2026-001", "2026-12-07T10:00:00-06:00")
	_, _, index = get(t, board.Handler(), "/")
	check("the front page, without items", index)
	if _, err := db.ChangeMeeting(ctx, docket.Act{By: "U_CLERK", At: at(t, "2026-12-08T10:00:00-06:00")}, docket.MeetingChange{
		Meeting: "2026-12-15", Actions: []docket.MeetingAction{docket.CancelCommissionMeeting{Reason: "no business"}},
	}); err != nil {
		t.Fatal(err)
	}
	_, _, index = get(t, board.Handler(), "/")
	if !strings.Contains(index, "This meeting is cancelled.") {
		t.Errorf("the cancelled meeting is not shown cancelled:\n%s", index)
	}
}

// meetingRecord opens a fresh record with the default calendar and ordinance.
func meetingRecord(t *testing.T) (*store.Store, *docket.Engine) {
	t.Helper()
	cal, err := docket.NewCalendar(docket.CalendarConfig{})
	if err != nil {
		t.Fatal(err)
	}
	engine := &docket.Engine{Cal: cal, Ord: docket.DefaultOrdinance()}
	db, err := store.Open(filepath.Join(t.TempDir(), "ethicsbot.db"), engine)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, engine
}

// fileToJoin files a complaint against each respondent and returns the scheduling of each
// case's sufficiency review at start and place, to join a meeting there.
func fileToJoin(t *testing.T, db *store.Store, start time.Time, place string,
	respondents ...string) []docket.CaseActions {
	t.Helper()
	var join []docket.CaseActions
	for i, who := range respondents {
		when := at(t, "2026-12-04T10:00:00-06:00").Add(time.Duration(i) * time.Minute)
		res, err := db.File(ctx, docket.Act{By: "U_CLERK", At: when},
			docket.File{Complainant: docket.Person{Name: "John Doe"}, Respondent: docket.Person{Name: who},
				Sections: []string{"103.10"}, Received: when, Summary: "SECRET"})
		if err != nil {
			t.Fatal(err)
		}
		join = append(join,
			docket.CaseActions{Number: res.Case.Number,
				Actions: []docket.Action{docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: start, Place: place}}})
	}
	return join
}
