package reminders

import (
	"context"
	"fmt"
	"log"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/robfig/cron/v3"

	"ethicsbot/docket"
)

// Cases gives the sweep the open cases; store.Store is one.
type Cases interface {
	OpenCases(ctx context.Context) ([]*docket.Case, error)
}

// Outbox makes each reminder exactly-once; store.Store is one. A reminder is claimed
// before it is sent and marked sent after Slack accepts it.
type Outbox interface {
	Claim(ctx context.Context, caseNumber, series, step string, due, now time.Time) (prior time.Time, held bool, err error)
	MarkSent(ctx context.Context, caseNumber, series, step, channel, ts string, now time.Time) error
	MarkFailed(ctx context.Context, caseNumber, series, step, reason string) error
	SentSince(ctx context.Context, since time.Time) (map[string]bool, error)
	LastSweep(ctx context.Context) (time.Time, error)
	SetLastSweep(ctx context.Context, at time.Time) error
	// QueuePost and UnsentPosts keep messages that must not be lost until Slack takes them.
	QueuePost(ctx context.Context, caseNumber, step, text string, now time.Time) error
	UnsentPosts(ctx context.Context, before time.Time) ([]Post, error)
}

// Post is a queued message that is not a reminder, such as a public meeting notice. It is
// an alias of the unnamed struct so that the store can return it without importing this
// package.
type Post = struct{ Case, Step, Text string }

// postSeries is the outbox series of queued posts.
const postSeries = "post"

// Sender says a reminder; bot's Slack sender and the console are two.
type Sender interface {
	// Send posts text to d, tagged with key so it can be found again, and returns the
	// channel and the message's ts.
	Send(ctx context.Context, d Dest, text, key string) (channel, ts string, err error)
	// Find looks for a message tagged key posted to d since since: after a crash between
	// a claim and its mark, it tells whether the message went out.
	Find(ctx context.Context, d Dest, key string, since time.Time) (channel, ts string, found bool, err error)
}

// Sweeper says every reminder that is due, once.
type Sweeper struct {
	Planner *Planner
	Cases   Cases
	Outbox  Outbox
	Sender  Sender
	Log     *slog.Logger

	// ReportAfter is how long a reminder may fail before, once delivered, its delay is
	// reported in the docket channel (an hour).
	ReportAfter time.Duration
	// DownAfter is the gap between sweeps taken to mean ethicsbot was not running, so a
	// reminder that fell due in it says so (10 minutes; sweeps run every minute).
	DownAfter time.Duration

	inFlight  sync.Map             // keys of posts being sent now
	mu        sync.Mutex           // one sweep at a time, whoever calls
	sent      map[string]bool      // keys known to be sent, due in the last week
	loadedOn  docket.Date          // the day sent was read from the outbox
	failing   map[string]time.Time // keys failing, since when
	lastSweep time.Time
	loaded    bool
}

// Stats is what one sweep did.
type Stats struct {
	Cases   int // open cases swept
	Planned int // reminders due and not yet said
	Sent    int
	Failed  int
}

// Sweep says what is due at now. It is safe to call from cron and from the console.
func (s *Sweeper) Sweep(ctx context.Context, now time.Time) (Stats, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var st Stats
	if today := s.Planner.Engine.Cal.DateOf(now); !s.loaded || today != s.loadedOn {
		// Reminders fall due at most a day or so before they are planned; a week covers it.
		// Reloading once a day keeps the set to a week's reminders, not all history's.
		sent, err := s.Outbox.SentSince(ctx, now.AddDate(0, 0, -7))
		if err != nil {
			return st, err
		}
		if !s.loaded {
			last, err := s.Outbox.LastSweep(ctx)
			if err != nil {
				return st, err
			}
			s.failing, s.lastSweep, s.loaded = make(map[string]time.Time), last, true
		}
		s.sent, s.loadedOn = sent, today
	}
	cases, err := s.Cases.OpenCases(ctx)
	if err != nil {
		return st, err
	}
	st.Cases = len(cases)
	p := s.Planner
	// The digest's lines are gathered in the same pass, but only if it is still to be said.
	dg, digestDue := p.newDigest(now)
	if digestDue {
		c, series, step := dg.r.Key()
		digestDue = !s.sent[c+"|"+series+"|"+step]
	}
	// Each case's reminders are said as soon as they are planned, so memory holds one
	// case's at a time however many are due after a long outage.
	skip := func(c, series, step string) bool { return s.sent[c+"|"+series+"|"+step] }
	var due []Reminder
	var buf []docket.Deadline
	sayAll := func(due []Reminder) error {
		sort.SliceStable(due, func(i, j int) bool { return due[i].At.Before(due[j].At) })
		for _, r := range due {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			st.Planned++
			c, series, step := r.Key()
			key := c + "|" + series + "|" + step
			if err := s.say(ctx, r, key, now); err != nil {
				st.Failed++
				s.logger().Warn("reminder not delivered; it will be retried", "case", r.Case, "series", r.Series, "to", r.To.String(), "err", err)
				continue
			}
			st.Sent++
		}
		return nil
	}
	for _, c := range cases {
		sched := p.Engine.ScheduleInto(buf, &c.Facts, now)
		buf = sched.Deadlines
		due = p.plan(due[:0], c, &sched, now, skip)
		if digestDue {
			p.addToDigest(dg, c, &sched, now)
		}
		if err := sayAll(due); err != nil {
			return st, err
		}
	}
	if digestDue && len(dg.lines) > 0 {
		if err := sayAll([]Reminder{dg.r}); err != nil {
			return st, err
		}
	}
	// Posts that Slack refused earlier are tried again, until each is delivered once.
	posts, err := s.Outbox.UnsentPosts(ctx, now.Add(-30*time.Second))
	if err != nil {
		return st, err
	}
	for _, p := range posts {
		if err := s.DeliverPost(ctx, p, now); err != nil {
			st.Failed++
			s.logger().Warn("post not delivered; it will be retried", "case", p.Case, "err", err)
			continue
		}
		st.Sent++
	}
	if err := s.Outbox.SetLastSweep(ctx, now); err != nil {
		return st, err
	}
	s.lastSweep = now
	return st, nil
}

