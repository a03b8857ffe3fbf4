package web_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"ethicsbot/app/apptest"
	"ethicsbot/docket"
	"ethicsbot/store"
	"ethicsbot/web"
)

// TestFrontPageWindow: at more records than the front page's window holds, it lists the
// past meetings and the outcomes from the day of its 100th latest record, and says so;
// the year's page still lists every one, the meetings to come are all there, and a meeting
// cancelled before the window, within the last 30 days, stays shown.
func TestFrontPageWindow(t *testing.T) {
	cal, err := docket.NewCalendar(docket.CalendarConfig{})
	if err != nil {
		t.Fatal(err)
	}
	loc := cal.Location()
	db, err := store.Open(filepath.Join(t.TempDir(), "ethicsbot.db"), &docket.Engine{Cal: cal, Ord: docket.DefaultOrdinance()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	apply := func(when time.Time, number string, as ...docket.Action) {
		t.Helper()
		if _, err := db.Apply(ctx, docket.Act{By: "U_CLERK", At: when}, number, as...); err != nil {
			t.Fatal(err)
		}
	}
	file := func(when time.Time, i int) string {
		t.Helper()
		res, err := db.File(ctx, docket.Act{By: "U_CLERK", At: when},
			docket.File{Complainant: docket.Person{Name: fmt.Sprintf("Complainant %d", i)},
				Respondent: docket.Person{Name: fmt.Sprintf("Respondent %d", i)}, Sections: []string{"103.10"},
				Received: when, Summary: "Confidential."})
		if err != nil {
			t.Fatal(err)
		}
		return res.Case.Number
	}
	notice := func(when, meeting time.Time, place, number string, i int) {
		t.Helper()
		apply(when, number,
			docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: meeting, Place: place},
			docket.PostNotice{Meeting: docket.SufficiencyMeeting},
			docket.RecordMailing{Paper: docket.RespondentNoticePaper, Article: validArticle(fmt.Sprintf("9407%017d", i))},
			docket.RecordMailing{Paper: docket.ComplainantConfirmPaper, Article: validArticle(fmt.Sprintf("9408%017d", i))})
	}
	// 120 complaints over 30 days, four a day, each noticed and dismissed in public at its
	// meeting three days on: 240 records.
	day := time.Date(2026, 9, 1, 9, 0, 0, 0, loc)
	var first, last string
	for i := range 120 {
		received := day.AddDate(0, 0, i/4).Add(time.Duration(i%4) * time.Minute)
		meeting := received.AddDate(0, 0, 3).Add(8 * time.Hour)
		for cal.StatutoryHoliday(cal.DateOf(meeting)) != "" {
			meeting = meeting.AddDate(0, 0, 1)
		}
		n := file(received, i)
		notice(received, meeting, "City Hall, Room 201", n, i)
		apply(meeting.Add(time.Hour), n, docket.Rule{Ruling: docket.Insufficient})
		if i == 0 {
			first = n
		}
		last = n
	}
	now := day.AddDate(0, 0, 34)
	// A meeting cancelled 20 days ago, before the window, and one to come.
	cancelled := file(now.AddDate(0, 0, -25), 200)
	notice(now.AddDate(0, 0, -25), now.AddDate(0, 0, -20).Add(8*time.Hour), "Library Annex", cancelled, 200)
	apply(now.AddDate(0, 0, -21), cancelled, docket.CancelMeeting{Meeting: docket.SufficiencyMeeting, Reason: "No quorum"})
	coming := file(now.AddDate(0, 0, -1), 201)
	notice(now.AddDate(0, 0, -1), now.AddDate(0, 0, 3), "Council Chambers", coming, 201)

	board := &web.Board{Records: db, Commission: "Ethics Commission", URL: "https://ethics.example.gov/", Loc: loc,
		Now: func() time.Time { return now }}
	h := board.Handler()
	_, _, index := get(t, h, "/")
	card := func(number string) string { return `href="cases/` + number + `.html` }
	for what, want := range map[string]string{
		"the note on the past meetings":                 "every meeting is on the page of its year in the archive.",
		"the note on the outcomes":                      "every one is on the page of its year in the archive.",
		"the latest case":                               card(last),
		"the meeting to come":                           card(coming),
		"the meeting cancelled 20 days ago, its card":   card(cancelled),
		"the meeting cancelled 20 days ago, its notice": "This meeting is cancelled.",
	} {
		if !strings.Contains(index, want) {
			t.Errorf("the front page lacks %s (%q)", what, want)
		}
	}
	if strings.Contains(index, card(first)) {
		t.Errorf("the front page lists case %s, before its window", first)
	}
	if n := strings.Count(index, `<article class="notice outcome"`); n == 0 || n >= 100 {
		t.Errorf("the front page lists %d outcomes, want fewer than its window of 100 records", n)
	}
	_, _, year := get(t, h, "/archive/2026.html")
	for _, number := range []string{first, last, cancelled} {
		if !strings.Contains(year, `href="../cases/`+number+`.html`) {
			t.Errorf("the year's page lacks case %s", number)
		}
	}
	// The calendar feed's window is 1,000 records: every meeting of the year is there.
	_, _, feed := get(t, h, "/meetings.ics")
	for _, number := range []string{first, last, cancelled, coming} {
		if !strings.Contains(feed, "case "+number) {
			t.Errorf("the calendar feed lacks case %s", number)
		}
	}
}

// TestWindowDayWhereMidnightIsSkipped: a window that begins on a day whose midnight the
// clocks skip (America/Santiago, 6 Sep 2026, 00:00 -> 01:00) begins at that day's first
// instant, 01:00, not at 23:00 of the day before, which the page would name as its first
// day and whose last hour it would list.
func TestWindowDayWhereMidnightIsSkipped(t *testing.T) {
	loc, err := time.LoadLocation("America/Santiago")
	if err != nil {
		t.Fatal(err)
	}
	got := web.DayOfForTest(time.Date(2026, 9, 6, 18, 0, 0, 0, loc), loc)
	if want := time.Date(2026, 9, 6, 1, 0, 0, 0, loc); !got.Equal(want) || got.In(loc).Day() != 6 {
		t.Fatalf("the window of a record of 6 Sep begins at %s; want %s", got.In(loc), want)
	}
	if got, want := web.DayOfForTest(time.Date(2026, 9, 7, 18, 0, 0, 0, loc), loc),
		time.Date(2026, 9, 7, 0, 0, 0, 0, loc); !got.Equal(want) {
		t.Fatalf("the window of a record of 7 Sep begins at %s; want its midnight, %s", got.In(loc), want)
	}
}

// everyMeeting is the record with the board's window read shut off: no Steps, so the
// board folds every meeting from every case's steps, as before the window (Store.Meetings).
type everyMeeting struct{ *store.Store }

func (everyMeeting) StepsSince() {}
func (everyMeeting) FoldSteps()  {}

// sectionOf is the section of page labelled by id, "" if it has none.
func sectionOf(page, id string) string {
	i := strings.Index(page, `<section aria-labelledby="`+id+`">`)
	if i < 0 {
		return ""
	}
	return page[i : i+strings.Index(page[i:], "</section>")]
}

// TestWindowFoldsAsEveryMeeting: on a record whose front page keeps to its window, the
// meetings to come, those cancelled or moved and the regular meetings are shown as when
// every meeting is folded from every case's steps, and the year's page and the Atom feed
// are the same:
// a recorded meeting with its cases and agenda, two folded meetings on one day, a case
// step moved and one cancelled, a recorded meeting moved and one cancelled, case steps at
// a regular meeting, at several instants.
func TestWindowFoldsAsEveryMeeting(t *testing.T) {
	db, engine := meetingRecord(t)
	loc := engine.Cal.Location()
	const place = "City Hall, Room 201"
	r, err := docket.NewRegularSchedule(place, 17*time.Hour,
		[]docket.Date{docket.NewDate(2026, time.November, 17), docket.NewDate(2026, time.December, 15),
			docket.NewDate(2027, time.January, 12), docket.NewDate(2027, time.February, 9)})
	if err != nil {
		t.Fatal(err)
	}
	change := func(when string, ch docket.MeetingChange) {
		t.Helper()
		if _, err := db.ChangeMeeting(ctx, docket.Act{By: "U_CLERK", At: at(t, when)}, ch); err != nil {
			t.Fatal(err)
		}
	}
	apply := func(when time.Time, number string, as ...docket.Action) {
		t.Helper()
		if _, err := db.Apply(ctx, docket.Act{By: "U_CLERK", At: when}, number, as...); err != nil {
			t.Fatal(err)
		}
	}
	posted := func(when string, join []docket.CaseActions) {
		t.Helper()
		for _, ca := range join {
			apply(at(t, when), ca.Number, append(ca.Actions, docket.PostNotice{Meeting: docket.SufficiencyMeeting})...)
		}
	}
	// 70 complaints in November, each noticed and dismissed at its meeting: 140 records,
	// more than the front page's window.
	for i := range 70 {
		received := time.Date(2026, 11, 2, 9, 0, 0, 0, loc).AddDate(0, 0, i/5).Add(time.Duration(i%5) * time.Minute)
		meeting := received.AddDate(0, 0, 3).Add(8 * time.Hour)
		for engine.Cal.StatutoryHoliday(engine.Cal.DateOf(meeting)) != "" {
			meeting = meeting.AddDate(0, 0, 1)
		}
		res, err := db.File(ctx, docket.Act{By: "U_CLERK", At: received}, docket.File{
			Complainant: docket.Person{Name: "C"}, Respondent: docket.Person{Name: fmt.Sprint("R", i)},
			Sections: []string{"103.10"}, Received: received, Summary: "Confidential."})
		if err != nil {
			t.Fatal(err)
		}
		apply(received, res.Case.Number,
			docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: meeting, Place: "Annex"},
			docket.PostNotice{Meeting: docket.SufficiencyMeeting},
			docket.RecordMailing{Paper: docket.RespondentNoticePaper, Article: validArticle(fmt.Sprintf("9407%017d", i))},
			docket.RecordMailing{Paper: docket.ComplainantConfirmPaper, Article: validArticle(fmt.Sprintf("9408%017d", i))})
		apply(meeting.Add(time.Hour), res.Case.Number, docket.Rule{Ruling: docket.Insufficient})
	}
	change("2026-12-04T09:00:00-06:00",
		docket.MeetingChange{Create: &docket.CreateMeeting{Start: at(t, "2026-12-15T17:00:00-06:00"), Place: place}})
	change("2026-12-05T10:00:00-06:00", docket.MeetingChange{Meeting: "2026-12-15",
		Cases: fileToJoin(t, db, at(t, "2026-12-15T17:00:00-06:00"), place, "Ann Poe", "Bob Poe"),
		Actions: []docket.MeetingAction{docket.AddItem{Item: docket.BusinessItem, Text: "Election of a chair"},
			docket.PostAgenda{}}})
	posted("2026-12-05T11:00:00-06:00", fileToJoin(t, db, at(t, "2026-12-17T10:00:00-06:00"), place, "Cy Poe", "Di Poe"))
	posted("2026-12-05T11:00:00-06:00", fileToJoin(t, db, at(t, "2026-12-17T17:00:00-06:00"), place, "Ed Poe"))
	posted("2026-12-05T12:00:00-06:00", fileToJoin(t, db, at(t, "2027-01-12T17:00:00-06:00"), place, "Fy Poe", "Gi Poe"))
	moved := fileToJoin(t, db, at(t, "2026-12-18T17:00:00-06:00"), place, "Hy Poe")
	posted("2026-12-05T12:00:00-06:00", moved)
	apply(at(t, "2026-12-06T12:00:00-06:00"), moved[0].Number, docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting,
		Start: at(t, "2026-12-21T17:00:00-06:00"), Place: place}, docket.PostNotice{Meeting: docket.SufficiencyMeeting})
	cancelled := fileToJoin(t, db, at(t, "2026-12-18T17:00:00-06:00"), place, "Iy Poe")
	posted("2026-12-05T12:00:00-06:00", cancelled)
	apply(at(t, "2026-12-06T12:00:00-06:00"), cancelled[0].Number,
		docket.CancelMeeting{Meeting: docket.SufficiencyMeeting, Reason: "No quorum"})
	change("2026-12-04T09:10:00-06:00",
		docket.MeetingChange{Create: &docket.CreateMeeting{Start: at(t, "2026-12-22T17:00:00-06:00"), Place: place}})
	change("2026-12-05T10:30:00-06:00", docket.MeetingChange{Meeting: "2026-12-22",
		Cases:   fileToJoin(t, db, at(t, "2026-12-22T17:00:00-06:00"), place, "Jo Poe", "Ka Poe"),
		Actions: []docket.MeetingAction{docket.PostAgenda{}}})
	change("2026-12-06T10:30:00-06:00", docket.MeetingChange{Meeting: "2026-12-22",
		Actions: []docket.MeetingAction{docket.MoveMeeting{Start: at(t, "2026-12-28T17:00:00-06:00"), Place: place}}})
	change("2026-12-04T09:20:00-06:00",
		docket.MeetingChange{Create: &docket.CreateMeeting{Start: at(t, "2027-02-09T17:00:00-06:00"), Place: place}})
	change("2026-12-04T09:25:00-06:00", docket.MeetingChange{Meeting: "2027-02-09",
		Actions: []docket.MeetingAction{docket.CancelCommissionMeeting{Reason: "No business"}}})

	cut := 0
	for _, when := range []string{"2026-12-10T09:00:00-06:00", "2026-12-17T12:00:00-06:00", "2026-12-19T09:00:00-06:00",
		"2026-12-30T09:00:00-06:00", "2027-01-13T09:00:00-06:00"} {
		now := at(t, when)
		board := func(rec web.Records) http.Handler {
			return (&web.Board{Records: rec, Commission: "Ethics Commission", URL: "https://ethics.example.gov/", Loc: loc,
				Now: func() time.Time { return now }, Regular: func() docket.RegularSchedule { return r }}).Handler()
		}
		window, every := board(db), board(everyMeeting{db})
		_, _, got := get(t, window, "/")
		_, _, want := get(t, every, "/")
		if strings.Contains(got, "every meeting is on the page of its year in the archive.") {
			cut++
		}
		for _, id := range []string{"upcoming", "changed", "regular-2026", "regular-2027"} {
			if g, w := sectionOf(got, id), sectionOf(want, id); g != w || w == "" && id == "upcoming" {
				t.Errorf("at %s the front page's section %s, from its window:\n%s\nwant, from every meeting:\n%s", when, id,
					g, w)
			}
		}
		for _, path := range []string{"/archive/2026.html", "/feed.atom"} {
			_, _, got = get(t, window, path)
			if _, _, want = get(t, every, path); got != want {
				t.Errorf("at %s %s differs from the one made from every meeting:\n%s\nwant\n%s", when, path, got, want)
			}
		}
	}
	if cut == 0 {
		t.Fatal("the front page never kept to its window: the record is too small to test it")
	}
}

