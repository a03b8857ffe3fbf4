package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// recordLock makes one ethicsbot the only one on a record. It is two advisory locks (flock),
// which the kernel releases when the process ends, however it ends:
//   - on the lock file beside the file the path resolves to (symbolic links followed),
//     which holds the process id of its holder, and which a record replaced by restore
//     keeps, since it is named by the path, not the file;
//   - on the record file itself, so that another name for the same file (a hard link, a
//     symbolic link, a bind mount) is refused too: the lock is on the file's identity.
//
// SQLite locks the record with POSIX locks (fcntl), which Linux keeps apart from flock: the
// two never meet. The record's descriptor stays open until the store's connections are
// closed, since closing a descriptor of a file drops the process's POSIX locks on it.
type recordLock struct {
	beside *os.File // path+".lock"
	record *os.File // the record file, once it exists
	path   string   // the record's path as given, for the refusals
}

// lockRecord takes the lock on the record at path (see recordLock). Two bots on one record
// would each number cases and say every message; migrate, restore and attach take it too,
// so none runs under a bot. A record that does not exist yet is locked by its path; the
// caller calls holdRecord once it has created the file.
func lockRecord(path string) (*recordLock, error) {
	real := resolve(path)
	name := real + ".lock"
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("database %s: its lock file %s: %w", path, name, err)
	}
	if err := flockSoon(f, syscall.LOCK_EX); err != nil {
		pid, _ := os.ReadFile(name)
		f.Close()
		return nil, inUse(path, "", strings.TrimSpace(string(pid)))
	}
	l := &recordLock{beside: f, path: path}
	if err := l.holdRecord(real); err != nil {
		l.Close()
		return nil, err
	}
	f.Truncate(0)
	f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return l, nil
}

// holdRecord takes the lock on the record file at path, if it exists and is not yet held.
func (l *recordLock) holdRecord(path string) error {
	if l.record != nil {
		return nil
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("database %s: %w", l.path, err)
	}
	if err := flockSoon(f, syscall.LOCK_EX); err != nil {
		holder := ""
		if fi, err := f.Stat(); err == nil {
			holder = holderOf(fi)
		}
		f.Close()
		return inUse(l.path, " under another name (a hard link or a symbolic link to the same file)", holder)
	}
	l.record = f
	return nil
}

// Close releases the lock; closing the descriptors releases the flocks.
func (l *recordLock) Close() {
	if l.record != nil {
		l.record.Close()
	}
	l.beside.Close()
}

// flockSoon takes the flock how on f, waiting a moment for one held briefly (Held's look at
// a record takes one for an instant), and no longer: a second ethicsbot is refused at once.
func flockSoon(f *os.File, how int) error {
	var err error
	for range 10 {
		if err = syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB); !errors.Is(err, syscall.EWOULDBLOCK) {
			return err
		}
		time.Sleep(20 * time.Millisecond)
	}
	return err
}

// resolve is path with its symbolic links followed, that of its folder if the file does not
// exist yet; path itself if neither resolves.
func resolve(path string) string {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(path)); err == nil {
		return filepath.Join(dir, filepath.Base(path))
	}
	return path
}

// inUse is the refusal to open a record that another ethicsbot holds: how it holds it, and
// its process id if known.
func inUse(path, how, pid string) error {
	holder := "another ethicsbot"
	if pid != "" {
		holder += " (process " + pid + ")"
	}
	return &inUseError{fmt.Sprintf("database %s is in use by %s%s: stop it first (systemctl stop ethicsbot); the "+
		"file was not changed", path, holder, how)}
}

// holderOf is the process id of the holder of a flock on the file fi, as /proc/locks lists
// it ("1: FLOCK  ADVISORY  WRITE 4242 08:01:1234 0 EOF"), or "" where it cannot be read
// (systemd's ProcSubset=pid hides it from the service).
func holderOf(fi os.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	b, err := os.ReadFile("/proc/locks")
	if !ok || err != nil {
		return ""
	}
	dev := uint64(st.Dev)
	major, minor := (dev>>8)&0xfff|(dev>>32)&^uint64(0xfff), dev&0xff|(dev>>12)&^uint64(0xff)
	id := fmt.Sprintf("%02x:%02x:%d", major, minor, st.Ino)
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) >= 6 && f[1] == "FLOCK" && f[5] == id { // a waiter's line has "->" in f[1]
			return f[4]
		}
	}
	return ""
}

// inUseError is lockRecord's refusal: another ethicsbot holds the record.
type inUseError struct{ message string }

func (e *inUseError) Error() string { return e.message }

// InUse reports whether err is the refusal to open a record another ethicsbot holds (the
// bot, or migrate, restore or attach), so that a command can say what to do instead.
func InUse(err error) bool {
	var e *inUseError
	return errors.As(err, &e)
}

// Held reports whether an ethicsbot holds the record at path (a bot running, or migrate,
// restore or attach), and its process id if known, without writing anything: no lock file
// is created, and the lock is tried shared, for an instant, and let go.
func Held(path string) (held bool, pid string, err error) {
	real := resolve(path)
	for _, name := range []string{real + ".lock", real} {
		if held, pid, err = heldFile(path, name, name == real); held || err != nil {
			return held, pid, err
		}
	}
	return false, "", nil
}

// heldFile is Held's look at one of the files an ethicsbot locks, name: the lock file, or
// the record itself if record.
func heldFile(path, name string, record bool) (held bool, pid string, err error) {
	f, err := os.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return false, "", nil
	}
	if err != nil {
		return false, "", fmt.Errorf("database %s: %w", path, err)
	}
	defer f.Close() // releases the flock, if taken
	switch err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); {
	case err == nil:
		return false, "", nil
	case !errors.Is(err, syscall.EWOULDBLOCK):
		return false, "", fmt.Errorf("database %s: its lock %s: %w", path, name, err)
	case !record:
		b, _ := os.ReadFile(name)
		return true, strings.TrimSpace(string(b)), nil
	}
	if fi, err := f.Stat(); err == nil {
		return true, holderOf(fi), nil
	}
	return true, "", nil
}

// unlock releases the lock taken by lockRecord, if any.
func (s *Store) unlock() {
	if s.lock != nil {
		s.lock.Close()
		s.lock = nil
	}
}
