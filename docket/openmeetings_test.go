package docket_test

import (
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
)

// chicago is the commission's zone in these tests.
func chicago(t *testing.T) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("America/Chicago")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// wantRule checks that err is a *docket.Error of code naming rule, or nil when rule is "".
func wantRule(t *testing.T, what string, err error, code, rule string) {
	t.Helper()
	if rule == "" {
		if err != nil {
			t.Errorf("%s: %v, want no error", what, err)
		}
		return
	}
	if err == nil {
		t.Errorf("%s: no error, want %s (rule %s)", what, code, rule)
		return
	}
	if docket.ErrorCode(err) != code || !strings.Contains(docket.ErrorMessage(err), "(rule "+rule+")") {
		t.Errorf("%s: %q (%s), want %s naming rule %s", what, docket.ErrorMessage(err), docket.ErrorCode(err), code, rule)
	}
}

// 5 ILCS 120/2.02: the agenda stands as posted from 48 hours before the meeting.
func TestCheckAgendaChange(t *testing.T) {
	loc := chicago(t)
	at := func(s string) time.Time {
		v, err := time.ParseInLocation("2006-01-02 15:04", s, loc)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		start, now string
		rule       string
	}{
		// Tue 12 Jan 2027 18:00 CST: the cutoff is Sun 10 Jan 18:00 CST.
		{"2027-01-12 18:00", "2027-01-10 17:59", ""},
		{"2027-01-12 18:00", "2027-01-10 18:00", docket.OMANotice},
		{"2027-01-12 18:00", "2027-01-12 17:00", docket.OMANotice},
		{"2027-01-12 18:00", "2027-01-12 18:00", docket.OMANotice}, // begun
		{"2027-01-12 18:00", "2027-01-13 09:00", docket.OMANotice}, // past
		// Mon 15 Mar 2027 18:00 CDT, the day after clocks go forward: 48 elapsed hours
		// before it is Sat 13 Mar 17:00 CST, not 18:00.
		{"2027-03-15 18:00", "2027-03-13 16:59", ""},
		{"2027-03-15 18:00", "2027-03-13 17:00", docket.OMANotice},
		// Mon 8 Nov 2027 18:00 CST, the day after clocks go back: Sat 6 Nov 19:00 CDT.
		{"2027-11-08 18:00", "2027-11-06 18:59", ""},
		{"2027-11-08 18:00", "2027-11-06 19:00", docket.OMANotice},
	} {
		err := docket.CheckAgendaChange(at(tc.start), at(tc.now), nil, "adding an item", docket.AdviseLaterMeeting)
		wantRule(t, tc.start+" at "+tc.now, err, docket.ECONFLICT, tc.rule)
	}
	if err := docket.CheckAgendaChange(at("2027-01-12 18:00"), at("2027-01-11 09:00"), nil, "closing item 4 to the public",
		docket.AdviseLaterMeeting); !strings.Contains(docket.ErrorMessage(err), "Sun 10 Jan 18:00 CST") ||
		!strings.HasPrefix(docket.ErrorMessage(err), "meeting: closing item 4") {
		t.Errorf("the refusal does not say what was refused and the cutoff: %q", docket.ErrorMessage(err))
	}
	// A start read back from the record has a fixed zone, -0600;
	// the refusal prints the commission's zone by its name.
	fixed := at("2027-01-12 18:00").In(time.FixedZone("", -6*3600))
	if msg := docket.ErrorMessage(docket.CheckAgendaChange(fixed, at("2027-01-11 09:00"), loc, "adding an item",
		docket.AdviseLaterMeeting)); !strings.Contains(msg, "Tue 12 Jan 2027 18:00 CST") ||
		!strings.Contains(msg, "Sun 10 Jan 18:00 CST") || strings.Contains(msg, "-0600") {
		t.Errorf("the refusal's zone: %q", msg)
	}
	wantRule(t, "no start",
		docket.CheckAgendaChange(time.Time{}, at("2027-01-11 09:00"), nil, "adding an item", docket.AdviseLaterMeeting),
		docket.EINVALID, docket.OMANotice)
}

