package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"ethicsbot/outbox"
)

// The outbox: what ethicsbot is to say, until Slack has it. Its rows are written in the
// transaction of the action that caused them (enqueue), or by the reminder sweep
// (Enqueue), and drained by an outbox.Deliverer.

// enqueuePost puts one post in the outbox, or gives the text to a post planned without one
// (Planned); the connection keeps it prepared between transactions (dsn's statement cache).
const enqueuePost = `INSERT INTO outbox (case_number, series, step, dest, due, text, event_id, actions, thread, edit)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
	ON CONFLICT DO UPDATE SET text = excluded.text, actions = excluded.actions WHERE outbox.text = '' AND outbox.sent = ''`

// enqueue writes posts in the caller's transaction, naming the event that caused them (0:
// none). A post whose key is already there is kept as it is, unless it was never given its
// text (a reminder claimed by an older ethicsbot).
func enqueue(ctx context.Context, tx *sql.Tx, event int64, posts []outbox.Post) error {
	if len(posts) == 0 {
		return nil
	}
	copies, err := mediaCopies(ctx, tx, posts)
	if err != nil {
		return err
	}
	posts = append(posts[:len(posts):len(posts)], copies...)
	var ev any
	if event != 0 {
		ev = event
	}
	for _, p := range posts {
		k := p.Key
		if k.To == (outbox.Dest{}) || k.Series == "" || k.Step == "" {
			return fmt.Errorf("outbox: post %q has no destination, series or step", k)
		}
		if p.Text == "" {
			return fmt.Errorf("outbox: post %q says nothing", k)
		}
		actions, err := writeActions(p.Actions)
		if err != nil {
			return err
		}
		thread := ""
		if p.Thread != (outbox.Key{}) {
			if p.Thread.To != k.To {
				return fmt.Errorf("outbox: post %q belongs to %q, at another destination", k, p.Thread)
			}
			thread = p.Thread.String()
		}
		if _, err := tx.ExecContext(ctx, enqueuePost, k.Case, k.Series, k.Step, k.To.String(), stamp(p.Due), string(p.Text),
			ev, actions, thread, p.Edit); err != nil {
			return err
		}
	}
	return nil
}

// Enqueue adds posts to the outbox, unsent, in one transaction.
func (s *Store) Enqueue(ctx context.Context, posts []outbox.Post) error {
	return s.write(ctx, func(tx *sql.Tx) error { return enqueue(ctx, tx, 0, posts) })
}

// Fold puts digest in the outbox in place of the posts folded into it, in one transaction:
// each folded post is recorded as said (sent at now, by the digest, whose key its
// last_error names), so that it is never said on its own, and the digest is said once. A
// catch-up after downtime says what fell due meanwhile in one message per destination.
func (s *Store) Fold(ctx context.Context, digest outbox.Post, folded []outbox.Post, now time.Time) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		if err := enqueue(ctx, tx, 0, []outbox.Post{digest}); err != nil {
			return err
		}
		stmt, err := tx.PrepareContext(ctx, `INSERT INTO outbox (case_number, series, step, dest, due, text, sent, last_error)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`)
		if err != nil {
			return err
		}
		defer stmt.Close()
		for _, p := range folded {
			k := p.Key
			if k.To != digest.Key.To {
				return fmt.Errorf("outbox: %q is folded into %q, at another destination", k, digest.Key)
			}
			if _, err := stmt.ExecContext(ctx, k.Case, k.Series, k.Step, k.To.String(), stamp(p.Due), string(p.Text), stamp(now),
				"folded into "+digest.Key.String()); err != nil {
				return err
			}
		}
		return nil
	})
}

// Pending returns up to limit posts due at now and not yet sent, oldest first, in the order
// they were written within an instant, leaving out those to the destinations in skip (a
// drain skips a destination that failed, so that a destination that keeps failing cannot
// hold back the others however many posts wait for it).
func (s *Store) Pending(ctx context.Context, now time.Time, skip []outbox.Dest, limit int) ([]outbox.Row, error) {
	q := outboxColumns + ` WHERE sent = '' AND text != '' AND due <= ?`
	args := []any{stamp(now)}
	if len(skip) > 0 {
		q += ` AND dest NOT IN (?` + strings.Repeat(`, ?`, len(skip)-1) + `)`
		for _, d := range skip {
			args = append(args, d.String())
		}
	}
	rows, err := s.r.QueryContext(ctx, q+` ORDER BY due, rowid LIMIT ?`, append(args, limit)...)
	if err != nil {
		return nil, err
	}
	return scanOutboxRows(rows)
}

