package docket_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rickar/cal/v2"

	"ethicsbot/docket"
)

// BenchmarkAddBusinessDays counts 7 business days with the docket's calendar.
// BenchmarkBaselineWorkdaysFrom does the same count with rickar/cal's BusinessCalendar
// over the same holidays: the library's own way, measured in the same run.
func BenchmarkAddBusinessDays(b *testing.B) {
	c := MustCalendar(b, docket.CalendarConfig{})
	from := D(b, "2026-12-04")
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		c.AddBusinessDays(from.AddDays(i%365), 7)
	}
}

func BenchmarkBaselineWorkdaysFrom(b *testing.B) {
	bc := cal.NewBusinessCalendar()
	for _, h := range docket.DefaultHolidays {
		bc.AddHoliday(h.Def)
	}
	loc, _ := time.LoadLocation(docket.DefaultZone)
	from := time.Date(2026, 12, 4, 0, 0, 0, 0, loc)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		bc.WorkdaysFrom(from.AddDate(0, 0, i%365), 7)
	}
}

// BenchmarkSchedule derives every deadline of one case late in its life (up to 12
// deadlines), as a reminder sweep does for each open case.
func BenchmarkSchedule(b *testing.B) {
	e := MustEngine(b)
	r := rand.New(rand.NewPCG(3, 4))
	cases := make([]*docket.Facts, 1024)
	for i := range cases {
		cases[i] = randomFacts(r, e.Cal.Location())
	}
	now := T(b, "2030-01-01T09:00:00-06:00")
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		e.Schedule(cases[i%len(cases)], now)
	}
}

// BenchmarkNewCalendar builds the calendar: once per process, or per `deadlines` run.
func BenchmarkNewCalendar(b *testing.B) {
	for b.Loop() {
		if _, err := docket.NewCalendar(docket.CalendarConfig{}); err != nil {
			b.Fatal(err)
		}
	}
}
