// Package outbox is what ethicsbot says: every message as Markup, with user text escaped,
// under a Key unique for all time and a typed destination; and the Deliverer that sends
// each message exactly once.
//
// A message is said only from the outbox. An action's messages are written to it in the
// transaction that records the action's events, and reminders when the sweep finds them
// due. The Deliverer drains it: it claims a batch of messages in one commit, sends each
// tagged with its key, and marks them sent in the commit that claims the next batch (or
// ends the drain). After a crash between a claim and its mark, it looks for the key in the
// destination's history before it sends again. So nothing is said that is not on record,
// and nothing on record goes unsaid.
package outbox

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Dest is where a message goes: a channel, a user's direct messages, or an e-mail address.
type Dest struct {
	Channel string
	User    string
	// Mail is an e-mail address, such as a news medium's that asked for the commission's
	// meeting notices (5 ILCS 120/2.02(b)): the message goes through the SMTP relay
	// (Deliverer.Mail), not Slack.
	Mail string
}

// mailPrefix marks an e-mail destination as String writes it.
const mailPrefix = "mailto:"

// String writes d as the console shows it and the outbox stores it: "#C0123", "@U0123" or
// "mailto:news@example.org".
func (d Dest) String() string {
	switch {
	case d.Mail != "":
		return mailPrefix + d.Mail
	case d.User != "":
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
	case strings.HasPrefix(s, mailPrefix) && strings.Count(s, "@") == 1 && !strings.HasSuffix(s, "@") &&
		len(s) > len(mailPrefix)+1 && s[len(mailPrefix)] != '@':
		return Dest{Mail: s[len(mailPrefix):]}, nil
	}
	return Dest{}, fmt.Errorf("outbox: %q is not a destination such as #C0123, @U0123 or mailto:news@example.org", s)
}

// IsMail reports whether d is an e-mail address, said through the SMTP relay.
func (d Dest) IsMail() bool { return d.Mail != "" }

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

// MeetingSeries is the series of a commission meeting's public notice: its step begins
// with the meeting's name, then a dot.
const MeetingSeries = "meeting"

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
	// Actions are the steps the post offers as buttons, if any: a reminder's step.
	Actions []Action
	// Thread, if set, is the key of the message this one belongs to, at the same
	// destination: it is said as a reply in that message's thread or, with Edit, it is
	// that message's new text (Slack's chat.update). The docket channel keeps one such
	// parent per case, its card (CardKey): each event is a reply under it, and each action
	// on the case updates it in place.
	Thread Key
	Edit   bool
	// Media, if set, asks for copies of the post, a public notice of a meeting, for the news
	// media that filed an annual request for the commission's notices (5 ILCS 120/2.02(b)).
	// The record adds them in the transaction that writes the post, so that a notice and its
	// copies are on record together or not at all.
	Media *MediaCopies
}

// MediaCopies says which news media get a copy of a meeting's public notice, and how.
type MediaCopies struct {
	// Years are the years the notice concerns, in the commission's time zone: the
	// meeting's, and the year the notice is given. A medium whose request covers any of them
	// gets a copy.
	Years []int
	// Postal is where the clerk is asked to post a copy by mail for a medium that gave no
	// e-mail address (the docket channel); none is asked if it is zero.
	Postal Dest
}

// ScheduleSeries is the series of the public notice of the schedule of regular meetings
// (5 ILCS 120/2.03); its step names the schedule.
const ScheduleSeries = "regular_schedule"

// MediaSeries is the series of the copies of a public notice for the news media. An
// e-mailed copy's step is the notice's key, so that each medium's address gets each notice
// once; the clerk's note to post a copy by mail begins "post:" and the medium's request.
const MediaSeries = "news_media"

// MediaCopyKey is the key of the copy of the notice k e-mailed to to.
func MediaCopyKey(k Key, to Dest) Key {
	return Key{Case: k.Case, Series: MediaSeries, Step: k.String(), To: to}
}

// MediaPostKey is the key of the note at to asking the clerk to post a copy of the notice k
// by mail to the news medium of request id.
func MediaPostKey(k Key, id int64, to Dest) Key {
	return Key{Case: k.Case, Series: MediaSeries, Step: "post:" + strconv.FormatInt(id, 10) + ":" + k.String(), To: to}
}

// CardSeries is the series of a case's card in the docket channel, the parent of the
// case's thread there, and of the updates to it.
const CardSeries = "card"

// CardKey is the key of case's card at to: the thread's parent, posted once.
func CardKey(caseNumber string, to Dest) Key {
	return Key{Case: caseNumber, Series: CardSeries, Step: "parent", To: to}
}

// CardUpdateKey is the key of the update of case's card at to that event causes.
func CardUpdateKey(caseNumber string, event int64, to Dest) Key {
	return Key{Case: caseNumber, Series: CardSeries, Step: "update:" + strconv.FormatInt(event, 10), To: to}
}

