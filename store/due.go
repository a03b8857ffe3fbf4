package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"ethicsbot/docket"
)

// schedule is c's schedule as the columns kept with it are derived from it: once per
// case written or checked, each column read from it (dueOf, nextOf, attentionRows).
func (s *Store) schedule(c *docket.Case) docket.Schedule {
	return s.engine.Schedule(&c.Facts, time.Time{})
}

// dueOf is what cases.due holds for c, whose schedule is sched and whose last event was
// at asOf: its next due instant (docket.Engine.NextDue), or "" when nothing about it is
// pending.
func (s *Store) dueOf(c *docket.Case, sched *docket.Schedule, asOf time.Time) string {
	return stamp(s.engine.NextDueOf(c, sched, asOf))
}

// writeDue keeps c's next due instant with it, in the transaction of the event, at asOf,
// that changed c, so that the column never disagrees with the record; and its next step,
// who it is hidden from, and what needs attention on it, which the calendar decides too.
func (s *Store) writeDue(ctx context.Context, tx *sql.Tx, c *docket.Case, asOf time.Time) error {
	if !s.due {
		return nil
	}
	if s.engine == nil {
		return errors.New("no deadline engine: the case's next due instant cannot be derived")
	}
	sched := s.schedule(c)
	var err error
	if s.next {
		_, err = tx.ExecContext(ctx, `UPDATE cases SET due = ?, next = ?, recused = ? WHERE number = ?`,
			s.dueOf(c, &sched, asOf), s.nextOf(&sched), recusedOf(c), c.Number)
	} else {
		_, err = tx.ExecContext(ctx, `UPDATE cases SET due = ? WHERE number = ?`, s.dueOf(c, &sched, asOf), c.Number)
	}
	if err != nil {
		return err
	}
	return s.writeSpans(ctx, tx, c, &sched)
}

// nextOf is what cases.next holds for the case whose schedule is sched: the instant of the
// step the docket lists as its next (docket.Engine.Nearest), '~undated' for a task without
// a time limit, '~~none' when it has no such step; as text, they sort in the docket's order.
func (s *Store) nextOf(sched *docket.Schedule) string {
	_, at, ok := s.engine.Nearest(sched)
	switch {
	case !ok:
		return "~~none"
	case at.Equal(docket.Undated):
		return "~undated"
	}
	return stamp(at)
}

// recusedOf is what cases.recused holds for c: the Slack ids of those c is hidden from
// (docket.Case.Recused: its parties and the members recused), each between spaces, or ""
// for none.
func recusedOf(c *docket.Case) string {
	var ids []string
	for _, id := range append([]string{c.Complainant.SlackID, c.Respondent.SlackID}, recusalUsers(c)...) {
		if id != "" && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return ""
	}
	return " " + strings.Join(ids, " ") + " "
}

// recusalUsers are the members recused from c.
func recusalUsers(c *docket.Case) []string {
	out := make([]string, 0, len(c.Recusals))
	for _, r := range c.Recusals {
		out = append(out, r.User)
	}
	return out
}

// ifNext is then on a schema with cases.next (016), otherwise.
func (s *Store) ifNext(then, otherwise string) string {
	if s.next {
		return then
	}
	return otherwise
}

// rewriteDue is writeDue for a case read back from the record: as of its last event.
func (s *Store) rewriteDue(ctx context.Context, tx *sql.Tx, c *docket.Case) error {
	var at string
	if err := tx.QueryRowContext(ctx, `SELECT at FROM events WHERE case_number = ? ORDER BY seq DESC LIMIT 1`,
		c.Number).Scan(&at); err != nil {
		return fmt.Errorf("case %s: its last event: %w", c.Number, err)
	}
	return s.writeDue(ctx, tx, c, unstamp(at))
}

// dueBasisKey is the meta row that holds the basis (docket.Engine.DueBasis) the cases'
// next due instants were derived under.
const dueBasisKey = "due_basis"