func TestMinutesApprovalDue(t *testing.T) {
	cal := MustCalendar(t, docket.CalendarConfig{})
	ds := func(ss ...string) []docket.Date {
		var out []docket.Date
		for _, s := range ss {
			out = append(out, D(t, s))
		}
		return out
	}
	for _, tc := range []struct {
		name    string
		held    string
		regular []docket.Date
		due     string
		known   bool
	}{
		// Tue 12 Jan 2027 + 30 days = Thu 11 Feb; the second regular meeting after it,
		// Tue 9 Mar, is later.
		{"monthly meetings: the second one", "2027-01-12",
			ds("2026-12-08", "2027-01-12", "2027-02-09", "2027-03-09", "2027-04-13"), "2027-03-09", true},
		// Weekly meetings: the second after is Tue 26 Jan, earlier than the 30 days.
		{"weekly meetings: 30 days", "2027-01-12", ds("2027-01-26", "2027-01-19", "2027-01-19", "2027-02-02"),
			"2027-02-11", true},
		// Wed 13 Jan + 30 = Fri 12 Feb, Lincoln's Birthday; Sat, Sun; Mon 15 Feb is
		// Presidents' Day (the third Monday: 1, 8, 15): Tue 16 Feb (5 ILCS 70/1.11).
		{"rolled past two holidays", "2027-01-13", ds("2027-01-20", "2027-01-27"), "2027-02-16", true},
		// Only one regular meeting after it is scheduled: the 30-day mark, not known final.
		{"schedule too short", "2027-01-12", ds("2027-02-09"), "2027-02-11", false},
		{"no schedule", "2027-01-12", nil, "2027-02-11", false},
	} {
		due, known := cal.MinutesApprovalDue(D(t, tc.held), tc.regular)
		if due != D(t, tc.due) || known != tc.known {
			t.Errorf("%s: MinutesApprovalDue(%s) = %s, %v; want %s, %v", tc.name, tc.held, due, known, tc.due, tc.known)
		}
	}
}

func TestMinutesPublicDue(t *testing.T) {
	cal := MustCalendar(t, docket.CalendarConfig{})
	for approved, want := range map[string]string{
		"2027-03-09": "2027-03-19", // Tue + 10 = Fri 19 Mar
		"2027-06-09": "2027-06-21", // + 10 = Sat 19 Jun, Juneteenth: Sun, then Mon 21 Jun
		"2027-12-22": "2028-01-03", // + 10 = Sat 1 Jan 2028, New Year's Day: Sun 2, Mon 3 Jan
	} {
		if got := cal.MinutesPublicDue(D(t, approved)); got != D(t, want) {
			t.Errorf("MinutesPublicDue(%s) = %s, want %s", approved, got, want)
		}
	}
}

func TestAddMonths(t *testing.T) {
	for _, tc := range []struct {
		from string
		n    int
		want string
	}{
		{"2027-01-12", 18, "2028-07-12"},
		{"2026-08-31", 18, "2028-02-29"}, // a leap February
		{"2027-08-31", 18, "2029-02-28"},
		{"2027-08-31", 6, "2028-02-29"},
		{"2027-03-31", 6, "2027-09-30"},
		{"2027-12-15", 1, "2028-01-15"},
		{"2027-01-31", -2, "2026-11-30"},
	} {
		if got := D(t, tc.from).AddMonths(tc.n); got != D(t, tc.want) {
			t.Errorf("%s.AddMonths(%d) = %s, want %s", tc.from, tc.n, got, tc.want)
		}
	}
}

