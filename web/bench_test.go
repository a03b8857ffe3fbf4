package web_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"ethicsbot/bot"
	"ethicsbot/docket"
	"ethicsbot/store"
	"ethicsbot/web"
)

// busyYear is a record of 300 complaints over 2026, each with its sufficiency meeting
// noticed and a public dismissal: 600 public records, a busy year for a city.
func busyYear(b *testing.B) (*store.Store, *web.Board) {
	b.Helper()
	return yearOf(b, 300)
}

// yearOf is busyYear with n complaints, received over 300 days of 2026, as many a day as
// it takes.
func yearOf(b *testing.B, n int) (*store.Store, *web.Board) {
	b.Helper()
	cal, err := docket.NewCalendar(docket.CalendarConfig{})
	if err != nil {
		b.Fatal(err)
	}
	engine := &docket.Engine{Cal: cal, Ord: docket.DefaultOrdinance()}
	db, err := store.Open(filepath.Join(b.TempDir(), "ethicsbot.db"), engine)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	day := time.Date(2026, 1, 5, 9, 0, 0, 0, cal.Location())
	perDay := max(1, n/300)
	for i := 0; i < n; i++ {
		received := day.AddDate(0, 0, i/perDay).Add(time.Duration(i%perDay) * time.Minute)
		meeting := received.AddDate(0, 0, 3).Add(8 * time.Hour)
		for cal.StatutoryHoliday(cal.DateOf(meeting)) != "" {
			meeting = meeting.AddDate(0, 0, 1) // no meeting on a legal holiday (5 ILCS 120/2.01)
		}
		res, err := db.File(ctx, docket.Act{By: "U_CLERK", At: received},
			docket.File{Complainant: docket.Person{Name: fmt.Sprintf("Complainant %d", i)},
				Respondent: docket.Person{Name: fmt.Sprintf("Respondent %d", i)}, Sections: []string{"103.10"}, Received: received,
				Summary: "Confidential."})
		if err != nil {
			b.Fatal(err)
		}
		n := res.Case.Number
		if _, err := db.Apply(ctx, docket.Act{By: "U_CLERK", At: received}, n,
			docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: meeting, Place: "City Hall, Room 201"},
			docket.PostNotice{Meeting: docket.SufficiencyMeeting},
			docket.RecordMailing{Paper: docket.RespondentNoticePaper, Article: validArticle(fmt.Sprintf("9407%017d", i))},
			docket.RecordMailing{Paper: docket.ComplainantConfirmPaper,
				Article: validArticle(fmt.Sprintf("9408%017d", i))}); err != nil {
			b.Fatal(err)
		}
		if _, err := db.Apply(ctx, docket.Act{By: "U_COMM1", At: meeting.Add(time.Hour)}, n,
			docket.Rule{Ruling: docket.Insufficient}); err != nil {
			b.Fatal(err)
		}
	}
	now := day.AddDate(0, 10, 0)
	return db, &web.Board{Records: db, Commission: "Ethics Commission", URL: "https://ethics.example.gov/",
		Loc: cal.Location(), Now: func() time.Time { return now }}
}

// BenchmarkBoard is the front page of a busy year over HTTP: made afresh (as after each
// change to the record), served as made, and /healthz beside it as the floor.
func BenchmarkBoard(b *testing.B) {
	db, board := busyYear(b)
	site := bot.Site(db, web.Public(board, &web.CalendarFeed{}), nil)
	for _, bc := range []struct {
		name, path string
		fresh      bool
	}{{"Made", "/", true}, {"Served", "/", false}, {"Healthz", "/healthz", false}} {
		b.Run(bc.name, func(b *testing.B) {
			req := httptest.NewRequest("GET", bc.path, nil)
			req.Header.Set("Accept-Encoding", "gzip")
			var size int
			for b.Loop() {
				if bc.fresh {
					// A new board, as the cache is after a change: it makes the page again.
					site = bot.Site(db,
						web.Public(&web.Board{Records: db, Commission: board.Commission, URL: board.URL, Loc: board.Loc, Now: board.Now},
							&web.CalendarFeed{}), nil)
				}
				rec := httptest.NewRecorder()
				site.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("GET %s = %d", bc.path, rec.Code)
				}
				size = rec.Body.Len()
			}
			b.ReportMetric(float64(size), "bytes/page")
		})
	}
}

