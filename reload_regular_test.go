package main

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ethicsbot/commands"
	"ethicsbot/config"
	"ethicsbot/outbox"
	"ethicsbot/reminders"
)

// TestReloadChangesTheRegularSchedule: a reload puts a changed schedule of regular
// meetings in force at once, for meeting=next and the board, and queues its public notice
// of the change (5 ILCS 120/2.03); the log names meetings.regular.
func TestReloadChangesTheRegularSchedule(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ethicsbot.yml")
	write := func(dates string) {
		t.Helper()
		body := "database: " + filepath.Join(dir, "ethicsbot.db") + "\n" + slackConfig +
			"meetings:\n  regular: {place: \"City Hall\", time: \"18:00\", dates: [" + dates + "]}\n"
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("2027-01-12, 2027-02-09")
	getenv := func(string) string { return "" }
	cfg, err := config.Read(path, getenv)
	if err != nil {
		t.Fatal(err)
	}
	engine, db := mustOpenRecord(t, cfg)
	defer db.Close()
	now := time.Date(2026, 12, 4, 10, 0, 0, 0, engine.Cal.Location())
	svc := &commands.Service{Record: db, Engine: engine, Now: func() time.Time { return now }}
	planner := plannerOf(engine, cfg)
	svc.Configure(settingsOf(cfg, planner))
	var log lockedBuffer
	logger := slog.New(slog.NewTextHandler(&log, nil))
	r := &reloader{cfg: cfg, getenv: getenv, svc: svc,
		sweeper:   &reminders.Sweeper{Planner: planner, Cases: db, Outbox: db, Log: logger},
		deliverer: &outbox.Deliverer{Store: db, Log: logger}, log: logger}
	write("2027-01-12, 2027-02-16")
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
}
