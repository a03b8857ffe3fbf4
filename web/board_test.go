package web_test

import (
	"compress/gzip"
	"context"
	"encoding/xml"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	ics "github.com/arran4/golang-ical"

	"ethicsbot/docket"
	"ethicsbot/report"
	"ethicsbot/store"
	"ethicsbot/web"
)

var ctx = context.Background()

// Confidential strings: the fixture's complaints hold them, and no public page may.
const (
	secretSummary    = "SECRET-ALLEGATION used the city's email"
	secretRespondent = "Secret Respondent"
	secretArticle    = "94071118987654329299"
)

// hostilePlace is typed markup in a place: the board shows it as text.
const hostilePlace = `<script>alert("x")</script> Room 1 & "Annex"`

// fixture is a record with one case dismissed in public, one confidential case whose
// meeting is upcoming, and one whose meeting was cancelled, seen at now.
type fixture struct {
	db    *store.Store
	board *web.Board
	now   time.Time
}

func at(tb testing.TB, s string) time.Time {
	tb.Helper()
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

func newFixture(tb testing.TB) *fixture {
	tb.Helper()
	cal, err := docket.NewCalendar(docket.CalendarConfig{})
	if err != nil {
		tb.Fatal(err)
	}
	engine := &docket.Engine{Cal: cal, Ord: docket.DefaultOrdinance()}
	db, err := store.Open(filepath.Join(tb.TempDir(), "ethicsbot.db"), engine)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	apply := func(number, when string, a docket.Action) {
		tb.Helper()
		if _, err := db.Apply(ctx, docket.Act{By: "U_CLERK", At: at(tb, when)}, number, a); err != nil {
			tb.Fatalf("%s on %s: %v", a.Kind(), number, err)
		}
	}
	file := func(when, respondent, summary string) string {
		tb.Helper()
		res, err := db.File(ctx, docket.Act{By: "U_CLERK", At: at(tb, when)},
			docket.File{Complainant: docket.Person{Name: "John Doe"}, Respondent: docket.Person{Name: respondent},
				Sections: []string{"103.10"}, Received: at(tb, when), Summary: summary})
		if err != nil {
			tb.Fatal(err)
		}
		return res.Case.Number
	}
	// 2026-001: dismissed at (C)(2), so public.
	a := file("2026-12-01T10:00:00-06:00", "Jane Roe", "Used the city's car.")
	apply(a, "2026-12-01T11:00:00-06:00",
		docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: at(tb, "2026-12-07T17:00:00-06:00"),
			Place: "City Hall, Room 201"})
	apply(a, "2026-12-01T12:00:00-06:00", docket.PostNotice{Meeting: docket.SufficiencyMeeting})
	apply(a, "2026-12-01T12:00:00-06:00",
		docket.RecordMailing{Paper: docket.RespondentNoticePaper, Article: "94071118987654321712"})
	apply(a, "2026-12-01T12:00:00-06:00",
		docket.RecordMailing{Paper: docket.ComplainantConfirmPaper, Article: "94071118987654321613"})
	apply(a, "2026-12-07T18:00:00-06:00", docket.Rule{Ruling: docket.Insufficient})
	// 2026-002: confidential, its sufficiency meeting upcoming.
	b := file("2026-12-08T10:00:00-06:00", secretRespondent, secretSummary)
	apply(b, "2026-12-08T11:00:00-06:00",
		docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: at(tb, "2026-12-15T17:00:00-06:00"),
			Place: "Council Chambers, City Hall"})
	apply(b, "2026-12-08T12:00:00-06:00",
		docket.RecordMailing{Paper: docket.RespondentNoticePaper, Article: secretArticle})
	// 2026-003: its meeting, in a hostile place, cancelled.
	c := file("2026-12-08T13:00:00-06:00", secretRespondent+" II", secretSummary)
	apply(c, "2026-12-08T14:00:00-06:00",
		docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: at(tb, "2026-12-16T17:00:00-06:00"),
			Place: hostilePlace})
	apply(c, "2026-12-09T09:00:00-06:00",
		docket.CancelMeeting{Meeting: docket.SufficiencyMeeting, Reason: "SECRET-REASON"})

	now := at(tb, "2026-12-10T09:00:00-06:00")
	board := &web.Board{Records: db, Commission: "Ethics Commission of Testville", Address: "City Hall\n1 Main St",
		URL: "https://ethics.example.gov/",
		Loc: cal.Location(), Now: func() time.Time { return now },
		Figures: func(ctx context.Context, year int, now time.Time) (web.Figures, error) {
			cases, err := db.AllCases(ctx)
			return report.PublicOf(cases, year, engine, now), err
		}}
	return &fixture{db: db, board: board, now: now}
}

