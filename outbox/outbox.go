// Package outbox is what ethicsbot says: every message as Markup, with user text escaped,
// under a Key unique for all time and a typed destination; and the Deliverer that sends
// each message exactly once.
//
// A message is said only from the outbox. An action's messages are written to it in the
// transaction that records the action's events, and reminders when the sweep finds them
// due. The Deliverer drains it: it claims a message, sends it tagged with its key, and
// marks it sent. After a crash between sending and marking, it looks for the key in the
// destination's history before it sends again. So nothing is said that is not on record,
// and nothing on record goes unsaid.
package outbox

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Dest is where a message goes: a channel, or a user's direct messages.
type Dest struct {
	Channel string
	User    string
}

// String writes d as the console shows it and the outbox stores it: "#C0123" or "@U0123".
func (d Dest) String() string {
	if d.User != "" {
		return "@" + d.User
	}
	return "#" + strings.TrimPrefix(d.Channel, "#")
}

// ParseDest reads a Dest written by String.
func ParseDest(s string) (Dest, error) {
	switch {
	case len(s) > 1 && s[0] == '@':
		return Dest{User: s[1:]}, nil
	case len(s) > 1 && s[0] == '#':
		return Dest{Channel: s[1:]}, nil
	}
	return Dest{}, fmt.Errorf("outbox: %q is not a destination such as #C0123 or @U0123", s)
}

// Key names one message for all time: a step of a series (a deadline's reminders, an
// event's posts) of one case, at one destination. Case is "" for a message about no one
// case, such as the digest.
type Key struct {
	Case   string
	Series string
	Step   string
	To     Dest
}

// String is the key as it is tagged on the message in Slack, so that it can be found
// again: "2026-001|event|42.1@#C0123".
func (k Key) String() string {
	return k.Case + "|" + k.Series + "|" + k.Step + "@" + k.To.String()
}

// EventSeries is the series of the messages an event causes.
const EventSeries = "event"

// EventKey is the key of the n-th message that event id of case causes at to. An event's
// messages are derived from it once, in its transaction, so a retry never adds one.
func EventKey(caseNumber string, event int64, n int, to Dest) Key {
	return Key{Case: caseNumber, Series: EventSeries, Step: strconv.FormatInt(event, 10) + "." + strconv.Itoa(n), To: to}
}

// Post is one message to say: its key, its destination (in the key), what it says, and
// when it falls due.
type Post struct {
	Key  Key
	Text Markup
	Due  time.Time
}

// Row is a post's delivery record.
type Row struct {
	Post
	Claimed   time.Time // the first claim; zero if never claimed
	Sent      time.Time // zero: not yet delivered
	Channel   string    // where Slack put it
	TS        string    // Slack's message ts, once sent
	Attempts  int
	LastError string    // the last failure; kept once sent, for the record
	Failing   time.Time // since when delivery has failed or been held back; zero if never
}

// Store keeps the outbox durably; store.Store is one.
type Store interface {
	// Enqueue adds posts, unsent; a post whose key is already there is left as it is.
	Enqueue(ctx context.Context, posts []Post) error
	// Pending returns up to limit posts due at now and not yet sent, oldest first,
	// leaving out those to the destinations in skip.
	Pending(ctx context.Context, now time.Time, skip []Dest, limit int) ([]Row, error)
	// Claim takes a post for sending: held is false if it was already sent. prior is the
	// first claim's time if it was claimed before and never marked sent.
	Claim(ctx context.Context, k Key, now time.Time) (prior time.Time, held bool, err error)
	// MarkSent records that Slack accepted the post; it is never claimed again.
	MarkSent(ctx context.Context, k Key, channel, ts string, now time.Time) error
	// MarkFailed records why an attempt failed, or why the post was held back, and since
	// when (the first such time is kept); the post stays unsent.
	MarkFailed(ctx context.Context, k Key, reason string, now time.Time) error
}

