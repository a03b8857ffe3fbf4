package web_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
	"ethicsbot/letters"
	"ethicsbot/store"
	"ethicsbot/web"
)

// TestBoardShowsApprovedOpenMinutes: a meeting's minutes reach the board only once the
// commission approved them and the clerk published them (5 ILCS 120/2.06(b)), as a page of
// their own laid out as minutes, which stays, with their PDF; a draft never does, nor the
// closed minutes.
func TestBoardShowsApprovedOpenMinutes(t *testing.T) {
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
	now := at(t, "2027-01-12T18:00:00-06:00")
	board := &web.Board{Records: db, Commission: "Ethics Commission", URL: "https://ethics.example.gov/",
		Loc: cal.Location(), Now: func() time.Time { return now }}
	publishMinutes(t, db, cal.Location(), func() {
		if _, _, index := get(t, board.Handler(), "/"); strings.Contains(index, "Ann Alder was elected chair") ||
			strings.Contains(index, "<h4>Minutes</h4>") {
			t.Errorf("draft minutes on the board:\n%s", index)
		}
	})
	_, _, index := get(t, board.Handler(), "/")
	for _, want := range []string{"<h4>Minutes</h4>", "Approved by the commission on",
		`<a href="meetings/2026-12-15-minutes.html">the approved minutes</a>`} {
		if !strings.Contains(index, want) {
			t.Errorf("the board lacks %q:\n%s", want, index)
		}
	}
	// The minutes are a page of their own, which stays: headings per item, paragraphs, the
	// roll as a table, and none of the Markdown's marks.
	code, _, page := get(t, board.Handler(), "/meetings/2026-12-15-minutes.html")
	if code != 200 {
		t.Fatalf("GET the minutes' page = %d", code)
	}
	for _, want := range []string{"<h1>Minutes of the meeting of 2026-12-15</h1>", "<h2>Minutes</h2>",
		"<h3>Call to order</h3>", "<h3>1. Election of a chair</h3>", "<p>Ann Alder was elected chair.</p>",
		`<thead><tr><th scope="col">Member</th><th scope="col">Attendance</th></tr></thead>`,
		`<tr><th scope="row">Ann Alder, Chair</th><td>Present</td></tr>`,
		`<tr><th scope="row">Ben &lt;b&gt;Birch&lt;/b&gt;</th><td>Present</td></tr>`,
		`<p class="letterhead">City Hall<br>1 Main St</p>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the minutes' page lacks %q:\n%s", want, page)
		}
	}
	for _, mark := range []string{`\-`, "**", "---", "## ", "<b>", ".pdf"} {
		if strings.Contains(page, mark) {
			t.Errorf("the minutes' page shows %q:\n%s", mark, page)
		}
	}
	// Later, off the front page, the page is still there; with papers, it offers the PDF.
	later := &web.Board{Records: db, Commission: "Ethics Commission", URL: "https://ethics.example.gov/",
		Loc: cal.Location(), Now: func() time.Time { return now.AddDate(1, 0, 0) }, Papers: fakePapers{}}
	if _, _, page := get(t, later.Handler(), "/meetings/2026-12-15-minutes.html"); !strings.Contains(page,
		`<a href="2026-12-15-minutes.pdf">`) || !strings.Contains(page, "Ann Alder was elected chair.") {
		t.Errorf("a year on, the minutes' page:\n%s", page)
	}
	if code, hdr, pdf := get(t, later.Handler(), "/meetings/2026-12-15-minutes.pdf"); code != 200 ||
		hdr.Get("Content-Type") != "application/pdf" || pdf != "%PDF minutes of 2026-12-15" {
		t.Errorf("GET the minutes' PDF = %d %s %q", code, hdr.Get("Content-Type"), pdf)
	}
	if code, _, pdf := get(t, later.Handler(), "/meetings/2026-12-15-agenda.pdf"); code != 200 ||
		pdf != "%PDF agenda of 2026-12-15 posted 2026-12-04T09:00:00-06:00: Election of a chair" {
		t.Errorf("GET the agenda's PDF = %d %q", code, pdf)
	}
	// The meeting of 2027-01-12 has no minutes published: no page of them, nor PDF.
	for _, path := range []string{"/meetings/2027-01-12-minutes.html", "/meetings/2027-01-12-minutes.pdf",
		"/meetings/2099-01-01.html"} {
		if code, _, _ := get(t, later.Handler(), path); code != 404 {
			t.Errorf("GET %s = %d, want 404", path, code)
		}
	}
	// A correction of the held meeting's own record after its minutes were published is
	// shown with them, since they are not rewritten.
	if _, err := db.ChangeMeeting(ctx, docket.Act{By: "U_CLERK", At: at(t, "2027-01-13T09:00:00-06:00")},
		docket.MeetingChange{Meeting: "2026-12-15", Actions: []docket.MeetingAction{
			docket.CorrectMeeting{Place: "Council Chambers", Reason: "The meeting sat in the Chambers."}}}); err != nil {
		t.Fatal(err)
	}
	_, _, index = get(t, board.Handler(), "/")
	const fixed = `On Wednesday 13 January 2027, the place of the meeting recorded as &#34;City Hall&#34; was corrected ` +
		`to &#34;Council Chambers&#34;: The meeting sat in the Chambers.`
	if !strings.Contains(index, fixed) {
		t.Errorf("the board lacks the correction %q:\n%s", fixed, index)
	}
}

// fakePapers draws a meeting's papers as a line that names what they were drawn from.
type fakePapers struct{}

func (fakePapers) AgendaPDF(a docket.Agenda) ([]byte, error) {
	var items []string
	for _, it := range a.Items {
		items = append(items, it.Title())
	}
	return []byte("%PDF agenda of " + string(a.Meeting) + " posted " + a.Posted.Format(time.RFC3339) + ": " +
		strings.Join(items, "; ")), nil
}

func (fakePapers) MinutesPDF(_ context.Context, m docket.CommissionMeeting, _ []docket.CommissionMeeting) ([]byte,
	error) {
	return []byte("%PDF minutes of " + m.Name), nil
}

// publishMinutes records the meeting of 2026-12-15 (City Hall, its agenda posted, held, a
// note on it), calls drafted while its minutes are a draft, then approves them at the
// meeting of 2027-01-12 and publishes them as letters writes them (`/ethics minutes ...
// publish`), naming U_COMM1 "Ann Alder, Chair" and U_COMM2 "Ben <b>Birch</b>".
func publishMinutes(t *testing.T, db *store.Store, loc *time.Location, drafted func()) {
	t.Helper()
	change := func(when string, ch docket.MeetingChange) {
		t.Helper()
		if _, err := db.ChangeMeeting(ctx, docket.Act{By: "U_CLERK", At: at(t, when)}, ch); err != nil {
			t.Fatal(err)
		}
	}
	seated := []string{"U_COMM1", "U_COMM2"}
	vote := &docket.Vote{Seated: seated, Yes: seated, Quorum: 2, Carry: docket.MajorityOfVotesCast}
	change("2026-12-04T09:00:00-06:00",
		docket.MeetingChange{Create: &docket.CreateMeeting{Name: "2026-12-15", Start: at(t, "2026-12-15T17:00:00-06:00"),
			Place: "City Hall"},
			Actions: []docket.MeetingAction{docket.AddItem{Item: docket.BusinessItem, Text: "Election of a chair"},
				docket.PostAgenda{}}})
	change("2026-12-04T09:00:00-06:00",
		docket.MeetingChange{Create: &docket.CreateMeeting{Name: "2027-01-12", Start: at(t, "2027-01-12T17:00:00-06:00"),
			Place: "City Hall"},
			Actions: []docket.MeetingAction{docket.AddItem{Item: docket.MinutesItem, Text: "2026-12-15"}, docket.PostAgenda{}}})
	change("2026-12-15T18:00:00-06:00", docket.MeetingChange{Meeting: "2026-12-15", Actions: []docket.MeetingAction{
		docket.Convene{Seated: seated, Quorum: 2, Present: seated, At: at(t, "2026-12-15T17:05:00-06:00")},
		docket.Adjourn{At: at(t, "2026-12-15T17:30:00-06:00")},
		docket.MinutesNote{Text: "Ann Alder was elected chair."},
	}})
	drafted()
	change("2027-01-12T17:10:00-06:00", docket.MeetingChange{Meeting: "2027-01-12", Actions: []docket.MeetingAction{
		docket.Convene{Seated: seated, Quorum: 2, Present: seated, At: at(t, "2027-01-12T17:05:00-06:00")}}})
	change("2027-01-12T17:20:00-06:00", docket.MeetingChange{Meeting: "2026-12-15", Actions: []docket.MeetingAction{
		docket.ApproveMinutes{At: "2027-01-12", On: docket.NewDate(2027, 1, 12), Vote: vote}}})
	// The clerk publishes the minutes as letters writes them (`/ethics minutes ... publish`).
	all, err := db.Meetings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m, err := docket.FindMeeting(all, "2026-12-15")
	if err != nil {
		t.Fatal(err)
	}
	cal, err := docket.NewCalendar(docket.CalendarConfig{Zone: loc.String()})
	if err != nil {
		t.Fatal(err)
	}
	r, err := m.Record(all, &docket.Engine{Cal: cal, Ord: docket.DefaultOrdinance()},
		func(n string) (docket.Case, []docket.Entry, error) { return db.CaseRecord(ctx, n) })
	if err != nil {
		t.Fatal(err)
	}
	maker, err := letters.New(letters.Config{Commission: letters.Addressee{Name: "Ethics Commission",
		Address: "City Hall\n1 Main St"}}, loc)
	if err != nil {
		t.Fatal(err)
	}
	names := docket.Names(func(id string) string {
		return map[string]string{"U_COMM1": "Ann Alder, Chair", "U_COMM2": "Ben <b>Birch</b>"}[id]
	})
	md, err := maker.MinutesMarkdown(r, docket.OpenPart, names)
	if err != nil {
		t.Fatal(err)
	}
	change("2027-01-12T17:25:00-06:00", docket.MeetingChange{Meeting: "2026-12-15",
		Actions: []docket.MeetingAction{docket.PublishMinutes{Text: string(md.Data)}}})
}
