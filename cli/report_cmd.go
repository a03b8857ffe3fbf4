package cli

import (
	"context"
	"flag"
	"io"
	"time"

	"ethicsbot/app"
	"ethicsbot/privatefile"
	"ethicsbot/report"
)

// runReport is `ethicsbot report YEAR [--format md|csv|json] [--chart FILE.png]`: the
// year's annual report on stdout, read from the same database and configuration as the
// bot, and with --chart its chart as a PNG file. Bad input writes nothing.
func runReport(args []string, stdout, stderr io.Writer, getenv func(string) string, now func() time.Time) int {
	fail := failer(stderr, "report")
	form := usageOf("report")
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	format := fs.String("format", "md", "md, csv or json")
	chart := fs.String("chart", "", "a PNG file to write the chart to")
	arg, err := oneArgument(fs, args)
	if err != nil {
		return fail(app.ExitUsage, "%v; %s", err, form)
	}
	if arg == "" {
		return fail(app.ExitUsage, "give the year; %s", form)
	}
	if *format != "md" && *format != "csv" && *format != "json" {
		return fail(app.ExitUsage, "--format must be md, csv or json, not %q", *format)
	}
	year, err := report.ParseYear(arg, now())
	if err != nil {
		return fail(app.ExitUsage, "%v", err)
	}
	_, engine, db, err := openStore(getenv)
	if err != nil {
		return fail(app.ExitFailure, "%v", err)
	}
	defer db.Close()
	at := now().In(engine.Cal.Location())
	cases, err := db.AllCases(context.Background())
	if err != nil {
		return fail(app.ExitFailure, "%v", err)
	}
	r := report.Of(cases, year, engine, at)
	if *chart != "" {
		png, err := r.Chart()
		if err != nil {
			return fail(app.ExitFailure, "the chart: %v", err)
		}
		if err := privatefile.WriteFile(*chart, png, 0o600); err != nil {
			return fail(app.ExitFailure, "%v", err)
		}
	}
	switch *format {
	case "csv":
		err = r.WriteCSV(stdout)
	case "json":
		err = report.WriteJSON(stdout, r)
	default:
		_, err = io.WriteString(stdout, r.Markdown())
	}
	if err != nil {
		return fail(app.ExitFailure, "%v", err)
	}
	return app.ExitOK
}
