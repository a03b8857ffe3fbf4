package cli

import (
	"context"
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

func TestBackupToStdout(t *testing.T) {
	env := apptest.RecordEnv(t)
	tmp := t.TempDir()
	env["TMPDIR"] = tmp
	code, out, errOut := runCLI(t, env, "", "backup", "-")
	if code != 0 || !strings.Contains(errOut, "7 events in 2 cases; the chain is intact") {
		t.Fatalf("backup -: exit %d, stderr %q", code, errOut)
	}
	if _, err := os.Stat("-"); err == nil {
		t.Error(`backup - wrote a file named "-"`)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("the temporary copy was left behind: %v", left)
	}
	// What came out is the record: it opens and its chain verifies.
	copyPath := filepath.Join(t.TempDir(), "streamed.db")
	if err := os.WriteFile(copyPath, []byte(out), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	engine, err := cfg.Engine()
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(copyPath, engine)
	if err != nil {
		t.Fatalf("the streamed copy does not open: %v", err)
	}
	defer db.Close()
	r, err := db.Verify(context.Background())
	if err != nil || r.Broken != nil || r.Events != 7 || r.Cases != 2 {
		t.Errorf("the streamed copy: %+v, %v", r, err)
	}
}

func TestBackupToStdoutRefusals(t *testing.T) {
	env := apptest.RecordEnv(t)
	env["TMPDIR"] = filepath.Join(t.TempDir(), "missing")
	if code, out, errOut := runCLI(t, env, "", "backup", "-"); code != app.ExitFailure || out != "" ||
		!strings.Contains(errOut, "TMPDIR") {
		t.Errorf("no temporary folder: exit %d, stdout %d bytes, stderr %q", code, len(out), errOut)
	}
}

// TestOnlyScheduledBackupsAreNoted: /metrics and /healthz say when the last scheduled
// backup succeeded (`ethicsbot backup --scheduled`, as the nightly timer runs it), to a
// file or to standard output. A copy taken by hand, or by a migration, says nothing of
// whether the nightly backups run, and leaves it as it was.
func TestOnlyScheduledBackupsAreNoted(t *testing.T) {
	env := apptest.RecordEnv(t)
	env["TMPDIR"] = t.TempDir()
	database := env["ETHICSBOT_DB"]
	noted := func() (time.Time, bool) { return app.LastBackup(database) }
	if code, _, errOut := runCLI(t, env, "", "backup", filepath.Join(t.TempDir(), "by-hand.db")); code != 0 {
		t.Fatalf("backup by hand: %d %s", code, errOut)
	}
	if code, _, errOut := runCLI(t, env, "", "backup", "-"); code != 0 {
		t.Fatalf("backup - by hand: %d %s", code, errOut)
	}
	if code, out, errOut := runCLI(t, env, "", "migrate"); code != 0 {
		t.Fatalf("migrate: %d %s %s", code, out, errOut)
	}
	if at, ok := noted(); ok {
		t.Fatalf("a backup by hand is noted as the scheduled one, at %v", at)
	}
	if code, _, errOut := runCLI(t, env, "", "backup", "--scheduled",
		filepath.Join(t.TempDir(), "nightly.db")); code != 0 {
		t.Fatalf("backup --scheduled: %d %s", code, errOut)
	}
	at, ok := noted()
	if !ok || time.Since(at) > time.Minute {
		t.Fatalf("the scheduled backup is not noted: %v %v", at, ok)
	}
	// Set the note back a day: the scheduled backup to standard output notes it anew.
	old := at.Add(-24 * time.Hour)
	if err := os.Chtimes(app.BackupNote(database), old, old); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, env, "", "backup", "--scheduled", "-"); code != 0 {
		t.Fatalf("backup --scheduled -: %d %s", code, errOut)
	}
	if at, _ := noted(); !at.After(old.Add(time.Hour)) {
		t.Errorf("the scheduled backup to standard output is not noted: %v", at)
	}
	if code, _, errOut := runCLI(t, env, "", "verify", "--scheduled"); code != app.ExitUsage ||
		!strings.Contains(errOut, "--scheduled is for backup") {
		t.Errorf("verify --scheduled: exit %d, %s", code, errOut)
	}
}
