package bot_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ethicsbot/bot"
	"ethicsbot/commands"
	"ethicsbot/docket"
	"ethicsbot/letters"
	"ethicsbot/outbox"
	"ethicsbot/store"
	"ethicsbot/web"
)

// meetingScript is a meeting of the commission with three cases, regular business and a
// closed item, from its creation to its adjournment, then its minutes, noted,
// approved by roll call at the next meeting and published, as a clerk types it.
const meetingScript = `:clock 2026-12-04T10:30:00-06:00
/ethics file respondent="Ann Roe" complainant="John Doe" section=103.10 received=2026-12-04T10:00 summary="Used city email to campaign."
/ethics file respondent="Bob Roe" complainant="John Doe" section=103.10 received=2026-12-04T10:05 summary="Used a city car."
/ethics file respondent="Cy Roe" complainant="John Doe" section=103.10 received=2026-12-04T10:10 summary="Used city paper."
/ethics meeting 2026-12-15T17:00 place="City Hall, Room 201"
/ethics schedule 2026-001 sufficiency meeting=2026-12-15 closed="5 ILCS 120/2(c)(4)"
/ethics schedule 2026-002 sufficiency meeting=2026-12-15
/ethics schedule 2026-003 sufficiency 2026-12-15T17:00 place="City Hall, Room 201"
/ethics agenda 2026-12-15 add item=minutes 2026-11-10
/ethics agenda 2026-12-15 add "Evaluation of the executive director" closed="5 ILCS 120/2(c)(1)"
/ethics posted 2026-12-15
/ethics mail 2026-001 respondent 9407 1118 9876 5432 1016 34
/ethics mail 2026-001 complainant 9407 1118 9876 5432 1015 35
:clock 2026-12-15T17:02:00-06:00
/ethics convene 2026-12-15 present=U_COMM1,U_COMM2 absent=U_COMM3
:clock 2026-12-15T17:05:00-06:00
/ethics session 2026-12-15 close 1
:as U_COMM1
/ethics rule 2026-001 insufficient
:as U_CLERK
:clock 2026-12-15T17:25:00-06:00
/ethics session 2026-12-15 open
:clock 2026-12-15T17:30:00-06:00
:as U_COMM1
/ethics rule 2026-001 insufficient
:as U_CLERK
/ethics session 2026-12-15 close 5
:clock 2026-12-15T17:40:00-06:00
/ethics session 2026-12-15 open
/ethics adjourn 2026-12-15
/ethics meetings
/ethics minutes 2026-12-15 note item=5 "The commission discussed the director's evaluation; no action was taken."
/ethics minutes 2026-12-15 note "Public comment: none."
/ethics minutes 2026-12-15 moved item=1 mover=U_COMM1 seconder=U_COMM2
/ethics minutes 2026-12-15
/ethics meeting 2027-01-12T17:00 place="City Hall, Room 201"
/ethics agenda 2027-01-12 add item=minutes 2026-12-15
/ethics posted 2027-01-12
/ethics letters 2026-12-15
:clock 2027-01-12T17:05:00-06:00
/ethics convene 2027-01-12 present=U_COMM1,U_COMM2,U_COMM3
/ethics minutes 2026-12-15 approve at=2027-01-12 no=U_COMM3
/ethics minutes 2026-12-15 publish
:clock 2027-01-12T17:20:00-06:00
/ethics adjourn 2027-01-12
/ethics minutes 2026-12-15
/ethics minutes 2027-01-12
`

// meetingRoster names the commissioners of the meeting tests, as a configuration does.
var meetingRoster = docket.NewRoster([]docket.Member{{ID: "U_COMM1", Name: "Ann Alder", Title: "Chair"},
	{ID: "U_COMM2", Name: "Bob Birch"}, {ID: "U_COMM3", Name: "Cy Cedar"}})

