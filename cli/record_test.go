package cli

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"ethicsbot/app/apptest"
	"ethicsbot/config"
	"ethicsbot/store"
)

// refusingSlack is a recording Slack whose chat.postMessage can be made to fail, as it
// does in an outage, so that messages wait in the outbox.
func refusingSlack(t *testing.T) (*apptest.RecordingSlack, *atomic.Bool) {
	f := apptest.NewRecordingSlack(t)
	var refusing atomic.Bool
	inner := f.Config.Handler
	f.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if refusing.Load() && strings.HasSuffix(r.URL.Path, "/chat.postMessage") {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"ok":false,"error":"internal_error"}`)
			return
		}
		inner.ServeHTTP(w, r)
	})
	return f, &refusing
}

// waitDelivered waits until the record at path has nothing left to say, reading it only.
func waitDelivered(t *testing.T, path string) {
	t.Helper()
	engine, err := config.Default().Engine()
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.OpenReadOnly(path, engine)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		pending, err := db.Pending(context.Background(), time.Now(), nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(pending) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the outbox still holds %+v", pending[0])
		}
	}
}

// TestRestoreLosesNothingItCouldKeep : a backup taken
// while messages wait in the outbox, more filings announced after it, then the backup put
// back. No message is said twice, no announced case number is given again, and the docket
// channel is told what the restore lost.
func TestRestoreLosesNothingItCouldKeep(t *testing.T) {
	if testing.Short() {
		t.Skip("starts ethicsbot in a child process")
	}
	slackAPI, refusing := refusingSlack(t)
	dir := t.TempDir()
	cfg, env := apptest.ChildEnv(t, dir, slackAPI.URL, "commissioners: [U_COMM1]\n"+apptest.FaultPeople)
	dbPath := filepath.Join(dir, "ethicsbot.db")
	cli := map[string]string{"ETHICSBOT_CONFIG": cfg, "ETHICSBOT_DB": dbPath}
	addr := apptest.FreeAddr(t)

	srv := apptest.StartServer(t, env, addr)
	defer func() { srv.Cmd.Process.Kill() }()
	var numbers []string
	file := func(i int) string {
		t.Helper()
		n, ok := srv.File(i)
		if !ok {
			t.Fatalf("filing %d was not acknowledged:\n%s", i, srv.Stderr.String())
		}
		numbers = append(numbers, n)
		return n
	}
	file(1)
	file(2)
	waitDelivered(t, dbPath)
	refusing.Store(true)
	file(3) // recorded; its messages wait in the outbox, and are in the backup unsaid
	backup := filepath.Join(t.TempDir(), "yesterday.db")
	code, out, errOut := runCLI(t, cli, "", "backup", backup)
	if code != 0 {
		t.Fatalf("backup: exit %d\n%s%s", code, out, errOut)
	}
	backupAnchor := regexp.MustCompile(`(?m)^anchor (\d+:[0-9a-f]{64})$`).FindStringSubmatch(out)
	if backupAnchor == nil {
		t.Fatalf("backup printed no anchor:\n%s", out)
	}
	refusing.Store(false)
	lost4, lost5 := file(4), file(5) // the kick of each filing delivers case 3's messages too
	waitDelivered(t, dbPath)
	srv.Cmd.Process.Signal(syscall.SIGTERM)
	if err := <-srv.Exited; err != nil {
		t.Fatalf("did not stop cleanly: %v\n%s", err, srv.Stderr.String())
	}
	before := slackAPI.Keys()

	code, out, errOut = runCLI(t, cli, "", "restore", backup)
	if code != 0 {
		t.Fatalf("restore: exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(out, "anchor "+backupAnchor[1]) ||
		!regexp.MustCompile(`[1-9]\d* messages the backup had not yet said`).MatchString(out) {
		t.Errorf("restore's report does not give the backup's anchor and its pending messages:\n%s", out)
	}
	if kept, _ := filepath.Glob(dbPath + ".replaced-*[0-9]Z"); len(kept) != 1 {
		t.Errorf("the replaced record is not kept beside it: %v", kept)
	}

	srv = apptest.StartServer(t, env, addr)
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(srv.Stderr.String(),
		"reconciled with Slack"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the restored record was not reconciled:\n%s", srv.Stderr.String())
		}
	}
	next := file(6)
	for _, n := range numbers[:len(numbers)-1] {
		if n == next {
			t.Errorf("the filing after the restore was given %s, already announced", next)
		}
	}
	waitDelivered(t, dbPath)
	srv.Cmd.Process.Signal(syscall.SIGTERM)
	<-srv.Exited

	after := slackAPI.Keys()
	for k, msgs := range after {
		if len(msgs) != 1 {
			t.Errorf("%s was said %d times", k, len(msgs))
		}
	}
	var note string
	for k, msgs := range after {
		if _, said := before[k]; !said && strings.Contains(msgs[0].Text, "The record was restored") {
			note = msgs[0].Text
		}
	}
	if note == "" || apptest.Msgs(after, "C0DOCKET1", "The record was restored") != 1 {
		t.Fatalf("the docket channel was not told what the restore lost")
	}
	t.Logf("the docket channel was told:\n%s", note)
	for _, want := range []string{backupAnchor[1], "case " + lost4, "case " + lost5, "will not be used again"} {
		if !strings.Contains(note, want) {
			t.Errorf("the restore's note lacks %q:\n%s", want, note)
		}
	}
	if code, out, errOut := runCLI(t, cli, "", "verify", "--anchor", backupAnchor[1]); code != 0 {
		t.Errorf("the restored record, grown since, does not hold the backup's anchor: exit %d\n%s%s", code, out, errOut)
	}
}

// TestVerifyAnchor: verify ends with the record's anchor; --anchor fails, saying how,
// for a record that lost its newest events or had one rewritten, and a read-only copy of
// the record is verified without a byte of it changing.
func TestVerifyAnchor(t *testing.T) {
	env := apptest.RecordEnv(t)
	code, out, errOut := runCLI(t, env, "", "verify")
	m := regexp.MustCompile(`(?m)^anchor (\d+):([0-9a-f]{64})\n\z`).FindStringSubmatch(out)
	if code != 0 || m == nil {
		t.Fatalf("verify: exit %d, no anchor line last:\n%s%s", code, out, errOut)
	}
	anchor := m[1] + ":" + m[2]
	events, _ := strconv.Atoi(m[1])
	if code, out, _ := runCLI(t, env, "", "verify", "--anchor", anchor); code != 0 ||
		!strings.Contains(out, "holds anchor "+anchor) {
		t.Errorf("verify --anchor of its own anchor: exit %d\n%s", code, out)
	}
	for _, tc := range []struct{ name, anchor, want string }{
		{"EventsMissing", "99:" + m[2], "events " + strconv.Itoa(events+1) + " to 99 are missing"},
		{"DifferentEvent", m[1] + ":" + strings.Repeat("ab", 32), "event " + m[1] + " is a different event"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, _ := runCLI(t, env, "", "verify", "--anchor", tc.anchor)
			if code != 1 || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d, want 1 and %q:\n%s", code, tc.want, out)
			}
		})
	}
	if code, _, errOut := runCLI(t, env, "", "verify", "--anchor", "12:xyz"); code != 2 ||
		!strings.Contains(errOut, "is not an anchor") {
		t.Errorf("a malformed anchor: exit %d %q", code, errOut)
	}

	t.Run("ReadOnlyCopy", func(t *testing.T) {
		copy := filepath.Join(t.TempDir(), "evidence.db")
		b, err := os.ReadFile(env["ETHICSBOT_DB"])
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(copy, b, 0o444); err != nil {
			t.Fatal(err)
		}
		ro := map[string]string{"ETHICSBOT_CONFIG": env["ETHICSBOT_CONFIG"], "ETHICSBOT_DB": copy}
		for _, args := range [][]string{{"verify"}, {"export", "--format", "json"}, {"report", "2026"},
			{"calendar", "--out", "-"}} {
			if code, out, errOut := runCLI(t, ro, "", args...); code != 0 {
				t.Errorf("%v on a write-protected copy: exit %d\n%s%s", args, code, out, errOut)
			}
		}
		after, err := os.ReadFile(copy)
		if err != nil {
			t.Fatal(err)
		}
		if string(after) != string(b) {
			t.Error("reading the copy changed it")
		}
	})
}

// TestOlderRecordFromTheCommandLine: the new ethicsbot verifies a record that an older one
// still serves, reading it only; the other readers say which command migrates it; migrate
// refuses while the older one has it open, then migrates it after a backup once it stops.
func TestOlderRecordFromTheCommandLine(t *testing.T) {
	env := apptest.RecordEnv(t)
	path := env["ETHICSBOT_DB"]
	raw, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	// As the ethicsbot before the latest migration left it (what needs attention on the
	// cases and their steps' starts, 019), with the cases' next step (016) and due (015), the
	// public notice board's table and the outbox's threads (013) taken away too.
	before := store.SchemaVersion() - 1
	if _, err := raw.Exec(fmt.Sprintf(`DROP TABLE case_attention; DROP INDEX case_steps_by_start; ALTER TABLE case_steps DROP COLUMN start; DROP INDEX cases_open_by_next; DROP INDEX cases_open_recused; ALTER TABLE cases DROP COLUMN next; ALTER TABLE cases DROP COLUMN recused; DROP INDEX cases_open_by_due; ALTER TABLE cases DROP COLUMN due; DROP TABLE public_records; DROP INDEX outbox_thread; ALTER TABLE outbox DROP COLUMN thread; ALTER TABLE outbox DROP COLUMN edit; DELETE FROM schema_migrations WHERE version > %d; PRAGMA user_version = %d; PRAGMA wal_checkpoint(TRUNCATE)`, before, before)); err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(path)
	if code, out, errOut := runCLI(t, env, "", "verify"); code != 0 || !strings.Contains(out, "the chain is intact") ||
		!strings.Contains(out, "\nanchor ") {
		t.Errorf("verify of the older record: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := runCLI(t, env, "", "export", "--format", "json"); code != 1 ||
		!strings.Contains(errOut, "`ethicsbot migrate`") {
		t.Errorf("export of the older record: exit %d %q", code, errOut)
	}
	if code, _, errOut := runCLI(t, env, "", "migrate"); code != 1 ||
		!strings.Contains(errOut, "open in another program") {
		t.Errorf("migrate while another program has the file open: exit %d %q", code, errOut)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, want) {
		t.Error("the read-only commands and a refused migrate changed the file")
	}
	raw.Close()
	code, out, errOut := runCLI(t, env, "", "migrate")
	if code != 0 ||
		!strings.Contains(out, fmt.Sprintf("migrated from schema version %d to %d", before, store.SchemaVersion())) ||
		!strings.Contains(errOut, "backed up the database before migrating it") ||
		!strings.Contains(errOut, "migration="+fmt.Sprintf("%03d", store.SchemaVersion())) {
		t.Errorf("migrate: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, _ := runCLI(t, env, "", "migrate"); code != 0 || !strings.Contains(out, "nothing to do") {
		t.Errorf("migrate again: exit %d %s", code, out)
	}
	if code, out, errOut := runCLI(t, env, "", "export", "--format", "json"); code != 0 {
		t.Errorf("export after migrating: exit %d\n%s%s", code, out, errOut)
	}
}

// TestSchema18FromTheCommandLine: a record as the ethicsbot of schema 18 left it (its
// cases, steps, due instants and board all kept, but not what needs attention on the open
// cases nor the steps' starts, migration 019) is verified as it is without being changed,
// then `ethicsbot migrate` fills case_attention and the starts from the cases' records,
// and the migrated record verifies, its new rows checked against the records.
func TestSchema18FromTheCommandLine(t *testing.T) {
	env := apptest.RecordEnv(t)
	path := env["ETHICSBOT_DB"]
	raw, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	count := func(query string) int {
		t.Helper()
		var n int
		if err := raw.QueryRow(query).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	lines, starts := count(`SELECT count(*) FROM case_attention`), count(`SELECT count(*) FROM case_steps WHERE start <> ''`)
	if lines == 0 || starts == 0 {
		t.Fatalf("the record holds %d lines of what needs attention and %d steps' starts; the test needs some of each",
			lines, starts)
	}
	if _, err := raw.Exec(`DROP TABLE case_attention; DROP INDEX case_steps_by_start; ALTER TABLE case_steps DROP COLUMN start;
		DELETE FROM schema_migrations WHERE version > 18; PRAGMA user_version = 18; PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	want, _ := os.ReadFile(path)
	if code, out, errOut := runCLI(t, env, "", "verify"); code != 0 || !strings.Contains(out, "the chain is intact") {
		t.Errorf("verify of the record at schema 18: exit %d\n%s%s", code, out, errOut)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, want) {
		t.Error("verify changed the record at schema 18")
	}
	if code, out, errOut := runCLI(t, env, "", "migrate"); code != 0 ||
		!strings.Contains(out, fmt.Sprintf("migrated from schema version 18 to %d", store.SchemaVersion())) {
		t.Fatalf("migrate: exit %d\n%s%s", code, out, errOut)
	}
	if raw, err = sql.Open("sqlite3", "file:"+path); err != nil {
		t.Fatal(err)
	}
	if got, gotStarts := count(`SELECT count(*) FROM case_attention`),
		count(`SELECT count(*) FROM case_steps WHERE start <> ''`); got != lines || gotStarts != starts {
		t.Errorf("after migrating, %d lines of what needs attention and %d steps' starts; the bot wrote %d and %d",
			got, gotStarts, lines, starts)
	}
	raw.Close()
	if code, out, errOut := runCLI(t, env, "", "verify"); code != 0 || !strings.Contains(out, "the chain is intact") ||
		strings.Contains(out, "counted again") {
		t.Errorf("verify after migrating: exit %d\n%s%s", code, out, errOut)
	}
}

