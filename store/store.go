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
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mattn/go-sqlite3"

	"ethicsbot/docket"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// Store is the commission's record in one SQLite file. It is safe for concurrent use:
// writes go through one connection, one transaction at a time, and reads use a pool.
type Store struct {
	path     string
	fileMu   sync.Mutex  // held by a write, from its check of the file to its restamp
	file     os.FileInfo // the database file as this store last left it (guarded by fileMu)
	created  bool
	readOnly bool                      // opened by OpenReadOnly: w is nil
	closed   bool                      // guarded by fileMu
	log      *slog.Logger              // told when the store begins to refuse writes
	lock     *recordLock               // held while open, if Options.Lock
	version  int                       // the schema version this store reads and writes
	gone     atomic.Pointer[fileError] // set, for good, once path is no longer that file
	w        *sql.DB                   // a single connection: writers queue here instead of meeting SQLITE_BUSY
	r        *sql.DB                   // readers; WAL lets them run while a write commits
	engine   *docket.Engine
	search   bool  // the schema has the search index (case_search)
	public   bool  // the schema has the public notice board's records (public_records)
	docs     bool  // the schema has the case file's documents (documents)
	meetings bool  // the schema has the commission's meetings (meeting_events, 011)
	media    bool  // the schema has the news media's requests (news_media, 014)
	due      bool  // the cases have their next due instant (cases.due, 015)
	next     bool  // the cases have their next step as the docket lists it (cases.next, 016)
	steps    bool  // the cases' steps scheduled at meetings are kept (case_steps, 017)
	attend   bool  // what needs attention on each open case is kept (case_attention, 019)
	dueFresh bool  // and this engine derived them: their basis is its DueBasis
	sayer    Sayer // what is said with what is recorded (SayWith); nil says nothing

	mu       sync.Mutex            // guards the caches of decoded cases
	cache    map[string]cachedCase // open cases as OpenCases last decoded them
	dueCache map[string]cachedCase // the cases due as DueCases last decoded them
	// docketCache holds the cases Docket last showed.
	docketCache map[string]cachedCase

	fault       atomic.Pointer[string] // why the last write failed for want of a working disk; nil once one succeeds (see noteWrite)
	writeErrors atomic.Uint64          // writes the database refused; see WriteErrors
	commits     atomic.Uint64          // durable commits; see Commits
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

// schemaError refuses a record for its schema: a migration it needs that cannot be made now,
// or a schema this ethicsbot cannot read.
type schemaError struct{ error }

func (e schemaError) Unwrap() error { return e.error }

// SchemaRefused reports whether err refuses a record for its schema: a migration pending
// that cannot be made now (another program has the file open, the backup before it failed,
// the record does not verify), or a schema this ethicsbot cannot read (written by a newer
// one, or by another line of migrations). Starting again does not mend it: a person must.
func SchemaRefused(err error) bool {
	var e schemaError
	return errors.As(err, &e)
}

// sqliteHeader starts every SQLite 3 database file.
var sqliteHeader = []byte("SQLite format 3\x00")

// Options are how the bot opens its record for writing.
type Options struct {
	// Lock makes the store the only ethicsbot on the file while it is open, whatever name
	// reaches the file: the bot's store, and migrate's and restore's, hold its lock (see
	// recordLock).
	Lock bool
	// Log is told of each migration applied, and of the backup written before them.
	Log *slog.Logger
	// Now stamps the name of that backup; time.Now if nil.
	Now func() time.Time
}

// Open opens the database at path for writing, creating it if it does not exist, and
// brings its schema up to date: only the bot itself, and `ethicsbot migrate`, open a
// record this way. Before it migrates an existing record it writes a verified backup
// beside it, and it refuses to migrate a file another program has open (an older
// ethicsbot still running on it). A file that is not SQLite, is read-only, was written by
// a newer ethicsbot, or whose migrations differ from this binary's is refused with an
// error naming the path, and is left untouched.
func Open(path string, engine *docket.Engine) (*Store, error) {
	return OpenWith(path, engine, Options{})
}

// OpenWith is Open with options.
func OpenWith(path string, engine *docket.Engine, o Options) (*Store, error) {
	return open(path, engine, SchemaVersion(), o)
}

// open migrates to version target; tests pass an earlier one to build old schemas.
func open(path string, engine *docket.Engine, target int, o Options) (*Store, error) {
	exists, err := checkFile(path)
	if err != nil {
		return nil, err
	}
	s := &Store{path: path, engine: engine, log: o.Log}
	if o.Lock { // first: neither a migration nor a new file under another ethicsbot
		if s.lock, err = lockRecord(path); err != nil {
			return nil, err
		}
	}
	fail := func(err error) (*Store, error) {
		s.unlock()
		return nil, err
	}
	if !exists {
		// The record is confidential: created 0600 whatever the umask, and SQLite gives its
		// WAL and shared-memory files the mode of the database file.
		if err := createPrivate(path); err != nil {
			return fail(fmt.Errorf("database %s: %w", path, err))
		}
		if o.Lock {
			if err := s.lock.holdRecord(path); err != nil { // the new file's identity, for its other names
				return fail(err)
			}
		}
	} else if err := s.makePrivate(); err != nil {
		return fail(err)
	}
	// Look without writing: a journal-mode change or a migration would alter the file.
	v, err := readHistory(path)
	if err != nil {
		return fail(err)
	}
	if v > 0 && v < target {
		if err := beforeMigrating(path, engine, v, target, o); err != nil {
			return fail(schemaError{err})
		}
	}
	if s.w, err = sql.Open("sqlite3", dsn(path, "_journal_mode=WAL&_synchronous=FULL&_txlock=immediate")); err != nil {
		s.unlock()
		return nil, fmt.Errorf("database %s: %w", path, err)
	}
	s.w.SetMaxOpenConns(1)
	s.w.SetConnMaxIdleTime(0)
	// Readers open the file but never create it: a read after the file was removed must
	// fail, not leave an empty database at the path for the next start to take as the record.
	if s.r, err = sql.Open("sqlite3", dsn(path, "_query_only=true&_txlock=deferred&mode=rw")); err != nil {
		s.w.Close()
		s.unlock()
		return nil, fmt.Errorf("database %s: %w", path, err)
	}
	if err := s.init(target, o); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// OpenReadOnly opens the record at path to read it, and never writes to it: not a
// migration, not a journal-mode change, not an index. It works on a file without write
// permission and on a read-only file system, and beside a running bot. A record at an
// older schema is opened as it is (Verify reads it; Outdated says what else cannot); one
// written by a newer ethicsbot, or with a different migration history, is refused.
func OpenReadOnly(path string, engine *docket.Engine) (*Store, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("database %s: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("database %s is not a regular file; set ETHICSBOT_DB to a file path", path)
	}
	if err := checkHeader(path); err != nil {
		return nil, err
	}
	v, err := readHistory(path)
	if err != nil {
		return nil, err
	}
	s := &Store{path: path, engine: engine, readOnly: true, version: v, file: fi}
	if s.r, err = sql.Open("sqlite3", dsn(path, readOnlyMode(path)+"&_query_only=true&_txlock=deferred")); err != nil {
		return nil, fmt.Errorf("database %s: %w", path, err)
	}
	if err := s.tables(context.Background()); err != nil {
		s.Close()
		return nil, fmt.Errorf("database %s cannot be read: %w", path, err)
	}
	return s, nil
}

// Outdated says why a store opened read-only cannot serve a command other than verify: its
// schema is older than this ethicsbot's. It is nil for a current schema.
func (s *Store) Outdated() error {
	if s.version >= SchemaVersion() {
		return nil
	}
	return fmt.Errorf("database %s is at schema version %d; this ethicsbot reads version %d. `ethicsbot migrate` with "+
		"this ethicsbot migrates it (after a backup), with the bot stopped; `ethicsbot verify` checks it as it is. The "+
		"file was not changed",
		s.path, s.version, SchemaVersion())
}

// ReadOnly reports whether the store was opened with OpenReadOnly.
func (s *Store) ReadOnly() bool { return s.readOnly }

// Version is the record's schema version as opened.
func (s *Store) Version() int { return s.version }

// dsn builds a go-sqlite3 DSN: the pragmas are in the DSN so that every pooled connection
// gets them.
func dsn(path, extra string) string {
	return "file:" + escapePath(path) + "?_foreign_keys=on&_busy_timeout=10000&_stmt_cache_size=128&" + extra
}

// readOnlyMode is how to open path for reading only. SQLite reads a WAL database through
// its shared-memory file, which it makes beside the database if need be; in a folder that
// cannot be written (a read-only file system, a write-protected evidence folder) it cannot,
// and no program can be writing the database there either, since a writer needs its WAL
// and journal beside it: then, if there is no WAL to read, the file is opened as immutable.
func readOnlyMode(path string) string {
	_, walErr := os.Stat(path + "-wal")
	if errors.Is(walErr, fs.ErrNotExist) && syscall.Access(filepath.Dir(path), 2 /* W_OK */) != nil {
		return "mode=ro&immutable=1"
	}
	return "mode=ro"
}

// escapePath escapes what an SQLite URI reads in a path: % ? and #.
func escapePath(path string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
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
		return false, fmt.Errorf("database %s is read-only (mode %v); ethicsbot records every action in it, so make it "+
			"writable (chmod u+w) or set ETHICSBOT_DB to a writable copy", path, fi.Mode().Perm())
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return false, fmt.Errorf("database %s cannot be opened for writing: %w; ethicsbot records every "+
			"action in it", path, err)
	}
	f.Close()
	return true, checkHeader(path)
}

// checkHeader refuses a file that is neither empty nor SQLite, reading it only.
func checkHeader(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("database %s cannot be read: %w", path, err)
	}
	defer f.Close()
	head := make([]byte, len(sqliteHeader))
	n, err := io.ReadFull(f, head)
	if n == 0 && (err == io.EOF) {
		return nil // an empty file is an empty database
	}
	if !bytes.Equal(head[:n], sqliteHeader) {
		return fmt.Errorf("database %s is not an SQLite database; move it aside or set ETHICSBOT_DB to another path", path)
	}
	return nil
}