// TestBoardFollowsEveryChange: a board that keeps the case steps it folds and the calendar
// feed's events as written, made again after each change to the record, makes the pages a
// board made afresh makes: meetings created, joined, posted, moved and cancelled, case
// steps folded, moved, cancelled, a move voided and made again, the regular schedule
// changed, a step joining a meeting not yet posted; and each case's page, which folds only
// the meetings its notices stand at, is the page folded from every meeting.
func TestBoardFollowsEveryChange(t *testing.T) {
	db, engine := meetingRecord(t)
	const place = "City Hall, Room 201"
	r, err := docket.NewRegularSchedule(place, 17*time.Hour,
		[]docket.Date{docket.NewDate(2026, time.December, 15), docket.NewDate(2027, time.January, 12)})
	if err != nil {
		t.Fatal(err)
	}
	now := at(t, "2026-12-10T09:00:00-06:00")
	board := func() *web.Board {
		return &web.Board{Records: db, Commission: "Ethics Commission", URL: "https://ethics.example.gov/",
			Loc: engine.Cal.Location(), Now: func() time.Time { return now },
			Regular: func() docket.RegularSchedule { return r }}
	}
	kept := board().Handler()
	// every folds every meeting for each page, as a board did before it kept case steps.
	every := func() http.Handler {
		b := board()
		b.Records = everyMeeting{db}
		return b.Handler()
	}
	check := func(after string) {
		t.Helper()
		for _, path := range []string{"/", "/meetings.ics", "/feed.atom"} {
			_, _, got := get(t, kept, path)
			if _, _, want := get(t, board().Handler(), path); got != want {
				t.Errorf("after %s, %s differs from a board made afresh:\n%s\nwant\n%s", after, path, got, want)
			}
		}
		// A year's page and a case's page fold only the meetings their notices stand at.
		for _, path := range []string{"/archive/2026.html", "/archive/2027.html"} {
			code, _, got := get(t, kept, path)
			if wantCode, _, want := get(t, every(), path); code != wantCode || got != want {
				t.Errorf("after %s, %s (%d) differs from the page folded from every meeting (%d):\n%s\nwant\n%s", after,
					path, code, wantCode, got, want)
			}
		}
		all, err := db.AllCases(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range all {
			path := "/cases/" + c.Number + ".html"
			_, _, got := get(t, kept, path)
			if _, _, want := get(t, every(), path); got != want {
				t.Errorf("after %s, %s differs from the page folded from every meeting:\n%s\nwant\n%s", after, path, got,
					want)
			}
		}
	}
	change := func(when string, ch docket.MeetingChange) {
		t.Helper()
		if _, err := db.ChangeMeeting(ctx, docket.Act{By: "U_CLERK", At: at(t, when)}, ch); err != nil {
			t.Fatal(err)
		}
	}
	apply := func(when, number string, as ...docket.Action) {
		t.Helper()
		if _, err := db.Apply(ctx, docket.Act{By: "U_CLERK", At: at(t, when)}, number, as...); err != nil {
			t.Fatal(err)
		}
	}
	check("nothing")
	change("2026-12-04T09:00:00-06:00",
		docket.MeetingChange{Create: &docket.CreateMeeting{Start: at(t, "2026-12-15T17:00:00-06:00"), Place: place}})
	check("a meeting created")
	change("2026-12-05T10:00:00-06:00", docket.MeetingChange{Meeting: "2026-12-15",
		Cases:   fileToJoin(t, db, at(t, "2026-12-15T17:00:00-06:00"), place, "Ann Poe", "Bob Poe"),
		Actions: []docket.MeetingAction{docket.PostAgenda{}}})
	check("its cases joined and its agenda posted")
	folded := fileToJoin(t, db, at(t, "2026-12-17T10:00:00-06:00"), place, "Cy Poe", "Di Poe")
	for _, ca := range folded {
		apply("2026-12-05T11:00:00-06:00", ca.Number, append(ca.Actions, docket.PostNotice{Meeting: docket.SufficiencyMeeting})...)
	}
	check("two case steps folded into a meeting")
	apply("2026-12-06T11:00:00-06:00", folded[0].Number, docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting,
		Start: at(t, "2026-12-18T10:00:00-06:00"), Place: place}, docket.PostNotice{Meeting: docket.SufficiencyMeeting})
	check("a case step moved")
	apply("2026-12-06T12:00:00-06:00", folded[1].Number,
		docket.CancelMeeting{Meeting: docket.SufficiencyMeeting, Reason: "No quorum"})
	check("a case step cancelled")
	change("2026-12-07T10:30:00-06:00", docket.MeetingChange{Meeting: "2026-12-15",
		Actions: []docket.MeetingAction{docket.MoveMeeting{Start: at(t, "2026-12-16T17:00:00-06:00"), Place: place}}})
	check("the meeting moved")
	change("2026-12-07T11:30:00-06:00", docket.MeetingChange{Meeting: "2026-12-15",
		Actions: []docket.MeetingAction{docket.CancelCommissionMeeting{Reason: "No quorum"}}})
	check("the meeting cancelled")
	apply("2026-12-08T12:00:00-06:00", folded[0].Number,
		docket.Void{Seq: 4, Of: docket.ScheduleMeeting{}.Kind(), Reason: "moved in error"})
	check("the move voided")
	apply("2026-12-08T12:30:00-06:00", folded[0].Number, docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting,
		Start: at(t, "2026-12-21T10:00:00-06:00"), Place: place})
	check("the case step moved again")
	r, err = docket.NewRegularSchedule("Annex", 18*time.Hour,
		[]docket.Date{docket.NewDate(2026, time.December, 15), docket.NewDate(2027, time.January, 19)})
	if err != nil {
		t.Fatal(err)
	}
	now = now.Add(time.Minute) // the board makes a page again each minute, or when the record changes
	check("the regular schedule changed")
	// A case step that joins a meeting whose agenda is not yet posted is not yet public
	// (5 ILCS 120/2.02): its case's page must know the meeting to say so.
	change("2026-12-08T13:00:00-06:00",
		docket.MeetingChange{Create: &docket.CreateMeeting{Start: at(t, "2026-12-22T17:00:00-06:00"), Place: place}})
	change("2026-12-08T13:30:00-06:00", docket.MeetingChange{Meeting: "2026-12-22",
		Cases: fileToJoin(t, db, at(t, "2026-12-22T17:00:00-06:00"), place, "Ed Poe")})
	check("a case step joined a meeting not yet posted")
	change("2026-12-08T14:00:00-06:00", docket.MeetingChange{Meeting: "2026-12-22",
		Actions: []docket.MeetingAction{docket.PostAgenda{}}})
	check("its agenda posted")
	// The board all these changes leave, every file of it, as TestBoardGolden pins its records'.
	apptest.GoldenDir(t, filepath.Join("testdata", "golden", "every_change"), published(t, board()), *update)
}

