package reminders_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// TestPrepareRegularAgendaAndDigestByMeeting: the clerk is reminded once to prepare and
// post the agenda of a regular meeting with items, three business days before the day of
// its 48-hour mark, and not of a special meeting nor of an empty one; the morning digest
// lists the meeting once, with its count of items, instead of one line per case notice,
// until the agenda is posted. Hand-checked: the meeting is Tue 12 Jan 2027 18:00 CST, its
// 48-hour mark Sun 10 Jan 18:00; three business days before Sun 10 Jan are Fri 8, Thu 7
// and Wed 6 Jan, so the reminder is Wed 6 Jan at 09:00.
func TestPrepareRegularAgendaAndDigestByMeeting(t *testing.T) {
	w := newWorld(t)
	b := &buttons{recorder: w.rec, offered: map[string][]outbox.Action{}}
	w.deliver.Sender = b
	start := at(t, "2027-01-12 18:00")
	change := func(when time.Time, ch docket.MeetingChange) {
		t.Helper()
		if _, err := w.db.ChangeMeeting(ctx, docket.Act{By: "U_CLERK", At: when}, ch); err != nil {
			t.Fatal(err)
		}
	}
	filed := at(t, "2027-01-04 10:00")
	posted := at(t, "2027-01-08 11:00")
	var cases []string
	w.run(filed, at(t, "2027-01-12 08:00"), time.Hour, map[time.Time]func(){
		filed: func() {
			change(filed, docket.MeetingChange{Create: &docket.CreateMeeting{Start: start, Place: "City Hall"}})
			change(filed,
				docket.MeetingChange{Create: &docket.CreateMeeting{Start: at(t, "2027-01-13 18:00"), Place: "City Hall",
					Special: true}})
			change(filed,
				docket.MeetingChange{Create: &docket.CreateMeeting{Start: at(t, "2027-01-19 18:00"), Place: "City Hall"}})
			change(filed,
				docket.MeetingChange{Meeting: "2027-01-13",
					Actions: []docket.MeetingAction{docket.AddItem{Item: docket.BusinessItem, Text: "Budget"}}})
			var join []docket.CaseActions
			for range 2 {
				n := w.file(filed)
				cases = append(cases, n)
				join = append(join,
					docket.CaseActions{Number: n,
						Actions: []docket.Action{docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: start,
							Place: "City Hall"}}})
			}
			change(filed,
				docket.MeetingChange{Meeting: "2027-01-12", Cases: join,
					Actions: []docket.MeetingAction{docket.AddItem{Item: docket.BusinessItem, Text: "Election of a chair"}}})
		},
		posted: func() {
			ch := docket.MeetingChange{Meeting: "2027-01-12", Actions: []docket.MeetingAction{docket.PostAgenda{}}}
			for _, n := range cases {
				ch.Cases = append(ch.Cases,
					docket.CaseActions{Number: n, Actions: []docket.Action{docket.PostNotice{Meeting: docket.SufficiencyMeeting}}})
			}
			change(posted, ch)
		},
	})
	var prepare []string
	digests := map[string]string{}
	for _, s := range w.rec.said {
		switch {
		case strings.Contains(s.Key, "|agenda_prepare|") &&
			s.To == "@U_CLERK": // the world routes every kind to both places (everywhere)
			prepare = append(prepare, s.String()+" "+s.Text)
		case strings.Contains(s.Key, "|digest|") && s.To == "@U_CLERK":
			digests[s.When.Format("01-02")] = s.Text
		}
	}
	want := "Wed 01-06 09:00 CST @U_CLERK |agenda_prepare|2027-01-12|" + itoa(start.Unix()) + "@@U_CLERK " +
		"Agenda of the regular meeting of Tue 12 Jan 2027 18:00 CST (2027-01-12, City Hall) to be posted by Sun 10 Jan " +
		"18:00 CST, 3 items; no posting is recorded yet, rule 5 ILCS 120/2.02. " +
		"Check it with `/ethics agenda 2027-01-12`, post it at the meeting place and the principal office, then record it " +
		"once for every item: `/ethics posted 2027-01-12`."
	if len(prepare) != 1 || prepare[0] != want {
		t.Errorf("reminders to prepare the agenda:\n%s\nwant:\n%s", strings.Join(prepare, "\n"), want)
	}
	line := "• Meeting 2027-01-12 (Tue 12 Jan 18:00 CST, City Hall): agenda to be posted by Sun 10 Jan 18:00 CST, 3 " +
		"items, rule 5 ILCS 120/2.02."
	for _, day := range []string{"01-06", "01-07", "01-08"} {
		d := digests[day]
		if strings.Count(d, line) != 1 || strings.Contains(d, "public notice of the sufficiency meeting") {
			t.Errorf("the digest of %s lists the meeting other than once, or a case notice of its own:\n%s", day, d)
		}
	}
	// The meeting's line offers one button, which records the posting for every item.
	var meetingButtons []outbox.Action
	for _, a := range b.offered["|digest|daily:2027-01-07@@U_CLERK"] {
		if strings.HasPrefix(a.Label, "Meeting ") || strings.Contains(a.Label, "public notice") {
			meetingButtons = append(meetingButtons, a)
		}
	}
	if len(meetingButtons) != 1 || meetingButtons[0].Label != "Meeting 2027-01-12: agenda posted" ||
		!strings.HasPrefix(meetingButtons[0].Form, "posted 2027-001 sufficiency") {
		t.Errorf("the digest's buttons for the meeting: %+v", meetingButtons)
	}
	if d := digests["01-11"]; strings.Contains(d, "Meeting 2027-01-12") {
		t.Errorf("the digest after the posting still lists the meeting:\n%s", d)
	}
	for k, n := range w.timesSaid() {
		if n > 1 {
			t.Errorf("%s said %d times", k, n)
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
