package commands_test

import (
	"strings"
	"testing"
	"time"

	"ethicsbot/commands"
	"ethicsbot/docket"
	"ethicsbot/letters"
)

// TestMeetingWithThreeCasesBusinessAndAClosedItem: one meeting holds three cases'
// sufficiency reviews, two joined by name and one by its start and place, beside the
// approval of minutes and a free-text item closed under 2(c)(1); one posting records the
// notice for every item and meets each case's own (C)(1) notice; a late item is refused
// citing 5 ILCS 120/2.02.
func TestMeetingWithThreeCasesBusinessAndAClosedItem(t *testing.T) {
	s, clk, db := MustService(t)
	for _, who := range []string{"Jane Roe", "Richard Roe", "Rachel Roe"} {
		mustDo(t, s, clerk, strings.Replace(fileLine, "Jane Roe", who, 1), "Filed as case")
	}
	mustDo(t, s, clerk, `meeting 2026-12-15T17:00 place="City Hall, Room 201"`,
		"Meeting *2026-12-15*: regular meeting created")
	mustDo(t, s, clerk, `meeting 2026-12-15T19:00 place="City Hall, Room 201" special`,
		"Meeting *2026-12-15b*: special meeting created")
	r := mustDo(t, s, clerk, `schedule 2026-001 sufficiency meeting=2026-12-15`,
		"case 2026-001's sufficiency meeting added")
	if got := posted(r, "C_NOTICES"); len(got) != 0 {
		t.Errorf("a step joining a meeting posted a notice of its own: %q", got)
	}
	mustDo(t, s, clerk, `schedule 2026-002 sufficiency meeting=2026-12-15`, "2 items")
	// The one-line form joins the meeting then and there.
	mustDo(t, s, clerk, `schedule 2026-003 sufficiency 2026-12-15T17:00 place="City Hall, Room 201"`,
		"Meeting *2026-12-15*: case 2026-003's sufficiency meeting added")
	mustDo(t, s, clerk, `agenda 2026-12-15 add item=minutes 2026-11-10`,
		"4. Approval of the minutes of the meeting of Tuesday 10 November 2026")
	mustDo(t, s, clerk, `agenda 2026-12-15 add "Evaluation of the executive director"`,
		"5. Evaluation of the executive director")
	r = mustDo(t, s, clerk, `agenda 2026-12-15 close 5 closed="5 ILCS 120/2(c)(1)"`,
		"5. Evaluation of the executive director (closed session, 5 ILCS 120/2(c)(1))")
	if got := replyText(r); !strings.Contains(got, "1. Review of the sufficiency of complaint 2026-001") ||
		!strings.Contains(got, "3. Review of the sufficiency of complaint 2026-003") {
		t.Errorf("agenda:\n%s", got)
	}
	r = mustDo(t, s, clerk, `agenda 2026-12-15 close 2 closed="5 ILCS 120/2(c)(4)"`, "")
	if !strings.Contains(replyText(r), "schedule 2026-002 sufficiency meeting=2026-12-15") {
		t.Errorf("closing a case step on the agenda: %s", replyText(r))
	}

	// One posting for all five items, which meets each case's own notice.
	r = mustDo(t, s, clerk, `posted 2026-12-15`, "notice and agenda posted Fri 4 Dec 2026 10:30 CST, for all 5 items")
	if got := posted(r, "C_NOTICES"); len(got) != 1 ||
		!strings.HasPrefix(got[0],
			"PUBLIC NOTICE. Ethics Commission, regular meeting on Tue 15 Dec 2026 at 17:00 CST at City Hall, Room 201. "+
				"Agenda: Call to order and roll call. 1. Review of the sufficiency of complaint 2026-001") ||
		!strings.Contains(got[0],
			"5. Evaluation of the executive director (closed session, 5 ILCS 120/2(c)(1)). Public comment. Adjournment. "+
				"Open to the public, except the "+
				"items marked closed session.") {
		t.Errorf("one posting, one notice: %q", got)
	}
	for _, n := range []string{"2026-001", "2026-002", "2026-003"} {
		c, err := db.Case(ctx, n)
		if err != nil || c.Sufficiency.NoticePosted.IsZero() {
			t.Errorf("case %s: notice posted %v, %v", n, c.Sufficiency.NoticePosted, err)
		}
	}
	mustDo(t, s, clerk, `posted 2026-002 sufficiency`, "already posted")
	mustDo(t, s, clerk, `meetings`, "*2026-12-15* Tue 15 Dec 2026 17:00 CST, City Hall, Room 201: 5 items; agenda posted")

	// One agenda PDF for the whole meeting.
	withLetters(t, s)
	r = mustDo(t, s, clerk, `letters 2026-12-15`,
		"Meeting 2026-12-15: its agenda, 5 ILCS 120/2.02: meeting-2026-12-15-agenda.pdf")
	if len(r.Files) != 1 || !strings.HasPrefix(string(r.Files[0].Data), "%PDF-") {
		t.Fatalf("agenda files = %d", len(r.Files))
	}
	if pages := strings.Count(string(r.Files[0].Data), "/Type /Page\n") + strings.Count(string(r.Files[0].Data),
		"/Type /Page>>"); pages > 1 {
		t.Errorf("the agenda of five items takes %d pages", pages)
	}

	// A change before the 48-hour mark asks for the notice again, marked amended.
	mustDo(t, s, clerk, `agenda 2026-12-15 add item=public_comment`, "post it again, marked amended")
	r = mustDo(t, s, clerk, `posted 2026-12-15`, "(amended)")
	if got := posted(r, "C_NOTICES"); len(got) != 1 || !strings.HasPrefix(got[0], "PUBLIC NOTICE, AMENDED AGENDA.") {
		t.Errorf("the amended notice: %q", got)
	}
	// The special meeting that evening moves, then is cancelled: one notice each.
	mustDo(t, s, clerk, `agenda 2026-12-15b add "The budget for 2027"`, "item added")
	r = mustDo(t, s, clerk, `move 2026-12-15b 2026-12-16T19:00`,
		"moved to Wed 16 Dec 2026 19:00 CST, City Hall, Room 201, with its 1 item")
	if got := posted(r, "C_NOTICES"); len(got) != 1 || !strings.HasPrefix(got[0], "PUBLIC NOTICE, MOVED.") {
		t.Errorf("moving: %q", got)
	}
	r = mustDo(t, s, clerk, `cancel 2026-12-15b reason="no quorum"`, "cancelled, with its")
	if got := posted(r, "C_NOTICES"); len(got) != 1 || !strings.HasPrefix(got[0], "PUBLIC NOTICE, CANCELLED.") {
		t.Errorf("cancelling: %q", got)
	}

	mustDo(t, s, clerk, `mail 2026-001 respondent 9407 1118 9876 5432 1013 44`, "Case 2026-001")
	mustDo(t, s, clerk, `mail 2026-001 complainant 9407 1118 9876 5432 1013 51`, "Case 2026-001")

	// Within 48 hours: no item is added, none closed.
	clk.now = time.Date(2026, 12, 13, 23, 30, 0, 0, time.UTC) // Sun 13 Dec 17:30 CST
	r = do(s, clerk, `agenda 2026-12-15 add "Election of a chair"`)
	if got := replyText(r); !strings.Contains(got, "5 ILCS 120/2.02") {
		t.Errorf("late item: %s", got)
	}
	ms, err := db.Meetings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m, err := docket.FindMeeting(ms, "2026-12-15")
	if err != nil || len(m.Agenda()) != 6 || len(m.Cases) != 3 {
		t.Fatalf("meeting = %+v, %v", m, err)
	}

	// The meeting as it happens.
	clk.now = time.Date(2026, 12, 15, 23, 5, 0, 0, time.UTC) // Tue 15 Dec 17:05 CST
	mustDo(t, s, clerk, `convene 2026-12-15 present=U_COMM1`, "No quorum")
	if got := replyText(do(s, clerk, `convene 2026-12-15 present=U_COMM1,U_COMM2`)); !strings.Contains(got,
		"was called to order") {
		t.Errorf("a second call to order: %s", got)
	}
	clk.now = clk.now.Add(5 * time.Minute)
	mustDo(t, s, clerk, `convene 2026-12-15 late=U_COMM2`,
		"Present: <@U_COMM1>, <@U_COMM2>. Absent: none. A quorum is present.")
	clk.now = clk.now.Add(5 * time.Minute)
	mustDo(t, s, clerk, `session 2026-12-15 close 5`, "closed session entered for item 5 by roll call, adopted 2–0")
	if got := replyText(do(s, comm, `rule 2026-001 insufficient`)); !strings.Contains(got, "5 ILCS 120/2(e)") {
		t.Errorf("a ruling in closed session: %s", got)
	}
	mustDo(t, s, clerk, `adjourn 2026-12-15`, "record the return to open session first")
	clk.now = clk.now.Add(20 * time.Minute)
	mustDo(t, s, clerk, `session 2026-12-15 open`, "returned to open session")
	// The roll call defaults to the members present: the clerk gives only the votes.
	mustDo(t, s, comm, `rule 2026-001 insufficient`, "adopted 2–0")
	clk.now = clk.now.Add(5 * time.Minute)
	mustDo(t, s, clerk, `convene 2026-12-15 left=U_COMM2`, "Present: <@U_COMM1>. Absent: <@U_COMM2>. No quorum")
	mustDo(t, s, clerk, `adjourn 2026-12-15`, "adjourned at Tue 15 Dec 2026 17:40 CST")
	// The minutes, drafted from the record, every vote by name.
	// The names and titles the configuration gives.
	reconfigure(s, func(st *commands.Settings) {
		st.Roles.People = docket.NewRoster([]docket.Member{{ID: "U_COMM1", Name: "Ann Alder", Title: "Chair"},
			{ID: "U_COMM2", Name: "Bob Birch"}})
	})
	r = mustDo(t, s, clerk, `minutes 2026-12-15`, "meeting-2026-12-15-minutes-closed.pdf")
	open, closed := minutesMarkdown(r, "2026-12-15")
	if len(r.Files) != 4 || !strings.Contains(open, "Ann Alder, Chair") || !strings.Contains(open, "Bob Birch") ||
		!strings.Contains(open, ": that the complaint does not sufficiently allege a violation, and that the complaint be "+
			"dismissed (C)(2)\n") || !strings.Contains(open, "5 ILCS 120/2(c)(1)") || closed == "" {
		t.Errorf("the minutes: %d files\n%s\n---\n%s", len(r.Files), open, closed)
	}
	ms, err = db.Meetings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := docket.FindMeeting(ms, "2026-12-15"); len(m.Minutes.Sessions) != 1 ||
		m.Minutes.Sessions[0].Returned.IsZero() || m.Minutes.Adjourned.IsZero() || len(m.Minutes.Arrived) != 1 ||
		len(m.Minutes.Left) != 1 {
		t.Errorf("the meeting's record: %+v", m.Minutes)
	}
	if rep, err := db.Verify(ctx); err != nil || rep.Broken != nil {
		t.Fatalf("verify: %v %v", rep.Broken, err)
	}
}

