package cli

import (
	"encoding/json"
	"flag"
	"io"
	"time"

	"ethicsbot/app"
	"ethicsbot/config"
	"ethicsbot/docket"
)

// runDeadlines is `ethicsbot deadlines`: facts in, deadlines out. Bad input gives exit
// status 2 and one line on stderr naming the field, and nothing on stdout.
func runDeadlines(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string,
	now func() time.Time) int {
	fail := failer(stderr, "deadlines")
	fs := flag.NewFlagSet("deadlines", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	tz := fs.String("tz", "", "the commission's time zone, overriding the configuration")
	if err := fs.Parse(args); err != nil {
		return fail(app.ExitUsage, "%v; %s", err, usageOf("deadlines"))
	}
	if fs.NArg() > 0 {
		return fail(app.ExitUsage, "unexpected argument %q; the facts are read from stdin", fs.Arg(0))
	}
	cfg, err := config.Load(getenv)
	if err != nil {
		return fail(app.ExitFailure, "%v", err)
	}
	in, err := docket.DecodeInput(stdin)
	if err != nil {
		return fail(app.ExitUsage, "%v", err)
	}
	calCfg := cfg.Calendar
	calCfg.Closures = append(append([]docket.Date(nil), calCfg.Closures...), in.ExtraHolidays...)
	if *tz != "" {
		calCfg.Zone = *tz
	}
	cal, err := docket.NewCalendar(calCfg)
	if err != nil {
		field := "config " + cfg.Path
		if *tz != "" {
			field = "--tz"
		}
		return fail(app.ExitUsage, "%s: %v", field, err)
	}
	engine := &docket.Engine{Cal: cal, Ord: cfg.Ordinance, Mail: cfg.Mail}
	if err := engine.Validate(&in.Facts); err != nil {
		return fail(app.ExitUsage, "%v", err)
	}
	asOf := in.AsOf
	if asOf.IsZero() {
		asOf = now()
	}
	out, err := json.MarshalIndent(engine.Schedule(&in.Facts, asOf), "", "  ")
	if err != nil {
		return fail(app.ExitFailure, "cannot write the deadlines: %v", err)
	}
	stdout.Write(append(out, '\n'))
	return app.ExitOK
}