// TestBoardMakesAPageOnceForItsReaders: readers who ask for a page at once, after a change,
// wait for the one making of it, and are all given it: a crawler's twenty requests do not
// make a large year's page twenty times over.
func TestBoardMakesAPageOnceForItsReaders(t *testing.T) {
	db, engine := meetingRecord(t)
	const place = "City Hall, Room 201"
	if _, err := db.ChangeMeeting(ctx, docket.Act{By: "U_CLERK", At: at(t, "2026-12-04T09:00:00-06:00")},
		docket.MeetingChange{Create: &docket.CreateMeeting{Start: at(t, "2026-12-15T17:00:00-06:00"), Place: place}}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ChangeMeeting(ctx, docket.Act{By: "U_CLERK", At: at(t, "2026-12-05T10:00:00-06:00")},
		docket.MeetingChange{Meeting: "2026-12-15",
			Cases:   fileToJoin(t, db, at(t, "2026-12-15T17:00:00-06:00"), place, "Ann Poe", "Bob Poe"),
			Actions: []docket.MeetingAction{docket.PostAgenda{}}}); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/", "/archive/2026.html"} {
		rec := gated(db)
		h := readersBoard(t, rec, engine).Handler()
		_, _, want := get(t, readersBoard(t, db, engine).Handler(), path)
		var wg sync.WaitGroup
		bodies := make([]string, 20)
		codes := make([]int, 20)
		for i := range bodies {
			wg.Go(func() { codes[i], _, bodies[i] = get(t, h, path) })
		}
		rec.waitForReaders(int64(len(bodies)))
		close(rec.release)
		wg.Wait()
		if n := rec.calls.Load(); n != 1 {
			t.Errorf("%s was made %d times for 20 readers at once, not once", path, n)
		}
		for i := range bodies {
			if codes[i] != 200 || bodies[i] != want {
				t.Fatalf("reader %d of %s was given %d:\n%s\nwant 200:\n%s", i, path, codes[i], bodies[i], want)
			}
		}
	}
}

