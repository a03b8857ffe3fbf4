package reminders

import (
	"context"
	"fmt"
	"log"
	"log/slog"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/robfig/cron/v3"

	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// Cases gives the sweep the open cases; store.Store is one.
type Cases interface {
	OpenCases(ctx context.Context) ([]*docket.Case, error)
}

// DueCases is Cases that can give only the open cases whose next due instant
// (docket.Engine.NextDue, kept with each case) is at or before until, oldest first, through
// an index; store.Store is one. The sweep reads those alone: the others have nothing due
// before until, so a sweep that finds nothing new costs what the few due cases cost, not
// what every open case would.
type DueCases interface {
	// DueCases calls fn with those cases a page at a time, in order, so that the sweep
	// plans and says one page's reminders before the next page is read: after a long
	// outage every open case may be due, and memory then holds a page of them, not all.
	// The cases must not be modified.
	DueCases(ctx context.Context, until time.Time, fn func(page []*docket.Case) error) error
}

// Outbox keeps what is due to be said until it is delivered; store.Store is one. The sweep
// only adds to it: an outbox.Deliverer sends.
type Outbox interface {
	// Enqueue adds reminders, unsent; one already there is left as it is.
	Enqueue(ctx context.Context, posts []outbox.Post) error
	// Planned calls fn with each key already in the outbox that fell due since since.
	Planned(ctx context.Context, since time.Time, fn func(outbox.Key)) error
	LastSweep(ctx context.Context) (time.Time, error)
	SetLastSweep(ctx context.Context, at time.Time) error
}

// Sweeper finds every reminder that is due and puts it in the outbox, once.
type Sweeper struct {
	// Planner plans the reminders, until SetPlanner puts another in its place.
	Planner *Planner
	Cases   Cases
	Outbox  Outbox
	// Notify, if set, is called after a sweep added reminders to the outbox: it wakes the
	// outbox's deliverer.
	Notify func()
	Log    *slog.Logger
	// Anchor, if set, gives the record's anchor ("<events>:<hash>"), which the sweep posts
	// to the docket channel once a day at DigestAt, so that a copy of the head of the hash
	// chain lives outside the database file; and, if the record no longer holds the anchor
	// posted before (held), that one and what differs, posted instead as an alarm.
	Anchor func(ctx context.Context) (anchor, held, problem string, err error)
	// Observe, if set, is told when each scheduled sweep ends, how long it took and
	// whether it failed: /metrics shows them.
	Observe func(took time.Duration, err error)

	// DownAfter is the gap between sweeps taken to mean ethicsbot was not running, so a
	// reminder that fell due in it says so (10 minutes; sweeps run every minute).
	DownAfter time.Duration

	mu        sync.Mutex  // one sweep at a time, whoever calls
	planned   *keySet     // keys known to be in the outbox, due in the last week
	loadedOn  docket.Date // the day planned was read from the outbox
	lastSweep time.Time
	loaded    bool
	// meetingsAt is when the sweep last read the meetings for the reminders to prepare an
	// agenda (regular.go): every meetingsEvery, not every minute, since it reads every
	// case, closed ones too.
	meetingsAt time.Time
	replaced   atomic.Pointer[Planner] // see SetPlanner
}

// SetPlanner puts p in force from the next sweep on: a reload of the reminder policy, or
// of who gets reminders. A sweep already running finishes with the planner it began with,
// so each sweep plans with one policy and one set of people. p must share the planner's
// Engine: the calendar and the ordinance change only with a restart.
func (s *Sweeper) SetPlanner(p *Planner) { s.replaced.Store(p) }

// planner returns the planner in force.
func (s *Sweeper) planner() *Planner {
	if p := s.replaced.Load(); p != nil {
		return p
	}
	return s.Planner
}

// Stats is what one sweep did.
type Stats struct {
	Cases   int // open cases swept: those due within the lookahead (Planner.Lookahead)
	Planned int // reminders due and not yet in the outbox, now put there
}

// enqueueBatch is how many reminders one outbox transaction takes: after downtime, a
// catch-up of many thousands is written in a few hundred commits, not one per reminder.
const enqueueBatch = 256

// Sweep puts in the outbox every reminder due at now that is not there yet. It is safe to
// call from cron and from the console.
func (s *Sweeper) Sweep(ctx context.Context, now time.Time) (Stats, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.planner()
	// After downtime, what fell due meanwhile is folded into one catch-up message per
	// destination, if the outbox can fold.
	folder, _ := s.Outbox.(Folder)
	w := &sweepWriter{s: s, ctx: ctx, now: now, folder: folder, late: map[outbox.Dest][]outbox.Post{}}
	if err := s.loadPlanned(ctx, p, now); err != nil {
		return w.st, err
	}
	// The digest's lines are gathered in the same pass, but only if it is still to be said
	// to some clerk.
	dg, digestDue := p.newDigest(now)
	if digestDue {
		dg.rs = slices.DeleteFunc(dg.rs, func(r Reminder) bool { return s.planned.has(r.Key()) })
		digestDue = len(dg.rs) > 0
	}
	groups, order := map[agendaKey]*agendaGroup{}, []agendaKey(nil)
	if err := s.eachCases(ctx, p, now, digestDue, func(cases []*docket.Case) error {
		w.st.Cases += len(cases)
		return w.planCases(p, cases, dg, digestDue, groups, &order)
	}); err != nil {
		return w.st, err
	}
	meetings, err := w.planMeetings(p, groups, order, dg, digestDue)
	if err != nil {
		return w.st, err
	}
	if digestDue {
		p.finishDigest(dg, meetings, now)
	}
	// The clocks of the meetings' minutes (minutes.go, 5 ILCS 120/2.06), from the meetings'
	// own records alone: reading them does not decode every case, as folding them would.
	if ms, ok := s.Cases.(RecordedMeetings); ok {
		recorded, err := ms.RecordedMeetings(ctx)
		if err != nil {
			return w.st, err
		}
		if err := w.add(p.minutesReminders(recorded, now, w.skip)); err != nil {
			return w.st, err
		}
	}
	if digestDue && len(dg.lines) > 0 {
		if err := w.add(dg.rs); err != nil {
			return w.st, err
		}
	}
	if err := s.catchUp(ctx, folder, w.late, now,
		func(p outbox.Post) error { w.batch = append(w.batch, p); return nil }); err != nil {
		return w.st, err
	}
	for _, posts := range w.late {
		w.st.Planned += len(posts)
		for _, p := range posts {
			s.planned.add(p.Key)
		}
	}
	if post, ok, err := s.anchorPost(ctx, p, now); err != nil {
		return w.st, err
	} else if ok {
		w.batch = append(w.batch, post)
	}
	if err := w.flush(); err != nil {
		return w.st, err
	}
	if w.st.Planned > 0 && s.Notify != nil {
		s.Notify()
	}
	if err := s.Outbox.SetLastSweep(ctx, now); err != nil {
		return w.st, err
	}
	s.lastSweep = now
	return w.st, nil
}

// eachCases calls fn with the open cases the sweep at now must look at, in order: those due
// within the planner's lookahead a page at a time if the record can say which (DueCases),
// else every open case at once.
func (s *Sweeper) eachCases(ctx context.Context, p *Planner, now time.Time, digest bool,
	fn func([]*docket.Case) error) error {
	if dc, ok := s.Cases.(DueCases); ok {
		return dc.DueCases(ctx, p.Lookahead(now, digest), fn)
	}
	cases, err := s.Cases.OpenCases(ctx)
	if err != nil {
		return err
	}
	return fn(cases)
}

// loadPlanned reads which reminders the outbox holds, once a day: reminders fall due at
// most a day or so before they are planned, so a week covers it, and reloading once a day
// keeps the set to a week's reminders, not all history's.
func (s *Sweeper) loadPlanned(ctx context.Context, p *Planner, now time.Time) error {
	today := p.Engine.Cal.DateOf(now)
	if s.loaded && today == s.loadedOn {
		return nil
	}
	planned := newKeySet()
	if err := s.Outbox.Planned(ctx, now.AddDate(0, 0, -7), planned.add); err != nil {
		return err
	}
	if !s.loaded {
		last, err := s.Outbox.LastSweep(ctx)
		if err != nil {
			return err
		}
		s.lastSweep, s.loaded = last, true
	}
	s.planned, s.loadedOn = planned, today
	return nil
}

// sweepWriter writes one sweep's reminders into the outbox as they are planned, a batch at
// a time, so memory holds one batch however many are due after a long outage; what fell
// due during downtime waits in late for its destination's catch-up message.
type sweepWriter struct {
	s      *Sweeper
	ctx    context.Context
	now    time.Time
	st     Stats
	batch  []outbox.Post
	folder Folder
	late   map[outbox.Dest][]outbox.Post
}

// skip reports whether the reminder keyed k is in the outbox already.
func (w *sweepWriter) skip(k outbox.Key) bool { return w.s.planned.has(k) }

// flush writes the batch in one outbox transaction.
func (w *sweepWriter) flush() error {
	if len(w.batch) == 0 {
		return nil
	}
	if err := w.s.Outbox.Enqueue(w.ctx, w.batch); err != nil {
		return err
	}
	for _, p := range w.batch {
		w.s.planned.add(p.Key)
	}
	w.st.Planned += len(w.batch)
	w.batch = w.batch[:0]
	return nil
}

// add puts rs in the batch, or in late when they fell due while the bot was down and the
// outbox can fold them, flushing each full batch.
func (w *sweepWriter) add(rs []Reminder) error {
	for _, r := range rs {
		text := r.Text()
		if note := w.s.downtimeNote(r, w.now); note != "" {
			if w.folder != nil {
				w.late[r.To] = append(w.late[r.To], outbox.Post{Key: r.Key(), Text: text, Due: r.At, Actions: r.Actions()})
				continue
			}
			text += " " + note
		}
		w.batch = append(w.batch, outbox.Post{Key: r.Key(), Text: text, Due: r.At, Actions: r.Actions()})
		if len(w.batch) >= enqueueBatch {
			if err := w.flush(); err != nil {
				return err
			}
		}
	}
	return w.ctx.Err()
}

// planCases plans the reminders of each of cases, one page of the open cases, adds its
// lines to the digest if it is due, and gathers the notices of one meeting's case steps
// into groups, in order, across the pages, to be said once as that meeting's agenda.
func (w *sweepWriter) planCases(p *Planner, cases []*docket.Case, dg *digest, digestDue bool,
	groups map[agendaKey]*agendaGroup, order *[]agendaKey) error {
	notices := noticeSeries(p.Engine.Ord)
	var due []Reminder
	var buf []docket.Deadline
	for _, c := range cases {
		sched := p.Engine.ScheduleInto(buf, &c.Facts, w.now)
		buf = sched.Deadlines
		// A notice's reminder is planned whether said or not: its meeting may say it as one
		// agenda's (agenda.go), which is checked once the cases are gathered.
		due = p.plan(due[:0], c, &sched, w.now, func(k outbox.Key) bool { return !notices[k.Series] && w.skip(k) })
		if digestDue {
			p.addToDigest(dg, c, &sched, w.now)
		}
		// The notices of one meeting's case steps are one agenda's: gathered across the
		// cases, then said once (agenda.go).
		due = gatherAgendas(due, groups, order)
		if err := w.add(due); err != nil {
			return err
		}
	}
	return nil
}

// planMeetings reads the commission's meetings when an agenda, the digest or the clerk's
// preparation needs them (the preparation every meetingsEvery), and plans the reminders of
// the agendas gathered, of the meetings to prepare and of the news media's requests.
func (w *sweepWriter) planMeetings(p *Planner, groups map[agendaKey]*agendaGroup, order []agendaKey, dg *digest,
	digestDue bool) ([]docket.CommissionMeeting, error) {
	s, now := w.s, w.now
	var meetings []docket.CommissionMeeting
	prepare := now.Sub(s.meetingsAt) >= meetingsEvery || now.Before(s.meetingsAt)
	if ms, ok := s.Cases.(Meetings); ok && (len(order) > 0 || digestDue || prepare) {
		var err error
		if on, ok := ms.(MeetingsOn); ok {
			first, last := p.meetingDays(now, groups, dg, digestDue)
			meetings, err = on.MeetingsOn(w.ctx, first, last)
		} else {
			meetings, err = ms.Meetings(w.ctx)
		}
		if err != nil {
			return nil, err
		}
		s.meetingsAt = now
	}
	if len(order) > 0 {
		if err := w.add(p.agendaReminders(groups, order, meetings, w.skip)); err != nil {
			return nil, err
		}
	}
	if err := w.add(p.prepareReminders(meetings, now, w.skip)); err != nil {
		return nil, err
	}
	if mr, ok := s.Cases.(MediaRequests); ok && prepare {
		// The news media's requests lapse with their year (media.go); read every
		// meetingsEvery, as the meetings are, not every minute.
		reqs, err := mr.MediaRequests(w.ctx)
		if err != nil {
			return nil, err
		}
		if err := w.add(p.mediaReminders(reqs, now, w.skip)); err != nil {
			return nil, err
		}
	}
	return meetings, nil
}

// Folder is an Outbox that can put one message in place of several, in one transaction;
// store.Store is one.
type Folder interface {
	Fold(ctx context.Context, digest outbox.Post, folded []outbox.Post, now time.Time) error
}

// CatchUpSeries is the series of the message that says, after downtime, everything that
// fell due meanwhile to one destination.
const CatchUpSeries = "catch-up"

// catchUpMax is how much of a catch-up message lists reminders: Slack takes 40,000
// characters, and a catch-up after a long outage can hold hundreds.
const catchUpMax = 30000

// catchUp says, to each destination, the reminders that fell due while ethicsbot was not
// running: one alone, with its note that it is late (through single), or several folded
// into one message that lists them, recorded as said by it.
func (s *Sweeper) catchUp(ctx context.Context, folder Folder, late map[outbox.Dest][]outbox.Post, now time.Time,
	single func(outbox.Post) error) error {
	if len(late) == 0 {
		return nil
	}
	loc := s.planner().Engine.Cal.Location()
	from, to := s.lastSweep.In(loc).Format("Mon 2 Jan 15:04 MST"), now.In(loc).Format("Mon 2 Jan 15:04 MST")
	dests := make([]outbox.Dest, 0, len(late))
	for d := range late {
		dests = append(dests, d)
	}
	slices.SortFunc(dests, func(a, b outbox.Dest) int { return strings.Compare(a.String(), b.String()) })
	for _, d := range dests {
		posts := late[d]
		if len(posts) == 1 {
			p := posts[0]
			p.Text += " " + outbox.Format("(Sent late: ethicsbot was not running from %s; this was due at %s.)", from,
				p.Due.In(loc).Format("Mon 2 Jan 15:04 MST"))
			if err := single(p); err != nil {
				return err
			}
			continue
		}
		text := outbox.Format("*Catch-up:* ethicsbot was not running from %s to %s. %d reminders fell due meanwhile; here "+
			"they are in one message, oldest first:", from, to, len(posts))
		slices.SortStableFunc(posts, func(a, b outbox.Post) int { return a.Due.Compare(b.Due) })
		for i, p := range posts {
			item := outbox.Format("\n• (due %s) ", p.Due.In(loc).Format("Mon 2 Jan 15:04")) + p.Text
			if len(text)+len(item) > catchUpMax {
				text += outbox.Format("\n… and %d more: `/ethics docket` lists every open case, and each case's card "+
					"its deadlines.", len(posts)-i)
				break
			}
			text += item
		}
		actions, more := catchUpActions(posts)
		if more > 0 {
			text += outbox.Format("\nThe buttons open the forms of the first %d steps; the other %d have theirs on the "+
				"rows of your Home tab in Slack.", len(actions), more)
		}
		digest := outbox.Post{Key: outbox.Key{Series: CatchUpSeries, Step: s.lastSweep.UTC().Format(time.RFC3339), To: d},
			Text: text, Due: now, Actions: actions}
		if err := folder.Fold(ctx, digest, posts, now); err != nil {
			return err
		}
		s.logger().Info("after downtime, reminders folded into one catch-up message", "to", d.String(),
			"reminders", len(posts))
	}
	return nil
}

// catchUpButtons is how many steps a catch-up offers as buttons: one row of Block Kit's
// actions block, which holds 25 elements. The clerk's Home tab has a button on every row
// for the rest.
const catchUpButtons = 25

// catchUpActions are the buttons of a catch-up that folds posts, oldest first: each step a
// folded reminder (or digest) offers, once, labelled with its case, as the single
// reminders and the digest offer them; more counts the steps past catchUpButtons.
func catchUpActions(posts []outbox.Post) (actions []outbox.Action, more int) {
	seen := map[string]bool{}
	for _, p := range posts {
		for _, a := range p.Actions {
			if a.Form == "" || a.Menu || seen[a.Form] {
				continue
			}
			seen[a.Form] = true
			if len(actions) == catchUpButtons {
				more++
				continue
			}
			if c := p.Key.Case; c != "" && !strings.HasPrefix(a.Label, c+":") {
				a.Label = c + ": " + strings.TrimPrefix(a.Label, "Record: ")
			}
			actions = append(actions, a)
		}
	}
	return actions, more
}

// AnchorSeries is the series of the daily posts of the record's anchor.
const AnchorSeries = "anchor"

// anchorPost is the day's post of the record's anchor to the docket channel, once it is
// DigestAt and until it is in the outbox.
func (s *Sweeper) anchorPost(ctx context.Context, p *Planner, now time.Time) (outbox.Post, bool, error) {
	loc := p.Engine.Cal.Location()
	today := p.Engine.Cal.DateOf(now)
	at := wall(today, p.Policy.DigestAt, loc)
	docket := strings.TrimPrefix(p.People.Docket, "#")
	key := outbox.Key{Series: AnchorSeries, Step: today.String(), To: outbox.Dest{Channel: docket}}
	if s.Anchor == nil || docket == "" || now.Before(at) || s.planned.has(key) {
		return outbox.Post{}, false, nil
	}
	a, held, problem, err := s.Anchor(ctx)
	if err != nil {
		return outbox.Post{}, false, err
	}
	text := outbox.Format("Record anchor, %s: `anchor %s`\nKeep it: `ethicsbot verify --anchor %s` shows whether a copy "+
		"of the record (a backup, an archive) still holds every event up to this one, unchanged.",
		now.In(loc).Format("Mon 2 Jan 2006 15:04 MST"), a, a)
	if problem != "" {
		// The alarm names the anchor that no longer holds first, so that tomorrow's check
		// is against it again: the alarm is said every day until the record is put right.
		text = outbox.Format(":rotating_light: *The record no longer holds the anchor posted before*, `anchor %s`: %s. "+
			"Someone changed the database outside ethicsbot. Tell the city's IT staff: `ethicsbot verify --anchor %s` shows "+
			"it, and `ethicsbot restore` puts back a backup that holds it "+
			"(docs/operations.md, \"Backup, restore and upgrade\"). The record's head is now %s.",
			held, problem, held, strings.ReplaceAll(a, ":", " : "))
	}
	return outbox.Post{Key: key, Text: text, Due: at}, true, nil
}

// downtimeNote says a reminder is late because ethicsbot was not running when it fell
// due: it fell due after the previous sweep, and that sweep was long enough ago.
func (s *Sweeper) downtimeNote(r Reminder, now time.Time) outbox.Markup {
	down := s.DownAfter
	if down == 0 {
		down = 10 * time.Minute
	}
	if s.lastSweep.IsZero() || now.Sub(s.lastSweep) < down || !r.At.After(s.lastSweep) || now.Sub(r.At) < down {
		return ""
	}
	loc := s.planner().Engine.Cal.Location()
	return outbox.Format("(Sent late: ethicsbot was not running from %s; this was due at %s.)",
		s.lastSweep.In(loc).Format("Mon 2 Jan 15:04 MST"), r.At.In(loc).Format("Mon 2 Jan 15:04 MST"))
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
	c := cron.New(cron.WithLocation(s.planner().Engine.Cal.Location()),
		cron.WithChain(cron.Recover(l), cron.SkipIfStillRunning(l)))
	ctx, cancel := context.WithCancel(context.Background())
	id, err := c.AddFunc(schedule, func() {
		start := time.Now()
		st, err := s.Sweep(ctx, now())
		if s.Observe != nil && ctx.Err() == nil {
			s.Observe(time.Since(start), err)
		}
		if err != nil && ctx.Err() == nil {
			s.logger().Error("reminder sweep failed", "err", err)
		} else if st.Planned > 0 {
			s.logger().Info("reminder sweep", "cases", st.Cases, "due", st.Planned)
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
		// The first sweep after downtime says everything missed, and may hold far more
		// than a sweep a minute ever will: its memory goes back to the system now, not
		// over the minutes the runtime's background scavenger would take, so that a host
		// running many commissions' bots is not charged for each one's catch-up.
		debug.FreeOSMemory()
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
