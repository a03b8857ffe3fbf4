package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"

	"ethicsbot/bot"
	"ethicsbot/commands"
	"ethicsbot/config"
	"ethicsbot/docket"
	"ethicsbot/letters"
	"ethicsbot/mailer"
	"ethicsbot/outbox"
	"ethicsbot/reminders"
	"ethicsbot/report"
	"ethicsbot/store"
	"ethicsbot/web"
)

// demo is the configuration the console uses when there is no ethicsbot.yml.
var demo = struct {
	roles    commands.Roles
	channels commands.Channels
	database string
	letters  letters.Config
	out      string
}{
	roles:    commands.Roles{Commissioners: []string{"U_COMM1", "U_COMM2", "U_COMM3"}, Clerks: []string{"U_CLERK"}},
	channels: commands.Channels{Docket: "#ethics-docket", Notices: "#ethics-notices"},
	database: "ethicsbot-demo.db",
	letters: letters.Config{
		Commission: letters.Addressee{Name: "Ethics Commission of the City of Demo",
			Address: "City Hall, Room 201\n100 Main Street\nDemo, IL 60000"},
		Officer: letters.Addressee{Name: "Pat Mayor", Title: "Mayor",
			Address: "Office of the Mayor, City Hall\n100 Main Street\nDemo, IL 60000"},
		Attorney: letters.Addressee{Name: "Alex Counsel", Title: "Corporation Counsel",
			Address: "Law Department, City Hall\n100 Main Street\nDemo, IL 60000"},
		Payment: letters.Payment{Payee: "City of Demo", Address: "City Clerk, City Hall\n100 Main Street\nDemo, IL 60000",
			Methods: []string{"by check or money order payable to the City of Demo, mailed to the address below",
				"in person at the City Clerk's office, City Hall"}},
	},
	out: "ethicsbot-demo-letters",
}

// App is ethicsbot running in one of its modes, in the manner of benbjohnson/wtf's
// cmd/wtfd Main: Open reads the environment and the configuration, opens the record and
// starts the public sites; then one of RunConsole, RunSocketMode or RunHTTP runs the mode
// until its context ends; Close stops what they started, in reverse order, the database
// last, so that in-flight work finishes first. Run does the three in turn.
type App struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	Now            func() time.Time
	Rehearsal      *Rehearsal // set by `ethicsbot rehearse`; nil otherwise

	// Set by Open.
	Mode      string // "console", "socket" or "http", as chooseMode picks it
	log       *slog.Logger
	cfg       config.Config
	isDemo    bool
	engine    *docket.Engine
	db        *store.Store
	hup       chan os.Signal
	svc       *commands.Service
	planner   *reminders.Planner
	addr      string
	ln        net.Listener
	listenErr error
	board     *web.Board
	calendars *web.CalendarFeed
	public    http.Handler
	health    *bot.Health
	stats     *metrics
	sites     *sites
	// slackState is where the connection to Slack stands, for /healthz.
	slackState atomic.Value
	closers    []func() error
}

// Run starts ethicsbot in the mode the environment chooses: Socket Mode, HTTP, or the
// console. It returns the exit status when a signal or the end of the console's input
// stops it, after in-flight work has finished and the database is closed; a start that
// fails is said on Stderr.
func (a *App) Run() int {
	defer a.Close()
	ctx, err := a.Open()
	if err == nil {
		switch a.Mode {
		case "console":
			err = a.RunConsole(ctx)
		case "socket":
			err = a.RunSocketMode(ctx)
		default:
			err = a.RunHTTP(ctx)
		}
	}
	if err != nil {
		fmt.Fprintf(a.Stderr, "ethicsbot: %s\n", err)
		return ExitStatusOf(err) // a refused start has its own, which the unit does not start again
	}
	return ExitOK
}

// onClose adds f to what Close stops; the last added stops first.
func (a *App) onClose(f func() error) { a.closers = append(a.closers, f) }

// Close stops what Open and the mode started, the last started first, and returns the
// first failure.
func (a *App) Close() error {
	var first error
	for i := len(a.closers) - 1; i >= 0; i-- {
		if err := a.closers[i](); err != nil && first == nil {
			first = err
		}
	}
	a.closers = nil
	return first
}

