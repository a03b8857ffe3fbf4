package app

import (
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"ethicsbot/outbox"
)

// registerPace makes the metrics of the outbox's pace: how long delivery
// waited before a message, by destination, and how often Slack answered 429.
func (m *metrics) registerPace() {
	m.paceWait = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "ethicsbot_delivery_pace_wait_seconds",
		Help: "How long the outbox waited before a message to a destination (a channel, or @user for direct messages), " +
			"to keep to Slack's pace of about one message a second per channel; reason paced (the token bucket) or " +
			"rate_limited (Slack's 429 Retry-After).",
		Buckets: []float64{.1, .25, .5, 1, 2, 5, 10, 30, 60, 120, 300}},
		[]string{"to", "reason"})
	m.rateLimited = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ethicsbot_slack_rate_limited_total",
		Help: "Answers 429 (rate limited) from Slack to a message, by destination; the destination is then left alone for " +
			"the Retry-After Slack gives."},
		[]string{"to"})
}

// pacer is the outbox's Pacer, its waits observed: at Slack's pace, one message a second
// to a channel, or one per pace if SLACK_PACE sets it ("250ms"); "0" paces nothing (a test
// double, or a proxy that paces for ethicsbot), and nil is returned.
func (m *metrics) pacer(pace string) (*outbox.Pacer, error) {
	every := outbox.DefaultPaceEvery
	if pace != "" {
		d, err := time.ParseDuration(pace)
		if err != nil || d < 0 || d > time.Minute {
			return nil, fmt.Errorf("SLACK_PACE %q is not a duration such as 1s or 250ms, from 0 (no pacing) to 1m", pace)
		}
		if d == 0 {
			return nil, nil
		}
		every = d
	}
	return &outbox.Pacer{Every: every, Observe: func(to outbox.Dest, wait time.Duration, limited bool) {
		reason := "paced"
		if limited {
			reason = "rate_limited"
		}
		m.paceWait.WithLabelValues(to.String(), reason).Observe(wait.Seconds())
	}}, nil
}

// rateLimitedBy is bot.Sender's RateLimited: p holds the destination for Slack's
// Retry-After, and the answer is counted.
func (m *metrics) rateLimitedBy(p *outbox.Pacer) func(to outbox.Dest, wait time.Duration) {
	return func(to outbox.Dest, wait time.Duration) {
		m.rateLimited.WithLabelValues(to.String()).Inc()
		p.Hold(to, wait)
	}
}