// readHistory reads the schema version through a read-only connection, and checks that
// the file's migrations are this binary's, by number and name: a file migrated by another
// line of ethicsbot, or by a newer one, is refused with both names.
func readHistory(path string) (int, error) {
	db, err := sql.Open("sqlite3", dsn(path, readOnlyMode(path)))
	if err != nil {
		return 0, fmt.Errorf("database %s: %w", path, err)
	}
	defer db.Close()
	var v int
	if err := db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		return 0, fmt.Errorf("database %s cannot be read: %w", path, err)
	}
	if v > SchemaVersion() {
		return v, schemaError{fmt.Errorf("database %s has schema version %d, newer than this ethicsbot's %d: upgrade "+
			"ethicsbot; the file was not changed", path, v, SchemaVersion())}
	}
	if v == 0 {
		return 0, nil
	}
	ms, err := migrations()
	if err != nil {
		return v, err
	}
	rows, err := db.Query(`SELECT version, name FROM schema_migrations ORDER BY version`)
	if err != nil {
		return v, schemaError{fmt.Errorf("database %s has schema version %d but no record of its migrations (%v): it was "+
			"not made by ethicsbot; the file was not changed", path, v, err)}
	}
	defer rows.Close()
	seen := 0
	for rows.Next() {
		var n int
		var name string
		if err := rows.Scan(&n, &name); err != nil {
			return v, fmt.Errorf("database %s cannot be read: %w", path, err)
		}
		if n < 1 || n > len(ms) || ms[n-1].name != name {
			want := "none"
			if n >= 1 && n <= len(ms) {
				want = ms[n-1].name
			}
			return v, schemaError{fmt.Errorf("database %s: its migration %d is %s, but this ethicsbot's is %s: the file was "+
				"migrated by another line of ethicsbot. Use the ethicsbot that migrated it; the file was not changed", path, n,
				name, want)}
		}
		seen++
	}
	if err := rows.Err(); err != nil {
		return v, fmt.Errorf("database %s cannot be read: %w", path, err)
	}
	if seen != v {
		return v, schemaError{fmt.Errorf("database %s has schema version %d but records %d migrations: it was changed "+
			"outside ethicsbot; the file was not changed", path, v, seen)}
	}
	return v, nil
}