// Threads is a Store that can say where a message it sent is, for the replies and the
// updates that belong to it; store.Store is one.
type Threads interface {
	// PostedAt returns the channel and ts of the post k, its text and its actions as Slack
	// has them, and whether it was sent.
	PostedAt(ctx context.Context, k Key) (channel, ts string, text Markup, actions []Action, sent bool, err error)
	// LatestEdit returns the text and the actions of the newest update of the post k in
	// the outbox, sent or not; "" if there is none.
	LatestEdit(ctx context.Context, k Key) (Markup, []Action, error)
}

// Claim is a post taken for sending (Store.Settle): Held is false if it was already sent.
// Prior is the first claim's time if it was claimed before and never marked sent: a
// message may have gone out under that claim, and is looked for before it is sent again.
type Claim struct {
	Prior time.Time
	Held  bool
}

// How is what a drain did with a post it claimed.
type How int

const (
	// Sent: the destination took the post, at Channel and TS; it is never claimed again.
	Sent How = iota + 1
	// Moved: the post now stands at Channel and TS saying Text with Actions (a card posted
	// again in place of a message Slack no longer has, or given a new text), and is sent.
	Moved
	// Released: claimed and never tried (a failure before it held its destination back):
	// the claim is undone, First if it was the post's first.
	Released
)

// Settled is one thing a drain did with a post, recorded by Store.Settle.
type Settled struct {
	Key         Key
	How         How
	Channel, TS string
	Text        Markup   // Moved
	Actions     []Action // Moved
	First       bool     // Released
}

// Threader is a Sender that can reply in a thread and update a message in place; bot's
// Slack sender and the console's are two. Without one, a reply is said as a message of
// its own, and an update as a new message.
type Threader interface {
	// Reply posts text to to in the thread of the message thread, tagged with key.
	Reply(ctx context.Context, to Dest, thread string, text Markup, key Key) (channel, ts string, err error)
	// FindReply looks in the thread of the message thread for a reply tagged key: the
	// channel's history does not hold replies, so Find cannot.
	FindReply(ctx context.Context, to Dest, thread string, key Key) (channel, ts string, found bool, err error)
	// Update replaces the text of the message ts in channel, which is tagged key, and its
	// actions (none: the message has none any more).
	Update(ctx context.Context, channel, ts string, text Markup, actions []Action, key Key) error
}

// ErrGone is what a Threader returns, wrapped, when the message a reply or an update
// belongs to is no longer there (deleted, or in a channel that is no longer the
// destination): the deliverer posts a new parent in its place.
var ErrGone = errors.New("the message is no longer in Slack")

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
	// Settle records what a drain did with the posts it claimed (done, in order), then
	// claims the posts claim for sending, in one durable commit, and returns each claim in
	// the order of claim. A post must be claimed durably before it is sent, and is marked
	// sent after: one commit a batch does both, for the batch before and the batch after.
	Settle(ctx context.Context, done []Settled, claim []Key, now time.Time) ([]Claim, error)
	// MarkFailed records why an attempt failed, or why the post was held back, and since
	// when (the first such time is kept); the post stays unsent.
	MarkFailed(ctx context.Context, k Key, reason string, now time.Time) error
	// Undelivered counts the posts due at now and not yet sent, and gives when the oldest
	// of them fell due (zero if none).
	Undelivered(ctx context.Context, now time.Time) (n int, oldest time.Time, err error)
}

// Refusal is a failure that retrying soon cannot mend: a person must act first (invite
// ethicsbot to the channel, unarchive it, renew the token). A Sender returns one, so that
// the deliverer tells the clerks at once instead of retrying in silence.
type Refusal struct {
	Code  string // the platform's error code, such as Slack's "not_in_channel"
	Why   string // what it means, in words
	Fix   Markup // what to do, in words a clerk can follow
	Token bool   // the token itself is refused: nothing can be said anywhere, not even to the clerks
	// Relay: the SMTP relay refuses ethicsbot itself (its sign-in, its sender), so no
	// e-mail can go until a person acts; Slack's posts go on.
	Relay bool
}

func (r *Refusal) Error() string { return r.Code + " (" + r.Why + ")" }

