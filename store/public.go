package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"ethicsbot/docket"
)

// publicMigration ends the name of the migration that made public_records, and filled it
// for the cases recorded before.
const publicMigration = "_public_records.sql"

// Posting is one record the ordinance makes public, with when it first appeared on the
// board (docket.Posting): the board reads it without importing the store.
type Posting = docket.Posting

// Public returns every public record that stands, in the order of when each happens or
// happened, with when it first appeared on the board. It is what `export --public` writes
// and what the board shows: one function, so they cannot differ.
func (s *Store) Public(ctx context.Context) ([]Posting, error) {
	return s.postings(ctx, `SELECT record, posted FROM public_records WHERE removed = '' ORDER BY sort, case_number, key`)
}

// PublicOf returns case number's public records that stand, as Public does.
func (s *Store) PublicOf(ctx context.Context, number string) ([]Posting, error) {
	return s.postings(ctx,
		`SELECT record, posted FROM public_records WHERE removed = '' AND case_number = ? ORDER BY sort, key`, number)
}

// PublicBetween returns the public records that stand and happen in [from, to), as
// Public does; a zero to means no end.
func (s *Store) PublicBetween(ctx context.Context, from, to time.Time) ([]Posting, error) {
	if to.IsZero() {
		return s.postings(ctx,
			`SELECT record, posted FROM public_records WHERE removed = '' AND sort >= ? ORDER BY sort, case_number, key`,
			stamp(from))
	}
	return s.postings(ctx,
		`SELECT record, posted FROM public_records WHERE removed = '' AND sort >= ? AND sort < ? ORDER BY sort, case_number, key`, stamp(from), stamp(to))
}

// LatestPosted returns the n public records that stand and were posted last, newest
// first: a feed's entries.
func (s *Store) LatestPosted(ctx context.Context, n int) ([]Posting, error) {
	return s.postings(ctx,
		`SELECT record, posted FROM public_records WHERE removed = '' ORDER BY posted DESC, case_number, key LIMIT ?`, n)
}

// PublicYears returns the years, in loc, in which public records that stand happen,
// newest first: the board's archive.
func (s *Store) PublicYears(ctx context.Context, loc *time.Location) ([]int, error) {
	// By the hour, so that a record late on 31 December in loc, which is already the new
	// year in UTC, counts in its own year.
	rows, err := s.r.QueryContext(ctx, `SELECT DISTINCT substr(sort, 1, 13) FROM public_records WHERE removed = ''`)
	if err != nil {
		return nil, s.wrap(err)
	}
	defer rows.Close()
	seen := map[int]bool{}
	for rows.Next() {
		var hour string
		if err := rows.Scan(&hour); err != nil {
			return nil, err
		}
		t, err := time.Parse("2006-01-02T15", hour)
		if err != nil {
			return nil, fmt.Errorf("public record time %q: %w", hour, err)
		}
		seen[t.In(loc).Year()] = true
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	years := slices.Collect(maps.Keys(seen))
	slices.Sort(years)
	slices.Reverse(years)
	return years, nil
}

// Posted gives, by docket.PublicRecord.Key, when each of case number's public records that
// stand first appeared on the board.
func (s *Store) Posted(ctx context.Context, number string) (map[string]time.Time, error) {
	rows, err := s.r.QueryContext(ctx,
		`SELECT key, posted FROM public_records WHERE removed = '' AND case_number = ?`, number)
	if err != nil {
		return nil, s.wrap(err)
	}
	defer rows.Close()
	out := map[string]time.Time{}
	for rows.Next() {
		var key, posted string
		if err := rows.Scan(&key, &posted); err != nil {
			return nil, err
		}
		out[key] = unstamp(posted)
	}
	return out, rows.Err()
}

// PublicVersion is the id of the last event recorded: the public records change only with
// an event, so a page made at one version stays right until the next.
func (s *Store) PublicVersion(ctx context.Context) (int64, error) {
	var id sql.NullInt64
	if err := s.r.QueryRowContext(ctx, `SELECT max(id) FROM events`).Scan(&id); err != nil {
		return 0, s.wrap(err)
	}
	if s.meetings {
		// The meetings' own events change the board's agendas too; both ids only grow.
		var mid sql.NullInt64
		if err := s.r.QueryRowContext(ctx, `SELECT max(id) FROM meeting_events`).Scan(&mid); err != nil {
			return 0, s.wrap(err)
		}
		return id.Int64 + mid.Int64, nil
	}
	return id.Int64, nil
}

func (s *Store) postings(ctx context.Context, query string, args ...any) ([]Posting, error) {
	rows, err := s.r.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, s.wrap(err)
	}
	defer rows.Close()
	var out []Posting
	for rows.Next() {
		var doc, posted string
		if err := rows.Scan(&doc, &posted); err != nil {
			return nil, err
		}
		var p Posting
		if err := json.Unmarshal([]byte(doc), &p.PublicRecord); err != nil {
			return nil, fmt.Errorf("public record: %w", err)
		}
		p.Posted = unstamp(posted)
		out = append(out, p)
	}
	return out, rows.Err()
}

