package cli

import (
	"context"
	"flag"
	"io"
	"log/slog"
	"time"

	"ethicsbot/app"
	"ethicsbot/docket"
	"ethicsbot/mailbook"
	"ethicsbot/privatefile"
)

// runMailbook is `ethicsbot mailbook DATE [--pdf FILE]`: the day's firm mailing book of
// certified letters, in the manner of PS Form 3877, on stdout as Markdown, and with --pdf
// also as a PDF to print and take to the post office: tagged and archival (PDF/UA-1,
// PDF/A-2b) by Chromium when installed, as every document ethicsbot makes. It opens the record read-only:
// reading never writes. Bad input writes nothing.
func runMailbook(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fail := failer(stderr, "mailbook")
	form := usageOf("mailbook")
	fs := flag.NewFlagSet("mailbook", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	pdf := fs.String("pdf", "", "a PDF file to write the book to")
	arg, err := oneArgument(fs, args)
	if err != nil {
		return fail(app.ExitUsage, "%v; %s", err, form)
	}
	if arg == "" {
		return fail(app.ExitUsage, "give the date of mailing, e.g. 2026-12-07; %s", form)
	}
	day, err := docket.ParseDate(arg)
	if err != nil {
		return fail(app.ExitUsage, "%v; %s", err, form)
	}
	cfg, _, db, err := openStore(getenv)
	if err != nil {
		return fail(app.ExitFailure, "%v", err)
	}
	defer db.Close()
	cases, err := db.AllCases(context.Background())
	if err != nil {
		return fail(app.ExitFailure, "%v", err)
	}
	l := cfg.Letters
	sender := mailbook.Addressee{Name: l.Commission.Name, Address: l.Commission.Address}
	if sender.Name == "" {
		sender.Name = "Ethics Commission"
	}
	officials := map[docket.Party]mailbook.Addressee{
		docket.Attorney: {Name: l.Attorney.Name, Address: l.Attorney.Address},
		docket.Officer:  {Name: l.Officer.Name, Address: l.Officer.Address},
	}
	book := mailbook.Of(cases, day, sender, officials)
	if *pdf != "" {
		if len(book.Pieces) == 0 {
			return fail(app.ExitFailure, "no certified mail is recorded as mailed on %s, so no mailing book was written", day.Long())
		}
		// Tagged and archival by Chromium, as the letters are (taggedDocs); untagged, with a
		// warning on stderr, without it: the book goes to the post office today.
		docs := app.NewTaggedDocs(slog.New(slog.NewTextHandler(stderr, nil)))
		defer docs.Close()
		engine, untagged := docs.Engine()
		b, err := book.Print(context.Background(), engine, time.Now(), untagged)
		if err != nil {
			return fail(app.ExitFailure, "%v", err)
		}
		if err := privatefile.WriteFile(*pdf, b, 0o600); err != nil {
			return fail(app.ExitFailure, "%v", err)
		}
	}
	if _, err := io.WriteString(stdout, book.Markdown()); err != nil {
		return fail(app.ExitFailure, "%v", err)
	}
	return app.ExitOK
}
