package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
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

// Exclusive checks that no other program has the database at path open, and leaves it so:
// it takes SQLite's exclusive lock, which fails while any other connection (a running
// ethicsbot of any version, a verify) holds the file, and on release folds the WAL into the
// file. Migrating or replacing a record under a running bot would split the record in two.
func Exclusive(path string) error {
	// Not dsn: its busy timeout would wait for the other program instead of failing.
	db, err := sql.Open("sqlite3", "file:"+escapePath(path)+"?mode=rw&_locking_mode=EXCLUSIVE&_busy_timeout=0")
	if err != nil {
		return fmt.Errorf("database %s: %w", path, err)
	}
	defer db.Close()
	_, err = db.Exec(`BEGIN EXCLUSIVE; SELECT count(*) FROM sqlite_master; COMMIT`)
	var se sqlite3.Error
	if errors.As(err, &se) && (se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked) {
		return fmt.Errorf("database %s is open in another program: stop ethicsbot (every version of it) and anything else using the file, then try again; the file was not changed", path)
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
	if err := Exclusive(path); err != nil {
		return fmt.Errorf("%w. ethicsbot must migrate it from schema %d to %d, and an older ethicsbot still running on it would go on writing the old schema", err, from, to)
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
		return fmt.Errorf("database %s: its record does not verify (%s), so it was not migrated; the backup %s keeps it as it is", path, r.Broken, dest)
	}
	if o.Log != nil {
		o.Log.Info("backed up the database before migrating it", "path", path, "backup", dest, "schema", from, "to", to, "anchor", r.Anchor.String())
	}
	return nil
}

// Migrate brings the record at path to this binary's schema, as `ethicsbot migrate` does:
// with no other program holding the file, after a verified backup beside it. It returns
// the schema versions before and after.
func Migrate(path string, engine *docket.Engine, o Options) (from, to int, err error) {
	if _, err := os.Stat(path); err != nil {
		return 0, 0, fmt.Errorf("database %s: %w", path, err)
	}
	if from, err = readHistory(path); err != nil {
		return from, from, err
	}
	if from == SchemaVersion() {
		return from, from, nil
	}
	if err := Exclusive(path); err != nil {
		return from, from, err
	}
	s, err := OpenWith(path, engine, o)
	if err != nil {
		return from, from, err
	}
	return from, s.Version(), s.Close()
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