// Is makes a refusal of the relay itself an ErrRelayUnreachable too: every e-mail waits.
func (r *Refusal) Is(target error) bool { return r.Relay && target == ErrRelayUnreachable }

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
	// Mail, if set, says the posts to e-mail destinations (Dest.Mail) through the SMTP
	// relay. Without it they are refused (NoRelay) and wait in the outbox, and the clerks
	// are told, until a relay is configured.
	Mail Sender
	Log  *slog.Logger
	// Report, if set, is told (once) when a post could be delivered only after failing
	// for ReportAfter (an hour): the docket channel. SetReport changes it while Run runs.
	Report      Dest
	ReportAfter time.Duration
	// Zone is the commission's time zone, for the times in such a note.
	Zone *time.Location
	// Batch is how many posts one read of the outbox takes (256). They are claimed in one
	// commit before any is sent (Drain).
	Batch int
	// MarkWithin bounds how long a post that went out waits, unmarked, while its batch goes
	// on (DefaultMarkWithin), so that a crash owes a look-back for no more than that; and
	// what went out is marked before each wait for the Pacer, in the time the drain waits.
	MarkWithin time.Duration

	// Alert, if set, are told at once, by direct message, when Slack refuses a post in a
	// way that retrying cannot mend (the clerks). SetAlert changes them while Run runs.
	Alert []Dest
	// RefusedRetry is how long a destination that refused a post is left alone before it
	// is tried again (DefaultRefusedRetry); Retry tries it at once.
	RefusedRetry time.Duration

	// Pacer, if set, paces what is said to each destination (about one message a second,
	// with a small burst; see Pacer). Each drain logs how long it waited, by destination.
	Pacer *Pacer

	mu     sync.Mutex    // one drain at a time
	kick   chan struct{} // wakes Run
	once   sync.Once
	report atomic.Pointer[Dest]   // see SetReport
	alert  atomic.Pointer[[]Dest] // see SetAlert
	paced  map[Dest]paceStat      // this drain's waits, by destination (under mu)
	batch  batch                  // what this drain claimed and did, not yet committed (under mu)

	state     sync.Mutex    // guards what follows; Health reads it without waiting for a drain
	held      map[Dest]hold // a destination that refused a post, left alone for a while
	tokenHeld time.Time     // the token was refused: nothing is tried until then
	relayHeld time.Time     // the SMTP relay refused ethicsbot: no e-mail is tried until then
	relayWhy  error         // why
	token     string        // the code with which the token is refused; "" while it is not
	lastErr   string        // the last failure to deliver, and when
	lastErrAt time.Time
	probed    time.Time // when Probe last asked
}

// DefaultMarkWithin is MarkWithin if it is not set: a second is longer than a batch of
// one request's posts takes, and at Slack's pace one message to a channel.
const DefaultMarkWithin = time.Second

// DefaultRefusedRetry is how often a post that cannot succeed by retrying (Refusal) is
// tried again, in case a person has mended the cause: slow enough not to hammer Slack
// with a request it has refused, soon enough that a channel fixed by inviting ethicsbot
// gets its notice within minutes, without a restart.
const DefaultRefusedRetry = 5 * time.Minute

// AlertSeries is the series of the direct messages that tell the clerks a post was
// refused. Its step is the refused post's key, so each refusal is told once, whatever the
// retries and restarts.
const AlertSeries = "undelivered"

// SetAlert makes to the people told of refused posts from now on, in place of Alert: a
// reload that changed the clerks.
func (d *Deliverer) SetAlert(to []Dest) {
	to = append([]Dest(nil), to...)
	d.alert.Store(&to)
}

// alertTo is who is told of refused posts.
func (d *Deliverer) alertTo() []Dest {
	if to := d.alert.Load(); to != nil {
		return *to
	}
	return d.Alert
}

func (d *Deliverer) refusedRetry() time.Duration {
	if d.RefusedRetry > 0 {
		return d.RefusedRetry
	}
	return DefaultRefusedRetry
}

