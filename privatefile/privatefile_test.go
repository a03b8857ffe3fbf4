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

// TestNeverThroughALink: a symbolic link where a file is to be written is refused and the
// file it names is untouched; a folder other accounts may write is refused.
func TestNeverThroughALink(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "letter.pdf")
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	if err := privatefile.WriteFile(link, []byte("letter"), 0o640); err == nil {
		t.Error("wrote through a symbolic link")
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Errorf("the linked file now holds %q", b)
	}
	loose := filepath.Join(dir, "loose")
	if err := os.Mkdir(loose, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(loose, 0o777)
	if err := privatefile.MkdirAll(loose, 0o750); err == nil {
		t.Error("a folder anyone may write was used")
	}
}
