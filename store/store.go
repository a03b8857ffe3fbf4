// Package store keeps the commission's record in SQLite: cases materialised from an
// append-only, hash-chained event log, elections, and the outbox of what ethicsbot is to
// say. Deadlines are never stored; docket derives them from the facts.
package store

import (
	"bytes"
	"context"
	"database/sql"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mattn/go-sqlite3"

	"ethicsbot/docket"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// DefaultPath is the database file unless ETHICSBOT_DB or the configuration moves it.
const DefaultPath = "ethicsbot.db"

// Store is the commission's record in one SQLite file. It is safe for concurrent use:
// writes go through one connection, one transaction at a time, and reads use a pool.
type Store struct {
	path    string
	file    os.FileInfo // the database file as opened: os.SameFile compares its device and inode
	created bool
	gone    atomic.Pointer[fileError] // set, for good, once path is no longer that file
	w       *sql.DB                   // a single connection: writers queue here instead of meeting SQLITE_BUSY
	r       *sql.DB                   // readers; WAL lets them run while a write commits
	engine  *docket.Engine
	search  bool // the schema has the search index (case_search)
	public  bool // the schema has the public notice board's records (public_records)

	mu    sync.Mutex            // guards cache
	cache map[string]cachedCase // open cases as OpenCases last decoded them

	writeErrors atomic.Uint64 // writes the database refused; see WriteErrors
}

// migration is one numbered file of migrations/.
type migration struct {
	version int
	name    string
	sql     string
}

// migrations returns the embedded migrations in order. Their names are NNN_what.sql.
func migrations() ([]migration, error) {
	entries, err := fs.ReadDir(migrationFS, "migrations")
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("migration %s: name must start with its number, e.g. 001_", e.Name())
		}
		b, err := migrationFS.ReadFile(path.Join("migrations", e.Name()))
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{v, e.Name(), string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i, m := range ms {
		if m.version != i+1 {
			return nil, fmt.Errorf("migration %s: expected number %03d", m.name, i+1)
		}
	}
	return ms, nil
}

// SchemaVersion is the schema this binary writes: the number of its last migration.
func SchemaVersion() int {
	ms, err := migrations()
	if err != nil {
		return 0
	}
	return len(ms)
}

// sqliteHeader starts every SQLite 3 database file.
var sqliteHeader = []byte("SQLite format 3\x00")

// Open opens the database at path, creating it if it does not exist, and brings its
// schema up to date. A file that is not SQLite, is read-only, or was written by a newer
// ethicsbot is refused with an error naming the path, and is left untouched.
func Open(path string, engine *docket.Engine) (*Store, error) {
	return open(path, engine, SchemaVersion())
}

// open migrates to version target; tests pass an earlier one to build old schemas.
func open(path string, engine *docket.Engine, target int) (*Store, error) {
	exists, err := checkFile(path)
	if err != nil {
		return nil, err
	}
	if exists {
		// Look without writing: a journal-mode change or a migration would alter the file.
		v, err := readVersion(path)
		if err != nil {
			return nil, err
		}
		if v > SchemaVersion() {
			return nil, fmt.Errorf("database %s has schema version %d, newer than this ethicsbot's %d: upgrade ethicsbot; the file was not changed", path, v, SchemaVersion())
		}
	}
	s := &Store{path: path, engine: engine}
	if s.w, err = sql.Open("sqlite3", dsn(path, "_journal_mode=WAL&_synchronous=FULL&_txlock=immediate")); err != nil {
		return nil, fmt.Errorf("database %s: %w", path, err)
	}
	s.w.SetMaxOpenConns(1)
	s.w.SetConnMaxIdleTime(0)
	// Readers open the file but never create it: a read after the file was removed must
	// fail, not leave an empty database at the path for the next start to take as the record.
	if s.r, err = sql.Open("sqlite3", dsn(path, "_query_only=true&_txlock=deferred&mode=rw")); err != nil {
		s.w.Close()
		return nil, fmt.Errorf("database %s: %w", path, err)
	}
	if err := s.init(target); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// dsn builds a go-sqlite3 DSN: the pragmas are in the DSN so that every pooled connection
// gets them.
func dsn(path, extra string) string {
	// In an SQLite URI, % ? and # in the path must be escaped.
	p := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
	return "file:" + p + "?_foreign_keys=on&_busy_timeout=10000&" + extra
}

// checkFile refuses, before SQLite touches it, a path that is not a writable SQLite file.
func checkFile(path string) (exists bool, err error) {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("database %s: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		return false, fmt.Errorf("database %s is not a regular file; set ETHICSBOT_DB to a file path", path)
	}
	if fi.Mode().Perm()&0o200 == 0 {
		return false, fmt.Errorf("database %s is read-only (mode %v); ethicsbot records every action in it, so make it writable (chmod u+w) or set ETHICSBOT_DB to a writable copy", path, fi.Mode().Perm())
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return false, fmt.Errorf("database %s cannot be opened for writing: %w; ethicsbot records every action in it", path, err)
	}
	defer f.Close()
	head := make([]byte, len(sqliteHeader))
	n, err := io.ReadFull(f, head)
	if n == 0 && (err == io.EOF) {
		return true, nil // an empty file is an empty database
	}
	if !bytes.Equal(head[:n], sqliteHeader) {
		return false, fmt.Errorf("database %s is not an SQLite database; move it aside or set ETHICSBOT_DB to another path", path)
	}
	return true, nil
}

// readVersion reads the schema version through a read-only connection.
func readVersion(path string) (int, error) {
	db, err := sql.Open("sqlite3", dsn(path, "mode=ro"))
	if err != nil {
		return 0, fmt.Errorf("database %s: %w", path, err)
	}
	defer db.Close()
	var v int
	if err := db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		return 0, fmt.Errorf("database %s cannot be read: %w", path, err)
	}
	return v, nil
}

// init checks the pragmas took effect and applies the migrations up to target.
func (s *Store) init(target int) error {
	ctx := context.Background()
	var mode string
	if err := s.w.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		return fmt.Errorf("database %s cannot be opened: %w", s.path, err)
	}
	if mode != "wal" {
		return fmt.Errorf("database %s: journal mode is %q, not WAL; is it on a network file system? Put it on a local disk", s.path, mode)
	}
	// The write connection has the file open now (SQLite created it if need be): this is
	// the file every write must still find at path.
	fi, err := os.Stat(s.path)
	if err != nil {
		return fmt.Errorf("database %s: %w", s.path, err)
	}
	s.file = fi
	var sync, fk int
	if err := s.w.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&sync); err != nil || sync != 2 {
		return fmt.Errorf("database %s: synchronous is %d, not FULL: %v", s.path, sync, err)
	}
	if err := s.w.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk); err != nil || fk != 1 {
		return fmt.Errorf("database %s: foreign keys are off: %v", s.path, err)
	}
	ms, err := migrations()
	if err != nil {
		return err
	}
	var current int
	if err := s.w.QueryRowContext(ctx, "PRAGMA user_version").Scan(&current); err != nil {
		return fmt.Errorf("database %s: %w", s.path, err)
	}
	s.created = current == 0
	for _, m := range ms[current:target] {
		if err := s.migrate(ctx, m); err != nil {
			return fmt.Errorf("database %s: migration %s: %w", s.path, m.name, err)
		}
	}
	// A store opened at an older schema (only tests do) writes what that schema holds.
	if err := s.w.QueryRowContext(ctx, `SELECT count(*) > 0 FROM sqlite_master WHERE name = 'case_search'`).Scan(&s.search); err != nil {
		return fmt.Errorf("database %s: %w", s.path, err)
	}
	if err := s.w.QueryRowContext(ctx, `SELECT count(*) > 0 FROM sqlite_master WHERE name = 'public_records'`).Scan(&s.public); err != nil {
		return fmt.Errorf("database %s: %w", s.path, err)
	}
	if target == SchemaVersion() {
		if err := s.reopenOwed(ctx); err != nil {
			return fmt.Errorf("database %s: %w", s.path, err)
		}
		if err := s.rewordPublic(ctx); err != nil {
			return fmt.Errorf("database %s: the public notice board: %w", s.path, err)
		}
		if err := s.reindex(ctx); err != nil {
			return fmt.Errorf("database %s: the search index: %w", s.path, err)
		}
	}
	return nil
}