// init checks the pragmas took effect and applies the migrations up to target.
func (s *Store) init(target int, o Options) error {
	ctx := context.Background()
	var mode string
	if err := s.w.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		return fmt.Errorf("database %s cannot be opened: %w", s.path, err)
	}
	if mode != "wal" {
		return fmt.Errorf("database %s: journal mode is %q, not WAL; is it on a network file system? Put it on a local disk",
			s.path, mode)
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
	s.version = current
	s.restamp()
	for _, m := range ms[current:target] {
		if err := s.migrate(ctx, m); err != nil {
			return fmt.Errorf("database %s: migration %s: %w", s.path, m.name, err)
		}
		s.version = m.version
		if !s.created && o.Log != nil {
			o.Log.Info("migrated the database", "path", s.path, "migration", m.name, "schema", m.version)
		}
	}
	if err := s.tables(ctx); err != nil {
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
		if err := s.deriveDue(ctx); err != nil {
			return fmt.Errorf("database %s: the cases' next due instants: %w", s.path, err)
		}
	}
	return nil
}

// tables notes which of the later tables the schema has: a store opened at an older
// schema (a test's, or a record read as it is) reads and writes what that schema holds.
func (s *Store) tables(ctx context.Context) error {
	if err := s.r.QueryRowContext(ctx,
		`SELECT count(*) > 0 FROM sqlite_master WHERE name = 'case_search'`).Scan(&s.search); err != nil {
		return err
	}
	if err := s.r.QueryRowContext(ctx,
		`SELECT count(*) > 0 FROM sqlite_master WHERE name = 'documents'`).Scan(&s.docs); err != nil {
		return err
	}
	if err := s.r.QueryRowContext(ctx,
		`SELECT count(*) > 0 FROM sqlite_master WHERE name = 'meeting_events'`).Scan(&s.meetings); err != nil {
		return err
	}
	if err := s.r.QueryRowContext(ctx,
		`SELECT count(*) > 0 FROM sqlite_master WHERE name = 'news_media'`).Scan(&s.media); err != nil {
		return err
	}
	if err := s.r.QueryRowContext(ctx,
		`SELECT count(*) > 0 FROM pragma_table_info('cases') WHERE name = 'due'`).Scan(&s.due); err != nil {
		return err
	}
	if err := s.r.QueryRowContext(ctx,
		`SELECT count(*) > 0 FROM pragma_table_info('cases') WHERE name = 'next'`).Scan(&s.next); err != nil {
		return err
	}
	if err := s.r.QueryRowContext(ctx,
		`SELECT count(*) > 0 FROM sqlite_master WHERE name = 'case_steps'`).Scan(&s.steps); err != nil {
		return err
	}
	if err := s.r.QueryRowContext(ctx,
		`SELECT count(*) > 0 FROM sqlite_master WHERE name = 'case_attention'`).Scan(&s.attend); err != nil {
		return err
	}
	if s.due && s.engine != nil {
		basis, err := dueBasis(ctx, s.r)
		if err != nil {
			return err
		}
		var underived bool // a record just migrated to 015 or 016, or whose derivation failed
		if err := s.r.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM cases WHERE open = 1 AND due IS NULL)`+
			s.ifNext(` OR EXISTS (SELECT 1 FROM cases WHERE open = 1 AND (next IS NULL OR recused IS NULL))`, "")).Scan(
			&underived); err != nil {
			return err
		}
		s.dueFresh = basis == s.engine.DueBasis() && !underived
	}
	return s.r.QueryRowContext(ctx, `SELECT count(*) > 0 FROM sqlite_master WHERE name = 'public_records'`).Scan(&s.public)
}

// reopenOwed puts back on the docket the cases that a ruling closed before ethicsbot
// tracked the papers the ordinance requires, and whose papers are not recorded as sent:
// a case is open until they are (docket.Case.Closed). The open column is derived from the
// record, not part of it, so this changes no event and no hash.
func (s *Store) reopenOwed(ctx context.Context) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT number, doc FROM cases WHERE open = 0`)
		if err != nil {
			return err
		}
		var reopen []docket.Case
		for rows.Next() {
			var number, doc string
			if err := rows.Scan(&number, &doc); err != nil {
				rows.Close()
				return err
			}
			var c docket.Case
			if json.Unmarshal([]byte(doc), &c) == nil && !c.Closed() {
				reopen = append(reopen, c)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for i := range reopen {
			if _, err := tx.ExecContext(ctx, `UPDATE cases SET open = 1 WHERE number = ?`, reopen[i].Number); err != nil {
				return err
			}
			// Its papers owed need attention again: the desk lists the open cases'.
			if err := s.writeAttention(ctx, tx, &reopen[i]); err != nil {
				return err
			}
		}
		return nil
	})
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
		if strings.HasSuffix(m.name, stepsMigration) {
			if err := s.fillSteps(ctx, tx); err != nil {
				return err
			}
		}
		if strings.HasSuffix(m.name, attentionMigration) {
			if err := s.fillAttention(ctx, tx); err != nil {
				return err
			}
		}
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
// In the transaction, before fn, it checks that the schema is still the one this store
// opened: a file that another ethicsbot migrated is refused for good (see migrated).
func (s *Store) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if s.readOnly {
		return docket.Unavailable(fmt.Sprintf("the database %s was opened to be read only; nothing was recorded", s.path))
	}
	s.fileMu.Lock()
	defer s.fileMu.Unlock()
	if s.closed {
		return fmt.Errorf("database %s: %w", s.path, sql.ErrConnDone)
	}
	if e := s.checkIdentity(true); e != nil {
		s.writeErrors.Add(1)
		return e.err
	}
	defer s.restamp() // a commit may checkpoint the WAL into the file: that change is ours
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		s.writeErrors.Add(1)
		return s.wrap(err)
	}
	var v int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		tx.Rollback()
		return s.wrap(err)
	}
	if v != s.version {
		tx.Rollback()
		s.writeErrors.Add(1)
		return s.migratedUnder(v).err
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
	s.commits.Add(1)
	return s.wrap(nil) // the disk took it: a fault noted before is over
}