// readersBoard is the board of rec that the readers' tests serve, as it stands on 10
// December 2026 at 09:00.
func readersBoard(t *testing.T, rec web.Records, engine *docket.Engine) *web.Board {
	t.Helper()
	now := at(t, "2026-12-10T09:00:00-06:00")
	return &web.Board{Records: rec, Commission: "Ethics Commission", Loc: engine.Cal.Location(),
		Now: func() time.Time { return now }}
}

// gatedBetween is the record whose first PublicBetween begins a making and waits, until
// release is closed or its context ends; every call panics while panics is set.
type gatedBetween struct {
	*store.Store
	calls, versions  atomic.Int64
	entered, release chan struct{}
	panics           atomic.Bool
}

func gated(db *store.Store) *gatedBetween {
	return &gatedBetween{Store: db, entered: make(chan struct{}), release: make(chan struct{})}
}

// waitForReaders returns once n readers have looked for the page, and a moment more, for
// them to join its making. (A reader held up past that moment and the making's end is given
// what the making kept: made once still.)
func (g *gatedBetween) waitForReaders(n int64) {
	for g.versions.Load() < n {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond)
}

func (g *gatedBetween) PublicVersion(ctx context.Context) (int64, error) {
	g.versions.Add(1)
	return g.Store.PublicVersion(ctx)
}

