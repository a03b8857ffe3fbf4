package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"ethicsbot/docket"
)

// stepsMigration ends the name of the migration that made case_steps, and filled it from
// the cases' records in its own transaction.
const stepsMigration = "_case_steps.sql"

// storedStep is a row of case_steps: a docket.ScheduledStep as JSON, with the notice's
// posting, which docket.MeetingItem does not write.
type storedStep struct {
	Item         docket.MeetingItem `json:"item"`
	NoticePosted time.Time          `json:"notice_posted,omitzero"`
	Start        time.Time          `json:"start"`
	Place        string             `json:"place"`
}

// stepRow is a row of case_steps: the step as JSON, and its meeting's start as stored
// instants are written ("" in a record from before 019, which did not keep it).
type stepRow struct {
	step, start string
}

// stepRows are c's scheduled steps as case_steps keeps them: by kind, the JSON of each.
func stepRows(c *docket.Case) (map[int]stepRow, error) {
	out := map[int]stepRow{}
	for _, st := range docket.ScheduledSteps(c) {
		b, err := json.Marshal(storedStep{Item: st.Item, NoticePosted: st.Item.NoticePosted, Start: st.Start,
			Place: st.Place})
		if err != nil {
			return nil, err
		}
		out[slices.Index(docket.MeetingKinds, st.Item.Step)] = stepRow{string(b), stamp(st.Start)}
	}
	return out, nil
}

// writeSteps keeps c's scheduled steps with it, in the transaction of the event that
// changed c.
func (s *Store) writeSteps(ctx context.Context, tx *sql.Tx, c *docket.Case) error {
	if !s.steps {
		return nil
	}
	rows, err := stepRows(c)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM case_steps WHERE number = ?`, c.Number); err != nil {
		return err
	}
	for kind, step := range rows {
		var err error
		if s.attend { // the steps' starts are kept since case_attention (019)
			_, err = tx.ExecContext(ctx, `INSERT INTO case_steps (number, kind, step, start) VALUES (?, ?, ?, ?)`,
				c.Number, kind, step.step, step.start)
		} else {
			_, err = tx.ExecContext(ctx, `INSERT INTO case_steps (number, kind, step) VALUES (?, ?, ?)`, c.Number, kind,
				step.step)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// fillSteps fills case_steps from every case's record, in the migration's transaction.
func (s *Store) fillSteps(ctx context.Context, tx *sql.Tx) error {
	s.steps = true
	defer func() { s.steps = false }() // tables says, once the migrations are made
	cases, err := casesIn(ctx, tx)
	if err != nil {
		return err
	}
	for i := range cases {
		if err := s.writeSteps(ctx, tx, &cases[i]); err != nil {
			return err
		}
	}
	return nil
}

// foldSteps folds the case steps of case_steps into f, as Folding.Add would fold every
// case's: by case number, each case's in the order of docket.MeetingKinds, each step given
// to add; with from, only those whose meeting starts then or later and before until
// (stored instants), read through the index of the steps' starts (a record with their
// starts, 019).
func foldSteps(ctx context.Context, q querier, add func(docket.ScheduledStep), from, until string) error {
	query, args := `SELECT step FROM case_steps ORDER BY number, kind`, []any(nil)
	if from != "" {
		query, args = `SELECT step FROM case_steps INDEXED BY case_steps_by_start WHERE start >= ? AND start < ?
			ORDER BY number, kind`,
			[]any{from, until}
	}
	return eachStep(ctx, q, add, query, args...)
}

// eachStep hands add each case step of case_steps whose step column query selects.
func eachStep(ctx context.Context, q querier, add func(docket.ScheduledStep), query string, args ...any) error {
	rows, err := q.QueryContext(ctx, query, args...)
	return eachDoc(rows, err, "case step", func(st *storedStep) {
		st.Item.NoticePosted = st.NoticePosted
		add(docket.ScheduledStep{Item: st.Item, Start: st.Start, Place: st.Place})
	})
}

// eachCaseStep hands add the steps scheduled at meetings (docket.ScheduledSteps) of each
// case whose record query selects, one case decoded at a time: the steps of a record from
// before case_steps.
func eachCaseStep(ctx context.Context, q querier, add func(docket.ScheduledStep), query string, args ...any) error {
	rows, err := q.QueryContext(ctx, query, args...)
	return eachCaseDoc(rows, err, func(c *docket.Case) {
		for _, st := range docket.ScheduledSteps(c) {
			add(st)
		}
	})
}

// storedSteps reads case_steps for verify: by case, by kind.
func (s *Store) storedSteps(ctx context.Context, q querier) (map[string]map[int]stepRow, error) {
	rows, err := q.QueryContext(ctx, `SELECT number, kind, step, `+s.ifAttend("start", "''")+` FROM case_steps`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]map[int]stepRow{}
	for rows.Next() {
		var number string
		var kind int
		var r stepRow
		if err := rows.Scan(&number, &kind, &r.step, &r.start); err != nil {
			return nil, err
		}
		if out[number] == nil {
			out[number] = map[int]stepRow{}
		}
		out[number][kind] = r
	}
	return out, rows.Err()
}

// ifAttend is then on a schema with case_attention and the steps' starts (019), otherwise.
func (s *Store) ifAttend(then, otherwise string) string {
	if s.attend {
		return then
	}
	return otherwise
}

// checkSteps is verify's check of a case's scheduled steps, as case_steps keeps them,
// against its record: "" if they agree.
func (s *Store) checkSteps(c *docket.Case, stored map[int]stepRow) string {
	want, err := stepRows(c)
	if err != nil {
		return "its scheduled steps cannot be written: " + err.Error()
	}
	if len(want) != len(stored) {
		return fmt.Sprintf("case_steps holds %d of its steps scheduled at meetings, but its record has %d: "+
			"case_steps was changed outside ethicsbot", len(stored), len(want))
	}
	for kind, w := range want {
		if !s.attend {
			w.start = ""
		}
		if stored[kind] != w {
			return fmt.Sprintf("its step %s as case_steps keeps it differs from its record: case_steps was changed "+
				"outside ethicsbot", docket.MeetingKinds[kind])
		}
	}
	return ""
}