// TestPostingAMeetingFoldedFromItsCases: two cases scheduled at one start and place
// before meetings were kept read as one meeting; posting it after it began records each
// case's notice (late, warned of), as the cases alone did, without recording a meeting
// that has begun.
func TestPostingAMeetingFoldedFromItsCases(t *testing.T) {
	s, clk, db := MustService(t)
	for _, who := range []string{"Jane Roe", "Richard Roe"} {
		mustDo(t, s, clerk, strings.Replace(fileLine, "Jane Roe", who, 1), "Filed as case")
	}
	for _, n := range []string{"2026-001", "2026-002"} {
		if _, err := db.Apply(ctx, docket.Act{By: clerk, At: clk.now}, n,
			docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: time.Date(2026, 12, 10, 23, 0, 0, 0, time.UTC),
				Place: "City Hall"}); err != nil {
			t.Fatal(err)
		}
	}
	mustDo(t, s, clerk, `meetings`, "*2026-12-10* Thu 10 Dec 2026 17:00 CST, City Hall: 2 items")
	clk.now = time.Date(2026, 12, 11, 15, 0, 0, 0, time.UTC)
	r := mustDo(t, s, clerk, `posted 2026-002 sufficiency at=2026-12-07T09:00`,
		"Case 2026-001: notice of the sufficiency meeting posted Mon 7 Dec 2026 09:00 CST")
	if got := posted(r, "C_NOTICES"); len(got) != 0 {
		t.Errorf("a notice of a meeting that had begun: %q", got)
	}
	for _, n := range []string{"2026-001", "2026-002"} {
		if c, _ := db.Case(ctx, n); c.Sufficiency.NoticePosted.IsZero() {
			t.Errorf("case %s: no posting recorded", n)
		}
	}
	if evs, err := db.MeetingEvents(ctx, "2026-12-10"); err != nil || len(evs) != 0 {
		t.Errorf("a meeting that had begun was recorded: %v %v", evs, err)
	}
}

