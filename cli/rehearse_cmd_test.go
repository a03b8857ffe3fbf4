package cli

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ethicsbot/app"
	"ethicsbot/app/apptest"
)

// rehearsalEnv is the sample configuration, with its record at db and, as on the bot's
// server, Slack's tokens set: a rehearsal must read none of them.
func rehearsalEnv(t *testing.T, db string) map[string]string {
	t.Helper()
	return map[string]string{"ETHICSBOT_CONFIG": sampleConfig(t), "ETHICSBOT_DB": db,
		"SLACK_BOT_TOKEN": "xoxb-real", "SLACK_APP_TOKEN": "xapp-real", "TMPDIR": t.TempDir(),
		"ETHICSBOT_ADDR": "127.0.0.1:0"}
}

// sampleConfig is the absolute path of the sample configuration, which tests that change
// their folder read.
func sampleConfig(t *testing.T) string {
	t.Helper()
	return apptest.Path(t, "deploy/ethicsbot.example.yml")
}

func fileHash(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// TestRehearseOnAnEmptyRecord: the commission's own configuration, an empty record of the
// rehearsal's own and a simulated clock, with Slack's tokens in the environment: the
// README's first session runs a year after its dates, the papers name the configured
// people, nothing reaches Slack, and the real record is not created.
func TestRehearseOnAnEmptyRecord(t *testing.T) {
	real := filepath.Join(t.TempDir(), "ethicsbot.db")
	env := rehearsalEnv(t, real)
	t.Chdir(t.TempDir())
	script := `:clock 2026-12-04T10:30:00-06:00
/ethics file respondent="Jane Roe" complainant="John Doe" section=103.10 summary="Used city email to campaign."
/ethics meeting 2026-12-07T17:00 place="City Hall, Room 201"
/ethics schedule 2026-001 sufficiency meeting=2026-12-07
/ethics posted 2026-12-07
`
	code, out, errOut := runCLIAt(t, time.Date(2027, 12, 6, 15, 0, 0, 0, time.UTC), env, script, "rehearse")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	for _, want := range []string{
		"[console] REHEARSAL with " + env["ETHICSBOT_CONFIG"] + " on an empty record",
		"Nothing done here reaches the real record or Slack",
		"[console] the time is now Fri 2026-12-04 10:30 CST",
		"Filed as case *2026-001*",
		"[console] You are Dana Dale",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the rehearsal lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Not done") || strings.Contains(out, "queued for Slack") {
		t.Errorf("a step was refused, or queued for Slack:\n%s", out)
	}
	if _, err := os.Stat(real); !os.IsNotExist(err) {
		t.Errorf("the rehearsal created or touched the real record %s: %v", real, err)
	}
	if left, _ := filepath.Glob(filepath.Join(env["TMPDIR"], "ethicsbot-rehearsal-*")); len(left) != 0 {
		t.Errorf("the rehearsal's folder is left behind without --keep: %v", left)
	}
}

// TestRehearseOnACopy: with --copy, the rehearsal starts from a verified copy of the real
// record, whose cases it sees; what it does stays in the copy, and the real file is not
// changed by a byte.
func TestRehearseOnACopy(t *testing.T) {
	real := filepath.Join(t.TempDir(), "ethicsbot.db")
	live := map[string]string{"ETHICSBOT_CONFIG": sampleConfig(t), "ETHICSBOT_DB": real, "ETHICSBOT_ADDR": "127.0.0.1:0"}
	env := rehearsalEnv(t, real)
	t.Chdir(t.TempDir())
	code, out, errOut := runCLI(t, live, `/ethics file respondent="Jane Roe" complainant="John Doe" section=103.10 `+
		`summary="On the real record."`+"\n")
	if code != 0 || !strings.Contains(out, "Filed as case *2026-001*") {
		t.Fatalf("the real record's first case: exit %d: %s\n%s", code, errOut, out)
	}
	before := fileHash(t, real)
	code, out, errOut = runCLIAt(t, time.Date(2026, 12, 3, 15, 0, 0, 0, time.UTC), env,
		"/ethics case 2026-001\n/ethics file respondent=\"Richard Roe\" complainant=\"Mary Major\" section=103.10 "+
			"summary=\"Only in the rehearsal.\"\n", "rehearse", "--copy", "--keep")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	for _, want := range []string{"on a copy of the record " + real, "Case 2026-001", "Filed as case *2026-002*",
		"the rehearsal's record and letters are kept in"} {
		if !strings.Contains(out, want) {
			t.Errorf("the rehearsal lacks %q:\n%s", want, out)
		}
	}
	if fileHash(t, real) != before {
		t.Error("the rehearsal changed the real record")
	}
	kept, _ := filepath.Glob(filepath.Join(env["TMPDIR"], "ethicsbot-rehearsal-*", "rehearsal.db"))
	if len(kept) != 1 {
		t.Fatalf("--keep kept %v", kept)
	}
	if fi, err := os.Stat(filepath.Dir(kept[0])); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("the rehearsal's folder holds a copy of the confidential record: mode %v, want 0700 (%v)", fi.Mode(), err)
	}
}

// TestRehearseNeedsTheConfiguration: without the commission's configuration there is
// nothing to rehearse with, and the refusal says where the demo is.
func TestRehearseNeedsTheConfiguration(t *testing.T) {
	t.Chdir(t.TempDir())
	code, _, errOut := runCLI(t, map[string]string{}, "", "rehearse")
	if code != app.ExitFailure || !strings.Contains(errOut, "`ethicsbot` alone opens the demo console") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

// TestConsoleBannerOffersWhatItDoes: the console on the real record names its user as the
// configuration does and does not offer :clock, which it refuses there; the rehearsal
// offers it, and takes it.
func TestConsoleBannerOffersWhatItDoes(t *testing.T) {
	real := filepath.Join(t.TempDir(), "ethicsbot.db")
	live := map[string]string{"ETHICSBOT_CONFIG": sampleConfig(t), "ETHICSBOT_DB": real, "ETHICSBOT_ADDR": "127.0.0.1:0"}
	env := rehearsalEnv(t, real)
	t.Chdir(t.TempDir())
	_, out, _ := runCLI(t, live, "")
	if want := "[console] You are Dana Dale (U0ABCDEF12). Type /ethics help, :as <user-id> to act as someone else, " +
		":quit to leave."; !strings.Contains(out, want) {
		t.Errorf("the console on the real record lacks %q:\n%s", want, out)
	}
	_, out, _ = runCLI(t, env, ":clock +1d\n", "rehearse")
	if !strings.Contains(out, ":clock +1d to move time") || !strings.Contains(out, "[console] the time is now") {
		t.Errorf("the rehearsal does not offer and take :clock:\n%s", out)
	}
}