// dueBasis reads the basis the stored instants were derived under: "" if none is recorded.
func dueBasis(ctx context.Context, q querier) (string, error) {
	var basis string
	err := q.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, dueBasisKey).Scan(&basis)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return basis, err
}

// deriveDue derives the next due instant of every open case that has none (the cases of a
// record migrated to 015, whose instants SQL could not count) and, when the calendar or
// the docket's rules changed since the instants were written (their basis differs from
// this engine's), of every open case, in one transaction with the new basis: a change of
// holidays moves deadlines, and an instant counted under the old calendar would hide a
// case from the sweep. Only the bot and `ethicsbot migrate` call it, as they open the
// record for writing.
func (s *Store) deriveDue(ctx context.Context) error {
	if !s.due || s.engine == nil {
		return nil
	}
	basis := s.engine.DueBasis()
	err := s.write(ctx, func(tx *sql.Tx) error {
		have, err := dueBasis(ctx, tx)
		if err != nil {
			return err
		}
		query := `SELECT number FROM cases WHERE due IS NULL` + s.ifNext(` OR next IS NULL OR recused IS NULL`, "")
		if have != basis {
			query = `SELECT number FROM cases WHERE due IS NULL OR open = 1`
			if s.log != nil && have != "" {
				s.log.Info("the calendar or the docket's rules changed: deriving every open case's next due instant again",
					"path", s.path)
			}
		}
		if err := s.mendIn(ctx, tx, query, s.rewriteDue); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES (?, ?)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value`, dueBasisKey, basis)
		return err
	})
	if err == nil {
		s.dueFresh = true
	}
	return err
}

// mend calls fix, in one transaction, with each case query selects: what a migration left
// for the bot to derive from the records when it opens the file.
func (s *Store) mend(ctx context.Context, query string,
	fix func(context.Context, *sql.Tx, *docket.Case) error) error {
	return s.write(ctx, func(tx *sql.Tx) error { return s.mendIn(ctx, tx, query, fix) })
}

// mendIn is mend within tx.
func (s *Store) mendIn(ctx context.Context, tx *sql.Tx, query string,
	fix func(context.Context, *sql.Tx, *docket.Case) error) error {
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
}

// dueStale is what verify says when the stored instants were derived under another
// basis than its engine's: not a fault of the record, and nothing verify may mend.
const dueStale = "the cases' next due instants were derived under another calendar (holidays, closures) or " +
	"another release's docket rules, so they were not compared; the bot derives them again when it next starts " +
	"(or `ethicsbot migrate` does)"

// checkDue is verify's check of a case's next due instant against its record, which the
// events made, the last at asOf: "" if they agree, or if the instants were derived under another basis than
// this engine's (fresh is false), which only the next start can mend: verify never writes.
func (s *Store) checkDue(c *docket.Case, asOf time.Time, due, next, recused sql.NullString, fresh bool) string {
	if !s.due || s.engine == nil || !fresh {
		return ""
	}
	sched := s.schedule(c)
	if want := s.dueOf(c, &sched, asOf); due.Valid && due.String != want { // NULL: not yet derived, read as due now
		return fmt.Sprintf("its next due instant is %q, but its record makes it %q: cases.due was changed outside "+
			"ethicsbot", due.String, want)
	}
	if want := s.nextOf(&sched); s.next && next.Valid && next.String != want {
		return fmt.Sprintf("its next step on the docket falls at %q, but its record makes it %q: cases.next was "+
			"changed outside ethicsbot", next.String, want)
	}
	if want := recusedOf(c); s.next && recused.Valid && recused.String != want {
		return fmt.Sprintf("it is hidden from %q, but its record hides it from %q: cases.recused was changed outside "+
			"ethicsbot", recused.String, want)
	}
	return ""
}

// DueBy returns the numbers of the open cases whose next due instant is at or before
// until, oldest first: the cases a reader looking as far ahead as until must look at. The
// others have nothing due before then. On a record whose instants are not all derived, or
// were derived under another calendar or other rules (read only, before the bot has
// started on it), every open case may be due, and all are returned.
func (s *Store) DueBy(ctx context.Context, until time.Time) ([]string, error) {
	return column(ctx, s.r, s.dueQuery(`SELECT number`), stamp(until))
}

// dueQuery is the query, selecting what, of the open cases due by its one argument.
func (s *Store) dueQuery(what string) string {
	if !s.due || !s.dueFresh { // a record before 015, or instants not counted by this engine
		return what + ` FROM cases WHERE open = 1 AND ? IS NOT NULL ORDER BY received, number`
	}
	// No open case is without its instant here (dueFresh): the range is one search of the
	// index, which an OR with "due IS NULL" would turn into a scan of it.
	return what + ` FROM cases WHERE open = 1 AND due > '' AND due <= ? ORDER BY received, number`
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

// Docket returns the first limit open cases viewer is not recused from, in the docket's
// order (the instant of each one's next step, docket.Engine.Nearest, then oldest first),
// and how many such cases there are: what `/ethics docket` lists. It reads them through
// the index of the open cases' next steps, leaves out those viewer is recused from (not
// counted either) through the index of cases.recused, and decodes only the cases it
// returns.
func (s *Store) Docket(ctx context.Context, viewer string, limit int) (shown []*docket.Case, total int, err error) {
	if !s.next || !s.dueFresh { // the steps not stored, or not counted by this engine
		return s.docketOfAll(ctx, viewer, limit)
	}
	tx, err := s.r.BeginTx(ctx, nil) // one snapshot for the count, the recusals and the page
	if err != nil {
		return nil, 0, err
	}
	defer tx.Rollback()
	recused, err := recusedIn(ctx, tx, viewer)
	if err != nil {
		return nil, 0, err
	}
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM cases WHERE open = 1`).Scan(&total); err != nil {
		return nil, 0, err
	}
	list, err := caseRefs(ctx, tx, limit, recused,
		`SELECT number, events FROM cases WHERE open = 1 ORDER BY next, received, number`)
	if err != nil {
		return nil, 0, err
	}
	shown, err = s.decodeCached(ctx, tx, &s.docketCache, list)
	return shown, total - len(recused), err
}

// recusedIn returns the open cases viewer is recused from, or is a party to, through the
// index of cases.recused: no case is decoded.
func recusedIn(ctx context.Context, tx *sql.Tx, viewer string) (map[string]bool, error) {
	out := map[string]bool{}
	if viewer == "" {
		return out, nil
	}
	numbers, err := column(ctx, tx, `SELECT number FROM cases INDEXED BY cases_open_recused
		WHERE open = 1 AND recused <> '' AND instr(recused, ?) > 0`, " "+viewer+" ")
	for _, n := range numbers {
		out[n] = true
	}
	return out, err
}

// docketOfAll is Docket on a record without the steps stored, or counted under another
// calendar: every open case's next step counted now.
func (s *Store) docketOfAll(ctx context.Context, viewer string, limit int) ([]*docket.Case, int, error) {
	open, err := s.OpenCases(ctx)
	if err != nil {
		return nil, 0, err
	}
	type keyed struct {
		c   *docket.Case
		key string
	}
	var cases []keyed
	for _, c := range open {
		if _, recused := c.Recused(viewer); !recused {
			sched := s.schedule(c)
			cases = append(cases, keyed{c, s.nextOf(&sched)})
		}
	}
	slices.SortStableFunc(cases, func(a, b keyed) int { return strings.Compare(a.key, b.key) })
	shown := make([]*docket.Case, 0, min(limit, len(cases)))
	for _, k := range cases[:min(limit, len(cases))] {
		shown = append(shown, k.c)
	}
	return shown, len(cases), nil
}
