package reminders_test

import (
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
	"ethicsbot/reminders"
)

// meet records actions on meeting name at when.
func (w *world) meet(name string, when time.Time, create *docket.CreateMeeting, as ...docket.MeetingAction) {
	w.t.Helper()
	if _, err := w.db.ChangeMeeting(ctx, docket.Act{By: "U_CLERK", At: when},
		docket.MeetingChange{Meeting: name, Create: create, Actions: as}); err != nil {
		w.t.Fatalf("meeting %s at %v: %v", name, when, err)
	}
}

// TestMinutesClocksAreReminded: the minutes of a meeting are to be approved within 30 days
// or at the second regular meeting after it, whichever is later (5 ILCS 120/2.06(b)), and
// the clerk is reminded of it as of the ordinance's own deadlines, until a roll call
// approves them; then of making the approved open minutes public within 10 days, until
// they are on the board; and of the semi-annual review of closed minutes (2.06(d)).
func TestMinutesClocksAreReminded(t *testing.T) {
	w := newWorld(t)
	seated := []string{"U_COMM1", "U_COMM2"}
	vote := &docket.Vote{Seated: seated, Yes: seated, Quorum: 2, Carry: docket.MajorityOfVotesCast}
	w.run(at(t, "2026-12-04 10:00"), at(t, "2027-01-26 10:00"), time.Hour, map[time.Time]func(){
		at(t, "2026-12-04 10:00"): func() {
			w.meet("", at(t, "2026-12-04 10:00"),
				&docket.CreateMeeting{Name: "2026-12-15", Start: at(t, "2026-12-15 17:00"), Place: "City Hall"},
				docket.AddItem{Item: docket.BusinessItem, Text: "Evaluation of the executive director",
					Authority: "5 ILCS 120/2(c)(1)"}, docket.PostAgenda{})
			w.meet("", at(t, "2026-12-04 10:00"),
				&docket.CreateMeeting{Name: "2027-01-12", Start: at(t, "2027-01-12 17:00"), Place: "City Hall"},
				docket.AddItem{Item: docket.MinutesItem, Text: "2026-12-15"}, docket.PostAgenda{})
		},
		at(t, "2026-12-15 22:00"): func() {
			w.meet("2026-12-15", at(t, "2026-12-15 22:00"), nil,
				docket.Convene{Seated: seated, Quorum: 2, Present: seated, At: at(t, "2026-12-15 17:05")},
				docket.EnterClosed{Item: 1, Vote: vote, At: at(t, "2026-12-15 17:10"), Recorded: true},
				docket.ReturnToOpen{At: at(t, "2026-12-15 17:20")},
				docket.Adjourn{At: at(t, "2026-12-15 17:30")})
		},
		at(t, "2027-01-12 22:00"): func() {
			w.meet("2027-01-12", at(t, "2027-01-12 22:00"), nil,
				docket.Convene{Seated: seated, Quorum: 2, Present: seated, At: at(t, "2027-01-12 17:05")})
			w.meet("2026-12-15", at(t, "2027-01-12 22:00"), nil,
				docket.ApproveMinutes{At: "2027-01-12", On: docket.NewDate(2027, 1, 12), Vote: vote})
		},
		at(t, "2027-01-21 10:00"): func() {
			w.meet("2026-12-15", at(t, "2027-01-21 10:00"), nil, docket.PublishMinutes{Text: "# Minutes"})
		},
	})
	var got []string
	for _, s := range w.rec.said {
		if strings.Contains(s.Key, "minutes") && strings.Contains(s.Key, "U_CLERK") {
			got = append(got, s.When.In(chicago(t)).Format("Jan 2 15:04")+" "+s.Text)
		}
	}
	want := []string{
		"Jan 12 09:00 Minutes of 2026-12-15 to be approved by Thu 14 Jan (2 days), rule 5 ILCS 120/2.06(b): within 30 days " +
			"after the meeting or at the second regular meeting after it, whichever is later. Put their approval on a " +
			"meeting's agenda, `/ethics agenda <meeting> add item=minutes 2026-12-15`, and record the roll call there: " +
			"`/ethics minutes 2026-12-15 approve at=<meeting>`.",
		"Jan 20 09:00 Approved open minutes of 2026-12-15 to be made public by Fri 22 Jan (2 days), rule 5 ILCS " +
			"120/2.06(b). Put them on the board: `/ethics minutes 2026-12-15 publish`.",
		"Jan 21 09:00 Approved open minutes of 2026-12-15 to be made public by Fri 22 Jan (1 day), rule 5 ILCS " +
			"120/2.06(b). Put them on the board: `/ethics minutes 2026-12-15 publish`.",
	}
	diff(t, got, want)
	for k, n := range w.timesSaid() {
		if n > 1 {
			t.Errorf("%s said %d times", k, n)
		}
	}
}

