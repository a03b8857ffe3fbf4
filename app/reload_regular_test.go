package app

import (
	"context"
	"strings"
	"testing"
	"time"

	"ethicsbot/app/apptest"
)

// TestReloadChangesTheRegularSchedule: a reload puts a changed schedule of regular
// meetings in force at once, for meeting=next and the board, and queues its public notice
// of the change (5 ILCS 120/2.03); the log names meetings.regular.
func TestReloadChangesTheRegularSchedule(t *testing.T) {
	body := func(dates string) string {
		return apptest.SlackConfig + "meetings:\n  regular: {place: \"City Hall\", time: \"18:00\", dates: [" + dates + "]}\n"
	}
	rt := newReloadTest(t, body("2027-01-12, 2027-02-09"))
	db, svc, r, log := rt.db, rt.svc, rt.r, rt.log
	now := time.Date(2026, 12, 4, 10, 0, 0, 0, rt.engine.Cal.Location())
	svc.Now = func() time.Time { return now }
	rt.write(t, body("2027-01-12, 2027-02-16"))
	if err := r.Reload(); err != nil {
		t.Fatal(err)
	}
	if got := svc.Settings().Regular.Dates; len(got) != 2 || got[1].String() != "2027-02-16" {
		t.Errorf("the schedule in force is %v", got)
	}
	if !strings.Contains(log.String(), `changed=meetings.regular`) {
		t.Errorf("the log does not name the schedule:\n%s", log.String())
	}
	rows, err := db.Outbox(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var notice string
	for _, row := range rows {
		if row.Key.Series == "regular_schedule" {
			notice = string(row.Text)
		}
	}
	if !strings.Contains(notice, "CHANGED SCHEDULE") || !strings.Contains(notice, "No longer: Tue 9 Feb 2027 18:00 CST") ||
		!strings.Contains(notice, "Added: Tue 16 Feb 2027 18:00 CST") {
		t.Errorf("the notice of the change: %q", notice)
	}
	// The clerks' task: the newspaper notice, 10 days before the first meeting changed.
	var task string
	for _, row := range rows {
		if row.Key.Series == "regular_schedule-newspaper" && row.Key.To.User != "" {
			task = string(row.Text)
		}
	}
	if !strings.Contains(task, "newspaper of general circulation in the area by Sat 2027-01-30") ||
		!strings.Contains(task, "5 ILCS 120/2.03") {
		t.Errorf("the clerks' newspaper task: %q", task)
	}
	// A change reaching a meeting fewer than 10 days away is refused; the schedule in force
	// stays (2.03).
	now = time.Date(2027, 1, 5, 10, 0, 0, 0, rt.engine.Cal.Location())
	rt.write(t, body("2027-01-19, 2027-02-16"))
	err = r.Reload()
	if err == nil || !strings.Contains(err.Error(), "5 ILCS 120/2.03") ||
		!strings.Contains(err.Error(), "Tue 2027-01-12, fewer than 10 days away") {
		t.Errorf("a change 7 days ahead reloaded: %v", err)
	}
	if got := svc.Settings().Regular.Dates; got[0].String() != "2027-01-12" {
		t.Errorf("the schedule in force after a refused change is %v", got)
	}
}
