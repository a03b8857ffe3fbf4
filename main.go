// Command ethicsbot runs a municipal ethics commission's complaint docket as its ordinance
// requires. See README.md and the documents it lists in docs/.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	neturl "net/url"
	"os"
	"strings"
	"time"
	_ "time/tzdata" // the commission's zone must resolve on machines without a zoneinfo database

	"ethicsbot/docket"
	"ethicsbot/store"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv, time.Now))
}

// Exit statuses.
const (
	exitOK      = 0
	exitFailure = 1 // configuration or environment
	exitUsage   = 2 // bad input or arguments
)

const usage = `ethicsbot runs a municipal ethics commission's complaint docket as its ordinance requires.

Usage:
  ethicsbot
      Start the bot. With SLACK_BOT_TOKEN and SLACK_APP_TOKEN it connects over Socket
      Mode; with SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET it serves HTTP on
      ETHICSBOT_ADDR (default :3000); with none of the three it opens the console,
      reading /ethics lines from stdin (a demo configuration if there is no
      ethicsbot.yml). Part of a mode's settings is refused. While Slack cannot be
      reached at start, it waits and tries again. SIGINT or SIGTERM stops it; in
      Socket Mode and HTTP mode, SIGHUP reloads the configuration file (roles,
      channels, reminders) without a restart.
  ethicsbot deadlines [--tz ZONE] < facts.json
      Read one case's facts as JSON on stdin and write every deadline that applies,
      with its rule and how it was counted, as JSON on stdout.
  ethicsbot verify [--anchor N:HASH]
      Walk the record's hash chain and check every case against its events, reading
      the file only (a write-protected copy, or one at an older schema, will do). Exit
      status 1 names the first broken link. The last line is the record's anchor,
      "anchor N:HASH": its number of events and the last one's hash. With --anchor,
      exit status 1 also unless event N is in the record with that hash.
  ethicsbot backup PATH
      Copy the database to PATH (created mode 0600) while the bot runs, then verify
      the copy and print its anchor. With PATH -, the verified copy goes to stdout
      (through a private temporary file under TMPDIR).
  ethicsbot migrate
      With the bot stopped, bring the database to this ethicsbot's schema, after a
      verified backup beside it. The bot does the same when it starts.
  ethicsbot restore [--other-record] BACKUP
      With the bot stopped, verify BACKUP and put it in place of the database, keeping
      the replaced file beside it. A backup of another record (another chain) is
      refused unless --other-record is given. At its next start the bot looks in Slack for what
      the backup had not yet said, and tells the docket channel what the restore lost.
  ethicsbot export --format csv|json [--public]
      Write all cases and their events to stdout; --public writes only what the
      ordinance makes public.
  ethicsbot letters CASE [--only KIND] [--out DIR]
      Write the case's letters and meeting notices as PDF files to DIR (default
      letters.out, or a folder "ethicsbot-letters" beside the database): every document the
      case calls for as it stands, or only KIND (e.g. respondent, referral,
      notice_hearing). Prints each file's path.
  ethicsbot calendar [--out FILE]
      Write the calendar of every case's dated deadlines and meetings, as the
      clerk's feed shows them, as an iCalendar file to FILE (default, or -:
      stdout). Members subscribe to their own feeds with /ethics calendar.
  ethicsbot publish --out DIR [--url URL]
      Write the public notice board, with its Atom and iCalendar feeds, as static
      files to DIR, for a website hosted elsewhere; URL is where DIR is published.
  ethicsbot report YEAR [--format md|csv|json] [--chart FILE.png]
      Write the year's annual report to stdout (default Markdown): complaints
      received, outcomes, days from receipt to each step, deadlines met and missed,
      fines and (G) expedited cases. --chart also writes its chart as a PNG.
  ethicsbot mailbook DATE [--pdf FILE]
      Write the firm mailing book of the certified letters recorded as mailed on DATE
      (YYYY-MM-DD), in the manner of PS Form 3877, to stdout as Markdown: sender, each
      article number, addressee and the address it went to, blank postage columns, for
      the counter clerk to stamp. --pdf also writes it as a PDF to FILE. Opens the record read-only.
  ethicsbot check-config [FILE]
      Check a configuration file (default ETHICSBOT_CONFIG, then ./ethicsbot.yml) as a
      start in Socket Mode or HTTP mode would, without starting: exit status 0 if it
      would be accepted, 1 with the line and the problem if not.
  ethicsbot version  (or --version, -V)
      Print the version, the commit, the build date and the Go release it was built with.
  ethicsbot attach CASE FILE... --by MEMBER [--title "..."] [--kind KIND]
      Add the files to the case file, as MEMBER (a commissioner's or clerk's Slack
      member id): each a PDF, PNG or JPEG by its content, up to documents.max_mb
      (default 25), KIND complaint, exhibit (default), evidence or correspondence.
      It writes the record, so it runs only while the bot is stopped.
  ethicsbot documents CASE [--out DIR]
      Write the case file's documents to DIR (default CASE-documents), each checked
      against its SHA-256, mode 0640 in a 0750 folder. Opens the record read-only.
  ethicsbot help
      Show this text.

Settings:
  ETHICSBOT_CONFIG   configuration file (default ./ethicsbot.yml, used if present)
  ETHICSBOT_DB       the SQLite database (default ./ethicsbot.db)
  ETHICSBOT_ADDR     HTTP listen address, in every mode, of the public notice
                     board and the calendar feeds, and in HTTP mode of /slack/* (default
                     :3000); public_url in the configuration is where it is reached from outside
  ETHICSBOT_ADMIN_ADDR
                     listen address of /healthz and /metrics (default 127.0.0.1:3001; the
                     console serves them beside the board); the value of ETHICSBOT_ADDR
                     serves them there
  ETHICSBOT_SLACK_ADDR
                     in HTTP mode, a listen address of /slack/* apart from the board
  SLACK_BOT_TOKEN, SLACK_APP_TOKEN, SLACK_SIGNING_SECRET, SLACK_API_URL, SLACK_PACE
                     see docs/setup.md, "Connecting to Slack"; each secret may instead be
                     a file, in SLACK_BOT_TOKEN_FILE (etc.) or a systemd credential
                     slack-bot-token (etc.) in $CREDENTIALS_DIRECTORY
  ETHICSBOT_LOG_LEVEL   debug, info (default), warn or error
  ETHICSBOT_LOG_FORMAT  logfmt (default) or json
  ETHICSBOT_TRUSTED_PROXIES
                     reverse proxies whose X-Forwarded-For the access log believes
                     (addresses or CIDR ranges, comma-separated; default none)
`

