package commands_test

import (
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
	"ethicsbot/letters"
)

// minutesFiles returns the Markdown minutes a response carries, by part.
func minutesFiles(files []struct{ name, data string }, meeting string) (open, closed string) {
	for _, f := range files {
		switch f.name {
		case "meeting-" + meeting + "-minutes-open.md":
			open = f.data
		case "meeting-" + meeting + "-minutes-closed.md":
			closed = f.data
		}
	}
	return open, closed
}

// TestMinutesFromNoteToApprovalAndBoard: the clerk adds narrative to the draft minutes; the
// commission approves them by roll call at a later meeting, as an item of its agenda
// (5 ILCS 120/2.06(b)); approved, they lose the DRAFT mark, refuse more notes, and are made
// public, the open minutes only; the verbatim recording of the closed session may not be
// destroyed before 2.06(c) allows it.
func TestMinutesFromNoteToApprovalAndBoard(t *testing.T) {
	s, clk, db := MustService(t)
	lm, err := letters.New(letters.Config{Commission: letters.Addressee{Name: "Ethics Commission",
		Address: "City Hall\n100 Main Street"}}, s.Engine.Cal.Location())
	if err != nil {
		t.Fatal(err)
	}
	s.Letters = lm
	mustDo(t, s, clerk, `meeting 2026-12-15T17:00 place="City Hall, Room 201"`, "regular meeting created")
	mustDo(t, s, clerk, `meeting 2027-01-12T17:00 place="City Hall, Room 201"`, "regular meeting created")
	mustDo(t, s, clerk, `agenda 2026-12-15 add "Evaluation of the executive director" closed="5 ILCS 120/2(c)(1)"`,
		"item added")
	mustDo(t, s, clerk, `agenda 2027-01-12 add item=minutes 2026-12-15`,
		"1. Approval of the minutes of the meeting of Tuesday 15 December 2026")
	// Notes before the meeting are refused: nothing happened yet.
	if got := replyText(do(s, clerk, `minutes 2026-12-15 note "Early"`)); !strings.Contains(got,
		"has not been called to order") {
		t.Errorf("a note before the meeting: %s", got)
	}
	mustDo(t, s, clerk, `posted 2026-12-15`, "notice and agenda posted")
	mustDo(t, s, clerk, `posted 2027-01-12`, "notice and agenda posted")
	clk.now = time.Date(2026, 12, 15, 23, 5, 0, 0, time.UTC) // Tue 15 Dec 17:05 CST
	mustDo(t, s, clerk, `convene 2026-12-15 present=U_COMM1,U_COMM2`, "A quorum is present")
	clk.now = clk.now.Add(5 * time.Minute)
	mustDo(t, s, clerk, `session 2026-12-15 close 1 recorded=yes`, "closed session entered for item 1")
	clk.now = clk.now.Add(20 * time.Minute)
	mustDo(t, s, clerk, `session 2026-12-15 open`, "returned to open session")
	// The approval is refused before the meeting adjourns, and at a meeting not in progress.
	if got := replyText(do(s, clerk, `minutes 2026-12-15 approve at=2027-01-12`)); !strings.Contains(got,
		"is not in progress") {
		t.Errorf("approval at a meeting not in progress: %s", got)
	}
	clk.now = clk.now.Add(5 * time.Minute)
	r := mustDo(t, s, clerk, `adjourn 2026-12-15`, "adjourned")
	mustDo(t, s, clerk, `minutes 2026-12-15 note item=1 "The commission discussed the director's evaluation."`,
		"the clerk's note added to its draft minutes, on item 1")
	mustDo(t, s, clerk, `minutes 2026-12-15 note "Public comment: none."`, "on the meeting as a whole")
	// item=0 is the meeting as a whole too, as the refusal of item=9 says (final review, 8).
	mustDo(t, s, clerk, `minutes 2026-12-15 note item=0 "Recording equipment was tested."`, "on the meeting as a whole")
	if got := replyText(do(s, clerk, `minutes 2026-12-15 note item=9 "x"`)); !strings.Contains(got, "has no item 9") {
		t.Errorf("a note on no item: %s", got)
	}
	if got := replyText(do(s, clerk, `minutes 2026-12-15 publish`)); !strings.Contains(got, "are not approved") ||
		!strings.Contains(got, "5 ILCS 120/2.06(b)") {
		t.Errorf("publishing a draft: %s", got)
	}
	r = mustDo(t, s, clerk, `minutes 2026-12-15`, "To be approved by Thu 2027-01-14 (5 ILCS 120/2.06(b)")
	mustDo(t, s, clerk, `meetings`,
		"*2026-12-15* Tue 15 Dec 2026 17:00 CST, City Hall, Room 201: 1 item; agenda posted Fri 4 Dec 2026 10:30 CST. "+
			"Minutes to be approved by Thu 2027-01-14.")
	var files []struct{ name, data string }
	for _, f := range r.Files {
		files = append(files, struct{ name, data string }{f.Name, string(f.Data)})
	}
	open, closed := minutesFiles(files, "2026-12-15")
	if !strings.Contains(open, "DRAFT") || !strings.Contains(open, "Public comment: none.") ||
		!strings.Contains(closed, "The commission discussed the director") ||
		strings.Contains(open, "The commission discussed the director") {
		t.Errorf("the draft minutes with the clerk's notes:\n%s\n---\n%s", open, closed)
	}
	// The later meeting approves them by roll call on its item; the roll defaults to the
	// members present there.
	clk.now = time.Date(2027, 1, 12, 23, 5, 0, 0, time.UTC) // Tue 12 Jan 17:05 CST
	if got := replyText(do(s, clerk, `minutes 2026-12-15 approve at=2027-01-12`)); !strings.Contains(got,
		"is not in progress") {
		t.Errorf("approval before the call to order: %s", got)
	}
	mustDo(t, s, clerk, `convene 2027-01-12 present=U_COMM1,U_COMM2`, "A quorum is present")
	if got := replyText(do(s, clerk, `minutes 2026-12-15 approve at=2026-12-15`)); !strings.Contains(got,
		"not in progress") {
		t.Errorf("approval at the meeting itself: %s", got)
	}
	r = mustDo(t, s, clerk, `minutes 2026-12-15 approve at=2027-01-12`,
		"roll call on approving its minutes at meeting 2027-01-12, item 1: adopted 2–0")
	if got := replyText(r); !strings.Contains(got, "Make the approved open minutes public by Fri 2027-01-22") ||
		!strings.Contains(got, "closed minutes stay confidential") ||
		!strings.Contains(got, "may be destroyed from Fri 2028-06-16") {
		t.Errorf("approval: %s", got)
	}
	if got := replyText(do(s, clerk, `minutes 2026-12-15 note "Late"`)); !strings.Contains(got,
		"were approved on Tue 2027-01-12") || !strings.Contains(got, "5 ILCS 120/2.06(b)") {
		t.Errorf("a note after approval: %s", got)
	}
	r = mustDo(t, s, clerk, `minutes 2026-12-15`, "as approved on Tue 2027-01-12, at the meeting of 2027-01-12")
	files = files[:0]
	for _, f := range r.Files {
		files = append(files, struct{ name, data string }{f.Name, string(f.Data)})
	}
	open, closed = minutesFiles(files, "2026-12-15")
	if strings.Contains(open, "DRAFT") || !strings.Contains(open, "Approved by the commission on") ||
		!strings.Contains(closed, "CONFIDENTIAL") {
		t.Errorf("the approved minutes:\n%s\n---\n%s", open, closed)
	}
	// The later meeting's own minutes carry the vote, by name.
	clk.now = clk.now.Add(30 * time.Minute)
	mustDo(t, s, clerk, `adjourn 2027-01-12`, "adjourned")
	if got := replyText(do(s, clerk, `minutes 2027-01-12 moved item=1 motion=2 mover=U_COMM1`)); !strings.Contains(got,
		"has 1 motion on the record") {
		t.Errorf("the mover of a motion not on the record: %s", got)
	}
	if got := replyText(do(s, clerk,
		`minutes 2027-01-12 moved item=1 mover=U_COMM1 seconder=U_COMM1`)); !strings.Contains(got, "another member") {
		t.Errorf("a motion seconded by its mover: %s", got)
	}
	mustDo(t, s, clerk, `minutes 2027-01-12 moved item=1 mover=U_COMM1 seconder=U_COMM2`,
		"who moved motion 1 on item 1 recorded")
	r = mustDo(t, s, clerk, `minutes 2027-01-12`, "drafted from the record")
	files = files[:0]
	for _, f := range r.Files {
		files = append(files, struct{ name, data string }{f.Name, string(f.Data)})
	}
	if open, _ := minutesFiles(files, "2027-01-12"); !strings.Contains(open,
		"To approve the minutes of the meeting of Tuesday 15 December 2026") || !strings.Contains(open, `U\_COMM2`) ||
		!strings.Contains(open, `Motion by U\_COMM1, seconded by U\_COMM2`) || strings.Contains(open, "who moved it") {
		t.Errorf("the approving meeting's minutes:\n%s", open)
	}
	// Published: the open minutes only, once.
	mustDo(t, s, clerk, `minutes 2026-12-15 publish`, "its approved open minutes are on the public board")
	mustDo(t, s, clerk, `minutes 2026-12-15 publish`, "were made public on")
	mustDo(t, s, clerk, `meetings`, "Minutes approved Tue 2027-01-12, public on the board.")
	ms, err := db.Meetings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := docket.FindMeeting(ms, "2026-12-15")
	if m.Published.IsZero() || !strings.Contains(m.PublishedText, "Public comment: none.") ||
		strings.Contains(m.PublishedText, "director's evaluation") || strings.Contains(m.PublishedText, "DRAFT") {
		t.Errorf("published minutes: %q", m.PublishedText)
	}
	// 2.06(c): the recording is kept 18 months.
	if got := replyText(do(s, clerk, `minutes 2026-12-15 destroy-recording approved=2027-01-12`)); !strings.Contains(got,
		"5 ILCS 120/2.06(c)") || !strings.Contains(got, "may not be destroyed before Fri 2028-06-16") {
		t.Errorf("destroying the recording early: %s", got)
	}
	clk.now = time.Date(2028, 6, 20, 16, 0, 0, 0, time.UTC)
	if got := replyText(do(s, clerk, `minutes 2026-12-15 destroy-recording`)); !strings.Contains(got,
		"approves the destruction") {
		t.Errorf("destroying the recording without the commission's approval: %s", got)
	}
	// The commission approves a destruction by a vote at a meeting it holds, not on a day
	// with none (Tue 13 Jun 2028 had none here).
	if got := replyText(do(s, clerk, `minutes 2026-12-15 destroy-recording approved=2028-06-13`)); !strings.Contains(got,
		"held no meeting on Tue 2028-06-13") || !strings.Contains(got, "5 ILCS 120/2.06(c)") {
		t.Errorf("a destruction approved on a day without a meeting: %s", got)
	}
	mustDo(t, s, clerk, `minutes 2026-12-15 destroy-recording approved=2027-01-12`,
		"the verbatim recording of closed session 1 destroyed")
	if rep, err := db.Verify(ctx); err != nil || rep.Broken != nil {
		t.Fatalf("verify: %v %v", rep.Broken, err)
	}
}