// Retry forgets every refusal, so that the next drain, which it asks for at once, tries
// every destination again: call it when a person may have mended the cause (ethicsbot was
// invited to a channel, a channel was unarchived).
func (d *Deliverer) Retry() {
	d.state.Lock()
	d.held, d.tokenHeld, d.relayHeld = nil, time.Time{}, time.Time{}
	d.state.Unlock()
	d.Kick()
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
//
// Each read of the outbox is claimed in one durable commit before any of it is sent, and
// what was sent is marked in the commit that claims the next read, or in the one that ends
// the drain (group commit): a drain takes the disk once a batch, however many posts the
// batch holds, and not twice a post, so that it competes less with the commits of the
// requests that wrote the posts. A crash after the claim costs a look in the destination's
// history for each post claimed and not marked (find), which finds the ones that went out
// and sends the others once.
func (d *Deliverer) Drain(ctx context.Context, now time.Time) (st Stats, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.batch = batch{now: now}
	defer func() {
		// What was sent is marked even if the drain stops: ethicsbot stopping gives no
		// reason to owe a look-back at the next start.
		if cerr := d.endBatch(context.WithoutCancel(ctx)); err == nil {
			err = cerr
		}
	}()
	batch := d.Batch
	if batch <= 0 {
		batch = 256
	}
	blocked := make(map[Dest]error) // a destination that failed in this drain, and why
	tried := make(map[Key]bool)
	held := make(map[Dest]bool) // left alone since an earlier drain
	// relayDown is why the SMTP relay could not be reached in this drain, if it could not:
	// every e-mail then waits for the next drain, while Slack's posts go on, so that a relay
	// that is down costs one connection attempt a drain, not one per message.
	var relayDown error
	d.state.Lock()
	tokenHeld := now.Before(d.tokenHeld)
	if now.Before(d.relayHeld) {
		relayDown = d.relayWhy
	}
	for to, h := range d.held {
		if now.Before(h.until) {
			blocked[to], held[to] = h.why, true
		}
	}
	d.state.Unlock()
	if tokenHeld {
		return st, nil // the token was refused: every post waits for the next try
	}
	d.paced = nil
	defer d.logPace()
	for first := true; ; first = false {
		skip := make([]Dest, 0, len(blocked))
		for to := range blocked {
			if first && held[to] {
				// Read once, so that what was queued behind the refused post since is
				// marked held back: the card shows it undelivered too.
				continue
			}
			skip = append(skip, to)
		}
		// What went out since the last commit is read again, unmarked as yet: read as many
		// more, so that its marks go with the next batch's claim.
		limit := batch + len(d.batch.done)
		rows, err := d.Store.Pending(ctx, now, skip, limit)
		if err != nil {
			return st, err
		}
		rows = interleave(rows)
		superseded := supersededEdits(rows)
		// Claim at once every post of the batch that may go now, with the marks of the
		// batch before, in one commit.
		var claim []Key
		for _, r := range rows {
			if !tried[r.Key] && blocked[r.Key.To] == nil && (relayDown == nil || !r.Key.To.IsMail()) {
				claim = append(claim, r.Key)
			}
		}
		if len(claim) == 0 && len(d.batch.done) > 0 {
			// Every post read was tried in this drain, and what went out is not yet marked:
			// mark it, so that the next read passes it and finds what waits behind it.
			if len(rows) < limit && !d.batch.enqueued {
				return st, nil // nothing waits behind it (see below)
			}
			if err := d.commit(ctx, nil); err != nil {
				return st, err
			}
			continue
		}
		if err := d.commit(ctx, claim); err != nil {
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
			if relayDown != nil && r.Key.To.IsMail() && blocked[r.Key.To] == nil {
				blocked[r.Key.To] = relayDown
				d.batch.release(r.Key)
				if r.Failing.IsZero() {
					if err := d.Store.MarkFailed(ctx, r.Key, "held back: the SMTP relay could not be reached: "+relayDown.Error(),
						now); err != nil {
						return st, err
					}
				}
				continue
			}
			if why := blocked[r.Key.To]; why != nil {
				// Held back, so that a destination's messages keep their order; marked once,
				// so that its delay is reported when it gets through.
				d.batch.release(r.Key)
				if r.Failing.IsZero() {
					if err := d.Store.MarkFailed(ctx, r.Key,
						"held back: an earlier message to "+r.Key.To.String()+" failed: "+why.Error(), now); err != nil {
						return st, err
					}
				}
				continue
			}
			c := d.batch.claims[r.Key]
			if !c.Held || d.batch.sent[r.Key] {
				// Sent already: by an earlier drain, or in this one as a card posted again.
				d.batch.release(r.Key)
				continue
			}
			if superseded[r.Key] {
				// A later update of the same card is in this batch: it says all this one would.
				d.batch.mark(Settled{Key: r.Key, How: Sent})
				continue
			}
			if d.batch.owes(d.markWithin()) {
				if err := d.commit(ctx, nil); err != nil {
					return st, err
				}
			}
			if err := d.deliver(ctx, r, c.Prior, now); err != nil {
				st.Failed++
				blocked[r.Key.To] = err
				if r.Key.To.IsMail() && errors.Is(err, ErrRelayUnreachable) {
					relayDown = err
				}
				var ref *Refusal
				if errors.As(err, &ref) {
					if err := d.refused(ctx, r, ref, now); err != nil {
						return st, err
					}
					if ref.Token {
						return st, nil // nothing else can go either
					}
					continue
				}
				d.logger().Warn("message not delivered; it stays in the outbox and will be retried", "by", carrier(r.Key.To),
					"case", r.Key.Case, "series", r.Key.Series, "to", r.Key.To.String(), "err", err)
				continue
			}
			st.Sent++
		}
		// A read shorter than its limit had all that was due. Unless the drain itself put
		// posts in the outbox since (an alert, a note of a delay), what was committed since
		// was kicked (Kick), and is the next drain's: no read again only to find that.
		if !progress || len(rows) < limit && !d.batch.enqueued {
			return st, nil
		}
	}
}

// batch is what a drain has claimed and done and not yet committed: the claims of the
// posts it has yet to try, and what it did with the others, in order, for the next
// Store.Settle.
type batch struct {
	now    time.Time
	since  time.Time       // when the first of done was done, on the wall clock
	claims map[Key]Claim   // claimed, not yet tried
	done   []Settled       // not yet committed
	posted map[Key]Settled // the last Sent or Moved of each post in done: where it stands now
	sent   map[Key]bool    // marked sent or moved in this drain, committed or not
	// enqueued: the drain put posts in the outbox itself, to be read before it ends.
	enqueued bool
}

// mark notes what the drain did with a post it claimed, for the next commit.
func (b *batch) mark(s Settled) {
	b.note()
	b.done = append(b.done, s)
	if b.posted == nil {
		b.posted, b.sent = map[Key]Settled{}, map[Key]bool{}
	}
	b.posted[s.Key], b.sent[s.Key] = s, true
	delete(b.claims, s.Key)
}

// release undoes the claim of a post that the drain will not try: it was held back behind
// a failure, or found sent already.
func (b *batch) release(k Key) {
	if c, ok := b.claims[k]; ok && c.Held {
		b.note()
		b.done = append(b.done, Settled{Key: k, How: Released, First: c.Prior.IsZero()})
	}
	delete(b.claims, k)
}

// note notes when the first of what is to commit was done.
func (b *batch) note() {
	if len(b.done) == 0 {
		b.since = time.Now()
	}
}

// owes reports whether a post marked sent has waited within or more for its commit.
func (b *batch) owes(within time.Duration) bool {
	return len(b.done) > 0 && time.Since(b.since) >= within
}

func (d *Deliverer) markWithin() time.Duration {
	if d.MarkWithin > 0 {
		return d.MarkWithin
	}
	return DefaultMarkWithin
}

// commit records what the drain did since its last commit and claims the posts claim, in
// one durable commit (Store.Settle).
func (d *Deliverer) commit(ctx context.Context, claim []Key) error {
	b := &d.batch
	if len(b.done) == 0 && len(claim) == 0 {
		return nil
	}
	claims, err := d.Store.Settle(ctx, b.done, claim, b.now)
	if err != nil {
		return err
	}
	b.done, b.posted = nil, nil
	if b.claims == nil {
		b.claims = make(map[Key]Claim, len(claim))
	}
	for i, k := range claim {
		b.claims[k] = claims[i]
	}
	return nil
}

// endBatch releases what the drain claimed and did not try, and commits what it did.
func (d *Deliverer) endBatch(ctx context.Context) error {
	for k := range d.batch.claims {
		d.batch.release(k)
	}
	err := d.commit(ctx, nil)
	d.batch = batch{}
	return err
}

// postedAt is Threads.PostedAt as the drain has left it: a card sent or moved earlier in
// the batch stands where the drain put it, though not yet committed.
func (d *Deliverer) postedAt(ctx context.Context, st Threads, k Key) (ch, ts string, text Markup, actions []Action,
	sent bool, err error) {
	ch, ts, text, actions, sent, err = st.PostedAt(ctx, k)
	if p, ok := d.batch.posted[k]; ok && err == nil {
		ch, ts, sent = p.Channel, p.TS, p.TS != ""
		if p.How == Moved {
			text, actions = p.Text, p.Actions
		}
	}
	return ch, ts, text, actions, sent, err
}

// interleave orders rows one destination after another, round robin, each destination's
// in the order they fell due: paced, a long run to one channel then does not hold back a
// person's direct message behind it.
func interleave(rows []Row) []Row {
	var order []Dest
	by := map[Dest][]Row{}
	for _, r := range rows {
		if by[r.Key.To] == nil {
			order = append(order, r.Key.To)
		}
		by[r.Key.To] = append(by[r.Key.To], r)
	}
	if len(order) < 2 {
		return rows
	}
	out := make([]Row, 0, len(rows))
	for len(out) < len(rows) {
		for _, to := range order {
			if q := by[to]; len(q) > 0 {
				out = append(out, q[0])
				by[to] = q[1:]
			}
		}
	}
	return out
}

// supersededEdits are the updates in rows that a later update of the same message in rows
// replaces: only the last is made, so that a burst of steps on one case costs one
// chat.update, not one each.
func supersededEdits(rows []Row) map[Key]bool {
	last := map[Key]Key{}
	for _, r := range rows {
		if r.Edit {
			last[r.Thread] = r.Key
		}
	}
	out := map[Key]bool{}
	for _, r := range rows {
		if r.Edit && last[r.Thread] != r.Key {
			out[r.Key] = true
		}
	}
	return out
}

// paceStat is how long a drain waited before the messages to one destination.
type paceStat struct {
	messages int
	waited   time.Duration
}

// pace waits until a message may go to to (Pacer), and notes the wait for the drain's log.
func (d *Deliverer) pace(ctx context.Context, to Dest) error {
	// What went out before is marked while the drain waits anyway.
	wait, err := d.Pacer.WaitIdle(ctx, to, func() error { return d.commit(ctx, nil) })
	if wait > 0 {
		if d.paced == nil {
			d.paced = map[Dest]paceStat{}
		}
		ps := d.paced[to]
		ps.messages++
		ps.waited += wait
		d.paced[to] = ps
	}
	return err
}

// logPace logs, at the end of a drain, how long it waited before the messages to each
// destination: the pace is visible in the log, and in /metrics through Pacer.Observe.
func (d *Deliverer) logPace() {
	for to, ps := range d.paced {
		d.logger().Info("delivery paced: Slack takes about one message a second per channel",
			"to", to.String(), "messages_waited", ps.messages, "waited", ps.waited.Round(time.Millisecond))
	}
	d.paced = nil
}

// send is Sender.Send, paced: to Slack at its pace (Pacer), to the SMTP relay at once.
func (d *Deliverer) send(ctx context.Context, to Dest, text Markup, actions []Action, key Key) (string, string, error) {
	if to.IsMail() {
		if d.Mail == nil {
			return "", "", NoRelay
		}
		return d.Mail.Send(ctx, to, text, key)
	}
	if err := d.pace(ctx, to); err != nil {
		return "", "", err
	}
	return SendPost(ctx, d.Sender, to, text, actions, key)
}

// find is Sender.Find of the sender that says posts to to.
func (d *Deliverer) find(ctx context.Context, to Dest, key Key, since time.Time) (string, string, bool, error) {
	if to.IsMail() {
		if d.Mail == nil {
			return "", "", false, NoRelay
		}
		return d.Mail.Find(ctx, to, key, since)
	}
	return d.Sender.Find(ctx, to, key, since)
}

// ErrRelayUnreachable is what a mail Sender returns, wrapped, when it cannot reach the
// SMTP relay at all (refused connection, timeout, TLS that cannot be agreed): every e-mail
// waits for the next drain, not only the one that met it.
var ErrRelayUnreachable = errors.New("the SMTP relay cannot be reached")

// NoRelay is the refusal of a post to an e-mail address when no SMTP relay is configured.
var NoRelay = &Refusal{Code: "no_smtp_relay", Why: "ethicsbot has no SMTP relay configured to send e-mail",
	Fix: "give the city's SMTP relay in the smtp section of ethicsbot.yml (docs/setup.md, \"E-mail\") and reload " +
		"ethicsbot; until then, send the copy by hand"}

// carrier names who carries a post to to, in the log and in the clerks' alerts.
func carrier(to Dest) string {
	if to.IsMail() {
		return "the SMTP relay"
	}
	return "Slack"
}

// deliver sends one post, claimed with prior, exactly once.
func (d *Deliverer) deliver(ctx context.Context, r Row, prior, now time.Time) error {
	delete(d.batch.claims, r.Key) // tried: a failure keeps the claim, for a look-back
	var ch, ts string
	var err error
	found := false
	if r.Thread != (Key{}) {
		ch, ts, err = d.threaded(ctx, r, prior, now)
		if err != nil {
			d.failed(err, now)
			if merr := d.Store.MarkFailed(ctx, r.Key, err.Error(), now); merr != nil {
				return merr
			}
			return err
		}
		found = true
	}
	if !found && !prior.IsZero() {
		// Claimed before but never marked: it may have gone out before a crash. (An SMTP
		// relay keeps no history to look in: an e-mail is sent again, with the same
		// Message-ID, so that the recipient's mail system can tell it is the same one.)
		if ch, ts, found, err = d.find(ctx, r.Key.To, r.Key, prior.Add(-time.Minute)); err != nil {
			d.failed(err, now)
			return err
		}
	}
	if !found {
		if ch, ts, err = d.send(ctx, r.Key.To, r.Text, r.Actions, r.Key); err != nil {
			d.failed(err, now)
			if merr := d.Store.MarkFailed(ctx, r.Key, err.Error(), now); merr != nil {
				return merr
			}
			return err
		}
	}
	d.state.Lock()
	delete(d.held, r.Key.To)
	if !r.Key.To.IsMail() {
		d.token, d.tokenHeld = "", time.Time{} // the token works
	}
	d.state.Unlock()
	d.batch.mark(Settled{Key: r.Key, How: Sent, Channel: ch, TS: ts})
	if r.Key.To.IsMail() {
		// An SMTP relay keeps no history to look in: an e-mail is marked sent in a commit
		// of its own as soon as the relay takes it, as before group commit, so that a crash
		// resends (with the same Message-ID) at most the one e-mail under way.
		if err := d.commit(ctx, nil); err != nil {
			return err
		}
	}
	return d.reportDelay(ctx, r, now)
}

// threaded says a post that belongs to another's thread (Post.Thread): an update of the
// parent's text, or a reply under it. A parent that Slack no longer has (deleted, or in a
// channel that is no longer the destination) is posted again, with its latest text, and
// the record points at the new one: a missing parent falls back to a new parent.
func (d *Deliverer) threaded(ctx context.Context, r Row, prior, now time.Time) (ch, ts string, err error) {
	th, ok := d.Sender.(Threader)
	st, ok2 := d.Store.(Threads)
	if !ok || !ok2 {
		return d.send(ctx, r.Key.To, r.Text, r.Actions, r.Key)
	}
	pch, pts, ptext, pactions, sent, err := d.postedAt(ctx, st, r.Thread)
	if err != nil {
		return "", "", err
	}
	if r.Edit {
		// The card as the newest update has it, its text and its actions: an older update
		// tried again after a crash must not put back what a newer one replaced.
		if latest, actions, err := st.LatestEdit(ctx, r.Thread); err != nil {
			return "", "", err
		} else if latest != "" {
			r.Text, r.Actions = latest, actions
		}
		if sent && ptext == r.Text && slices.Equal(pactions, r.Actions) {
			return pch, pts, nil // the card already says it: nothing to update
		}
		if sent {
			if err := d.pace(ctx, r.Key.To); err != nil {
				return "", "", err
			}
			err := th.Update(ctx, pch, pts, r.Text, r.Actions, r.Thread)
			if err == nil {
				// Recorded with the batch: an update lost in a crash is made again, the same.
				d.batch.mark(Settled{Key: r.Thread, How: Moved, Channel: pch, TS: pts, Text: r.Text, Actions: r.Actions})
				return pch, pts, nil
			}
			if !errors.Is(err, ErrGone) {
				return "", "", err
			}
		}
		if !sent && ptext == "" {
			// No parent was ever planned: say the update as the parent.
			return d.send(ctx, r.Key.To, r.Text, r.Actions, r.Thread)
		}
		return d.reparent(ctx, r, r.Text, r.Actions)
	}
	if !sent {
		if ptext == "" {
			return d.send(ctx, r.Key.To, r.Text, r.Actions, r.Key)
		}
		if _, pts, err = d.reparent(ctx, r, ptext, pactions); err != nil {
			return "", "", err
		}
	}
	if !prior.IsZero() {
		// Claimed before but never marked: it may have gone out before a crash.
		if ch, ts, found, err := th.FindReply(ctx, r.Key.To, pts, r.Key); err != nil {
			return "", "", err
		} else if found {
			return ch, ts, nil
		}
	}
	reply := func() (string, string, error) {
		if err := d.pace(ctx, r.Key.To); err != nil {
			return "", "", err
		}
		return th.Reply(ctx, r.Key.To, pts, r.Text, r.Key)
	}
	ch, ts, err = reply()
	if errors.Is(err, ErrGone) {
		if _, pts, err = d.reparent(ctx, r, ptext, pactions); err != nil {
			return "", "", err
		}
		ch, ts, err = reply()
	}
	return ch, ts, err
}

// reparent posts r's parent again with text and actions, as a new message at r's
// destination, and points the record at it at once, with what the batch did before: a
// crash must not leave the record pointing at the message that is gone, or the card would
// be posted once more.
func (d *Deliverer) reparent(ctx context.Context, r Row, text Markup, actions []Action) (string, string, error) {
	ch, ts, err := d.send(ctx, r.Key.To, text, actions, r.Thread)
	if err != nil {
		return "", "", err
	}
	d.logger().Info("a case's card was not where the record put it; posted it again as the thread's parent",
		"case", r.Key.Case, "to", r.Key.To.String(), "channel", ch, "ts", ts)
	d.batch.mark(Settled{Key: r.Thread, How: Moved, Channel: ch, TS: ts, Text: text, Actions: actions})
	return ch, ts, d.commit(ctx, nil)
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
		Text: Format("Delivery delayed: a message to %s about %s could not be delivered from %s until %s because %s "+
			"was failing.",
			r.Key.To.String(), r.Key.About(), r.Failing.In(zone).Format("Mon 2 Jan 15:04 MST"),
			now.In(zone).Format("Mon 2 Jan 15:04 MST"), Markup(carrier(r.Key.To))),
		Due: now,
	}
	d.batch.enqueued = true
	return d.Store.Enqueue(ctx, []Post{note})
}