// TestCancellingAnItemAmendsTheAgenda: a case step cancelled from a meeting whose agenda
// was posted leaves the meeting with its other items, to be posted again, amended; the
// step's own cancellation is announced.
func TestCancellingAnItemAmendsTheAgenda(t *testing.T) {
	s, _, _ := MustService(t)
	for _, who := range []string{"Jane Roe", "Richard Roe"} {
		mustDo(t, s, clerk, strings.Replace(fileLine, "Jane Roe", who, 1), "Filed as case")
	}
	mustDo(t, s, clerk, `meeting 2026-12-15T17:00 place="City Hall"`, "created")
	mustDo(t, s, clerk, `schedule 2026-001 sufficiency meeting=2026-12-15`, "added")
	mustDo(t, s, clerk, `schedule 2026-002 sufficiency meeting=2026-12-15`, "added")
	mustDo(t, s, clerk, `posted 2026-12-15`, "for all 2 items")
	r := mustDo(t, s, clerk, `cancel 2026-002 sufficiency reason="withdrawn by the complainant"`,
		"case 2026-002's sufficiency meeting withdrawn from its agenda")
	if got := replyText(r); !strings.Contains(got,
		"1 item; the agenda changed after it was posted: post it again, marked amended") {
		t.Errorf("after the cancellation: %s", got)
	}
	// The meeting goes on: the public is told the item is withdrawn, never that a meeting
	// at its time and place is cancelled.
	if got := posted(r, "C_NOTICES"); len(got) != 1 ||
		!strings.HasPrefix(got[0],
			"PUBLIC NOTICE, AMENDED AGENDA: ITEM WITHDRAWN. Ethics Commission, regular meeting on Tue 15 Dec 2026 at 17:00 "+
				"CST at City Hall: the item “Review of the sufficiency of complaint 2026-002") ||
		strings.Contains(got[0], "CANCELLED") || !strings.Contains(got[0], "The meeting is held as noticed, with 1 item") {
		t.Errorf("the step's withdrawal: %q", got)
	}
	// Moved off to a time of its own, a step leaves the agenda changed too.
	mustDo(t, s, clerk, `posted 2026-12-15`, "(amended)")
	r = mustDo(t, s, clerk, `schedule 2026-001 sufficiency 2026-12-16T17:00 place="City Hall"`,
		"case 2026-001's sufficiency meeting moved off its agenda")
	if got := replyText(r); !strings.Contains(got, "0 items; the agenda changed after it was posted") {
		t.Errorf("after the move: %s", got)
	}
	if got := posted(r, "C_NOTICES"); len(got) != 1 || !strings.HasPrefix(got[0], "PUBLIC NOTICE, RESCHEDULED.") {
		t.Errorf("the step's own notice: %q", got)
	}
}

