package app

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"ethicsbot/app/apptest"
	"ethicsbot/bot"
	"ethicsbot/config"
	"ethicsbot/outbox"
	"ethicsbot/store"
)

// testStats are the metrics of a fresh record in a temporary folder, logged to log (nil:
// nowhere), and the record.
func testStats(t *testing.T, log *slog.Logger) (*metrics, *store.Store) {
	t.Helper()
	env := apptest.WriteConfig(t, apptest.SlackConfig)
	env["ETHICSBOT_DB"] = filepath.Join(t.TempDir(), "ethicsbot.db")
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	_, db := apptest.MustOpenRecord(t, cfg)
	t.Cleanup(func() { db.Close() })
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return newMetrics(db, cfg.Database, time.Now, log), db
}

// TestServiceProbesTheToken: with nothing to say, the deliverer still asks Slack every
// few minutes whether it takes the bot token (auth.test), through the sender that counts
// deliveries for /metrics, as the service wires them: a token revoked while all is quiet
// is found then, not at the next message.
func TestServiceProbesTheToken(t *testing.T) {
	srv, calls := apptest.AuthSlack(t, http.StatusOK, `{"ok":false,"error":"token_revoked"}`)
	m, db := testStats(t, nil)
	api := slack.New("xoxb-1", slack.OptionAPIURL(srv.URL+"/api/"))
	d := &outbox.Deliverer{Store: db, Sender: m.sender(&bot.Sender{API: api})}
	ctx, now := context.Background(), time.Now()
	d.Probe(ctx, now)
	h, err := d.Health(ctx, now)
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 1 || h.TokenRefused != "token_revoked" {
		t.Errorf("after a probe: %d calls to auth.test, the token refused %q; want 1 and token_revoked", calls.Load(),
			h.TokenRefused)
	}
}