// reopenOwed puts back on the docket the cases that a ruling closed before ethicsbot
// tracked the papers the ordinance requires, and whose papers are not recorded as sent:
// a case is open until they are (docket.Case.Closed). The open column is derived from the
// record, not part of it, so this changes no event and no hash.
func (s *Store) reopenOwed(ctx context.Context) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT number, doc FROM cases WHERE open = 0`)
	if err != nil {
		return err
	}
	var reopen []string
	for rows.Next() {
		var number, doc string
		if err := rows.Scan(&number, &doc); err != nil {
			rows.Close()
			return err
		}
		var c docket.Case
		if json.Unmarshal([]byte(doc), &c) == nil && !c.Closed() {
			reopen = append(reopen, number)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, number := range reopen {
		if _, err := tx.ExecContext(ctx, `UPDATE cases SET open = 1 WHERE number = ?`, number); err != nil {
			return err
		}
	}
	if len(reopen) == 0 {
		return nil
	}
	return tx.Commit()
}

// migrate applies one migration and records it, in one transaction.
func (s *Store) migrate(ctx context.Context, m migration) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		stmts := []string{
			`CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied TEXT NOT NULL) STRICT`,
			m.sql,
		}
		for _, q := range stmts {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return err
			}
		}
		applied := time.Now().UTC().Truncate(time.Second)
		if strings.HasSuffix(m.name, publicMigration) {
			// Posted when the board first showed them: when this migration was applied.
			if err := s.fillPublic(ctx, tx, applied); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied) VALUES (?, ?, ?)`,
			m.version, m.name, applied.Format(time.RFC3339)); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", m.version))
		return err
	})
}