// run is main with its inputs passed in, so tests drive it directly.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string, now func() time.Time) int {
	if len(args) == 0 {
		return serve(stdin, stdout, stderr, getenv, now)
	}
	switch args[0] {
	case "deadlines":
		return runDeadlines(args[1:], stdin, stdout, stderr, getenv, now)
	case "letters":
		return runLetters(args[1:], stdout, stderr, getenv, now)
	case "publish":
		return runPublish(args[1:], stdout, stderr, getenv, now)
	case "calendar":
		return runCalendar(args[1:], stdout, stderr, getenv, now)
	case "report":
		return runReport(args[1:], stdout, stderr, getenv, now)
	case "mailbook":
		return runMailbook(args[1:], stdout, stderr, getenv)
	case "attach":
		return runAttach(args[1:], stdout, stderr, getenv, now)
	case "documents":
		return runDocuments(args[1:], stdout, stderr, getenv)
	case "verify", "backup", "export", "migrate", "restore":
		return runRecord(args[0], args[1:], stdout, stderr, getenv)
	case "check-config":
		return runCheckConfig(args[1:], stdout, stderr, getenv)
	case "version", "--version", "-V":
		return runVersion(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "ethicsbot: unknown command %q; run `ethicsbot help` for the commands\n", args[0])
	return exitUsage
}

// failer is how a subcommand fails: one line on stderr, naming the subcommand, and the
// exit status given.
func failer(stderr io.Writer, name string) func(status int, format string, a ...any) int {
	return func(status int, format string, a ...any) int {
		fmt.Fprintf(stderr, "ethicsbot %s: %s\n", name, strings.ReplaceAll(fmt.Sprintf(format, a...), "\n", " "))
		return status
	}
}

