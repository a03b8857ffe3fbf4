package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ethicsbot/config"
	"ethicsbot/store"
)

func TestBackupToStdout(t *testing.T) {
	env := recordEnv(t)
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
	env := recordEnv(t)
	env["TMPDIR"] = filepath.Join(t.TempDir(), "missing")
	if code, out, errOut := runCLI(t, env, "", "backup", "-"); code != exitFailure || out != "" ||
		!strings.Contains(errOut, "TMPDIR") {
		t.Errorf("no temporary folder: exit %d, stdout %d bytes, stderr %q", code, len(out), errOut)
	}
}
