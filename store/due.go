package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"ethicsbot/docket"
)

// dueOf is what cases.due holds for c: its next due instant (docket.Engine.NextDue),
// or "" when nothing about it is pending.
func (s *Store) dueOf(c *docket.Case) string {
	return stamp(s.engine.NextDue(c))
}

// writeDue keeps c's next due instant with it, in the transaction of the event that
// changed c, so that the column never disagrees with the record.
func (s *Store) writeDue(ctx context.Context, tx *sql.Tx, c *docket.Case) error {
	if !s.due {
		return nil
	}
	if s.engine == nil {
		return errors.New("no deadline engine: the case's next due instant cannot be derived")
	}
	_, err := tx.ExecContext(ctx, `UPDATE cases SET due = ? WHERE number = ?`, s.dueOf(c), c.Number)
	return err
}

// deriveDue derives the next due instant of every open case that has none: the cases of
// a record migrated to 015, whose instants SQL could not count.
func (s *Store) deriveDue(ctx context.Context) error {
	if !s.due || s.engine == nil {
		return nil
	}
	return s.mend(ctx, `SELECT number FROM cases WHERE due IS NULL`, s.writeDue)
}

// mend calls fix, in one transaction, with each case query selects: what a migration left
// for the bot to derive from the records when it opens the file.
func (s *Store) mend(ctx context.Context, query string,
	fix func(context.Context, *sql.Tx, *docket.Case) error) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		missing, err := column(ctx, tx, query)
		if err != nil {
			return err
		}
		for _, number := range missing {
			c, _, err := loadCase(ctx, tx, number)
			if err != nil {
				return err
			}
			if err := fix(ctx, tx, &c); err != nil {
				return err
			}
		}
		return nil
	})
}

// checkDue is verify's check of a case's next due instant against its record, which the
// events made: "" if they agree.
func (s *Store) checkDue(c *docket.Case, due sql.NullString) string {
	if !s.due || s.engine == nil || !due.Valid { // NULL: not yet derived, read as due now
		return ""
	}
	if want := s.dueOf(c); due.String != want {
		return fmt.Sprintf("its next due instant is %q, but its record makes it %q: cases.due was changed outside "+
			"ethicsbot, or the calendar's holidays changed since it was written", due.String, want)
	}
	return ""
}

// DueBy returns the numbers of the open cases whose next due instant is at or before
// until, or not yet derived, oldest first: the cases a reader looking as far ahead as
// until must look at. The others have nothing due before then.
func (s *Store) DueBy(ctx context.Context, until time.Time) ([]string, error) {
	q := `SELECT number FROM cases WHERE open = 1 AND (due IS NULL OR (due <> '' AND due <= ?))
		ORDER BY received, number`
	if !s.due { // a record before 015: every open case may be due
		q = `SELECT number FROM cases WHERE open = 1 AND ? IS NOT NULL ORDER BY received, number`
	}
	return column(ctx, s.r, q, stamp(until))
}

// column returns the one text column query selects, row by row.
func column(ctx context.Context, q querier, query string, args ...any) ([]string, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
