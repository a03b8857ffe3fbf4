package docket_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
)

// meetingAt creates meeting name at start, failing on a refusal.
func meetingAt(t *testing.T, e *docket.Engine, name, start, at string) docket.CommissionMeeting {
	t.Helper()
	m, err := e.ApplyMeeting(docket.CommissionMeeting{},
		docket.CreateMeeting{Name: name, Start: T(t, start), Place: "City Hall, Room 201"}, T(t, at))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestAgendaClosesFortyEightHoursAhead: an item may not be added, nor an open item
// closed, within 48 hours before the meeting, and the refusal cites 5 ILCS 120/2.02.
func TestAgendaClosesFortyEightHoursAhead(t *testing.T) {
	e := MustEngine(t)
	m := meetingAt(t, e, "2027-01-12", "2027-01-12T17:00:00-06:00", "2027-01-02T09:00:00-06:00")
	m, err := e.ApplyMeeting(m, docket.AddItem{Item: docket.BusinessItem, Text: "Election of a chair"},
		T(t, "2027-01-10T16:59:00-06:00"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		a    docket.MeetingAction
	}{
		{"ErrAddLate", docket.AddItem{Item: docket.MinutesItem, Text: "2026-12-08"}},
		{"ErrCloseLate", docket.CloseItem{Item: 1, Authority: "5 ILCS 120/2(c)(1)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.ApplyMeeting(m, tc.a, T(t, "2027-01-10T17:01:00-06:00"))
			if de, ok := err.(*docket.Error); !ok || de.Rule != docket.OMANotice || de.Code != docket.ECONFLICT {
				t.Fatalf("late %s = %v, want a conflict citing %s", tc.a.Kind(), err, docket.OMANotice)
			}
		})
	}
	if got := len(m.Items); got != 1 {
		t.Fatalf("items = %d, want 1", got)
	}
	m, err = e.ApplyMeeting(m, docket.CloseItem{Item: 1, Authority: "5 ILCS 120/2(c)(1)"},
		T(t, "2027-01-10T16:00:00-06:00"))
	if err != nil {
		t.Fatal(err)
	}
	if it := m.Items[0]; !it.Closed || !strings.Contains(it.Title(), "closed session, 5 ILCS 120/2(c)(1)") {
		t.Errorf("closed item = %+v (%q)", it, it.Title())
	}
	if _, err := e.ApplyMeeting(m, docket.CloseItem{Item: 1, Authority: ""},
		T(t, "2027-01-04T16:00:00-06:00")); err == nil {
		t.Error("closing an item without its exception was accepted")
	}
}

// TestPostingOnceAndAmended: the agenda is posted once for all its items; a change after
// the posting makes it unposted until it is posted again, marked amended.
func TestPostingOnceAndAmended(t *testing.T) {
	e := MustEngine(t)
	m := meetingAt(t, e, "2027-01-12", "2027-01-12T17:00:00-06:00", "2027-01-02T09:00:00-06:00")
	// A meeting with no items has no agenda to post (5 ILCS 120/2.02(a), (c)).
	_, err := e.ApplyMeeting(m, docket.PostAgenda{}, T(t, "2027-01-05T09:00:00-06:00"))
	if de, ok := err.(*docket.Error); !ok || de.Rule != docket.OMANotice || !strings.Contains(de.Error(), "no items") {
		t.Errorf("posting an empty agenda = %v, want a refusal citing %s", err, docket.OMANotice)
	}
	m, err = e.ApplyMeeting(m, docket.AddItem{Item: docket.PublicComment}, T(t, "2027-01-04T09:00:00-06:00"))
	if err != nil {
		t.Fatal(err)
	}
	m, err = e.ApplyMeeting(m, docket.PostAgenda{}, T(t, "2027-01-05T09:00:00-06:00"))
	if err != nil || m.Posted().IsZero() || m.Amended() {
		t.Fatalf("posted = %v, amended %v, err %v", m.Posted(), m.Amended(), err)
	}
	if _, err := e.ApplyMeeting(m, docket.PostAgenda{}, T(t, "2027-01-05T10:00:00-06:00")); err == nil {
		t.Error("a second posting of the same agenda was accepted")
	}
	m, err = e.ApplyMeeting(m, docket.AddItem{Item: docket.PublicComment}, T(t, "2027-01-06T09:00:00-06:00"))
	if err != nil || !m.Posted().IsZero() || !m.Amended() {
		t.Fatalf("after a change: posted = %v, amended %v, err %v", m.Posted(), m.Amended(), err)
	}
	if !m.Doc().Posted.IsZero() {
		t.Errorf("the changed agenda's document is dated by the earlier posting, %v", m.Doc().Posted)
	}
	m, err = e.ApplyMeeting(m, docket.PostAgenda{}, T(t, "2027-01-06T10:00:00-06:00"))
	if err != nil || m.Posted().IsZero() || !m.Postings[1].Amended {
		t.Fatalf("re-posting: %+v, err %v", m.Postings, err)
	}
	if !m.Doc().Posted.Equal(T(t, "2027-01-06T10:00:00-06:00")) {
		t.Errorf("the agenda document is dated %v, want its posting", m.Doc().Posted)
	}
}

// TestFoldMergesCasesAtOneMeeting: the per-case meetings of several cases at one start and
// place are one meeting with several items; a second meeting that day is
// named with a b; a recorded meeting keeps its name and takes the steps at its start and
// place.
func TestFoldMergesCasesAtOneMeeting(t *testing.T) {
	e := MustEngine(t)
	var cases []*docket.Case
	for i, when := range []string{"2026-12-10T17:00:00-06:00", "2026-12-10T17:00:00-06:00", "2026-12-10T19:00:00-06:00"} {
		c := apply(t, e, []step{
			{at: "2026-12-04T10:00:00-06:00", action: filing, state: docket.StateReceived},
			{at: "2026-12-04T11:00:00-06:00",
				action: docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, when), Place: "City Hall, Room 201"},
				state:  docket.StateReceived},
		})
		c.Number = []string{"2026-001", "2026-002", "2026-003"}[i]
		cases = append(cases, &c)
	}
	ms := e.Fold(nil, cases)
	if len(ms) != 2 {
		t.Fatalf("fold = %d meetings, want 2", len(ms))
	}
	if ms[0].Name != "2026-12-10" || len(ms[0].Cases) != 2 || !ms[0].Folded || ms[1].Name != "2026-12-10b" ||
		len(ms[1].Cases) != 1 {
		t.Fatalf("fold = %s (%d items), %s (%d items)", ms[0].Name, len(ms[0].Cases), ms[1].Name, len(ms[1].Cases))
	}
	// A recorded meeting at 19:00 takes that name first; the folded one at 17:00 is b.
	rec := meetingAt(t, e, "2026-12-10", "2026-12-10T19:00:00-06:00", "2026-12-04T09:00:00-06:00")
	ms = e.Fold([]docket.CommissionMeeting{rec}, cases)
	if ms[0].Name != "2026-12-10b" || len(ms[0].Cases) != 2 || ms[1].Name != "2026-12-10" || ms[1].Folded ||
		len(ms[1].Cases) != 1 {
		t.Fatalf("fold with a record = %s (%d), %s (%d)", ms[0].Name, len(ms[0].Cases), ms[1].Name, len(ms[1].Cases))
	}
	if got := docket.HoldsItem(ms, "2026-003", docket.SufficiencyMeeting); got == nil || got.Name != "2026-12-10" {
		t.Errorf("HoldsItem = %v", got)
	}
}

