package web_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