func TestRecordCommands(t *testing.T) {
	env := apptest.RecordEnv(t)
	code, out, errOut := runCLI(t, env, "", "verify")
	if code != 0 || !strings.Contains(out, "7 events in 2 cases; the chain is intact") {
		t.Errorf("verify: exit %d, %q %q", code, out, errOut)
	}
	backup := filepath.Join(t.TempDir(), "copy.db")
	code, out, errOut = runCLI(t, env, "", "backup", backup)
	if code != 0 || !strings.Contains(out, "7 events in 2 cases") {
		t.Errorf("backup: exit %d, %q %q", code, out, errOut)
	}
	code, out, _ = runCLI(t, env, "", "export", "--format", "json", "--public")
	if code != 0 || strings.Contains(out, "Hidden Respondent") || strings.Contains(out, "Confidential") ||
		!strings.Contains(out, "Public Respondent") {
		t.Errorf("public export: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, env, "", "export", "--format", "csv")
	if code != 0 || !strings.Contains(out, "Hidden Respondent") {
		t.Errorf("full export: exit %d\n%s", code, out)
	}

	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"backup"}, 2, "give the path"},
		{[]string{"backup", backup}, 1, "exists"},
		{[]string{"export"}, 2, "--format must be csv or json"},
		{[]string{"export", "--format", "xml"}, 2, "--format must be csv or json"},
		{[]string{"verify", "--public"}, 2, "are for export"},
		{[]string{"verify", "extra"}, 2, "unexpected argument"},
	} {
		if code, out, errOut := runCLI(t, env, "", tc.args...); code != tc.code || out != "" ||
			!strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and %q", tc.args, code, out, errOut, tc.code, tc.want)
		}
	}
	t.Run("NoDatabase", func(t *testing.T) { refusesMissingDatabase(t, "verify") })
	t.Run("Tampered", func(t *testing.T) {
		db, err := sql.Open("sqlite3", "file:"+env["ETHICSBOT_DB"])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`DROP TRIGGER events_no_update; UPDATE events SET by = 'U_MALLORY' WHERE id = 3`); err != nil {
			t.Fatal(err)
		}
		db.Close()
		code, out, _ := runCLI(t, env, "", "verify")
		if code != 1 || !strings.Contains(out, "BROKEN at event 3 (case 2026-002)") {
			t.Errorf("exit %d, %q", code, out)
		}
	})
}