// TestARulingOnAClosedItemAfterTheReturn: a case item deliberated in
// closed session and ruled on after the return to open session, as 5 ILCS 120/2(e)
// requires, has its minutes drafted: the ruling in the open minutes, after the return,
// and the item's discussion in the closed minutes.
func TestARulingOnAClosedItemAfterTheReturn(t *testing.T) {
	s, clk, _ := MustService(t)
	for _, who := range []string{"Jane Roe", "Richard Roe"} {
		mustDo(t, s, clerk, strings.Replace(fileLine, "Jane Roe", who, 1), "Filed as case")
	}
	mustDo(t, s, clerk, `meeting 2026-12-15T17:00 place="Hall"`, "created")
	mustDo(t, s, clerk, `schedule 2026-001 sufficiency meeting=2026-12-15 closed="5 ILCS 120/2(c)(4)"`, "added")
	mustDo(t, s, clerk, `posted 2026-12-15`, "for its one item")
	mustDo(t, s, clerk, `mail 2026-001 respondent 9407 1118 9876 5432 1013 44`, "Case 2026-001")
	mustDo(t, s, clerk, `mail 2026-001 complainant 9407 1118 9876 5432 1013 51`, "Case 2026-001")
	clk.now = time.Date(2026, 12, 15, 23, 0, 0, 0, time.UTC) // Tue 15 Dec 17:00 CST
	mustDo(t, s, clerk, `convene 2026-12-15 present=U_COMM1,U_COMM2`, "called to order")
	clk.now = clk.now.Add(5 * time.Minute)
	mustDo(t, s, clerk, `session 2026-12-15 close 1`, "closed session entered for item 1")
	clk.now = clk.now.Add(20 * time.Minute)
	mustDo(t, s, clerk, `session 2026-12-15 open`, "returned to open session")
	clk.now = clk.now.Add(5 * time.Minute)
	mustDo(t, s, comm, `rule 2026-001 insufficient`, "adopted")
	clk.now = clk.now.Add(5 * time.Minute)
	mustDo(t, s, clerk, `adjourn 2026-12-15`, "adjourned")
	withLetters(t, s)
	r := mustDo(t, s, clerk, `minutes 2026-12-15`, "meeting-2026-12-15-minutes-closed.pdf")
	open, closed := minutesMarkdown(r, "2026-12-15")
	ret := strings.Index(open, "returned to open session at 17:25")
	vote := strings.Index(open, "that the complaint does not sufficiently allege a violation")
	if ret < 0 || vote < ret || !strings.Contains(open, "Taken up again in open session after closed session 1") {
		t.Errorf("the open minutes do not record the ruling after the return:\n%s", open)
	}
	if closed == "" || strings.Contains(closed, "sufficiently allege") {
		t.Errorf("the closed minutes hold the ruling voted in open session:\n%s", closed)
	}
}

