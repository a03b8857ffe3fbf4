package store

import (
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Inspection is what an upgrade needs to know of a record before the binary is replaced,
// read without writing to it (see Inspect).
type Inspection struct {
	// Exists is false where there is no record yet: the first start creates it.
	Exists bool
	// Version is the record's schema version.
	Version int
	// Pending are the migrations this ethicsbot would apply at its first start, by name.
	Pending []string
	// Replicated says that Litestream keeps its tables in the record, and so holds it open:
	// a start that migrates is refused until it is stopped.
	Replicated bool
}

// Inspect reads the record at path as `ethicsbot upgrade --check` reports it: its schema,
// the migrations this ethicsbot would apply, and whether Litestream replicates it. It opens
// the file read-only, as verify does, and never migrates it; a schema this ethicsbot cannot
// read is refused as a start would refuse it (SchemaRefused).
func Inspect(path string) (Inspection, error) {
	var in Inspection
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return in, nil
	}
	if err != nil {
		return in, fmt.Errorf("database %s: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		return in, fmt.Errorf("database %s is not a regular file; set ETHICSBOT_DB to a file path", path)
	}
	in.Exists = true
	if err := checkHeader(path); err != nil {
		return in, err
	}
	if in.Version, err = readHistory(path); err != nil {
		return in, err
	}
	ms, err := migrations()
	if err != nil {
		return in, err
	}
	for _, m := range ms[in.Version:] {
		in.Pending = append(in.Pending, m.name)
	}
	db, err := sql.Open("sqlite3", dsn(path, readOnlyMode(path)+"&_query_only=true"))
	if err != nil {
		return in, fmt.Errorf("database %s: %w", path, err)
	}
	defer db.Close()
	s := &Store{path: path, r: db, readOnly: true}
	in.Replicated = s.othersCheckpoint()
	return in, nil
}
