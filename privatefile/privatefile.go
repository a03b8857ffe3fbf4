// Package privatefile writes the commission's confidential files (exported calendars,
// reports, letters, documents) with exactly the mode asked for: the umask may take bits
// away from a new file, and a file being replaced keeps its own, perhaps wider, mode unless
// it is set. It never follows a symbolic link where it writes, and never writes into a
// folder that other accounts may write: either would let another account on the server
// redirect a confidential document, or overwrite a file this account may write.
package privatefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// WriteFile writes data to path, creating it or replacing its content, and leaves it with
// mode perm. A symbolic link at path is refused, not followed; an existing file is narrowed
// to perm before a byte is written.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|syscall.O_NOFOLLOW, perm)
	if errors.Is(err, syscall.ELOOP) {
		return fmt.Errorf("%s is a symbolic link; it was not written through. Remove it, or choose another folder", path)
	}
	if err != nil {
		return err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a regular file (%v); it was not written", path, fi.Mode().Type())
	}
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil {
		err = f.Truncate(0)
	}
	if err == nil {
		_, err = f.Write(data)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// MkdirAll makes dir and its parents; a folder it creates has mode perm exactly. An
// existing folder is used as it is, unless other accounts may write in it (and it is not a
// sticky folder such as /tmp is, where they cannot replace what is not theirs): then it is
// refused, naming its mode.
func MkdirAll(dir string, perm fs.FileMode) error {
	if fi, err := os.Stat(dir); err == nil {
		if !fi.IsDir() {
			return fmt.Errorf("%s is not a folder", dir)
		}
		if fi.Mode().Perm()&0o022 != 0 && fi.Mode()&fs.ModeSticky == 0 {
			return fmt.Errorf("%s can be written by other accounts (mode %v): they could replace what is written there. Use a "+
				"private folder, or chmod go-w %s", dir, fi.Mode().Perm(), dir)
		}
		return nil
	}
	if err := os.MkdirAll(dir, perm); err != nil {
		return err
	}
	return os.Chmod(dir, perm)
}
