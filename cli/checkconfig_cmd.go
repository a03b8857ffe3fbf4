package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"ethicsbot/app"
	"ethicsbot/config"
)

// runCheckConfig is `ethicsbot check-config [FILE]`: the checks a start in Socket Mode or
// HTTP mode makes of the configuration file, without opening the database or Slack, so
// that a file can be checked before `systemctl start` or `systemctl reload`. FILE defaults
// to ETHICSBOT_CONFIG, then ./ethicsbot.yml. Exit status 0: the file would be accepted;
// 1: it would be refused, with the file, the line and the problem.
func runCheckConfig(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fail := failer(stderr, "check-config")
	if len(args) > 1 {
		return fail(app.ExitUsage, "unexpected argument %q; %s", args[1], usageOf("check-config"))
	}
	path := getenv("ETHICSBOT_CONFIG")
	if len(args) == 1 {
		path = args[0]
	}
	if path == "" {
		path = config.DefaultPath
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return fail(app.ExitFailure, "no file to check: give its path, set ETHICSBOT_CONFIG, or run where ethicsbot.yml is")
		}
	}
	cfg, err := config.Read(path, getenv)
	if err == nil {
		err = app.SlackReady(cfg) // a service connects to Slack: what it needs is checked too
	}
	if err != nil {
		return fail(app.ExitFailure, "%v", err)
	}
	fmt.Fprintf(stdout, "%s: valid: %d commissioners, %d clerks, time zone %s, database %s\n",
		path, len(cfg.Roles.Commissioners), len(cfg.Roles.Clerks), zoneName(cfg), cfg.Database)
	for _, w := range app.ConfigWarnings(cfg) {
		fmt.Fprintf(stdout, "%s: warning: %s\n", path, w)
	}
	return app.ExitOK
}

// zoneName is the commission's time zone as configured, or the default's name.
func zoneName(cfg config.Config) string {
	engine, err := cfg.Engine()
	if err != nil {
		return cfg.Calendar.Zone
	}
	return engine.Cal.Location().String()
}
