package commands_test

import (
	"strings"
	"testing"
	"time"

	"ethicsbot/commands"
	"ethicsbot/docket"
)

// withRegular puts a schedule of regular meetings at 18:00 in City Hall, Council
// Chambers, on dates, in force beside s's settings.
func withRegular(t *testing.T, s *commands.Service, dates ...docket.Date) {
	t.Helper()
	r, err := docket.NewRegularSchedule("City Hall, Council Chambers", 18*time.Hour, dates)
	if err != nil {
		t.Fatal(err)
	}
	st := *s.Settings()
	st.Regular = r
	s.Configure(st)
}

// TestScheduleIntoNextRegularMeeting: meeting=next joins the first regular meeting with
// time for its 48 hours' notice and held by the step's deadline, recording it the first
// time a step joins it; when that meeting is after the deadline, the refusal names it and
// suggests a special meeting. Hand-checked: it is Fri 4 Dec 2026 10:30 CST; the complaint
// was received that morning, so the (C)(1) ruling is due 7 business days later, Tue 15
// Dec 2026; Sat 5 Dec 18:00 is only 31½ hours away.
func TestScheduleIntoNextRegularMeeting(t *testing.T) {
	s, _, _ := MustService(t)
	for _, who := range []string{"Jane Roe", "Richard Roe", "Rachel Roe"} {
		mustDo(t, s, clerk, strings.Replace(fileLine, "Jane Roe", who, 1), "Filed as case")
	}
	withRegular(t, s, docket.NewDate(2026, time.December, 5), docket.NewDate(2026, time.December, 8),
		docket.NewDate(2027, time.January, 12))
	mustDo(t, s, clerk, `meetings`, "*2026-12-08* Tue 8 Dec 2026 18:00 CST, City Hall, Council Chambers: 0 items")
	mustDo(t, s, clerk, `meetings`, "Regular meeting of the year's schedule (5 ILCS 120/2.03); nothing recorded yet.")
	r := mustDo(t, s, clerk, `schedule 2026-001 sufficiency meeting=next`,
		"Meeting *2026-12-08*: case 2026-001's sufficiency meeting added")
	if got := posted(r, "C_NOTICES"); len(got) != 0 {
		t.Errorf("joining a regular meeting posted a notice of its own: %q", got)
	}
	mustDo(t, s, clerk, `schedule 2026-002 sufficiency meeting=regular`,
		"Meeting *2026-12-08*: case 2026-002's sufficiency meeting added")
	mustDo(t, s, clerk, `agenda 2026-12-08`,
		"*Regular meeting 2026-12-08*: Tue 8 Dec 2026 18:00 CST, City Hall, Council Chambers\n1. Review of the sufficiency "+
			"of complaint 2026-001")

	// Only January's is left: after the ruling deadline.
	withRegular(t, s, docket.NewDate(2027, time.January, 12))
	r = do(s, clerk, `schedule 2026-003 sufficiency meeting=next`)
	for _, want := range []string{"2027-01-12 on Tue 2027-01-12, is after the sufficiency ruling deadline, Tue " +
		"2026-12-15 ((C)(1))", "special meeting", "`/ethics meeting "} {
		if !strings.Contains(replyText(r), want) {
			t.Errorf("refusal %q lacks %q", replyText(r), want)
		}
	}
	if c, err := s.Record.Case(ctx, "2026-003"); err != nil || c.Sufficiency.Scheduled() {
		t.Errorf("a refused meeting=next scheduled the meeting: %+v, %v", c.Sufficiency, err)
	}
	// No schedule at all.
	withRegular(t, s)
	mustDo(t, s, clerk, `schedule 2026-003 sufficiency meeting=next`, "no regular meetings are configured")
}

