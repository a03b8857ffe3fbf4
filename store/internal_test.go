package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"ethicsbot/docket"
)

// OpenAtVersion opens path with its schema brought only to version, to test migrating
// from earlier schemas.
func OpenAtVersion(path string, engine *docket.Engine, version int) (*Store, error) {
	return open(path, engine, version, Options{})
}

// BulkLoad fills s with cases of eventsPerCase events each, through the same docket
// actions and record path as the bot, but committing many events per transaction so a
// benchmark database of a million events builds in a minute rather than hours of fsyncs.
func BulkLoad(s *Store, cases, eventsPerCase int, start time.Time) error {
	ctx := context.Background()
	const perTx = 5000
	var tx *sql.Tx
	pending := 0
	flush := func() error {
		if tx == nil {
			return nil
		}
		err := tx.Commit()
		tx, pending = nil, 0
		return err
	}
	for i := 0; i < cases; i++ {
		at := start.Add(time.Duration(i) * time.Minute)
		meeting := at.Add(400 * 24 * time.Hour)
		for s.engine.Cal.StatutoryHoliday(s.engine.Cal.DateOf(meeting)) != "" {
			meeting = meeting.Add(24 * time.Hour) // no meeting on a legal holiday (5 ILCS 120/2.01)
		}
		c := docket.Case{}
		actions := []docket.Action{docket.File{
			Complainant: docket.Person{Name: fmt.Sprintf("Complainant %d", i)},
			Respondent:  docket.Person{Name: fmt.Sprintf("Respondent %d", i)},
			Sections:    []string{"103.10"}, Received: at, Summary: "Benchmark complaint.",
		},
			docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: meeting, Place: "City Hall"}}
		for len(actions) < eventsPerCase {
			actions = append(actions, docket.PostNotice{Meeting: docket.SufficiencyMeeting})
		}
		for j, a := range actions {
			if tx == nil {
				var err error
				if tx, err = s.w.BeginTx(ctx, nil); err != nil {
					return err
				}
			}
			when := at.Add(time.Duration(j) * time.Second)
			next, _, err := s.engine.Apply(c, a, when)
			if err != nil {
				return fmt.Errorf("case %d action %d: %w", i, j, err)
			}
			if j == 0 {
				next.Number = fmt.Sprintf("%04d-%03d", at.Year(), i+1)
			}
			step := docket.Step{By: "U_CLERK", At: when, Action: a, Before: &c, After: &next}
			if err := s.record(ctx, tx, &step, j, "", nil); err != nil {
				return err
			}
			c = next
			if pending++; pending == perTx {
				if err := flush(); err != nil {
					return err
				}
			}
		}
	}
	return flush()
}

// LimitPages caps the database at n pages on the write connection (0 lifts the cap), the
// way a full disk stops SQLite from growing the file.
func LimitPages(s *Store, n int) error {
	if n == 0 {
		n = 1 << 30
	}
	_, err := s.w.Exec(fmt.Sprintf("PRAGMA max_page_count = %d", n))
	return err
}

// PageCount is the database's size in pages.
func PageCount(s *Store) (n int, err error) {
	err = s.w.QueryRow("PRAGMA page_count").Scan(&n)
	return n, err
}

// CheckFile runs the check every write makes first: that the file at the store's path is
// still the one it opened.
func CheckFile(s *Store) error {
	if e := s.sameFile(); e != nil {
		return e
	}
	return nil
}

// QueryPlan is SQLite's plan of query with args, one line per step, as EXPLAIN QUERY PLAN
// gives it.
func QueryPlan(s *Store, query string, args ...any) ([]string, error) {
	rows, err := s.r.QueryContext(context.Background(), `EXPLAIN QUERY PLAN `+query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			return nil, err
		}
		plan = append(plan, detail)
	}
	return plan, rows.Err()
}

// The outbox's queries made at each request or each sweep, for their plans.
const (
	StuckQuery      = outboxColumns + stuckWhere
	LatestEditQuery = latestEditQuery
	PlannedQuery    = plannedQuery
)

// DueQueryPlan is SQLite's plan of the query of the open cases due (dueQuery), and
// whether s takes the stored instants as its engine's.
func DueQueryPlan(s *Store) (plan []string, fresh bool, err error) {
	plan, err = QueryPlan(s, s.dueQuery(`SELECT number, events`), stamp(time.Now()))
	return plan, s.dueFresh, err
}

// SetDueSizes makes DueCases give page cases at a time and keep max of them cached, until
// the returned function puts the sizes back.
func SetDueSizes(page, max int) (restore func()) {
	p, m := duePage, dueCacheMax
	duePage, dueCacheMax = page, max
	return func() { duePage, dueCacheMax = p, m }
}

// DueCached is how many cases DueCases keeps decoded.
func DueCached(s *Store) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.dueCache)
}
