package app

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"ethicsbot/outbox"
	"ethicsbot/store"
	"ethicsbot/version"
)

// metrics is what /metrics reports, in the Prometheus text format. Counters are counted as
// things happen (commands, deliveries, sweeps); the outbox, the write errors and the last
// backup are read from the store at each scrape, so they are never stale.
type metrics struct {
	reg         *prometheus.Registry
	commands    *prometheus.CounterVec
	latency     *prometheus.HistogramVec
	deliveries  *prometheus.CounterVec
	sweeps      *prometheus.CounterVec
	sweepTook   prometheus.Histogram
	sweepLastOK prometheus.Gauge
	paceWait    *prometheus.HistogramVec // see metrics_pace.go
	rateLimited *prometheus.CounterVec
	health      healthMetrics // see metrics_health.go
	// log is told, at debug level (ETHICSBOT_LOG_LEVEL=debug), of each command, delivery and
	// sweep that the metrics count.
	log *slog.Logger
}

// newMetrics registers ethicsbot's metrics, the Go runtime's and the process's. db is read
// at each scrape; database is its path, beside which `ethicsbot backup` notes its last copy.
func newMetrics(db *store.Store, database string, now func() time.Time, log *slog.Logger) *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		log: log,
		commands: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ethicsbot_commands_total",
			Help: "/ethics subcommands run, by name and outcome: ok, refused (the docket said no and the reply says why) or " +
				"failed (nothing was recorded, for a reason the user cannot act on)."},
			[]string{"command", "outcome"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "ethicsbot_command_duration_seconds",
			Help:    "How long each /ethics subcommand took, its transaction included.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2, 3, 5, 10}},
			[]string{"command"}),
		deliveries: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ethicsbot_deliveries_total",
			Help: "Attempts to deliver a post from the outbox to Slack, by result: sent; found (posted before a crash and " +
				"found again, not sent twice); failed (Slack refused or did not answer; it is retried)."},
			[]string{"result"}),
		sweeps: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ethicsbot_sweeps_total",
			Help: "Reminder sweeps run, by result: ok or failed."}, []string{"result"}),
		sweepTook: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "ethicsbot_sweep_duration_seconds",
			Help: "How long each reminder sweep took.", Buckets: prometheus.DefBuckets}),
		sweepLastOK: prometheus.NewGauge(prometheus.GaugeOpts{Name: "ethicsbot_sweep_last_success_timestamp_seconds",
			Help: "When the last reminder sweep that succeeded ended, in Unix seconds; 0 before the first."}),
	}
	for _, r := range []string{"sent", "found", "failed"} {
		m.deliveries.WithLabelValues(r) // every result shows, at 0, from the first scrape
	}
	for _, r := range []string{"ok", "failed"} {
		m.sweeps.WithLabelValues(r)
	}
	m.registerPace()
	m.registerHealth()
	b := version.Read()
	build := prometheus.NewGauge(prometheus.GaugeOpts{Name: "ethicsbot_build_info", Help: "The running build: always 1.",
		ConstLabels: prometheus.Labels{"version": b.Version, "commit": b.Commit, "goversion": b.Go}})
	build.Set(1)
	m.reg.MustRegister(m.commands, m.latency, m.deliveries, m.sweeps, m.sweepTook, m.sweepLastOK, m.paceWait,
		m.rateLimited, build,
		&storeCollector{db: db, database: database, now: now, log: log},
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// handler serves /metrics. A store that cannot be read leaves its metrics out of that
// scrape, and the rest are still served.
func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError})
}

// command is commands.Service's Observe.
func (m *metrics) command(name, outcome string, took time.Duration) {
	m.commands.WithLabelValues(name, outcome).Inc()
	m.latency.WithLabelValues(name).Observe(took.Seconds())
	m.log.Debug("command", "command", name, "outcome", outcome, "duration", took)
}

// sweep is reminders.Sweeper's Observe.
func (m *metrics) sweep(took time.Duration, err error) {
	m.sweepTook.Observe(took.Seconds())
	m.health.sweeps.observe(time.Now(), err) // /healthz's "sweep"
	if err != nil {
		m.sweeps.WithLabelValues("failed").Inc()
		m.log.Debug("reminder sweep", "result", "failed", "duration", took, "err", err)
		return
	}
	m.sweeps.WithLabelValues("ok").Inc()
	m.sweepLastOK.Set(float64(time.Now().Unix()))
	m.log.Debug("reminder sweep", "result", "ok", "duration", took)
}