// 5 ILCS 120/2.06(c): 18 months after the meeting, once the closed minutes are approved,
// and once the commission approves destroying that recording.
func TestRecordingDestruction(t *testing.T) {
	for _, tc := range []struct {
		held, approved, want string
		ok                   bool
	}{
		{"2027-01-12", "2027-02-09", "2028-07-13", true}, // the day after the 18 months
		{"2027-01-12", "2028-09-01", "2028-09-01", true}, // minutes approved late: not before them
		{"2026-08-31", "2026-09-15", "2028-03-01", true},
		{"2027-01-12", "", "", false},
	} {
		var approved docket.Date
		if tc.approved != "" {
			approved = D(t, tc.approved)
		}
		got, ok := docket.RecordingDestroyable(D(t, tc.held), approved)
		var want docket.Date
		if tc.want != "" {
			want = D(t, tc.want)
		}
		if got != want || ok != tc.ok {
			t.Errorf("RecordingDestroyable(%s, %q) = %s, %v; want %s, %v", tc.held, tc.approved, got, ok, tc.want, tc.ok)
		}
	}
	held, minutes := D(t, "2027-01-12"), D(t, "2027-02-09")
	for _, tc := range []struct {
		name                     string
		minutes, approved, today docket.Date
		rule                     string
	}{
		{"all met", minutes, D(t, "2028-07-11"), D(t, "2028-07-13"), ""},
		{"on the anniversary", minutes, D(t, "2028-07-11"), D(t, "2028-07-12"), docket.OMARecording},
		{"minutes not approved", 0, D(t, "2028-07-11"), D(t, "2029-01-01"), docket.OMARecording},
		{"destruction not approved", minutes, 0, D(t, "2029-01-01"), docket.OMARecording},
		{"destruction approved later", minutes, D(t, "2029-02-01"), D(t, "2029-01-01"), docket.OMARecording},
	} {
		wantRule(t, tc.name, docket.CheckRecordingDestruction(held, tc.minutes, tc.approved, tc.today),
			docket.ECONFLICT, tc.rule)
	}
}

// 5 ILCS 120/2.06(d): no less than semi-annually.
func TestClosedMinutesReviewDue(t *testing.T) {
	for _, tc := range []struct{ last, first, want string }{
		{"2027-01-12", "2026-12-08", "2027-07-12"},
		{"", "2027-08-31", "2028-02-29"},
		{"2027-03-31", "", "2027-09-30"},
		{"", "", ""},
	} {
		var last, first docket.Date
		if tc.last != "" {
			last = D(t, tc.last)
		}
		if tc.first != "" {
			first = D(t, tc.first)
		}
		if got := docket.ClosedMinutesReviewDue(last, first); got.String() != tc.want {
			t.Errorf("ClosedMinutesReviewDue(%q, %q) = %s, want %s", tc.last, tc.first, got, tc.want)
		}
	}
}

// 5 ILCS 120/2(e): no final action in closed session.
func TestCheckOpenForAction(t *testing.T) {
	for _, tc := range []struct {
		kind    string
		session int
		rule    string
	}{
		{docket.Rule{}.Kind(), 1, docket.OMAFinal},
		{docket.Decide{}.Kind(), 2, docket.OMAFinal},
		{docket.IssueFinal{}.Kind(), 1, docket.OMAFinal},
		{docket.FindFrivolous{}.Kind(), 1, docket.OMAFinal},
		{docket.Rule{}.Kind(), 0, ""},
		{docket.Decide{}.Kind(), 0, ""},
		{docket.Recuse{}.Kind(), 1, ""}, // not final action
	} {
		wantRule(t, tc.kind, docket.CheckOpenForAction(tc.kind, tc.session), docket.ECONFLICT, tc.rule)
	}
}

func TestParseException(t *testing.T) {
	for in, want := range map[string]string{
		"5 ILCS 120/2(c)(4)":   "5 ILCS 120/2(c)(4)",
		"(c)(4)":               "5 ILCS 120/2(c)(4)",
		" 2(c)(21) ":           "5 ILCS 120/2(c)(21)",
		"5 ILCS 120/2 (c) (1)": "5 ILCS 120/2(c)(1)",
		"(c)(0)":               "",
		"(c)(99)":              "",
		"2(e)":                 "",
		"personnel":            "",
		"":                     "",
	} {
		got, err := docket.ParseException(in)
		if got != want || (err == nil) != (want != "") {
			t.Errorf("ParseException(%q) = %q, %v; want %q", in, got, err, want)
		}
		if err != nil {
			wantRule(t, in, err, docket.EINVALID, docket.OMAClose)
		}
	}
	if w := docket.ExceptionWords("5 ILCS 120/2(c)(4)"); !strings.Contains(w, "quasi-adjudicative") {
		t.Errorf("ExceptionWords((c)(4)) = %q", w)
	}
}

