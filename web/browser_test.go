package web_test

import (
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"ethicsbot/docket"
	"ethicsbot/store"
	"ethicsbot/web"
)

// browser finds Chromium. Without one the test is skipped, unless
// ETHICSBOT_BROWSER=require (as .ci/run sets, having installed it) makes that a failure.
func browser(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	if os.Getenv("ETHICSBOT_BROWSER") == "require" {
		t.Fatal("ETHICSBOT_BROWSER=require, but no chromium is installed")
	}
	t.Skip("skipping the browser test: chromium is not installed (apt-get install chromium; .ci/run installs it)")
	return ""
}

// newTab starts headless Chromium at exe with a window width pixels wide, and gives a tab
// of it, closed when the test ends, with a minute for what the test does there.
func newTab(t *testing.T, exe string, width int) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox,
		chromedp.Flag("disable-gpu", true), chromedp.Flag("disable-dev-shm-usage", true), chromedp.WindowSize(width, 900))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelTab := chromedp.NewContext(actx)
	bctx, cancelTime := context.WithTimeout(bctx, 60*time.Second)
	t.Cleanup(func() { cancelTime(); cancelTab(); cancelAlloc() })
	return bctx
}

// TestBoardInBrowser loads the board in headless Chromium: a scheduled meeting appears
// with its details, nothing confidential does, the link to a decision leads to it, and the
// page logs no error. With BOARD_SCREENSHOT=path it saves the page as a PNG there (the
// README's picture: BOARD_SCREENSHOT=$PWD/docs/board.png go test ./web -run InBrowser).
func TestBoardInBrowser(t *testing.T) {
	exe := browser(t)
	f := newFixture(t)
	srv := httptest.NewServer(f.board.Handler())
	defer srv.Close()

	bctx := newTab(t, exe, 1000)

	// The console's messages, from the first page on: errors and warnings fail the test.
	if err := chromedp.Do(bctx); err != nil { // starts the browser and its tab
		t.Fatalf("starting chromium: %v", err)
	}
	listening, stopListening := context.WithCancel(bctx)
	defer stopListening()
	messages := chromedp.Console(listening)
	run := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(bctx, steps...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	read := func(what string, a chromedp.Action[string]) string {
		t.Helper()
		v, err := chromedp.Run(bctx, a)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return v
	}
	run("loading the board", chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.ID("upcoming")))
	main := read("reading the board", chromedp.Text(chromedp.CSS("main")))
	html := read("reading the page", chromedp.OuterHTML(chromedp.CSS("html")))
	for _, want := range []string{"Upcoming meetings", "Sufficiency meeting, case 2026-002", "Tuesday 15 December 2026",
		"17:00 CST", "Council Chambers, City Hall",
		"Open to the public", "Review of the sufficiency of complaint 2026-002",
		`<script>alert("x")</script> Room 1 & "Annex"`} {
		if !strings.Contains(main, want) {
			t.Errorf("the board as shown lacks %q", want)
		}
	}
	noSecrets(t, "the board in the browser", strings.ReplaceAll(html, `&lt;script&gt;`, ""))
	if shot := os.Getenv("BOARD_SCREENSHOT"); shot != "" {
		png, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(shot, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := chromedp.CSS(`a[href^="cases/2026-001.html#dismissal"]`)
	run("following the link to the decision", chromedp.Click(link), chromedp.WaitVisible(chromedp.ID("dismissal")))
	location := read("reading the location", chromedp.Location())
	decision := read("reading the decision", chromedp.Text(chromedp.ID("dismissal")))
	if !strings.HasSuffix(location, "/cases/2026-001.html#dismissal") || !strings.Contains(decision, "insufficient") ||
		!strings.Contains(decision, "Jane Roe") {
		t.Errorf("the link led to %s, showing %q", location, decision)
	}
	// Everything the console said while both pages loaded.
	var problems []string
	time.AfterFunc(500*time.Millisecond, stopListening)
	for m, err := range messages {
		if err != nil {
			break
		}
		if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleWarning || m.IsException() {
			problems = append(problems, m.String())
		}
	}
	if len(problems) > 0 {
		t.Errorf("the browser reported: %v", problems)
	}
}

// TestBoardReflowsAt320: every kind of page of the board reflows at 320 CSS pixels wide,
// as WCAG 2.2's 1.4.10 asks: nothing makes the page itself scroll sideways. A wide table
// scrolls inside its own box. The pages: the front page, a case's, a year's with its
// figures and chart, a meeting's, and its minutes'.
func TestBoardReflowsAt320(t *testing.T) {
	exe := browser(t)
	srv := boardOfAnEndedYear(t)

	bctx := newTab(t, exe, 320)
	if err := chromedp.Do(bctx, chromedp.EmulateViewport(320, 900)); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	for _, path := range []string{"/", "/cases/2026-001.html", "/archive/2026.html", "/meetings/2026-12-15.html",
		"/meetings/2026-12-15-minutes.html", "/meetings/2026-12-15-closed-minutes.html"} {
		if err := chromedp.Do(bctx, chromedp.Navigate(srv.URL+path),
			chromedp.WaitVisible(chromedp.ID("content"))); err != nil {
			t.Fatalf("loading %s: %v", path, err)
		}
		// How far the page reaches past the viewport, and which element reaches furthest.
		over, err := chromedp.Run(bctx, chromedp.Evaluate[string](`(() => {
			const width = document.documentElement.clientWidth;
			let worst = "", right = width;
			for (const el of document.querySelectorAll("body *")) {
				const r = el.getBoundingClientRect().right;
				if (r > right && !el.closest(".scroll")) { right = r; worst = el.tagName + "." + el.className; }
			}
			const scroll = document.documentElement.scrollWidth;
			return scroll > width ? "scrolls to " + scroll + "px of " + width + "px; furthest: " + worst : "";
		})()`))
		if err != nil {
			t.Fatalf("measuring %s: %v", path, err)
		}
		if over != "" {
			t.Errorf("%s does not reflow at 320px: it %s", path, over)
		}
		if path == "/archive/2026.html" {
			n, err := chromedp.Run(bctx, chromedp.Evaluate[int](`document.querySelectorAll(".scroll table").length`))
			if err != nil || n < 3 {
				t.Errorf("the year's page has %d tables in a box of their own (%v), want its three", n, err)
			}
		}
	}
}

// boardOfAnEndedYear serves endedYearBoard.
func boardOfAnEndedYear(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(endedYearBoard(t).Handler())
	t.Cleanup(srv.Close)
	return srv
}

// endedYearBoard is the fixture's board with published minutes and released closed minutes
// as it stands in January 2027: 2026 has ended, so its page gives the year's figures, its
// widest tables.
func endedYearBoard(t *testing.T) *web.Board {
	t.Helper()
	f := newFixture(t)
	publishMinutes(t, f.db, f.board.Loc, func() {})
	releaseClosedMinutes(t, f.db)
	return &web.Board{Records: f.db, Commission: f.board.Commission, Address: f.board.Address, URL: f.board.URL,
		Loc: f.board.Loc, Figures: f.board.Figures, Now: func() time.Time { return at(t, "2027-01-15T09:00:00-06:00") }}
}

// releaseClosedMinutes records, at a meeting of 14 Jan 2027, the semi-annual review that
// releases the closed minutes of the meeting of 15 Dec 2026 (5 ILCS 120/2.06(d)), as the
// clerk records it (`/ethics minutes 2027-01-14 reviewed item=1 release=2026-12-15`), with
// the minutes as published standing in for the closed ones: the board then has the page
// of released closed minutes.
func releaseClosedMinutes(t *testing.T, db *store.Store) {
	t.Helper()
	all, err := db.Meetings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m, err := docket.FindMeeting(all, "2026-12-15")
	if err != nil {
		t.Fatal(err)
	}
	seated := []string{"U_COMM1", "U_COMM2"}
	for _, c := range []struct {
		when string
		ch   docket.MeetingChange
	}{
		{"2027-01-05T09:00:00-06:00", docket.MeetingChange{Create: &docket.CreateMeeting{Name: "2027-01-14",
			Start: at(t, "2027-01-14T17:00:00-06:00"), Place: "City Hall"}, Actions: []docket.MeetingAction{
			docket.AddItem{Item: docket.BusinessItem, Text: "Semi-annual review of the minutes of closed meetings"},
			docket.PostAgenda{}}}},
		{"2027-01-14T17:20:00-06:00", docket.MeetingChange{Meeting: "2027-01-14", Actions: []docket.MeetingAction{
			docket.Convene{Seated: seated, Quorum: 2, Present: seated, At: at(t, "2027-01-14T17:05:00-06:00")},
			docket.MoveBusiness{Item: 1, Text: "To release the closed minutes of 15 December",
				At:   at(t, "2027-01-14T17:10:00-06:00"),
				Vote: &docket.Vote{Seated: seated, Yes: seated, Quorum: 2, Carry: docket.MajorityOfVotesCast}},
			docket.ReviewClosedMinutes{Item: 1,
				Released: []docket.ReleasedMinutes{{Meeting: "2026-12-15", Text: m.PublishedText}}}}}},
	} {
		if _, err := db.ChangeMeeting(ctx, docket.Act{By: "U_CLERK", At: at(t, c.when)}, c.ch); err != nil {
			t.Fatal(err)
		}
	}
}