// BenchmarkBoard10k is what the board costs at 10,000 complaints: its front page, its Atom
// feed and its calendar feed made by a new board (Build), and made again by a board that
// has made them once, after a change to the record (Change): in turn a complaint filed with
// its meeting noticed, a complaint dismissed, a meeting moved. Only the making is timed.
func BenchmarkBoard10k(b *testing.B) {
	db, board := yearOf(b, 10000)
	fresh := func() http.Handler {
		return bot.Site(db,
			web.Public(&web.Board{Records: db, Commission: board.Commission, URL: board.URL, Loc: board.Loc, Now: board.Now},
				&web.CalendarFeed{}), nil)
	}
	get := func(b *testing.B, site http.Handler, path string) {
		rec := httptest.NewRecorder()
		site.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if rec.Code != http.StatusOK {
			b.Fatalf("GET %s = %d", path, rec.Code)
		}
	}
	paths := []string{"/", "/feed.atom", "/meetings.ics", "/archive/2026.html"}
	for _, path := range paths {
		b.Run("Build"+path, func(b *testing.B) {
			for b.Loop() {
				get(b, fresh(), path)
			}
		})
	}
	now, changes := board.Now(), 0
	change := func(b *testing.B) {
		b.Helper()
		i := changes
		changes++
		act := func(when time.Time, number string, as ...docket.Action) {
			b.Helper()
			if _, err := db.Apply(ctx, docket.Act{By: "U_CLERK", At: when}, number, as...); err != nil {
				b.Fatal(err)
			}
		}
		// A complaint received five days ago, its sufficiency meeting in two days (to move)
		// or yesterday (to rule on).
		received := now.AddDate(0, 0, -5).Add(time.Duration(i) * time.Minute)
		meeting := now.AddDate(0, 0, 2).Add(time.Duration(i) * time.Minute)
		if i%3 == 1 {
			meeting = now.AddDate(0, 0, -1).Add(time.Duration(i) * time.Minute)
		}
		res, err := db.File(ctx, docket.Act{By: "U_CLERK", At: received},
			docket.File{Complainant: docket.Person{Name: fmt.Sprintf("Complainant N%d", i)},
				Respondent: docket.Person{Name: fmt.Sprintf("Respondent N%d", i)}, Sections: []string{"103.10"},
				Received: received, Summary: "Confidential."})
		if err != nil {
			b.Fatal(err)
		}
		n := res.Case.Number
		act(received, n,
			docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: meeting, Place: "City Hall, Room 201"},
			docket.PostNotice{Meeting: docket.SufficiencyMeeting},
			docket.RecordMailing{Paper: docket.RespondentNoticePaper, Article: validArticle(fmt.Sprintf("9409%017d", i))},
			docket.RecordMailing{Paper: docket.ComplainantConfirmPaper, Article: validArticle(fmt.Sprintf("9410%017d", i))})
		switch i % 3 {
		case 1: // dismissed at (C)(2): public
			act(meeting.Add(time.Hour), n, docket.Rule{Ruling: docket.Insufficient})
		case 2: // moved a day later, its notice posted again
			act(now, n,
				docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: meeting.AddDate(0, 0, 1), Place: "Room 12"},
				docket.PostNotice{Meeting: docket.SufficiencyMeeting})
		}
	}
	// afterChange has readers ask for path at once after each change, of a board that has
	// made it once: one reader, or many, as a crawler's requests or a town's residents after
	// a notice, for whom the page is made once.
	afterChange := func(path string, readers int) func(b *testing.B) {
		return func(b *testing.B) {
			site := fresh()
			get(b, site, path)
			for b.Loop() {
				b.StopTimer()
				change(b)
				b.StartTimer()
				codes := make([]int, readers)
				var wg sync.WaitGroup
				for i := range codes {
					wg.Go(func() {
						rec := httptest.NewRecorder()
						site.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
						codes[i] = rec.Code
					})
				}
				wg.Wait()
				for _, code := range codes {
					if code != http.StatusOK {
						b.Fatalf("GET %s = %d", path, code)
					}
				}
			}
		}
	}
	for _, path := range paths {
		b.Run("Change"+path, afterChange(path, 1))
	}
	for _, path := range []string{"/", "/archive/2026.html"} {
		b.Run("ChangeReaders8"+path, afterChange(path, 8))
	}
	// A case's page, each a different case's, as a crawler reads them after a change: made
	// by a board that has made a page before, each page made once.
	b.Run("CasePages", func(b *testing.B) {
		site := fresh()
		get(b, site, "/")
		all, err := db.AllCases(ctx)
		if err != nil {
			b.Fatal(err)
		}
		i := 0
		for b.Loop() {
			get(b, site, "/cases/"+all[i%len(all)].Number+".html")
			i++
		}
	})
}

// validArticle is the USPS article number whose digits before the check digit are body.
func validArticle(body string) string { return body + fmt.Sprint(docket.ArticleCheckDigit(body)) }
