package app

import (
	"context"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"ethicsbot/outbox"
)

// TestPaceMetrics: /metrics shows the outbox's pace by destination: the waits of the token
// bucket, the waits Slack's 429 asked for, and the 429 answers themselves.
func TestPaceMetrics(t *testing.T) {
	m := &metrics{reg: prometheus.NewRegistry()}
	m.registerPace()
	m.reg.MustRegister(m.paceWait, m.rateLimited)
	p, err := m.pacer("")
	if err != nil || p.Every != time.Second {
		t.Fatalf("the default pace: %v %v", p, err)
	}
	if none, err := m.pacer("0"); none != nil || err != nil {
		t.Errorf("SLACK_PACE=0: %v %v, want no pacer", none, err)
	}
	if _, err := m.pacer("fast"); err == nil || !strings.Contains(err.Error(), `SLACK_PACE "fast" is not a duration`) {
		t.Errorf("SLACK_PACE=fast: %v", err)
	}
	clk := time.Date(2026, 12, 7, 15, 0, 0, 0, time.UTC)
	p.Now = func() time.Time { return clk }
	p.Sleep = func(_ context.Context, d time.Duration) error { clk = clk.Add(d); return nil }
	docket := outbox.Dest{Channel: "C0DOCKET1"}
	for range 5 { // three at once, then two waits of a second
		if _, err := p.Wait(context.Background(), docket); err != nil {
			t.Fatal(err)
		}
	}
	m.rateLimitedBy(p)(docket, 20*time.Second) // Slack answered 429, Retry-After: 20
	if _, err := p.Wait(context.Background(), docket); err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	m.handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	b, _ := io.ReadAll(rec.Body)
	for series, want := range map[string]float64{
		`ethicsbot_delivery_pace_wait_seconds_count{reason="paced",to="#C0DOCKET1"}`:        2,
		`ethicsbot_delivery_pace_wait_seconds_sum{reason="paced",to="#C0DOCKET1"}`:          2,
		`ethicsbot_delivery_pace_wait_seconds_count{reason="rate_limited",to="#C0DOCKET1"}`: 1,
		`ethicsbot_delivery_pace_wait_seconds_sum{reason="rate_limited",to="#C0DOCKET1"}`:   20,
		`ethicsbot_slack_rate_limited_total{to="#C0DOCKET1"}`:                               1,
	} {
		if got, ok := metric(string(b), series); !ok || got != want {
			t.Errorf("%s = %v (%v), want %v\n%s", series, got, ok, want, b)
		}
	}
}