// say delivers one reminder exactly once.
func (s *Sweeper) say(ctx context.Context, r Reminder, key string, now time.Time) error {
	c, series, step := r.Key()
	prior, held, err := s.Outbox.Claim(ctx, c, series, step, r.At, now)
	if err != nil {
		return err
	}
	if !held {
		s.sent[key] = true
		return nil
	}
	if !prior.IsZero() {
		// Claimed before but not marked: the message may have gone out before a crash.
		ch, ts, found, err := s.Sender.Find(ctx, r.To, key, prior.Add(-time.Minute))
		if err != nil {
			return err
		}
		if found {
			s.sent[key] = true
			return s.Outbox.MarkSent(ctx, c, series, step, ch, ts, now)
		}
	}
	text := r.Text()
	if late := s.downtimeNote(r, now); late != "" {
		text += " " + late
	}
	ch, ts, err := s.Sender.Send(ctx, r.To, text, key)
	if err != nil {
		if _, ok := s.failing[key]; !ok {
			s.failing[key] = now
		}
		if merr := s.Outbox.MarkFailed(ctx, c, series, step, err.Error()); merr != nil {
			return merr
		}
		return err
	}
	s.sent[key] = true
	if err := s.Outbox.MarkSent(ctx, c, series, step, ch, ts, now); err != nil {
		return err
	}
	if since, ok := s.failing[key]; ok {
		delete(s.failing, key)
		if now.Sub(since) >= s.reportAfter() && s.Planner.People.Docket != "" {
			note := fmt.Sprintf("Delivery delayed: the reminder to %s about %s (%s) could not be delivered from %s until %s because Slack was failing.",
				r.To, caseOrDocket(r.Case), r.Series, since.In(s.Planner.Engine.Cal.Location()).Format("Mon 2 Jan 15:04 MST"), now.In(s.Planner.Engine.Cal.Location()).Format("15:04 MST"))
			if _, _, err := s.Sender.Send(ctx, Dest{Channel: s.Planner.People.Docket}, note, key+"|delayed"); err != nil {
				s.logger().Warn("could not report a delayed reminder", "err", err)
			}
		}
	}
	return nil
}

// Post says a message that must not be lost, such as a public meeting notice: it is
// queued in the outbox and sent at once; if Slack fails, each sweep tries again until it is
// delivered, once. id must be unique for the message.
func (s *Sweeper) Post(ctx context.Context, caseNumber, id string, to Dest, text string, now time.Time) error {
	p, err := s.Queue(ctx, caseNumber, id, to, text, now)
	if err != nil {
		return err
	}
	return s.DeliverPost(ctx, p, now)
}

// Queue puts a message in the outbox durably, without sending it: a caller that must
// answer quickly queues first, answers, then calls DeliverPost.
func (s *Sweeper) Queue(ctx context.Context, caseNumber, id string, to Dest, text string, now time.Time) (Post, error) {
	p := Post{Case: caseNumber, Step: id + "@" + to.String(), Text: text}
	return p, s.Outbox.QueuePost(ctx, p.Case, p.Step, p.Text, now)
}