// Sender says a message; bot's Slack sender and the console's are two.
type Sender interface {
	// Send posts text to to, tagged with key so it can be found again, and returns the
	// channel and the message's ts.
	Send(ctx context.Context, to Dest, text Markup, key Key) (channel, ts string, err error)
	// Find looks for a message tagged key posted to to since since: after a crash between
	// a claim and its mark, it tells whether the message went out.
	Find(ctx context.Context, to Dest, key Key, since time.Time) (channel, ts string, found bool, err error)
}

// Deliverer drains the outbox: every post due is sent once, in the order it fell due.
type Deliverer struct {
	Store  Store
	Sender Sender
	Log    *slog.Logger
	// Report, if set, is told (once) when a post could be delivered only after failing
	// for ReportAfter (an hour): the docket channel. SetReport changes it while Run runs.
	Report      Dest
	ReportAfter time.Duration
	// Zone is the commission's time zone, for the times in such a note.
	Zone *time.Location
	// Batch is how many posts one read of the outbox takes (256).
	Batch int

	mu     sync.Mutex    // one drain at a time
	kick   chan struct{} // wakes Run
	once   sync.Once
	report atomic.Pointer[Dest] // see SetReport
}

// SetReport makes to the destination of delay reports from now on, in place of Report: a
// reload that moved the docket channel. It does not wait for a drain under way.
func (d *Deliverer) SetReport(to Dest) { d.report.Store(&to) }

// reportTo is where delay reports go.
func (d *Deliverer) reportTo() Dest {
	if to := d.report.Load(); to != nil {
		return *to
	}
	return d.Report
}

// Stats is what one drain did.
type Stats struct {
	Sent   int
	Failed int
}

// delayedSeries is the series of the notes that report a delayed delivery.
const delayedSeries = "delayed"

// Drain sends every post due at now that is not yet sent. Posts to one destination go in
// order: when one fails, the rest of that destination's wait for the next drain, and other
// destinations go on. It returns when the outbox has nothing more it can send now.
func (d *Deliverer) Drain(ctx context.Context, now time.Time) (Stats, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	var st Stats
	batch := d.Batch
	if batch <= 0 {
		batch = 256
	}
	blocked := make(map[Dest]error) // a destination that failed in this drain, and why
	tried := make(map[Key]bool)
	for {
		skip := make([]Dest, 0, len(blocked))
		for to := range blocked {
			skip = append(skip, to)
		}
		rows, err := d.Store.Pending(ctx, now, skip, batch)
		if err != nil {
			return st, err
		}
		progress := false
		for _, r := range rows {
			if ctx.Err() != nil {
				return st, ctx.Err()
			}
			if tried[r.Key] {
				continue
			}
			tried[r.Key], progress = true, true
			if why := blocked[r.Key.To]; why != nil {
				// Held back, so that a destination's messages keep their order; marked once,
				// so that its delay is reported when it gets through.
				if r.Failing.IsZero() {
					if err := d.Store.MarkFailed(ctx, r.Key, "held back: an earlier message to "+r.Key.To.String()+" failed: "+why.Error(), now); err != nil {
						return st, err
					}
				}
				continue
			}
			if err := d.deliver(ctx, r, now); err != nil {
				st.Failed++
				blocked[r.Key.To] = err
				d.logger().Warn("message not delivered; it stays in the outbox and will be retried",
					"case", r.Key.Case, "series", r.Key.Series, "to", r.Key.To.String(), "err", err)
				continue
			}
			st.Sent++
		}
		if !progress {
			return st, nil
		}
	}
}

// deliver sends one post exactly once.
func (d *Deliverer) deliver(ctx context.Context, r Row, now time.Time) error {
	prior, held, err := d.Store.Claim(ctx, r.Key, now)
	if err != nil || !held {
		return err
	}
	var ch, ts string
	found := false
	if !prior.IsZero() {
		// Claimed before but never marked: it may have gone out before a crash.
		if ch, ts, found, err = d.Sender.Find(ctx, r.Key.To, r.Key, prior.Add(-time.Minute)); err != nil {
			return err
		}
	}
	if !found {
		if ch, ts, err = d.Sender.Send(ctx, r.Key.To, r.Text, r.Key); err != nil {
			if merr := d.Store.MarkFailed(ctx, r.Key, err.Error(), now); merr != nil {
				return merr
			}
			return err
		}
	}
	if err := d.Store.MarkSent(ctx, r.Key, ch, ts, now); err != nil {
		return err
	}
	return d.reportDelay(ctx, r, now)
}

