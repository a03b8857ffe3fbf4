package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"ethicsbot/docket"
)

// attentionMigration ends the name of the migration that made case_attention, and filled
// it from the open cases' records in its own transaction.
const attentionMigration = "_case_attention.sql"

// attentionRows are the rows of case_attention of c, whose schedule is sched: the span of
// each line of what needs attention on it (docket.Engine.Attention), as stored instants
// (empty for an open end); none for a closed case, which the desk does not list.
func (s *Store) attentionRows(c *docket.Case, sched *docket.Schedule) [][2]string {
	if c.Closed() {
		return nil
	}
	spans := s.engine.Attention(c, sched).Spans()
	rows := make([][2]string, len(spans))
	for i, sp := range spans {
		rows[i] = [2]string{stamp(sp.From), stamp(sp.Until)}
	}
	return rows
}

// writeAttention keeps the spans of what needs attention on c with it, in the transaction
// of the event that changed c (see writeDue), so that they never disagree with the record.
func (s *Store) writeAttention(ctx context.Context, tx *sql.Tx, c *docket.Case) error {
	if !s.attend {
		return nil
	}
	if s.engine == nil {
		return errors.New("no deadline engine: what needs attention on the case cannot be derived")
	}
	sched := s.schedule(c)
	return s.writeSpans(ctx, tx, c, &sched)
}