func get(tb testing.TB, h http.Handler, path string) (int, http.Header, string) {
	tb.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	body, _ := io.ReadAll(rec.Result().Body)
	return rec.Code, rec.Result().Header, string(body)
}

// noSecretsInCalendar is noSecrets for an iCalendar feed, whose values are plain text: the
// fixture's hostile place is there as typed, as data no calendar reads as markup.
func noSecretsInCalendar(tb testing.TB, what, body string) {
	tb.Helper()
	noSecrets(tb, what, strings.ReplaceAll(strings.ReplaceAll(body, "\r\n ", ""), hostilePlace, ""))
}

// noSecrets fails if a public page holds anything confidential.
func noSecrets(tb testing.TB, what, body string) {
	tb.Helper()
	for _, s := range []string{"SECRET", secretRespondent, secretArticle, "Used the city", "<script>"} {
		if strings.Contains(body, s) {
			tb.Errorf("%s shows %q, which is not public", what, s)
		}
	}
}

func TestBoardPages(t *testing.T) {
	f := newFixture(t)
	h := f.board.Handler()

	code, hdr, index := get(t, h, "/")
	if code != 200 || !strings.HasPrefix(hdr.Get("Content-Type"), "text/html") {
		t.Fatalf("GET / = %d %s", code, hdr.Get("Content-Type"))
	}
	if csp := hdr.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
		t.Errorf("no script may run on the board; CSP %q", csp)
	}
	noSecrets(t, "the front page", index)
	upcoming, _, _ := strings.Cut(index, `id="changed"`)
	for _, want := range []string{
		"Upcoming meetings", "Sufficiency meeting, case", "2026-002", "Tuesday 15 December 2026", "17:00 CST",
		"Council Chambers, City Hall",
		"Review of the sufficiency of complaint 2026-002", // the agenda
		"Posted on this board <time datetime=\"2026-12-08T11:00:00-06:00\">",
	} {
		if !strings.Contains(upcoming, want) {
			t.Errorf("the upcoming meetings lack %q", want)
		}
	}
	for _, want := range []string{
		`id="changed"`, "Cancelled", "2026-003", "This meeting is cancelled.", // the cancelled meeting, marked
		"&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; Room 1 &amp; &#34;Annex&#34;", // its hostile place, as text
		"Past meetings", "2026-001", "City Hall, Room 201",
		"Decisions made public", "Dismissal (C)(2), case", "insufficient", "of John Doe against Jane Roe",
		`href="archive/2026.html"`, `href="feed.atom"`, `href="meetings.ics"`,
		`<main id="content">`, `<nav aria-label="Board">`, `lang="en"`, `name="viewport"`,
	} {
		if !strings.Contains(index, want) {
			t.Errorf("the front page lacks %q", want)
		}
	}

	t.Run("CasePage", func(t *testing.T) {
		code, _, body := get(t, h, "/cases/2026-001.html")
		if code != 200 || !strings.Contains(body, "Dismissal (C)(2)") || !strings.Contains(body, `id="dismissal"`) {
			t.Errorf("GET the dismissed case's page = %d:\n%s", code, body)
		}
		noSecrets(t, "the case page", body)
	})
	t.Run("NothingOfConfidentialCases", func(t *testing.T) {
		// A case with only a meeting notice has a page with that notice, and nothing more.
		_, _, body := get(t, h, "/cases/2026-002.html")
		noSecrets(t, "2026-002's page", body)
		// A case that does not exist and one that does are told apart by nothing.
		c1, _, b1 := get(t, h, "/cases/2026-999.html")
		c2, _, b2 := get(t, h, "/cases/../../etc/passwd")
		if c1 != 404 || c2 != 404 && c2/100 != 3 || strings.Contains(b1+b2, "2026-999") {
			t.Errorf("unknown pages: %d %d", c1, c2)
		}
	})
	t.Run("YearPage", func(t *testing.T) {
		code, _, body := get(t, h, "/archive/2026.html")
		if code != 200 || !strings.Contains(body, "Notices and decisions of 2026") ||
			!strings.Contains(body, "Dismissal (C)(2)") {
			t.Errorf("GET /archive/2026.html = %d", code)
		}
		noSecrets(t, "the year page", body)
		// 2026 has not ended: its figures would move as confidential complaints come in.
		if strings.Contains(body, `id="figures"`) {
			t.Error("the year page of the current year gives its figures")
		}
		if code, _, _ := get(t, h, "/archive/2026.png"); code != 404 {
			t.Errorf("GET the current year's chart = %d, want 404", code)
		}
		// Once it has ended, they are there, with their chart.
		later := &web.Board{Records: f.db, Commission: f.board.Commission, URL: f.board.URL, Loc: f.board.Loc,
			Figures: f.board.Figures,
			Now:     func() time.Time { return at(t, "2027-01-15T09:00:00-06:00") }}
		_, _, body = get(t, later.Handler(), "/archive/2026.html")
		noSecrets(t, "the ended year's page", body)
		for _, want := range []string{`id="figures"`, "Complaints received</dt><dd>3</dd>", "Dismissed as insufficient",
			`<img src="2026.png"`} {
			if !strings.Contains(body, want) {
				t.Errorf("the ended year's page lacks %q", want)
			}
		}
		for _, leak := range []string{"xpedited", "rivolous"} {
			if strings.Contains(body, leak) {
				t.Errorf("the public figures count %q complaints, which could point to one", leak)
			}
		}
		if code, hdr, png := get(t, later.Handler(), "/archive/2026.png"); code != 200 ||
			hdr.Get("Content-Type") != "image/png" || !strings.HasPrefix(png, "\x89PNG") {
			t.Errorf("GET /archive/2026.png = %d %s", code, hdr.Get("Content-Type"))
		}
		if code, _, _ := get(t, later.Handler(), "/archive/2025.png"); code != 404 {
			t.Errorf("a year with no public record has no chart: %d", code)
		}
		if code, _, _ := get(t, h, "/archive/1999.html"); code != 404 {
			t.Errorf("a year with nothing public = %d, want 404", code)
		}
	})
}