// reportDelay puts a note in the docket channel when a post got through only after
// failing, or being held back by a failure, for ReportAfter or more. The note is itself a
// post, said once.
func (d *Deliverer) reportDelay(ctx context.Context, r Row, now time.Time) error {
	after := d.ReportAfter
	if after == 0 {
		after = time.Hour
	}
	report := d.reportTo()
	if report == (Dest{}) || r.Key.Series == delayedSeries || r.Failing.IsZero() || now.Sub(r.Failing) < after {
		return nil
	}
	zone := d.Zone
	if zone == nil {
		zone = time.UTC
	}
	note := Post{
		Key: Key{Case: r.Key.Case, Series: delayedSeries, Step: r.Key.String(), To: report},
		Text: Format("Delivery delayed: a message to %s about %s could not be delivered from %s until %s because Slack was failing.",
			r.Key.To.String(), caseOrDocket(r.Key.Case), r.Failing.In(zone).Format("Mon 2 Jan 15:04 MST"), now.In(zone).Format("Mon 2 Jan 15:04 MST")),
		Due: now,
	}
	return d.Store.Enqueue(ctx, []Post{note})
}

func caseOrDocket(c string) string {
	if c == "" {
		return "the docket"
	}
	return "case " + c
}

// Kick asks Run to drain now; it never blocks. Call it after committing posts.
func (d *Deliverer) Kick() {
	select {
	case d.kicks() <- struct{}{}:
	default: // a drain is already asked for
	}
}

func (d *Deliverer) kicks() chan struct{} {
	d.once.Do(func() { d.kick = make(chan struct{}, 1) })
	return d.kick
}

// Run drains the outbox at once, whenever Kick is called, and every interval (to retry
// what Slack refused), until ctx ends; a drain under way then stops between two posts,
// and what it had not sent stays for the next start.
func (d *Deliverer) Run(ctx context.Context, interval time.Duration, now func() time.Time) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if st, err := d.Drain(ctx, now()); err != nil && ctx.Err() == nil {
			d.logger().Error("outbox drain failed", "err", err)
		} else if st.Failed > 0 {
			d.logger().Info("outbox drain", "sent", st.Sent, "failed", st.Failed)
		}
		select {
		case <-ctx.Done():
			return
		case <-d.kicks():
		case <-t.C:
		}
	}
}

func (d *Deliverer) logger() *slog.Logger {
	if d.Log == nil {
		return slog.Default()
	}
	return d.Log
}

// ParseKey reads a key written by String, as found tagged on a message in Slack.
func ParseKey(s string) (Key, error) {
	bad := fmt.Errorf("outbox: %q is not a message key such as 2026-001|event|42.1@#C0123", s)
	c, rest, ok1 := strings.Cut(s, "|")
	series, rest, ok2 := strings.Cut(rest, "|")
	// The destination is the last "@#..." or "@@...": a step may itself hold a key.
	at := max(strings.LastIndex(rest, "@#"), strings.LastIndex(rest, "@@"))
	if !ok1 || !ok2 || series == "" || at <= 0 {
		return Key{}, bad
	}
	to, err := ParseDest(rest[at+1:])
	if err != nil {
		return Key{}, bad
	}
	return Key{Case: c, Series: series, Step: rest[:at], To: to}, nil
}

// Event returns the id of the event whose message k is, if it is one.
func (k Key) Event() (int64, bool) {
	if k.Series != EventSeries {
		return 0, false
	}
	id, _, _ := strings.Cut(k.Step, ".")
	n, err := strconv.ParseInt(id, 10, 64)
	return n, err == nil && n > 0
}

// Said is a message that Slack shows ethicsbot said: its key, its text as Slack keeps it,
// and where.
type Said struct {
	Key     Key
	Text    Markup
	Channel string
	TS      string
}
