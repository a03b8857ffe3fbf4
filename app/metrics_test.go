package app

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"ethicsbot/app/apptest"
	"ethicsbot/outbox"
)

// scrape reads /metrics at addr and returns its text.
func scrape(t *testing.T, addr string) string {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("/metrics: %d %s\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), b)
	}
	return string(b)
}

// metric returns the value of the sample named exactly series (name and labels) in text.
func metric(text, series string) (float64, bool) {
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(series) + ` (\S+)$`).FindStringSubmatch(text)
	if m == nil {
		return 0, false
	}
	v, err := strconv.ParseFloat(m[1], 64)
	return v, err == nil
}

// TestMetrics runs ethicsbot in HTTP mode against a fake Slack, and reads /metrics as
// Prometheus would: the commands run, the posts delivered, the sweep, the outbox, the write
// errors and the last backup.
func TestMetrics(t *testing.T) {
	if testing.Short() {
		t.Skip("starts ethicsbot in a child process")
	}
	slackAPI := apptest.NewRecordingSlack(t)
	dir := t.TempDir()
	_, env := apptest.ChildEnv(t, dir, slackAPI.URL, "commissioners: [U_COMM1]\n"+apptest.FaultPeople)
	srv := apptest.StartServer(t, env, apptest.FreeAddr(t))
	defer srv.Cmd.Process.Kill()

	if _, ok := srv.File(1); !ok {
		t.Fatalf("the filing failed:\n%s", srv.Stderr.String())
	}
	if reply, _ := srv.Slash("m-2", "case 2026-999"); reply == "" {
		t.Fatalf("no answer to a refused command:\n%s", srv.Stderr.String())
	}
	// What the filing says is delivered by the outbox; wait until all of it is.
	var text string
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		text = scrape(t, srv.Addr)
		sent, _ := metric(text, `ethicsbot_deliveries_total{result="sent"}`)
		swept, _ := metric(text, `ethicsbot_sweeps_total{result="ok"}`) // the sweep at start
		_, anchored := metric(text, "ethicsbot_anchor_check_ok")        // the check at start
		if pending, ok := metric(text, "ethicsbot_outbox_pending"); sent >= 1 && swept >= 1 && anchored && ok &&
			pending == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no delivery counted:\n%s\n%s", text, srv.Stderr.String())
		}
	}
	for series, want := range map[string]float64{
		`ethicsbot_commands_total{command="file",outcome="ok"}`:    1,
		`ethicsbot_command_duration_seconds_count{command="file"}`: 1,
		`ethicsbot_deliveries_total{result="failed"}`:              0,
		`ethicsbot_outbox_pending`:                                 0,
		`ethicsbot_outbox_oldest_pending_age_seconds`:              0,
		`ethicsbot_write_errors_total`:                             0,
		`ethicsbot_sweeps_total{result="ok"}`:                      1, // the sweep at start; the next is an hour away
		`ethicsbot_sweeps_total{result="failed"}`:                  0,
		// Every component of /healthz: all well but the backup, which has not yet run.
		`ethicsbot_health{component="record"}`:    1,
		`ethicsbot_health{component="disk"}`:      1,
		`ethicsbot_health{component="slack"}`:     1,
		`ethicsbot_health{component="delivery"}`:  1,
		`ethicsbot_health{component="sweep"}`:     1,
		`ethicsbot_health{component="backup"}`:    0,
		`ethicsbot_slack_connected`:               1,
		`ethicsbot_config_last_reload_successful`: 1,
		`ethicsbot_anchor_check_ok`:               1, // at start
	} {
		if got, ok := metric(text, series); !ok || got != want {
			t.Errorf("%s = %v (present %v), want %v", series, got, ok, want)
		}
	}
	if !regexp.MustCompile(`(?m)^ethicsbot_commands_total\{command="[a-z_]+",outcome="refused"\} 1$`).MatchString(text) {
		t.Errorf("the refused command is not counted:\n%s", grepLines(text, "ethicsbot_commands_total"))
	}
	if v, _ := metric(text, "ethicsbot_sweep_last_success_timestamp_seconds"); v == 0 {
		t.Error("the sweep's last success is not set")
	}
	// The filing's commit and its delivery's, at least: each write that reached the disk.
	if v, _ := metric(text, "ethicsbot_commits_total"); v < 2 {
		t.Errorf("ethicsbot_commits_total = %v after a filing and its delivery, want 2 or more", v)
	}
	for _, absent := range []string{"ethicsbot_last_backup_age_seconds", "ethicsbot_last_backup_timestamp_seconds"} {
		if strings.Contains(text, "\n"+absent+" ") {
			t.Errorf("%s is given before any backup", absent)
		}
	}
	for _, present := range []string{"go_goroutines ", "process_resident_memory_bytes ", "ethicsbot_build_info{"} {
		if !strings.Contains(text, present) {
			t.Errorf("/metrics lacks %s", present)
		}
	}

	// The scheduled backup while it runs is seen at the next scrape.
	cliEnv := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		cliEnv[k] = v
	}
	// What `ethicsbot backup --scheduled` notes after its verified copy (cli's
	// TestOnlyScheduledBackupsAreNoted runs the command itself).
	if err := NoteBackup(cliEnv["ETHICSBOT_DB"], filepath.Join(dir, "copy.db"), time.Now()); err != nil {
		t.Fatalf("backup: %v", err)
	}
	text = scrape(t, srv.Addr)
	if v, ok := metric(text, "ethicsbot_last_backup_age_seconds"); !ok || v < 0 || v > 600 {
		t.Errorf("after a backup, its age is %v (present %v)\n%s", v, ok, grepLines(text, "backup"))
	}
	if v, _ := metric(text, `ethicsbot_health{component="backup"}`); v != 1 {
		t.Errorf("after the scheduled backup, its health is %v\n%s", v, grepLines(text, "backup"))
	}

	// A write the database refuses is counted: the file removed under the running bot.
	if err := os.Remove(cliEnv["ETHICSBOT_DB"]); err != nil {
		t.Fatal(err)
	}
	srv.File(3)
	text = scrape(t, srv.Addr)
	if v, _ := metric(text, "ethicsbot_write_errors_total"); v < 1 {
		t.Errorf("a refused write is not counted: %v", v)
	}
	if v, _ := metric(text, `ethicsbot_commands_total{command="file",outcome="failed"}`); v != 1 {
		t.Errorf("the filing that could not be recorded is counted %v times as failed, want 1", v)
	}
	srv.Cmd.Process.Signal(syscall.SIGTERM)
	<-srv.Exited
}

