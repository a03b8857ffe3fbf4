package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"ethicsbot/app"
	"ethicsbot/docket"
	"ethicsbot/privatefile"
)

// runMinutesFiles is `ethicsbot minutes MEETING [--out DIR]`: it writes the meeting's
// minutes as PDF and Markdown files, drafted from the record as /ethics minutes drafts
// them (5 ILCS 120/2.06), reading the same database and configuration as the bot, read
// only. The closed minutes are confidential: they are written to DIR as the letters are,
// readable by their owner's group only. An unknown meeting writes nothing.
func runMinutesFiles(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fail := failer(stderr, "minutes")
	form := usageOf("minutes")
	fs := flag.NewFlagSet("minutes", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("out", "", "the folder to write to")
	name, err := oneArgument(fs, args)
	if err != nil {
		return fail(app.ExitUsage, "%v; %s", err, form)
	}
	if name == "" {
		return fail(app.ExitUsage, "give the meeting, e.g. 2027-01-12; %s", form)
	}
	cfg, engine, db, maker, engineCloser, err := openLetters(getenv, stderr)
	if err != nil {
		return fail(app.ExitFailure, "%v", err)
	}
	defer db.Close()
	defer engineCloser.Close()
	ctx := context.Background()
	all, err := db.Meetings(ctx)
	if err != nil {
		return fail(app.ExitFailure, "%v", err)
	}
	m, err := docket.FindMeeting(all, name)
	if err != nil {
		return fail(app.ExitUsage, "%v", err)
	}
	r, err := m.Record(all, engine, func(n string) (docket.Case, []docket.Entry, error) { return db.CaseRecord(ctx, n) })
	if err != nil {
		return fail(app.ExitFailure, "%v", err)
	}
	docs, parts, err := maker.Minutes(r, cfg.Roles.People.Titled())
	if err != nil {
		return fail(app.ExitFailure, "%v", err)
	}
	dir := *out
	if dir == "" {
		dir = cfg.LettersFolder()
	}
	if err := privatefile.MkdirAll(dir, 0o750); err != nil {
		return fail(app.ExitFailure, "%v", err)
	}
	state := "draft"
	if !r.Approved.IsZero() {
		state = "approved " + r.Approved.String()
	}
	for i, d := range docs {
		path := filepath.Join(dir, d.Name)
		if err := privatefile.WriteFile(path, d.Data, 0o640); err != nil {
			return fail(app.ExitFailure, "%v", err)
		}
		fmt.Fprintf(stdout, "%s\t%s minutes\t%s\t%s\n", path, parts[i], docket.OMAMinutes, state)
	}
	return app.ExitOK
}