// write runs fn in one immediate transaction on the write connection, and commits it with
// synchronous=FULL: when write returns nil, the change is on disk.
// It first checks that path is still the file Open opened (see sameFile).
func (s *Store) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if e := s.sameFile(); e != nil {
		s.writeErrors.Add(1)
		return e.err
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		s.writeErrors.Add(1)
		return s.wrap(err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		if errors.As(err, new(sqlite3.Error)) { // the database's failure, not a refusal
			s.writeErrors.Add(1)
		}
		return s.wrap(err)
	}
	if err := tx.Commit(); err != nil {
		s.writeErrors.Add(1)
		return s.wrap(err)
	}
	return nil
}

// WriteErrors counts the writes that failed for the database's sake since the store was
// opened (a full disk, a read-only or removed file, a lock held by another program), not
// the actions the docket refused: what /metrics reports as ethicsbot_write_errors_total.
func (s *Store) WriteErrors() uint64 { return s.writeErrors.Load() }

// wrap turns SQLite's failures into errors that say what the operator should do; other
// errors pass through.
func (s *Store) wrap(err error) error {
	var se sqlite3.Error
	if !errors.As(err, &se) {
		return err
	}
	switch se.Code {
	case sqlite3.ErrFull:
		return &docket.Error{Code: docket.EINTERNAL, Message: fmt.Sprintf("the disk holding %s is full; nothing was recorded. Free space and try again", s.path)}
	case sqlite3.ErrReadonly, sqlite3.ErrPerm, sqlite3.ErrCantOpen:
		return &docket.Error{Code: docket.EINTERNAL, Message: fmt.Sprintf("the database %s cannot be written (%v); nothing was recorded", s.path, se.Code)}
	case sqlite3.ErrBusy, sqlite3.ErrLocked:
		return &docket.Error{Code: docket.EINTERNAL, Message: fmt.Sprintf("the database %s is locked by another program; nothing was recorded. Try again", s.path)}
	}
	return err
}

// fileError is why a Store refuses to write: the file at its path is not, or cannot be
// shown to be, the file it opened.
type fileError struct {
	health string        // one word for /healthz, which must not show paths: "removed", "replaced", "unchecked"
	err    *docket.Error // what the user is told, EINTERNAL
}

func (e *fileError) Error() string  { return e.err.Error() }
func (e *fileError) Unwrap() error  { return e.err }
func (e *fileError) Health() string { return e.health }

// sameFile checks, with one stat, that the file at path is still the one Open opened.
// SQLite goes on writing to the file it holds open even after it was removed, moved
// away or replaced (by a backup moved into place, say): those writes would reach no file
// the commission will ever read, and the next start would begin an empty record and
// number its cases from 001 again. Once the file is found removed or replaced, the Store
// refuses every write until it is restarted on the right file. (The inode cannot be
// reused by another file meanwhile: SQLite holds the old one open.)
func (s *Store) sameFile() *fileError {
	if e := s.gone.Load(); e != nil {
		return e
	}
	fi, err := os.Stat(s.path)
	var health, what string
	switch {
	case errors.Is(err, fs.ErrNotExist):
		health, what = "removed", "removed or moved away"
	case err != nil:
		// Not latched: a permission or I/O error may pass.
		return &fileError{"unchecked", &docket.Error{Code: docket.EINTERNAL,
			Message: fmt.Sprintf("the database file %s cannot be checked (%v); nothing was recorded", s.path, err)}}
	case !os.SameFile(fi, s.file):
		health, what = "replaced", "replaced by another file"
	default:
		return nil
	}
	s.gone.CompareAndSwap(nil, &fileError{health, &docket.Error{Code: docket.EINTERNAL,
		Message: fmt.Sprintf("the database file %s was %s while ethicsbot was running; nothing was recorded. "+
			"Put the right file back at that path (from a backup if need be) and restart ethicsbot", s.path, what)}})
	return s.gone.Load()
}

// Created reports whether Open found no record at its path (no file, or an empty one)
// and began a new, empty database: worth telling the operator, who may have expected one.
func (s *Store) Created() bool { return s.created }

// Ping reports whether the database can be read and its path still holds the file Open
// opened. A failure's Health method, if it has one, names the fault in one word.
func (s *Store) Ping(ctx context.Context) error {
	if e := s.sameFile(); e != nil {
		return e
	}
	var one int
	return s.r.QueryRowContext(ctx, "SELECT 1").Scan(&one)
}

// Close closes the database. Pending writes have already committed.
func (s *Store) Close() error {
	var errs []error
	if s.r != nil {
		errs = append(errs, s.r.Close())
	}
	if s.w != nil {
		errs = append(errs, s.w.Close())
	}
	return errors.Join(errs...)
}