// 5 ILCS 120/2a: a roll call in open session, a majority of a quorum present.
func TestCheckCloseVote(t *testing.T) {
	seated := []string{"U1", "U2", "U3", "U4", "U5"}
	vote := func(yes, no, abstain []string) *docket.Vote {
		return &docket.Vote{Seated: seated, Yes: yes, No: no, Abstain: abstain, Quorum: 3, Carry: docket.MajorityOfVotesCast}
	}
	for _, tc := range []struct {
		name    string
		v       *docket.Vote
		exc     string
		session int
		code    string
		rule    string
	}{
		{"carried", vote([]string{"U1", "U2"}, []string{"U3"}, nil), "(c)(4)", 0, "", ""},
		// 2 yes, 1 no, 1 abstaining: a majority of votes cast, not of the members present.
		{"abstention counts", vote([]string{"U1", "U2"}, []string{"U3"}, []string{"U4"}), "(c)(4)", 0, docket.ECONFLICT,
			docket.OMAClose},
		{"no quorum", vote([]string{"U1", "U2"}, nil, nil), "(c)(4)", 0, docket.ECONFLICT, docket.OMAClose},
		{"no exception", vote([]string{"U1", "U2", "U3"}, nil, nil), "personnel", 0, docket.EINVALID, docket.OMAClose},
		{"no roll call", nil, "(c)(4)", 0, docket.EINVALID, docket.OMAClose},
		{"already closed", vote([]string{"U1", "U2", "U3"}, nil, nil), "(c)(4)", 1, docket.ECONFLICT, docket.OMAClose},
	} {
		wantRule(t, tc.name, docket.CheckCloseVote(tc.v, tc.exc, tc.session), tc.code, tc.rule)
	}
}

// The roll at an instant, the quorum physically present (5 ILCS 120/2.01), and the
// closed session the meeting is in.
func TestMinutesRecordAt(t *testing.T) {
	loc := chicago(t)
	at := func(hm string) time.Time {
		v, _ := time.ParseInLocation("2006-01-02 15:04", "2027-01-12 "+hm, loc)
		return v
	}
	r := docket.MinutesRecord{
		Seated:   []string{"U1", "U2", "U3", "U4", "U5"},
		Quorum:   3,
		Convened: at("18:00"),
		Present:  []string{"U3", "U1", "U5"},
		Absent:   []string{"U2"},
		Remote:   []string{"U5"},
		Arrived:  []docket.Movement{{Member: "U4", At: at("18:20")}},
		Left:     []docket.Movement{{Member: "U1", At: at("19:00")}},
		Sessions: []docket.ClosedSession{{Exception: "5 ILCS 120/2(c)(4)", Entered: at("18:30"), Returned: at("18:50")}},
	}
	for _, tc := range []struct {
		hm      string
		present string
		quorum  bool
		session int
	}{
		{"18:00", "U1 U3 U5", false, 0}, // U5 is present by conference: 2 physically present
		{"18:20", "U1 U3 U4 U5", true, 0},
		{"18:30", "U1 U3 U4 U5", true, 1},
		{"18:50", "U1 U3 U4 U5", true, 0},
		{"19:00", "U3 U4 U5", false, 0},
	} {
		if got := strings.Join(r.PresentAt(at(tc.hm)), " "); got != tc.present {
			t.Errorf("PresentAt(%s) = %s, want %s", tc.hm, got, tc.present)
		}
		err := r.QuorumAt(at(tc.hm))
		if (err == nil) != tc.quorum {
			t.Errorf("QuorumAt(%s) = %v, want quorum %v", tc.hm, err, tc.quorum)
		}
		if err != nil {
			wantRule(t, "QuorumAt "+tc.hm, err, docket.ECONFLICT, docket.OMAQuorum)
		}
		if got := r.SessionAt(at(tc.hm)); got != tc.session {
			t.Errorf("SessionAt(%s) = %d, want %d", tc.hm, got, tc.session)
		}
	}
}