// grepLines returns the lines of text that contain s.
func grepLines(text, s string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, s) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// buttonSender records the buttons it is asked to draw.
type buttonSender struct {
	outbox.Sender
	drawn []outbox.Action
}

func (b *buttonSender) Send(ctx context.Context, to outbox.Dest, text outbox.Markup,
	key outbox.Key) (string, string, error) {
	return "C1", "1.1", nil // as text alone, without its buttons
}

func (b *buttonSender) SendActions(ctx context.Context, to outbox.Dest, text outbox.Markup, actions []outbox.Action,
	key outbox.Key) (string, string, error) {
	b.drawn = append(b.drawn, actions...)
	return "C1", "1.1", nil
}

// TestCountedSenderKeepsButtons: the sender that counts deliveries for /metrics, which
// wraps Slack's in production, passes a reminder's buttons on and counts
// the post.
func TestCountedSenderKeepsButtons(t *testing.T) {
	inner := &buttonSender{}
	results := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "t"}, []string{"result"})
	counted := countingSender{inner, results, slog.New(slog.DiscardHandler)}
	want := outbox.Action{Label: "Record: respondent notice", Form: "mail 2026-001 respondent"}
	if _, _, err := outbox.SendPost(context.Background(), counted, outbox.Dest{User: "U_CLERK"}, "x",
		[]outbox.Action{want}, outbox.Key{Series: "s", Step: "1"}); err != nil {
		t.Fatal(err)
	}
	if len(inner.drawn) != 1 || inner.drawn[0] != want {
		t.Errorf("Slack's sender was asked to draw %+v, want %+v", inner.drawn, want)
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(results)
	families, err := reg.Gather()
	if err != nil || len(families) != 1 || len(families[0].GetMetric()) != 1 ||
		families[0].GetMetric()[0].GetCounter().GetValue() != 1 {
		t.Errorf("counted %v (%v), want one post sent", families, err)
	}
}
