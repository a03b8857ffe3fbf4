package docket_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
)

func TestMeetingName(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want docket.MeetingName
		date string
		ok   bool
	}{
		{"2027-01-12", "2027-01-12", "2027-01-12", true},
		{" 2027-01-12b ", "2027-01-12b", "2027-01-12", true},
		{"2027-01-12z", "2027-01-12z", "2027-01-12", true},
		{"2027-01-12a", "", "", false}, // the first meeting of the day has no letter
		{"2027-01-12B", "", "", false},
		{"2027-02-30", "", "", false},
		{"2027-1-12b", "", "", false},
		{"12 Jan", "", "", false},
		{"", "", "", false},
	} {
		got, err := docket.ParseMeetingName(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseMeetingName(%q) = %q, %v; want %q, ok %v", tc.in, got, err, tc.want, tc.ok)
			continue
		}
		if err != nil && docket.ErrorCode(err) != docket.EINVALID {
			t.Errorf("ParseMeetingName(%q): error code %q, want invalid", tc.in, docket.ErrorCode(err))
		}
		if tc.ok && got.Date().String() != tc.date {
			t.Errorf("%q.Date() = %s, want %s", got, got.Date(), tc.date)
		}
	}
	for n, want := range map[int]docket.MeetingName{1: "2027-01-12", 2: "2027-01-12b", 3: "2027-01-12c",
		26: "2027-01-12z"} {
		if got, err := docket.NewMeetingName(D(t, "2027-01-12"), n); err != nil || got != want {
			t.Errorf("NewMeetingName(2027-01-12, %d) = %q, %v; want %q", n, got, err, want)
		}
		if back, err := docket.ParseMeetingName(string(want)); err != nil || back != want {
			t.Errorf("ParseMeetingName(%q) = %q, %v: not its own inverse", want, back, err)
		}
	}
	for _, n := range []int{0, 27} {
		if _, err := docket.NewMeetingName(D(t, "2027-01-12"), n); err == nil {
			t.Errorf("NewMeetingName(.., %d): no error", n)
		}
	}
}

func TestAgendaItemWords(t *testing.T) {
	for _, tc := range []struct {
		item docket.AgendaItem
		want string
	}{
		{docket.AgendaItem{Kind: docket.MinutesItem, Minutes: "2026-12-08"},
			"Approval of the minutes of the meeting of Tuesday 8 December 2026 (5 ILCS 120/2.06(b))."},
		{docket.AgendaItem{Kind: docket.MinutesItem, Minutes: "2026-12-08b"},
			"Approval of the minutes of the meeting of Tuesday 8 December 2026 (2026-12-08b) (5 ILCS 120/2.06(b))."},
		{docket.AgendaItem{Kind: docket.PublicComment}, "Public comment (5 ILCS 120/2.06(g))."},
		{docket.AgendaItem{Kind: docket.BusinessItem, Text: "@page Election of a chair"}, "@page Election of a chair"},
		// A case item says what the case's own notice said, from the same table.
		{docket.AgendaItem{Kind: docket.CaseItem, Case: "2026-001", Step: docket.SufficiencyMeeting},
			docket.CaseAgenda(docket.SufficiencyMeeting, "2026-001")[1]},
	} {
		if got := tc.item.Words(); got != tc.want {
			t.Errorf("%+v.Words() = %q, want %q", tc.item, got, tc.want)
		}
	}
}

func TestAgendaCheck(t *testing.T) {
	loc, _ := time.LoadLocation("America/Chicago")
	good := func() docket.Agenda {
		return docket.Agenda{Meeting: "2027-01-12", Start: time.Date(2027, 1, 12, 18, 0, 0, 0, loc),
			Place: "City Hall, Room 2",
			Items: []docket.AgendaItem{{Kind: docket.CallToOrder},
				{Kind: docket.CaseItem, Case: "2026-001", Step: docket.HearingMeeting, Closed: true, Exception: "(c)(4)"},
				{Kind: docket.Adjournment}}}
	}
	if err := good().Check(); err != nil {
		t.Fatalf("a good agenda: %v", err)
	}
	for name, tc := range map[string]struct {
		change func(*docket.Agenda)
		field  string
	}{
		"no place":             {func(a *docket.Agenda) { a.Place = " " }, "place"},
		"no items":             {func(a *docket.Agenda) { a.Items = nil }, "agenda"},
		"closed, no exception": {func(a *docket.Agenda) { a.Items[1].Exception = "" }, "item 2"},
		"case without a step":  {func(a *docket.Agenda) { a.Items[1].Step = "" }, "item 2"},
		"empty business":       {func(a *docket.Agenda) { a.Items[2] = docket.AgendaItem{Kind: docket.BusinessItem} }, "item 3"},
		"unknown kind":         {func(a *docket.Agenda) { a.Items[0].Kind = "recess" }, "item 1"},
		"minutes of nothing":   {func(a *docket.Agenda) { a.Items[0] = docket.AgendaItem{Kind: docket.MinutesItem} }, "item 1"},
		"bad name":             {func(a *docket.Agenda) { a.Meeting = "January" }, "meeting"},
	} {
		a := good()
		tc.change(&a)
		err := a.Check()
		var e *docket.Error
		if !errors.As(err, &e) || e.Code != docket.EINVALID || e.Field != tc.field {
			t.Errorf("%s: %v, want invalid on field %q", name, err, tc.field)
		}
	}
}