// hold is a destination that refused a post: why, and until when it is left alone.
type hold struct {
	until time.Time
	why   *Refusal
}

// failed notes a failure to deliver, for Health.
func (d *Deliverer) failed(err error, now time.Time) {
	if errors.Is(err, context.Canceled) {
		return // ethicsbot stopping is no failure of Slack's
	}
	d.state.Lock()
	d.lastErr, d.lastErrAt = err.Error(), now
	d.state.Unlock()
}

// refused handles a post that retrying cannot deliver: its destination (or, for a refused
// token, everything) is left alone for RefusedRetry, the log says what to do, and the
// alert's people are told by direct message, once for each refused post (the message is
// itself a post, keyed by the refused one), where a message can still be sent. The post
// stays in the outbox, and goes when a later try succeeds.
func (d *Deliverer) refused(ctx context.Context, r Row, ref *Refusal, now time.Time) error {
	wait := d.refusedRetry()
	d.state.Lock()
	if ref.Token {
		d.token, d.tokenHeld = ref.Code, now.Add(wait)
	} else if ref.Relay {
		d.relayHeld, d.relayWhy = now.Add(wait), ref
	} else {
		if d.held == nil {
			d.held = make(map[Dest]hold)
		}
		d.held[r.Key.To] = hold{now.Add(wait), ref}
	}
	d.state.Unlock()
	d.logger().Error("a message was refused, and retrying cannot help until a person acts; it stays in the outbox",
		"by", carrier(r.Key.To), "case", r.Key.Case, "series", r.Key.Series, "to", r.Key.To.String(), "code", ref.Code, "why",
		ref.Why, "fix",
		ref.Fix.Plain(), "retry_in", wait)
	if ref.Token || r.Key.Series == AlertSeries {
		// No message can reach anyone with a refused token, and an alert that cannot be
		// delivered is not itself alerted: the log, /healthz and the card say it.
		return nil
	}
	zone := d.Zone
	if zone == nil {
		zone = time.UTC
	}
	text := Format(":warning: *Not delivered:* a message to %s about %s, due %s. %s refused it: `%s`, %s.\n"+
		"*To do:* %s. ethicsbot tries again every %s and at each start; the message waits in the outbox until it goes, and "+
		"later messages to %s wait behind it, in order.\n"+
		"It begins:\n>%s",
		r.Key.To.Markup(), r.Key.About(), r.Due.In(zone).Format("Mon 2 Jan 15:04 MST"), Markup(capital(carrier(r.Key.To))),
		ref.Code, ref.Why,
		ref.Fix, Minutes(wait), r.Key.To.Markup(), r.Text.FirstLine(200))
	var posts []Post
	for _, to := range d.alertTo() {
		if to != r.Key.To {
			posts = append(posts,
				Post{Key: Key{Case: r.Key.Case, Series: AlertSeries, Step: r.Key.String(), To: to}, Text: text, Due: now})
		}
	}
	d.batch.enqueued = d.batch.enqueued || len(posts) > 0
	return d.Store.Enqueue(ctx, posts)
}