// Open reads the environment and the configuration, opens the record, and serves the
// public notice board, /healthz and /metrics. It returns the context that SIGINT or
// SIGTERM ends.
func (a *App) Open() (context.Context, error) {
	getenv, now := a.Getenv, a.Now
	// A refusal of the configuration or the environment has its own exit status (exit.go).
	refused := func(err error) (context.Context, error) { return nil, &refusal{ExitConfig, err} }
	logger, err := newLogger(a.Stderr, getenv) // ETHICSBOT_LOG_LEVEL, ETHICSBOT_LOG_FORMAT
	if err != nil {
		return refused(err)
	}
	a.log = logger
	trusted, err := parseProxies(getenv("ETHICSBOT_TRUSTED_PROXIES"))
	if err != nil {
		return refused(err)
	}
	getenv, err = secretsFromFiles(getenv) // the tokens may be files: SLACK_BOT_TOKEN_FILE, LoadCredential=
	if err != nil {
		return refused(err)
	}
	a.Getenv = getenv
	cfg, err := config.Load(getenv)
	if err != nil {
		return refused(err)
	}
	mode, err := chooseMode(getenv)
	if err != nil {
		return refused(err)
	}
	a.Mode = mode
	if mode != "console" {
		if err := SlackReady(cfg); err != nil {
			return refused(err)
		}
	}
	for _, w := range startWarnings(cfg, mode) {
		logger.Warn("configuration: " + w)
	}
	isDemo := cfg.Path == "" && mode == "console"
	if isDemo {
		cfg.Roles, cfg.Channels, cfg.Letters, cfg.LettersOut = demo.roles, demo.channels, demo.letters, demo.out
		if getenv("ETHICSBOT_DB") == "" {
			cfg.Database = demo.database
		}
	}
	if a.Rehearsal != nil {
		cfg.LettersOut = a.Rehearsal.Letters()
	}
	a.cfg, a.isDemo = cfg, isDemo
	engine, err := cfg.Engine()
	if err != nil {
		return refused(fmt.Errorf("config %s: %v", cfg.Path, err))
	}
	a.engine = engine
	db, err := store.OpenWith(cfg.Database, engine, store.Options{Log: logger, Now: now, Lock: true})
	if err != nil {
		return nil, err
	}
	a.db = db
	a.onClose(db.Close)
	if mark, err := db.Restored(context.Background()); err == nil && mark != nil && mode == "console" {
		logger.Warn("the record was restored from a backup and is not yet reconciled with Slack: no case is numbered until "+
			"ethicsbot starts connected to Slack and reads the docket and notices channels",
			"backup", mark.Backup, "anchor", mark.Anchor)
	}
	if db.Created() {
		// Say where: a record that was expected elsewhere, or was removed, shows here first.
		path, err := filepath.Abs(cfg.Database)
		if err != nil {
			path = cfg.Database
		}
		logger.Info("creating a new database", "path", path)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	a.onClose(func() error { stop(); return nil })
	// In the Slack modes SIGHUP reloads the configuration; one that comes while ethicsbot
	// is still starting waits for the reloader rather than ending the process.
	a.hup = make(chan os.Signal, 1)
	if mode != "console" {
		signal.Notify(a.hup, syscall.SIGHUP)
		a.onClose(func() error { signal.Stop(a.hup); return nil })
	}
	maker, err := letters.New(cfg.LettersFor(engine), engine.Cal.Location())
	if err != nil {
		return refused(fmt.Errorf("config %s: %v", cfg.Path, err))
	}
	docs := NewTaggedDocs(logger)
	a.onClose(docs.Close)
	docs.Use(maker)
	svc := &commands.Service{Record: db, Engine: engine, Now: now, Log: logger, Letters: maker, Calendars: db}
	db.SayWith(svc) // what each step and meeting's change says is committed with it
	planner := plannerOf(engine, cfg)
	svc.Configure(SettingsOf(cfg, planner))
	a.svc, a.planner = svc, planner
	if err := svc.AnnounceSchedule(ctx, docket.RegularSchedule{}); err != nil { // 5 ILCS 120/2.03, once per schedule
		logger.Warn("the notice of the schedule of regular meetings could not be queued", "err", err)
	}

	// The public notice board and /healthz are served in every mode. Only the console
	// goes on without them, when the address is taken: it is a place to try things.
	addr := getenv("ETHICSBOT_ADDR")
	switch {
	case addr != "":
	case mode == "console":
		addr = "127.0.0.1:3000" // a place to try things is for this machine only
	default:
		addr = ":3000"
	}
	ln, listenErr := net.Listen("tcp", addr)
	if listenErr != nil && mode != "console" {
		return nil, fmt.Errorf("cannot listen on %s (ETHICSBOT_ADDR): %v", addr, listenErr)
	}
	a.addr, a.ln, a.listenErr = addr, ln, listenErr
	board := BoardOf(cfg, engine, db, now, maker)
	board.Log = logger
	board.URLNow = func() string { return svc.Settings().PublicURL + "/" } // reloaded with SIGHUP
	board.Regular = func() docket.RegularSchedule { return svc.Settings().Regular }
	calendars := &web.CalendarFeed{Tokens: db, Cases: db, Engine: engine, Now: now, Log: logger,
		Member:    func(user string) bool { return svc.Settings().Roles.Of(user) != commands.Nobody },
		Tasks:     func(user string) bool { return svc.Settings().Roles.Of(user) == commands.Clerk },
		PublicURL: func() string { return svc.Settings().PublicURL }} // both reloaded with SIGHUP
	public := accessLog(logger, trusted, web.Public(board, calendars)) // never logs a calendar token
	a.board, a.calendars, a.public = board, calendars, public
	// The sites are up from here on, before Slack answers: the board does not wait for
	// Slack. In HTTP mode Slack's routes join them once ethicsbot is ready; until then
	// they answer 503, and Slack tries again.
	a.slackState.Store("connecting")
	var slackHealth func() string
	if mode != "console" {
		slackHealth = func() string { return a.slackState.Load().(string) }
	}
	botToken, _ := slackTokens(getenv)
	health := &bot.Health{DB: db, Slack: slackHealth, UndeliveredAfter: cfg.UndeliveredAfter, Now: now, Token: botToken}
	stats := newMetrics(db, cfg.Database, func() time.Time { return svc.Now() }, logger)
	svc.Observe = stats.command
	if mode != "console" { // the sweep and the nightly backup are the service's
		health.Parts = []bot.Part{{Name: "sweep", Check: stats.health.sweeps.state}, backupPart(cfg.Database)}
	}
	health.Parts = append(health.Parts, docs.part())
	stats.watchHealth(health, slackHealth) // every component of /healthz on /metrics too
	a.health, a.stats = health, stats
	sites, err := startSites(siteConfig{mode: mode, getenv: getenv, publicAddr: addr, publicLn: ln, public: public,
		health: health, metrics: stats.handler(), publicURL: board.URL, log: logger})
	if err != nil {
		if ln != nil {
			ln.Close()
		}
		return nil, err
	}
	a.sites = sites
	a.onClose(sites.stop) // before the database closes: in-flight requests finish first
	return ctx, nil
}

// RunConsole reads /ethics lines from Stdin until its end or ctx's, as the configured
// first clerk; on the demo's record, time is a clock the user moves.
func (a *App) RunConsole(ctx context.Context) error {
	cfg, db, logger, now, stdout := a.cfg, a.db, a.log, a.Now, a.Stdout
	svc, board, calendars, ln := a.svc, a.board, a.calendars, a.ln
	clock := bot.NewClock(now())
	svc.Now, board.Now, calendars.Now = clock.Now, clock.Now, clock.Now // the demo's time
	// /ethics attach <case> files=PATH: the console shares files from this machine.
	svc.Files = bot.LocalFiles{}
	sweeper := &reminders.Sweeper{Planner: a.planner, Cases: db, Outbox: db, Log: logger, Anchor: anchorOf(db)}
	deliverer := &outbox.Deliverer{Store: db, Log: logger, Report: outbox.Dest{Channel: cfg.Channels.Docket},
		Zone: a.engine.Cal.Location()}
	// The console's user is the first clerk: the demo's U_CLERK, or the file's.
	c := &bot.Console{Service: svc, Clock: clock, User: firstClerk(cfg.Roles), Deliver: bot.Printing(deliverer),
		Files: cfg.LettersFolder(), Earliest: db.LastEventAt,
		Tick: func(ctx context.Context, now time.Time) {
			if _, err := sweeper.Sweep(ctx, now); err != nil {
				logger.Error("reminder sweep failed", "err", err)
			}
		}}
	if a.isDemo || a.Rehearsal != nil {
		switch r := a.Rehearsal; {
		case r == nil:
			fmt.Fprintf(stdout,
				"[console] ethicsbot console. No ethicsbot.yml was found, so this is a demo: commissioners U_COMM1, U_COMM2 "+
					"and U_COMM3, clerk U_CLERK, channels #ethics-docket (private) and #ethics-notices (public), database %s.\n",
				cfg.Database)
		case r.CopyOf != "":
			fmt.Fprintf(stdout, "[console] REHEARSAL with %s on a copy of the record %s, in %s. Nothing done here "+
				"reaches the real record or Slack: every message is printed, none is sent; letters are written to %s.\n",
				cfg.Path, r.CopyOf, r.Dir, cfg.LettersFolder())
		default:
			fmt.Fprintf(stdout, "[console] REHEARSAL with %s on an empty record, in %s. Nothing done here reaches the "+
				"real record or Slack: every message is printed, none is sent; letters are written to %s.\n",
				cfg.Path, r.Dir, cfg.LettersFolder())
		}
		// A record that persists between runs (the demo's) or a copy of the real one may
		// end after the real time: the clock starts at its last event, so events stay in
		// order of time.
		if last, err := db.LastEventAt(ctx); err != nil {
			return fmt.Errorf("console: %v", err)
		} else if last.After(clock.Now()) {
			clock.Set(last)
			whose := map[bool]string{true: "demo", false: "rehearsal"}[a.Rehearsal == nil]
			fmt.Fprintf(stdout, "[console] The %s's clock starts at %s, the record's last event; :clock +1d moves it.\n",
				whose, last.In(a.engine.Cal.Location()).Format("Mon 2006-01-02 15:04 MST"))
		}
	} else {
		// On a real record, time is real and reminders are the bot's: a console must not
		// write events at a simulated time, nor mark reminders said that Slack never saw.
		svc.Now, board.Now, calendars.Now, c.Tick, c.Deliver, c.RealTime = now, now, now, nil, nil, true
		fmt.Fprintf(stdout,
			"[console] ethicsbot console on %s with %s. Set SLACK_APP_TOKEN and SLACK_BOT_TOKEN (Socket Mode) or "+
				"SLACK_SIGNING_SECRET and SLACK_BOT_TOKEN (HTTP) to connect to Slack.\n", cfg.Database, cfg.Path)
	}
	if ln != nil {
		fmt.Fprintf(stdout, "[console] The public notice board is at %s\n", listenURL(ln.Addr()))
	} else {
		fmt.Fprintf(stdout,
			"[console] The public notice board is not served: %s cannot be used (%v). Set ETHICSBOT_ADDR to another address, "+
				"e.g. 127.0.0.1:3001.\n", a.addr, a.listenErr)
	}
	// The banner offers only what this console does: on a real record :clock is refused.
	you, clockHint := c.User, ", :clock +1d to move time"
	if name := cfg.Roles.People.Name(c.User); name != c.User {
		you = name + " (" + c.User + ")"
	}
	if c.RealTime {
		clockHint = ""
	}
	fmt.Fprintf(stdout, "[console] You are %s. Type /ethics help, :as <user-id> to act as someone else%s, :quit to "+
		"leave.\n", you, clockHint)
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx, a.Stdin, stdout) }()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("console: %v", err)
		}
	case <-ctx.Done():
		fmt.Fprintln(stdout, "[console] stopped")
	}
	return nil
}