// refusesMissingDatabase checks that ethicsbot args, run on a database that does not
// exist, fails with exit status 1 naming it, and creates none.
func refusesMissingDatabase(t *testing.T, args ...string) {
	t.Helper()
	env := apptest.Defaults(t)
	env["ETHICSBOT_DB"] = filepath.Join(t.TempDir(), "missing.db")
	if code, _, errOut := runCLI(t, env, "", args...); code != 1 || !strings.Contains(errOut, "missing.db") {
		t.Errorf("%v: exit %d, %q", args, code, errOut)
	}
	if _, err := os.Stat(env["ETHICSBOT_DB"]); err == nil {
		t.Errorf("%v created a database", args)
	}
}

// TestVerifyAfterTheHolidaysChanged: a record whose cases' next due instants were counted
// before a closure was added to the configuration is intact, and verify says the instants
// were not compared and are counted again at the next start; it changes nothing.
func TestVerifyAfterTheHolidaysChanged(t *testing.T) {
	env := apptest.RecordEnv(t)
	closed := apptest.WriteConfig(t, "holidays:\n  closures: [2026-12-07]\n")
	closed["ETHICSBOT_DB"] = env["ETHICSBOT_DB"]
	want, _ := os.ReadFile(env["ETHICSBOT_DB"])
	code, out, errOut := runCLI(t, closed, "", "verify")
	if code != 0 || !strings.Contains(out, "the chain is intact") ||
		!strings.Contains(out, "note: the cases' next due instants were derived under another calendar") {
		t.Fatalf("verify under the new holidays: exit %d\n%s%s", code, out, errOut)
	}
	if got, _ := os.ReadFile(env["ETHICSBOT_DB"]); !bytes.Equal(got, want) {
		t.Error("verify changed the record")
	}
	if code, out, _ := runCLI(t, env, "", "verify"); code != 0 || strings.Contains(out, "note:") {
		t.Errorf("verify under the holidays the instants were counted under: exit %d\n%s", code, out)
	}
}