// runDeadlines is `ethicsbot deadlines`: facts in, deadlines out. Bad input gives exit
// status 2 and one line on stderr naming the field, and nothing on stdout.
func runDeadlines(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string, now func() time.Time) int {
	fail := failer(stderr, "deadlines")
	fs := flag.NewFlagSet("deadlines", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	tz := fs.String("tz", "", "the commission's time zone, overriding the configuration")
	if err := fs.Parse(args); err != nil {
		return fail(exitUsage, "%v; usage: ethicsbot deadlines [--tz ZONE] < facts.json", err)
	}
	if fs.NArg() > 0 {
		return fail(exitUsage, "unexpected argument %q; the facts are read from stdin", fs.Arg(0))
	}
	cfg, err := LoadConfig(getenv)
	if err != nil {
		return fail(exitFailure, "%v", err)
	}
	in, err := docket.DecodeInput(stdin)
	if err != nil {
		return fail(exitUsage, "%v", err)
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
		return fail(exitUsage, "%s: %v", field, err)
	}
	engine := &docket.Engine{Cal: cal, Ord: cfg.Ordinance, Mail: cfg.Mail}
	if err := engine.Validate(&in.Facts); err != nil {
		return fail(exitUsage, "%v", err)
	}
	asOf := in.AsOf
	if asOf.IsZero() {
		asOf = now()
	}
	out, err := json.MarshalIndent(engine.Schedule(&in.Facts, asOf), "", "  ")
	if err != nil {
		return fail(exitFailure, "cannot write the deadlines: %v", err)
	}
	stdout.Write(append(out, '\n'))
	return exitOK
}

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
	if err := fs.Parse(args); err != nil {
		return fail(exitUsage, "%v; run `ethicsbot help`", err)
	}
	var want store.Anchor
	switch {
	case (name == "backup" || name == "restore") && fs.NArg() != 1:
		return fail(exitUsage, "give the path of the copy: ethicsbot %s PATH", name)
	case name != "backup" && name != "restore" && fs.NArg() > 0:
		return fail(exitUsage, "unexpected argument %q", fs.Arg(0))
	case name == "export" && *format != "csv" && *format != "json":
		return fail(exitUsage, "--format must be csv or json")
	case name != "export" && (*format != "" || *public):
		return fail(exitUsage, "--format and --public are for export")
	case name != "verify" && *anchor != "":
		return fail(exitUsage, "--anchor is for verify")
	case name != "restore" && *otherRecord:
		return fail(exitUsage, "--other-record is for restore")
	case *anchor != "":
		var err error
		if want, err = store.ParseAnchor(*anchor); err != nil {
			return fail(exitUsage, "--anchor: %v", err)
		}
	}
	cfg, err := LoadConfig(getenv)
	if err != nil {
		return fail(exitFailure, "%v", err)
	}
	engine, err := newEngine(cfg)
	if err != nil {
		return fail(exitFailure, "config %s: %v", cfg.Path, err)
	}
	ctx := context.Background()
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	switch name {
	case "migrate":
		from, to, err := store.Migrate(cfg.Database, engine, store.Options{Log: logger})
		if err != nil {
			return fail(exitFailure, "%v", err)
		}
		if from == to {
			fmt.Fprintf(stdout, "%s: already at schema version %d; nothing to do\n", cfg.Database, to)
		} else {
			fmt.Fprintf(stdout, "%s: migrated from schema version %d to %d\n", cfg.Database, from, to)
		}
		return exitOK
	case "restore":
		r, err := store.Restore(ctx, fs.Arg(0), cfg.Database, engine, time.Now, store.RestoreOptions{OtherRecord: *otherRecord})
		if err != nil {
			return fail(exitFailure, "%v", err)
		}
		fmt.Fprint(stdout, r)
		return exitOK
	}
	db, err := openRecord(cfg.Database, engine)
	if err != nil {
		return fail(exitFailure, "%v", err)
	}
	defer db.Close()
	if name != "verify" && name != "backup" { // a record as it is can be verified and copied
		if err := db.Outdated(); err != nil {
			return fail(exitFailure, "%v", err)
		}
	}
	report := func(r store.Report, what string) int {
		if r.Broken != nil {
			fmt.Fprintf(stdout, "%s: BROKEN at %s\n", what, r.Broken)
			return exitFailure
		}
		fmt.Fprintf(stdout, "%s: %d events in %d cases; the chain is intact\n", what, r.Events, r.Cases)
		if *anchor != "" {
			problem, err := db.CheckAnchor(ctx, want)
			if err != nil {
				return fail(exitFailure, "%v", err)
			}
			if problem != "" {
				fmt.Fprintf(stdout, "%s: DIFFERS from anchor %s: %s\n", what, want, problem)
				return exitFailure
			}
			fmt.Fprintf(stdout, "%s: holds anchor %s, with %d events after it\n", what, want, r.Anchor.Events-want.Events)
		}
		fmt.Fprintf(stdout, "anchor %s\n", r.Anchor)
		return exitOK
	}
	switch name {
	case "verify":
		r, err := db.Verify(ctx)
		if err != nil {
			return fail(exitFailure, "%v", err)
		}
		return report(r, cfg.Database)
	case "backup":
		if fs.Arg(0) == "-" {
			return backupToStdout(ctx, db, cfg.Database, stdout, stderr, getenv)
		}
		r, err := db.Backup(ctx, fs.Arg(0))
		if err != nil {
			return fail(exitFailure, "%v", err)
		}
		code := report(r, "backup "+fs.Arg(0))
		if code == exitOK {
			warnUnnoted(noteBackup(cfg.Database, fs.Arg(0), time.Now()), stderr)
		}
		return code
	default:
		if err := db.Export(ctx, stdout, *format, *public); err != nil {
			return fail(exitFailure, "%v", err)
		}
		return exitOK
	}
}

