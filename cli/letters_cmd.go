package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"time"

	"ethicsbot/app"
	"ethicsbot/config"
	"ethicsbot/docket"
	"ethicsbot/letters"
	"ethicsbot/privatefile"
	"ethicsbot/store"
)

// runLetters is `ethicsbot letters CASE [--only KIND] [--out DIR]`: it writes the case's
// documents as PDF files, reading the same database and configuration as the bot: a paper
// whose mailing kept the letter as sent is that copy, byte for byte; any other, a draft (or
// a re-print, if mailed without a copy kept). Bad input (an unknown case or kind, a document
// the case does not call for yet) writes nothing. A document that cannot be produced (an
// address not configured or not fitting the window, an unreadable enclosure) is named on
// stderr and makes the exit status 2, but keeps back none of the others.
func runLetters(args []string, stdout, stderr io.Writer, getenv func(string) string, now func() time.Time) int {
	fail := failer(stderr, "letters")
	form := usageOf("letters")
	fs := flag.NewFlagSet("letters", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	only := fs.String("only", "", "one document kind")
	out := fs.String("out", "", "the folder to write to")
	number, err := caseArgument(fs, args, form)
	if err != nil {
		return fail(app.ExitUsage, "%v", err)
	}
	var kind letters.Kind
	if *only != "" {
		k, err := letters.ParseKind(*only)
		if err != nil {
			return fail(app.ExitUsage, "--only: %v", err)
		}
		kind = k
	}
	cfg, engine, db, maker, engineCloser, err := openLetters(getenv, stderr)
	if err != nil {
		return fail(app.ExitFailure, "%v", err)
	}
	defer db.Close()
	defer engineCloser.Close()
	var docs []letters.Document
	var refused letters.Refusals
	if _, merr := docket.ParseMeetingName(number); merr == nil && *only == "" {
		// A meeting, named by its date: its one agenda, as /ethics letters <meeting> draws
		// it, dated by its posting (5 ILCS 120/2.02).
		d, err := meetingAgenda(db, maker, number, engine.Cal.DateOf(now()))
		if err != nil {
			return fail(app.ExitUsage, "%v", err)
		}
		docs = []letters.Document{d}
	} else {
		c, err := db.Case(context.Background(), number)
		if err != nil {
			return fail(app.ExitUsage, "%v", err)
		}
		docs, err = maker.MakeDue(context.Background(), &c, kind, engine.Cal.DateOf(now()), db)
		if !errors.As(err, &refused) && err != nil {
			return fail(app.ExitUsage, "%v", err)
		}
	}
	if len(docs) > 0 {
		dir := *out
		if dir == "" {
			dir = cfg.LettersFolder()
		}
		if err := privatefile.MkdirAll(dir, 0o750); err != nil {
			return fail(app.ExitFailure, "%v", err)
		}
		for _, d := range docs {
			path := filepath.Join(dir, d.Name)
			if err := privatefile.WriteFile(path, d.Data, 0o640); err != nil {
				return fail(app.ExitFailure, "%v", err)
			}
			state := ""
			switch {
			case d.Sent != nil && d.Bears != "":
				state = "\tas sent " + d.Sent.Dated.String() + "\tbears article " + d.Bears + ", corrected to " + d.Article
			case d.Sent != nil:
				state = "\tas sent " + d.Sent.Dated.String()
			case !d.Mailed.IsZero():
				state = "\tre-print: mailed " + d.Mailed.String() + ", no copy kept at mailing"
			case d.Draft:
				state = "\tdraft"
			}
			fmt.Fprintf(stdout, "%s\t%s\t%s%s\n", path, d.Kind, d.Rule, state)
		}
	}
	if len(refused) > 0 {
		// Every document that could be produced is written; each that could not is named,
		// and the exit status says that not all were.
		for _, r := range refused {
			fmt.Fprintf(stderr, "ethicsbot letters: %s %s not produced: %v\n", r.Kind, r.Kind.Rule(), r.Err)
		}
		return app.ExitUsage
	}
	return app.ExitOK
}

// caseArgument parses args with fs and returns the case number they give besides the
// flags; without one, or with more, the error says so and gives form.
func caseArgument(fs *flag.FlagSet, args []string, form string) (string, error) {
	number, err := oneArgument(fs, args)
	if err != nil {
		return "", fmt.Errorf("%v; %s", err, form)
	}
	if number == "" {
		return "", fmt.Errorf("give the case number; %s", form)
	}
	return number, nil
}

// oneArgument parses args with fs and returns the one argument besides the flags, which
// may come before them or after them; "" if there is none.
func oneArgument(fs *flag.FlagSet, args []string) (string, error) {
	var arg string
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			return "", err
		}
		if fs.NArg() == 0 {
			return arg, nil
		}
		if arg != "" {
			return "", fmt.Errorf("unexpected argument %q", fs.Arg(0))
		}
		arg, rest = fs.Arg(0), fs.Args()[1:]
	}
}

// openLetters opens the record as openStore does, with the letter maker its configuration
// describes, for the subcommands that draw documents (letters, minutes).
// The Maker prints tagged documents with Chromium, if installed (app.TaggedDocs), warning on
// stderr if not: close it with the store.
func openLetters(getenv func(string) string,
	stderr io.Writer) (config.Config, *docket.Engine, *store.Store, *letters.Maker,
	io.Closer, error) {
	cfg, engine, db, err := openStore(getenv)
	if err != nil {
		return cfg, nil, nil, nil, nil, err
	}
	maker, err := letters.New(cfg.LettersFor(engine), engine.Cal.Location())
	if err != nil {
		db.Close()
		return cfg, nil, nil, nil, nil, fmt.Errorf("config %s: %v", cfg.Path, err)
	}
	docs := app.NewTaggedDocs(slog.New(slog.NewTextHandler(stderr, nil)))
	return cfg, engine, db, docs.Use(maker), docs, nil
}

// meetingAgenda draws meeting name's agenda from the record, as /ethics letters does.
func meetingAgenda(db *store.Store, maker *letters.Maker, name string, today docket.Date) (letters.Document, error) {
	all, err := db.Meetings(context.Background())
	if err != nil {
		return letters.Document{}, err
	}
	m, err := docket.FindMeeting(all, name)
	if err != nil {
		return letters.Document{}, err
	}
	return maker.AgendaPDF(m.Doc(), today)
}
