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

// TestBoardShowsApprovedOpenMinutes: a meeting's minutes appear on its card only once the
// commission approved them and the clerk published them (5 ILCS 120/2.06(b)), as plain
// text; a draft never does, nor the closed minutes.
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
	change := func(when string, ch docket.MeetingChange) {
		t.Helper()
		if _, err := db.ChangeMeeting(ctx, "U_CLERK", "", at(t, when), nil, nil, ch); err != nil {
			t.Fatal(err)
		}
	}
	seated := []string{"U_COMM1", "U_COMM2"}
	vote := &docket.Vote{Seated: seated, Yes: seated, Quorum: 2, Carry: docket.MajorityOfVotesCast}
	change("2026-12-04T09:00:00-06:00",
		docket.MeetingChange{Create: &docket.CreateMeeting{Start: at(t, "2026-12-15T17:00:00-06:00"), Place: "City Hall"},
			Actions: []docket.MeetingAction{docket.AddItem{Item: docket.BusinessItem, Text: "Election of a chair"},
				docket.PostAgenda{}}})
	change("2026-12-04T09:00:00-06:00",
		docket.MeetingChange{Create: &docket.CreateMeeting{Start: at(t, "2027-01-12T17:00:00-06:00"), Place: "City Hall"},
			Actions: []docket.MeetingAction{docket.AddItem{Item: docket.MinutesItem, Text: "2026-12-15"}, docket.PostAgenda{}}})
	change("2026-12-15T18:00:00-06:00", docket.MeetingChange{Meeting: "2026-12-15", Actions: []docket.MeetingAction{
		docket.Convene{Seated: seated, Quorum: 2, Present: seated, At: at(t, "2026-12-15T17:05:00-06:00")},
		docket.Adjourn{At: at(t, "2026-12-15T17:30:00-06:00")},
		docket.MinutesNote{Text: "Ann Alder was elected chair."},
	}})
	now := at(t, "2027-01-12T18:00:00-06:00")
	board := &web.Board{Records: db, Commission: "Ethics Commission", URL: "https://ethics.example.gov/",
		Loc: cal.Location(), Now: func() time.Time { return now }}
	if _, _, index := get(t, board.Handler(), "/"); strings.Contains(index, "Ann Alder was elected chair") ||
		strings.Contains(index, "<h4>Minutes</h4>") {
		t.Errorf("draft minutes on the board:\n%s", index)
	}
	change("2027-01-12T17:10:00-06:00", docket.MeetingChange{Meeting: "2027-01-12", Actions: []docket.MeetingAction{
		docket.Convene{Seated: seated, Quorum: 2, Present: seated, At: at(t, "2027-01-12T17:05:00-06:00")}}})
	change("2027-01-12T17:20:00-06:00", docket.MeetingChange{Meeting: "2026-12-15", Actions: []docket.MeetingAction{
		docket.ApproveMinutes{At: "2027-01-12", On: docket.NewDate(2027, 1, 12), Vote: vote},
		docket.PublishMinutes{Text: "# Minutes of the meeting of 2026\\-12\\-15\n\n**Notes**\n\nAnn Alder was " +
			"elected chair\\."},
	}})
	_, _, index := get(t, board.Handler(), "/")
	for _, want := range []string{"<h4>Minutes</h4>", "Approved by the commission on",
		"Minutes of the meeting of 2026-12-15", "Ann Alder was elected chair."} {
		if !strings.Contains(index, want) {
			t.Errorf("the board lacks %q:\n%s", want, index)
		}
	}
	if strings.Contains(index, `\-`) || strings.Contains(index, "**") {
		t.Errorf("Markdown marks on the board:\n%s", index)
	}
	// A correction of the held meeting's own record after its minutes were published is
	// shown with them, since they are not rewritten.
	change("2027-01-13T09:00:00-06:00", docket.MeetingChange{Meeting: "2026-12-15", Actions: []docket.MeetingAction{
		docket.CorrectMeeting{Place: "Council Chambers", Reason: "The meeting sat in the Chambers."}}})
	_, _, index = get(t, board.Handler(), "/")
	const fixed = `On Wednesday 13 January 2027, the place of the meeting recorded as &#34;City Hall&#34; was corrected ` +
		`to &#34;Council Chambers&#34;: The meeting sat in the Chambers.`
	if !strings.Contains(index, fixed) {
		t.Errorf("the board lacks the correction %q:\n%s", fixed, index)
	}
}
