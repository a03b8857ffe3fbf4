package docket_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
)

func d(y int, m time.Month, day int) docket.Date { return docket.NewDate(y, m, day) }

// TestNextScheduleDue: from 1 November, next year's schedule is to be adopted by the last
// regular meeting of this year still to come, or by 31 December when none is left; never
// once its adoption is recorded, nor where no schedule is kept (5 ILCS 120/2.03).
func TestNextScheduleDue(t *testing.T) {
	r, err := docket.NewRegularSchedule("City Hall", 18*time.Hour, []docket.Date{d(2027, 10, 12), d(2027, 11, 9),
		d(2027, 12, 14)})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		today   docket.Date
		ok      bool
		due     docket.Date
		comment string
	}{
		{d(2027, 10, 31), false, 0, "before 1 November"},
		{d(2027, 11, 1), true, d(2027, 12, 14), "from 1 November, by the last regular meeting"},
		{d(2027, 12, 14), true, d(2027, 12, 14), "on the day of the last regular meeting"},
		{d(2027, 12, 15), true, d(2027, 12, 31), "after it: by 31 December, at a special meeting"},
	} {
		year, from, due, ok := docket.NextScheduleDue(r, nil, c.today)
		if ok != c.ok || ok && (year != 2028 || from != d(2027, 11, 1) || due != c.due) {
			t.Errorf("%s: %d %s %s %v", c.comment, year, from, due, ok)
		}
	}
	if _, _, _, ok := docket.NextScheduleDue(docket.RegularSchedule{}, nil, d(2027, 11, 2)); ok {
		t.Error("a commission with no schedule configured is reminded")
	}
	adopted := docket.CommissionMeeting{Name: "2027-11-09",
		Adopted: []docket.AdoptedSchedule{{AdoptSchedule: docket.AdoptSchedule{Year: 2028},
			At: time.Date(2027, 11, 9, 19, 0, 0, 0, time.UTC)}}}
	if _, _, _, ok := docket.NextScheduleDue(r, []docket.CommissionMeeting{adopted}, d(2027, 11, 10)); ok {
		t.Error("reminded after the adoption was recorded")
	}
}

// TestCheckScheduleChange: a change of the regular meeting dates is published in a
// newspaper at least 10 days ahead (5 ILCS 120/2.03): a change reaching a meeting fewer
// than 10 days away is refused, naming 2.03 and the ways forward; a later one gives the
// first meeting changed.
func TestCheckScheduleChange(t *testing.T) {
	old, _ := docket.NewRegularSchedule("City Hall", 18*time.Hour, []docket.Date{d(2027, 1, 12), d(2027, 2, 9),
		d(2027, 3, 9)})
	moveFeb, _ := docket.NewRegularSchedule("City Hall", 18*time.Hour, []docket.Date{d(2027, 1, 12), d(2027, 2, 16),
		d(2027, 3, 9)})
	if first, err := docket.CheckScheduleChange(old, moveFeb, d(2027, 1, 20)); err != nil || first != d(2027, 2, 9) {
		t.Errorf("a change 20 days ahead: %s %v", first, err)
	}
	_, err := docket.CheckScheduleChange(old, moveFeb, d(2027, 2, 1))
	wantRule(t, "a change 8 days ahead", err, docket.ECONFLICT, docket.OMASchedule)
	if err == nil || !strings.Contains(err.Error(), "cancel it") || !strings.Contains(err.Error(), "special meeting") {
		t.Errorf("the refusal gives no way forward: %v", err)
	}
	// On the tenth day it may be published in time.
	if _, err := docket.CheckScheduleChange(old, moveFeb, d(2027, 1, 30)); err != nil {
		t.Errorf("a change 10 days ahead: %v", err)
	}
	// A change of place reaches every meeting to come; a past meeting dropped is no change.
	moved, _ := docket.NewRegularSchedule("Library", 18*time.Hour, old.Dates)
	_, err = docket.CheckScheduleChange(old, moved, d(2027, 1, 5))
	wantRule(t, "a change of place 7 days before a meeting", err, docket.ECONFLICT, docket.OMASchedule)
	// Next year's dates entered for its adoption are its schedule, not a change: no
	// newspaper notice, and no refusal of a first meeting fewer than 10 days away.
	nextYear, _ := docket.NewRegularSchedule("City Hall", 18*time.Hour, append(slices.Clone(old.Dates), d(2028, 1, 4),
		d(2028, 2, 8)))
	if first, err := docket.CheckScheduleChange(old, nextYear, d(2027, 12, 28)); err != nil || !first.IsZero() {
		t.Errorf("next year's schedule entered: %s %v", first, err)
	}
	// A date added to a year already scheduled is a change.
	more, _ := docket.NewRegularSchedule("City Hall", 18*time.Hour, append(slices.Clone(nextYear.Dates), d(2028, 1, 18)))
	if _, err := docket.CheckScheduleChange(nextYear, more, d(2028, 1, 10)); err == nil {
		t.Error("a meeting added 8 days ahead to a year already scheduled was not refused")
	}
	dropJan, _ := docket.NewRegularSchedule("City Hall", 18*time.Hour, old.Dates[1:])
	if first, err := docket.CheckScheduleChange(old, dropJan, d(2027, 1, 13)); err != nil || !first.IsZero() {
		t.Errorf("dropping a past meeting: %s %v", first, err)
	}
}