// sender counts the deliverer's attempts through s by result; it replies in threads and
// updates cards in place if s does.
func (m *metrics) sender(s outbox.Sender) outbox.Sender {
	c := countingSender{s, m.deliveries, m.log}
	if th, ok := s.(outbox.Threader); ok {
		return countingThreader{c, th}
	}
	return c
}

// countingThreader is a countingSender over an outbox.Threader.
type countingThreader struct {
	countingSender
	th outbox.Threader
}

func (c countingThreader) Reply(ctx context.Context, to outbox.Dest, thread string, text outbox.Markup,
	key outbox.Key) (string, string, error) {
	start := time.Now()
	ch, ts, err := c.th.Reply(ctx, to, thread, text, key)
	c.count(key, start, err, "sent")
	return ch, ts, err
}

func (c countingThreader) FindReply(ctx context.Context, to outbox.Dest, thread string,
	key outbox.Key) (string, string, bool, error) {
	start := time.Now()
	ch, ts, found, err := c.th.FindReply(ctx, to, thread, key)
	if err != nil || found {
		c.count(key, start, err, "found")
	}
	return ch, ts, found, err
}

func (c countingThreader) Update(ctx context.Context, channel, ts string, text outbox.Markup, actions []outbox.Action,
	key outbox.Key) error {
	start := time.Now()
	err := c.th.Update(ctx, channel, ts, text, actions, key)
	c.count(key, start, err, "sent")
	return err
}

// count counts an attempt to deliver key's post, begun at start: failed if err, else ok;
// at debug level, it is logged.
func (c countingSender) count(key outbox.Key, start time.Time, err error, ok string) {
	result := ok
	if err != nil {
		result = "failed"
	}
	c.results.WithLabelValues(result).Inc()
	if c.log.Enabled(context.Background(), slog.LevelDebug) {
		attrs := []any{"to", key.To.String(), "key", key.String(), "result", result, "duration", time.Since(start)}
		if err != nil {
			attrs = append(attrs, "err", err)
		}
		c.log.Debug("delivery", attrs...)
	}
}

type countingSender struct {
	outbox.Sender
	results *prometheus.CounterVec
	log     *slog.Logger
}

func (c countingSender) Send(ctx context.Context, to outbox.Dest, text outbox.Markup,
	key outbox.Key) (string, string, error) {
	start := time.Now()
	ch, ts, err := c.Sender.Send(ctx, to, text, key)
	c.count(key, start, err, "sent")
	return ch, ts, err
}

// SendActions counts as Send does, and passes the post's buttons on to the sender that
// draws them (a reminder's step).
func (c countingSender) SendActions(ctx context.Context, to outbox.Dest, text outbox.Markup, actions []outbox.Action,
	key outbox.Key) (string, string, error) {
	start := time.Now()
	ch, ts, err := outbox.SendPost(ctx, c.Sender, to, text, actions, key)
	c.count(key, start, err, "sent")
	return ch, ts, err
}

// Probe asks Slack whether it still takes the token, if the sender beneath can: the
// deliverer finds a token revoked while nothing is to be said only through it. It is not
// a delivery, and is not counted.
func (c countingSender) Probe(ctx context.Context) error {
	p, ok := c.Sender.(outbox.Prober)
	if !ok {
		return errors.ErrUnsupported // the deliverer then leaves the token's state as it is
	}
	return p.Probe(ctx)
}

func (c countingSender) Find(ctx context.Context, to outbox.Dest, key outbox.Key,
	since time.Time) (string, string, bool, error) {
	start := time.Now()
	ch, ts, found, err := c.Sender.Find(ctx, to, key, since)
	if err != nil || found {
		c.count(key, start, err, "found")
	}
	return ch, ts, found, err
}

// storeCollector reads, at each scrape, what the store knows: the outbox's backlog, the
// writes it refused, and when the scheduled backup last made a verified copy.
type storeCollector struct {
	db       *store.Store
	database string
	now      func() time.Time
	log      *slog.Logger
}

