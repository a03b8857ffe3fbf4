// Package cli is ethicsbot's command line: the table of subcommands that Run dispatches on
// and the usage text is made of, and one file for each subcommand (name_cmd.go). The bot
// itself, `ethicsbot` with no subcommand, is app.App; main only hands its arguments here.
package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"ethicsbot/app"
)

// failer is how a subcommand fails: one line on stderr, naming the subcommand, and the
// exit status given.
func failer(stderr io.Writer, name string) func(status int, format string, a ...any) int {
	return func(status int, format string, a ...any) int {
		fmt.Fprintf(stderr, "ethicsbot %s: %s\n", name, strings.ReplaceAll(fmt.Sprintf(format, a...), "\n", " "))
		return status
	}
}

// A subcommand is a row of ethicsbot's table of command-line subcommands: Run dispatches
// on its names, `ethicsbot help` prints its usage and help, and a subcommand given bad
// arguments quotes its usage (usageOf).
type subcommand struct {
	names []string // the name and its aliases; none for the bot itself, `ethicsbot`
	usage string   // what follows "ethicsbot": the name and the arguments
	help  string   // what it does, as printed, line by line
	run   func(c cli, args []string) int
}

// cli is what Run gives a subcommand: its name as typed, and main's inputs.
type cli struct {
	name           string
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	now            func() time.Time
}