// slackApp is what both Slack modes run: the app that answers Slack, and its client.
type slackApp struct {
	app *bot.App
	api *slack.Client
}

// connect waits for Slack to accept the bot token, then starts what both Slack modes run
// beside the app: the outbox's delivery, the reminder sweeps, the reconciling of a
// restored record, the check of the channels and the reloader. A nil app with a nil error
// means a signal stopped ethicsbot before Slack answered.
func (a *App) connect(ctx context.Context) (*slackApp, error) {
	getenv, cfg, db, logger, now, svc := a.Getenv, a.cfg, a.db, a.log, a.Now, a.svc
	// No call to Slack may hang for ever: shutdown waits for in-flight work.
	apiOpts := []slack.Option{slack.OptionHTTPClient(&http.Client{Timeout: 30 * time.Second})}
	if u := getenv("SLACK_API_URL"); u != "" {
		apiOpts = append(apiOpts, slack.OptionAPIURL(strings.TrimSuffix(u, "/")+"/"))
	}
	if a.Mode == "socket" {
		apiOpts = append(apiOpts, slack.OptionAppLevelToken(getenv("SLACK_APP_TOKEN")))
	}
	api := slack.New(getenv("SLACK_BOT_TOKEN"), apiOpts...)
	botToken, appToken := slackTokens(getenv) // where a refused token is to be renewed
	// Slack may be unreachable for a while (a network outage, a proxy restarting): CheckAuth
	// waits for it, and a SIGTERM meanwhile is a clean stop, not a failure.
	if err := bot.CheckAuth(ctx, api, botToken, logger); err != nil {
		if ctx.Err() != nil {
			logger.Info("stopped before Slack answered")
			return nil, nil
		}
		return nil, err
	}
	pacer, err := a.stats.pacer(getenv("SLACK_PACE")) // about one message a second per channel (metrics_pace.go)
	if err != nil {
		return nil, err
	}
	sender := &bot.Sender{API: api, RateLimited: a.stats.rateLimitedBy(pacer), Token: botToken}
	deliverer := &outbox.Deliverer{Store: db, Sender: a.stats.sender(sender), Log: logger,
		Report: outbox.Dest{Channel: cfg.Channels.Docket}, Zone: a.engine.Cal.Location(), Pacer: pacer}
	if cfg.SMTP.Enabled() { // the news media's copies of the notices (5 ILCS 120/2.02(b))
		if deliverer.Mail, err = mailer.New(cfg.SMTP, logger); err != nil {
			return nil, fmt.Errorf("config %s: %v", cfg.Path, err)
		}
	}
	svc.Files = bot.SlackFiles{API: api} // /ethics attach: files shared in the docket channel
	app := &bot.App{Service: svc, API: api, Log: logger, Outbox: deliverer, AppToken: appToken}
	// A sweep that found reminders due found the desk changed too (a step now due or
	// overdue): the Home tabs are published again, within the sweep, which shutdown waits
	// for before the record closes.
	anchor := a.stats.checkedAnchor(anchorOf(db), time.Now) // its result on /metrics
	sweeper := &reminders.Sweeper{Planner: a.planner, Cases: db, Outbox: db,
		Notify: func() { deliverer.Kick(); app.RefreshHomesNow(ctx) },
		Log:    logger, Anchor: anchor, Observe: a.stats.sweep}
	go reconcileRestore(ctx, db, sender, cfg.Channels, deliverer.Kick, logger)
	if err := a.stats.health.sweeps.start(cfg.Sweep, a.engine.Cal.Location(), time.Now()); err != nil {
		return nil, fmt.Errorf("config %s: %v", cfg.Path, err)
	}
	stopSweeps, err := sweeper.Start(cfg.Sweep, time.Now)
	if err != nil {
		return nil, fmt.Errorf("config %s: %v", cfg.Path, err)
	}
	a.onClose(func() error { stopSweeps(); return nil }) // before the database closes: a running sweep finishes first
	stopDelivery := deliver(deliverer, logger)
	a.onClose(func() error { stopDelivery(); return nil })
	// Failures that reach a person: the clerks are told of what Slack refuses, /healthz
	// reports delivery, and the channels are checked now.
	deliverer.SetAlert(clerkDests(cfg.Roles))
	a.health.SetDelivery(deliverer)
	app.Go(func() { checkChannels(ctx, api, cfg, db, deliverer, logger, now) })
	app.Go(func() { checkAnchorAtStart(ctx, anchor, logger) })
	r := &reloader{cfg: cfg, getenv: getenv, svc: svc, sweeper: sweeper, deliverer: deliverer, log: logger,
		observe: a.stats.reloaded}
	go r.watch(ctx, a.hup)
	return &slackApp{app: app, api: api}, nil
}

