package commands_test

import (
	"strings"
	"testing"

	"ethicsbot/commands"
	"ethicsbot/docket"
)

// TestStepCommandsParse fills in the command each step of docket's table gives for
// recording it, as the reminders say it, and parses it as /ethics does: a row whose
// command names no subcommand, or misses what the subcommand requires, fails here.
func TestStepCommandsParse(t *testing.T) {
	samples := strings.NewReplacer("<article no.>", "9407 1118 9876 5432 1012 34", "<ruling>", "probable_cause",
		"<outcome>", "dismiss", "<start>", "2026-12-10T17:00", `"..."`, `"City Hall"`,
		"<dollars>", "1500", "<no.>", "R-0042")
	for _, dismissed := range []bool{false, true} {
		c := &docket.Case{Number: "2026-001"}
		if dismissed {
			c.Ruling = docket.Insufficient
		}
		for _, p := range docket.DefaultOrdinance().Periods() {
			meetings := p.Meetings
			if len(meetings) == 0 {
				meetings = []docket.MeetingKind{""}
			}
			for _, k := range meetings {
				cmd := c.Command(docket.Deadline{ID: p.ID, Period: &p, Of: k})
				if cmd == "" {
					continue
				}
				text := samples.Replace(cmd)
				if strings.ContainsAny(text, "<>{}") {
					t.Errorf("%s: %q has a placeholder nobody fills in", p.ID, cmd)
					continue
				}
				a, err := commands.ParseForTest(text)
				if a == nil || err != nil {
					t.Errorf("%s: /ethics %s does not parse: %v", p.ID, text, err)
				}
			}
		}
	}
	// Every paper's own command, as the letters and the papers owed name it.
	c := &docket.Case{Number: "2026-001"}
	for _, pi := range docket.Papers() {
		cmd := c.PaperCommand(pi.Paper)
		if a, err := commands.ParseForTest(samples.Replace(cmd)); a == nil || err != nil {
			t.Errorf("%s: /ethics %s does not parse: %v", pi.Paper, cmd, err)
		}
	}
}