// TestPostingNotBackdatedBeforeTheAgendaChanged: a posting given an
// at= before the last item was added is refused, naming 5 ILCS 120/2.02 and the earliest
// time allowed, and records nothing for the meeting or its cases.
func TestPostingNotBackdatedBeforeTheAgendaChanged(t *testing.T) {
	s, clk, db := MustService(t)
	oneCaseMeeting(t, s)
	clk.now = time.Date(2026, 12, 9, 15, 0, 0, 0, time.UTC) // Wed 9 Dec 09:00 CST
	mustDo(t, s, clerk, `agenda 2026-12-15 add "Election of a chair"`, "item added")
	clk.now = time.Date(2026, 12, 12, 2, 0, 0, 0, time.UTC) // Fri 11 Dec 20:00 CST
	got := replyText(do(s, clerk, `posted 2026-12-15 at=2026-12-05T09:00`))
	if !strings.Contains(got, "5 ILCS 120/2.02") || !strings.Contains(got, "no earlier than Wed 9 Dec 2026 09:00 CST") {
		t.Errorf("a posting backdated before the last item: %s", got)
	}
	// The case step's own form posts the meeting that holds it: the same rule.
	if got := replyText(do(s, clerk, `posted 2026-001 sufficiency at=2026-12-05T09:00`)); !strings.Contains(got,
		"no earlier than Wed 9 Dec 2026 09:00 CST") {
		t.Errorf("a case step's posting backdated before the last item: %s", got)
	}
	if c, _ := db.Case(ctx, "2026-001"); !c.Sufficiency.NoticePosted.IsZero() {
		t.Errorf("the refused posting was recorded on the case: %v", c.Sufficiency.NoticePosted)
	}
	mustDo(t, s, clerk, `posted 2026-12-15 at=2026-12-09T10:00`, "for all 2 items")
}