func TestAtomFeed(t *testing.T) {
	f := newFixture(t)
	code, hdr, body := get(t, f.board.Handler(), "/feed.atom")
	if code != 200 || !strings.HasPrefix(hdr.Get("Content-Type"), "application/atom+xml") {
		t.Fatalf("GET /feed.atom = %d %s", code, hdr.Get("Content-Type"))
	}
	noSecrets(t, "the Atom feed", body)
	var feed struct {
		Title   string `xml:"title"`
		Entries []struct {
			Title   string `xml:"title"`
			ID      string `xml:"id"`
			Updated string `xml:"updated"`
			Summary string `xml:"summary"`
		} `xml:"entry"`
	}
	if err := xml.Unmarshal([]byte(body), &feed); err != nil {
		t.Fatalf("the feed is not XML: %v", err)
	}
	// 2026-001's notice and dismissal, 2026-002's notice, and 2026-003's notice marked
	// cancelled: a notice withdrawn is one entry, marked, not two.
	if len(feed.Entries) != 4 {
		t.Fatalf("entries %d, want 4: %+v", len(feed.Entries), feed.Entries)
	}
	// Newest first, each dated when it was first posted on the board.
	if e := feed.Entries[0]; !strings.Contains(e.Title, "2026-003") || !strings.Contains(e.Title, "cancelled") ||
		!strings.HasPrefix(e.Updated, "2026-12-09T09:00:00") {
		t.Errorf("first entry %+v, want 2026-003's cancellation", e)
	}
	for _, e := range feed.Entries {
		if !strings.HasPrefix(e.ID, "https://ethics.example.gov/cases/") {
			t.Errorf("entry id %q is not an absolute link to the board", e.ID)
		}
		if strings.Contains(e.Summary, "<script>") || e.Summary == "" {
			t.Errorf("a summary is empty or carries markup: %q", e.Summary)
		}
	}
}

