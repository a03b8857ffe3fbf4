package reminders_test

import (
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
)

// TestAgendaReminderGroupsTheMeetingsCases: three cases' sufficiency reviews at one
// meeting have one 48-hour notice, the meeting's agenda (5 ILCS 120/2.02): the clerk is
// reminded of it once, with the number of items, not once per case; a case at another
// meeting keeps its own reminder; nothing is said twice.
func TestAgendaReminderGroupsTheMeetingsCases(t *testing.T) {
	w := newWorld(t)
	start := at(t, "2026-12-15 17:00")
	w.run(at(t, "2026-12-04 10:00"), at(t, "2026-12-15 17:00"), time.Hour, map[time.Time]func(){
		at(t, "2026-12-04 10:00"): func() {
			for i := 0; i < 4; i++ {
				n := w.file(at(t, "2026-12-04 10:00"))
				when, place := start, "City Hall"
				if i == 3 {
					when = at(t, "2026-12-16 17:00")
				}
				w.apply(n, at(t, "2026-12-04 10:00"),
					docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: when, Place: place})
			}
		},
	})
	var agenda, own []string
	for _, s := range w.rec.said {
		switch {
		case strings.Contains(s.Key, "|agenda|"):
			agenda = append(agenda, s.Text)
		case strings.Contains(s.Key, "sufficiency_meeting_notice"):
			own = append(own, s.Key)
		}
	}
	// Said to the clerk and the docket channel: the lead, then the missed notice.
	if len(agenda) != 4 {
		t.Fatalf("agenda reminders: %q; own: %q", agenda, own)
	}
	if want := "Agenda of Tue 15 Dec 2026 to be posted by Sun 13 Dec 17:00 CST, 3 items (cases 2026-001, 2026-002, " +
		"2026-003), rule 5 ILCS 120/2.02. Post it at the meeting place and the principal office, then record it once for " +
		"every item: `/ethics posted 2026-12-15`."; agenda[0] != want {
		t.Errorf("agenda reminder:\n%s\nwant:\n%s", agenda[0], want)
	}
	for _, k := range own {
		if !strings.HasPrefix(k, "2026-004|") {
			t.Errorf("a case of the meeting was reminded of its own notice: %s", k)
		}
	}
	if len(own) == 0 {
		t.Error("the case alone at its meeting lost its own reminder")
	}
	for k, n := range w.timesSaid() {
		if n > 1 {
			t.Errorf("%s said %d times", k, n)
		}
	}
}
