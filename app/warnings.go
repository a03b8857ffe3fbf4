package app

import (
	"net"
	neturl "net/url"
	"slices"

	"ethicsbot/config"
)

// startWarnings are the warnings a start in mode logs: in every mode the settings to change
// before the next release refuses them, and in the Slack modes the rest of ConfigWarnings.
func startWarnings(cfg config.Config, mode string) []string {
	if mode == "console" {
		return cfg.Deprecated
	}
	return ConfigWarnings(cfg)
}

// ConfigWarnings are what a Slack deployment accepts but should not run with, the settings
// to change before the next release refuses them first.
func ConfigWarnings(cfg config.Config) []string {
	out := slices.Clone(cfg.Deprecated)
	if u, err := neturl.Parse(cfg.PublicURL); err != nil || IsLoopback(u.Hostname()) {
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

// IsLoopback reports whether host names this machine only: localhost or a loopback
// address.
func IsLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
