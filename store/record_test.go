package store_test

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"ethicsbot/docket"
	"ethicsbot/outbox"
	"ethicsbot/store"
)

// buildRecord makes a closed record at path with three cases, the last scheduled.
func buildRecord(t *testing.T, path string) {
	t.Helper()
	s := MustOpenPath(t, path)
	mustFile(t, s, "2026-12-01T10:00:00-06:00", "Jane Roe")
	mustFile(t, s, "2026-12-02T10:00:00-06:00", "Richard Roe")
	c := mustFile(t, s, "2026-12-03T10:00:00-06:00", "Mary Major")
	mustApply(t, s, c.Number, "2026-12-03T11:00:00-06:00",
		docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-10T17:00:00-06:00"),
			Place: "City Hall"})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

// rawExec runs SQL on the file as another program would, without ethicsbot.
func rawExec(t *testing.T, path, q string) {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(q); err != nil {
		t.Fatal(err)
	}
}

// TestAnchorCatchesWhatTheChainCannot: deleting the newest event, with the case row put
// back as it was before it, leaves a chain that verifies; only an anchor taken earlier
// shows that the record lost an event. Rewriting an event and rehashing everything after it
// is caught the same way.
func TestAnchorCatchesWhatTheChainCannot(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ethicsbot.db")
	s := MustOpenPath(t, path)
	c := mustFile(t, s, "2026-12-01T10:00:00-06:00", "Jane Roe")
	before := mustVerify(t, s)
	mustApply(t, s, c.Number, "2026-12-01T11:00:00-06:00",
		docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-10T17:00:00-06:00"),
			Place: "City Hall"})
	anchor := mustVerify(t, s).Anchor
	if anchor.Events != 2 || anchor.Hash == before.Anchor.Hash {
		t.Fatalf("anchor %v after two events", anchor)
	}
	if got, err := s.Head(ctx); err != nil || got.String() != anchor.String() {
		t.Fatalf("Head = %v, %v; verify's anchor %v", got, err, anchor)
	}
	if problem, err := s.CheckAnchor(ctx, before.Anchor); err != nil || problem != "" {
		t.Errorf("an earlier anchor of the same record: %q, %v", problem, err)
	}
	// The attack: the newest event deleted, the case row put back from before it.
	var doc, hash string
	var seq int
	raw, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if err := raw.QueryRow(`SELECT doc_hash, seq FROM events WHERE id = 1`).Scan(&hash, &seq); err != nil {
		t.Fatal(err)
	}
	mustCase := func(n string) string {
		t.Helper()
		var d string
		if err := raw.QueryRow(`SELECT doc FROM cases WHERE number = ?`, n).Scan(&d); err != nil {
			t.Fatal(err)
		}
		return d
	}
	_ = mustCase(c.Number)
	var d1 docket.Case
	events, err := s.Events(ctx, c.Number)
	if err != nil || len(events) != 2 {
		t.Fatal(err)
	}
	_ = d1
	// The case document the first event produced is the filing's; rebuild the row from it.
	first := mustFirstDoc(t, path, c.Number)
	doc = first
	if _, err := raw.Exec(`DROP TRIGGER events_no_delete; DELETE FROM events WHERE id = 2;
		UPDATE cases SET doc = ?, events = 1, state = json_extract(?, '$.state') WHERE number = ?`, doc, doc,
		c.Number); err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`DELETE FROM public_records WHERE posted_event = 2`); err != nil {
		t.Fatal(err)
	}
	ro, err := store.OpenReadOnly(path, MustEngine(t))
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	r, err := ro.Verify(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if r.Broken != nil {
		t.Skipf("the chain itself shows the deletion (%s); the anchor is then a second line of defence", r.Broken)
	}
	problem, err := ro.CheckAnchor(ctx, anchor)
	if err != nil || !strings.Contains(problem, "events 2 to 2 are missing") {
		t.Errorf("the anchor taken before the deletion: %q, %v", problem, err)
	}
}