// TestMigrateCountsTheDueInstantsAgain: after a change of holidays, `ethicsbot migrate` on a
// record already at this schema counts the open cases' next due instants again, as the bot
// does when it starts, so that verify compares them at once; a second migrate has nothing
// to do and leaves the file as it is.
func TestMigrateCountsTheDueInstantsAgain(t *testing.T) {
	env := apptest.RecordEnv(t)
	closed := apptest.WriteConfig(t, "holidays:\n  closures: [2026-12-07]\n")
	closed["ETHICSBOT_DB"] = env["ETHICSBOT_DB"]
	code, out, errOut := runCLI(t, closed, "", "migrate")
	if code != 0 || !strings.Contains(out, "due instants were counted again") ||
		!strings.Contains(errOut, "deriving every open case's next due instant again") {
		t.Fatalf("migrate under the new holidays: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, _ := runCLI(t, closed, "", "verify"); code != 0 || strings.Contains(out, "note:") ||
		!strings.Contains(out, "the chain is intact") {
		t.Errorf("verify after migrate under the new holidays: exit %d\n%s", code, out)
	}
	want, _ := os.ReadFile(env["ETHICSBOT_DB"])
	if code, out, _ := runCLI(t, closed, "", "migrate"); code != 0 || !strings.Contains(out, "nothing to do") {
		t.Errorf("migrate again: exit %d %s", code, out)
	}
	if got, _ := os.ReadFile(env["ETHICSBOT_DB"]); !bytes.Equal(got, want) {
		t.Error("a migrate with nothing to do changed the record")
	}
}