// TestFoldingOneCaseAtATime: a Folding fed one case at a time, each case's value reused
// for the next as a reader of the record does, gives the meetings Fold gives: it keeps the
// steps scheduled, not the cases.
func TestFoldingOneCaseAtATime(t *testing.T) {
	e := MustEngine(t)
	var cases []*docket.Case
	for i, when := range []string{"2026-12-10T17:00:00-06:00", "2026-12-10T17:00:00-06:00", "2026-12-10T19:00:00-06:00",
		"2026-12-11T17:00:00-06:00"} {
		c := apply(t, e, []step{
			{at: "2026-12-04T10:00:00-06:00", action: filing, state: docket.StateReceived},
			{at: "2026-12-04T11:00:00-06:00",
				action: docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, when), Place: "City Hall, Room 201"},
				state:  docket.StateReceived},
		})
		c.Number = fmt.Sprintf("2026-%03d", i+1)
		cases = append(cases, &c)
	}
	rec := meetingAt(t, e, "2026-12-10", "2026-12-10T19:00:00-06:00", "2026-12-04T09:00:00-06:00")
	want := e.Fold([]docket.CommissionMeeting{rec}, cases)
	f := e.NewFolding([]docket.CommissionMeeting{rec})
	var reused docket.Case
	for _, c := range cases {
		reused = *c
		f.Add(&reused)
	}
	reused = docket.Case{Number: "2099-999"}
	if got := f.Meetings(); !reflect.DeepEqual(got, want) {
		t.Errorf("one case at a time:\n%+v\nFold:\n%+v", got, want)
	}
}

