package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/mattn/go-sqlite3"

	"ethicsbot/docket"
)

// AddElection records an election, or renames the one on that date.
func (s *Store) AddElection(ctx context.Context, e docket.Election) error {
	if e.Date.IsZero() {
		return docket.Invalid("(G)", "date", "required: the date of the election")
	}
	if err := docket.CheckLine("name", "(G)", e.Name, true, docket.MaxName); err != nil {
		return err
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO elections (date, name) VALUES (?, ?)
			ON CONFLICT (date) DO UPDATE SET name = excluded.name`, e.Date.String(), e.Name)
		return err
	})
}

// Elections returns the recorded elections by date.
func (s *Store) Elections(ctx context.Context) ([]docket.Election, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT date, name FROM elections ORDER BY date`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []docket.Election
	for rows.Next() {
		var date string
		var e docket.Election
		if err := rows.Scan(&date, &e.Name); err != nil {
			return nil, err
		}
		if e.Date, err = docket.ParseDate(date); err != nil {
			return nil, fmt.Errorf("election %q: %w", date, err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// Backup writes a consistent copy of the database to dest with SQLite's online backup,
// while the bot keeps running, then verifies the copy's chain, reading it only. dest must
// not exist; it is created readable by its owner only. The report's Anchor is the copy's.
func (s *Store) Backup(ctx context.Context, dest string) (Report, error) {
	if err := s.copyTo(ctx, dest); err != nil {
		return Report{}, err
	}
	copy, err := OpenReadOnly(dest, s.engine)
	if err != nil {
		return Report{}, fmt.Errorf("backup %s was written but cannot be opened: %w", dest, err)
	}
	defer copy.Close()
	return copy.Verify(ctx)
}

// copyTo writes a consistent copy of the database to dest, which must not exist, created
// mode 0600.
func (s *Store) copyTo(ctx context.Context, dest string) error {
	if _, err := os.Stat(dest); !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("backup %s: the file exists; choose a new name so no earlier backup is overwritten", dest)
	}
	if err := createPrivate(dest); err != nil {
		return fmt.Errorf("backup %s: %w", dest, err)
	}
	ddb, err := sql.Open("sqlite3", dsn(dest, "_txlock=immediate"))
	if err != nil {
		return fmt.Errorf("backup %s: %w", dest, err)
	}
	defer ddb.Close()
	dconn, err := ddb.Conn(ctx)
	if err != nil {
		return fmt.Errorf("backup %s: %w", dest, err)
	}
	defer dconn.Close()
	sconn, err := s.r.Conn(ctx)
	if err != nil {
		return err
	}
	defer sconn.Close()
	err = dconn.Raw(func(d any) error {
		return sconn.Raw(func(src any) error {
			b, err := d.(*sqlite3.SQLiteConn).Backup("main", src.(*sqlite3.SQLiteConn), "main")
			if err != nil {
				return err
			}
			if _, err := b.Step(-1); err != nil {
				b.Finish()
				return err
			}
			return b.Finish()
		})
	})
	if err != nil {
		dconn.Close()
		ddb.Close()
		os.Remove(dest)
		return fmt.Errorf("backup %s: %w", dest, err)
	}
	if err := dconn.Close(); err != nil {
		return fmt.Errorf("backup %s: %w", dest, err)
	}
	return ddb.Close()
}
