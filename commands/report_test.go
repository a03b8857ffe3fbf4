package commands_test

import (
	"bytes"
	"image/png"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"ethicsbot/commands"
	"ethicsbot/report"
)

// TestReport: /ethics report gives the year's figures as text within Slack's limits, and
// the chart as a PNG file; a recused reader gets the report of the other cases.
func TestReport(t *testing.T) {
	s, clk := atSufficiency(t, fileLine)
	mustDo(t, s, comm, "rule 2026-001 insufficient", "ruling recorded")
	mustDo(t, s, clerk,
		`file respondent="Smith & <Jones>" complainant="B" section=103.10 received=2026-12-07T09:00 summary="Secret allegation."`, "Filed as case *2026-002*")
	// 2026-002's (B) notices were due Thu 10 Dec and never mailed.
	clk.now = time.Date(2026, 12, 20, 18, 0, 0, 0, time.UTC)

	r := do(s, attorney, "report 2026")
	text := replyText(r)
	for _, want := range []string{
		"*Ethics Commission annual report, 2026*\n• As of Sun 2026-12-20 12:00 CST, in America/Chicago.",
		"\n\n*Complaints received (A)*\n• 2 complaints received in 2026.",
		"• dismissed as insufficient (C)(2): 1",
		"• still open: 1",
		"• missed: 2026-002, respondent notice by certified mail (B), due Thu 2026-12-10; not done",
		"• sufficiency ruling (C)(1): 1 complaint, median 3 days, worst 3 days (2026-001)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
	for _, secret := range []string{"Jane Roe", "Smith", "Secret allegation", "city's email"} {
		if strings.Contains(text, secret) {
			t.Errorf("the report shows %q", secret)
		}
	}
	blocks := r.Messages[0].Blocks
	if len(blocks) == 0 || len(blocks) > commands.MaxMessageBlocks {
		t.Errorf("%d blocks", len(blocks))
	}
	if len(r.Files) != 1 || r.Files[0].Name != "ethics-report-2026.png" {
		t.Fatalf("files %+v", r.Files)
	}
	img, err := png.Decode(bytes.NewReader(r.Files[0].Data))
	if err != nil || img.Bounds().Dx() != report.ChartWidth || img.Bounds().Dy() != report.ChartHeight {
		t.Errorf("chart: %v", err)
	}
	if len(r.Posts) != 0 {
		t.Errorf("the report posted %v", r.Posts)
	}

	t.Run("BadYear", func(t *testing.T) {
		for _, tc := range []struct{ text, want string }{
			{"report 26", `Not done: year: "26" is not a year: give its four digits, such as 2026`},
			{"report twenty", `"twenty" is not a year`},
			{"report 2031", "Not done: year: 2031 has not begun: it is 2026 now"},
			{"report", "year: is missing"},
		} {
			r := do(s, clerk, tc.text)
			if got := replyText(r); !strings.Contains(got, tc.want) || len(r.Files) != 0 {
				t.Errorf("/ethics %s: %s\nwant %q and no file", tc.text, got, tc.want)
			}
		}
	})
	t.Run("Recused", func(t *testing.T) {
		mustDo(t, s, "U_COMM2", `recuse 2026-002 reason="I know the respondent"`, "recused")
		// The report leaves the case out of every figure: a missed deadline listed without
		// its number, or a total less the deadlines listed, would still tell where it stands.
		got := replyText(do(s, "U_COMM2", "report 2026"))
		for _, leak := range []string{"2026-002", "respondent notice by certified mail (B), due Thu 2026-12-10",
			"• 2 complaints received", "still open: 1", "(B): 1 missed"} {
			if strings.Contains(got, leak) {
				t.Errorf("a recused commissioner's report shows %q:\n%s", leak, got)
			}
		}
		if !strings.HasPrefix(got, "_This report leaves out the case you are recused from, in every figure;") ||
			!strings.Contains(got, "• 1 complaint received in 2026.") {
			t.Errorf("a recused commissioner's report:\n%s", got)
		}
		if got := replyText(do(s, comm, "report 2026")); !strings.Contains(got, "missed: 2026-002") {
			t.Errorf("another commissioner's report hides the case:\n%s", got)
		}
	})
}

// TestReportIsLong: a year with more missed deadlines than one message holds is spread
// over blocks within Slack's limits, and says where the rest is.
func TestReportIsLong(t *testing.T) {
	s, clk, _ := MustService(t)
	for range 120 {
		mustDo(t, s, clerk,
			`file respondent="R" complainant="C" section=103.10 received=2026-12-01T09:00 summary="x"`, "Filed")
	}
	clk.now = time.Date(2026, 12, 31, 18, 0, 0, 0, time.UTC)
	r := do(s, clerk, "report 2026")
	text := replyText(r)
	if n := strings.Count(text, "• missed: "); n < 100 {
		t.Fatalf("%d missed deadlines listed", n)
	}
	if !strings.Contains(text,
		"past what one Slack message holds; `ethicsbot report 2026` on the server writes the whole report.") {
		t.Errorf("the message does not say where the rest is:\n%s", text[len(text)-300:])
	}
	blocks := r.Messages[0].Blocks
	if len(blocks) > commands.MaxMessageBlocks {
		t.Errorf("%d blocks", len(blocks))
	}
	for _, b := range texts(t, blocks) {
		if n := utf8.RuneCountInString(b); n > commands.MaxSectionText {
			t.Errorf("a block of %d characters", n)
		}
	}
	if n := utf8.RuneCountInString(text); n > commands.MaxMessageText {
		t.Errorf("a message of %d characters", n)
	}
}
