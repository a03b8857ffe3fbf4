package store_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ethicsbot/docket"
)

// wantFileGone checks that err is the EUNAVAILABLE refusal that names path and says what
// happened to it.
func wantFileGone(t *testing.T, op string, err error, path, what string) {
	t.Helper()
	var de *docket.Error
	if !errors.As(err, &de) || de.Code != docket.EUNAVAILABLE {
		t.Fatalf("%s: error %v, want an EUNAVAILABLE *docket.Error", op, err)
	}
	for _, want := range []string{path, what, "while ethicsbot was running", "nothing was recorded", "restart ethicsbot"} {
		if !strings.Contains(de.Message, want) {
			t.Errorf("%s: message %q lacks %q", op, de.Message, want)
		}
	}
}

// removeDB removes the database file and its -wal and -shm, as `rm ethicsbot.db*` does.
func removeDB(t *testing.T, path string) {
	t.Helper()
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
	}
}

// otherDB builds, beside path, a closed database with one case of its own.
func otherDB(t *testing.T, path string) string {
	t.Helper()
	other := filepath.Join(filepath.Dir(path), "other.db")
	s := MustOpenPath(t, other)
	mustFile(t, s, "2026-12-01T10:00:00-06:00", "Someone Else")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return other
}

// TestFileRemovedOrReplacedWhileRunning: once the file at the store's path is not the
// file it opened, every write is refused with a clear error and writes nothing, Ping
// fails, and that holds even if a database appears at the path again.
func TestFileRemovedOrReplacedWhileRunning(t *testing.T) {
	for _, tc := range []struct {
		name, what, health string
		change             func(t *testing.T, path string)
	}{
		{"Removed", "was removed or moved away", "removed", removeDB},
		{"MovedAway", "was removed or moved away", "removed", func(t *testing.T, path string) {
			if err := os.Rename(path, path+".old"); err != nil {
				t.Fatal(err)
			}
		}},
		{"Replaced", "was replaced by another file", "replaced", func(t *testing.T, path string) {
			if err := os.Rename(otherDB(t, path), path); err != nil { // the old -wal stays, as with mv
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "ethicsbot.db")
			s := MustOpenPath(t, path)
			first := mustFile(t, s, "2026-12-04T10:00:00-06:00", "Jane Roe")
			tc.change(t, path)
			before, _ := os.ReadFile(path) // nil once removed

			when := T(t, "2026-12-04T11:00:00-06:00")
			res, err := s.File(ctx, docket.Act{By: "U_CLERK", At: when}, complaint(when, "Richard Roe"))
			wantFileGone(t, "File", err, path, tc.what)
			if res.Case.Number != "" {
				t.Errorf("File answered case %s", res.Case.Number)
			}
			_, err = s.Apply(ctx, docket.Act{By: "U_CLERK", At: when}, first.Number,
				docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-10T17:00:00-06:00"),
					Place: "City Hall"})
			wantFileGone(t, "Apply", err, path, tc.what)
			err = s.Ping(ctx)
			wantFileGone(t, "Ping", err, path, tc.what)
			var fault interface{ Health() string }
			if !errors.As(err, &fault) || fault.Health() != tc.health {
				t.Errorf("Ping's error %v: want Health() %q", err, tc.health)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
				t.Errorf("a refused write changed the file at %s (%d bytes, then %d)", path, len(before), len(after))
			}

			// Latched: a good database back at the path does not make the store write again.
			removeDB(t, path)
			if err := os.Rename(otherDB(t, path), path); err != nil {
				t.Fatal(err)
			}
			_, err = s.File(ctx, docket.Act{By: "U_CLERK", At: when}, complaint(when, "Richard Roe"))
			wantFileGone(t, "File after a database is put back", err, path, tc.what)
			if err := s.Ping(ctx); err == nil {
				t.Error("Ping passes after a database is put back")
			}
		})
	}
}

// TestFileUnchanged: a store whose file stays put writes and pings as ever, and says
// whether Open began a new database.
func TestFileUnchanged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ethicsbot.db")
	s := MustOpenPath(t, path)
	if !s.Created() {
		t.Error("Created() is false for a new file")
	}
	for i, who := range []string{"Jane Roe", "Richard Roe", "Mary Major"} {
		if c := mustFile(t, s, "2026-12-04T10:00:00-06:00", who); c.Number != fmt.Sprintf("2026-%03d", i+1) {
			t.Errorf("case %s for %s", c.Number, who)
		}
	}
	if err := s.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	mustVerify(t, s)
	s.Close()

	again := MustOpenPath(t, path)
	if again.Created() {
		t.Error("Created() is true for an existing record")
	}
	if c := mustFile(t, again, "2026-12-04T10:00:00-06:00", "John Q. Public"); c.Number != "2026-004" {
		t.Errorf("after reopening, case %s", c.Number)
	}
	mustVerify(t, again)

	empty := filepath.Join(t.TempDir(), "empty.db")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if s := MustOpenPath(t, empty); !s.Created() {
		t.Error("Created() is false for an empty file")
	}
}