// openStore reads the configuration and opens the database it names, which must exist and
// be at this ethicsbot's schema, to read it only: the commands that read the record
// (backup, export, letters, calendar, report, publish) never create or change one.
func openStore(getenv func(string) string) (Config, *docket.Engine, *store.Store, error) {
	cfg, err := LoadConfig(getenv)
	if err != nil {
		return cfg, nil, nil, err
	}
	engine, err := newEngine(cfg)
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

// newEngine builds the deadline engine the configuration describes.
func newEngine(cfg Config) (*docket.Engine, error) {
	cal, err := docket.NewCalendar(cfg.Calendar)
	if err != nil {
		return nil, err
	}
	return &docket.Engine{Cal: cal, Ord: cfg.Ordinance, Mail: cfg.Mail}, nil
}

// runPublish is `ethicsbot publish --out DIR [--url URL]`: the public notice board as
// static files, for a town whose website is hosted elsewhere.
func runPublish(args []string, stdout, stderr io.Writer, getenv func(string) string, now func() time.Time) int {
	fail := failer(stderr, "publish")
	const form = "usage: ethicsbot publish --out DIR [--url URL]"
	fs := flag.NewFlagSet("publish", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("out", "", "the folder to write the board to")
	url := fs.String("url", "", "where the folder is published, e.g. https://ethics.example.gov/board/; the feeds need it")
	if err := fs.Parse(args); err != nil {
		return fail(exitUsage, "%v; %s", err, form)
	}
	if fs.NArg() > 0 {
		return fail(exitUsage, "unexpected argument %q; %s", fs.Arg(0), form)
	}
	if *out == "" {
		return fail(exitUsage, "give the folder to write to with --out; %s", form)
	}
	cfg, engine, db, err := openStore(getenv)
	if err != nil {
		return fail(exitFailure, "%v", err)
	}
	defer db.Close()
	board := boardOf(cfg, engine, db, now)
	if *url != "" {
		u, err := parsePublicURL(*url)
		if err != nil {
			return fail(exitUsage, "--url: %v", err)
		}
		board.URL = u + "/"
	} else if u, err := neturl.Parse(board.URL); err != nil || isLoopback(u.Hostname()) {
		// The feeds' links must lead to where the files are published, not to this machine.
		return fail(exitUsage, "give --url, the address at which %s is published, or set public_url in the configuration: the feeds link to it", *out)
	}
	files, err := board.Publish(context.Background(), *out)
	if err != nil {
		return fail(exitFailure, "%v", err)
	}
	fmt.Fprintf(stdout, "Wrote the public notice board to %s: %d files.\n", *out, len(files))
	return exitOK
}

// isLoopback reports whether host names this machine only: localhost or a loopback
// address.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