// post brings c's rows of public_records up to date in tx, as event (0 for none, when
// migrating) at the instant at made them: a record new to the board is posted then; one
// that no longer stands is marked removed then, and posted afresh if it stands again.
func (s *Store) post(ctx context.Context, tx *sql.Tx, c *docket.Case, at time.Time, event int64) error {
	var ev any
	if event != 0 {
		ev = event
	}
	// What stands now, as stored: most actions change nothing public, and then write nothing.
	stored := map[string]string{}
	rows, err := tx.QueryContext(ctx,
		`SELECT key, record FROM public_records WHERE case_number = ? AND removed = ''`, c.Number)
	if err != nil {
		return err
	}
	for rows.Next() {
		var key, record string
		if err := rows.Scan(&key, &record); err != nil {
			rows.Close()
			return err
		}
		stored[key] = record
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	loc := s.engine.Cal.Location()
	for _, r := range docket.PublicRecords(c, loc) {
		doc, err := json.Marshal(r)
		if err != nil {
			return err
		}
		key := r.Key()
		record, standing := stored[key]
		delete(stored, key)
		if standing && record == string(doc) {
			continue
		}
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO public_records (case_number, key, record, sort, posted, posted_event) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (case_number, key) DO UPDATE SET record = excluded.record, sort = excluded.sort,
				posted = CASE WHEN removed = '' THEN posted ELSE excluded.posted END,
				posted_event = CASE WHEN removed = '' THEN posted_event ELSE excluded.posted_event END, removed = ''`,
			c.Number, key, string(doc), stamp(r.When(loc)), stamp(at), ev); err != nil {
			return err
		}
	}
	for key := range stored { // stood before, and no longer does
		if _, err := tx.ExecContext(ctx, `UPDATE public_records SET removed = ? WHERE case_number = ? AND key = ?`, stamp(at),
			c.Number, key); err != nil {
			return err
		}
	}
	return nil
}

// rewordPublic words the public records that stand afresh, when the docket's PublicForm
// is not the one they were written in, keeping when each was first posted: a new wording
// of a notice is not a new notice.
func (s *Store) rewordPublic(ctx context.Context) error {
	want := strconv.Itoa(docket.PublicForm)
	var have string
	err := s.w.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'public_form'`).Scan(&have)
	if err != nil && !errors.Is(err, sql.ErrNoRows) || have == want {
		return err
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		if have != "" { // a new database, or one just filled, is in the current form already
			loc := s.engine.Cal.Location()
			cases, err := casesIn(ctx, tx)
			if err != nil {
				return err
			}
			for i := range cases {
				for _, r := range docket.PublicRecords(&cases[i], loc) {
					doc, err := json.Marshal(r)
					if err != nil {
						return err
					}
					if _, err := tx.ExecContext(ctx,
						`UPDATE public_records SET record = ?, sort = ? WHERE case_number = ? AND key = ? AND removed = ''`,
						string(doc), stamp(r.When(loc)), cases[i].Number, r.Key()); err != nil {
						return err
					}
				}
			}
		}
		_, err := tx.ExecContext(ctx,
			`INSERT INTO meta (key, value) VALUES ('public_form', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, want)
		return err
	})
}

// fillPublic writes the public records of every case recorded before the board existed,
// posted at now: when the board first shows them.
func (s *Store) fillPublic(ctx context.Context, tx *sql.Tx, now time.Time) error {
	cases, err := casesIn(ctx, tx)
	if err != nil {
		return err
	}
	for i := range cases {
		if err := s.post(ctx, tx, &cases[i], now, 0); err != nil {
			return err
		}
	}
	return nil
}

// casesIn reads every case as tx sees it.
func casesIn(ctx context.Context, tx *sql.Tx) ([]docket.Case, error) {
	return scanCases(tx.QueryContext(ctx, `SELECT doc FROM cases`))
}
