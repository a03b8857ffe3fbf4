package web_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestPublish writes the board as files: the same pages the live board serves, and only
// pages that have something public.
func TestPublish(t *testing.T) {
	f := newFixture(t)
	dir := t.TempDir()
	// A page left from an earlier run whose case has nothing public any more goes; a file
	// the board did not write stays.
	os.MkdirAll(filepath.Join(dir, "cases"), 0o755)
	os.WriteFile(filepath.Join(dir, "cases", "2025-004.html"), []byte("stale"), 0o644)
	os.WriteFile(filepath.Join(dir, "cases", "notes.html"), []byte("the town's own"), 0o644)

	files, err := f.board.Publish(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"index.html", "feed.atom", "cases/2026-001.html", "cases/2026-002.html",
		"cases/2026-003.html", "archive/2026.html"} {
		if !slices.Contains(files, want) {
			t.Errorf("Publish did not write %s: %v", want, files)
		}
	}
	for _, name := range files {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "meetings.ics" {
			noSecretsInCalendar(t, name, string(b))
		} else {
			noSecrets(t, name, string(b))
		}
		_, _, live := get(t, f.board.Handler(), "/"+name)
		if string(b) != live {
			t.Errorf("%s differs from the live board's", name)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "cases", "2025-004.html")); !os.IsNotExist(err) {
		t.Errorf("a page with nothing public is left behind: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "cases", "notes.html")); err != nil {
		t.Errorf("a file the board did not write was removed: %v", err)
	}
}
