// Command ethicsbot runs a municipal ethics commission's complaint docket as its ordinance
// requires. See README.md.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
	_ "time/tzdata" // the commission's zone must resolve on machines without a zoneinfo database

	"ethicsbot/docket"
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
  ethicsbot deadlines [--tz ZONE] < facts.json
      Read one case's facts as JSON on stdin and write every deadline that applies,
      with its rule and how it was counted, as JSON on stdout.
  ethicsbot help
      Show this text.

Settings:
  ETHICSBOT_CONFIG   configuration file (default ./ethicsbot.yml, used if present)

This build holds the deadline engine. The record store, the Slack bot, console mode and
reminders are built on it next; README.md says what each step adds.
`

// run is main with its inputs passed in, so tests drive it directly.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string, now func() time.Time) int {
	if len(args) == 0 {
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	switch args[0] {
	case "deadlines":
		return runDeadlines(args[1:], stdin, stdout, stderr, getenv, now)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "ethicsbot: unknown command %q; run `ethicsbot help` for the commands\n", args[0])
	return exitUsage
}

// runDeadlines is `ethicsbot deadlines`: facts in, deadlines out. Bad input gives exit
// status 2 and one line on stderr naming the field, and nothing on stdout.
func runDeadlines(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string, now func() time.Time) int {
	fail := func(status int, format string, a ...any) int {
		msg := strings.ReplaceAll(fmt.Sprintf(format, a...), "\n", " ")
		fmt.Fprintf(stderr, "ethicsbot deadlines: %s\n", msg)
		return status
	}
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
	engine := &docket.Engine{Cal: cal, Ord: cfg.Ordinance}
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