var (
	outboxPendingDesc = prometheus.NewDesc("ethicsbot_outbox_pending",
		"Posts in the outbox that are due and not yet delivered.", nil, nil)
	outboxOldestDesc = prometheus.NewDesc("ethicsbot_outbox_oldest_pending_age_seconds",
		"How long the oldest post due and not yet delivered has waited; 0 when none waits.", nil, nil)
	writeErrorsDesc = prometheus.NewDesc("ethicsbot_write_errors_total",
		"Writes the database refused since start: a full disk, a read-only, removed or replaced file, a lock held by "+
			"another program. Not actions the docket refused.", nil, nil)
	commitsDesc = prometheus.NewDesc("ethicsbot_commits_total",
		"Transactions the database committed since start, each waiting for the disk (an fsync): a filing is one, "+
			"and the delivery of what it says is one more for each batch the outbox drains.", nil, nil)
	backupTimeDesc = prometheus.NewDesc("ethicsbot_last_backup_timestamp_seconds",
		"When the scheduled backup (`ethicsbot backup --scheduled`, the nightly timer's) last wrote a verified copy of "+
			"this database, in Unix seconds; a copy by hand or by a migration is not counted. Absent if it never has.",
		nil, nil)
	backupAgeDesc = prometheus.NewDesc("ethicsbot_last_backup_age_seconds",
		"Seconds since the scheduled backup (`ethicsbot backup --scheduled`) last wrote a verified copy of this "+
			"database. Absent if it never has.", nil, nil)
)

func (c *storeCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{outboxPendingDesc, outboxOldestDesc, writeErrorsDesc, commitsDesc,
		backupTimeDesc, backupAgeDesc} {
		ch <- d
	}
}

func (c *storeCollector) Collect(ch chan<- prometheus.Metric) {
	now := c.now()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if n, oldest, err := c.db.OutboxBacklog(ctx, now); err != nil {
		c.log.Warn("metrics: the outbox cannot be read", "err", err)
		ch <- prometheus.NewInvalidMetric(outboxPendingDesc, err)
	} else {
		age := 0.0
		if !oldest.IsZero() {
			age = now.Sub(oldest).Seconds()
		}
		ch <- prometheus.MustNewConstMetric(outboxPendingDesc, prometheus.GaugeValue, float64(n))
		ch <- prometheus.MustNewConstMetric(outboxOldestDesc, prometheus.GaugeValue, age)
	}
	ch <- prometheus.MustNewConstMetric(writeErrorsDesc, prometheus.CounterValue, float64(c.db.WriteErrors()))
	ch <- prometheus.MustNewConstMetric(commitsDesc, prometheus.CounterValue, float64(c.db.Commits()))
	if at, ok := LastBackup(c.database); ok {
		ch <- prometheus.MustNewConstMetric(backupTimeDesc, prometheus.GaugeValue, float64(at.Unix()))
		ch <- prometheus.MustNewConstMetric(backupAgeDesc, prometheus.GaugeValue, now.Sub(at).Seconds())
	}
}

// BackupNote is the file beside the database that `ethicsbot backup --scheduled` touches
// after each verified copy: its time of change is the backup's time. Only the scheduled
// backup (the nightly timer's, or a cron line's) notes it: a copy taken by hand, or by a
// migration, says nothing of whether the nightly backups run. The file, not the record,
// holds it, because taking a copy must not write to the record; and its time of change,
// not its content, is read, so a service that cannot read a note written by root (mode
// 0600) still sees when it was written.
func BackupNote(database string) string { return database + ".last-backup" }

// NoteBackup records that a verified copy of database was written to dest. A note that
// cannot be written is said on stderr, and the backup still stands.
func NoteBackup(database, dest string, now time.Time) error {
	return os.WriteFile(BackupNote(database), []byte(now.UTC().Format(time.RFC3339)+" "+dest+"\n"), 0o600)
}

// LastBackup is when `ethicsbot backup --scheduled` last noted a verified copy of database.
func LastBackup(database string) (time.Time, bool) {
	fi, err := os.Stat(BackupNote(database))
	if err != nil {
		return time.Time{}, false
	}
	return fi.ModTime(), true
}