// RunSocketMode answers Slack over Socket Mode until ctx ends.
func (a *App) RunSocketMode(ctx context.Context) error {
	s, err := a.connect(ctx)
	if s == nil {
		return err
	}
	a.log.Info("starting in Socket Mode", "database", a.cfg.Database, "config", a.cfg.Path)
	s.app.Connection = func(state string) { a.slackState.Store(state) } // "ok" while the websocket is open
	err = s.app.RunSocketMode(ctx, socketmode.New(s.api))
	return a.stopped(s, err)
}

// RunHTTP answers Slack's requests to /slack/* until ctx ends or Slack can no longer
// reach ethicsbot.
func (a *App) RunHTTP(ctx context.Context) error {
	s, err := a.connect(ctx)
	if s == nil {
		return err
	}
	a.log.Info("starting in HTTP mode", "database", a.cfg.Database, "config", a.cfg.Path)
	h := &bot.HTTP{App: s.app, Secret: a.Getenv("SLACK_SIGNING_SECRET"), Now: time.Now, DB: a.db, Public: a.public,
		Health: a.health}
	a.sites.slack.Set(h.Handler())
	a.slackState.Store("ok") // after the routes: a /healthz that says ok means they answer
	a.log.Info("listening for Slack over HTTP")
	select {
	case <-ctx.Done():
	case <-a.sites.slackDown: // Slack can no longer reach ethicsbot: say so and stop
	}
	return a.stopped(s, nil)
}

