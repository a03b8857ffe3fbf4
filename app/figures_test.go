package app

import (
	"context"
	"testing"
	"time"

	"ethicsbot/app/apptest"
	"ethicsbot/config"
	"ethicsbot/report"
)

// TestBoardFiguresCountOnlyPublicComplaints: the board's figures for an ended year, as the
// application wires them, count the complaint the ordinance made public (2026-002,
// dismissed (C)(2)) and not the confidential one beside it (2026-001, nothing public).
func TestBoardFiguresCountOnlyPublicComplaints(t *testing.T) {
	env := apptest.RecordEnv(t)
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	engine, db := apptest.MustOpenRecord(t, cfg)
	defer db.Close()
	now := time.Date(2027, 2, 1, 12, 0, 0, 0, time.UTC)
	board := BoardOf(cfg, engine, db, func() time.Time { return now }, nil)
	figures, err := board.Figures(context.Background(), 2026, now)
	if err != nil {
		t.Fatal(err)
	}
	fig, ok := figures.(report.PublicReport)
	if !ok {
		t.Fatalf("the board's figures are a %T, want report.PublicReport", figures)
	}
	if fig.Received != 1 || fig.Months[11].Received != 1 {
		t.Errorf("the board counts %d complaints received in 2026 (%d in December), want 1: the confidential one is counted",
			fig.Received, fig.Months[11].Received)
	}
}