// TestMoveOntoAnotherMeeting: /ethics move onto the exact start and
// place of another open meeting is refused, as /ethics meeting refuses creating it there,
// and the other meeting keeps its items.
func TestMoveOntoAnotherMeeting(t *testing.T) {
	s, _, db := MustService(t)
	mustDo(t, s, clerk, fileLine, "Filed as case")
	mustDo(t, s, clerk, `meeting 2026-12-15T17:00 place="Hall"`, "created")
	mustDo(t, s, clerk, `meeting 2026-12-15T19:00 place="Hall" special`, "created")
	mustDo(t, s, clerk, `schedule 2026-001 sufficiency meeting=2026-12-15`, "added")
	mustDo(t, s, clerk, `agenda 2026-12-15b add "The budget"`, "item added")
	r := do(s, clerk, `move 2026-12-15b 2026-12-15T17:00`)
	if got := replyText(r); !strings.Contains(got, "meeting 2026-12-15 is already then and there") ||
		!strings.Contains(got, "5 ILCS 120/2.02") {
		t.Errorf("a move onto another meeting: %s", got)
	}
	ms, err := db.Meetings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := docket.FindMeeting(ms, "2026-12-15"); m == nil || len(m.Agenda()) != 1 || m.Agenda()[0].Case != "2026-001" {
		t.Errorf("the other meeting after the refused move: %+v", m)
	}
}

// TestFutureTimesRefusedAtTheMeeting: an adjournment, an arrival or
// departure, or an entry into or return from closed session given at= a time still to
// come is refused and records nothing.
func TestFutureTimesRefusedAtTheMeeting(t *testing.T) {
	s, clk, db := MustService(t)
	mustDo(t, s, clerk, `meeting 2026-12-15T17:00 place="Hall"`, "created")
	mustDo(t, s, clerk, `agenda 2026-12-15 add "Evaluation of the executive director" closed="5 ILCS 120/2(c)(1)"`,
		"item added")
	mustDo(t, s, clerk, `posted 2026-12-15`, "for its one item")
	clk.now = time.Date(2026, 12, 15, 23, 0, 0, 0, time.UTC) // Tue 15 Dec 17:00 CST
	mustDo(t, s, clerk, `convene 2026-12-15 present=U_COMM1,U_COMM2`, "called to order")
	clk.now = clk.now.Add(time.Hour) // 18:00
	for _, line := range []string{
		`adjourn 2026-12-15 at=2026-12-16T17:10`,
		`convene 2026-12-15 left=U_COMM2 at=2026-12-15T18:30`,
		`session 2026-12-15 close 1 at=2026-12-15T18:30`,
	} {
		if got := replyText(do(s, clerk, line)); !strings.Contains(got, "is later than now") {
			t.Errorf("%s: %s", line, got)
		}
	}
	mustDo(t, s, clerk, `session 2026-12-15 close 1`, "closed session entered")
	if got := replyText(do(s, clerk, `session 2026-12-15 open at=2026-12-15T19:00`)); !strings.Contains(got,
		"is later than now") {
		t.Errorf("a return to come: %s", got)
	}
	ms, err := db.Meetings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := docket.FindMeeting(ms, "2026-12-15"); m == nil || !m.Minutes.Adjourned.IsZero() ||
		len(m.Minutes.Left) != 0 || !m.Minutes.Sessions[0].Returned.IsZero() {
		t.Errorf("the refused times were recorded: %+v", m)
	}
}

