package cli

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"ethicsbot/app/apptest"
)

// runCLI runs ethicsbot with args, stdin and environment, and returns its exit status,
// stdout and stderr.
func runCLI(t *testing.T, env map[string]string, stdin string, args ...string) (int, string, string) {
	t.Helper()
	return runCLIAt(t, time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC), env, stdin, args...)
}

// runCLIAt is runCLI on a machine whose clock reads now.
func runCLIAt(t *testing.T, now time.Time, env map[string]string, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	getenv := func(k string) string { return env[k] }
	code := Run(args, strings.NewReader(stdin), &stdout, &stderr, getenv, func() time.Time { return now })
	return code, stdout.String(), stderr.String()
}

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

func TestUsage(t *testing.T) {
	if code, out, _ := runCLI(t, apptest.Defaults(t), "", "help"); code != 0 || !strings.Contains(out, "deadlines") {
		t.Errorf("help: exit %d, %q", code, out)
	}
	if code, _, errOut := runCLI(t, apptest.Defaults(t), "", "frobnicate"); code != 2 || !strings.Contains(errOut, "frobnicate") {
		t.Errorf("unknown command: exit %d, %q", code, errOut)
	}
}

// TestServeChild is the re-executed test binary running ethicsbot, as apptest.StartServer
// starts it; it does nothing in a normal run.
func TestServeChild(t *testing.T) {
	if os.Getenv(apptest.ServeEnv) != "1" {
		t.Skip("runs only as the child of a test that starts ethicsbot")
	}
	os.Exit(Run(nil, os.Stdin, os.Stdout, os.Stderr, os.Getenv, time.Now))
}