// subcommands is the table of ethicsbot's command-line subcommands, in the order help
// lists them. It is a function, not a variable, because the subcommands read their own
// usage from it. help has no run of its own: Run prints the usage, which is made of this
// table.
func subcommands() []subcommand {
	// verify, backup, export, migrate and restore share the handling of the database as a
	// whole (record_cmd.go).
	record := func(c cli, args []string) int { return runRecord(c.name, args, c.stdout, c.stderr, c.getenv) }
	return []subcommand{
		{
			names: []string{},
			usage: "",
			help: `Start the bot. With SLACK_BOT_TOKEN and SLACK_APP_TOKEN it connects over Socket
Mode; with SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET it serves HTTP on
ETHICSBOT_ADDR (default :3000); with none of the three it opens the console,
reading /ethics lines from stdin (a demo configuration if there is no
ethicsbot.yml). Part of a mode's settings is refused. While Slack cannot be
reached at start, it waits and tries again. SIGINT or SIGTERM stops it; in
Socket Mode and HTTP mode, SIGHUP reloads the configuration file (roles and
names, channels, reminders, the regular meetings) without a restart.`,
			run: func(c cli, _ []string) int {
				return (&app.App{Stdin: c.stdin, Stdout: c.stdout, Stderr: c.stderr, Getenv: c.getenv, Now: c.now}).Run()
			},
		},
		{
			names: []string{"rehearse"},
			usage: "rehearse [--copy] [--keep]",
			help: `Open the console with the commission's own configuration (ethicsbot.yml), to
rehearse before going live or to train a clerk: the minutes and letters show the
real names, signers and letterhead, and :clock moves a simulated clock. It runs on
an empty record, or with --copy on a verified copy of the real one (read only, so
it may run beside the bot), in a private temporary folder removed at the end
unless --keep. Slack's settings are not read: nothing reaches Slack or the real
record.`,
			run: func(c cli, args []string) int {
				return runRehearse(args, c.stdin, c.stdout, c.stderr, c.getenv, c.now)
			},
		},
		{
			names: []string{"deadlines"},
			usage: "deadlines [--tz ZONE] < facts.json",
			help: `Read one case's facts as JSON on stdin and write every deadline that applies,
with its rule and how it was counted, as JSON on stdout.`,
			run: func(c cli, args []string) int {
				return runDeadlines(args, c.stdin, c.stdout, c.stderr, c.getenv, c.now)
			},
		},
		{
			names: []string{"verify"},
			usage: "verify [--anchor N:HASH[+M:HASH]]",
			help: `Walk the record's hash chains (the cases' and the meetings') and check every
case and meeting against its events, reading the file only (a write-protected copy,
or one at an older schema, will do). Exit status 1 names the first broken link. The
last line is the record's anchor, "anchor N:HASH+M:HASH": the number of case events
and the last one's hash, then the same of the meetings' events ("anchor N:HASH" while
there are none). With --anchor, exit status 1 also unless those events are in the
record with those hashes; an older anchor, N:HASH, checks the cases' chain alone.`,
			run: record,
		},
		{
			names: []string{"backup"},
			usage: "backup [--scheduled] PATH",
			help: `Copy the database to PATH (created mode 0600) while the bot runs, then verify
the copy and print its anchor. With PATH -, the verified copy goes to stdout
(through a private temporary file under TMPDIR). --scheduled marks the nightly
backup: /metrics and /healthz show when it last succeeded.`,
			run: record,
		},
		{
			names: []string{"migrate"},
			usage: "migrate",
			help: `With the bot stopped, bring the database to this ethicsbot's schema, after a
verified backup beside it. The bot does the same when it starts.`,
			run: record,
		},
		{
			names: []string{"restore"},
			usage: "restore [--other-record] BACKUP",
			help: `With the bot stopped, verify BACKUP and put it in place of the database, keeping
the replaced file beside it. A backup of another record (another chain) is
refused unless --other-record is given. At its next start the bot looks in Slack for what
the backup had not yet said, and tells the docket channel what the restore lost.`,
			run: record,
		},
		{
			names: []string{"export"},
			usage: "export --format csv|json [--public]",
			help: `Write all cases and their events to stdout; --public writes only what the
ordinance makes public.`,
			run: record,
		},
		{
			names: []string{"letters"},
			usage: "letters CASE|MEETING [--only KIND] [--out DIR]",
			help: `Write the case's letters and meeting notices as PDF files to DIR (default
letters.out, or a folder "ethicsbot-letters" beside the database): every document the
case calls for as it stands, or only KIND (e.g. respondent, referral,
notice_hearing). Given a meeting (its name, e.g. 2027-01-12), write its agenda,
dated by its posting. Prints each file's path.`,
			run: func(c cli, args []string) int { return runLetters(args, c.stdout, c.stderr, c.getenv, c.now) },
		},
		{
			names: []string{"minutes"},
			usage: "minutes MEETING [--out DIR]",
			help: `Write a meeting's minutes (MEETING is its name, e.g. 2027-01-12) as PDF and
Markdown files to DIR (default as for letters): the open minutes, and the
confidential closed minutes if it had a closed session; marked DRAFT until the
commission approves them (5 ILCS 120/2.06). Prints each file's path.`,
			run: func(c cli, args []string) int { return runMinutesFiles(args, c.stdout, c.stderr, c.getenv) },
		},
		{
			names: []string{"calendar"},
			usage: "calendar [--out FILE]",
			help: `Write the calendar of every case's dated deadlines and meetings, as the
clerk's feed shows them, as an iCalendar file to FILE (default, or -:
stdout). Members subscribe to their own feeds with /ethics calendar.`,
			run: func(c cli, args []string) int { return runCalendar(args, c.stdout, c.stderr, c.getenv, c.now) },
		},
		{
			names: []string{"publish"},
			usage: "publish --out DIR [--url URL]",
			help: `Write the public notice board, with its Atom and iCalendar feeds, as static
files to DIR, for a website hosted elsewhere; URL is where DIR is published.`,
			run: func(c cli, args []string) int { return runPublish(args, c.stdout, c.stderr, c.getenv, c.now) },
		},
		{
			names: []string{"report"},
			usage: "report YEAR [--format md|csv|json] [--chart FILE.png]",
			help: `Write the year's annual report to stdout (default Markdown): complaints
received, outcomes, days from receipt to each step, deadlines met and missed,
fines and (G) expedited cases. --chart also writes its chart as a PNG.`,
			run: func(c cli, args []string) int { return runReport(args, c.stdout, c.stderr, c.getenv, c.now) },
		},
		{
			names: []string{"mailbook"},
			usage: "mailbook DATE [--pdf FILE]",
			help: `Write the firm mailing book of the certified letters recorded as mailed on DATE
(YYYY-MM-DD), in the manner of PS Form 3877, to stdout as Markdown: sender, each
article number, addressee and the address it went to, blank postage columns, for
the counter clerk to stamp. --pdf also writes it as a PDF to FILE. Opens the record read-only.`,
			run: func(c cli, args []string) int { return runMailbook(args, c.stdout, c.stderr, c.getenv) },
		},
		{
			names: []string{"check-config"},
			usage: "check-config [FILE]",
			help: `Check a configuration file (default ETHICSBOT_CONFIG, then ./ethicsbot.yml) as a
start in Socket Mode or HTTP mode would, without starting: exit status 0 if it
would be accepted, 1 with the line and the problem if not.`,
			run: func(c cli, args []string) int { return runCheckConfig(args, c.stdout, c.stderr, c.getenv) },
		},
		{
			names: []string{"upgrade"},
			usage: "upgrade --check",
			help: `Before an upgrade, run the new binary with the service's ETHICSBOT_CONFIG and
ETHICSBOT_DB, beside the running bot: says whether it would start on them (the
configuration, with what the next release refuses), the migrations its first
start would apply, the last backup's age, and whether a bot holds the record.
Writes nothing; opens the record read-only. Exit status 0 if it would start,
else the status its start would exit with.`,
			run: func(c cli, args []string) int { return runUpgradeCheck(args, c.stdout, c.stderr, c.getenv, c.now()) },
		},
		{
			names: []string{"version", "--version", "-V"},
			usage: "version  (or --version, -V)",
			help:  `Print the version, the commit, the build date and the Go release it was built with.`,
			run:   func(c cli, args []string) int { return runVersion(args, c.stdout, c.stderr) },
		},
		{
			names: []string{"attach"},
			usage: "attach CASE FILE... --by MEMBER [--title \"...\"] [--kind KIND]",
			help: `Add the files to the case file, as MEMBER (a commissioner's or clerk's Slack
member id): each a PDF, PNG or JPEG by its content, up to documents.max_mb
(default 25), KIND complaint, exhibit (default), evidence or correspondence.
It writes the record, so it runs only while the bot is stopped.`,
			run: func(c cli, args []string) int { return runAttach(args, c.stdout, c.stderr, c.getenv, c.now) },
		},
		{
			names: []string{"documents"},
			usage: "documents CASE [--out DIR]",
			help: `Write the case file's documents to DIR (default CASE-documents), each checked
against its SHA-256, mode 0640 in a 0750 folder. Opens the record read-only.`,
			run: func(c cli, args []string) int { return runDocuments(args, c.stdout, c.stderr, c.getenv) },
		},
		{
			names: []string{"help", "-h", "-help", "--help"},
			usage: "help",
			help:  `Show this text.`,
			run:   nil,
		},
	}
}