// writeFaults names, in one word for /healthz, the SQLite failures that stop every write
// until a person acts (frees space, fixes permissions or the disk) or another program
// lets go of the file. Other failures (a refused action, a constraint) say nothing of
// the disk.
var writeFaults = map[sqlite3.ErrNo]string{
	sqlite3.ErrFull: "full", sqlite3.ErrIoErr: "io_error", sqlite3.ErrReadonly: "read_only", sqlite3.ErrPerm: "read_only",
	sqlite3.ErrCantOpen: "cannot_open", sqlite3.ErrBusy: "locked", sqlite3.ErrLocked: "locked",
	sqlite3.ErrCorrupt: "corrupt",
	sqlite3.ErrNotADB:  "corrupt",
}

// noteWrite keeps why a write failed for want of the disk, until a write succeeds.
func (s *Store) noteWrite(err error) {
	var se sqlite3.Error
	switch {
	case err == nil:
		s.fault.Store(nil)
	case errors.As(err, &se):
		if why, ok := writeFaults[se.Code]; ok {
			s.fault.Store(&why)
		}
	}
}

// WriteHealth says why writes are failing, in one word ("full", "read_only", "io_error",
// "locked", "corrupt", "cannot_open"), or "" if the last write that reached the disk
// succeeded: a full disk leaves reads working, so Ping alone would not see it. The
// reminder sweep writes at each run (every minute by default), so the answer stays fresh.
func (s *Store) WriteHealth() string {
	if why := s.fault.Load(); why != nil {
		return *why
	}
	return ""
}