// mustFirstDoc returns the case document as its first event left it, from the record's
// own export of events: the filing's payload replayed by docket is not needed, since the
// first event's doc hash is of the document the case row held after the filing.
func mustFirstDoc(t *testing.T, path, number string) string {
	t.Helper()
	// Build the same filing in a fresh record: its case row is the document event 1 made.
	other := filepath.Join(t.TempDir(), "first.db")
	s := MustOpenPath(t, other)
	mustFile(t, s, "2026-12-01T10:00:00-06:00", "Jane Roe")
	s.Close()
	db, err := sql.Open("sqlite3", "file:"+other+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var doc string
	if err := db.QueryRow(`SELECT doc FROM cases WHERE number = ?`, number).Scan(&doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestReadOnlyNeverWrites: a store opened read-only reads a write-protected file, and one
// on a read-only file system, and leaves the file byte for byte as it was.
func TestReadOnlyNeverWrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ethicsbot.db")
	buildRecord(t, path)
	if err := os.Chmod(path, 0o444); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	check := func(t *testing.T, path string) {
		t.Helper()
		s, err := store.OpenReadOnly(path, MustEngine(t))
		if err != nil {
			t.Fatal(err)
		}
		if r := mustVerify(t, s); r.Cases != 3 || r.Events != 4 {
			t.Errorf("verify read %d cases and %d events", r.Cases, r.Events)
		}
		var buf bytes.Buffer
		if err := s.Export(ctx, &buf, "json", false); err != nil || buf.Len() == 0 {
			t.Errorf("export: %v", err)
		}
		if _, err := s.File(ctx, docket.Act{By: "U_CLERK", At: time.Now()}, complaint(time.Now(), "X")); err == nil ||
			!strings.Contains(err.Error(), "read only") {
			t.Errorf("a write through a read-only store: %v", err)
		}
		s.Close()
		if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, want) {
			t.Errorf("the file changed (%v)", err)
		}
	}
	t.Run("WriteProtected", func(t *testing.T) { check(t, path) })
	t.Run("ReadOnlyFileSystem", func(t *testing.T) {
		dir := t.TempDir()
		if err := exec.Command("mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", dir).Run(); err != nil {
			t.Skipf("cannot mount a file system to make read-only here (%v): needs root", err)
		}
		defer exec.Command("umount", dir).Run()
		copyPath := filepath.Join(dir, "ethicsbot.db")
		if err := os.WriteFile(copyPath, want, 0o444); err != nil {
			t.Fatal(err)
		}
		if err := exec.Command("mount", "-o", "remount,ro", dir).Run(); err != nil {
			t.Skipf("cannot make %s read-only: %v", dir, err)
		}
		check(t, copyPath)
	})
}

// TestOlderSchemaIsReadAsItIs: a record an older ethicsbot wrote is verified read-only as
// it is, never migrated by a reader; other readers are told which command migrates it. The
// bot migrates it only with no other program on the file, after a verified backup beside it.
func TestOlderSchemaIsReadAsItIs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ethicsbot.db")
	old := store.SchemaVersion() - 1
	s, err := store.OpenAtVersion(path, MustEngine(t), old)
	if err != nil {
		t.Fatal(err)
	}
	mustFile(t, s, "2026-12-01T10:00:00-06:00", "Jane Roe")
	s.Close()
	want, _ := os.ReadFile(path)

	ro, err := store.OpenReadOnly(path, MustEngine(t))
	if err != nil {
		t.Fatal(err)
	}
	if r := mustVerify(t, ro); r.Events != 1 {
		t.Errorf("verify of the older record read %d events", r.Events)
	}
	if err := ro.Outdated(); err == nil || !strings.Contains(err.Error(), "ethicsbot migrate") ||
		!strings.Contains(err.Error(), fmt.Sprint("schema version ", old)) {
		t.Errorf("Outdated: %v", err)
	}
	// The bot may not migrate it while another program (an older ethicsbot, say) has it open.
	if _, err := store.Open(path, MustEngine(t)); err == nil || !strings.Contains(err.Error(), "open in another program") {
		t.Errorf("Open while another program holds the file: %v", err)
	}
	ro.Close()
	if got, _ := os.ReadFile(path); !bytes.Equal(got, want) {
		t.Error("reading and a refused migration changed the file")
	}
	from, to, recounted, err := store.Migrate(path, MustEngine(t), store.Options{})
	if err != nil || from != old || to != store.SchemaVersion() || recounted {
		t.Fatalf("Migrate: %d → %d, %v", from, to, err)
	}
	backups, _ := filepath.Glob(fmt.Sprintf("%s.schema%d-*.bak", path, old))
	if len(backups) != 1 {
		t.Fatalf("backups beside the file before migrating: %v", backups)
	}
	b, err := store.OpenReadOnly(backups[0], MustEngine(t))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if b.Version() != old || mustVerify(t, b).Events != 1 {
		t.Errorf("the backup is at schema %d", b.Version())
	}
	if fi, err := os.Stat(backups[0]); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the backup's mode: %v %v", fi.Mode(), err)
	}
}

