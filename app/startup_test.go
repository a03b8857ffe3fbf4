package app

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"ethicsbot/app/apptest"
	"ethicsbot/config"
	"ethicsbot/store"
)

// TestRefusedStartsExitStatuses: a start refused for the configuration or the environment,
// for the record's schema, or because another ethicsbot holds the record, exits with the
// status of its own that the unit does not restart on; they all exited 1, which systemd
// restarted every five seconds for ever.
func TestRefusedStartsExitStatuses(t *testing.T) {
	console := func(t *testing.T, body string) map[string]string {
		env := apptest.WriteConfig(t, body)
		env["ETHICSBOT_DB"], env["ETHICSBOT_ADDR"] = filepath.Join(t.TempDir(), "ethicsbot.db"), "127.0.0.1:0"
		return env
	}
	fifo := filepath.Join(t.TempDir(), "token")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		env    func(t *testing.T) map[string]string
		status int
		want   string
	}{
		{"ConfigFile", func(t *testing.T) map[string]string { return console(t, "timezone: Mars/Olympus\n") },
			ExitConfig, "line 1: time zone"},
		{"SecretFile", func(t *testing.T) map[string]string {
			env := console(t, apptest.SlackConfig)
			env["SLACK_BOT_TOKEN_FILE"], env["SLACK_APP_TOKEN"] = fifo, "xapp-1"
			return env
		}, ExitConfig, "SLACK_BOT_TOKEN_FILE (" + fifo + "): cannot read " + fifo + ": it is a named pipe"},
		{"ModeTokens", func(t *testing.T) map[string]string {
			env := console(t, apptest.SlackConfig)
			env["SLACK_BOT_TOKEN"] = "xoxb-1"
			return env
		}, ExitConfig, "connecting to Slack needs one more setting"},
		{"Lock", func(t *testing.T) map[string]string {
			env := console(t, apptest.SlackConfig)
			engine, err := config.Default().Engine()
			if err != nil {
				t.Fatal(err)
			}
			bot, err := store.OpenWith(env["ETHICSBOT_DB"], engine, store.Options{Lock: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { bot.Close() })
			return env
		}, ExitInUse, fmt.Sprintf("is in use by another ethicsbot (process %d)", os.Getpid())},
		{"NewerSchema", func(t *testing.T) map[string]string {
			env := console(t, apptest.SlackConfig)
			apptest.NewerRecord(t, env["ETHICSBOT_DB"])
			return env
		}, ExitSchema, "newer than this ethicsbot's"},
		{"MigrationUnderAnotherProgram", func(t *testing.T) map[string]string {
			env := console(t, apptest.SlackConfig)
			env["ETHICSBOT_DB"] = apptest.PreviousRecord(t, "6318221")
			raw, err := sql.Open("sqlite3", "file:"+env["ETHICSBOT_DB"])
			if err == nil {
				_, err = raw.Exec("SELECT count(*) FROM events")
			}
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { raw.Close() })
			return env
		}, ExitSchema, "is open in another program"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := run(t, tc.env(t), ":quit\n")
			if code != tc.status || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, want %d with %q\n%s%s", code, tc.status, tc.want, out, errOut)
			}
		})
	}
}

// unitSettings are the settings of a systemd unit file, each with its values in order.
func unitSettings(t *testing.T, path string) map[string][]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(line, "#") {
			out[k] = append(out[k], v)
		}
	}
	return out
}

// TestUnitStopsRestartingOnRefusals: the unit restarts the bot on a failure, but not on a
// refused start, which a restart cannot mend: RestartPreventExitStatus= names exactly the
// refusals' statuses. No ExecStartPre= may refuse in their place: systemd restarts after a
// failed ExecStartPre= whatever its status (RestartPreventExitStatus= reads the main
// process's alone), and the unit's check-config there kept the bot restarting every five
// seconds on a configuration it refused.
func TestUnitStopsRestartingOnRefusals(t *testing.T) {
	unit := unitSettings(t, apptest.Path(t, "deploy/ethicsbot.service"))
	var want []string
	for _, s := range exitStatuses {
		if s.refused {
			want = append(want, strconv.Itoa(s.code))
		}
	}
	got := strings.Fields(strings.Join(unit["RestartPreventExitStatus"], " "))
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) || !slices.Equal(unit["Restart"], []string{"on-failure"}) {
		t.Errorf("Restart=%v, RestartPreventExitStatus=%v; want on-failure and %v", unit["Restart"], got, want)
	}
	if pre := unit["ExecStartPre"]; len(pre) > 0 {
		t.Errorf("ExecStartPre=%v: its failure is restarted for ever; the bot refuses what it would", pre)
	}
}

// TestExitStatusesDocumented: deploy/README.md's table of exit statuses is exitStatuses,
// row for row.
func TestExitStatusesDocumented(t *testing.T) {
	b, err := os.ReadFile(apptest.Path(t, "deploy/README.md"))
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| `(\\d+)` \\| `([A-Z]+)` \\| (.*) \\| (yes|no) \\|$")
	rows := row.FindAllStringSubmatch(string(b), -1)
	if len(rows) != len(exitStatuses) {
		t.Fatalf("deploy/README.md has %d rows of exit statuses, exit.go %d", len(rows), len(exitStatuses))
	}
	for i, s := range exitStatuses {
		restarted := "no"
		if !s.refused && s.code != ExitOK { // Restart=on-failure
			restarted = "yes"
		}
		got := rows[i][1:]
		if want := []string{strconv.Itoa(s.code), s.name, s.meaning, restarted}; !slices.Equal(got, want) {
			t.Errorf("row %d: %q, want %q", i+1, got, want)
		}
	}
}