// WriteErrors counts the writes that failed for the database's sake since the store was
// opened (a full disk, a read-only or removed file, a lock held by another program), not
// the actions the docket refused: what /metrics reports as ethicsbot_write_errors_total.
func (s *Store) WriteErrors() uint64 { return s.writeErrors.Load() }

// Commits counts the transactions committed since the store was opened: each waited for
// the disk (synchronous=FULL, one fsync of the WAL), so they are what the writes cost. It
// is what /metrics reports as ethicsbot_commits_total.
func (s *Store) Commits() uint64 { return s.commits.Load() }

// wrap turns SQLite's failures into errors that say what the operator should do; other
// errors pass through. Every write ends in it, so it also keeps whether writes reach the
// disk (noteWrite).
func (s *Store) wrap(err error) error {
	s.noteWrite(err)
	var se sqlite3.Error
	if !errors.As(err, &se) {
		return err
	}
	switch se.Code {
	case sqlite3.ErrFull:
		return docket.Unavailable(fmt.Sprintf("the disk holding %s is full; nothing was recorded. Free space "+
			"and try again", s.path))
	case sqlite3.ErrReadonly, sqlite3.ErrPerm, sqlite3.ErrCantOpen:
		return docket.Unavailable(fmt.Sprintf("the database %s cannot be written (%v); nothing was recorded",
			s.path, se.Code))
	case sqlite3.ErrBusy, sqlite3.ErrLocked:
		return docket.Unavailable(fmt.Sprintf("the database %s is locked by another program; nothing was "+
			"recorded. Try again", s.path))
	}
	return err
}

// fileError is why a Store refuses to write: the file at its path is not, or cannot be
// shown to be, the file it opened.
type fileError struct {
	health string        // one word for /healthz, which must not show paths: "removed", "replaced", "unchecked"
	err    *docket.Error // what the operator is told, EUNAVAILABLE
}

func (e *fileError) Error() string  { return e.err.Error() }
func (e *fileError) Unwrap() error  { return e.err }
func (e *fileError) Health() string { return e.health }