// stopped ends a Slack mode that stopped with err: in-flight requests finish, then the
// work they started.
func (a *App) stopped(s *slackApp, err error) error {
	if serr := a.sites.stop(); err == nil {
		err = serr
	}
	s.app.Wait()
	if err != nil {
		return err
	}
	a.log.Info("stopped")
	return nil
}

// anchorOf gives the record's anchor for the daily post, and whether the record still
// holds the anchor posted last (daily, or by a restore's note).
func anchorOf(db *store.Store) func(ctx context.Context) (anchor, held, problem string, err error) {
	return func(ctx context.Context) (string, string, string, error) {
		a, err := db.Head(ctx)
		if err != nil {
			return "", "", "", err
		}
		last, err := db.LastPosted(ctx, reminders.AnchorSeries, store.RestoreSeries)
		if err != nil || last == "" {
			return a.String(), "", "", err
		}
		prev, err := store.ParseAnchor(last)
		if err != nil {
			return "", "", "", err
		}
		problem, err := db.CheckAnchor(ctx, prev)
		return a.String(), last, problem, err
	}
}

// reconcileRestore finishes a restore (see store.Restore) once Slack can be read: it reads
// the docket and notices channels since the backup's last event, and store.Reconcile keeps
// the case numbers announced there from reuse and tells the docket channel what was lost.
// Until it has, no case is numbered. It tries again every minute while Slack cannot be read.
func reconcileRestore(ctx context.Context, db *store.Store, sender *bot.Sender, ch commands.Channels, kick func(),
	logger *slog.Logger) {
	for {
		mark, err := db.Restored(ctx)
		if err != nil || mark == nil {
			if err != nil {
				logger.Error("cannot read whether the record was restored", "err", err)
			}
			return
		}
		since := mark.LastAt.Add(-time.Minute)
		var said []outbox.Said
		for _, c := range []string{ch.Docket, ch.Notices} {
			var got []outbox.Said
			var threads []string // the cases' threads, where the docket lines are replies
			if threads, err = db.CardThreads(ctx, outbox.Dest{Channel: c}); err != nil {
				break
			}
			if got, err = sender.Said(ctx, outbox.Dest{Channel: c}, since, threads...); err != nil {
				break
			}
			said = append(said, got...)
		}
		if err == nil {
			var lost store.Lost
			if lost, err = db.Reconcile(ctx, said, outbox.Dest{Channel: ch.Docket}, time.Now()); err == nil {
				logger.Info("the restored record is reconciled with Slack", "backup", mark.Backup, "anchor", mark.Anchor,
					"lost_events", len(lost.Events), "case_numbers_kept_from_reuse", strings.Join(lost.Numbers, ","))
				kick()
				return
			}
		}
		logger.Error("the record was restored, but Slack's channels cannot be read to find what the restore lost; no case "+
			"is numbered until they can. Trying again in a minute",
			"err", err, "backup", mark.Backup)
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Minute):
		}
	}
}

