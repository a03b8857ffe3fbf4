package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"ethicsbot/app"
	"ethicsbot/config"
)

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
		return fail(app.ExitUsage, "%s", usageOf("rehearse"))
	}
	cfg, err := config.Load(getenv)
	if err != nil {
		return fail(app.ExitFailure, "%v", err)
	}
	if cfg.Path == "" {
		return fail(app.ExitFailure, "no configuration was found (ETHICSBOT_CONFIG, or ./ethicsbot.yml): a rehearsal runs the "+
			"commission's own; without one, `ethicsbot` alone opens the demo console")
	}
	dir, err := os.MkdirTemp(getenv("TMPDIR"), "ethicsbot-rehearsal-") // 0700
	if err != nil {
		return fail(app.ExitFailure, "cannot make a folder for the rehearsal (TMPDIR): %v", err)
	}
	if !*keep {
		defer os.RemoveAll(dir)
	}
	r := &app.Rehearsal{Dir: dir}
	if *copyRecord {
		if err := copyForRehearsal(cfg.Database, r.Database(), getenv); err != nil {
			return fail(app.ExitFailure, "%v", err)
		}
		r.CopyOf = cfg.Database
	}
	env := func(k string) string {
		switch {
		case k == "ETHICSBOT_DB":
			return r.Database()
		case k == "ETHICSBOT_CONFIG":
			return cfg.Path
		case strings.HasPrefix(k, "SLACK_") || k == "CREDENTIALS_DIRECTORY":
			return ""
		}
		return getenv(k)
	}
	code := (&app.App{Stdin: stdin, Stdout: stdout, Stderr: stderr, Getenv: env, Now: now, Rehearsal: r}).Run()
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