func (g *gatedBetween) PublicBetween(ctx context.Context, from, to time.Time) ([]docket.Posting, error) {
	if g.calls.Add(1) == 1 {
		close(g.entered)
		select {
		case <-g.release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if g.panics.Load() {
		panic("a making failed")
	}
	return g.Store.PublicBetween(ctx, from, to)
}

// serveAsync serves GET path to h with ctx, and gives the answer when it is done.
func serveAsync(h http.Handler, ctx context.Context, path string) <-chan *httptest.ResponseRecorder {
	done := make(chan *httptest.ResponseRecorder, 1)
	go func() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", path, nil).WithContext(ctx))
		done <- w
	}()
	return done
}

// answered waits for a reader's answer; a reader never answered fails the test.
func answered(t *testing.T, done <-chan *httptest.ResponseRecorder, what string) *httptest.ResponseRecorder {
	t.Helper()
	select {
	case w := <-done:
		return w
	case <-time.After(10 * time.Second):
		t.Fatalf("%s was never answered", what)
		return nil
	}
}

// TestBoardReadersWhoGoAway: a reader waiting for a page another reader's request is
// making stops waiting when its own request ends; and a making whose first reader went
// away goes on for the readers still waiting, and is made once.
func TestBoardReadersWhoGoAway(t *testing.T) {
	db, engine := meetingRecord(t)
	board := func(rec web.Records) http.Handler { return readersBoard(t, rec, engine).Handler() }
	_, _, want := get(t, board(db), "/")

	rec := gated(db)
	h := board(rec)
	first := serveAsync(h, context.Background(), "/")
	<-rec.entered
	ctx, cancel := context.WithCancel(context.Background())
	waiting := serveAsync(h, ctx, "/")
	cancel()
	if w := answered(t, waiting, "a reader whose request ended while the page was being made"); w.Code != 503 {
		// A request's context also ends when its client only stops sending: it may still read.
		t.Errorf("a reader whose request ended was given %d, not 503", w.Code)
	}
	close(rec.release)
	if w := answered(t, first, "the first reader"); w.Code != 200 || w.Body.String() != want {
		t.Errorf("the first reader was given %d:\n%s", w.Code, w.Body)
	}

	rec = gated(db)
	h = board(rec)
	ctx, cancel = context.WithCancel(context.Background())
	gone := serveAsync(h, ctx, "/")
	<-rec.entered
	second := serveAsync(h, context.Background(), "/")
	rec.waitForReaders(2)
	cancel()
	answered(t, gone, "the reader who went away")
	close(rec.release)
	if w := answered(t, second, "the reader still waiting"); w.Code != 200 || w.Body.String() != want {
		t.Errorf("a reader waiting for a making whose first reader went away was given %d:\n%s", w.Code, w.Body)
	}
	if n := rec.calls.Load(); n != 1 {
		t.Errorf("the page was made %d times, not once", n)
	}
}

// TestBoardMakingThatPanics: a making that panics is told to each of its readers as the
// board being unavailable, with no trace of the failure in the answer, and the process
// goes on; the next making succeeds.
func TestBoardMakingThatPanics(t *testing.T) {
	db, engine := meetingRecord(t)
	rec := gated(db)
	rec.panics.Store(true)
	var logged apptest.LockedBuffer
	board := readersBoard(t, rec, engine)
	board.Log = slog.New(slog.NewTextHandler(&logged, nil))
	h := board.Handler()
	first := serveAsync(h, context.Background(), "/")
	<-rec.entered
	second := serveAsync(h, context.Background(), "/")
	rec.waitForReaders(2)
	close(rec.release)
	for i, done := range []<-chan *httptest.ResponseRecorder{first, second} {
		w := answered(t, done, fmt.Sprintf("reader %d", i+1))
		if body := w.Body.String(); w.Code != http.StatusServiceUnavailable || strings.Contains(body, "panic") ||
			strings.Contains(body, "goroutine") || !strings.Contains(body, "notice board is unavailable") {
			t.Errorf("reader %d of a making that panicked was given %d:\n%s", i+1, w.Code, body)
		}
	}
	// Each making is logged once, and its readers not at all. (The second reader joins the
	// first making, unless it was held up for longer than the pause above: then it makes
	// the page again, and that making panics too.)
	if n, makings := strings.Count(logged.String(), "making a page panicked"), rec.calls.Load(); int64(n) != makings ||
		strings.Count(logged.String(), "board:") != n {
		t.Errorf("%d makings panicked, logged %d times, or their readers' failures were logged too:\n%s", makings, n,
			logged.String())
	}
	rec.panics.Store(false)
	if code, _, _ := get(t, h, "/"); code != 200 {
		t.Errorf("the next reader was given %d", code)
	}
}
