package commands

import (
	"context"
	"fmt"

	"ethicsbot/outbox"
	"ethicsbot/report"
)

// runReport is /ethics report: the year's annual report as text, with its chart as a PNG.
// The report names cases; a reader recused from a case sees its figures but not its
// number, as /ethics case shows them nothing of it.
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
	recused := make(map[string]bool)
	for i := range cases {
		if _, ok := cases[i].Recused(req.User); ok {
			recused[cases[i].Number] = true
		}
	}
	r := report.Of(cases, year, s.Engine, now).Hiding(func(n string) bool { return recused[n] }, "a case you are recused from")
	chart, err := r.Chart()
	if err != nil {
		return Response{}, err
	}
	text := reportText(r)
	more := func(n int) outbox.Markup {
		return outbox.Format("…and %d more lines, past what one Slack message holds; `ethicsbot report %d` on the server writes the whole report.", n, year)
	}
	return Response{
		Messages: []Message{{Text: capText(text, MaxMessageText, more), Blocks: sections(text, MaxMessageBlocks, more)}},
		Files: []File{{
			Name:  fmt.Sprintf("ethics-report-%d.png", year),
			Title: fmt.Sprintf("Annual report %d: complaints by month and outcome; deadlines met and missed", year),
			Data:  chart,
		}},
	}, nil
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