// DeliverPost sends one queued post exactly once. A post being sent by this process is
// left alone by the others (a sweep's retry and a fresh Post never race).
func (s *Sweeper) DeliverPost(ctx context.Context, p Post, now time.Time) error {
	key := p.Case + "|" + postSeries + "|" + p.Step
	if _, busy := s.inFlight.LoadOrStore(key, true); busy {
		return nil
	}
	defer s.inFlight.Delete(key)
	_, destText, ok := strings.Cut(p.Step, "@")
	if !ok || len(destText) < 2 {
		return fmt.Errorf("queued post %q has no destination", p.Step)
	}
	to := Dest{Channel: destText[1:]}
	if destText[0] == '@' {
		to = Dest{User: destText[1:]}
	}
	prior, held, err := s.Outbox.Claim(ctx, p.Case, postSeries, p.Step, now, now)
	if err != nil || !held {
		return err
	}
	if !prior.IsZero() {
		if ch, ts, found, err := s.Sender.Find(ctx, to, key, prior.Add(-time.Minute)); err != nil {
			return err
		} else if found {
			return s.Outbox.MarkSent(ctx, p.Case, postSeries, p.Step, ch, ts, now)
		}
	}
	ch, ts, err := s.Sender.Send(ctx, to, p.Text, key)
	if err != nil {
		if merr := s.Outbox.MarkFailed(ctx, p.Case, postSeries, p.Step, err.Error()); merr != nil {
			return merr
		}
		return err
	}
	return s.Outbox.MarkSent(ctx, p.Case, postSeries, p.Step, ch, ts, now)
}

// downtimeNote says a reminder is late because ethicsbot was not running when it fell
// due: it fell due after the previous sweep, and that sweep was long enough ago.
func (s *Sweeper) downtimeNote(r Reminder, now time.Time) string {
	down := s.DownAfter
	if down == 0 {
		down = 10 * time.Minute
	}
	if s.lastSweep.IsZero() || now.Sub(s.lastSweep) < down || !r.At.After(s.lastSweep) || now.Sub(r.At) < down {
		return ""
	}
	loc := s.Planner.Engine.Cal.Location()
	return fmt.Sprintf("(Sent late: ethicsbot was not running from %s; this was due at %s.)",
		s.lastSweep.In(loc).Format("Mon 2 Jan 15:04 MST"), r.At.In(loc).Format("Mon 2 Jan 15:04 MST"))
}

func caseOrDocket(c string) string {
	if c == "" {
		return "the docket"
	}
	return "case " + c
}

func (s *Sweeper) reportAfter() time.Duration {
	if s.ReportAfter == 0 {
		return time.Hour
	}
	return s.ReportAfter
}

func (s *Sweeper) logger() *slog.Logger {
	if s.Log == nil {
		return slog.Default()
	}
	return s.Log
}

// Start runs the sweep at once and then on schedule (a cron spec such as "@every 1m") in
// the commission's zone until stop is called; stop ends a running sweep between two
// reminders and waits for it. Cron only triggers
// the sweep: a panic is recovered and logged, and a sweep still running is not started
// twice.
func (s *Sweeper) Start(schedule string, now func() time.Time) (stop func(), err error) {
	l := cron.PrintfLogger(log.New(slogWriter{s.logger()}, "", 0))
	c := cron.New(cron.WithLocation(s.Planner.Engine.Cal.Location()), cron.WithChain(cron.Recover(l), cron.SkipIfStillRunning(l)))
	ctx, cancel := context.WithCancel(context.Background())
	id, err := c.AddFunc(schedule, func() {
		if st, err := s.Sweep(ctx, now()); err != nil && ctx.Err() == nil {
			s.logger().Error("reminder sweep failed", "err", err)
		} else if st.Sent > 0 || st.Failed > 0 {
			s.logger().Info("reminder sweep", "cases", st.Cases, "sent", st.Sent, "failed", st.Failed)
		}
	})
	if err != nil {
		cancel()
		return nil, fmt.Errorf("reminder schedule %q: %w", schedule, err)
	}
	// One sweep at once, through the same chain: after downtime the catch-up should not
	// wait for the schedule, and it is never run twice at the same time.
	var first sync.WaitGroup
	first.Add(1)
	go func() {
		defer first.Done()
		c.Entry(id).WrappedJob.Run()
	}()
	c.Start()
	return func() {
		cancel() // a sweep stops between reminders; what it has not said, the next says
		<-c.Stop().Done()
		first.Wait()
	}, nil
}

// slogWriter lets cron's printf logger write to slog.
type slogWriter struct{ l *slog.Logger }

func (w slogWriter) Write(p []byte) (int, error) {
	w.l.Warn(string(p))
	return len(p), nil
}