// TestAnnounceSchedule: the schedule in force is noticed once in the notices channel
// (5 ILCS 120/2.03), again only when it changes, and a change names the meetings dropped
// and added before the schedule as it now stands.
func TestAnnounceSchedule(t *testing.T) {
	s, _, db := MustService(t)
	jan, feb, feb10 := docket.NewDate(2027, time.January, 12), docket.NewDate(2027, time.February, 9),
		docket.NewDate(2027, time.February, 10)
	withRegular(t, s, jan, feb)
	for range 2 { // a restart with the same schedule says nothing again
		if err := s.AnnounceSchedule(ctx, docket.RegularSchedule{}); err != nil {
			t.Fatal(err)
		}
	}
	old := s.Settings().Regular
	withRegular(t, s, jan, feb10)
	if err := s.AnnounceSchedule(ctx, old); err != nil {
		t.Fatal(err)
	}
	rows, err := db.Outbox(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, r := range rows {
		if r.Key.Series == "regular_schedule" && r.Key.To.Channel == "C_NOTICES" {
			texts = append(texts, string(r.Text))
		}
	}
	want := []string{
		"PUBLIC NOTICE. Ethics Commission: schedule of regular meetings (5 ILCS 120/2.03). Regular meetings, each at 18:00 " +
			"at City Hall, Council Chambers: 2027: Tue 12 Jan, Tue 9 Feb.",
		"PUBLIC NOTICE, CHANGED SCHEDULE. Ethics Commission: the schedule of regular meetings (5 ILCS 120/2.03) is " +
			"changed. No longer: Tue 9 Feb 2027 18:00 CST, City Hall, Council Chambers. Added: Wed 10 Feb 2027 18:00 CST, " +
			"City Hall, Council Chambers. Regular meetings, each at 18:00 at City Hall, Council Chambers: 2027: Tue 12 Jan, " +
			"Wed 10 Feb.",
	}
	if len(texts) != 2 || texts[0] != want[0] || texts[1] != want[1] {
		t.Errorf("notices of the schedule:\n%q\nwant\n%q", texts, want)
	}
}

// TestHomeShowsTheNextMeeting: the Home tab's next meeting is the meeting of the
// commission: a regular meeting of the schedule before anything joins it, then with its
// count of items and whether its agenda is posted; the case a member is recused from is
// neither listed nor counted.
func TestHomeShowsTheNextMeeting(t *testing.T) {
	s, _, _ := MustService(t)
	mustDo(t, s, clerk,
		strings.Replace(fileLine, `respondent="Jane Roe"`, `respondent="Jane Roe" respondent_user=U_COMM2`, 1),
		"Filed as case *2026-001*")
	mustDo(t, s, clerk, fileLine, "Filed as case *2026-002*")
	withRegular(t, s, docket.NewDate(2026, time.December, 8))
	home := func(user string) string {
		all, _ := homeText(t, s.HomeBlocks(ctx, user))
		return all
	}
	if got, want := home(clerk),
		"*Next meeting: Tue 8 Dec 2026 18:00 CST*, City Hall, Council Chambers: regular meeting 2026-12-08, "+
			"no items yet."; !strings.Contains(got, want) {
		t.Errorf("before anything joins it, the desk lacks %q:\n%s", want, got)
	}
	mustDo(t, s, clerk, `schedule 2026-001 sufficiency meeting=next`, "added")
	mustDo(t, s, clerk, `schedule 2026-002 sufficiency meeting=next`, "added")
	mustDo(t, s, clerk, `agenda 2026-12-08 add "Election of a chair"`, "item added")
	got := home(clerk)
	for _, want := range []string{
		"*Next meeting: Tue 8 Dec 2026 18:00 CST*, City Hall, Council Chambers: regular meeting 2026-12-08, 3 items; " +
			"agenda not yet posted: due by Sun 6 Dec 2026 18:00 CST (5 ILCS 120/2.02).",
		"• *2026-001*: sufficiency meeting, open to the public\n• *2026-002*: sufficiency meeting, open to the " +
			"public\n• Election of a chair",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the clerk's desk lacks %q:\n%s", want, got)
		}
	}
	mustDo(t, s, clerk, `posted 2026-12-08`, "posted")
	if got, want := home(clerk),
		"regular meeting 2026-12-08, 3 items; agenda posted Fri 4 Dec 2026 10:30 CST."; !strings.Contains(got, want) {
		t.Errorf("after the posting, the desk lacks %q:\n%s", want, got)
	}
	if got := home("U_COMM2"); !strings.Contains(got, "regular meeting 2026-12-08, 2 items") ||
		strings.Contains(got, "2026-001") {
		t.Errorf("the recused commissioner's desk:\n%s", got)
	}
}

// TestScheduleAdoptedByAVote: the commission adopts next year's schedule of regular
// meetings by a vote on an item of the posted agenda (5 ILCS 120/2.03, 2.02(c)); the record
// keeps the dates, time and place configured for that year; a year with no dates
// configured is refused, naming 2.03.
func TestScheduleAdoptedByAVote(t *testing.T) {
	s, clk, db := MustService(t)
	withRegular(t, s, docket.NewDate(2026, 12, 15), docket.NewDate(2027, 1, 12), docket.NewDate(2027, 2, 9))
	mustDo(t, s, clerk, `agenda 2026-12-15 add "Adoption of the 2027 schedule of regular meetings"`, "item added")
	mustDo(t, s, clerk, `posted 2026-12-15`, "notice and agenda posted")
	clk.now = time.Date(2026, 12, 16, 0, 5, 0, 0, time.UTC) // Tue 15 Dec 18:05 CST
	mustDo(t, s, clerk, `convene 2026-12-15 present=U_COMM1,U_COMM2`, "A quorum is present")
	if got := replyText(do(s, clerk, `minutes 2026-12-15 adopted-schedule item=1 year=2027`)); !strings.Contains(got,
		"no motion is recorded on item 1") || !strings.Contains(got, "5 ILCS 120/2.03") {
		t.Errorf("an adoption before the vote: %s", got)
	}
	mustDo(t, s, clerk, `minutes 2026-12-15 motion item=1 "To adopt the schedule of regular meetings for 2027"`,
		"adopted 2–0")
	if got := replyText(do(s, clerk, `minutes 2026-12-15 adopted-schedule item=1 year=2028`)); !strings.Contains(got,
		"5 ILCS 120/2.03") {
		t.Errorf("an adoption of a year not configured: %s", got)
	}
	if got := replyText(do(s, clerk, `minutes 2026-12-15 adopted-schedule item=1 year=2027 2028`)); !strings.Contains(
		got, `adopted-schedule takes no text ("2028")`) || !strings.Contains(got, "5 ILCS 120/2.03") {
		t.Errorf("an adoption with stray text: %s", got)
	}
	mustDo(t, s, clerk, `minutes 2026-12-15 adopted-schedule item=1 year=2027`,
		"the commission's adoption of its schedule of regular meetings for 2027 recorded (5 ILCS 120/2.03): 2 regular meetings")
	ms, err := db.Meetings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	a, ok := docket.ScheduleAdopted(ms, 2027)
	if !ok || len(a.Dates) != 2 || a.Dates[0] != docket.NewDate(2027, 1, 12) || a.Place != "City Hall, Council Chambers" {
		t.Errorf("the adoption recorded: %+v %v", a, ok)
	}
}