// TestAdoptSchedule: the schedule is adopted by a vote on an item of the posted agenda
// (5 ILCS 120/2.03, 2.02(c)); the minutes report it; only this year's or next year's dates,
// and each year once per meeting.
func TestAdoptSchedule(t *testing.T) {
	e := MustEngine(t)
	jan := reviewAt(t, e)
	a := docket.AdoptSchedule{Item: 1, Year: 2027, Place: "City Hall", Clock: 18 * time.Hour,
		Dates: []docket.Date{d(2027, 2, 9), d(2027, 3, 9)}}
	at := T(t, "2027-01-12T17:40:00-06:00")
	_, err := e.ApplyMeeting(jan, a, at)
	wantRule(t, "an adoption with no vote", err, docket.ECONFLICT, docket.OMASchedule)
	// A motion that failed adopted nothing.
	failed := reviewMotion(1)
	failed.At = T(t, "2027-01-12T17:20:00-06:00")
	failed.Vote = &docket.Vote{Seated: []string{"U_A", "U_B"}, No: []string{"U_A", "U_B"}, Quorum: 2,
		Carry: docket.MajorityOfVotesCast}
	lost, err := e.ApplyMeeting(jan, failed, failed.At)
	if err != nil {
		t.Fatal(err)
	}
	refused(t, e, lost, a, at, "an adoption after a motion that failed", docket.ECONFLICT, docket.OMASchedule)
	jan, err = e.ApplyMeeting(jan, reviewMotion(1), T(t, "2027-01-12T17:30:00-06:00"))
	if err != nil {
		t.Fatal(err)
	}
	other, mixed := a, a
	other.Year, mixed.Dates = 2029, []docket.Date{d(2027, 2, 9), d(2028, 1, 11)}
	refused(t, e, jan, other, at, "an adoption two years ahead", docket.EINVALID, docket.OMASchedule)
	refused(t, e, jan, mixed, at, "an adoption with another year's date", docket.EINVALID, docket.OMASchedule)
	if jan, err = e.ApplyMeeting(jan, a, at); err != nil {
		t.Fatal(err)
	}
	refused(t, e, jan, a, at, "the same year adopted twice at one meeting", docket.ECONFLICT, docket.OMASchedule)
	got, ok := docket.ScheduleAdopted([]docket.CommissionMeeting{jan}, 2027)
	if !ok || !got.At.Equal(at) || len(got.Dates) != 2 {
		t.Errorf("adopted %+v %v", got, ok)
	}
	r, err := jan.Record(nil, e, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "The commission adopted the schedule of its regular meetings for 2027 (5 ILCS 120/2.03): at 18:00, City " +
		"Hall, on Tue 9 Feb, Tue 9 Mar."
	if n := r.Entries[0].Notes; len(n) != 1 || n[0] != want {
		t.Errorf("the minutes report %q, want %q", n, want)
	}
}
