package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"ethicsbot/config"
)

// rehearsal is a console run with the commission's own configuration on a record that is
// not the commission's: an empty one, or a verified copy of the real one, in a private
// folder of its own. Nothing it does reaches the real record or Slack.
type rehearsal struct {
	dir    string // the private folder: the record's copy and the letters
	copyOf string // the real record copied, or "" for an empty record
}

// database is the rehearsal's own record.
func (r *rehearsal) database() string { return filepath.Join(r.dir, "rehearsal.db") }

// letters is where the rehearsal writes the documents its commands produce.
func (r *rehearsal) letters() string { return filepath.Join(r.dir, "letters") }

// runRehearse is `ethicsbot rehearse [--copy] [--keep]`: before going live, and to train a
// new clerk, the console with the commission's own ethicsbot.yml (names, signers, officers,
// regular meetings, letterhead), so that the minutes and letters show real names, with the
// demo's simulated clock. It runs on an empty record, or with --copy on a verified copy of
// the real one taken as `ethicsbot backup` takes it (reading the record only, so it may run
// beside the bot). The copy and the letters are in a private folder (0700), removed at the
// end unless --keep. Slack's settings are not read: every message is printed, none sent.
func runRehearse(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string,
	now func() time.Time) int {
	fail := failer(stderr, "rehearse")
	fs := flag.NewFlagSet("rehearse", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	copyRecord := fs.Bool("copy", false, "rehearse on a copy of the real record")
	keep := fs.Bool("keep", false, "keep the rehearsal's folder")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return fail(exitUsage, "%s", usageOf("rehearse"))
	}
	cfg, err := config.Load(getenv)
	if err != nil {
		return fail(exitFailure, "%v", err)
	}
	if cfg.Path == "" {
		return fail(exitFailure, "no configuration was found (ETHICSBOT_CONFIG, or ./ethicsbot.yml): a rehearsal runs the "+
			"commission's own; without one, `ethicsbot` alone opens the demo console")
	}
	dir, err := os.MkdirTemp(getenv("TMPDIR"), "ethicsbot-rehearsal-") // 0700
	if err != nil {
		return fail(exitFailure, "cannot make a folder for the rehearsal (TMPDIR): %v", err)
	}
	if !*keep {
		defer os.RemoveAll(dir)
	}
	r := &rehearsal{dir: dir}
	if *copyRecord {
		if err := copyForRehearsal(cfg.Database, r.database(), getenv); err != nil {
			return fail(exitFailure, "%v", err)
		}
		r.copyOf = cfg.Database
	}
	env := func(k string) string {
		switch {
		case k == "ETHICSBOT_DB":
			return r.database()
		case k == "ETHICSBOT_CONFIG":
			return cfg.Path
		case strings.HasPrefix(k, "SLACK_") || k == "CREDENTIALS_DIRECTORY":
			return ""
		}
		return getenv(k)
	}
	code := runApp(&App{Stdin: stdin, Stdout: stdout, Stderr: stderr, Getenv: env, Now: now, rehearsal: r}, stderr)
	if *keep {
		fmt.Fprintf(stdout, "[console] the rehearsal's record and letters are kept in %s\n", dir)
	}
	return code
}

// copyForRehearsal copies the record at from to to, verified, reading from only.
func copyForRehearsal(from, to string, getenv func(string) string) error {
	env := func(k string) string {
		if k == "ETHICSBOT_DB" {
			return from
		}
		return getenv(k)
	}
	_, _, db, err := openStore(env)
	if err != nil {
		return err
	}
	defer db.Close()
	r, err := db.Backup(context.Background(), to)
	if err != nil {
		return fmt.Errorf("copying the record %s: %v", from, err)
	}
	if r.Broken != nil {
		return fmt.Errorf("the copy of the record %s is BROKEN at %s; run ethicsbot verify", from, r.Broken)
	}
	return os.Chmod(to, 0o600)
}