// TestMigrationsMatchByName: a file whose recorded migrations differ from this binary's is
// refused, naming both, and left as it was.
func TestMigrationsMatchByName(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ethicsbot.db")
	buildRecord(t, path)
	rawExec(t, path, `UPDATE schema_migrations SET name = '004_something_else.sql' WHERE version = 4`)
	want, _ := os.ReadFile(path)
	for name, open := range map[string]func() (*store.Store, error){
		"Open":         func() (*store.Store, error) { return store.Open(path, MustEngine(t)) },
		"OpenReadOnly": func() (*store.Store, error) { return store.OpenReadOnly(path, MustEngine(t)) },
	} {
		s, err := open()
		if err == nil {
			s.Close()
		}
		if err == nil || !strings.Contains(err.Error(), "004_something_else.sql") ||
			!strings.Contains(err.Error(), "004_open_cases_index.sql") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, want) {
		t.Error("the refused file changed")
	}
}

// TestWritesRefusedOnceTheFileChangesUnderTheStore: a backup copied over the live file
// (cp keeps the inode), or a migration by another ethicsbot, makes every write refused and
// Ping name the fault.
func TestWritesRefusedOnceTheFileChangesUnderTheStore(t *testing.T) {
	for _, tc := range []struct {
		name, health, what string
		change             func(t *testing.T, path, backup string)
	}{
		{"BackupCopiedOver", "changed", "written by another program", func(t *testing.T, path, backup string) {
			b, err := os.ReadFile(backup)
			if err != nil {
				t.Fatal(err)
			}
			time.Sleep(10 * time.Millisecond)                    // a later modification time, as any real copy has
			if err := os.WriteFile(path, b, 0o600); err != nil { // truncates and writes: the same inode
				t.Fatal(err)
			}
		}},
		{"MigratedByAnother", "migrated", "was migrated to schema version", func(t *testing.T, path, backup string) {
			rawExec(t, path, fmt.Sprintf(`PRAGMA user_version = %d`, store.SchemaVersion()+1))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "ethicsbot.db")
			s := MustOpenPath(t, path)
			c := mustFile(t, s, "2026-12-01T10:00:00-06:00", "Jane Roe")
			backup := filepath.Join(dir, "backup.db")
			if _, err := s.Backup(ctx, backup); err != nil {
				t.Fatal(err)
			}
			mustFile(t, s, "2026-12-02T10:00:00-06:00", "Richard Roe")
			if err := s.Ping(ctx); err != nil {
				t.Fatalf("Ping before the change: %v", err)
			}
			tc.change(t, path, backup)
			_, err := s.Apply(ctx, docket.Act{By: "U_CLERK", At: T(t, "2026-12-02T11:00:00-06:00")}, c.Number,
				docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-10T17:00:00-06:00"),
					Place: "City Hall"})
			var de *docket.Error
			if !errors.As(err, &de) || de.Code != docket.EUNAVAILABLE || !strings.Contains(de.Message, tc.what) ||
				!strings.Contains(de.Message, "nothing was recorded") {
				t.Fatalf("a write after the change: %v", err)
			}
			err = s.Ping(ctx)
			var fault interface{ Health() string }
			if !errors.As(err, &fault) || fault.Health() != tc.health {
				t.Errorf("Ping: %v, want health %q", err, tc.health)
			}
		})
	}
}

