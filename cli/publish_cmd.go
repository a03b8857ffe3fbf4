package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	neturl "net/url"
	"time"

	"ethicsbot/app"
	"ethicsbot/config"
	"ethicsbot/letters"
)

// runPublish is `ethicsbot publish --out DIR [--url URL]`: the public notice board as
// static files, for a town whose website is hosted elsewhere.
func runPublish(args []string, stdout, stderr io.Writer, getenv func(string) string, now func() time.Time) int {
	fail := failer(stderr, "publish")
	form := usageOf("publish")
	fs := flag.NewFlagSet("publish", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("out", "", "the folder to write the board to")
	url := fs.String("url", "", "where the folder is published, e.g. https://ethics.example.gov/board/; the feeds need it")
	if err := fs.Parse(args); err != nil {
		return fail(app.ExitUsage, "%v; %s", err, form)
	}
	if fs.NArg() > 0 {
		return fail(app.ExitUsage, "unexpected argument %q; %s", fs.Arg(0), form)
	}
	if *out == "" {
		return fail(app.ExitUsage, "give the folder to write to with --out; %s", form)
	}
	cfg, engine, db, err := openStore(getenv)
	if err != nil {
		return fail(app.ExitFailure, "%v", err)
	}
	defer db.Close()
	// Where the files will be published is settled before anything is drawn: the feeds'
	// links must lead there, not to this machine.
	public := cfg.PublicURL + "/"
	if *url != "" {
		u, err := config.ParsePublicURL(*url)
		if err != nil {
			return fail(app.ExitUsage, "--url: %v", err)
		}
		public = u + "/"
	} else if u, err := neturl.Parse(public); err != nil || app.IsLoopback(u.Hostname()) {
		return fail(app.ExitUsage,
			"give --url, the address at which %s is published, or set public_url in the configuration: the "+
				"feeds link to it", *out)
	}
	docs := app.NewTaggedDocs(slog.New(slog.NewTextHandler(stderr, nil)))
	defer docs.Close()
	// The meetings' PDFs are offered when the letters are set up, as the running bot's
	// board offers them.
	var maker *letters.Maker
	if m, err := letters.New(cfg.LettersFor(engine), engine.Cal.Location()); err == nil {
		maker = docs.Use(m)
	}
	board := app.BoardOf(cfg, engine, db, now, maker)
	board.URL = public
	files, err := board.Publish(context.Background(), *out)
	if err != nil {
		return fail(app.ExitFailure, "%v", err)
	}
	fmt.Fprintf(stdout, "Wrote the public notice board to %s: %d files.\n", *out, len(files))
	return app.ExitOK
}
