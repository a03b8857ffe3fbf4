package docket_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
)

// schedule2027 is a commission's regular meetings on the second Tuesday of the first
// quarter of 2027 (hand-checked: 12 January, 9 February, 9 March), at 18:00.
func schedule2027(t *testing.T) docket.RegularSchedule {
	t.Helper()
	r, err := docket.NewRegularSchedule("City Hall, Council Chambers", 18*time.Hour,
		[]docket.Date{docket.NewDate(2027, time.March, 9), docket.NewDate(2027, time.January, 12),
			docket.NewDate(2027, time.February, 9)})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestWithRegular: the regular meetings that nothing records yet are shown beside the
// recorded ones, by their dates, in order; one recorded at its start, or moved from it,
// or cancelled, is that meeting and is not shown twice; a special meeting that day takes
// the date's name first, so the regular one is "b".
func TestWithRegular(t *testing.T) {
	e := MustEngine(t)
	loc := e.Cal.Location()
	r := schedule2027(t)
	jan := r.Start(docket.NewDate(2027, time.January, 12), loc)
	feb := r.Start(docket.NewDate(2027, time.February, 9), loc)
	stored := []docket.CommissionMeeting{
		// January's regular meeting, recorded, moved to the 13th.
		{Name: "2027-01-13", Start: jan.AddDate(0, 0, 1), Place: "City Hall, Room 201",
			Moved: []docket.Moved{{Start: jan, Place: r.Place}}},
		// A special meeting on 9 February at 10:00.
		{Name: "2027-02-09", Start: feb.Add(-8 * time.Hour), Place: r.Place, Special: true},
	}
	got := e.WithRegular(e.Fold(stored, nil), r)
	var names []string
	for _, m := range got {
		names = append(names, m.Name)
	}
	if want := []string{"2027-01-13", "2027-02-09", "2027-02-09b", "2027-03-09"}; !slices.Equal(names, want) {
		t.Fatalf("meetings %v, want %v", names, want)
	}
	if m := got[2]; !m.Regular || !m.Folded || m.Special || !m.Start.Equal(feb) || m.Place != r.Place ||
		len(m.Agenda()) != 0 {
		t.Errorf("February's regular meeting %+v", m)
	}
	if got[0].Regular || got[1].Regular {
		t.Errorf("recorded meetings marked regular: %+v", got[:2])
	}
	if !r.IsRegular(&got[0], loc) || r.IsRegular(&got[1], loc) || !r.IsRegular(&got[3], loc) {
		t.Errorf("IsRegular: the moved January meeting is regular, the special one is not")
	}
	if n := len(e.WithRegular(nil, docket.RegularSchedule{})); n != 0 {
		t.Errorf("no schedule: %d meetings", n)
	}
}

// TestRegularHolidays: a regular meeting on a holiday of the calendar is named with the
// holiday (5 ILCS 490): 2027-02-12 is a Friday, Lincoln's Birthday; 2027-10-11 a Monday,
// Columbus Day; 2027-01-12 a plain Tuesday.
func TestRegularHolidays(t *testing.T) {
	e := MustEngine(t)
	r, err := docket.NewRegularSchedule("Hall", 18*time.Hour,
		[]docket.Date{docket.NewDate(2027, time.January, 12), docket.NewDate(2027, time.February, 12),
			docket.NewDate(2027, time.October, 11)})
	if err != nil {
		t.Fatal(err)
	}
	got := r.Holidays(e.Cal)
	if len(got) != 2 || got[0] != "Fri 2027-02-12, Lincoln's Birthday" ||
		!strings.HasPrefix(got[1], "Mon 2027-10-11, Columbus Day") {
		t.Errorf("holidays %q", got)
	}
	if _, err := docket.NewRegularSchedule("", 18*time.Hour, r.Dates); err == nil ||
		!strings.Contains(err.Error(), docket.OMASchedule) {
		t.Errorf("no place: %v", err)
	}
}

// TestRegularStartOnTheDayTheClocksChange: a regular meeting at 18:00 starts at 18:00 on
// the days daylight saving time begins and ends (hand-checked: in Chicago, Sun 8 Mar 2026
// and Sun 1 Nov 2026), as the schedule states it (5 ILCS 120/2.03), and is that meeting.
func TestRegularStartOnTheDayTheClocksChange(t *testing.T) {
	loc := MustEngine(t).Cal.Location()
	days := []docket.Date{docket.NewDate(2026, time.March, 8), docket.NewDate(2026, time.November, 1)}
	r, err := docket.NewRegularSchedule("City Hall", 18*time.Hour+30*time.Minute, days)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range days {
		got := r.Start(d, loc)
		if h, m, _ := got.Clock(); h != 18 || m != 30 {
			t.Errorf("the regular meeting of %s starts at %s", d, got.Format("15:04 MST"))
		}
		y, mo, day := d.Parts()
		if !r.Holds(time.Date(y, mo, day, 18, 30, 0, 0, loc), loc) {
			t.Errorf("a meeting at 18:30 on %s is not the regular one", d)
		}
	}
}
