package main

import (
	"strings"
	"testing"
)

// TestSubcommandTable: each row of the table of subcommands but the bot's own has a name
// found once in the table, its usage begins with that name, and usageOf quotes it, as
// the help text does.
func TestSubcommandTable(t *testing.T) {
	seen := map[string]bool{}
	bare := 0
	for _, sc := range subcommands() {
		if len(sc.names) == 0 {
			bare++
			continue
		}
		for _, n := range sc.names {
			if seen[n] {
				t.Errorf("%q names two subcommands", n)
			}
			seen[n] = true
		}
		if !strings.HasPrefix(sc.usage+" ", sc.names[0]+" ") {
			t.Errorf("the usage %q does not begin with the name %q", sc.usage, sc.names[0])
		}
		if got := usageOf(sc.names[0]); got != "usage: ethicsbot "+sc.usage ||
			!strings.Contains(usage, "\n  ethicsbot "+sc.usage+"\n") {
			t.Errorf("usageOf(%q) = %q; the help text lists %q", sc.names[0], got, sc.usage)
		}
		if sc.help == "" {
			t.Errorf("%s has no help", sc.names[0])
		}
	}
	if bare != 1 {
		t.Errorf("%d rows without a name; want one, the bot itself", bare)
	}
	if got := usageOf("frobnicate"); got != "run `ethicsbot help`" {
		t.Errorf("usageOf of no subcommand: %q", got)
	}
}