// TestFoldNamesADayOnce: folding many meetings of one day tries each name of the day once,
// not every name again for each meeting (a day of n meetings made n² names).
func TestFoldNamesADayOnce(t *testing.T) {
	e := MustEngine(t)
	base := apply(t, e, []step{{at: "2026-12-04T10:00:00-06:00", action: filing, state: docket.StateReceived}})
	const n = 200
	cases := make([]*docket.Case, n)
	for i := range cases {
		c := base
		c.Number = fmt.Sprintf("2026-%03d", i+1)
		c.Sufficiency = docket.Meeting{Start: T(t, "2026-12-10T09:00:00-06:00").Add(time.Duration(i) * time.Minute),
			Place: "City Hall", ScheduledAt: T(t, "2026-12-04T11:00:00-06:00")}
		cases[i] = &c
	}
	ms := e.Fold(nil, cases)
	if len(ms) != n || ms[0].Name != "2026-12-10" || ms[1].Name != "2026-12-10b" || ms[25].Name != "2026-12-10z" {
		t.Fatalf("fold = %d meetings, named %s, %s, ..., %s", len(ms), ms[0].Name, ms[1].Name, ms[25].Name)
	}
	allocs := testing.AllocsPerRun(5, func() { e.Fold(nil, cases) })
	// About a dozen a meeting (its item, its posting, the maps and slices growing); trying
	// every earlier name again for each meeting makes n²/2, 20,000 here.
	if allocs > 20*n {
		t.Errorf("folding %d meetings of one day made %.0f allocations", n, allocs)
	}
}

// TestMeetingAsItHappens: the call to order records the roll; the vote to close is a roll
// call in open session with a majority of those present (2a); the meeting adjourns only in
// open session; a final action is refused while closed (2(e)).
func TestMeetingAsItHappens(t *testing.T) {
	e := MustEngine(t)
	m := meetingAt(t, e, "2027-01-12", "2027-01-12T17:00:00-06:00", "2027-01-02T09:00:00-06:00")
	m, err := e.ApplyMeeting(m,
		docket.AddItem{Item: docket.BusinessItem, Text: "Evaluation of the executive director", Authority: "(c)(1)"},
		T(t, "2027-01-03T09:00:00-06:00"))
	if err != nil || m.Items[0].Authority != "5 ILCS 120/2(c)(1)" {
		t.Fatalf("the exception as cited: %+v, %v", m.Items, err)
	}
	if m, err = e.ApplyMeeting(m, docket.PostAgenda{}, T(t, "2027-01-03T10:00:00-06:00")); err != nil {
		t.Fatal(err)
	}
	seated := []string{"U_A", "U_B", "U_C"}
	if _, err := e.ApplyMeeting(m, docket.Convene{Seated: seated, Quorum: 2, Present: []string{"U_A"}},
		T(t, "2027-01-12T16:59:00-06:00")); err == nil {
		t.Error("a call to order before the noticed start was accepted")
	}
	m, err = e.ApplyMeeting(m, docket.Convene{Seated: seated, Quorum: 2, Present: []string{"U_A", "U_B"}},
		T(t, "2027-01-12T17:01:00-06:00"))
	if err != nil || len(m.Minutes.Absent) != 1 || m.Minutes.QuorumAt(T(t, "2027-01-12T17:01:00-06:00")) != nil {
		t.Fatalf("convened: %+v, %v", m.Minutes, err)
	}
	split := &docket.Vote{Seated: seated, Yes: []string{"U_A"}, No: []string{"U_B"}, Absent: []string{"U_C"}, Quorum: 2,
		Carry: docket.MajorityOfVotesCast}
	if _, err := e.ApplyMeeting(m, docket.EnterClosed{Item: 1, Vote: split},
		T(t, "2027-01-12T17:05:00-06:00")); err == nil || docket.ErrorCode(err) != docket.ECONFLICT {
		t.Errorf("closing on a tied vote: %v", err)
	}
	yes := &docket.Vote{Seated: seated, Yes: []string{"U_A", "U_B"}, Absent: []string{"U_C"}, Quorum: 2,
		Carry: docket.MajorityOfVotesCast}
	m, err = e.ApplyMeeting(m, docket.EnterClosed{Item: 1, Vote: yes}, T(t, "2027-01-12T17:05:00-06:00"))
	if err != nil || m.Minutes.SessionAt(T(t, "2027-01-12T17:06:00-06:00")) != 1 {
		t.Fatalf("closed session: %v", err)
	}
	if err := docket.CheckOpenForAction(docket.Rule{}.Kind(),
		m.Minutes.SessionAt(T(t, "2027-01-12T17:06:00-06:00"))); err == nil {
		t.Error("a ruling in closed session was allowed")
	}
	if _, err := e.ApplyMeeting(m, docket.Adjourn{}, T(t, "2027-01-12T17:10:00-06:00")); err == nil {
		t.Error("adjourned in closed session")
	}
	m, err = e.ApplyMeeting(m, docket.ReturnToOpen{}, T(t, "2027-01-12T17:20:00-06:00"))
	if err != nil {
		t.Fatal(err)
	}
	if m, err = e.ApplyMeeting(m, docket.Adjourn{}, T(t, "2027-01-12T17:30:00-06:00")); err != nil ||
		m.Minutes.Adjourned.IsZero() {
		t.Fatalf("adjourn: %v", err)
	}
	if err := m.Minutes.Check(); err != nil {
		t.Errorf("the record its minutes are drafted from: %v", err)
	}
}