// Claim takes a post for sending. held is true if the caller now holds it, false if it was
// already sent. A post claimed earlier but never marked sent (a crash between claim and
// send, or a failed attempt) is claimed again, and prior is the first claim's time, so the
// sender can look for a message it may already have posted since then.
func (s *Store) Claim(ctx context.Context, k outbox.Key, now time.Time) (prior time.Time, held bool, err error) {
	claims, err := s.Settle(ctx, nil, []outbox.Key{k}, now)
	if err != nil {
		return time.Time{}, false, err
	}
	return claims[0].Prior, claims[0].Held, nil
}

// MarkSent records that Slack accepted the post, with its channel and message ts. After
// this the post is never claimed again.
func (s *Store) MarkSent(ctx context.Context, k outbox.Key, channel, ts string, now time.Time) error {
	_, err := s.Settle(ctx, []outbox.Settled{{Key: k, How: outbox.Sent, Channel: channel, TS: ts}}, nil, now)
	return err
}

// Settle records what a drain did with the posts it claimed (done, in order: sent, moved,
// released), then claims the posts claim for sending, all in one transaction: one durable
// commit for a batch of posts, however many it holds, so that delivery takes the disk once
// a batch and not twice a post. It returns each claim, in the order of claim.
func (s *Store) Settle(ctx context.Context, done []outbox.Settled, claim []outbox.Key,
	now time.Time) ([]outbox.Claim, error) {
	out := make([]outbox.Claim, len(claim))
	err := s.write(ctx, func(tx *sql.Tx) error {
		for _, d := range done {
			if err := settle(ctx, tx, d, now); err != nil {
				return err
			}
		}
		if len(claim) == 0 {
			return nil
		}
		for i, k := range claim {
			var claimed string
			err := tx.QueryRowContext(ctx, claimPost, stamp(now), k.Case, k.Series, k.Step, k.To.String()).Scan(&claimed)
			if errors.Is(err, sql.ErrNoRows) {
				continue // sent already, or never queued
			}
			if err != nil {
				return err
			}
			out[i] = outbox.Claim{Prior: unstamp(claimed), Held: true}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// claimPost claims one post for sending and returns when it was first claimed, empty if now
// is the first time. claimed keeps the first claim: a message sent then, whose answer was
// lost, is looked for from that time however many attempts came after. The connection
// keeps it prepared between drains (dsn's statement cache).
const claimPost = `UPDATE outbox SET claimed = CASE WHEN claimed = '' THEN ? ELSE claimed END, attempts = attempts + 1
	WHERE case_number = ? AND series = ? AND step = ? AND dest = ? AND sent = ''
	RETURNING CASE WHEN attempts = 1 THEN '' ELSE claimed END`

// settle records one thing a drain did with a post, in the drain's transaction.
func settle(ctx context.Context, tx *sql.Tx, d outbox.Settled, now time.Time) error {
	k := d.Key
	switch d.How {
	case outbox.Sent:
		res, err := tx.ExecContext(ctx, `UPDATE outbox SET sent = ?, channel = ?, ts = ?
			WHERE case_number = ? AND series = ? AND step = ? AND dest = ? AND sent = ''`,
			stamp(now), d.Channel, d.TS, k.Case, k.Series, k.Step, k.To.String())
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return fmt.Errorf("outbox: %s is not claimed, or was already sent", k)
		}
		return nil
	case outbox.Moved:
		a, err := writeActions(d.Actions)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx,
			`UPDATE outbox SET channel = ?, ts = ?, text = ?, actions = ?, sent = CASE WHEN sent = '' THEN ? ELSE sent END
			WHERE case_number = ? AND series = ? AND step = ? AND dest = ?`,
			d.Channel, d.TS, string(d.Text), a, stamp(now), k.Case, k.Series, k.Step, k.To.String())
		return err
	case outbox.Released:
		// Claimed by this drain and never tried: nothing can have gone out under this
		// claim, so the post is as it was before it, and no look-back is owed for it.
		_, err := tx.ExecContext(ctx,
			`UPDATE outbox SET claimed = CASE WHEN ? THEN '' ELSE claimed END, attempts = attempts - 1
			WHERE case_number = ? AND series = ? AND step = ? AND dest = ? AND sent = '' AND attempts > 0`,
			d.First, k.Case, k.Series, k.Step, k.To.String())
		return err
	}
	return fmt.Errorf("outbox: %s: no such settlement %d", k, d.How)
}

// PostedAt returns where the post k stands in Slack (its channel and ts), its text and
// actions, and whether it was sent; all zero if there is no such post.
func (s *Store) PostedAt(ctx context.Context,
	k outbox.Key) (channel, ts string, text outbox.Markup, actions []outbox.Action, sent bool, err error) {
	var t, a, at string
	err = s.r.QueryRowContext(ctx,
		`SELECT channel, ts, text, actions, sent FROM outbox WHERE case_number = ? AND series = ? AND step = ? AND dest = ?`,
		k.Case, k.Series, k.Step, k.To.String()).Scan(&channel, &ts, &t, &a, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", "", nil, false, nil
	}
	return channel, ts, outbox.Markup(t), readActions(a), at != "" && ts != "", err
}

// Repoint records that the post k now stands at channel and ts, saying text with actions:
// posted again in place of a message Slack no longer has, or given a new text. It is
// marked sent, so that it is never posted once more.
func (s *Store) Repoint(ctx context.Context, k outbox.Key, channel, ts string, text outbox.Markup,
	actions []outbox.Action, now time.Time) error {
	_, err := s.Settle(ctx,
		[]outbox.Settled{{Key: k, How: outbox.Moved, Channel: channel, TS: ts, Text: text, Actions: actions}}, nil, now)
	return err
}

// latestEditQuery reads a card's latest update. thread != ” lets SQLite use the partial
// index outbox_thread: a bound thread = ? alone does not tell it the value is not ”.
const latestEditQuery = `SELECT text, actions FROM outbox WHERE thread = ? AND thread != '' AND edit = 1 ` +
	`ORDER BY rowid DESC LIMIT 1`

// stuckWhere selects the posts whose delivery is failing, through the index
// outbox_failing (migration 018).
const stuckWhere = ` WHERE sent = '' AND text != '' AND failing != '' ORDER BY due, rowid LIMIT 500`

// plannedQuery reads the keys of the posts due since a time, through outbox_due.
const plannedQuery = `SELECT case_number, series, step, dest FROM outbox WHERE due >= ? AND text != ''`

// LatestEdit returns the text and actions of the newest update of the post k, sent or
// not; "" if there is none.
func (s *Store) LatestEdit(ctx context.Context, k outbox.Key) (outbox.Markup, []outbox.Action, error) {
	var text, actions string
	err := s.r.QueryRowContext(ctx, latestEditQuery, k.String()).Scan(&text, &actions)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil, nil
	}
	return outbox.Markup(text), readActions(actions), err
}

// writeActions is how a post's actions are stored: JSON, "" for none.
func writeActions(actions []outbox.Action) (string, error) {
	if len(actions) == 0 {
		return "", nil
	}
	b, err := json.Marshal(actions)
	return string(b), err
}

// readActions reads a post's actions as writeActions stored them. Buttons are a
// convenience: a post whose actions cannot be read is still said, as its text alone.
func readActions(s string) []outbox.Action {
	var out []outbox.Action
	if s != "" {
		if json.Unmarshal([]byte(s), &out) != nil {
			return nil
		}
	}
	return out
}

// CardThreads returns the ts of every case's card that Slack took at to: the threads in
// which a restore looks for what Slack shows was said (bot.Sender.Said).
func (s *Store) CardThreads(ctx context.Context, to outbox.Dest) ([]string, error) {
	return column(ctx, s.r,
		`SELECT ts FROM outbox WHERE series = ? AND step = ? AND dest = ? AND ts != '' ORDER BY rowid`,
		outbox.CardSeries, outbox.CardKey("", to).Step, to.String())
}

// MarkFailed records why a delivery attempt failed, or why the post was held back, and
// since when it has been failing; the post stays unsent.
func (s *Store) MarkFailed(ctx context.Context, k outbox.Key, reason string, now time.Time) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx,
			`UPDATE outbox SET last_error = ?, failing = CASE WHEN failing = '' THEN ? ELSE failing END
			WHERE case_number = ? AND series = ? AND step = ? AND dest = ? AND sent = ''`,
			reason, stamp(now), k.Case, k.Series, k.Step, k.To.String())
		return err
	})
}