// capital is s with its first letter capital, to begin a sentence.
func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Health is where delivery stands, for /healthz and for metrics.
type Health struct {
	Pending      int           // posts due and not yet sent
	Oldest       time.Duration // how long the oldest of them has been due; 0 if none
	LastError    string        // the last failure to deliver since ethicsbot started, "" if none
	LastErrorAt  time.Time     // when it happened
	TokenRefused string        // the code with which the token is refused, "" while it is not
}

// Health reports where delivery stands at now.
func (d *Deliverer) Health(ctx context.Context, now time.Time) (Health, error) {
	n, oldest, err := d.Store.Undelivered(ctx, now)
	if err != nil {
		return Health{}, err
	}
	d.state.Lock()
	h := Health{Pending: n, LastError: d.lastErr, LastErrorAt: d.lastErrAt, TokenRefused: d.token}
	d.state.Unlock()
	if n > 0 && now.After(oldest) {
		h.Oldest = now.Sub(oldest)
	}
	return h, nil
}

// Minutes says a duration as a person would: "5 minutes", "1 hour", "90 seconds".
func Minutes(d time.Duration) string {
	switch {
	case d%time.Hour == 0:
		return plural(int(d/time.Hour), "hour")
	case d%time.Minute == 0:
		return plural(int(d/time.Minute), "minute")
	}
	return plural(int(d.Round(time.Second)/time.Second), "second")
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return strconv.Itoa(n) + " " + unit + "s"
}