// writeSpans is writeAttention of c whose schedule sched is already derived (writeDue).
func (s *Store) writeSpans(ctx context.Context, tx *sql.Tx, c *docket.Case, sched *docket.Schedule) error {
	if !s.attend {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM case_attention WHERE number = ?`, c.Number); err != nil {
		return err
	}
	for i, r := range s.attentionRows(c, sched) {
		if _, err := tx.ExecContext(ctx, `INSERT INTO case_attention (number, line, since, until) VALUES (?, ?, ?, ?)`,
			c.Number, i, r[0], r[1]); err != nil {
			return err
		}
	}
	return nil
}

// fillAttention fills case_attention from every open case's record, and the starts of
// every case's steps in case_steps, in the migration's transaction.
func (s *Store) fillAttention(ctx context.Context, tx *sql.Tx) error {
	s.attend, s.steps = true, true
	defer func() { s.attend, s.steps = false, false }() // tables says, once the migrations are made
	if err := s.mendIn(ctx, tx, `SELECT number FROM cases WHERE open = 1`,
		s.writeAttention); err != nil {
		return err
	}
	return s.mendIn(ctx, tx, `SELECT DISTINCT number FROM case_steps`, s.writeSteps)
}

// holding is the condition on case_attention's rows a (the table's alias) whose line is
// listed at the stored instant given as ?1.
const holding = `a.since <= ?1 AND (a.until = '' OR a.until > ?1)`

// attentionCount counts the lines listed at ?1 of the open cases, less those of the cases
// numbered in the JSON array ?2, through the index of the lines' spans: no case is read.
const attentionCount = `SELECT
	(SELECT count(*) FROM case_attention a INDEXED BY case_attention_by_since WHERE ` + holding + `) -
	(SELECT count(*) FROM case_attention a WHERE a.number IN (SELECT value FROM json_each(?2)) AND ` + holding + `)`

// attentionCases reads, in the docket's order (the index of the open cases' next steps),
// the open cases with a line listed at ?1, each found by its number in case_attention.
const attentionCases = `SELECT number, doc FROM cases WHERE open = 1 AND EXISTS
	(SELECT 1 FROM case_attention a WHERE a.number = cases.number AND ` + holding + `)
	ORDER BY next, received, number`

// Attention hands each, in the desk's order (that of Docket), the open cases viewer is not
// recused from that something needs attention on at now (docket.Engine.Attention), until
// each returns false, and returns how many lines of what needs attention those cases list
// at now, all of them: what the App Home tab lists, as many as it holds, and counts. It
// reads the cases through the index of the open cases' next steps, keeps those with a line
// listed at now, and counts the lines through the index of their spans, decoding only the
// cases it hands each.
func (s *Store) Attention(ctx context.Context, viewer string, now time.Time,
	each func(*docket.Case) bool) (lines int, err error) {
	if !s.attend || !s.dueFresh { // the spans not stored, or not counted by this engine
		return s.attentionOfAll(ctx, viewer, now, each)
	}
	tx, err := s.r.BeginTx(ctx, nil) // one snapshot for the count, the recusals and the cases
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	at := stamp(now)
	recused, err := recusedIn(ctx, tx, viewer)
	if err != nil {
		return 0, err
	}
	numbers, err := json.Marshal(append([]string{}, slices.Collect(maps.Keys(recused))...))
	if err != nil {
		return 0, err
	}
	// The lines of the cases viewer may see: all those listed now, less the recused cases'.
	if err := tx.QueryRowContext(ctx, attentionCount, at, string(numbers)).Scan(&lines); err != nil {
		return 0, err
	}
	rows, err := tx.QueryContext(ctx, attentionCases, at)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	for rows.Next() {
		var number, doc string
		if err := rows.Scan(&number, &doc); err != nil {
			return 0, err
		}
		if recused[number] {
			continue
		}
		var c docket.Case
		if err := json.Unmarshal([]byte(doc), &c); err != nil {
			return 0, fmt.Errorf("case %s: stored record cannot be read: %w", number, err)
		}
		if !each(&c) {
			return lines, nil
		}
	}
	return lines, rows.Err()
}

// attentionOfAll is Attention on a record without the spans stored, or counted under
// another calendar: every open case's lines counted now.
func (s *Store) attentionOfAll(ctx context.Context, viewer string, now time.Time,
	each func(*docket.Case) bool) (int, error) {
	if s.engine == nil {
		return 0, errors.New("no deadline engine: what needs attention cannot be derived")
	}
	open, err := s.OpenCases(ctx)
	if err != nil {
		return 0, err
	}
	type keyed struct {
		c     *docket.Case
		key   string
		lines int
	}
	var cases []keyed
	lines := 0
	for _, c := range open {
		if _, recused := c.Recused(viewer); recused {
			continue
		}
		sched := s.schedule(c)
		n := 0
		for _, sp := range s.engine.Attention(c, &sched).Spans() {
			if sp.Holds(now) {
				n++
			}
		}
		if n > 0 {
			cases = append(cases, keyed{c, s.nextOf(&sched), n})
			lines += n
		}
	}
	slices.SortStableFunc(cases, func(a, b keyed) int { return strings.Compare(a.key, b.key) })
	for _, k := range cases {
		if !each(k.c) {
			break
		}
	}
	return lines, nil
}

// storedAttention reads case_attention for verify: by case, its rows in order.
func storedAttention(ctx context.Context, q querier) (map[string][][2]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT number, since, until FROM case_attention ORDER BY number, line`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][][2]string{}
	for rows.Next() {
		var number, since, until string
		if err := rows.Scan(&number, &since, &until); err != nil {
			return nil, err
		}
		out[number] = append(out[number], [2]string{since, until})
	}
	return out, rows.Err()
}

// checkAttention is verify's check of what needs attention on c, as case_attention keeps
// it, against its record: "" if they agree.
func (s *Store) checkAttention(c *docket.Case, stored [][2]string) string {
	sched := s.schedule(c)
	want := s.attentionRows(c, &sched)
	if len(want) != len(stored) {
		return fmt.Sprintf("case_attention holds %d lines of what needs attention on it, but its record has %d: "+
			"case_attention was changed outside ethicsbot", len(stored), len(want))
	}
	for i, w := range want {
		if stored[i] != w {
			return fmt.Sprintf("case_attention lists line %d of what needs attention on it from %q until %q, but its "+
				"record from %q until %q: case_attention was changed outside ethicsbot", i, stored[i][0], stored[i][1],
				w[0], w[1])
		}
	}
	return ""
}
