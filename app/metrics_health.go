package app

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/robfig/cron/v3"

	"ethicsbot/bot"
	"ethicsbot/outbox"
)

// healthMetrics are the metrics an administrator alerts on, each by itself, from
// Prometheus alone: every component of /healthz, the connection to Slack, the
// configuration's reloads and the daily anchor check. deploy/ethicsbot-alerts.yml holds the
// alerts.
type healthMetrics struct {
	reloads    *prometheus.CounterVec
	reloadOK   prometheus.Gauge
	anchorOK   prometheus.Gauge
	anchorAt   prometheus.Gauge
	anchorMu   sync.Mutex
	anchorSeen bool // the anchor's gauges are registered at its first check: absent before
	sweeps     sweepWatch
}

var healthDesc = prometheus.NewDesc("ethicsbot_health",
	"How each component of /healthz stands: 1 ok, 0 not. record: the database can be read; disk: written; slack: "+
		"connected, the bot token taken; delivery: no message has waited longer than healthz.undelivered_after; sweep: "+
		"the reminder sweep succeeds on schedule; backup: the last scheduled backup is less than 26 hours old. A "+
		"component that cannot be judged (the disk while the database cannot be read) is left out.",
	[]string{"component"}, nil)

// registerHealth makes the health metrics.
func (m *metrics) registerHealth() {
	h := &m.health
	h.reloads = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ethicsbot_config_reloads_total",
		Help: "Reloads of ethicsbot.yml (SIGHUP, systemctl reload) by result: ok, or failed (the file was refused and the " +
			"configuration in force kept; the log says the line and the problem)."}, []string{"result"})
	h.reloadOK = prometheus.NewGauge(prometheus.GaugeOpts{Name: "ethicsbot_config_last_reload_successful",
		Help: "1 if the last reload of ethicsbot.yml was taken (or none was asked since start), 0 if it was refused."})
	h.reloadOK.Set(1)
	h.anchorOK = prometheus.NewGauge(prometheus.GaugeOpts{Name: "ethicsbot_anchor_check_ok",
		Help: "1 if the record still held the anchor posted last to the docket channel when it was last checked (at " +
			"start, and daily before the day's anchor is posted); 0 if it did not, or could not be checked. Absent " +
			"until the first check."})
	h.anchorAt = prometheus.NewGauge(prometheus.GaugeOpts{Name: "ethicsbot_anchor_check_timestamp_seconds",
		Help: "When the record was last checked against the anchor posted last, in Unix seconds. Absent until the " +
			"first check."})
	for _, r := range []string{"ok", "failed"} {
		h.reloads.WithLabelValues(r)
	}
	m.reg.MustRegister(h.reloads, h.reloadOK)
}

// watchHealth makes /metrics show each component of h as ethicsbot_health, judged at
// each scrape as /healthz judges it; and, in the Slack modes (slack not nil), whether
// ethicsbot is connected to Slack.
func (m *metrics) watchHealth(h *bot.Health, slack func() string) {
	m.reg.MustRegister(healthCollector{h})
	if slack != nil {
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "ethicsbot_slack_connected",
			Help: "1 while ethicsbot is connected to Slack: in Socket Mode the websocket is open; in HTTP mode Slack's " +
				"routes answer. 0 while it connects or reconnects. Absent in the console."},
			func() float64 {
				if slack() == "ok" {
					return 1
				}
				return 0
			}))
	}
}

// healthCollector reads /healthz's components at each scrape.
type healthCollector struct{ h *bot.Health }

func (c healthCollector) Describe(ch chan<- *prometheus.Desc) { ch <- healthDesc }

func (c healthCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, p := range c.h.Components(ctx) {
		v := 0.0
		if p.OK {
			v = 1
		}
		ch <- prometheus.MustNewConstMetric(healthDesc, prometheus.GaugeValue, v, p.Name)
	}
}

// reloaded is the reloader's Observe: a reload that was taken, or refused with err.
func (m *metrics) reloaded(err error) {
	if err != nil {
		m.health.reloads.WithLabelValues("failed").Inc()
		m.health.reloadOK.Set(0)
		return
	}
	m.health.reloads.WithLabelValues("ok").Inc()
	m.health.reloadOK.Set(1)
}

// anchorCheck is the daily check of the record against the anchor posted last
// (anchorOf), with its result shown on /metrics.
type anchorCheck = func(ctx context.Context) (anchor, held, problem string, err error)

