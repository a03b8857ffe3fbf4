package cli

import (
	"bytes"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"ethicsbot/app/apptest"
)

// litestreamPath is the litestream binary on PATH. Where there is none, the test is
// skipped and says how to install it, unless ETHICSBOT_LITESTREAM=require (as .ci/run
// sets, after installing the pinned version) makes that a failure.
func litestreamPath(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("litestream")
	if err != nil {
		if os.Getenv("ETHICSBOT_LITESTREAM") == "require" {
			t.Fatal("ETHICSBOT_LITESTREAM=require, but litestream is not on PATH")
		}
		t.Skip("litestream is not installed (go install github.com/benbjohnson/litestream/cmd/litestream@v0.5.18; " +
			".ci/run does)")
	}
	return p
}

// headAnchor is the head of path's event chain, "<events>:<hash of the last>": what
// `ethicsbot verify` checks a restored copy against (docs/record.md, "The record").
func headAnchor(t *testing.T, path string) string { return anchorAt(t, path, 0) }

// anchorAt is the anchor the record at path had when it held n events; n 0: as it is.
func anchorAt(t *testing.T, path string, n int) string {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if n == 0 {
		if err := db.QueryRow(`SELECT count(*) FROM events`).Scan(&n); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	var hash string
	if err := db.QueryRow(`SELECT hash FROM events ORDER BY id LIMIT 1 OFFSET ?`, n-1).Scan(&hash); err != nil {
		return fmt.Sprintf("%d:(none: %v)", n, err)
	}
	return fmt.Sprintf("%d:%s", n, hash)
}

// TestLitestream replicates ethicsbot's record with Litestream as deploy/litestream.yml
// configures it, to a file replica, while cases are filed; kills both processes with
// SIGKILL in the middle of the filings; and restores the replica, both to its latest state
// and to a point in time before the last filings. Each restored copy passes verify, and
// the one at the point in time has exactly the record as it stood then, to the anchor.
func TestLitestream(t *testing.T) {
	if testing.Short() {
		t.Skip("starts ethicsbot and litestream in child processes")
	}
	bin := litestreamPath(t)
	dir := t.TempDir()
	dbPath, replica := filepath.Join(dir, "ethicsbot.db"), filepath.Join(dir, "replica")
	conf, err := os.ReadFile(apptest.Path(t, "deploy/litestream.yml"))
	if err != nil {
		t.Fatal(err)
	}
	c := strings.NewReplacer("/var/lib/ethicsbot/ethicsbot.db", dbPath, "/var/backups/ethicsbot/litestream", replica,
		"addr: 127.0.0.1:9091", "addr: \"\"").Replace(string(conf))
	if !strings.Contains(c, dbPath) || !strings.Contains(c, replica) {
		t.Fatalf("deploy/litestream.yml no longer names the unit's paths:\n%s", conf)
	}
	lsConf := filepath.Join(dir, "litestream.yml")
	if err := os.WriteFile(lsConf, []byte(c), 0o600); err != nil {
		t.Fatal(err)
	}

	slackAPI := apptest.NewRecordingSlack(t)
	_, env := apptest.ChildEnv(t, dir, slackAPI.URL, "commissioners: [U_COMM1]\n"+apptest.FaultPeople)
	srv := apptest.StartServer(t, env, apptest.FreeAddr(t))
	defer srv.Cmd.Process.Kill()
	ls := exec.Command(bin, "replicate", "-config", lsConf)
	var lsLog bytes.Buffer
	ls.Stdout, ls.Stderr = &lsLog, &lsLog
	if err := ls.Start(); err != nil {
		t.Fatal(err)
	}
	defer ls.Process.Kill()

	restore := func(out string, args ...string) {
		t.Helper()
		cmd := exec.Command(bin, append(append([]string{"restore", "-config", lsConf, "-o", out}, args...), dbPath)...)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("litestream restore %v: %v\n%s", args, err, b)
		}
	}
	verify := func(path string, args ...string) string {
		t.Helper()
		code, out, errOut := runCLI(t,
			map[string]string{"ETHICSBOT_CONFIG": filepath.Join(dir, "ethicsbot.yml"), "ETHICSBOT_DB": path}, "",
			append([]string{"verify"}, args...)...)
		if code != 0 || !strings.Contains(out, "the chain is intact") {
			t.Fatalf("verify %s: exit %d\n%s%s", path, code, out, errOut)
		}
		return out
	}

	const before = 5
	for i := 1; i <= before; i++ {
		if _, ok := srv.File(i); !ok {
			t.Fatalf("filing %d failed:\n%s", i, srv.Stderr.String())
		}
	}
	// Wait until the replica holds the five cases: the point in time must follow their sync.
	mid := headAnchor(t, dbPath)
	probe := filepath.Join(dir, "probe.db")
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(300 * time.Millisecond) {
		os.Remove(probe)
		cmd := exec.Command(bin, "restore", "-config", lsConf, "-o", probe, dbPath)
		if cmd.Run() == nil && headAnchor(t, probe) == mid {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the replica did not catch up with %s:\n%s", mid, lsLog.String())
		}
	}
	pointInTime := time.Now().UTC()
	time.Sleep(1500 * time.Millisecond) // later filings are synced, and stamped, after it

	// Filings go on while both processes are killed.
	var mu sync.Mutex
	acked := 0
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := before + 1; i <= before+100000; i++ {
			if _, ok := srv.File(i); !ok {
				return // ethicsbot is gone
			}
			mu.Lock()
			acked++
			mu.Unlock()
			time.Sleep(10 * time.Millisecond)
		}
	}()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		mu.Lock()
		n := acked
		mu.Unlock()
		if n >= 10 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("only %d filings after the point in time:\n%s", n, srv.Stderr.String())
		}
	}
	time.Sleep(1500 * time.Millisecond) // let a sync or two carry some of them
	ls.Process.Kill()
	srv.Cmd.Process.Kill()
	<-done
	ls.Wait()
	<-srv.Exited

	latest := filepath.Join(dir, "latest.db")
	restore(latest)
	out := verify(latest)
	// The latest copy is the record as it stood at the last sync: a prefix of the record
	// on disk, with at least what the replica held at the point in time. What was filed
	// after the last sync is lost: Litestream's data loss, about a second or two.
	got := headAnchor(t, latest)
	var n int
	fmt.Sscanf(got, "%d:", &n)
	if n < before || got != anchorAt(t, dbPath, n) {
		t.Errorf("the latest restore's anchor %s is not the record's event %d (%s), or fewer than %d events", got, n,
			anchorAt(t, dbPath, n), before)
	}
	t.Logf("latest restore: %s; %d filings acknowledged after the point in time, %d lost with the kill",
		strings.TrimSpace(out), acked, before+acked-n)

	pitr := filepath.Join(dir, "pitr.db")
	restore(pitr, "-timestamp", pointInTime.Format(time.RFC3339Nano))
	verify(pitr, "--anchor", mid) // exits 1 unless the copy holds the anchor taken then
	verify(dbPath, "--anchor", mid)
	if got := headAnchor(t, pitr); got != mid {
		t.Errorf("restored to %s, the record's anchor is %s; it was %s then", pointInTime.Format(time.RFC3339), got, mid)
	}
}