// TestCancelledNoticeCountsTheItems: the public notice of a
// cancelled meeting counts the items its agenda held, as the clerk is told, not those left
// once its case steps are cancelled.
func TestCancelledNoticeCountsTheItems(t *testing.T) {
	s, _, _ := MustService(t)
	oneCaseMeeting(t, s)
	mustDo(t, s, clerk, `agenda 2026-12-15 add "The budget"`, "item added")
	r := mustDo(t, s, clerk, `cancel 2026-12-15 reason="no quorum"`, "cancelled, with its 2 items")
	if got := posted(r, "C_NOTICES"); len(got) != 1 ||
		!strings.Contains(got[0], "with every item of its agenda (2 items)") {
		t.Errorf("the cancellation notice: %q", got)
	}
}

// TestMeetingWording: the moved notice reads as a sentence, a
// move within 48 hours is not advised to move the meeting, and an agenda item past the
// docket's 200 characters is told that limit, not the parser's.
func TestMeetingWording(t *testing.T) {
	s, clk, _ := MustService(t)
	mustDo(t, s, clerk, `meeting 2026-12-15T17:00 place="Hall"`, "created")
	mustDo(t, s, clerk, `agenda 2026-12-15 add "The budget"`, "item added")
	r := mustDo(t, s, clerk, `move 2026-12-15 2026-12-16T17:00 place="Annex"`, "moved to")
	want := "PUBLIC NOTICE, MOVED. Ethics Commission, regular meeting on Wed 16 Dec 2026 at 17:00 CST at Annex, moved " +
		"with every item of its agenda from Tue 15 Dec 2026 at 17:00 CST at Hall. Agenda: Call to order and roll call. " +
		"1. The budget. Public comment. Adjournment. Open to the public."
	if got := posted(r, "C_NOTICES"); len(got) != 1 || !strings.HasPrefix(got[0], want) {
		t.Errorf("the moved notice: %q\nwant prefix %q", got, want)
	}
	long := strings.Repeat("x", 4010)
	if got := replyText(do(s, clerk, `agenda 2026-12-15 add "`+long+`"`)); !strings.Contains(got, "the limit is 200") {
		t.Errorf("a 4,010-character item: %s", got)
	}
	clk.now = time.Date(2026, 12, 14, 15, 0, 0, 0, time.UTC) // Mon 14 Dec 09:00 CST
	got := replyText(do(s, clerk, `move 2026-12-15 2026-12-15T17:00`))
	if !strings.Contains(got, "5 ILCS 120/2.02") || strings.Contains(got, "or move the meeting") ||
		!strings.Contains(got, "choose a start more than 48 hours from now") {
		t.Errorf("a move within 48 hours: %s", got)
	}
}

// oneCaseMeeting files case 2026-001 and schedules its sufficiency review at a meeting on
// 15 December 2026 at 17:00 in the Hall.
func oneCaseMeeting(t *testing.T, s *commands.Service) {
	t.Helper()
	mustDo(t, s, clerk, fileLine, "Filed as case")
	mustDo(t, s, clerk, `meeting 2026-12-15T17:00 place="Hall"`, "created")
	mustDo(t, s, clerk, `schedule 2026-001 sufficiency meeting=2026-12-15`, "added")
}

// withLetters gives s the letters the agenda and the minutes are drawn with.
func withLetters(t *testing.T, s *commands.Service) {
	t.Helper()
	lm, err := letters.New(letters.Config{Commission: letters.Addressee{Name: "Ethics Commission",
		Address: "City Hall\n100 Main Street"}}, s.Engine.Cal.Location())
	if err != nil {
		t.Fatal(err)
	}
	s.Letters = lm
}

