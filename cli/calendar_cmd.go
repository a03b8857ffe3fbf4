package cli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"ethicsbot/app"
	"ethicsbot/privatefile"
	"ethicsbot/web"
)

// runCalendar is `ethicsbot calendar [--out FILE]`: the whole docket's calendar feed, every
// case as the clerk sees it, as one iCalendar file: to FILE, or to stdout without --out or
// with --out -. It reads the same database and configuration as the bot; the events'
// UIDs are the ones the members' feeds carry, so an import matches their subscriptions.
func runCalendar(args []string, stdout, stderr io.Writer, getenv func(string) string, now func() time.Time) int {
	fail := failer(stderr, "calendar")
	fs := flag.NewFlagSet("calendar", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("out", "-", "the file to write; - for stdout")
	if err := fs.Parse(args); err != nil {
		return fail(app.ExitUsage, "%v; %s", err, usageOf("calendar"))
	}
	if fs.NArg() > 0 {
		return fail(app.ExitUsage, "unexpected argument %q; %s", fs.Arg(0), usageOf("calendar"))
	}
	cfg, engine, db, err := openStore(getenv)
	if err != nil {
		return fail(app.ExitFailure, "%v", err)
	}
	defer db.Close()
	cases, err := db.AllCases(context.Background())
	if err != nil {
		return fail(app.ExitFailure, "%v", err)
	}
	feed := web.PrivateCalendar(engine, cases, "", true, cfg.PublicURL, now())
	var buf bytes.Buffer
	if err := feed.Encode(&buf); err != nil {
		return fail(app.ExitFailure, "%v", err)
	}
	if *out == "-" || *out == "" {
		stdout.Write(buf.Bytes())
		return app.ExitOK
	}
	// The feed lists the confidential docket's deadlines: readable by its owner only.
	if err := privatefile.WriteFile(*out, buf.Bytes(), 0o600); err != nil {
		return fail(app.ExitFailure, "%v", err)
	}
	fmt.Fprintf(stdout, "%s\t%d events\n", *out, len(feed.Events))
	return app.ExitOK
}
