package app

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"ethicsbot/app/apptest"
	"ethicsbot/bot"
	"ethicsbot/outbox"
)

// served is every ethicsbot_ series name /metrics serves in the Slack modes once all has
// started (an anchor checked, delivery running), with the components of ethicsbot_health.
func served(t *testing.T) (names map[string]bool, components []string) {
	t.Helper()
	m, db := testStats(t, nil)
	if err := m.health.sweeps.start("@every 1m", time.UTC, time.Now()); err != nil {
		t.Fatal(err)
	}
	h := &bot.Health{DB: db, Slack: func() string { return "ok" },
		Parts: []bot.Part{{Name: "sweep", Check: m.health.sweeps.state}, backupPart(t.TempDir() + "/x.db")}}
	h.SetDelivery(&outbox.Deliverer{Store: db})
	m.watchHealth(h, h.Slack)
	m.checkedAnchor(func(context.Context) (string, string, string, error) { return "", "", "", nil }, time.Now)(
		context.Background())
	text := gather(t, m)
	names = map[string]bool{}
	for _, n := range regexp.MustCompile(`(?m)^# TYPE (ethicsbot_\w+) `).FindAllStringSubmatch(text, -1) {
		names[n[1]] = true
	}
	for _, c := range regexp.MustCompile(`(?m)^ethicsbot_health\{component="(\w+)"\}`).FindAllStringSubmatch(text, -1) {
		components = append(components, c[1])
	}
	slices.Sort(components)
	return names, components
}

// TestAlertRules: deploy/ethicsbot-alerts.yml names only metrics and components that
// /metrics serves; each alert waits for its condition at two evaluations a minute apart
// (`for:` of a minute or more); and each but EthicsbotDown holds only while Prometheus
// reaches ethicsbot, so that a bot that is simply down raises EthicsbotDown alone. Where
// promtool is installed (Debian's prometheus package; .ci/run installs it), the rules are
// also checked and their unit tests run: deploy/ethicsbot-alerts.test.yml.
func TestAlertRules(t *testing.T) {
	b, err := os.ReadFile(apptest.Path(t, "deploy/ethicsbot-alerts.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Groups []struct {
			Rules []struct {
				Alert, Expr, For string
			}
		}
	}
	if err := yaml.Unmarshal(b, &file); err != nil {
		t.Fatal(err)
	}
	names, components := served(t)
	if want := []string{"backup", "delivery", "disk", "record", "slack", "sweep"}; !slices.Equal(components, want) {
		t.Errorf("ethicsbot_health's components: %v, want %v", components, want)
	}
	alerted := map[string]bool{}
	rules := 0
	for _, g := range file.Groups {
		for _, r := range g.Rules {
			rules++
			if d, err := time.ParseDuration(r.For); err != nil || d < time.Minute {
				t.Errorf("%s: for: %q, want a minute or more: two evaluations in a row", r.Alert, r.For)
			}
			guarded := strings.HasSuffix(r.Expr, ` and on() up{job="ethicsbot"} == 1`)
			if down := r.Alert == "EthicsbotDown"; guarded == down {
				t.Errorf("%s: %s: every alert but EthicsbotDown must hold only while up == 1", r.Alert, r.Expr)
			}
			for _, n := range regexp.MustCompile(`\bethicsbot_\w+`).FindAllString(r.Expr, -1) {
				if !names[n] {
					t.Errorf("%s: %s is not served by /metrics", r.Alert, n)
				}
			}
			for _, c := range regexp.MustCompile(`component="(\w+)"`).FindAllStringSubmatch(r.Expr, -1) {
				if !slices.Contains(components, c[1]) {
					t.Errorf("%s: no component %q", r.Alert, c[1])
				}
				alerted[c[1]] = true
			}
		}
	}
	for _, c := range components {
		if !alerted[c] {
			t.Errorf("no alert on ethicsbot_health{component=%q}", c)
		}
	}
	if rules == 0 {
		t.Fatal("no rules read")
	}
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Log("promtool is not installed (apt-get install prometheus): the rules' own tests are not run")
		return
	}
	for _, args := range [][]string{{"check", "rules", "ethicsbot-alerts.yml"}, {"test", "rules",
		"ethicsbot-alerts.test.yml"}} {
		cmd := exec.Command(promtool, args...)
		cmd.Dir = apptest.Path(t, "deploy")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("promtool %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// TestMetricsDocumented: deploy/README.md's table of metrics lists every metric of
// ethicsbot's that /metrics serves.
func TestMetricsDocumented(t *testing.T) {
	b, err := os.ReadFile(apptest.Path(t, "deploy/README.md"))
	if err != nil {
		t.Fatal(err)
	}
	names, _ := served(t)
	for n := range names {
		if !strings.Contains(string(b), "`"+n) {
			t.Errorf("deploy/README.md does not list %s", n)
		}
	}
}