// TestFoldNamesACollision: two recorded meetings at one start and
// place (a record from before moves were checked) do not hand the case steps there to the
// later one silently: they stay with the first, and CheckCollisions names both.
func TestFoldNamesACollision(t *testing.T) {
	e := MustEngine(t)
	c := apply(t, e, []step{
		{at: "2026-12-04T10:00:00-06:00", action: filing, state: docket.StateReceived},
		{at: "2026-12-04T11:00:00-06:00",
			action: docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-10T17:00:00-06:00"),
				Place: "City Hall, Room 201"}, state: docket.StateReceived},
	})
	c.Number = "2026-001"
	first := meetingAt(t, e, "2026-12-10", "2026-12-10T17:00:00-06:00", "2026-12-04T09:00:00-06:00")
	second := meetingAt(t, e, "2026-12-10b", "2026-12-10T17:00:00-06:00", "2026-12-04T09:30:00-06:00")
	ms := e.Fold([]docket.CommissionMeeting{first, second}, []*docket.Case{&c})
	if len(ms) != 2 || len(ms[0].Cases) != 1 || len(ms[1].Cases) != 0 {
		t.Fatalf("fold = %s (%d items), %s (%d items)", ms[0].Name, len(ms[0].Cases), ms[1].Name, len(ms[1].Cases))
	}
	err := e.CheckCollisions(ms, "")
	if err == nil || !strings.Contains(docket.ErrorMessage(err), "meetings 2026-12-10 and 2026-12-10b are both at") {
		t.Errorf("collision: %v", err)
	}
	if err := e.CheckCollisions(e.Fold([]docket.CommissionMeeting{first}, []*docket.Case{&c}), ""); err != nil {
		t.Errorf("one meeting: %v", err)
	}
}

