package main

import (
	"errors"
	"ethicsbot/config"
	"fmt"
	"io"
	"io/fs"
	neturl "net/url"
	"os"
	"slices"
)

// runCheckConfig is `ethicsbot check-config [FILE]`: the checks a start in Socket Mode or
// HTTP mode makes of the configuration file, without opening the database or Slack, so
// that a file can be checked before `systemctl start` or `systemctl reload`. FILE defaults
// to ETHICSBOT_CONFIG, then ./ethicsbot.yml. Exit status 0: the file would be accepted;
// 1: it would be refused, with the file, the line and the problem.
func runCheckConfig(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fail := failer(stderr, "check-config")
	if len(args) > 1 {
		return fail(exitUsage, "unexpected argument %q; %s", args[1], usageOf("check-config"))
	}
	path := getenv("ETHICSBOT_CONFIG")
	if len(args) == 1 {
		path = args[0]
	}
	if path == "" {
		path = config.DefaultPath
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return fail(exitFailure, "no file to check: give its path, set ETHICSBOT_CONFIG, or run where ethicsbot.yml is")
		}
	}
	cfg, err := config.Read(path, getenv)
	if err == nil {
		err = slackReady(cfg) // a service connects to Slack: what it needs is checked too
	}
	if err != nil {
		return fail(exitFailure, "%v", err)
	}
	fmt.Fprintf(stdout, "%s: valid: %d commissioners, %d clerks, time zone %s, database %s\n",
		path, len(cfg.Roles.Commissioners), len(cfg.Roles.Clerks), zoneName(cfg), cfg.Database)
	for _, w := range configWarnings(cfg) {
		fmt.Fprintf(stdout, "%s: warning: %s\n", path, w)
	}
	return exitOK
}

// zoneName is the commission's time zone as configured, or the default's name.
func zoneName(cfg config.Config) string {
	engine, err := cfg.Engine()
	if err != nil {
		return cfg.Calendar.Zone
	}
	return engine.Cal.Location().String()
}

// startWarnings are the warnings a start in mode logs: in every mode the settings to change
// before the next release refuses them, and in the Slack modes the rest of configWarnings.
func startWarnings(cfg config.Config, mode string) []string {
	if mode == "console" {
		return cfg.Deprecated
	}
	return configWarnings(cfg)
}

// configWarnings are what a Slack deployment accepts but should not run with, the settings
// to change before the next release refuses them first.
func configWarnings(cfg config.Config) []string {
	out := slices.Clone(cfg.Deprecated)
	if u, err := neturl.Parse(cfg.PublicURL); err != nil || isLoopback(u.Hostname()) {
		out = append(out,
			"public_url is "+cfg.PublicURL+" (the default when it is not set), which only this machine can open: the board's "+
				"feeds and the members' calendar addresses would lead nowhere; set public_url to the address the reverse "+
				"proxy serves")
	}
	if engine, err := cfg.Engine(); err == nil {
		// 5 ILCS 120/2.03: a regular meeting on a holiday (5 ILCS 490) is lawful, but the
		// office where its agenda stands posted is closed, and the public expects none.
		for _, h := range cfg.Regular.Holidays(engine.Cal) {
			out = append(out,
				"meetings.regular: the regular meeting of "+h+" falls on a holiday; move it in the schedule the commission "+
					"adopts (5 ILCS 120/2.03)")
		}
	}
	return out
}
