// Package privatefile writes the commission's confidential files (exported calendars,
// reports, letters) with exactly the mode asked for: the umask may take bits away from a
// new file, and a file being replaced keeps its own, perhaps wider, mode unless it is set.
package privatefile

import (
	"io/fs"
	"os"
)

// WriteFile writes data to path, creating it or replacing its content, and leaves it with
// mode perm.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	if err := os.WriteFile(path, data, perm); err != nil {
		return err
	}
	return os.Chmod(path, perm)
}

// MkdirAll makes dir and its parents; a folder it creates has mode perm exactly, and one
// that exists is left as it is.
func MkdirAll(dir string, perm fs.FileMode) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	if err := os.MkdirAll(dir, perm); err != nil {
		return err
	}
	return os.Chmod(dir, perm)
}