// TestNextYearsScheduleIsReminded: where a schedule of regular meetings is kept, the clerk
// is reminded from 1 November to have next year's adopted, due at this year's last regular
// meeting (5 ILCS 120/2.03): on the first business day of November, before it and on the
// day, each once, and no more once the adoption is recorded.
func TestNextYearsScheduleIsReminded(t *testing.T) {
	w := newWorld(t)
	r, err := docket.NewRegularSchedule("City Hall", 17*time.Hour, []docket.Date{docket.NewDate(2026, 11, 10),
		docket.NewDate(2026, 12, 8), docket.NewDate(2027, 1, 12)})
	if err != nil {
		t.Fatal(err)
	}
	w.sweep.SetPlanner(&reminders.Planner{Engine: w.e, Policy: everywhere(), People: people, Regular: r})
	seated := []string{"U_COMM1", "U_COMM2"}
	vote := &docket.Vote{Seated: seated, Yes: seated, Quorum: 2, Carry: docket.MajorityOfVotesCast}
	create := &docket.CreateMeeting{Name: "2026-12-08", Start: at(t, "2026-12-08 17:00"), Place: "City Hall"}
	item := docket.AddItem{Item: docket.BusinessItem, Text: "Adoption of the 2027 schedule of regular meetings"}
	w.run(at(t, "2026-10-30 10:00"), at(t, "2026-12-20 10:00"), time.Hour, map[time.Time]func(){
		at(t, "2026-10-30 10:00"): func() { w.meet("", at(t, "2026-10-30 10:00"), create, item, docket.PostAgenda{}) },
		at(t, "2026-12-08 18:00"): func() {
			w.meet("2026-12-08", at(t, "2026-12-08 18:00"), nil,
				docket.Convene{Seated: seated, Quorum: 2, Present: seated, At: at(t, "2026-12-08 17:05")},
				docket.MoveBusiness{Item: 1, Text: "To adopt the 2027 schedule", At: at(t, "2026-12-08 17:10"), Vote: vote},
				docket.AdoptSchedule{Item: 1, Year: 2027, Place: "City Hall", Clock: 17 * time.Hour,
					Dates: []docket.Date{docket.NewDate(2027, 1, 12)}})
		},
	})
	var got []string
	for _, s := range w.rec.said {
		if strings.Contains(s.Key, reminders.ScheduleSeries) && strings.Contains(s.Key, "U_CLERK") {
			got = append(got, s.When.In(chicago(t)).Format("Jan 2 15:04")+" "+s.Text[:strings.Index(s.Text, ":")])
		}
	}
	want := []string{
		"Nov 2 09:00 Schedule of regular meetings for 2027 to be adopted by Tue 8 Dec (36 days), rule 5 ILCS 120/2.03",
		"Dec 4 09:00 Schedule of regular meetings for 2027 to be adopted by Tue 8 Dec (4 days), rule 5 ILCS 120/2.03",
		"Dec 7 09:00 Schedule of regular meetings for 2027 to be adopted by Tue 8 Dec (1 day), rule 5 ILCS 120/2.03",
		"Dec 8 09:00 Schedule of regular meetings for 2027 to be adopted by Tue 8 Dec (today), rule 5 ILCS 120/2.03",
	}
	diff(t, got, want)
}