// About names what the message is about: "case 2026-001", or "the docket" for a message
// about no one case.
func (k Key) About() string {
	if k.Case == "" {
		return "the docket"
	}
	return "case " + k.Case
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

// Prober is a Sender that can check, without saying anything, that the platform still
// takes its token (bot's Slack sender calls auth.test).
type Prober interface {
	Probe(ctx context.Context) error
}

// Probe checks the Sender's token, if it is a Prober, at most once every RefusedRetry: a
// token revoked while nothing was to be said is found out within minutes, not at the next
// message, and one renewed is found working. A refused token holds every post, as if a
// post had met it; a token taken again lets them go at the next drain.
func (d *Deliverer) Probe(ctx context.Context, now time.Time) {
	p, ok := d.Sender.(Prober)
	if !ok {
		return
	}
	d.state.Lock()
	due := !now.Before(d.probed.Add(d.refusedRetry()))
	if due {
		d.probed = now
	}
	d.state.Unlock()
	if !due {
		return
	}
	err := p.Probe(ctx)
	var ref *Refusal
	switch {
	case err == nil:
		d.state.Lock()
		refused := d.token != ""
		d.token, d.tokenHeld = "", time.Time{}
		d.state.Unlock()
		if refused {
			d.logger().Info("Slack takes the token again; what waited is sent now")
			d.Kick()
		}
	case errors.As(err, &ref) && ref.Token:
		d.failed(err, now)
		d.state.Lock()
		d.token, d.tokenHeld = ref.Code, now.Add(d.refusedRetry())
		d.state.Unlock()
		d.logger().Error("Slack refuses the token; nothing can be said until a person renews it",
			"code", ref.Code, "why", ref.Why, "fix", ref.Fix.Plain())
	}
}

// Run drains the outbox at once, whenever Kick is called, and every interval (to retry
// what Slack refused), and probes the token (Probe), until ctx ends; a drain under way
// then stops between two posts, and what it had not sent stays for the next start.
func (d *Deliverer) Run(ctx context.Context, interval time.Duration, now func() time.Time) {
	t := time.NewTicker(interval)
	defer t.Stop()
	d.state.Lock()
	d.probed = now() // the token was checked at start (bot.CheckAuth)
	d.state.Unlock()
	for {
		d.Probe(ctx, now())
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
	// The destination is the last "@#...", "@@..." or "@mailto:...": a step may itself hold
	// a key.
	at := max(strings.LastIndex(rest, "@#"), strings.LastIndex(rest, "@@"), strings.LastIndex(rest, "@"+mailPrefix))
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