// TestRecordFilesArePrivate: the database, its WAL and shared-memory files, and backups
// are created mode 0600 under the usual umask.
func TestRecordFilesArePrivate(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	path := filepath.Join(dir, "ethicsbot.db")
	s := MustOpenPath(t, path)
	mustFile(t, s, "2026-12-01T10:00:00-06:00", "Jane Roe")
	backup := filepath.Join(dir, "backup.db")
	if _, err := s.Backup(ctx, backup); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, path + "-wal", path + "-shm", backup} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != 0o600 {
			t.Errorf("%s: mode %v, want 0600", filepath.Base(p), got)
		}
	}
}

// TestRestore: a backup with messages pending, put back with the bot stopped. The
// replaced file is kept; pending messages are looked for before they are sent; no case is
// numbered until Slack is read; then announced numbers are not given again, and the docket
// channel is told what was lost.
func TestRestore(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ethicsbot.db")
	s := MustOpenPath(t, path)
	mustFile(t, s, "2026-12-01T10:00:00-06:00", "Jane Roe")
	docketCh := outbox.Dest{Channel: "C0DOCKET1"}
	pending := outbox.Post{Key: outbox.Key{Case: "2026-001", Series: "t", Step: "1", To: docketCh},
		Text: "said after the backup", Due: T(t, "2026-12-01T10:00:00-06:00")}
	if err := s.Enqueue(ctx, []outbox.Post{pending}); err != nil {
		t.Fatal(err)
	}
	backup := filepath.Join(dir, "backup.db")
	br, err := s.Backup(ctx, backup)
	if err != nil {
		t.Fatal(err)
	}
	mustFile(t, s, "2026-12-02T10:00:00-06:00", "Richard Roe") // 2026-002, announced, then lost
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	held := MustOpenPath(t, filepath.Join(dir, "other.db")) // an unrelated store stays open: no matter
	_ = held
	lock, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	lock.Exec(`SELECT 1 FROM cases`)
	if _, err := store.Restore(ctx, backup, path, MustEngine(t), time.Now, store.RestoreOptions{}); err == nil ||
		!strings.Contains(err.Error(), "open in another program") {
		t.Errorf("restore while the bot runs: %v", err)
	}
	lock.Close()

	rep, err := store.Restore(ctx, backup, path, MustEngine(t), time.Now, store.RestoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Anchor.String() != br.Anchor.String() || rep.Pending != 1 || rep.Replaced == "" || rep.ReplacedAnchor == "" {
		t.Errorf("restore report %+v", rep)
	}
	if _, err := os.Stat(rep.Replaced); err != nil {
		t.Errorf("the replaced record is not kept: %v", err)
	}
	s = MustOpenPath(t, path)
	rows, err := s.Pending(ctx, time.Now(), nil, 10)
	if err != nil || len(rows) != 1 || rows[0].Claimed.IsZero() {
		t.Fatalf("the pending message after restore: %+v %v", rows, err)
	}
	when := T(t, "2026-12-03T10:00:00-06:00")
	if _, err := s.File(ctx, docket.Act{By: "U_CLERK", At: when}, complaint(when, "Mary Major")); err == nil ||
		!strings.Contains(err.Error(), "restored from a backup") {
		t.Fatalf("a filing before Slack was read: %v", err)
	}
	said := []outbox.Said{
		{Key: pending.Key, Text: pending.Text, Channel: "C0DOCKET1", TS: "1.1"},
		{Key: outbox.EventKey("2026-002", br.Anchor.Events+1, 0, docketCh),
			Text: "New case 2026-002: John Doe v. Richard Roe, filed by <@U_CLERK>.", Channel: "C0DOCKET1", TS: "1.2"},
	}
	lost, err := s.Reconcile(ctx, said, docketCh, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if len(lost.Events) != 1 || len(lost.Numbers) != 1 || lost.Numbers[0] != "2026-002" {
		t.Errorf("lost %+v", lost)
	}
	if rows, _ := s.Pending(ctx, time.Now(), nil, 10); len(rows) != 1 ||
		!strings.Contains(string(rows[0].Text), "2026-002") ||
		!strings.Contains(string(rows[0].Text), "<@U_CLERK>") || !strings.Contains(string(rows[0].Text), br.Anchor.String()) {
		t.Errorf("after reconciling, the outbox holds %+v: want only the note of what was lost", rows)
	}
	res, err := s.File(ctx, docket.Act{By: "U_CLERK", At: when}, complaint(when, "Mary Major"))
	if err != nil || res.Case.Number != "2026-003" {
		t.Errorf("the first filing after the restore: %q, %v; 2026-002 was announced", res.Case.Number, err)
	}
	mustVerify(t, s)
}

// TestOneEthicsbotPerRecord: a second bot on the same record is refused, naming the first,
// and so are migrate and restore while a bot runs; the lock goes with the bot.
func TestOneEthicsbotPerRecord(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ethicsbot.db")
	first, err := store.OpenWith(path, MustEngine(t), store.Options{Lock: true})
	if err != nil {
		t.Fatal(err)
	}
	pid := fmt.Sprintf("process %d", os.Getpid())
	if _, err := store.OpenWith(path, MustEngine(t), store.Options{Lock: true}); err == nil ||
		!strings.Contains(err.Error(), pid) {
		t.Errorf("a second bot: %v", err)
	}
	backup := filepath.Join(dir, "backup.db")
	if _, err := first.Backup(ctx, backup); err != nil { // reading needs no lock
		t.Fatal(err)
	}
	if _, err := store.Restore(ctx, backup, path, MustEngine(t), time.Now, store.RestoreOptions{}); err == nil ||
		!strings.Contains(err.Error(), pid) {
		t.Errorf("restore under a bot: %v", err)
	}
	first.Close()
	second, err := store.OpenWith(path, MustEngine(t), store.Options{Lock: true})
	if err != nil {
		t.Fatalf("after the first stopped: %v", err)
	}
	second.Close()
}

// TestOneEthicsbotPerFile: the lock is on the record file, not on the path given: a bot
// started on a symbolic link to the record, on a link to its folder, or on a hard link to it
// is refused while another runs on it, and Held sees the bot through each name, without
// leaving a lock file anywhere.
func TestOneEthicsbotPerFile(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	path := filepath.Join(dir, "ethicsbot.db")
	first, err := store.OpenWith(path, MustEngine(t), store.Options{Lock: true})
	if err != nil {
		t.Fatal(err)
	}
	symlink, folder, hard := filepath.Join(other, "symlink.db"), filepath.Join(other, "folder"),
		filepath.Join(other, "hardlink.db")
	for _, err := range []error{os.Symlink(path, symlink), os.Symlink(dir, folder), os.Link(path, hard)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	names := []string{symlink, filepath.Join(folder, "ethicsbot.db"), hard}
	for _, name := range names {
		if held, _, err := store.Held(name); !held || err != nil {
			t.Errorf("Held(%s) = %v, %v while a bot runs", name, held, err)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(other, "*.lock")); len(left) > 0 {
		t.Errorf("Held left lock files: %v", left)
	}
	for _, name := range names {
		if _, err := store.OpenWith(name, MustEngine(t), store.Options{Lock: true}); !store.InUse(err) ||
			!strings.Contains(err.Error(), "is in use by another ethicsbot") {
			t.Errorf("a second bot on %s: %v", name, err)
		}
	}
	if _, err := store.OpenWith(hard, MustEngine(t), store.Options{Lock: true}); err == nil ||
		!strings.Contains(err.Error(), "under another name") {
		t.Errorf("a second bot on a hard link: %v, want it to say the file is held under another name", err)
	} else if _, perr := os.Stat("/proc/locks"); perr == nil && !strings.Contains(err.Error(),
		fmt.Sprintf("process %d", os.Getpid())) {
		t.Errorf("a second bot on a hard link: %v, want the first one's process, which /proc/locks lists", err)
	}
	first.Close()
	for _, name := range names {
		if held, pid, err := store.Held(name); held || err != nil {
			t.Errorf("Held(%s) = %v (%s), %v after the bot stopped", name, held, pid, err)
		}
	}
	second, err := store.OpenWith(hard, MustEngine(t), store.Options{Lock: true})
	if err != nil {
		t.Fatalf("on the hard link after the first stopped: %v", err)
	}
	if _, err := store.OpenWith(path, MustEngine(t), store.Options{Lock: true}); !store.InUse(err) {
		t.Errorf("a bot on the path while one runs on a hard link: %v", err)
	}
	second.Close()
}

// TestStopAfterACopyOverKeepsTheCopy: stopping a bot whose file was copied over does not
// fold its WAL into the copy; the WAL is kept aside and the copy opens as it was copied.
func TestStopAfterACopyOverKeepsTheCopy(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ethicsbot.db")
	s := MustOpenPath(t, path)
	mustFile(t, s, "2026-12-01T10:00:00-06:00", "Jane Roe")
	backup := filepath.Join(dir, "backup.db")
	if _, err := s.Backup(ctx, backup); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20; i++ {
		mustFile(t, s, "2026-12-02T10:00:00-06:00", fmt.Sprint("Respondent ", i))
	}
	b, _ := os.ReadFile(backup)
	time.Sleep(10 * time.Millisecond)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := s.Ping(ctx); err == nil {
		t.Fatal("the copy over the file went unnoticed")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, b) {
		t.Error("stopping changed the copied file")
	}
	if kept, _ := filepath.Glob(path + "-wal.abandoned-*"); len(kept) != 1 {
		t.Errorf("the WAL was not kept aside: %v", kept)
	}
	// This process keeps the abandoned connections, and SQLite shares a file's locks within
	// a process: the next start, another process, is played by a copy.
	check := filepath.Join(dir, "next-start.db")
	if err := os.WriteFile(check, b, 0o600); err != nil {
		t.Fatal(err)
	}
	ro, err := store.OpenReadOnly(check, MustEngine(t))
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if r := mustVerify(t, ro); r.Events != 1 {
		t.Errorf("the copy now holds %d events, want the backup's 1", r.Events)
	}
}

// TestRestoreKeepsEveryRecord: two restores in one second keep both replaced records;
// a backup of another record is refused unless asked for; a symbolic link at the path
// is followed.
func TestRestoreKeepsEveryRecord(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "data", "ethicsbot.db")
	os.Mkdir(filepath.Dir(real), 0o700)
	s := MustOpenPath(t, real)
	mustFile(t, s, "2026-12-01T10:00:00-06:00", "Jane Roe")
	backup := filepath.Join(dir, "backup.db")
	if _, err := s.Backup(ctx, backup); err != nil {
		t.Fatal(err)
	}
	mustFile(t, s, "2026-12-02T10:00:00-06:00", "Richard Roe")
	s.Close()
	other := filepath.Join(dir, "other.db")
	o := MustOpenPath(t, other)
	mustFile(t, o, "2026-12-01T09:00:00-06:00", "Someone Else")
	o.Close()
	link := filepath.Join(dir, "ethicsbot.db")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	fixed := func() time.Time { return T(t, "2026-12-03T10:00:00Z") }
	if _, err := store.Restore(ctx, other, link, MustEngine(t), fixed, store.RestoreOptions{}); err == nil ||
		!strings.Contains(err.Error(), "--other-record") {
		t.Fatalf("another record's backup: %v", err)
	}
	first, err := store.Restore(ctx, backup, link, MustEngine(t), fixed, store.RestoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	second, err := store.Restore(ctx, other, link, MustEngine(t), fixed, store.RestoreOptions{OtherRecord: true})
	if err != nil {
		t.Fatal(err)
	}
	if first.Replaced == second.Replaced || filepath.Dir(first.Replaced) != filepath.Dir(real) {
		t.Fatalf("replaced records kept as %q and %q", first.Replaced, second.Replaced)
	}
	for name, want := range map[string]int{first.Replaced: 2, second.Replaced: 1} {
		r, err := store.OpenReadOnly(name, MustEngine(t))
		if err != nil {
			t.Fatal(err)
		}
		if got := mustVerify(t, r).Events; got != want {
			t.Errorf("%s holds %d events, want %d", filepath.Base(name), got, want)
		}
		r.Close()
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link at the path was replaced: %v", err)
	}
}