// BoardOf is the public notice board of the configured commission. Its meetings' PDFs are
// drawn by maker, the one the commands draw the letters with (so that a reload's signers
// are in force on both, and the templates are held once); with maker nil the board
// offers none.
func BoardOf(cfg config.Config, engine *docket.Engine, db *store.Store, now func() time.Time,
	maker *letters.Maker) *web.Board {
	return &web.Board{Records: db, Commission: cfg.Letters.Commission.Name, Address: cfg.Letters.Commission.Address,
		URL: cfg.PublicURL + "/",
		Loc: engine.Cal.Location(), Now: now, Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Regular: func() docket.RegularSchedule { return cfg.Regular },
		Papers:  papersOf(cfg, engine, db, maker),
		// The year's page gives the public part of its annual report, of the cases the
		// ordinance has made known (report.PublicOf), read afresh.
		Figures: func(ctx context.Context, year int, now time.Time) (web.Figures, error) {
			cases, err := db.AllCases(ctx)
			if err != nil {
				return nil, err
			}
			return report.PublicOf(cases, year, engine, now), nil
		}}
}

// meetingPapers draws the PDF of a meeting's agenda as posted and of its approved open
// minutes for the board's meeting pages (web.Papers), on the commission's letterhead, with
// the members named as the configuration titles them.
type meetingPapers struct {
	maker  *letters.Maker
	names  docket.Names
	db     *store.Store
	loc    *time.Location
	engine *docket.Engine
}