// meetingLetters gives svc the letters the minutes and the agenda are drawn with.
func meetingLetters(t *testing.T, svc *commands.Service) {
	t.Helper()
	m, err := letters.New(letters.Config{Commission: letters.Addressee{Name: "Ethics Commission",
		Address: "City Hall\n100 Main Street"}}, svc.Engine.Cal.Location())
	if err != nil {
		t.Fatal(err)
	}
	svc.Letters = m
}

// checkMeetingRecord checks what the meeting of three cases left in db, however it was
// typed: one card on the board for it, with its approved open minutes and never the closed
// ones; one event in the public calendar feed; its minutes approved at the next meeting.
func checkMeetingRecord(t *testing.T, db *store.Store, loc *time.Location, now time.Time) {
	t.Helper()
	ctx := context.Background()
	ms, err := db.Meetings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m, err := docket.FindMeeting(ms, "2026-12-15")
	if err != nil || len(m.Agenda()) != 5 || len(m.Postings) != 1 || m.Minutes.Approved != docket.NewDate(2027, 1, 12) ||
		m.Minutes.ApprovedAt != "2027-01-12" || m.Published.IsZero() {
		t.Fatalf("the meeting: %+v, %v", m, err)
	}
	board := &web.Board{Records: db, Commission: "Ethics Commission", URL: "https://ethics.example.gov/", Loc: loc,
		Now: func() time.Time { return now }}
	rec := httptest.NewRecorder()
	board.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	index := rec.Body.String()
	if n := strings.Count(index, `id="meeting-2026-12-15"`); n != 1 {
		t.Errorf("the board has %d cards for the meeting, want one", n)
	}
	for _, want := range []string{"<h4>Minutes</h4>", "Approved by the commission on",
		`<a href="meetings/2026-12-15-minutes.html">the approved minutes</a>`} {
		if !strings.Contains(index, want) {
			t.Errorf("the board lacks %q", want)
		}
	}
	// The approved open minutes are a page of their own, each vote by name.
	rec = httptest.NewRecorder()
	board.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/meetings/2026-12-15-minutes.html", nil))
	minutes := rec.Body.String()
	for _, want := range []string{`<th scope="row">Ann Alder, Chair</th>`, "Public comment: none.",
		"Taken up again in open session after closed session 1"} {
		if !strings.Contains(minutes, want) {
			t.Errorf("the minutes' page lacks %q:\n%s", want, minutes)
		}
	}
	for _, page := range []string{index, minutes} {
		if strings.Contains(page, "director&#39;s evaluation; no action") || strings.Contains(page, "CONFIDENTIAL") {
			t.Error("the board shows the closed minutes")
		}
	}
	rec = httptest.NewRecorder()
	board.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/meetings.ics", nil))
	if n := strings.Count(rec.Body.String(), "DTSTART;TZID=America/Chicago:20261215T170000"); n != 1 {
		t.Errorf("the public calendar has %d events for the meeting, want one:\n%s", n, rec.Body.String())
	}
	if r, err := db.Verify(ctx); err != nil || r.Broken != nil {
		t.Errorf("verify: %v %v", r.Broken, err)
	}
}

