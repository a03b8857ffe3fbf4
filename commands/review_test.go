package commands_test

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"ethicsbot/commands"
	"ethicsbot/docket"
	"ethicsbot/web"
)

// TestSemiAnnualReviewReleasesToTheBoard: the semi-annual review of the closed minutes is
// an item of a posted agenda, decided by the vote recorded on it (5 ILCS 120/2.06(d),
// 2.02(c)); its determination names the minutes released and those kept, the meeting's
// minutes report it, and the released closed minutes are a page of the public board,
// marked released, never the ones kept.
func TestSemiAnnualReviewReleasesToTheBoard(t *testing.T) {
	s, clk, db := MustService(t)
	withLetters(t, s)
	for _, m := range []string{"2026-12-15", "2026-12-17"} {
		mustDo(t, s, clerk, `meeting `+m+`T17:00 place="City Hall, Room 201"`, "meeting created")
		mustDo(t, s, clerk, `agenda `+m+` add "Litigation" closed="5 ILCS 120/2(c)(11)"`, "item added")
	}
	mustDo(t, s, clerk, `meeting 2027-01-12T17:00 place="City Hall, Room 201"`, "regular meeting created")
	mustDo(t, s, clerk, `agenda 2027-01-12 add item=minutes 2026-12-15`, "item added")
	mustDo(t, s, clerk, `agenda 2027-01-12 add "Semi-annual review of the minutes of closed meetings"`, "item added")
	for _, m := range []string{"2026-12-15", "2026-12-17", "2027-01-12"} {
		mustDo(t, s, clerk, `posted `+m, "notice and agenda posted")
	}
	for _, m := range []string{"2026-12-15", "2026-12-17"} {
		d, _ := time.Parse("2006-01-02", m)
		clk.now = d.Add(23*time.Hour + 5*time.Minute) // 17:05 CST
		mustDo(t, s, clerk, `convene `+m+` present=U_COMM1,U_COMM2`, "A quorum is present")
		clk.now = clk.now.Add(5 * time.Minute)
		mustDo(t, s, clerk, `session `+m+` close 1 recorded=yes`, "closed session entered")
		mustDo(t, s, clerk, `minutes `+m+` note item=1 "SECRET of `+m+`: the settlement figure."`, "note added")
		clk.now = clk.now.Add(20 * time.Minute)
		mustDo(t, s, clerk, `session `+m+` open`, "returned to open session")
		clk.now = clk.now.Add(5 * time.Minute)
		mustDo(t, s, clerk, `adjourn `+m, "adjourned")
	}
	clk.now = time.Date(2027, 1, 12, 23, 5, 0, 0, time.UTC) // Tue 12 Jan 17:05 CST
	mustDo(t, s, clerk, `convene 2027-01-12 present=U_COMM1,U_COMM2`, "A quorum is present")
	mustDo(t, s, clerk, `minutes 2026-12-15 approve at=2027-01-12`, "adopted 2–0")
	clk.now = clk.now.Add(10 * time.Minute)

	// Refused: with no item, under an item that is not the review's, before the vote, and a
	// draft released.
	for _, c := range []struct{ cmd, want string }{
		{`minutes 2027-01-12 reviewed release=2026-12-15`, "5 ILCS 120/2.02(c)"},
		{`minutes 2027-01-12 reviewed item=1 release=2026-12-15`, "is not other business"},
		{`minutes 2027-01-12 reviewed item=2 release=2026-12-15`, "no motion is recorded on item 2"},
	} {
		if got := replyText(do(s, clerk, c.cmd)); !strings.Contains(got, c.want) || !strings.Contains(got, "5 ILCS 120/2") {
			t.Errorf("%s: %s", c.cmd, got)
		}
	}
	mustDo(t, s, clerk, `minutes 2027-01-12 motion item=2 "To find that the minutes of 15 December no longer need `+
		`confidentiality"`, "adopted 2–0")
	// A space in release= leaves a meeting as stray text: refused, not dropped into those kept.
	if got := replyText(do(s, clerk, `minutes 2027-01-12 reviewed item=2 release=2026-12-15, 2026-12-17`)); !strings.Contains(
		got, `reviewed takes no text ("2026-12-17")`) || !strings.Contains(got, "5 ILCS 120/2.06(d)") {
		t.Errorf("a review with stray text: %s", got)
	}
	if got := replyText(do(s, clerk, `minutes 2027-01-12 reviewed item=2 release=2026-12-17`)); !strings.Contains(got,
		"the minutes of meeting 2026-12-17 are not approved") || !strings.Contains(got, "5 ILCS 120/2.06(d)") {
		t.Errorf("releasing a draft: %s", got)
	}
	req := commands.Request{User: clerk, Text: `minutes 2027-01-12 reviewed item=2 release=2026-12-15`,
		RequestID: "review-2027-01-12"}
	r := s.Handle(ctx, req)
	if got := replyText(r); !strings.Contains(got, "the closed minutes of 2026-12-15 are on the public board; those of "+
		"2026-12-17 stay confidential") || !strings.Contains(got, "The next review is due by") {
		t.Errorf("the review's reply: %s", got)
	}
	// The same request received twice (Slack's retry) is answered as such, not refused.
	if got := replyText(s.Handle(ctx, req)); !strings.Contains(got, "Already recorded for meeting 2027-01-12") {
		t.Errorf("the review received twice: %s", got)
	}
	mustDo(t, s, clerk, `minutes 2027-01-12 reviewed item=2`, "already recorded at meeting 2027-01-12")

	// The reviewing meeting's open minutes report the determination.
	clk.now = clk.now.Add(10 * time.Minute)
	mustDo(t, s, clerk, `adjourn 2027-01-12`, "adjourned")
	r = mustDo(t, s, clerk, `minutes 2027-01-12`, "drafted from the record")
	var files []struct{ name, data string }
	for _, f := range r.Files {
		files = append(files, struct{ name, data string }{f.Name, string(f.Data)})
	}
	open, _ := minutesFiles(files, "2027-01-12")
	if !strings.Contains(open, "the commission determined that the minutes of the closed sessions of the meeting of "+
		"2026-12-15 no longer require confidential treatment") ||
		!strings.Contains(open, "confidentiality still exists as to the minutes of the closed sessions of the meeting of "+
			"2026-12-17") {
		t.Errorf("the open minutes do not report the determination:\n%s", open)
	}

	// The board: the released closed minutes have their page, marked released; the kept
	// ones have none.
	board := &web.Board{Records: db, Commission: "Ethics Commission", URL: "https://ethics.example.gov/",
		Loc: s.Engine.Cal.Location(), Now: func() time.Time { return clk.now }}
	get := func(path string) (int, string) {
		w := httptest.NewRecorder()
		board.Handler().ServeHTTP(w, httptest.NewRequest("GET", path, nil))
		b, _ := io.ReadAll(w.Result().Body)
		return w.Code, string(b)
	}
	code, page := get("/meetings/2026-12-15-closed-minutes.html")
	if code != 200 || !strings.Contains(page, "SECRET of 2026-12-15") || !strings.Contains(page, "RELEASED") ||
		strings.Contains(page, "CONFIDENTIAL") || !strings.Contains(page, "5 ILCS 120/2.06(d)") {
		t.Errorf("the released closed minutes' page (%d):\n%s", code, page)
	}
	if _, page := get("/meetings/2026-12-15.html"); !strings.Contains(page, "2026-12-15-closed-minutes.html") {
		t.Error("the meeting's page does not link its released closed minutes")
	}
	if code, page := get("/meetings/2026-12-17-closed-minutes.html"); code != 404 ||
		strings.Contains(page, "SECRET of 2026-12-17") {
		t.Errorf("minutes kept confidential are on the board (%d)", code)
	}
	ms, err := db.Meetings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := docket.ReleasedClosed(ms, "2026-12-17"); ok {
		t.Error("the record releases minutes kept confidential")
	}
	if rep, err := db.Verify(ctx); err != nil || rep.Broken != nil {
		t.Fatalf("verify: %v %v", rep.Broken, err)
	}
}