// papersOf is the board's papers drawn by maker, or nil (no PDF offered) without one.
func papersOf(cfg config.Config, engine *docket.Engine, db *store.Store, maker *letters.Maker) web.Papers {
	if maker == nil {
		return nil
	}
	return meetingPapers{maker: maker, names: cfg.Roles.People.Titled(), db: db, loc: engine.Cal.Location(),
		engine: engine}
}

// AgendaPDF implements web.Papers: the agenda as its posting gave it, dated by it.
func (p meetingPapers) AgendaPDF(a docket.Agenda) ([]byte, error) {
	d, err := p.maker.AgendaPDF(a, docket.DateIn(a.Posted, p.loc))
	return d.Data, err
}

// MinutesPDF implements web.Papers: the open minutes drawn from the meeting's record, as
// `/ethics minutes` draws them and as they were published.
func (p meetingPapers) MinutesPDF(ctx context.Context, m docket.CommissionMeeting,
	all []docket.CommissionMeeting) ([]byte, error) {
	r, err := m.Record(all, p.engine,
		func(n string) (docket.Case, []docket.Entry, error) { return p.db.CaseRecord(ctx, n) })
	if err != nil {
		return nil, err
	}
	d, err := p.maker.MinutesPDF(r, docket.OpenPart, p.names)
	return d.Data, err
}

// handlerSwap serves the handler last set.
type handlerSwap struct{ h atomic.Pointer[http.Handler] }

func (s *handlerSwap) Set(h http.Handler) { s.h.Store(&h) }

func (s *handlerSwap) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	(*s.h.Load()).ServeHTTP(w, r)
}

// serveSite serves h on ln (nothing if ln is nil) until the returned close is called,
// which lets in-flight requests finish and returns the server's error, if it failed.
// down is closed if the server stops by itself.
func serveSite(ln net.Listener, h http.Handler, logger *slog.Logger) (stopSite func() error, down <-chan struct{}) {
	stopped := make(chan struct{})
	if ln == nil {
		return func() error { return nil }, stopped
	}
	ctx, stop := context.WithCancel(context.Background())
	var err error
	go func() {
		defer close(stopped)
		err = bot.Serve(ctx, ln, h)
		if err != nil && ctx.Err() == nil {
			logger.Error("a web server stopped: what it served is down", "addr", ln.Addr().String(), "err", err)
		}
	}()
	return sync.OnceValue(func() error {
		stop()
		<-stopped
		return err
	}), stopped
}

