package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// ReminderKey names one reminder: a step of a series (a deadline, a meeting, the digest)
// of one case, at one destination. Case is "" for a message about no one case.
type ReminderKey struct {
	Case       string
	DeadlineID string
	Step       string
}

// OutboxRow is a reminder's delivery record.
type OutboxRow struct {
	ReminderKey
	Due       time.Time
	Claimed   time.Time // zero: never claimed
	Sent      time.Time // zero: not yet delivered
	Channel   string
	TS        string // Slack's message ts, once sent
	Attempts  int
	LastError string
	Text      string // for a queued post, what it says
}

// Claim takes a reminder for sending. held is true if the caller now holds it, false if it
// was already sent. A reminder claimed earlier but never marked sent (a crash between claim
// and send, or a failed attempt) is claimed again, and prior is the first claim's time, so
// the sender can look for a message it may already have posted since then.
func (s *Store) Claim(ctx context.Context, caseNumber, series, step string, due, now time.Time) (prior time.Time, held bool, err error) {
	k := ReminderKey{caseNumber, series, step}
	err = s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO outbox (case_number, deadline_id, step, due) VALUES (?, ?, ?, ?)
			ON CONFLICT DO NOTHING`, k.Case, k.DeadlineID, k.Step, stamp(due)); err != nil {
			return err
		}
		row, err := readOutbox(ctx, tx, k)
		if err != nil {
			return err
		}
		if !row.Sent.IsZero() {
			return nil
		}
		prior, held = row.Claimed, true
		// claimed keeps the first claim: a message sent then, whose answer was lost, is
		// looked for from that time however many attempts came after.
		_, err = tx.ExecContext(ctx, `UPDATE outbox SET claimed = CASE WHEN claimed = '' THEN ? ELSE claimed END, attempts = attempts + 1
			WHERE case_number = ? AND deadline_id = ? AND step = ?`, stamp(now), k.Case, k.DeadlineID, k.Step)
		return err
	})
	return prior, held, err
}

// MarkSent records that Slack accepted the reminder, with its channel and message ts.
// After this the reminder is never claimed again.
func (s *Store) MarkSent(ctx context.Context, caseNumber, series, step, channel, ts string, now time.Time) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE outbox SET sent = ?, channel = ?, ts = ?, last_error = ''
			WHERE case_number = ? AND deadline_id = ? AND step = ? AND sent = ''`, stamp(now), channel, ts, caseNumber, series, step)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return errors.New("outbox: the reminder is not claimed, or was already sent")
		}
		return nil
	})
}

// MarkFailed records why a delivery attempt failed; the reminder stays unsent.
func (s *Store) MarkFailed(ctx context.Context, caseNumber, series, step, reason string) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE outbox SET last_error = ? WHERE case_number = ? AND deadline_id = ? AND step = ? AND sent = ''`,
			reason, caseNumber, series, step)
		return err
	})
}

// SentSince returns the keys, joined by "|", of the reminders due since since that have
// been sent: a sweep skips them without a write.
func (s *Store) SentSince(ctx context.Context, since time.Time) (map[string]bool, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT case_number, deadline_id, step FROM outbox WHERE sent != '' AND due >= ?`, stamp(since))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make(map[string]bool)
	for rows.Next() {
		var c, d, st string
		if err := rows.Scan(&c, &d, &st); err != nil {
			return nil, err
		}
		out[c+"|"+d+"|"+st] = true
	}
	return out, rows.Err()
}

// LastSweep returns when the reminder sweep last finished; zero if never.
func (s *Store) LastSweep(ctx context.Context) (time.Time, error) {
	var v string
	err := s.r.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'last_sweep'`).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, nil
	}
	return unstamp(v), err
}

// SetLastSweep records when the reminder sweep finished.
func (s *Store) SetLastSweep(ctx context.Context, at time.Time) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES ('last_sweep', ?)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value`, stamp(at))
		return err
	})
}

// PostSeries is the outbox series of queued posts.
const PostSeries = "post"

// QueuePost puts a message that must not be lost in the outbox, unsent, under step (unique
// for the message and its destination).
func (s *Store) QueuePost(ctx context.Context, caseNumber, step, text string, now time.Time) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO outbox (case_number, deadline_id, step, due, text) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT DO NOTHING`, caseNumber, PostSeries, step, stamp(now), text)
		return err
	})
}

// UnsentPosts returns the queued posts not yet delivered and not claimed since before,
// oldest first: the ones a sweep should try again. The element type is spelled out so
// that it is reminders.Post without store importing reminders.
func (s *Store) UnsentPosts(ctx context.Context, before time.Time) ([]struct{ Case, Step, Text string }, error) {
	rows, err := s.r.QueryContext(ctx, outboxColumns+` WHERE sent = '' AND deadline_id = ? AND claimed < ? ORDER BY due`, PostSeries, stamp(before))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []struct{ Case, Step, Text string }
	for rows.Next() {
		r, err := scanOutbox(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, struct{ Case, Step, Text string }{r.Case, r.Step, r.Text})
	}
	return out, rows.Err()
}

// Unsent returns the reminders not yet delivered, oldest due first.
func (s *Store) Unsent(ctx context.Context) ([]OutboxRow, error) {
	rows, err := s.r.QueryContext(ctx, outboxColumns+` WHERE sent = '' ORDER BY due, case_number, deadline_id, step`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []OutboxRow
	for rows.Next() {
		r, err := scanOutbox(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

const outboxColumns = `SELECT case_number, deadline_id, step, due, claimed, sent, channel, ts, attempts, last_error, text FROM outbox`

func readOutbox(ctx context.Context, q querier, k ReminderKey) (OutboxRow, error) {
	rows, err := q.QueryContext(ctx, outboxColumns+` WHERE case_number = ? AND deadline_id = ? AND step = ?`, k.Case, k.DeadlineID, k.Step)
	if err != nil {
		return OutboxRow{}, err
	}
	defer rows.Close()
	if !rows.Next() {
		return OutboxRow{}, sql.ErrNoRows
	}
	return scanOutbox(rows)
}

func scanOutbox(rows *sql.Rows) (OutboxRow, error) {
	var r OutboxRow
	var due, claimed, sent string
	if err := rows.Scan(&r.Case, &r.DeadlineID, &r.Step, &due, &claimed, &sent, &r.Channel, &r.TS, &r.Attempts, &r.LastError, &r.Text); err != nil {
		return r, err
	}
	r.Due, r.Claimed, r.Sent = unstamp(due), unstamp(claimed), unstamp(sent)
	return r, nil
}

// stamp and unstamp store instants as RFC 3339 UTC text, "" for none.
func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

func unstamp(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}