// minutesMarkdown returns the open and closed minutes of meeting name among r's files, as
// Markdown; "" for one not there.
func minutesMarkdown(r commands.Response, name string) (open, closed string) {
	for _, f := range r.Files {
		switch f.Name {
		case "meeting-" + name + "-minutes-open.md":
			open = string(f.Data)
		case "meeting-" + name + "-minutes-closed.md":
			closed = string(f.Data)
		}
	}
	return open, closed
}

// TestMeetingNeedsFortyEightHours: /ethics meeting
// refuses a start less than 48 hours away, citing 5 ILCS 120/2.02 and giving the earliest
// lawful start, as /ethics schedule does; and a meeting with no items has no agenda to post.
func TestMeetingNeedsFortyEightHours(t *testing.T) {
	s, clk, db := MustService(t)
	clk.now = time.Date(2027, 1, 5, 16, 1, 0, 0, time.UTC) // Tue 5 Jan 10:01 CST
	got := replyText(do(s, clerk, `meeting 2027-01-06T09:00 place="X"`))
	if !strings.Contains(got, "5 ILCS 120/2.02") ||
		!strings.Contains(got, "earliest lawful start is Thu 7 Jan 2027 10:01 CST") {
		t.Errorf("a meeting 23 hours away: %s", got)
	}
	if ms, err := db.Meetings(ctx); err != nil || len(ms) != 0 {
		t.Errorf("the refused meeting was recorded: %+v, %v", ms, err)
	}
	mustDo(t, s, clerk, `meeting 2027-01-07T10:01 place="X"`, "created")
	got = replyText(do(s, clerk, `posted 2027-01-07`))
	if !strings.Contains(got, "5 ILCS 120/2.02") || !strings.Contains(got, "no items on its agenda") ||
		strings.Contains(got, "0 items") {
		t.Errorf("posting a meeting with no items: %s", got)
	}
	// Its notice, moved before any item joined it, does not read "Agenda: Open to the public."
	r := mustDo(t, s, clerk, `move 2027-01-07 2027-01-08T17:00`, "moved to")
	if got := posted(r, "C_NOTICES"); len(got) != 1 || !strings.Contains(got[0], "Agenda: none yet. Open to the public.") {
		t.Errorf("the moved notice of a meeting with no items: %q", got)
	}
}

// TestCaseNoticeIsTheMeetingsAgenda: a case's notice of
// a step held at a meeting is that meeting's one agenda, every item of it, dated by its
// posting however late it is drawn, not a notice of the case alone with its
// own "Call to order ... Adjournment" dated the day it is drawn.
func TestCaseNoticeIsTheMeetingsAgenda(t *testing.T) {
	s, clk, _ := MustService(t)
	oneCaseMeeting(t, s)
	mustDo(t, s, clerk, `agenda 2026-12-15 add "The budget"`, "item added")
	mustDo(t, s, clerk, `posted 2026-12-15`, "for all 2 items") // Fri 4 Dec 2026
	withLetters(t, s)
	clk.now = time.Date(2026, 12, 14, 15, 0, 0, 0, time.UTC) // Mon 14 Dec
	r := mustDo(t, s, clerk, `letters 2026-001 notice_sufficiency`, "2026-001-notice_sufficiency.pdf")
	if len(r.Files) != 1 {
		t.Fatalf("files = %d, want the one notice", len(r.Files))
	}
	text := pdfText(t, r.Files[0].Data)
	// The meeting's agenda, its numbered business framed by the parts of every meeting,
	// not the case's own order of business, which numbers those parts.
	for _, want := range []string{"AGENDA", "Calltoorderandrollcall.1.Review", "complaint2026-001",
		"2.ThebudgetPubliccomment.Adjournment.", "Friday4December2026"} {
		if !strings.Contains(text, want) {
			t.Errorf("the case's notice lacks %q:\n%s", want, text)
		}
	}
	for _, not := range []string{"Monday14December2026", "1.Calltoorder", "Adjournment.Adjournment"} {
		if strings.Contains(text, not) {
			t.Errorf("the case's notice holds %q:\n%s", not, text)
		}
	}
}