// TestRefusedTokenNamesTheCredential: under systemd the bot token is a credential file
// (LoadCredential=), and a refused token at start says to put the new one there, not in an
// environment variable the unit does not use; SLACK_BOT_TOKEN_FILE names its file.
func TestRefusedTokenNamesTheCredential(t *testing.T) {
	srv, _ := apptest.AuthSlack(t, http.StatusOK, `{"ok":false,"error":"token_revoked"}`)
	creds := t.TempDir()
	for _, name := range []string{"slack-bot-token", "slack-signing-secret"} {
		if err := os.WriteFile(filepath.Join(creds, name), []byte("xoxb-revoked\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(t.TempDir(), "bot-token")
	if err := os.WriteFile(file, []byte("xoxb-revoked\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		env  map[string]string
		want string
	}{
		{"Credential", map[string]string{"CREDENTIALS_DIRECTORY": creds},
			"put the new Bot User OAuth Token (xoxb-...) in the credential file that ethicsbot's systemd unit names in " +
				"LoadCredential=slack-bot-token:… (/etc/ethicsbot/credentials/slack-bot-token in deploy/ethicsbot.service), " +
				"and restart ethicsbot"},
		{"File", map[string]string{"SLACK_BOT_TOKEN_FILE": file, "SLACK_SIGNING_SECRET": "s"},
			"put the new Bot User OAuth Token (xoxb-...) in the file " + file + " (SLACK_BOT_TOKEN_FILE), and restart"},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := apptest.WriteConfig(t, apptest.SlackConfig)
			env["ETHICSBOT_DB"] = filepath.Join(t.TempDir(), "ethicsbot.db")
			env["SLACK_API_URL"], env["ETHICSBOT_ADDR"], env["ETHICSBOT_ADMIN_ADDR"] = srv.URL+"/api", "127.0.0.1:0",
				"127.0.0.1:0"
			for k, v := range c.env {
				env[k] = v
			}
			code, _, errOut := run(t, env, "")
			if code != 1 || !strings.Contains(errOut, "Slack refused the bot token (token_revoked): the token was revoked. "+
				"To do: reinstall the app in Slack (api.slack.com/apps, Install App), "+c.want) ||
				strings.Contains(errOut, "SLACK_BOT_TOKEN in") {
				t.Errorf("exit %d, stderr %s", code, errOut)
			}
		})
	}
}

// gather is the text /metrics would serve from m.
func gather(t *testing.T, m *metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("/metrics: %d %s", rec.Code, rec.Body.String())
	}
	return rec.Body.String()
}

// TestHealthOnMetrics: every component of /healthz is a metric, ethicsbot_health
// {component}, judged at each scrape as /healthz judges it, beside whether ethicsbot is
// connected to Slack: an administrator can alert on each from Prometheus alone.
func TestHealthOnMetrics(t *testing.T) {
	m, db := testStats(t, nil)
	state := "connecting"
	sweep := "ok"
	h := &bot.Health{DB: db, Slack: func() string { return state },
		Parts: []bot.Part{{Name: "sweep", Check: func(time.Time) (string, string) { return sweep, "the sweep failed" }}}}
	m.watchHealth(h, h.Slack)
	text := gather(t, m)
	for series, want := range map[string]float64{
		`ethicsbot_health{component="record"}`: 1,
		`ethicsbot_health{component="disk"}`:   1,
		`ethicsbot_health{component="slack"}`:  0,
		`ethicsbot_health{component="sweep"}`:  1,
		`ethicsbot_slack_connected`:            0,
	} {
		if got, ok := metric(text, series); !ok || got != want {
			t.Errorf("%s = %v (present %v), want %v\n%s", series, got, ok, want, grepLines(text, "ethicsbot_"))
		}
	}
	state, sweep = "ok", "failed"
	text = gather(t, m)
	for series, want := range map[string]float64{
		`ethicsbot_health{component="slack"}`: 1,
		`ethicsbot_health{component="sweep"}`: 0,
		`ethicsbot_slack_connected`:           1,
	} {
		if got, ok := metric(text, series); !ok || got != want {
			t.Errorf("%s = %v (present %v), want %v", series, got, ok, want)
		}
	}
}

// TestSweepHealth: the sweep is "failed" after a sweep that failed, and "late" when none has
// succeeded for two runs of its schedule and a minute, whatever the schedule: a sweep every
// minute is late after 3 minutes, one every hour after 2 hours and a minute.
func TestSweepHealth(t *testing.T) {
	start := time.Date(2026, 12, 4, 10, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		spec       string
		ok, late   time.Duration // after the last success
		lateReason string
	}{
		{"@every 1m", 2*time.Minute + 59*time.Second, 3*time.Minute + time.Second,
			"no reminder sweep has succeeded since 2026-12-04T10:05:00Z, two runs of reminders.sweep (@every 1m) ago"},
		{"@every 1h", 2 * time.Hour, 2*time.Hour + 2*time.Minute, "(@every 1h)"},
		{"*/5 * * * *", 10 * time.Minute, 11*time.Minute + time.Second, "(*/5 * * * *)"},
	} {
		t.Run(c.spec, func(t *testing.T) {
			var w sweepWatch
			if state, _ := w.state(start); state != "" {
				t.Errorf("before the sweeps start: %q, want nothing", state)
			}
			if err := w.start(c.spec, time.UTC, start); err != nil {
				t.Fatal(err)
			}
			last := start.Add(5 * time.Minute)
			w.observe(last, nil)
			if state, reason := w.state(last.Add(c.ok)); state != "ok" {
				t.Errorf("%v after the last sweep: %q %q, want ok", c.ok, state, reason)
			}
			if state, reason := w.state(last.Add(c.late)); state != "late" || !strings.Contains(reason, c.lateReason) {
				t.Errorf("%v after the last sweep: %q %q, want late", c.late, state, reason)
			}
			w.observe(last.Add(c.late), errors.New("disk I/O error"))
			if state, reason := w.state(last.Add(c.late)); state != "failed" ||
				!strings.Contains(reason, "the last reminder sweep failed") {
				t.Errorf("after a failed sweep: %q %q", state, reason)
			}
			w.observe(last.Add(c.late+time.Minute), nil)
			if state, _ := w.state(last.Add(c.late + time.Minute)); state != "ok" {
				t.Errorf("after a good sweep again: %q", state)
			}
		})
	}
	var w sweepWatch
	if err := w.start("every minute", time.UTC, start); err == nil {
		t.Error("a schedule cron does not read was taken")
	}
}

// TestBackupHealth: /healthz's "backup" is "never" until the scheduled backup has noted a
// copy, "ok" while that is less than 26 hours old, and "old" after, saying when.
func TestBackupHealth(t *testing.T) {
	database := filepath.Join(t.TempDir(), "ethicsbot.db")
	p := backupPart(database)
	now := time.Now()
	if state, reason := p.Check(now); state != "never" || !strings.Contains(reason, "enable ethicsbot-backup.timer") {
		t.Errorf("before any backup: %q %q", state, reason)
	}
	at := now.Add(-25 * time.Hour).Truncate(time.Second)
	if err := NoteBackup(database, "/var/backups/ethicsbot/x.db", at); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(BackupNote(database), at, at); err != nil {
		t.Fatal(err)
	}
	if state, reason := p.Check(now); state != "ok" {
		t.Errorf("25 hours after the backup: %q %q", state, reason)
	}
	if state, reason := p.Check(now.Add(2 * time.Hour)); state != "old" ||
		reason != "the last scheduled backup succeeded 27 hours ago, at "+at.UTC().Format(time.RFC3339)+
			": see `journalctl -u ethicsbot-backup`" {
		t.Errorf("27 hours after the backup: %q %q", state, reason)
	}
}

// TestReloadsOnMetrics: a reload of ethicsbot.yml that is refused shows on /metrics until
// one is taken, so that it can be alerted on.
func TestReloadsOnMetrics(t *testing.T) {
	rt := newReloadTest(t, apptest.SlackConfig)
	m, _ := testStats(t, nil)
	rt.r.observe = m.reloaded
	check := func(what string, want map[string]float64) {
		t.Helper()
		text := gather(t, m)
		for series, v := range want {
			if got, ok := metric(text, series); !ok || got != v {
				t.Errorf("%s: %s = %v (present %v), want %v", what, series, got, ok, v)
			}
		}
	}
	check("at start", map[string]float64{`ethicsbot_config_last_reload_successful`: 1,
		`ethicsbot_config_reloads_total{result="failed"}`: 0})
	rt.write(t, "commissioners: [U0COMM1\n")
	if err := rt.r.Reload(); err == nil {
		t.Fatal("a broken file was taken")
	}
	check("refused", map[string]float64{`ethicsbot_config_last_reload_successful`: 0,
		`ethicsbot_config_reloads_total{result="failed"}`: 1, `ethicsbot_config_reloads_total{result="ok"}`: 0})
	rt.write(t, apptest.SlackConfig)
	if err := rt.r.Reload(); err != nil {
		t.Fatal(err)
	}
	check("taken", map[string]float64{`ethicsbot_config_last_reload_successful`: 1,
		`ethicsbot_config_reloads_total{result="failed"}`: 1, `ethicsbot_config_reloads_total{result="ok"}`: 1})
}

// TestAnchorCheckOnMetrics: the check of the record against the anchor posted last shows
// on /metrics once it has run: 1 while the record holds it, 0 when it does not or could
// not be checked.
func TestAnchorCheckOnMetrics(t *testing.T) {
	m, _ := testStats(t, nil)
	var problem string
	var err error
	at := time.Date(2026, 12, 4, 8, 0, 0, 0, time.UTC)
	check := m.checkedAnchor(func(context.Context) (string, string, string, error) {
		return "2:abc", "1:def", problem, err
	}, func() time.Time { return at })
	if text := gather(t, m); strings.Contains(text, "ethicsbot_anchor_check") {
		t.Errorf("the anchor's check is shown before it ran:\n%s", grepLines(text, "anchor"))
	}
	for _, c := range []struct {
		problem string
		err     error
		want    float64
	}{{"", nil, 1}, {"event 1 differs", nil, 0}, {"", errors.New("database is locked"), 0}, {"", nil, 1}} {
		problem, err = c.problem, c.err
		check(context.Background())
		text := gather(t, m)
		if got, ok := metric(text, "ethicsbot_anchor_check_ok"); !ok || got != c.want {
			t.Errorf("problem %q, err %v: ethicsbot_anchor_check_ok = %v (present %v), want %v", c.problem, c.err, got, ok,
				c.want)
		}
		if got, _ := metric(text, "ethicsbot_anchor_check_timestamp_seconds"); got != float64(at.Unix()) {
			t.Errorf("checked at %v, want %v", got, at.Unix())
		}
	}
}

// TestDebugLog: ETHICSBOT_LOG_LEVEL=debug logs each command with its outcome and how long
// it took, each delivery with its destination, key and result, and each sweep; at the
// default level none of them.
func TestDebugLog(t *testing.T) {
	for _, level := range []string{"debug", ""} {
		t.Run("level="+level, func(t *testing.T) {
			var buf strings.Builder
			logger, err := newLogger(&buf, func(k string) string {
				return map[string]string{"ETHICSBOT_LOG_LEVEL": level}[k]
			})
			if err != nil {
				t.Fatal(err)
			}
			m, _ := testStats(t, logger)
			m.command("file", "ok", 12*time.Millisecond)
			m.command("rule", "refused", 3*time.Millisecond)
			s := m.sender(&buttonSender{})
			key := outbox.Key{Case: "2026-001", Series: "event", Step: "7.1", To: outbox.Dest{Channel: "C0DOCKET1"}}
			if _, _, err := s.Send(context.Background(), key.To, "Filed", key); err != nil {
				t.Fatal(err)
			}
			m.sweep(40*time.Millisecond, nil)
			m.sweep(5*time.Millisecond, errors.New("database is locked"))
			got := buf.String()
			want := []string{
				`level=DEBUG msg=command command=file outcome=ok duration=12ms`,
				`level=DEBUG msg=command command=rule outcome=refused duration=3ms`,
				`level=DEBUG msg=delivery to=#C0DOCKET1 key=2026-001|event|7.1@#C0DOCKET1 result=sent duration=`,
				`level=DEBUG msg="reminder sweep" result=ok duration=40ms`,
				`level=DEBUG msg="reminder sweep" result=failed duration=5ms err="database is locked"`,
			}
			for _, w := range want {
				if level == "debug" && !strings.Contains(got, w) {
					t.Errorf("the debug log lacks %q:\n%s", w, got)
				}
			}
			if level == "" && got != "" {
				t.Errorf("logged at the default level:\n%s", got)
			}
		})
	}
}

// TestRevokedTokenFailsHealthz runs ethicsbot in HTTP mode with its bot token in a file
// (SLACK_BOT_TOKEN_FILE). Slack takes the token at start and revokes it after: the next
// message meets token_revoked, and /healthz then fails, 503, saying so and where to put a
// new token, and ethicsbot_health{component="slack"} is 0.
func TestRevokedTokenFailsHealthz(t *testing.T) {
	if testing.Short() {
		t.Skip("starts ethicsbot in a child process")
	}
	var revoked atomic.Bool
	slackAPI := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case revoked.Load():
			io.WriteString(w, `{"ok":false,"error":"token_revoked"}`)
		case r.URL.Path == "/api/chat.postMessage":
			io.WriteString(w, `{"ok":true,"channel":"C0DOCKET1","ts":"1800000000.000001"}`)
		case r.URL.Path == "/api/conversations.info":
			io.WriteString(w, `{"ok":true,"channel":{"id":"C0DOCKET1","is_member":true}}`)
		default:
			io.WriteString(w, `{"ok":true,"user_id":"UBOT","team_id":"T1","messages":[],"channel":{"id":"D0DIRECT1"}}`)
		}
	}))
	defer slackAPI.Close()
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "bot-token")
	if err := os.WriteFile(tokenFile, []byte("xoxb-test\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, env := apptest.ChildEnv(t, dir, slackAPI.URL, "commissioners: [U_COMM1]\n"+apptest.FaultPeople)
	env = append(env, "SLACK_BOT_TOKEN=", "SLACK_BOT_TOKEN_FILE="+tokenFile)
	srv := apptest.StartServer(t, env, apptest.FreeAddr(t))
	defer srv.Cmd.Process.Kill()

	revoked.Store(true)
	if _, ok := srv.File(1); !ok { // recorded; its messages meet the revoked token
		t.Fatalf("the filing failed:\n%s", srv.Stderr.String())
	}
	var health map[string]string
	var code int
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		resp, err := http.Get("http://" + srv.Addr + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		health = nil
		json.NewDecoder(resp.Body).Decode(&health)
		resp.Body.Close()
		if code = resp.StatusCode; code != http.StatusOK || time.Now().After(deadline) {
			break
		}
	}
	if code != http.StatusServiceUnavailable || health["slack"] != "refused" ||
		!strings.Contains(health["reason"], "Slack refuses the bot token (token_revoked: the token was revoked): "+
			"reinstall the app in Slack (api.slack.com/apps, Install App), put the new Bot User OAuth Token (xoxb-...) in "+
			"the file "+tokenFile+" (SLACK_BOT_TOKEN_FILE), and restart ethicsbot") {
		t.Errorf("healthz with the token revoked: %d %v\n%s", code, health, srv.Stderr.String())
	}
	if v, ok := metric(scrape(t, srv.Addr), `ethicsbot_health{component="slack"}`); !ok || v != 0 {
		t.Errorf(`ethicsbot_health{component="slack"} = %v (present %v), want 0`, v, ok)
	}
	if !strings.Contains(srv.Stderr.String(), "the file "+tokenFile+" (SLACK_BOT_TOKEN_FILE)") {
		t.Errorf("the log does not say where to put a new token:\n%s", srv.Stderr.String())
	}
	srv.Cmd.Process.Signal(syscall.SIGTERM)
	<-srv.Exited
}
