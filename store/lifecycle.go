package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/mattn/go-sqlite3"

	"ethicsbot/docket"
)

// createPrivate creates an empty database file readable by its owner only, whatever the
// umask: the record holds confidential complaints. SQLite creates the WAL and
// shared-memory files with the database file's mode.
func createPrivate(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if err := f.Chmod(0o600); err != nil { // the umask may have taken bits away, never added
		f.Close()
		return err
	}
	return f.Close()
}

// exclusive checks that no other program has the database at path open, and leaves it so:
// it takes SQLite's exclusive lock, which fails while any other connection (a running
// ethicsbot of any version, a verify) holds the file, and on release folds the WAL into the
// file. Migrating or replacing a record under a running bot would split the record in two.
func exclusive(path string) error {
	// Not dsn: its busy timeout would wait for the other program instead of failing.
	db, err := sql.Open("sqlite3", "file:"+escapePath(path)+"?mode=rw&_locking_mode=EXCLUSIVE&_busy_timeout=0")
	if err != nil {
		return fmt.Errorf("database %s: %w", path, err)
	}
	defer db.Close()
	_, err = db.Exec(`BEGIN EXCLUSIVE; SELECT count(*) FROM sqlite_master; COMMIT`)
	var se sqlite3.Error
	if errors.As(err, &se) && (se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked) {
		return fmt.Errorf("database %s is open in another program: stop ethicsbot (every version of it) and anything else "+
			"using the file, then try again; the file was not changed", path)
	}
	if err != nil {
		return fmt.Errorf("database %s: %w", path, err)
	}
	return nil
}

// beforeMigrating is what Open does before it migrates an existing record from schema
// from to to: it makes sure no other program has it open, then writes a verified backup
// beside it, so that an upgrade can always be undone.
func beforeMigrating(path string, engine *docket.Engine, from, to int, o Options) error {
	if err := exclusive(path); err != nil {
		return fmt.Errorf("%w. ethicsbot must migrate it from schema %d to %d, and an older ethicsbot still running on it "+
			"would go on writing the old schema", err, from, to)
	}
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	dest := fmt.Sprintf("%s.schema%d-%s.bak", path, from, now().UTC().Format("20060102T150405Z"))
	old, err := OpenReadOnly(path, engine)
	if err != nil {
		return err
	}
	defer old.Close()
	r, err := old.Backup(context.Background(), dest)
	if err != nil {
		return fmt.Errorf("database %s: the backup before migrating it failed, so it was not migrated: %w", path, err)
	}
	if r.Broken != nil {
		return fmt.Errorf("database %s: its record does not verify (%s), so it was not migrated; the backup %s keeps "+
			"it as it is", path, r.Broken, dest)
	}
	if o.Log != nil {
		o.Log.Info("backed up the database before migrating it", "path", path, "backup", dest, "schema", from, "to", to,
			"anchor", r.Anchor.String())
	}
	return nil
}

// Migrate brings the record at path to this binary's schema, as `ethicsbot migrate` does:
// with no other program holding the file, after a verified backup beside it; and, as the
// bot does when it starts, counts every open case's next due instants again when they
// were counted under another calendar or version of the docket's rules (deriveDue), so
// that `ethicsbot verify` checks them at once. It returns the schema versions before and
// after, and whether the instants were counted again on a record already at this schema.
func Migrate(path string, engine *docket.Engine, o Options) (from, to int, recounted bool, err error) {
	if _, err := os.Stat(path); err != nil {
		return 0, 0, false, fmt.Errorf("database %s: %w", path, err)
	}
	if from, err = readHistory(path); err != nil {
		return from, from, false, err
	}
	if from == SchemaVersion() {
		// Read first: a record whose instants are this engine's is not opened for writing.
		r, err := OpenReadOnly(path, engine)
		if err != nil {
			return from, from, false, err
		}
		stale := r.due && !r.dueFresh
		if err := r.Close(); err != nil || !stale {
			return from, from, false, err
		}
	}
	o.Lock = true
	s, err := OpenWith(path, engine, o)
	if err != nil {
		return from, from, false, err
	}
	return from, s.Version(), from == SchemaVersion(), s.Close()
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, fs.ErrInvalid) {
		return err
	}
	return nil
}

// makePrivate narrows an existing record, and its WAL and shared-memory files, to mode
// 0600: a record created by an older ethicsbot under a usual umask is readable by every
// account on the server.
func (s *Store) makePrivate() error {
	for _, p := range []string{s.path, s.path + "-wal", s.path + "-shm"} {
		fi, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("database %s: %w", p, err)
		}
		if fi.Mode().Perm()&0o077 == 0 {
			continue
		}
		if err := os.Chmod(p, fi.Mode().Perm()&0o700); err != nil {
			return fmt.Errorf("database %s is readable by other accounts (mode %v) and cannot be made private: %w", p,
				fi.Mode().Perm(), err)
		}
		if s.log != nil {
			s.log.Warn("the database was readable by other accounts; it is now readable by its owner only", "path", p, "was",
				fi.Mode().Perm().String())
		}
	}
	return nil
}

// othersCheckpoint reports whether another program is known to checkpoint the record's
// WAL into the file beside ethicsbot: Litestream, which keeps its tables in the record.
// Its checkpoints change the file as a copy over it would, so with Litestream the store
// cannot tell the two apart and relies on the file's identity alone.
func (s *Store) othersCheckpoint() bool {
	var n int
	err := s.r.QueryRow(`SELECT count(*) FROM sqlite_master WHERE name LIKE '\_litestream%' ESCAPE '\'`).Scan(&n)
	return err == nil && n > 0
}

var (
	abandonedMu sync.Mutex
	abandoned   []*sql.DB
)

// abandon closes a store whose file was written under it by another program (a backup
// copied over it) without folding its WAL into that file, which would mix two records: the
// WAL, which holds this store's last writes, is kept aside, and the file stays as the other
// program left it. The process is ending; its connections are left to the kernel.
func (s *Store) abandon() error {
	abandonedMu.Lock()
	abandoned = append(abandoned, s.w, s.r) // never closed, nor collected: closing would fold the WAL in
	abandonedMu.Unlock()
	kept := fmt.Sprintf("%s-wal.abandoned-%s", s.path, time.Now().UTC().Format("20060102T150405.000000000Z"))
	err := os.Rename(s.path+"-wal", kept)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("database %s was written under ethicsbot; its WAL could not be kept aside (%w): move %s-wal away "+
			"before the next start, or it will be folded into the file", s.path, err, s.path)
	}
	os.Remove(s.path + "-shm")
	if s.log != nil {
		s.log.Error("the database file was written under ethicsbot: it is left as the other program left it, and "+
			"ethicsbot's WAL, with its last writes, is kept aside; put the right record in place with `ethicsbot restore`",
			"path", s.path, "wal_kept", kept)
	}
	return nil
}