// TestConveneNeedsNoticeOMA202: a meeting whose notice and agenda were not posted 48
// hours ahead is not called to order, so no closed session is entered nor action taken at
// it (5 ILCS 120/2.02(a)); the refusal gives the ways forward. An emergency meeting is,
// recorded with the nature of the emergency.
func TestConveneNeedsNoticeOMA202(t *testing.T) {
	e := MustEngine(t)
	seated := []string{"U_A", "U_B", "U_C"}
	convene := docket.Convene{Seated: seated, Quorum: 2, Present: []string{"U_A", "U_B"}}
	m := meetingAt(t, e, "2027-01-12", "2027-01-12T17:00:00-06:00", "2027-01-02T09:00:00-06:00")
	m, err := e.ApplyMeeting(m, docket.AddItem{Item: docket.BusinessItem, Text: "The budget"},
		T(t, "2027-01-03T09:00:00-06:00"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.ApplyMeeting(m, convene, T(t, "2027-01-12T17:01:00-06:00"))
	wantRule(t, "never noticed", err, docket.ECONFLICT, docket.OMANotice)
	if msg := docket.ErrorMessage(err); !strings.Contains(msg, "emergency=") || !strings.Contains(msg, "Hold it later") {
		t.Errorf("the refusal gives no way forward: %s", msg)
	}
	late, err := e.ApplyMeeting(m, docket.PostAgenda{}, T(t, "2027-01-10T17:01:00-06:00"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.ApplyMeeting(late, convene, T(t, "2027-01-12T17:01:00-06:00"))
	wantRule(t, "noticed a minute short of 48 hours", err, docket.ECONFLICT, docket.OMANotice)

	emergency := convene
	emergency.Emergency = "a water main broke under City Hall"
	held, err := e.ApplyMeeting(late, emergency, T(t, "2027-01-12T17:01:00-06:00"))
	if err != nil || held.Minutes.Emergency != emergency.Emergency {
		t.Errorf("an emergency meeting: %v, %q", err, held.Minutes.Emergency)
	}
	onTime, err := e.ApplyMeeting(m, docket.PostAgenda{}, T(t, "2027-01-10T17:00:00-06:00"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.ApplyMeeting(onTime, convene, T(t, "2027-01-12T17:01:00-06:00")); err != nil {
		t.Errorf("a meeting noticed exactly 48 hours ahead: %v", err)
	}
}

// TestIndexMeetingsFindsWhatMeetingAtFinds: the board's lookup by a map gives, for each
// start and place, the meeting MeetingAt's walk gives: the first not cancelled, or none.
func TestIndexMeetingsFindsWhatMeetingAtFinds(t *testing.T) {
	at := T(t, "2027-01-12T17:00:00-06:00")
	ms := []docket.CommissionMeeting{
		{Name: "2027-01-12", Start: at, Place: "City Hall", Cancelled: T(t, "2027-01-05T09:00:00-06:00")},
		{Name: "2027-01-12b", Start: at, Place: "City Hall"},
		{Name: "2027-01-12c", Start: at, Place: "City Hall"},
		{Name: "2027-01-12d", Start: at, Place: "Library"},
	}
	find := docket.IndexMeetings(ms)
	for _, q := range []struct {
		start time.Time
		place string
	}{{at, "City Hall"}, {at, "Library"}, {at, "Annex"}, {at.Add(time.Hour), "City Hall"},
		{at.In(time.UTC), "Library"}} {
		got, want := find(q.start, q.place), docket.MeetingAt(ms, q.start, q.place)
		if got != want {
			t.Errorf("%v %s: index %v, walk %v", q.start, q.place, got, want)
		}
	}
}

// TestMovedMeetingNoticedAfterTheMove: a moved meeting is noticed again (5 ILCS
// 120/2.02(a)); a posting recorded before the move, even at the same instant, gave the old
// time and does not count; one after it does.
func TestMovedMeetingNoticedAfterTheMove(t *testing.T) {
	e := MustEngine(t)
	at := T(t, "2027-01-04T09:00:00-06:00")
	m := meetingAt(t, e, "2027-01-12", "2027-01-12T17:00:00-06:00", "2027-01-04T08:00:00-06:00")
	var err error
	for _, a := range []docket.MeetingAction{docket.AddItem{Item: docket.BusinessItem, Text: "Election of a chair"},
		docket.PostAgenda{}, docket.MoveMeeting{Start: T(t, "2027-01-11T17:00:00-06:00"), Place: "City Hall"}} {
		if m, err = e.ApplyMeeting(m, a, at); err != nil {
			t.Fatalf("%s: %v", a.Kind(), err)
		}
	}
	if m.NoticedInTime() {
		t.Error("a posting made before the move, at the same instant, notices the moved meeting")
	}
	if m, err = e.ApplyMeeting(m, docket.PostAgenda{}, at); err != nil {
		t.Fatal(err)
	}
	if !m.NoticedInTime() {
		t.Error("a posting after the move, 7 days ahead, does not notice the moved meeting")
	}
}
