package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"ethicsbot/docket"
)

// What the public board reads to make its front page and feeds from a bounded window of the
// record, and the commission's meetings from the case steps of that window only: the
// record is append-only, so the steps it keeps change only with a case's event, and the
// board keeps them, reading again only those of the cases that changed since.

// PublicCut returns when the nth latest public record that stands and happens by before
// happens; zero if fewer stand. The board lists what happens from there on, and leaves
// the rest to the year's page.
func (s *Store) PublicCut(ctx context.Context, before time.Time, n int) (time.Time, error) {
	var sort string
	err := s.r.QueryRowContext(ctx,
		`SELECT sort FROM public_records WHERE removed = '' AND sort <= ? ORDER BY sort DESC LIMIT 1 OFFSET ?`,
		stamp(before), n-1).Scan(&sort)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, s.wrap(err)
	}
	return unstamp(sort), nil
}

// PublicWithdrawnBetween returns the notices that stand, withdrawn (cancelled or moved),
// of the meetings in [from, to), as Public does: a meeting cancelled stays shown (5 ILCS
// 120/2.02) after the window of the board's front page has passed it.
func (s *Store) PublicWithdrawnBetween(ctx context.Context, from, to time.Time) ([]Posting, error) {
	return s.postings(ctx,
		`SELECT record, posted FROM public_records WHERE removed = '' AND sort >= ? AND sort < ?
		AND json_extract(record, '$.withdrawn') IS NOT NULL ORDER BY sort, case_number, key`, stamp(from), stamp(to))
}

// StepsSince returns the case steps scheduled at meetings (docket.ScheduledSteps) of each
// case changed by an event after event after, by case number (an empty list for a case
// that has none now), every case's when after is 0, and the id of the last event: what
// the board reads to keep the steps it folds the meetings from. One snapshot.
func (s *Store) StepsSince(ctx context.Context, after int64) (map[string][]docket.ScheduledStep, int64, error) {
	tx, err := s.r.BeginTx(ctx, nil)
	if err != nil {
		return nil, 0, s.wrap(err)
	}
	defer tx.Rollback()
	var last sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT max(id) FROM events`).Scan(&last); err != nil {
		return nil, 0, s.wrap(err)
	}
	out := map[string][]docket.ScheduledStep{}
	if last.Int64 == after {
		return out, last.Int64, nil
	}
	// The cases changed, each once: every case when reading from the start.
	var rows *sql.Rows
	if after == 0 {
		rows, err = tx.QueryContext(ctx, `SELECT number FROM cases`)
	} else {
		rows, err = tx.QueryContext(ctx, `SELECT DISTINCT case_number FROM events WHERE id > ?`, after)
	}
	if err != nil {
		return nil, 0, s.wrap(err)
	}
	for rows.Next() {
		var number string
		if err := rows.Scan(&number); err != nil {
			rows.Close()
			return nil, 0, err
		}
		out[number] = nil
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	add := func(st docket.ScheduledStep) {
		if _, ok := out[st.Item.Case]; ok {
			out[st.Item.Case] = append(out[st.Item.Case], st)
		}
	}
	// The steps of a few cases are read case by case; of many, in one pass over all.
	whole := after == 0 || len(out) > wholeSteps
	// A record from before case_steps has them in the cases' own records.
	each, all, one := eachStep, `SELECT step FROM case_steps ORDER BY number, kind`,
		`SELECT step FROM case_steps WHERE number = ? ORDER BY kind`
	if !s.steps {
		each, all, one = eachCaseStep, `SELECT doc FROM cases ORDER BY number`, `SELECT doc FROM cases WHERE number = ?`
	}
	if whole {
		return out, last.Int64, each(ctx, tx, add, all)
	}
	for number := range out {
		if err := each(ctx, tx, add, one, number); err != nil {
			return nil, 0, err
		}
	}
	return out, last.Int64, nil
}

// wholeSteps is how many changed cases StepsSince reads one by one; past it, it reads
// every case's steps in one pass, which costs less.
const wholeSteps = 200

// FoldSteps returns the commission's meetings as Meetings does, folded with steps, given
// by case number and each case's in the order of docket.MeetingKinds, instead of with
// every case's: the meetings recorded (as RecordedMeetings gives them, read by the caller
// with what else it reads), each holding the given steps at its start and place, and the
// given steps no record holds folded into meetings of their own. Given the steps of whole
// days (in the commission's zone), the meetings of those days are those Meetings gives.
// It reads nothing.
func (s *Store) FoldSteps(recorded []docket.CommissionMeeting,
	steps []docket.ScheduledStep) []docket.CommissionMeeting {
	f := s.engine.NewFolding(recorded)
	for _, st := range steps {
		f.AddStep(st)
	}
	return f.Meetings()
}