// TestConsoleMeetingOfThreeCases: in the console, a meeting with three cases, regular
// business and a closed item has one public notice, posted once; the ruling in closed
// session is refused citing 2(e), and taken after the return with the roll defaulting to
// the members present. Its minutes, noted by the clerk, are approved by roll call at the
// next meeting and lose the DRAFT mark, every vote by name; the approved open minutes are
// on the meeting's one board card, the closed ones stay confidential.
func TestConsoleMeetingOfThreeCases(t *testing.T) {
	e := newQuietEnv(t, nil)
	svc := e.app.Service
	reconfigure(svc, func(st *commands.Settings) {
		st.Roles.Clerks, st.Roles.Commissioners = []string{"U_CLERK"}, []string{"U_COMM1", "U_COMM2", "U_COMM3"}
		st.Roles.People = meetingRoster
		st.Channels = commands.Channels{Docket: "#ethics-docket", Notices: "#ethics-notices"}
	})
	meetingLetters(t, svc)
	clock := bot.NewClock(time.Date(2026, 12, 2, 15, 0, 0, 0, time.UTC))
	svc.Now = clock.Now
	files := t.TempDir()
	c := &bot.Console{Service: svc, Clock: clock, User: "U_CLERK", Deliver: bot.Printing(&outbox.Deliverer{Store: e.db}),
		Files: files}
	var out bytes.Buffer
	if err := c.Run(context.Background(), strings.NewReader(meetingScript), &out); err != nil {
		t.Fatal(err)
	}
	var notices []string
	for _, l := range strings.Split(out.String(), "\n") {
		// The meeting notices; the dismissal's public notice (C)(2) follows the ruling.
		if strings.HasPrefix(l, "[#ethics-notices] ") && !strings.Contains(l, "has dismissed case 2026-001") {
			notices = append(notices, l)
		}
		if strings.HasPrefix(l, "[ephemeral] Not done") && !strings.Contains(l, "5 ILCS 120/2(e)") {
			t.Errorf("refused: %s", l)
		}
	}
	// The meeting's one notice, and the next meeting's.
	if len(notices) != 2 ||
		!strings.Contains(notices[0],
			"PUBLIC NOTICE. Ethics Commission, regular meeting on Tue 15 Dec 2026 at 17:00 CST at City Hall, Room 201. "+
				"Agenda: Call to order and roll call. 1. Review of the sufficiency of complaint 2026-001") ||
		!strings.Contains(notices[0], "5. Evaluation of the executive director (closed session, 5 ILCS 120/2(c)(1))") ||
		!strings.Contains(notices[1], "regular meeting on Tue 12 Jan 2027") {
		t.Errorf("public notices, want the meeting's one and the next one's:\n%s", strings.Join(notices, "\n"))
	}
	for _, want := range []string{
		"[ephemeral] Meeting *2026-12-15*: notice and agenda posted Fri 4 Dec 2026 10:30 CST, for all 5 items.",
		"Present: @Ann Alder, @Bob Birch. Absent: @Cy Cedar. A quorum is present.",
		"closed session entered for item 5 by roll call, adopted 2–0, 1 absent",
		"may not be taken in closed session",
		"5 ILCS 120/2(e)",
		"returned to open session",
		"By roll call: adopted 2–0, 1 absent.",
		"closed session entered for item 1 by roll call, adopted 2–0, 1 absent",
		"adjourned at Tue 15 Dec 2026 17:40 CST",
		"the clerk's note added to its draft minutes, on item 5",
		"To be approved by Thu 2027-01-14",
		"Meeting 2026-12-15: its agenda, 5 ILCS 120/2.02: meeting-2026-12-15-agenda.pdf",
		"roll call on approving its minutes at meeting 2027-01-12, item 1: adopted 2–1",
		"its approved open minutes are on the public board",
		"its minutes as approved on Tue 2027-01-12, at the meeting of 2027-01-12",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the console lacks %q:\n%s", want, out.String())
		}
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(files, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	// The approved minutes, every vote by name.
	open, closed := read("meeting-2026-12-15-minutes-open.md"), read("meeting-2026-12-15-minutes-closed.md")
	for _, want := range []string{"Ann Alder, Chair", "Bob Birch", "Cy Cedar",
		"that the complaint does not sufficiently allege a violation, and that the complaint be dismissed (C)(2)",
		"Motion by Ann Alder, Chair, seconded by Bob Birch", "5 ILCS 120/2(c)(1)", "Public comment: none.",
		"Approved by the commission on"} {
		if !strings.Contains(open, want) {
			t.Errorf("the approved open minutes lack %q:\n%s", want, open)
		}
	}
	// Item 1, deliberated in closed session, was ruled on after the return (2(e)): the
	// ruling is in the open minutes, after the return, not in the closed ones.
	if ret, ruled := strings.Index(open, "returned to open session at 17:25"),
		strings.Index(open, "Taken up again in open session after closed session 1"); ret < 0 || ruled < ret ||
		strings.Contains(closed, "sufficiently allege") {
		t.Errorf("the ruling on the closed item 1 after the return:\n%s\n---\n%s", open, closed)
	}
	if strings.Contains(open, "DRAFT") || strings.Contains(open, "no action was taken") ||
		!strings.Contains(closed, "CONFIDENTIAL") || !strings.Contains(closed, "no action was taken") {
		t.Errorf("the approved minutes:\n%s\n---\n%s", open, closed)
	}
	if next := read("meeting-2027-01-12-minutes-open.md"); !strings.Contains(next,
		"To approve the minutes of the meeting of Tuesday 15 December 2026") || !strings.Contains(next, "No: Cy Cedar") {
		t.Errorf("the next meeting's minutes lack the approval by name:\n%s", next)
	}
	checkMeetingRecord(t, e.db, svc.Engine.Cal.Location(), clock.Now())
}

// TestHTTPMeetingOfThreeCases: over HTTP, the same meeting from its creation to its
// approved minutes: its joins and posting reach the public channel as one message, and its
// minutes, approved at the next meeting, are on the board.
func TestHTTPMeetingOfThreeCases(t *testing.T) {
	e := newEnv(t)
	svc := e.app.Service
	reconfigure(svc, func(st *commands.Settings) {
		st.Roles.Commissioners = []string{"U_COMM1", "U_COMM2", "U_COMM3"}
		st.Roles.People = meetingRoster
	})
	meetingLetters(t, svc)
	clock := bot.NewClock(e.now)
	svc.Now = clock.Now
	h := (&bot.HTTP{App: e.app, Secret: secret, Now: time.Now, DB: e.db}).Handler()
	i, user := 0, ""
	for _, l := range strings.Split(meetingScript, "\n") {
		// The clerk is the fixture's user; a commissioner takes the votes as in the console.
		if who, ok := strings.CutPrefix(l, ":as "); ok {
			user = map[string]string{"U_CLERK": ""}[who]
			if who != "U_CLERK" {
				user = who
			}
			continue
		}
		if at, ok := strings.CutPrefix(l, ":clock "); ok {
			tm, err := time.Parse(time.RFC3339, at)
			if err != nil {
				t.Fatal(err)
			}
			clock.Set(tm)
			continue
		}
		text, ok := strings.CutPrefix(l, "/ethics ")
		if !ok {
			continue
		}
		i++
		body := slashBody(t, e.slack, text, fmt.Sprintf("trig-%d", i))
		if user != "" {
			form, err := url.ParseQuery(string(body))
			if err != nil {
				t.Fatal(err)
			}
			form.Set("user_id", user)
			body = []byte(form.Encode())
		}
		w := post(t, h, "/slack/commands", body, time.Now(), "")
		if w.Code != http.StatusOK {
			t.Fatalf("%s: %d", text, w.Code)
		}
		// The ruling in closed session is refused by design (2(e)); nothing else is.
		if w.Body.Len() == 0 {
			e.app.Wait() // a reply with files is answered later, by the response URL
			continue
		}
		if reply := replyOf(t, w.Body.Bytes()); (strings.Contains(reply, "Not done") || strings.HasPrefix(reply, "Only ")) &&
			!strings.Contains(reply, "5 ILCS 120/2(e)") {
			t.Fatalf("%s: %s", text, reply)
		}
		e.app.Wait()
	}
	e.settle(t)
	var notices []string
	for _, c := range e.slack.wait(t, 1) {
		if c.Method == "chat.postMessage" && c.Fields["channel"] == "C_NOTICES" &&
			strings.Contains(fmt.Sprint(c.Fields["text"]), "regular meeting") {
			notices = append(notices, fmt.Sprint(c.Fields["text"]))
		}
	}
	if len(notices) != 2 || !strings.Contains(notices[0], "regular meeting on Tue 15 Dec 2026") ||
		!strings.Contains(notices[0], "2026-003") {
		t.Errorf("the public channel got %d notices, want the meeting's one and the next one's: %q", len(notices), notices)
	}
	checkMeetingRecord(t, e.db, svc.Engine.Cal.Location(), clock.Now())
}