// listenURL is where a listener on addr can be reached from this machine:
// "http://localhost:3000/".
func listenURL(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "http://" + addr.String() + "/"
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() || ip.IsLoopback() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port) + "/"
}

// deliver runs the outbox's deliverer until the returned stop is called. Stopping ends a
// drain between two posts, then gives what was committed last (a notice recorded just
// before SIGTERM) a few seconds to go out; whatever is left goes at the next start.
func deliver(d *outbox.Deliverer, logger *slog.Logger) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		d.Run(ctx, DeliveryRetry, time.Now)
	}()
	return func() {
		cancel()
		<-done
		last, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if _, err := d.Drain(last, time.Now()); err != nil && last.Err() == nil {
			logger.Warn("outbox: some messages wait for the next start", "err", err)
		}
	}
}

// DeliveryRetry is how often the outbox is drained again when nothing wakes it: the retry
// interval for what Slack refused.
const DeliveryRetry = 30 * time.Second

// SlackReady checks that the configuration names the people and channels a Slack
// deployment needs.
func SlackReady(cfg config.Config) error {
	var missing []string
	if cfg.Path == "" {
		return fmt.Errorf("connecting to Slack needs ethicsbot.yml (or ETHICSBOT_CONFIG) naming the commissioners, the " +
			"clerk and the two channels; see docs/reference.md, \"Configuration\"")
	}
	if len(cfg.Roles.Commissioners) == 0 {
		missing = append(missing, "commissioners")
	}
	if len(cfg.Roles.Clerks) == 0 {
		missing = append(missing, "clerk")
	}
	if cfg.Channels.Docket == "" {
		missing = append(missing, "channels.docket")
	}
	if cfg.Channels.Notices == "" {
		missing = append(missing, "channels.notices")
	}
	if len(missing) > 0 {
		return fmt.Errorf("config %s: connecting to Slack needs %s", cfg.Path, strings.Join(missing, ", "))
	}
	// Slack posts to, and reads the history of, a channel by its id; a #name works only in
	// the console. Ids also survive a channel being renamed.
	for _, ch := range []struct{ key, value string }{{"channels.docket", cfg.Channels.Docket},
		{"channels.notices", cfg.Channels.Notices}} {
		if strings.HasPrefix(ch.value, "#") {
			return fmt.Errorf("config %s: %s is the channel name %q, but Slack needs the channel's id, such as C0123456789: "+
				"in Slack, open the channel's details; the id is at the bottom (names work only in the console)", cfg.Path,
				ch.key, ch.value)
		}
	}
	return nil
}

// chooseMode picks the transport from the environment: Socket Mode with the bot and app
// tokens, HTTP with the bot token and the signing secret, the console with none of them.
// Any one of them set means the user meant to connect to Slack, so a missing partner is an
// error that says what to set, not a quiet fall back to the console.
func chooseMode(getenv func(string) string) (string, error) {
	botToken, appToken, secret := getenv("SLACK_BOT_TOKEN") != "", getenv("SLACK_APP_TOKEN") != "",
		getenv("SLACK_SIGNING_SECRET") != ""
	switch {
	case botToken && appToken:
		return "socket", nil
	case botToken && secret:
		return "http", nil
	case botToken:
		return "", errors.New("SLACK_BOT_TOKEN is set, but connecting to Slack needs one more setting: SLACK_APP_TOKEN " +
			"(xapp-...) for Socket Mode, or SLACK_SIGNING_SECRET for HTTP mode; see docs/setup.md, \"Connecting to Slack\". " +
			"To use the console instead, unset SLACK_BOT_TOKEN")
	case appToken || secret:
		set, mode := "SLACK_APP_TOKEN", "Socket Mode"
		if !appToken {
			set, mode = "SLACK_SIGNING_SECRET", "HTTP mode"
		}
		return "", fmt.Errorf("%s is set, but %s also needs SLACK_BOT_TOKEN, the Bot User OAuth Token (xoxb-...); see "+
			"docs/setup.md, \"Connecting to Slack\". To use the console instead, unset %s", set, mode, set)
	}
	return "console", nil
}