// checkedAnchor is check, its every result noted at now(): the record holds the anchor
// posted last, or it does not (a problem), or it could not be read.
func (m *metrics) checkedAnchor(check anchorCheck, now func() time.Time) anchorCheck {
	return func(ctx context.Context) (string, string, string, error) {
		a, held, problem, err := check(ctx)
		h := &m.health
		h.anchorMu.Lock()
		defer h.anchorMu.Unlock()
		if !h.anchorSeen {
			m.reg.MustRegister(h.anchorOK, h.anchorAt)
			h.anchorSeen = true
		}
		ok := 0.0
		if err == nil && problem == "" {
			ok = 1
		}
		h.anchorOK.Set(ok)
		h.anchorAt.Set(float64(now().Unix()))
		return a, held, problem, err
	}
}

// sweepWatch is how the reminder sweep stands, for /healthz and ethicsbot_health: told of
// each scheduled sweep, it says "failed" after one that failed, and "late" when none has
// succeeded since two of the schedule's runs ago, and a minute more for the sweep to run:
// reminders are then not being planned.
type sweepWatch struct {
	mu       sync.Mutex
	spec     string
	schedule cron.Schedule // nil until the sweeps start
	loc      *time.Location
	since    time.Time // the last sweep that succeeded, or when the sweeps started
	failed   bool      // the last sweep failed
}

// start notes that sweeps run from now on spec (reminders.sweep), in loc.
func (w *sweepWatch) start(spec string, loc *time.Location, now time.Time) error {
	s, err := cron.ParseStandard(spec)
	if err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.spec, w.schedule, w.loc, w.since = spec, s, loc, now
	return nil
}

// observe notes a sweep that ended at now, failed with err if not nil.
func (w *sweepWatch) observe(now time.Time, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.failed = err != nil
	if err == nil {
		w.since = now
	}
}

// state is how the sweep stands at now, for bot.Part.
func (w *sweepWatch) state(now time.Time) (string, string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.schedule == nil {
		return "", "" // the sweeps have not started: ethicsbot waits for Slack
	}
	if w.failed {
		return "failed", "the last reminder sweep failed: reminders are not being planned; the log says why"
	}
	if due := w.schedule.Next(w.schedule.Next(w.since.In(w.loc))).Add(time.Minute); now.After(due) {
		return "late", fmt.Sprintf("no reminder sweep has succeeded since %s, two runs of reminders.sweep (%s) ago: "+
			"reminders are not being planned; the log says why", w.since.UTC().Format(time.RFC3339), w.spec)
	}
	return "ok", ""
}

// backupMaxAge is how old the last scheduled backup may be before /healthz says so: the
// nightly timer's (deploy/ethicsbot-backup.timer, 02:30 and up to 10 minutes later), with
// two hours to spare for a slow copy or a machine started late.
const backupMaxAge = 26 * time.Hour

// backupPart is the last scheduled backup of database, for /healthz.
func backupPart(database string) bot.Part {
	return bot.Part{Name: "backup", Check: func(now time.Time) (string, string) {
		at, ok := LastBackup(database)
		switch {
		case !ok:
			return "never", "no scheduled backup has succeeded yet: enable ethicsbot-backup.timer " +
				"(deploy/README.md, \"Nightly backup\"), or give --scheduled to the `ethicsbot backup` your cron runs"
		case now.Sub(at) > backupMaxAge:
			return "old", "the last scheduled backup succeeded " + outbox.Minutes(now.Sub(at).Truncate(time.Hour)) +
				" ago, at " + at.UTC().Format(time.RFC3339) + ": see `journalctl -u ethicsbot-backup`"
		}
		return "ok", ""
	}}
}

// checkAnchorAtStart checks the record against the anchor posted last, once at start, so
// that /metrics has the check's result without waiting for the day's post; a record that no
// longer holds it is logged, and the day's post says so in the docket channel.
func checkAnchorAtStart(ctx context.Context, check anchorCheck, logger *slog.Logger) {
	_, held, problem, err := check(ctx)
	switch {
	case err != nil && ctx.Err() == nil:
		logger.Error("the record could not be checked against the anchor posted last", "err", err)
	case problem != "":
		logger.Error("the record no longer holds the anchor posted last: someone changed the database outside "+
			"ethicsbot; `ethicsbot verify --anchor` shows it (docs/operations.md)", "anchor", held, "problem", problem)
	}
}