// TestMeetingsICS: the board's iCalendar feed of public meetings parses, carries the
// upcoming and recent meetings with their place and zone, keeps the cancelled one marked
// cancelled, and leaves out anything confidential.
func TestMeetingsICS(t *testing.T) {
	f := newFixture(t)
	code, hdr, body := get(t, f.board.Handler(), "/meetings.ics")
	if code != 200 || !strings.HasPrefix(hdr.Get("Content-Type"), "text/calendar") {
		t.Fatalf("GET /meetings.ics = %d %s", code, hdr.Get("Content-Type"))
	}
	noSecretsInCalendar(t, "the meetings feed", body)
	cal, err := ics.ParseCalendar(strings.NewReader(body))
	if err != nil {
		t.Fatalf("the feed does not parse: %v", err)
	}
	var got []string
	for _, e := range cal.Events() {
		got = append(got,
			e.GetProperty(ics.ComponentPropertySummary).Value+" @ "+e.GetProperty(ics.ComponentPropertyLocation).Value)
		if p := e.GetProperty(ics.ComponentPropertyDtStart); p == nil ||
			!strings.Contains(p.ICalParameters["TZID"][0], "Chicago") {
			t.Errorf("DTSTART without the commission's zone: %+v", p)
		}
	}
	want := []string{
		"Ethics Commission of Testville: sufficiency meeting, case 2026-001 @ City Hall, Room 201",
		"Ethics Commission of Testville: sufficiency meeting, case 2026-002 @ Council Chambers, City Hall",
		"Cancelled: Ethics Commission of Testville: sufficiency meeting, case 2026-003 @ " + hostilePlace,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if evs := cal.Events(); len(evs) == 3 {
		if st := evs[2].GetProperty(ics.ComponentPropertyStatus); st == nil || st.Value != "CANCELLED" {
			t.Errorf("the cancelled meeting's STATUS: %+v", st)
		}
		if st := evs[0].GetProperty(ics.ComponentPropertyStatus); st != nil {
			t.Errorf("a meeting that stands has STATUS %q", st.Value)
		}
	}
}

// TestBoardCacheFollowsTheRecord: a page is sent compressed when the client takes gzip,
// answers 304 to its own ETag, and is made again as soon as the record changes.
func TestBoardCacheFollowsTheRecord(t *testing.T) {
	f := newFixture(t)
	h := f.board.Handler()
	req := httptest.NewRequest("GET", "/", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("not compressed: %v", rec.Header())
	}
	for header, want := range map[string]bool{"gzip": true, "br, gzip;q=0.8": true, "gzip;q=0": false, "identity": false,
		"": false} {
		req := httptest.NewRequest("GET", "/", nil)
		req.Header.Set("Accept-Encoding", header)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if got := rec.Header().Get("Content-Encoding") == "gzip"; got != want {
			t.Errorf("Accept-Encoding %q: compressed %v, want %v", header, got, want)
		}
	}
	zr, err := gzip.NewReader(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	unzipped, _ := io.ReadAll(zr)
	_, _, plain := get(t, h, "/")
	if string(unzipped) != plain {
		t.Error("the compressed page differs from the plain one")
	}
	etag := rec.Header().Get("ETag")
	req = httptest.NewRequest("GET", "/", nil)
	req.Header.Set("If-None-Match", etag)
	req.Header.Set("Accept-Encoding", "gzip")
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotModified {
		t.Errorf("If-None-Match with the page's ETag = %d, want 304", rec.Code)
	}
	// A new meeting is on the board at the next request.
	if _, err := f.db.Apply(ctx, docket.Act{By: "U_CLERK", At: at(t, "2026-12-10T08:00:00-06:00")}, "2026-002",
		docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: at(t, "2026-12-17T17:00:00-06:00"),
			Place: "Library Annex"}); err != nil {
		t.Fatal(err)
	}
	if _, _, again := get(t, h, "/"); !strings.Contains(again, "Library Annex") {
		t.Error("the board still shows the page made before the meeting moved")
	}
	req = httptest.NewRequest("GET", "/", nil)
	req.Header.Set("If-None-Match", etag)
	req.Header.Set("Accept-Encoding", "gzip")
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Errorf("the old ETag after a change = %d, want 200", rec.Code)
	}
}
