package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ethicsbot/app"
	"ethicsbot/app/apptest"
	"ethicsbot/config"
	"ethicsbot/store"
)

// TestUpgradeCheck: the preflight of an upgrade, run with the new binary on the previous
// release's configuration and record beside the running bot, says that it would start,
// with the warnings of the configuration, the migrations its first start applies, the
// last backup's age and the bot holding the record; and it changes nothing.
func TestUpgradeCheck(t *testing.T) {
	sample := apptest.Path(t, "testdata/previous-release/ethicsbot.example.yml")
	db := apptest.PreviousRecord(t, "6318221")
	env := map[string]string{"ETHICSBOT_CONFIG": sample, "ETHICSBOT_DB": db}
	before, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	// The previous record is at schema 10: this ethicsbot's first start applies the rest.
	var pending []string
	for v := 11; v <= store.SchemaVersion(); v++ {
		pending = append(pending, fmt.Sprintf("%03d_", v))
	}
	code, out, errOut := runCLI(t, env, "", "upgrade", "--check")
	for _, want := range []string{
		"configuration " + sample + ": accepted\n",
		"  warning: line 111: letters.officer.address: the line \"Office of the Mayor, 100 Main Street, Springfield, IL " +
			"62701\" is too wide",
		fmt.Sprintf("record %s: schema version 10; the first start migrates it to %d (%s", db, store.SchemaVersion(),
			pending[0]),
		"last backup: none noted beside " + db + ": take one first",
		"lock: free: no ethicsbot runs on the record\n",
		"ready: this ethicsbot would start on this configuration and record\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("upgrade --check lacks %q: exit %d\n%s%s", want, code, out, errOut)
		}
	}
	for _, p := range pending {
		if !strings.Contains(out, p) {
			t.Errorf("upgrade --check does not name the pending migration %s:\n%s", p, out)
		}
	}
	if code != app.ExitOK {
		t.Errorf("exit %d, want 0", code)
	}
	if after, _ := os.ReadFile(db); !bytes.Equal(after, before) {
		t.Error("upgrade --check changed the record")
	}
	if left, _ := filepath.Glob(db + ".*"); len(left) > 0 {
		t.Errorf("upgrade --check left %v beside the record", left)
	}

	// Beside a running bot, after a backup two hours ago, on a current record.
	if code, out, errOut := runCLI(t, env, "", "migrate"); code != 0 {
		t.Fatalf("migrate: exit %d\n%s%s", code, out, errOut)
	}
	cfg, err := config.Read(sample, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	engine, err := cfg.Engine()
	if err != nil {
		t.Fatal(err)
	}
	bot, err := store.OpenWith(db, engine, store.Options{Lock: true})
	if err != nil {
		t.Fatal(err)
	}
	defer bot.Close()
	now := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC) // runCLI's
	if err := app.NoteBackup(db, "backup.db", now); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(app.BackupNote(db), now.Add(-2*time.Hour), now.Add(-2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runCLI(t, env, "", "upgrade", "--check")
	for _, want := range []string{
		fmt.Sprintf("record %s: schema version %d, this ethicsbot's: no migration pending\n", db, store.SchemaVersion()),
		"last backup: 2026-12-02T10:00:00Z, 2h0m0s ago\n",
		fmt.Sprintf("lock: held by process %d, the running ethicsbot: the upgrade stops it", os.Getpid()),
		"ready:",
	} {
		if code != app.ExitOK || !strings.Contains(out, want) {
			t.Errorf("beside the bot: exit %d, output lacks %q:\n%s", code, want, out)
		}
	}
}

// TestUpgradeCheckRefusals: what the new binary would refuse to start on is said, with the
// status its start would exit with, and the rest is still reported.
func TestUpgradeCheckRefusals(t *testing.T) {
	newer := filepath.Join(t.TempDir(), "ethicsbot.db")
	apptest.NewerRecord(t, newer)
	for _, tc := range []struct {
		name, config, db string
		status           int
		want             []string
	}{
		{"Config", "timezone: Mars/Olympus\n", filepath.Join(t.TempDir(), "none.db"), app.ExitConfig,
			[]string{"REFUSED configuration: config ", "line 1: time zone \"Mars/Olympus\"", "record ",
				"none.db: none yet; the first start creates it", "not ready:"}},
		{"Schema", apptest.SlackConfig, newer, app.ExitSchema,
			[]string{"REFUSED record: database " + newer + " has schema version", "lock: free", "not ready:"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := apptest.WriteConfig(t, tc.config)
			env["ETHICSBOT_DB"] = tc.db
			code, out, errOut := runCLI(t, env, "", "upgrade", "--check")
			for _, want := range tc.want {
				if code != tc.status || !strings.Contains(out, want) {
					t.Errorf("exit %d (want %d), output lacks %q:\n%s%s", code, tc.status, want, out, errOut)
				}
			}
		})
	}
	if code, _, errOut := runCLI(t, apptest.Defaults(t), "", "upgrade"); code != app.ExitUsage ||
		!strings.Contains(errOut, "usage: ethicsbot upgrade --check") {
		t.Errorf("upgrade without --check: exit %d %q", code, errOut)
	}
}
