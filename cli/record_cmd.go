package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"ethicsbot/app"
	"ethicsbot/config"
	"ethicsbot/docket"
	"ethicsbot/store"
)

// runRecord runs the subcommands that work on the database as a whole: verify, backup,
// export, migrate and restore.
func runRecord(name string, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fail := failer(stderr, name)
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	format := fs.String("format", "", "csv or json")
	public := fs.Bool("public", false, "only what the ordinance makes public")
	anchor := fs.String("anchor", "", "an anchor printed or posted earlier, <events>:<hash>")
	otherRecord := fs.Bool("other-record", false, "restore a backup that is not of the record it replaces")
	scheduled := fs.Bool("scheduled", false, "the nightly backup: /metrics and /healthz show when it last succeeded")
	if err := fs.Parse(args); err != nil {
		return fail(app.ExitUsage, "%v; run `ethicsbot help`", err)
	}
	var want store.Anchor
	switch {
	case (name == "backup" || name == "restore") && fs.NArg() != 1:
		return fail(app.ExitUsage, "give the path of the copy: ethicsbot %s PATH", name)
	case name != "backup" && name != "restore" && fs.NArg() > 0:
		return fail(app.ExitUsage, "unexpected argument %q", fs.Arg(0))
	case name == "export" && *format != "csv" && *format != "json":
		return fail(app.ExitUsage, "--format must be csv or json")
	case name != "export" && (*format != "" || *public):
		return fail(app.ExitUsage, "--format and --public are for export")
	case name != "verify" && *anchor != "":
		return fail(app.ExitUsage, "--anchor is for verify")
	case name != "restore" && *otherRecord:
		return fail(app.ExitUsage, "--other-record is for restore")
	case name != "backup" && *scheduled:
		return fail(app.ExitUsage, "--scheduled is for backup")
	case *anchor != "":
		var err error
		if want, err = store.ParseAnchor(*anchor); err != nil {
			return fail(app.ExitUsage, "--anchor: %v", err)
		}
	}
	cfg, err := config.Load(getenv)
	if err != nil {
		return fail(app.ExitFailure, "%v", err)
	}
	engine, err := cfg.Engine()
	if err != nil {
		return fail(app.ExitFailure, "config %s: %v", cfg.Path, err)
	}
	ctx := context.Background()
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	switch name {
	case "migrate":
		from, to, recounted, err := store.Migrate(cfg.Database, engine, store.Options{Log: logger})
		if err != nil {
			return fail(app.ExitFailure, "%v", err)
		}
		if recounted {
			fmt.Fprintf(stdout, "%s: already at schema version %d; the open cases' due instants were counted again "+
				"under this calendar and these rules\n", cfg.Database, to)
		} else if from == to {
			fmt.Fprintf(stdout, "%s: already at schema version %d; nothing to do\n", cfg.Database, to)
		} else {
			fmt.Fprintf(stdout, "%s: migrated from schema version %d to %d\n", cfg.Database, from, to)
		}
		return app.ExitOK
	case "restore":
		r, err := store.Restore(ctx, fs.Arg(0), cfg.Database, engine, time.Now,
			store.RestoreOptions{OtherRecord: *otherRecord})
		if err != nil {
			return fail(app.ExitFailure, "%v", err)
		}
		fmt.Fprint(stdout, r)
		return app.ExitOK
	}
	db, err := openRecord(cfg.Database, engine)
	if err != nil {
		return fail(app.ExitFailure, "%v", err)
	}
	defer db.Close()
	if name != "verify" && name != "backup" { // a record as it is can be verified and copied
		if err := db.Outdated(); err != nil {
			return fail(app.ExitFailure, "%v", err)
		}
	}
	report := func(r store.Report, what string) int {
		if r.Broken != nil {
			fmt.Fprintf(stdout, "%s: BROKEN at %s\n", what, r.Broken)
			return app.ExitFailure
		}
		if r.Differs != nil && name == "verify" {
			fmt.Fprintf(stdout, "%s: BROKEN at %s\n", what, r.Differs)
			return app.ExitFailure
		}
		fmt.Fprintf(stdout, "%s: %d events in %d cases; the chain is intact\n", what, r.Events, r.Cases)
		for _, note := range r.Notes {
			fmt.Fprintf(stdout, "%s: note: %s\n", what, note)
		}
		if *anchor != "" {
			problem, err := db.CheckAnchor(ctx, want)
			if err != nil {
				return fail(app.ExitFailure, "%v", err)
			}
			if problem != "" {
				fmt.Fprintf(stdout, "%s: DIFFERS from anchor %s: %s\n", what, want, problem)
				return app.ExitFailure
			}
			after := fmt.Sprintf("%d events", r.Anchor.Events-want.Events)
			if want.Meetings > 0 {
				// An anchor without a meetings part says nothing of them.
				after += fmt.Sprintf(" and %d meeting events", r.Anchor.Meetings-want.Meetings)
			}
			fmt.Fprintf(stdout, "%s: holds anchor %s, with %s after it\n", what, want, after)
		}
		fmt.Fprintf(stdout, "anchor %s\n", r.Anchor)
		return app.ExitOK
	}
	switch name {
	case "verify":
		r, err := db.Verify(ctx)
		if err != nil {
			return fail(app.ExitFailure, "%v", err)
		}
		return report(r, cfg.Database)
	case "backup":
		if fs.Arg(0) == "-" {
			return backupToStdout(ctx, db, cfg.Database, *scheduled, stdout, stderr, getenv)
		}
		r, err := db.Backup(ctx, fs.Arg(0))
		if err != nil {
			return fail(app.ExitFailure, "%v", err)
		}
		code := report(r, "backup "+fs.Arg(0))
		if code == app.ExitOK && *scheduled {
			warnUnnoted(app.NoteBackup(cfg.Database, fs.Arg(0), time.Now()), stderr)
		}
		return code
	default:
		if err := db.ExportNamed(ctx, stdout, *format, *public, cfg.Roles.People); err != nil {
			return fail(app.ExitFailure, "%v", err)
		}
		return app.ExitOK
	}
}

// openStore reads the configuration and opens the database it names, which must exist and
// be at this ethicsbot's schema, to read it only: the commands that read the record
// (backup, export, letters, calendar, report, publish) never create or change one.
func openStore(getenv func(string) string) (config.Config, *docket.Engine, *store.Store, error) {
	cfg, err := config.Load(getenv)
	if err != nil {
		return cfg, nil, nil, err
	}
	engine, err := cfg.Engine()
	if err != nil {
		return cfg, nil, nil, fmt.Errorf("config %s: %v", cfg.Path, err)
	}
	db, err := openRecord(cfg.Database, engine)
	if err != nil {
		return cfg, nil, nil, err
	}
	if err := db.Outdated(); err != nil {
		db.Close()
		return cfg, nil, nil, err
	}
	return cfg, engine, db, nil
}

// openRecord opens the database at path to read it only: the commands that read the
// record never create, migrate or otherwise change it, so they can run beside the bot, on
// a write-protected evidence copy, and on a record an older ethicsbot still serves.
func openRecord(path string, engine *docket.Engine) (*store.Store, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("database %s: %v; set ETHICSBOT_DB to the bot's database", path, err)
	}
	return store.OpenReadOnly(path, engine)
}
