package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"syscall"
	"time"

	"ethicsbot/app"
	"ethicsbot/commands"
	"ethicsbot/docket"
	"ethicsbot/letters"
	"ethicsbot/store"
)

// arguments parses args with fs and returns the arguments besides the flags, which may
// come before them, after them or between them.
func arguments(fs *flag.FlagSet, args []string) ([]string, error) {
	var out []string
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return out, nil
		}
		out, rest = append(out, fs.Arg(0)), fs.Args()[1:]
	}
}

// runAttach is `ethicsbot attach CASE FILE... --by MEMBER [--title "..."] [--kind KIND]`:
// it adds the files to the case file, as the bot records any action: each sniffed by its
// content (a PDF, PNG or JPEG up to documents.max_mb), stored under its SHA-256 with an
// event that carries the hash, all in one transaction, and the docket channel's line put
// in the outbox for the bot to say. It writes the record, so it takes the lock the bot
// holds: while the bot runs it is refused, saying so; the record has one writer.
func runAttach(args []string, stdout, stderr io.Writer, getenv func(string) string, now func() time.Time) int {
	fail := failer(stderr, "attach")
	const form = `usage: ethicsbot attach CASE FILE... --by MEMBER [--title "..."] [--kind complaint|exhibit|evidence|correspondence]`
	fs := flag.NewFlagSet("attach", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	title := fs.String("title", "", "the document's title; default the file's name")
	kind := fs.String("kind", string(docket.ExhibitDocument), "what the documents are")
	by := fs.String("by", "", "the Slack member id of the commissioner or clerk adding them")
	rest, err := arguments(fs, args)
	if err != nil {
		return fail(app.ExitUsage, "%v; %s", err, form)
	}
	if len(rest) < 2 {
		return fail(app.ExitUsage, "give the case number and at least one file; %s", form)
	}
	number, files := rest[0], rest[1:]
	if *title != "" && len(files) > 1 {
		return fail(app.ExitUsage,
			"--title names one document; give one file with it, or leave it out and each is titled by its file's name")
	}
	if !slices.Contains(docket.DocumentKinds, docket.DocumentKind(*kind)) {
		return fail(app.ExitUsage, "--kind %q is not one of complaint, exhibit, evidence, correspondence", *kind)
	}
	cfg, engine, ro, err := openStore(getenv)
	if err != nil {
		return fail(app.ExitFailure, "%v", err)
	}
	ro.Close()
	if role := cfg.Roles.Of(*by); role != commands.Commissioner && role != commands.Clerk {
		return fail(app.ExitUsage,
			"--by %q is not a commissioner or clerk of the configuration: the record names who added each document", *by)
	}
	docs := make([]docket.Upload, len(files))
	for i, name := range files {
		data, err := readDocument(name, cfg.DocumentLimit)
		if err != nil {
			return fail(app.ExitUsage, "%v", err)
		}
		docs[i] = docket.Upload{Name: name, Data: data, Title: *title, Kind: docket.DocumentKind(*kind)}
	}
	if err := letters.CheckUploads(context.Background(), docs, cfg.DocumentLimit); err != nil {
		return fail(app.ExitUsage, "%v", err)
	}
	db, err := store.OpenWith(cfg.Database, engine, store.Options{Lock: true, Now: now})
	if store.InUse(err) {
		return fail(app.ExitFailure,
			"%v. The bot is running on this record, and the record has one writer: stop the bot to attach from the command "+
				"line, then start it again", err)
	}
	if err != nil {
		return fail(app.ExitFailure, "%v", err)
	}
	defer db.Close()
	svc := &commands.Service{Record: db, Engine: engine, Now: now}
	svc.Configure(app.SettingsOf(cfg, nil))
	db.SayWith(svc) // the docket channel's line and any public notice, as for /ethics attach
	res, err := db.Attach(context.Background(), docket.Act{By: *by, At: now()}, number, cfg.DocumentLimit, docs)
	if err != nil {
		return fail(app.ExitUsage, "%v", err)
	}
	for _, d := range res.Case.Documents[len(res.Case.Documents)-len(docs):] {
		fmt.Fprintf(stdout, "%s\t%s\t%s\t%s\t%s\n", res.Case.Number, d.SHA256, d.Kind, docket.Size(d.Size), d.Title)
	}
	return app.ExitOK
}

// readDocument reads the file at name, which must be a regular file of at most limit bytes:
// a device, a pipe or a file that grows is never read past the limit.
func readDocument(name string, limit int64) ([]byte, error) {
	// Looked at before it is opened: opening a pipe waits for a writer.
	if fi, err := os.Stat(name); err != nil {
		return nil, err
	} else if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%v): a document is a PDF, PNG or JPEG file", name, fi.Mode().Type())
	}
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() { // replaced since it was looked at
		return nil, fmt.Errorf("%s is not a regular file (%v): a document is a PDF, PNG or JPEG file", name, fi.Mode().Type())
	}
	if fi.Size() > limit { // refused before it is read into memory
		return nil, fmt.Errorf("%s is %s; the limit for a document is %s (documents.max_mb)", name, docket.Size(fi.Size()),
			docket.Size(limit))
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit { // it grew while read
		return nil, fmt.Errorf("%s is over %s, the limit for a document (documents.max_mb)", name, docket.Size(limit))
	}
	return data, nil
}