// sameFile checks, with one stat, that the file at path is still the one Open opened,
// and, when no write is under way, that nothing but this store changed it since.
func (s *Store) sameFile() *fileError {
	if s.fileMu.TryLock() {
		defer s.fileMu.Unlock()
		return s.checkIdentity(true)
	}
	return s.checkIdentity(false) // a write is under way: it checks the content itself
}

// checkIdentity checks that the file at path is still the one Open opened; with content, also
// that its size and modification time are those this store left it with.
//
// SQLite goes on writing to the file it holds open even after it was removed, moved
// away or replaced (by a backup moved into place, say): those writes would reach no file
// the commission will ever read, and the next start would begin an empty record and
// number its cases from 001 again. A backup copied over the file (cp keeps the inode)
// changes its content under SQLite's cache and WAL: the record would mix two files. Only
// this store's own commits change the file while it runs (readers never write it, and its
// WAL is folded into the file only by its own commits), so a size or time it did not leave
// means another program wrote it. Once the file is found removed, replaced or changed,
// the Store refuses every write until it is restarted on the right file. (The inode cannot
// be reused by another file meanwhile: SQLite holds the old one open.)
// The caller holds fileMu if content is true.
func (s *Store) checkIdentity(content bool) *fileError {
	if e := s.gone.Load(); e != nil {
		return e
	}
	if s.readOnly {
		return nil
	}
	fi, err := os.Stat(s.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return s.latch("removed",
			fmt.Sprintf("the database file %s was removed or moved away while ethicsbot was running; nothing was recorded. "+
				"Put the right file back at that path (from a backup if need be) and restart ethicsbot", s.path))
	case err != nil:
		// Not latched: a permission or I/O error may pass.
		return &fileError{"unchecked", docket.Unavailable(fmt.Sprintf(
			"the database file %s cannot be checked (%v); nothing was recorded", s.path, err))}
	case !os.SameFile(fi, s.file):
		return s.latch("replaced",
			fmt.Sprintf("the database file %s was replaced by another file while ethicsbot was running; nothing was recorded. "+
				"Put the right file back at that path (from a backup if need be) and restart ethicsbot", s.path))
	case content && (fi.Size() != s.file.Size() || !fi.ModTime().Equal(s.file.ModTime())) && s.othersCheckpoint():
		s.file = fi // Litestream's checkpoint
	case content && (fi.Size() != s.file.Size() || !fi.ModTime().Equal(s.file.ModTime())):
		return s.latch("changed",
			fmt.Sprintf("the database file %s was written by another program while ethicsbot was running (a backup copied "+
				"over it, or a second ethicsbot); nothing was recorded. "+
				"Stop ethicsbot, put the right record in place (`ethicsbot restore`), and restart ethicsbot", s.path))
	}
	return nil
}

// migratedUnder latches the refusal of a file that another ethicsbot migrated to v.
func (s *Store) migratedUnder(v int) *fileError {
	return s.latch("migrated",
		fmt.Sprintf("the database %s was migrated to schema version %d by another ethicsbot while this one (schema %d) was "+
			"running; nothing was recorded. "+
			"Stop this ethicsbot and restart ethicsbot with the version that migrated the file", s.path, v, s.version))
}

// latch makes the store refuse every write from now on, for the reason given; the first
// reason stays.
func (s *Store) latch(health, message string) *fileError {
	if s.gone.CompareAndSwap(nil, &fileError{health, docket.Unavailable(message)}) && s.log != nil {
		s.log.Error("the database refuses every write from now on", "fault", health, "why", message)
	}
	return s.gone.Load()
}

// restamp notes the file as this store left it. The caller holds fileMu, or no other
// goroutine has the store yet.
func (s *Store) restamp() {
	if fi, err := os.Stat(s.path); err == nil && (s.file == nil || os.SameFile(fi, s.file)) {
		s.file = fi
	}
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
	var v int
	if err := s.r.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	if v != s.version && !s.readOnly {
		return s.migratedUnder(v)
	}
	return nil
}

// Close closes the database. Pending writes have already committed.
func (s *Store) Close() error {
	s.fileMu.Lock() // closing folds the WAL into the file: no write may take that for another program's
	s.closed = true
	s.fileMu.Unlock()
	defer s.unlock()
	if e := s.gone.Load(); e != nil && e.health == "changed" {
		return s.abandon()
	}
	var errs []error
	if s.r != nil {
		errs = append(errs, s.r.Close())
	}
	if s.w != nil {
		errs = append(errs, s.w.Close())
	}
	return errors.Join(errs...)
}
