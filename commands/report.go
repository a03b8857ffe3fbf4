package commands

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"ethicsbot/docket"
	"ethicsbot/outbox"
	"ethicsbot/report"
)

// runReport is /ethics report: the year's annual report as text, with its chart as a PNG.
// A reader recused from cases gets the report of the other cases: the report lists missed
// deadlines, the worst times and the expedited cases, and its totals less those lists
// would count what the cases they are recused from missed, so a recused member would learn
// where such a case stands, as /ethics case never tells them. The reply says how many
// cases it leaves out.
func runReport(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	now := s.Now().In(s.Engine.Cal.Location())
	year, err := report.ParseYear(a.str("year"), now)
	if err != nil {
		return Response{}, err
	}
	cases, err := s.Record.AllCases(ctx)
	if err != nil {
		return Response{}, err
	}
	all := len(cases)
	cases = slices.DeleteFunc(cases, func(c docket.Case) bool {
		_, recused := c.Recused(req.User)
		return recused
	})
	r := report.Of(cases, year, s.Engine, now)
	chart, err := r.Chart()
	if err != nil {
		return Response{}, err
	}
	text := reportText(r)
	if left := all - len(cases); left > 0 {
		which := "the case"
		if left > 1 {
			which = fmt.Sprintf("the %d cases", left)
		}
		text = outbox.Format("_This report leaves out %s you are recused from, in every figure; `ethicsbot report %d` on "+
			"the server writes the whole report._\n", which, year) + text
	}
	more := func(n int) outbox.Markup {
		return outbox.Format("…and %d more lines, past what one Slack message holds; `ethicsbot report %d` on the server "+
			"writes the whole report.", n, year)
	}
	return Response{
		Messages: []Message{{Text: capText(text, MaxMessageText, more), Blocks: sections(text, MaxMessageBlocks, more)}},
		Files: []File{{
			Name:  fmt.Sprintf("ethics-report-%d.png", year),
			Title: fmt.Sprintf("Annual report %d: complaints by month and outcome; deadlines met and missed", year),
			Data:  chart,
			Alt:   chartAlt(r),
		}},
		FilesNote: outbox.Format("The chart of the annual report %d, made by %s.", year, outbox.Mention(req.User)),
	}, nil
}

// chartAlt says in words what the report's chart shows, for a screen reader: its two
// panels' figures, month by month where there are any, within Slack's MaxAltText.
func chartAlt(r report.Report) string {
	var received, deadlines []string
	for _, m := range r.Months {
		month := m.Month
		if t, err := time.Parse("2006-01", m.Month); err == nil {
			month = t.Format("January")
		}
		if m.Received > 0 || len(m.Outcomes) > 0 {
			var outcomes []string
			for _, o := range report.Outcomes {
				if n := m.Outcomes[o]; n > 0 {
					outcomes = append(outcomes, fmt.Sprintf("%s %d", o.Name(), n))
				}
			}
			received = append(received, fmt.Sprintf("%s: %d received (%s)", month, m.Received, strings.Join(outcomes, ", ")))
		}
		if m.DeadlinesMet+m.DeadlinesMissed > 0 {
			deadlines = append(deadlines, fmt.Sprintf("%s: %d met, %d missed", month, m.DeadlinesMet, m.DeadlinesMissed))
		}
	}
	if len(received) == 0 {
		received = []string{"none"}
	}
	if len(deadlines) == 0 {
		deadlines = []string{"none"}
	}
	count := func(n int, noun string) string {
		if n == 1 {
			return "1 " + noun
		}
		return fmt.Sprintf("%d %ss", n, noun)
	}
	alt := fmt.Sprintf("Two bar charts. Complaints received in %d, by month and outcome: %s, %s. %s. Deadlines that "+
		"fell due in %d: %d met, %d missed. %s.",
		r.Year, count(r.Received, "complaint"), count(r.Parts, "part"), strings.Join(received, "; "), r.Year, r.Deadlines.Met,
		r.Deadlines.Missed, strings.Join(deadlines, "; "))
	return truncate(alt, MaxAltText)
}

// reportText writes the report's lines in Slack's markup: the title and headings bold,
// the items as a list. Every line is the report's own wording, escaped all the same.
func reportText(r report.Report) outbox.Markup {
	var lines []outbox.Markup
	for _, l := range r.Lines() {
		switch l.Level {
		case 0:
			lines = append(lines, outbox.Format("• %s", l.Text))
		case 1:
			lines = append(lines, outbox.Format("*%s*", l.Text))
		default:
			lines = append(lines, outbox.Format("\n*%s*", l.Text))
		}
	}
	return outbox.Join(lines, "\n")
}
