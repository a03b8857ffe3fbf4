package commands_test

import (
	"strings"
	"testing"
)

// TestLimitsCountCharacters: text limits are counted in characters, as a clerk counts
// them, not in bytes; Chinese takes three bytes a character in UTF-8.
func TestLimitsCountCharacters(t *testing.T) {
	s, _, db := MustService(t)
	t.Run("CJKSummaryFiled", func(t *testing.T) {
		summary := strings.Repeat("市", 1400) // 4,200 bytes
		mustDo(t, s, clerk, `file respondent="张伟" complainant="李娜" section=103.10 summary="`+summary+`"`,
			"Filed as case *2026-001*")
		c, err := db.Case(ctx, "2026-001")
		if err != nil {
			t.Fatal(err)
		}
		if got, want := c.Summary, summary; got != want {
			t.Errorf("stored summary is %d bytes, want %d", len(got), len(want))
		}
	})
	t.Run("OverTheLimitRefused", func(t *testing.T) {
		r := do(s, clerk, `file respondent="A" complainant="B" section=103.10 summary="`+strings.Repeat("市", 4001)+`"`)
		if got, want := replyText(r), "summary: is 4001 characters long; the limit is 4000"; !strings.Contains(got, want) {
			t.Errorf("reply %.200q, want %q", got, want)
		}
		if all, _ := db.AllCases(ctx); len(all) != 1 {
			t.Errorf("a refused filing was recorded: %d cases", len(all))
		}
	})
	t.Run("CJKElectionName", func(t *testing.T) {
		name := strings.Repeat("选", 100) // 300 bytes, within the 200 characters allowed
		mustDo(t, s, clerk, "election add 2027-02-23 "+name, "Election recorded")
		mustDo(t, s, clerk, "election add 2027-04-06 "+strings.Repeat("选", 201), "the limit is 200 (rule (G))")
	})
}