// Undelivered counts the posts due at now and not yet sent, and gives when the oldest of
// them fell due (zero if none): for /healthz.
func (s *Store) Undelivered(ctx context.Context, now time.Time) (int, time.Time, error) {
	var n int
	var oldest sql.NullString
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*), MIN(due) FROM outbox WHERE sent = '' AND text != '' AND due <= ?`,
		stamp(now)).Scan(&n, &oldest)
	return n, unstamp(oldest.String), err
}

// Stuck returns the posts not yet sent whose delivery has failed or been held back by a
// failure, oldest first (at most 500): the case card and the App Home tab mark them
// undelivered until they go.
func (s *Store) Stuck(ctx context.Context) ([]outbox.Row, error) {
	rows, err := s.r.QueryContext(ctx,
		outboxColumns+stuckWhere)
	if err != nil {
		return nil, err
	}
	return scanOutboxRows(rows)
}

// Planned calls fn with the key of each post due since since that is in the outbox, sent or
// not: the reminder sweep skips them without a write. The keys are handed over one at a
// time, for the sweep to keep as it keeps them: after a catch-up the outbox holds tens of
// thousands due in the last week, which a map of whole keys would hold twice over.
func (s *Store) Planned(ctx context.Context, since time.Time, fn func(outbox.Key)) error {
	rows, err := s.r.QueryContext(ctx, plannedQuery, stamp(since))
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var k outbox.Key
		var dest string
		if err := rows.Scan(&k.Case, &k.Series, &k.Step, &dest); err != nil {
			return err
		}
		if k.To, err = outbox.ParseDest(dest); err != nil {
			return err
		}
		fn(k)
	}
	return rows.Err()
}

// Outbox returns every post in the outbox, sent or not, in the order it fell due: for
// tests, audits and the console.
func (s *Store) Outbox(ctx context.Context) ([]outbox.Row, error) {
	rows, err := s.r.QueryContext(ctx, outboxColumns+` ORDER BY due, rowid`)
	if err != nil {
		return nil, err
	}
	return scanOutboxRows(rows)
}

// EventPosts returns the posts event caused, in order.
func (s *Store) EventPosts(ctx context.Context, event int64) ([]outbox.Row, error) {
	rows, err := s.r.QueryContext(ctx, outboxColumns+` WHERE event_id = ? ORDER BY rowid`, event)
	if err != nil {
		return nil, err
	}
	return scanOutboxRows(rows)
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

const outboxColumns = `SELECT case_number, series, step, dest, due, text, claimed, sent, channel, ts, attempts, last_error, failing, actions, thread, edit FROM outbox`

func scanOutboxRows(rows *sql.Rows) ([]outbox.Row, error) {
	defer rows.Close()
	var out []outbox.Row
	for rows.Next() {
		var r outbox.Row
		var dest, due, text, claimed, sent, failing, actions, thread string
		if err := rows.Scan(&r.Key.Case, &r.Key.Series, &r.Key.Step, &dest, &due, &text, &claimed, &sent, &r.Channel, &r.TS,
			&r.Attempts, &r.LastError, &failing, &actions, &thread, &r.Edit); err != nil {
			return nil, err
		}
		r.Actions = readActions(actions) // as text alone if unreadable: the text tells how to type the step
		var err error
		if r.Key.To, err = outbox.ParseDest(dest); err != nil {
			return nil, err
		}
		if thread != "" {
			if r.Thread, err = outbox.ParseKey(thread); err != nil {
				return nil, err
			}
		}
		r.Text, r.Due, r.Claimed, r.Sent, r.Failing = outbox.Markup(text), unstamp(due), unstamp(claimed), unstamp(sent),
			unstamp(failing)
		out = append(out, r)
	}
	return out, rows.Err()
}

// stampLayout is RFC 3339 in UTC with a fixed nine-digit fraction, so that stored instants
// sort as text in time order (with RFC3339Nano, "…00.5Z" sorts before "…00Z").
const stampLayout = "2006-01-02T15:04:05.000000000Z07:00"

// stamp and unstamp store instants as RFC 3339 UTC text, "" for none.
func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(stampLayout)
}

func unstamp(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}