func TestMinutesRecordCheck(t *testing.T) {
	loc, _ := time.LoadLocation("America/Chicago")
	at := func(h, m int) time.Time { return time.Date(2027, 1, 12, h, m, 0, 0, loc) }
	seated := []string{"U1", "U2", "U3"}
	closeVote := &docket.Vote{Seated: seated, Yes: seated, Quorum: 2}
	good := func() docket.MinutesRecord {
		return docket.MinutesRecord{Meeting: "2027-01-12", Seated: seated, Quorum: 2, Convened: at(18, 0), Present: seated,
			Sessions: []docket.ClosedSession{{Exception: "5 ILCS 120/2(c)(4)", Motion: docket.MeetingMotion{Roll: closeVote},
				Entered: at(18, 30), Returned: at(18, 50)}},
			Entries: []docket.MinutesEntry{
				{Item: docket.AgendaItem{Kind: docket.CaseItem, Case: "2026-001", Step: docket.HearingMeeting, Closed: true},
					Session: 1},
				{Item: docket.AgendaItem{Kind: docket.CaseItem, Case: "2026-001", Step: docket.HearingMeeting},
					Motions: []docket.MeetingMotion{{At: at(18, 55), Action: docket.Decide{}.Kind(), Roll: closeVote}}},
			}}
	}
	if err := good().Check(); err != nil {
		t.Fatalf("a good record: %v", err)
	}
	// A closed item deliberated in closed session and decided after the
	// return to open session, as 5 ILCS 120/2(e) requires, is placed by the vote's time.
	resumed := good()
	resumed.Entries[0].Motions = resumed.Entries[1].Motions
	if err := resumed.Check(); err != nil {
		t.Errorf("a closed item decided after the return to open session: %v", err)
	}
	if s := resumed.MotionSession(resumed.Entries[0], resumed.Entries[0].Motions[0]); s != 0 {
		t.Errorf("a vote after the return is placed in session %d, want open (0)", s)
	}
	// A ruling recorded at the very instant the session was entered came before the entry:
	// it would have been refused after it.
	same := good()
	same.Entries[1].Motions[0].At = same.Sessions[0].Entered
	if err := same.Check(); err != nil {
		t.Errorf("a ruling at the instant of the entry into closed session: %v", err)
	}
	for name, tc := range map[string]struct {
		change func(*docket.MinutesRecord)
		rule   string
	}{
		"decided in closed session": {func(r *docket.MinutesRecord) { r.Entries[1].Motions[0].At = at(18, 40) },
			docket.OMAFinal},
		"decided on a closed entry at no recorded time": {func(r *docket.MinutesRecord) {
			r.Entries[0].Motions = []docket.MeetingMotion{{Action: docket.Decide{}.Kind(), Roll: closeVote}}
		}, docket.OMAFinal},
		"decided on a closed entry in closed session": {func(r *docket.MinutesRecord) {
			r.Entries[0].Motions = []docket.MeetingMotion{{At: at(18, 45), Action: docket.Decide{}.Kind(), Roll: closeVote}}
		}, docket.OMAFinal},
		"no such session":            {func(r *docket.MinutesRecord) { r.Entries[0].Session = 2 }, docket.OMAClose},
		"closed without a roll call": {func(r *docket.MinutesRecord) { r.Sessions[0].Motion.Roll = nil }, docket.OMAClose},
		"returned before entering": {func(r *docket.MinutesRecord) { r.Sessions[0].Returned = at(18, 10) },
			docket.OMAClose},
		"closed without the exception": {func(r *docket.MinutesRecord) { r.Sessions[0].Exception = "" }, docket.OMAClose},
		"not called to order":          {func(r *docket.MinutesRecord) { r.Convened = time.Time{} }, docket.OMAMinutes},
	} {
		r := good()
		tc.change(&r)
		if err := r.Check(); err == nil || !strings.Contains(docket.ErrorMessage(err), "(rule "+tc.rule+")") {
			t.Errorf("%s: %v, want a refusal naming %s", name, err, tc.rule)
		}
	}
}