// usageHead and usageSettings are the usage text's first paragraph and its list of
// environment variables; between them, each subcommand's usage and help.
const (
	usageHead     = `ethicsbot runs a municipal ethics commission's complaint docket as its ordinance requires.`
	usageSettings = `  ETHICSBOT_CONFIG   configuration file (default ./ethicsbot.yml, used if present)
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
)

// usage is what `ethicsbot help` prints, made of the table of subcommands.
var usage = usageText(subcommands())

// usageText lays out the usage text: the head, then each subcommand's usage, with its
// help indented below it, then the settings.
func usageText(table []subcommand) string {
	var b strings.Builder
	b.WriteString(usageHead + "\n\nUsage:\n")
	for _, sc := range table {
		b.WriteString(strings.TrimRight("  ethicsbot "+sc.usage, " ") + "\n")
		for _, line := range strings.Split(sc.help, "\n") {
			b.WriteString("      " + line + "\n")
		}
	}
	b.WriteString("\nSettings:\n" + usageSettings)
	return b.String()
}

// usageOf is "usage: ethicsbot " and the usage of the subcommand name, for the error of a
// subcommand given bad arguments.
func usageOf(name string) string {
	for _, sc := range subcommands() {
		if slices.Contains(sc.names, name) {
			return "usage: ethicsbot " + sc.usage
		}
	}
	return "run `ethicsbot help`"
}

// Run is ethicsbot's command line: it runs the subcommand args name (the bot itself when
// there is none) with main's inputs passed in, so that tests drive it directly, and
// returns the process's exit status.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string,
	now func() time.Time) int {
	c := cli{stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv, now: now}
	for _, sc := range subcommands() {
		switch {
		case len(args) == 0 && len(sc.names) == 0:
			return sc.run(c, nil)
		case len(args) > 0 && slices.Contains(sc.names, args[0]):
			if sc.run == nil { // help
				fmt.Fprint(stdout, usage)
				return app.ExitOK
			}
			c.name = args[0]
			return sc.run(c, args[1:])
		}
	}
	fmt.Fprintf(stderr, "ethicsbot: unknown command %q; run `ethicsbot help` for the commands\n", args[0])
	return app.ExitUsage
}
