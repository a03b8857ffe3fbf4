package privatefile_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"ethicsbot/privatefile"
)

// TestModesWhateverTheUmask: a new file, a replaced file that was world-readable, and a new
// folder all get exactly the mode asked for.
func TestModesWhateverTheUmask(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	dir := filepath.Join(t.TempDir(), "letters")
	if err := privatefile.MkdirAll(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	wide := filepath.Join(dir, "old.pdf")
	if err := os.WriteFile(wide, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(wide, 0o644)
	fresh := filepath.Join(dir, "new.pdf")
	for _, p := range []string{wide, fresh} {
		if err := privatefile.WriteFile(p, []byte("letter"), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	for p, want := range map[string]os.FileMode{dir: 0o750, wide: 0o640, fresh: 0o640} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("%s: mode %v, want %v", filepath.Base(p), got, want)
		}
	}
}
